/* fdio.c: see fdio.h. */
#define _GNU_SOURCE /* close_range */
#include "fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* One loop for both: short writes and EINTR are retried the same way. */
static int put_all(int fd, const void *buf, size_t n, bool socket)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = socket ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int fd_write_all(int fd, const void *buf, size_t n)
{
	return put_all(fd, buf, n, false);
}

int fd_send_all(int fd, const void *buf, size_t n)
{
	return put_all(fd, buf, n, true);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

void fd_close_all_but(const int *keep, size_t n)
{
	int sorted[FD_KEEP_MAX];
	unsigned lo = 3;

	if (n > FD_KEEP_MAX)
		n = FD_KEEP_MAX;
	for (size_t i = 0; i < n; i++)
		sorted[i] = keep[i];
	qsort(sorted, n, sizeof sorted[0], cmp_int);
	for (size_t i = 0; i < n; i++) {
		if (sorted[i] < (int)lo)
			continue;
		if ((unsigned)sorted[i] > lo)
			close_range(lo, (unsigned)sorted[i] - 1, 0);
		lo = (unsigned)sorted[i] + 1;
	}
	close_range(lo, ~0u, 0);
}

ssize_t fd_read_small_file(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len + 1 < cap) {
		ssize_t n = read(fd, buf + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}
