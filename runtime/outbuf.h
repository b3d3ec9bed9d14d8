/* outbuf.h: a cursor that formats text into a caller's buffer.
 *
 * Why: the bridge's lines (print.h, jfrfeed.h) are built by many small
 * appends; once one does not fit, every later append is a no-op and the
 * result says so once, so formatting code need not check each step.
 *
 * Contract: OUTBUF_INIT(buf, cap) starts at 0; appends keep room for a NUL
 * (an append that would fill the last byte makes the cursor full);
 * outbuf_finish() writes the NUL and returns the length, or -ENOSPC once
 * full. No allocation, no I/O.
 */
#ifndef STAPJAVA_RUNTIME_OUTBUF_H
#define STAPJAVA_RUNTIME_OUTBUF_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

struct outbuf {
	char *buf;
	size_t cap, pos;
	bool full;
};

#define OUTBUF_INIT(b, c) ((struct outbuf){ (b), (c), 0, (c) == 0 })

static inline void outbuf_bytes(struct outbuf *o, const void *p, size_t n)
{
	if (o->full || n >= o->cap - o->pos) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->pos, p, n);
	o->pos += n;
}

static inline void outbuf_str(struct outbuf *o, const char *s)
{
	outbuf_bytes(o, s, strlen(s));
}

/* printf-like. */
void outbuf_fmt(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* FN writes S (N bytes) in a form of its own into (buf, cap) and returns
 * the length, or < 0 when it does not fit (print.h's print_text, ...). */
void outbuf_with(struct outbuf *o, ssize_t (*fn)(char *, size_t, const char *, size_t), const char *s,
		 size_t n);

static inline ssize_t outbuf_finish(struct outbuf *o)
{
	if (o->full || o->pos >= o->cap)
		return -ENOSPC;
	o->buf[o->pos] = '\0';
	return (ssize_t)o->pos;
}

#endif
