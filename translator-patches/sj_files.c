/* sj_files.c: see sj_files.h. */
#define _GNU_SOURCE /* asprintf */
#include "sj_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

/* FNV-1a: names the cached argument file after its content. */
static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

int sj_args_file_path(const char *words, size_t len, char **path)
{
	const char *cache = getenv("STAPJAVA_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME") && *getenv("HOME") ? getenv("HOME") : "/root";
	char dir[4096];

	if (cache && *cache)
		snprintf(dir, sizeof dir, "%s", cache);
	else if (xdg && *xdg)
		snprintf(dir, sizeof dir, "%s/stapjava", xdg);
	else
		snprintf(dir, sizeof dir, "%s/.cache/stapjava", home);
	if (asprintf(path, "%s/bridge-args-%016llx", dir, (unsigned long long)fnv1a(words, len)) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	return 0;
}

int sj_write_file(const char *path, const char *text, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, text, len);
	int rc = (w < 0 || (size_t)w != len) ? -EIO : 0;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

static int mkdir_p(const char *path)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

static int cache_dir_is_private(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		sj_error("cache directory '%s' must be a directory of uid %u, not writable by "
			 "group or others (STAPJAVA_CACHE chooses another)", dir, (unsigned)geteuid());
		return -EPERM;
	}
	return 0;
}

static int write_file_replacing(const char *path, const char *text, size_t len)
{
	char *tmp;

	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		return -ENOMEM;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int rc = fd < 0 ? -errno : 0;
	if (rc == 0) {
		ssize_t w = write(fd, text, len);
		rc = (w < 0 || (size_t)w != len) ? -EIO : 0;
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		if (rc == 0 && rename(tmp, path) < 0)
			rc = -errno;
		if (rc < 0)
			unlink(tmp);
	}
	free(tmp);
	return rc;
}

int sj_store_private(const char *path, const char *text, size_t len)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	*strrchr(dir, '/') = '\0';
	int rc = mkdir_p(dir);
	if (rc == 0)
		rc = cache_dir_is_private(dir);
	if (rc == -EPERM)
		return rc;
	if (rc == 0)
		rc = write_file_replacing(path, text, len);
	if (rc < 0)
		sj_error("cannot write '%s': %s", path, strerror(-rc));
	return rc;
}
