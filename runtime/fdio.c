/* fdio.c: see fdio.h. */
#include "fdio.h"

#include <errno.h>
#include <unistd.h>

int fd_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
