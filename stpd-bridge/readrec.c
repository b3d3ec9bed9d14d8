/* readrec.c: see readrec.h. */
#include "readrec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdio.h"
#include "log.h"

#define BATCH 65536u

struct lines {
	int fd;
	char *buf;          /* BATCH + PRINT_LINE_MAX */
	size_t len;
	int error;          /* the output's */
};

static int flush(struct lines *l)
{
	int rc = l->len && !l->error ? fd_write_all(l->fd, l->buf, l->len) : 0;

	l->len = 0;
	if (rc < 0 && !l->error)
		l->error = rc;
	return l->error;
}

static int one_line(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	struct lines *l = ctx;
	ssize_t n = print_event_line(l->buf + l->len, PRINT_LINE_MAX, meta, ev);

	if (n < 0)  /* cannot happen for what a decoder accepts; a reader may build more */
		return n;
	l->len += (size_t)n;
	return l->len >= BATCH ? flush(l) : 0;
}

int read_recording(const char *path, const struct record_format *fmt, int out_fd)
{
	struct lines l = { .fd = out_fd, .buf = malloc(BATCH + PRINT_LINE_MAX) };
	struct record_error err = { 0 };
	uint8_t *data = NULL;
	size_t len = 0;
	bool mapped = false;
	struct stat st;
	int rc, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = -errno;
		sj_error("--read '%s': %s", path, strerror(-rc));
		if (fd >= 0)
			close(fd);
		free(l.buf);
		return rc;
	}
	rc = S_ISDIR(st.st_mode) ? -EISDIR : 0;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		mapped = data != MAP_FAILED;
		len = mapped ? (size_t)st.st_size : 0;
		rc = mapped ? 0 : -errno;
		if (!mapped)
			data = NULL;
	}
	close(fd);
	if (rc == 0 && !l.buf)
		rc = -ENOMEM;
	if (rc == 0 && !S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		sj_error("--read '%s': not a regular file (a recording is read from a file)", path);
	} else if (rc < 0)
		sj_error("--read '%s': %s", path, strerror(-rc));
	else {
		rc = fmt->read(data, len, one_line, &l, &err);
		int out = flush(&l);
		if (l.error)
			sj_error("--read: output: %s", strerror(-l.error));
		else if (rc == -EINVAL)
			sj_error("--read '%s': offset %llu: %s", path, (unsigned long long)err.offset, err.text);
		else if (rc < 0)
			sj_error("--read '%s': %s", path, strerror(-rc));
		if (rc == 0)
			rc = out;
	}
	if (mapped)
		munmap(data, len);
	free(l.buf);
	return rc;
}
