/* sj_buf.c: see sj_buf.h. */
#include "sj_buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int reserve(struct sj_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, cap = b->cap ? b->cap : 256;

	if (need <= b->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

int sj_buf_add(struct sj_buf *b, const char *s, size_t n)
{
	if (reserve(b, n) < 0)
		return -ENOMEM;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int sj_buf_puts(struct sj_buf *b, const char *s)
{
	return sj_buf_add(b, s, strlen(s));
}

int sj_buf_printf(struct sj_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if (reserve(b, (size_t)n) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

const char *sj_buf_str(const struct sj_buf *b)
{
	return b->data ? b->data : "";
}

void sj_buf_free(struct sj_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int sj_buf_read_fd(struct sj_buf *b, int fd)
{
	char chunk[8192];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		if (sj_buf_add(b, chunk, (size_t)n) < 0)
			return -ENOMEM;
	}
}
