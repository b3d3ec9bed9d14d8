/* rec_bytes.h: bytes in and out for the seed trace formats (rec_trc*.c,
 * rec_trcbin*.c): a message built in a reusable buffer, a bounded cursor
 * over an untrusted file, and the events a reader hands back.
 *
 * Contract. Writing: rec_buf_begin() makes room for a whole message of at
 * most N bytes (the buffer grows only for a message larger than any
 * before, so steady state allocates nothing); the rec_put_* that follow are
 * unchecked and little-endian, the byte order both writers use.
 * Reading: a rec_cursor reads fields in either byte order from
 * data[pos..end) and never past END. Its first failure (a field past END,
 * or rec_cursor_fail() for a bad value) is kept in the struct record_error
 * with the offset of the field and a sentence naming the record, where it
 * starts, and what was wrong; later failures keep the first. After a
 * failure the getters yield zeros and empty strings, so a parser checks
 * rec_cursor_failed() once before it uses what it read. A reader fills
 * an event from rec_event_reset() (the fields a --print line may show, no
 * values, no trailer, return value "?") and passes it to rec_hand_back().
 */
#ifndef STPD_BRIDGE_REC_BYTES_H
#define STPD_BRIDGE_REC_BYTES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

/* ------------------------------------------------------------------ writing */
struct rec_buf {
	uint8_t *p;
	size_t len, cap;
};

/* Empty the buffer with room for N bytes: 0 or -ENOMEM. */
static inline int rec_buf_begin(struct rec_buf *b, size_t n)
{
	b->len = 0;
	if (n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (cap < n)
			cap *= 2;
		if (!(p = realloc(b->p, cap)))
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	return 0;
}

static inline void rec_buf_free(struct rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

static inline void rec_put_u8(struct rec_buf *b, uint8_t v)
{
	b->p[b->len++] = v;
}

/* The N low bytes of V, least significant first, in one copy: stored a
 * byte at a time, through b->p (which may alias b->len, as any byte
 * pointer may), each byte reloaded the buffer and its length (a fifth of
 * a trcbin event's writing, callgrind). */
static inline void rec_put_le(struct rec_buf *b, uint64_t v, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);  /* its first N bytes: the low ones, least first */
#endif
	memcpy(b->p + b->len, &v, n);
	b->len += n;
}

static inline void rec_put_u16(struct rec_buf *b, uint16_t v)
{
	rec_put_le(b, v, 2);
}

static inline void rec_put_u32(struct rec_buf *b, uint32_t v)
{
	rec_put_le(b, v, 4);
}

static inline void rec_put_u64(struct rec_buf *b, uint64_t v)
{
	rec_put_le(b, v, 8);
}

static inline void rec_put_bytes(struct rec_buf *b, const void *p, size_t n)
{
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* ------------------------------------------------------------------ reading */
struct rec_cursor {
	const uint8_t *data;
	size_t len;               /* the whole file */
	size_t pos, end;          /* end: the current record's limit (<= len) */
	bool big;                 /* the file's byte order after its header */
	const char *record;       /* the record being read, for messages */
	size_t record_at;
	struct record_error *err;
	bool failed;
};

/* Keep the first failure: OFFSET and "RECORD (at N): TEXT". Returns -EINVAL. */
int rec_cursor_fail(struct rec_cursor *c, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline bool rec_cursor_failed(const struct rec_cursor *c)
{
	return c->failed;
}

/* A new record named RECORD starts at pos, bounded by END. */
static inline void rec_cursor_record(struct rec_cursor *c, const char *record, size_t end)
{
	c->record = record;
	c->record_at = c->pos;
	c->end = end;
}

/* N bytes of field FIELD, or NULL (and the failure) when they pass the end. */
const uint8_t *rec_take(struct rec_cursor *c, size_t n, const char *field);

static inline uint64_t rec_get_uint(struct rec_cursor *c, size_t n, const char *field)
{
	const uint8_t *p = rec_take(c, n, field);
	uint64_t v = 0;

	if (!p)
		return 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[c->big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

static inline uint8_t rec_get_u8(struct rec_cursor *c, const char *field)
{
	return (uint8_t)rec_get_uint(c, 1, field);
}

static inline uint16_t rec_get_u16(struct rec_cursor *c, const char *field)
{
	return (uint16_t)rec_get_uint(c, 2, field);
}

static inline uint32_t rec_get_u32(struct rec_cursor *c, const char *field)
{
	return (uint32_t)rec_get_uint(c, 4, field);
}

static inline uint64_t rec_get_u64(struct rec_cursor *c, const char *field)
{
	return rec_get_uint(c, 8, field);
}

/* ------------------------------------------------------------------ events read */
struct wire_event *rec_event_reset(struct wire_event *ev, unsigned code);
/* FN(CTX, meta, EV): the meta of PID, TID and TS_NS, with the thread's
 * NAME on thread.start and thread.end (none when it is empty). */
int rec_hand_back(record_event_fn fn, void *ctx, uint32_t pid, uint64_t tid, uint64_t ts_ns,
		  struct wire_str name, const struct wire_event *ev);

#endif
