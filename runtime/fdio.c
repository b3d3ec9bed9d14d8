/* fdio.c: see fdio.h. */
#include "fdio.h"

#include <errno.h>
#include <stdbool.h>
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
