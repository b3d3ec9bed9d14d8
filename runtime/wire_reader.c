/* wire_reader.c: a bounded receive buffer for a stream socket.
 *
 * Bytes live in buf[start..end). Consumed bytes are reclaimed by moving the
 * unconsumed tail to the front, which is cheap because it is at most one
 * partial message; this happens only when the free space at the end has
 * become small, so most reads land without any copying.
 */
#include "wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int wire_reader_init(struct wire_reader *r, size_t cap)
{
	r->buf = NULL;
	r->cap = r->start = r->end = 0;
	if (cap < WIRE_MAX_MESSAGE)
		return -EINVAL;
	r->buf = malloc(cap);
	if (!r->buf)
		return -ENOMEM;
	r->cap = cap;
	return 0;
}

void wire_reader_free(struct wire_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = r->start = r->end = 0;
}

static void wire_reader_compact(struct wire_reader *r)
{
	size_t n = r->end - r->start;

	if (r->start == 0)
		return;
	memmove(r->buf, r->buf + r->start, n);
	r->start = 0;
	r->end = n;
}

/* Make room at the end when less than `want` bytes (or half the buffer,
 * whichever is smaller) are free there. */
static void wire_reader_make_room(struct wire_reader *r, size_t want)
{
	size_t half = r->cap / 2;

	if (want > half)
		want = half;
	if (r->cap - r->end < want)
		wire_reader_compact(r);
}

long wire_reader_fill(struct wire_reader *r, int fd)
{
	ssize_t n;

	wire_reader_make_room(r, r->cap);
	/* full of one incomplete message: the decoder should have refused it */
	if (r->end == r->cap)
		return -ENOBUFS;
	do
		n = read(fd, r->buf + r->end, r->cap - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->end += (size_t)n;
	return (long)n;
}

int wire_reader_push(struct wire_reader *r, const void *data, size_t len)
{
	if (len > r->cap - r->end)
		wire_reader_compact(r);
	if (len > r->cap - r->end)
		return -ENOSPC;
	if (len)
		memcpy(r->buf + r->end, data, len);
	r->end += len;
	return 0;
}

void wire_reader_consume(struct wire_reader *r, size_t n)
{
	size_t have = r->end - r->start;

	if (n > have)
		n = have;
	r->start += n;
	/* an empty buffer starts over at the front for free */
	if (r->start == r->end)
		r->start = r->end = 0;
}
