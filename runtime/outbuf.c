/* outbuf.c: see outbuf.h. */
#include "outbuf.h"

#include <stdarg.h>
#include <stdio.h>

void outbuf_fmt(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->cap - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->pos)
		o->full = true;
	else
		o->pos += (size_t)n;
}

void outbuf_with(struct outbuf *o, ssize_t (*fn)(char *, size_t, const char *, size_t), const char *s,
		 size_t n)
{
	ssize_t w;

	if (o->full)
		return;
	w = fn(o->buf + o->pos, o->cap - o->pos, s, n);
	if (w < 0 || (size_t)w >= o->cap - o->pos)
		o->full = true;
	else
		o->pos += (size_t)w;
}
