/* rec_jfr_bytes.h: the bytes of a JFR file (doc/recording-jfr.md), for the
 * writer (rec_jfr.c) and the reader (rec_jfr_parse.c).
 *
 * Contract: the chunk header is big-endian; everything after it is made of
 * "compressed" integers: 7 bits a byte, least significant group first, the
 * high bit saying another byte follows, and a ninth byte (for 64 bits) that
 * holds its 8 bits whole. Strings are an encoding byte (JFR_STR_*) and, for
 * UTF-8 and Latin-1, a length then the bytes, for UTF-16 a count then one
 * compressed integer per code unit. The encoders write into a jfr_buf,
 * which grows by doubling (jfr_buf_reserve is its only allocation); the
 * decoders read from a bounded cursor and never past its end: a read that
 * would go past it sets the cursor's `bad` and returns 0.
 */
#ifndef STPD_BRIDGE_REC_JFR_BYTES_H
#define STPD_BRIDGE_REC_JFR_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JFR_MAGIC          "FLR\0"
#define JFR_HEADER_SIZE    68u
#define JFR_VERSION_MAJOR  2u
#define JFR_VERSION_MINOR  1u
/* chunk header fields (byte offsets) */
#define JFR_HDR_SIZE       8u     /* u64 chunk size */
#define JFR_HDR_CP         16u    /* u64 offset of the last constant pool event */
#define JFR_HDR_META       24u    /* u64 offset of the metadata event */
#define JFR_HDR_START_NS   32u    /* u64 wall-clock nanoseconds at the chunk's start */
#define JFR_HDR_DURATION   40u    /* u64 nanoseconds */
#define JFR_HDR_TICKS      48u    /* u64 ticks at the chunk's start */
#define JFR_HDR_FREQ       56u    /* u64 ticks per second */
#define JFR_HDR_STATE      64u    /* u8 0: the chunk is complete; the JDK's reader waits on others */
#define JFR_HDR_FLAGS      66u    /* u16 JFR_FLAG_* */
#define JFR_FLAG_COMPRESSED_INTS 1u
#define JFR_FLAG_FINAL_CHUNK     2u

/* record types that are no event */
#define JFR_TYPE_METADATA  0u
#define JFR_TYPE_CPOOL     1u
/* a checkpoint's kind: a JVM that streams ends each flush with one that has
 * FLUSH (and HEADER) set, and a chunk with one that has HEADER */
#define JFR_CHECKPOINT_FLUSH  1u
#define JFR_CHECKPOINT_HEADER 2u

enum jfr_string_encoding {
	JFR_STR_NULL = 0, JFR_STR_EMPTY = 1, JFR_STR_POOL = 2,
	JFR_STR_UTF8 = 3, JFR_STR_UTF16 = 4, JFR_STR_LATIN1 = 5,
};

#define JFR_VARINT_MAX 9u

/* ---- writing */
struct jfr_buf {
	uint8_t *data;
	size_t len, cap;
	int error;            /* -ENOMEM once a reserve failed; then writes are dropped */
};

/* Room for N more bytes; false (and b->error) when memory runs out. */
bool jfr_buf_grow(struct jfr_buf *b, size_t n);
static inline bool jfr_buf_reserve(struct jfr_buf *b, size_t n)
{
	return b->cap - b->len >= n || jfr_buf_grow(b, n);
}
void jfr_buf_free(struct jfr_buf *b);

/* The bytes of V as a compressed integer, into P (JFR_VARINT_MAX bytes): how many. */
static inline size_t jfr_varint_encode(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80 && n < 8) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline size_t jfr_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80 && n < 9) {
		v >>= 7;
		n++;
	}
	return n;
}

/* A record's size counts its own bytes: the size of a record whose other
 * bytes are BODY. */
static inline uint64_t jfr_record_size(uint64_t body)
{
	uint64_t n = body + jfr_varint_len(body + 1);

	return body + jfr_varint_len(n);
}

static inline void jfr_put_u8(struct jfr_buf *b, uint8_t v)
{
	if (jfr_buf_reserve(b, 1))
		b->data[b->len++] = v;
}

static inline void jfr_put_varint(struct jfr_buf *b, uint64_t v)
{
	if (jfr_buf_reserve(b, JFR_VARINT_MAX))
		b->len += jfr_varint_encode(b->data + b->len, v);
}

/* An int field: its 32 bits, so -1 takes 5 bytes, not 9. */
static inline void jfr_put_int(struct jfr_buf *b, int32_t v)
{
	jfr_put_varint(b, (uint32_t)v);
}

static inline void jfr_put_bytes(struct jfr_buf *b, const void *p, size_t n)
{
	if (n && jfr_buf_reserve(b, n)) {
		memcpy(b->data + b->len, p, n);
		b->len += n;
	}
}

/* A string as UTF-8 bytes (we never convert: the bytes are the agent's);
 * P NULL: the null string. */
static inline void jfr_put_string(struct jfr_buf *b, const char *p, size_t n)
{
	if (!p) {
		jfr_put_u8(b, JFR_STR_NULL);
	} else if (n == 0) {
		jfr_put_u8(b, JFR_STR_EMPTY);
	} else {
		jfr_put_u8(b, JFR_STR_UTF8);
		jfr_put_varint(b, n);
		jfr_put_bytes(b, p, n);
	}
}

static inline void jfr_store_be(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

static inline uint64_t jfr_load_be(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v = v << 8 | p[i];
	return v;
}

/* ---- reading */
struct jfr_cursor {
	const uint8_t *base;  /* the whole file: offsets in messages are from here */
	size_t pos, end;      /* end: this record's (or chunk's) last byte + 1 */
	bool bad;             /* a read went past end */
};

static inline uint8_t jfr_get_u8(struct jfr_cursor *c)
{
	if (c->pos >= c->end) {
		c->bad = true;
		return 0;
	}
	return c->base[c->pos++];
}

static inline uint64_t jfr_get_varint(struct jfr_cursor *c)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++) {
		uint8_t b = jfr_get_u8(c);

		v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v | (uint64_t)jfr_get_u8(c) << 56;
}

/* A string as the file holds it. */
struct jfr_text {
	const uint8_t *ptr;   /* NULL: the null string */
	size_t len;           /* bytes at ptr */
	enum jfr_string_encoding enc;   /* UTF8 (or EMPTY), LATIN1, or UTF16: ptr holds the units */
	size_t units;         /* UTF16: how many */
};

/* The most bytes T's characters take in UTF-8. */
static inline size_t jfr_text_max(const struct jfr_text *t)
{
	return t->enc == JFR_STR_UTF16 ? 3 * t->units : t->enc == JFR_STR_LATIN1 ? 2 * t->len : t->len;
}

/* T's characters in UTF-8 into OUT (jfr_text_max bytes): how many. A
 * surrogate pair is one character; a lone surrogate is its own 3 bytes
 * (not UTF-8: --print shows them escaped). */
size_t jfr_text_utf8(const struct jfr_text *t, char *out);

/* Skip N bytes; false (and bad) when fewer remain. */
static inline bool jfr_skip(struct jfr_cursor *c, uint64_t n)
{
	if (n > c->end - c->pos) {
		c->bad = true;
		c->pos = c->end;
		return false;
	}
	c->pos += (size_t)n;
	return true;
}

#endif
