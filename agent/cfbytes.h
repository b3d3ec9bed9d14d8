/* cfbytes.h: big-endian readers and writers for class-file bytes.
 *
 * Contract: a struct cf_rd never reads outside its buffer: a read past the
 * end sets err and yields 0, so a parser checks err once per structure. A
 * struct cf_wr grows with realloc; a failed allocation sets err and later
 * writes do nothing. Header-only (static inline): classfile.c, stackmap.c
 * and cfmethods.c share it.
 */
#ifndef STAPJAVA_AGENT_CFBYTES_H
#define STAPJAVA_AGENT_CFBYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct cf_rd {
	const uint8_t *p;
	size_t len, off;
	bool err;
};

static inline bool rd_has(struct cf_rd *r, size_t n)
{
	if (r->err || n > r->len - r->off) {
		r->err = true;
		return false;
	}
	return true;
}

static inline uint32_t rd_u1(struct cf_rd *r)
{
	return rd_has(r, 1) ? r->p[r->off++] : 0;
}

static inline uint32_t rd_u2(struct cf_rd *r)
{
	if (!rd_has(r, 2))
		return 0;
	uint32_t v = (uint32_t)r->p[r->off] << 8 | r->p[r->off + 1];
	r->off += 2;
	return v;
}

static inline uint32_t rd_u4(struct cf_rd *r)
{
	if (!rd_has(r, 4))
		return 0;
	const uint8_t *b = r->p + r->off;
	r->off += 4;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline void rd_skip(struct cf_rd *r, size_t n)
{
	if (rd_has(r, n))
		r->off += n;
}

/* Past an attributes table (u2 count, then u2 name, u4 length, bytes each). */
static inline void rd_skip_attributes(struct cf_rd *r)
{
	uint32_t n = rd_u2(r);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		rd_skip(r, 2);
		rd_skip(r, rd_u4(r));
	}
}

/* Past a fields or methods table (u2 count, then access, name, descriptor
 * and attributes each). */
static inline void rd_skip_members(struct cf_rd *r)
{
	uint32_t n = rd_u2(r);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		rd_skip(r, 6);
		rd_skip_attributes(r);
	}
}

struct cf_wr {
	uint8_t *p;
	size_t len, cap;
	bool err;
};

static inline uint8_t *wr_room(struct cf_wr *w, size_t n)
{
	if (w->err)
		return NULL;
	if (w->cap - w->len < n) {
		size_t cap = w->cap ? w->cap : 256;
		while (cap - w->len < n)
			cap *= 2;
		uint8_t *p = realloc(w->p, cap);
		if (!p) {
			w->err = true;
			return NULL;
		}
		w->p = p;
		w->cap = cap;
	}
	uint8_t *at = w->p + w->len;
	w->len += n;
	return at;
}

static inline void wr_bytes(struct cf_wr *w, const void *b, size_t n)
{
	uint8_t *at = wr_room(w, n);
	if (at && n)
		memcpy(at, b, n);
}

static inline void wr_u1(struct cf_wr *w, uint32_t v)
{
	uint8_t b = (uint8_t)v;
	wr_bytes(w, &b, 1);
}

static inline void wr_u2(struct cf_wr *w, uint32_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	wr_bytes(w, b, 2);
}

static inline void wr_u4(struct cf_wr *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	wr_bytes(w, b, 4);
}

/* Overwrite a u4 written earlier at AT (a length filled in afterwards). */
static inline void wr_put_u4(struct cf_wr *w, size_t at, uint32_t v)
{
	if (w->err)
		return;
	w->p[at] = (uint8_t)(v >> 24);
	w->p[at + 1] = (uint8_t)(v >> 16);
	w->p[at + 2] = (uint8_t)(v >> 8);
	w->p[at + 3] = (uint8_t)v;
}

#endif
