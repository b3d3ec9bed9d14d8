/* sj_resolve.c: see sj_resolve.h. */
#define _GNU_SOURCE /* asprintf, mkostemp */
#include "sj_resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sj_buf.h"
#include "sj_run.h"

/* A new file in DIR for reading and writing (a unique name: the user's script is
 * there under its own name): its fd, or -errno. */
static int scratch(const char *dir, const char *what, char **path)
{
	if (asprintf(path, "%s/.%s.XXXXXX", dir, what) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	int fd = mkostemp(*path, O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void release(int fd, char *path)
{
	if (fd >= 0)
		close(fd);
	if (path)
		unlink(path);
	free(path);
}

int sj_resolve(struct sj_translation *t, char *const argv[], const char *dir,
	       struct sj_srcmap *map, int *status)
{
	char *out_path = NULL, *err_path = NULL;
	struct sj_buf parsed = { 0 };
	int out = scratch(dir, "pass1-out", &out_path);
	int err = out < 0 ? out : scratch(dir, "pass1-err", &err_path);
	int rc = err < 0 ? err : 0;

	*status = 0;
	if (rc == 0) {
		rc = sj_run_stap(argv, map, out, err);
		if (rc > 0) {
			*status = rc;
			rc = 0;
			if (lseek(err, 0, SEEK_SET) == 0)
				sj_run_filter(err, map);
		} else if (rc == 0) {
			rc = lseek(out, 0, SEEK_SET) < 0 ? -errno : sj_buf_read_fd(&parsed, out);
			if (rc == 0)
				rc = sj_translation_resolve(t, sj_buf_str(&parsed), parsed.len);
		}
	}
	if (rc < 0)
		sj_error("cannot run %s -p1 to resolve conditionals and macros: %s", argv[0],
			 strerror(-rc));
	sj_buf_free(&parsed);
	release(out, out_path);
	release(err, err_path);
	return rc;
}
