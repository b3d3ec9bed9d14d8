/* sj_java_stap.c: see sj_java_stap.h. */
#include "sj_java_stap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sj_real_stap(char *out, size_t cap)
{
	const char *env = getenv("STAPJAVA_STAP"), *path = getenv("PATH");
	struct stat self, st;

	if (env && *env) {
		int n = snprintf(out, cap, "%s", env);
		return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
	}
	if (stat("/proc/self/exe", &self) < 0)
		return -errno;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	bool skipped = false;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		/* an empty entry is the current directory, as for execvp */
		int len = n ? snprintf(out, cap, "%.*s/stap", (int)n, p) : snprintf(out, cap, "./stap");
		if (len > 0 && (size_t)len < cap && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0) {
			if (!(st.st_dev == self.st_dev && st.st_ino == self.st_ino)) {
				if (skipped)
					return 1;
				snprintf(out, cap, "stap");	/* what execvp finds first */
				return 0;
			}
			skipped = true;
		}
		p += n;
		p += *p == ':';
	}
	return -ENOENT;
}
