/* jvmsel.c: see jvmsel.h. */
#include "jvmsel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "procfs.h"

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int jvmsel_check(const char *sel)
{
	if (!*sel || strchr(sel, '\n'))
		return -EINVAL;
	if (all_digits(sel) && (strlen(sel) > 9 || atol(sel) <= 0))
		return -EINVAL;
	return 0;
}

/* jps's short name: a class without its package, a jar without its directory
 * (a module's "m/c" without the module: the class's part of that). */
static const char *short_name(const char *main)
{
	const char *slash = strrchr(main, '/');
	const char *base = slash ? slash + 1 : main;
	size_t n = strlen(base);

	if (n > 4 && strcmp(base + n - 4, ".jar") == 0)
		return base;
	const char *dot = strrchr(base, '.');
	return dot ? dot + 1 : base;
}

bool jvmsel_matches_main(pid_t pid, const char *main, const char *const *sels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (all_digits(sels[i])) {
			if (atol(sels[i]) == (long)pid)
				return true;
			continue;
		}
		if (*main && (strcmp(main, sels[i]) == 0 || strcmp(short_name(main), sels[i]) == 0))
			return true;
	}
	return false;
}

bool jvmsel_matches(pid_t pid, const char *const *sels, size_t n)
{
	char cmdline[8192], main[4096];
	ssize_t len = procfs_cmdline(pid, cmdline, sizeof cmdline);

	main[0] = '\0';
	if (len > 0)
		discovery_main_class(cmdline, (size_t)len, main, sizeof main);
	return jvmsel_matches_main(pid, main, sels, n);
}
