/* rec_jfr_parse.c: see rec_jfr_parse.h. The layout is the JDK's (JDK 11
 * and later, chunk version 2.x), as doc/recording-jfr.md describes it. */
#include "rec_jfr_parse.h"
#include "rec_jfr_meta.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32u         /* values within values */
/* value reads per record byte (with a floor): a value of no bytes (a
 * struct without fields) still costs one */
#define BUDGET(bytes) (8u * (uint64_t)(bytes) + 4096u)

int jfr_fail(struct record_error *err, size_t offset, const char *fmt, ...)
{
	va_list ap;

	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof err->text, fmt, ap);
	va_end(ap);
	/* names from the file in it: no control byte breaks the line */
	for (char *c = err->text; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7F)
			*c = '?';
	return -EINVAL;
}

int jfr_cut(struct record_error *err, const struct jfr_cursor *c, const char *what)
{
	return jfr_fail(err, c->pos, "%s runs past the end of its record", what);
}

/* ---- classes */
uint32_t jfr_class_index(const struct jfr_chunk *ch, uint64_t id)
{
	uint32_t lo = 0, hi = ch->nclasses;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ch->classes[mid].id == id)
			return mid;
		if (ch->classes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return JFR_NO_CLASS;
}

/* ---- strings */
/* Where a string's bytes are, without reading pool references. */
int jfr_read_string(struct jfr_cursor *c, struct jfr_text *t, uint64_t *pool_key, struct record_error *err)
{
	size_t at = c->pos;
	uint8_t enc = jfr_get_u8(c);
	uint64_t n;

	memset(t, 0, sizeof *t);
	*pool_key = 0;
	t->enc = enc;
	switch (enc) {
	case JFR_STR_NULL:
		break;
	case JFR_STR_EMPTY:
		t->ptr = c->base + c->pos;
		break;
	case JFR_STR_POOL:
		*pool_key = jfr_get_varint(c);
		break;
	case JFR_STR_UTF8:
	case JFR_STR_LATIN1:
		n = jfr_get_varint(c);
		t->ptr = c->base + c->pos;
		t->len = (size_t)n;
		jfr_skip(c, n);
		break;
	case JFR_STR_UTF16:
		n = jfr_get_varint(c);
		t->ptr = c->base + c->pos;
		t->units = (size_t)n;
		if (n > c->end - c->pos)   /* a unit takes one byte at least */
			c->bad = true;
		for (uint64_t i = 0; i < n && !c->bad; i++)
			jfr_get_varint(c);
		t->len = c->pos - (size_t)(t->ptr - c->base);
		break;
	default:
		return jfr_fail(err, at, "unknown string encoding %u", enc);
	}
	return c->bad ? jfr_cut(err, c, "a string") : 0;
}

/* ---- values */
static int skip_one(struct jfr_chunk *ch, struct jfr_cursor *c, uint32_t cls, bool pool, unsigned depth,
		    struct record_error *err)
{
	const struct jfr_pclass *k = &ch->classes[cls];
	struct jfr_text t;
	uint64_t key;

	if (ch->budget == 0)
		return jfr_fail(err, c->pos, "too many values (or values of no bytes) in one record");
	ch->budget--;
	if (pool) {
		jfr_get_varint(c);
		return c->bad ? jfr_cut(err, c, "a constant pool reference") : 0;
	}
	switch (k->prim) {
	case JFR_P_BOOLEAN:
	case JFR_P_BYTE:
		jfr_skip(c, 1);
		break;
	case JFR_P_CHAR:
	case JFR_P_SHORT:
	case JFR_P_INT:
	case JFR_P_LONG:
		jfr_get_varint(c);
		break;
	case JFR_P_FLOAT:
		jfr_skip(c, 4);
		break;
	case JFR_P_DOUBLE:
		jfr_skip(c, 8);
		break;
	case JFR_P_STRING:
		return jfr_read_string(c, &t, &key, err);
	default:
		if (depth >= MAX_DEPTH)
			return jfr_fail(err, c->pos, "values nested deeper than %u (class %s)", MAX_DEPTH, k->name);
		for (uint32_t i = 0; i < k->nfields; i++) {
			const struct jfr_pfield *f = &ch->fields[k->field0 + i];
			int rc = jfr_skip_value(ch, c, f->type, f->pool, f->array, depth + 1, err);

			if (rc < 0)
				return rc;
		}
		return 0;
	}
	return c->bad ? jfr_cut(err, c, "a value") : 0;
}

int jfr_skip_value(struct jfr_chunk *ch, struct jfr_cursor *c, uint32_t cls, bool pool, bool array, unsigned depth,
		   struct record_error *err)
{
	uint64_t n;

	if (!array)
		return skip_one(ch, c, cls, pool, depth, err);
	n = jfr_get_varint(c);
	if (c->bad)
		return jfr_cut(err, c, "an array's length");
	if (n > ch->budget)
		return jfr_fail(err, c->pos, "an array of %" PRIu64 " elements is longer than its record allows", n);
	for (uint64_t i = 0; i < n; i++) {
		int rc = skip_one(ch, c, cls, pool, depth, err);

		if (rc < 0)
			return rc;
	}
	return 0;
}

void jfr_set_budget(struct jfr_chunk *ch, size_t record_bytes)
{
	ch->budget = BUDGET(record_bytes);
}

int jfr_read_fields(struct jfr_chunk *ch, uint32_t cls, struct jfr_cursor *c, size_t pos[JFR_MAX_WANT],
		    struct record_error *err)
{
	const struct jfr_pclass *k = &ch->classes[cls];

	memset(pos, 0, JFR_MAX_WANT * sizeof pos[0]);
	for (uint32_t i = 0; i < k->nfields; i++) {
		const struct jfr_pfield *f = &ch->fields[k->field0 + i];
		int rc;

		for (unsigned w = 0; w < JFR_MAX_WANT; w++)
			if (k->want[w] == (int16_t)i)
				pos[w] = c->pos;
		rc = jfr_skip_value(ch, c, f->type, f->pool, f->array, 1, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* ---- the constant pools: (class, key) -> where the value is */
/* Every bit of CLS and KEY reaches the low bits the table's mask keeps:
 * each pool numbers its keys from 1, so the same keys come in every class,
 * and a class mixed into the high bits only (as it was) put them in long
 * runs of the table (23 probes a lookup on a default.jfc recording; now
 * under 4). The finaliser of splitmix64. */
static uint64_t slot_hash(uint32_t cls, uint64_t key)
{
	uint64_t h = key ^ ((uint64_t)cls * 0x9E3779B97F4A7C15ull);

	h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
	h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
	return h ^ (h >> 31);
}

struct jfr_pool_slot *jfr_pool_find(const struct jfr_chunk *ch, uint32_t cls, uint64_t key)
{
	if (!ch->pool)
		return NULL;
	for (size_t i = slot_hash(cls, key) & ch->pool_mask;; i = (i + 1) & ch->pool_mask) {
		struct jfr_pool_slot *s = &ch->pool[i];

		if (s->cls == JFR_NO_CLASS || (s->cls == cls && s->key == key))
			return s;
	}
}

int jfr_pool_add(struct jfr_chunk *ch, uint32_t cls, uint64_t key, size_t pos)
{
	struct jfr_pool_slot *s;

	if ((ch->npool + 1) * 4 > (ch->pool_mask + 1) * 3 || !ch->pool) {
		size_t size = ch->pool ? (ch->pool_mask + 1) * 2 : 1024;
		struct jfr_pool_slot *old = ch->pool;
		size_t oldsize = ch->pool ? ch->pool_mask + 1 : 0;

		ch->pool = malloc(size * sizeof *ch->pool);
		if (!ch->pool) {
			ch->pool = old;
			return -ENOMEM;
		}
		for (size_t i = 0; i < size; i++)
			ch->pool[i].cls = JFR_NO_CLASS;
		ch->pool_mask = size - 1;
		for (size_t i = 0; i < oldsize; i++)
			if (old[i].cls != JFR_NO_CLASS)
				*jfr_pool_find(ch, old[i].cls, old[i].key) = old[i];
		free(old);
	}
	s = jfr_pool_find(ch, cls, key);
	if (s->cls == JFR_NO_CLASS) {   /* the latest event's entry wins: the first read */
		s->cls = cls;
		s->key = key;
		s->pos = pos;
		ch->npool++;
	} else if (ch->last_wins) {
		s->pos = pos;
	}
	return 0;
}

/* A record at C->pos: its size checked against C->end, C->end set to its
 * end, its type read. */
int jfr_record_start(struct jfr_cursor *c, uint64_t type, struct record_error *err, const char *what)
{
	size_t at = c->pos;
	uint64_t size = jfr_get_varint(c), got;

	if (c->bad || size == 0 || size > c->end - at)
		return jfr_fail(err, at, "%s: its size %" PRIu64 " does not fit in the %zu bytes left of the chunk",
				what, size, c->end - at);
	c->end = at + (size_t)size;
	got = jfr_get_varint(c);
	if (c->bad)
		return jfr_cut(err, c, what);
	if (got != type)
		return jfr_fail(err, at, "%s here has type %" PRIu64 ", not %" PRIu64, what, got, type);
	return 0;
}

int jfr_index_checkpoint(struct jfr_chunk *ch, size_t at, int64_t *delta, uint8_t *kind, struct record_error *err)
{
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	uint64_t npools;
	int rc = jfr_record_start(&c, JFR_TYPE_CPOOL, err, "the constant pool event");

	if (rc < 0)
		return rc;
	ch->budget = BUDGET(c.end - at);
	jfr_get_varint(&c);                   /* start time */
	jfr_get_varint(&c);                   /* duration */
	*delta = (int64_t)jfr_get_varint(&c); /* to the previous one */
	*kind = jfr_get_u8(&c);
	npools = jfr_get_varint(&c);
	if (c.bad)
		return jfr_cut(err, &c, "a constant pool event");
	for (uint64_t p = 0; p < npools; p++) {
		size_t tat = c.pos;
		uint64_t id = jfr_get_varint(&c), count = jfr_get_varint(&c);
		uint32_t cls = jfr_class_index(ch, id);

		if (c.bad)
			return jfr_cut(err, &c, "a constant pool");
		if (cls == JFR_NO_CLASS)
			return jfr_fail(err, tat, "a constant pool of type %" PRIu64 ", which the metadata does not define", id);
		if (count > c.end - c.pos)
			return jfr_fail(err, tat, "a constant pool of %" PRIu64 " entries in fewer bytes", count);
		for (uint64_t i = 0; i < count; i++) {
			uint64_t key = jfr_get_varint(&c);
			size_t vpos = c.pos;

			rc = c.bad ? jfr_cut(err, &c, "a constant's key") : jfr_skip_value(ch, &c, cls, false, false, 1, err);
			if (rc == 0)
				rc = jfr_pool_add(ch, cls, key, vpos);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int read_pools(struct jfr_chunk *ch, size_t first, struct record_error *err)
{
	for (size_t at = first;;) {
		int64_t delta;
		uint8_t kind;
		int rc = jfr_index_checkpoint(ch, at, &delta, &kind, err);

		if (rc < 0)
			return rc;
		if (delta == 0)
			return 0;
		if (delta > 0 || 0 - (uint64_t)delta > at - ch->start - JFR_HEADER_SIZE)
			return jfr_fail(err, at, "the previous constant pool event is said to be %" PRId64
					" bytes away, not earlier in the chunk", delta);
		at -= (size_t)(0 - (uint64_t)delta);
	}
}

/* ---- the chunk */
int jfr_chunk_parse(struct jfr_chunk *ch, const uint8_t *data, size_t len, size_t start,
		    const struct jfr_role *roles, size_t nroles, struct record_error *err)
{
	const uint8_t *h = data + start;
	uint64_t size, cp, meta;
	unsigned major, flags;
	int rc;

	memset(ch, 0, sizeof *ch);
	ch->data = data;
	ch->start = start;
	if (len - start < JFR_HEADER_SIZE)
		return jfr_fail(err, start, "a chunk header needs %u bytes, %zu remain (the file was cut short)",
				JFR_HEADER_SIZE, len - start);
	if (memcmp(h, JFR_MAGIC, 4) != 0)
		return jfr_fail(err, start, "no JFR chunk starts here (its magic is not \"FLR\\0\")");
	major = (unsigned)jfr_load_be(h + 4, 2);
	if (major != JFR_VERSION_MAJOR)
		return jfr_fail(err, start + 4, "JFR chunk version %u.%u: only version 2 is read", major,
				(unsigned)jfr_load_be(h + 6, 2));
	size = jfr_load_be(h + JFR_HDR_SIZE, 8);
	if (size < JFR_HEADER_SIZE)
		return jfr_fail(err, start + JFR_HDR_SIZE, "the chunk here says it is %" PRIu64 " bytes", size);
	if (size > len - start)
		return jfr_fail(err, start, "the chunk here is %" PRIu64 " bytes, %zu remain: the file was cut "
				"short (the %zu bytes before it are whole chunks)", size, len - start, start);
	ch->end = start + (size_t)size;
	cp = jfr_load_be(h + JFR_HDR_CP, 8);
	meta = jfr_load_be(h + JFR_HDR_META, 8);
	ch->ticks = jfr_load_be(h + JFR_HDR_TICKS, 8);
	ch->freq = jfr_load_be(h + JFR_HDR_FREQ, 8);
	flags = (unsigned)jfr_load_be(h + JFR_HDR_FLAGS, 2);
	if (h[JFR_HDR_STATE] != 0)
		return jfr_fail(err, start + JFR_HDR_STATE, "the chunk here was never finished (state %u)",
				h[JFR_HDR_STATE]);
	if (!(flags & JFR_FLAG_COMPRESSED_INTS))
		return jfr_fail(err, start + JFR_HDR_FLAGS, "the chunk's integers are not compressed: not read");
	if (ch->freq == 0)
		return jfr_fail(err, start + JFR_HDR_FREQ, "the chunk's clock has 0 ticks per second");
	if (meta < JFR_HEADER_SIZE || meta >= size)
		return jfr_fail(err, start + JFR_HDR_META, "the metadata offset %" PRIu64 " is outside the chunk", meta);
	if (cp != 0 && (cp < JFR_HEADER_SIZE || cp >= size))
		return jfr_fail(err, start + JFR_HDR_CP, "the constant pool offset %" PRIu64 " is outside the chunk", cp);
	rc = jfr_meta_read(ch, start + (size_t)meta, roles, nroles, err);
	if (rc == 0 && cp != 0)
		rc = read_pools(ch, start + (size_t)cp, err);
	return rc;
}

void jfr_chunk_free(struct jfr_chunk *ch)
{
	free(ch->classes);
	free(ch->fields);
	free(ch->pool);
	free(ch->strings);
	memset(ch, 0, sizeof *ch);
}

/* ---- wanted fields */
static const struct jfr_pfield *wanted(const struct jfr_chunk *ch, uint32_t cls, unsigned k)
{
	const struct jfr_pclass *c = &ch->classes[cls];

	return c->want[k] < 0 ? NULL : &ch->fields[c->field0 + (uint32_t)c->want[k]];
}

bool jfr_has(const struct jfr_chunk *ch, uint32_t cls, unsigned k)
{
	return wanted(ch, cls, k) != NULL;
}

uint32_t jfr_field_class(const struct jfr_chunk *ch, uint32_t cls, unsigned k)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);

	return f ? f->type : JFR_NO_CLASS;
}

static struct jfr_cursor at_field(const struct jfr_chunk *ch, const size_t *pos, unsigned k)
{
	struct jfr_cursor c = { ch->data, pos[k], ch->end, false };

	return c;
}

int jfr_get_long(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, int64_t *out,
		 struct record_error *err)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);
	struct jfr_cursor c = at_field(ch, pos, k);
	uint8_t prim;

	*out = 0;
	if (!f)
		return 0;
	prim = ch->classes[f->type].prim;
	if (f->pool || f->array || prim < JFR_P_BOOLEAN || prim > JFR_P_LONG)
		return jfr_fail(err, pos[k], "field %s of %s is not an integer", f->name, ch->classes[cls].name);
	*out = prim == JFR_P_BOOLEAN || prim == JFR_P_BYTE ? (int64_t)jfr_get_u8(&c) : (int64_t)jfr_get_varint(&c);
	return c.bad ? jfr_cut(err, &c, f->name) : 0;
}

/* The string at C, following a pool reference once. */
static int text_at(struct jfr_chunk *ch, struct jfr_cursor *c, struct jfr_text *out, struct record_error *err)
{
	uint64_t key;
	int rc = jfr_read_string(c, out, &key, err);
	struct jfr_pool_slot *s;

	if (rc < 0 || out->enc != JFR_STR_POOL)
		return rc;
	s = ch->string_class == JFR_NO_CLASS ? NULL : jfr_pool_find(ch, ch->string_class, key);
	memset(out, 0, sizeof *out);
	if (!s || s->cls == JFR_NO_CLASS)
		return 0;   /* a key the pool lacks: null, as the JDK's reader says */
	c->pos = s->pos;
	rc = jfr_read_string(c, out, &key, err);
	if (rc == 0 && out->enc == JFR_STR_POOL)
		return jfr_fail(err, s->pos, "a pooled string refers to the pool again");
	return rc;
}

int jfr_get_ref(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, uint32_t *cls_out, size_t *at,
		struct record_error *err)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);
	struct jfr_cursor c = at_field(ch, pos, k);
	struct jfr_pool_slot *s;
	uint64_t key;

	*cls_out = JFR_NO_CLASS;
	*at = 0;
	if (!f)
		return 0;
	if (f->array)
		return jfr_fail(err, pos[k], "field %s of %s is an array", f->name, ch->classes[cls].name);
	if (!f->pool) {
		*cls_out = f->type;
		*at = pos[k];
		return 0;
	}
	key = jfr_get_varint(&c);
	if (c.bad)
		return jfr_cut(err, &c, f->name);
	s = jfr_pool_find(ch, f->type, key);
	if (s && s->cls != JFR_NO_CLASS) {
		*cls_out = f->type;
		*at = s->pos;
	}
	return 0;
}

int jfr_get_text(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, struct jfr_text *out,
		 struct record_error *err)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);
	struct jfr_cursor c;
	uint32_t vcls;
	size_t at;
	int rc;

	memset(out, 0, sizeof *out);
	if (!f)
		return 0;
	if (ch->classes[f->type].prim == JFR_P_STRING && !f->pool && !f->array) {
		c = at_field(ch, pos, k);
		return text_at(ch, &c, out, err);
	}
	if ((rc = jfr_get_ref(ch, cls, k, pos, &vcls, &at, err)) < 0 || vcls == JFR_NO_CLASS)
		return rc;
	c = (struct jfr_cursor){ ch->data, at, ch->end, false };
	if (ch->classes[vcls].prim == JFR_P_STRING)
		return text_at(ch, &c, out, err);
	/* a struct: its first field, when that is a string (Symbol, FrameType ...) */
	if (ch->classes[vcls].prim == JFR_P_STRUCT && ch->classes[vcls].nfields > 0) {
		const struct jfr_pfield *first = &ch->fields[ch->classes[vcls].field0];

		if (ch->classes[first->type].prim == JFR_P_STRING && !first->pool && !first->array)
			return text_at(ch, &c, out, err);
	}
	return jfr_fail(err, pos[k], "field %s of %s holds no text", f->name, ch->classes[cls].name);
}

int jfr_get_array(struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos, uint64_t *count,
		  size_t *first, struct record_error *err)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);
	struct jfr_cursor c = at_field(ch, pos, k);

	*count = 0;
	*first = 0;
	if (!f)
		return 0;
	if (!f->array)
		return jfr_fail(err, pos[k], "field %s of %s is not an array", f->name, ch->classes[cls].name);
	*count = jfr_get_varint(&c);
	*first = c.pos;
	return c.bad ? jfr_cut(err, &c, f->name) : 0;
}

int jfr_array_element(struct jfr_chunk *ch, uint32_t cls, unsigned k, struct jfr_cursor *c, uint32_t *ecls,
		      size_t *at, struct record_error *err)
{
	const struct jfr_pfield *f = wanted(ch, cls, k);
	struct jfr_pool_slot *s;
	uint64_t key;

	*ecls = JFR_NO_CLASS;
	*at = 0;
	if (!f->pool) {
		*ecls = f->type;
		*at = c->pos;
		return skip_one(ch, c, f->type, false, 1, err);
	}
	key = jfr_get_varint(c);
	if (c->bad)
		return jfr_cut(err, c, f->name);
	s = jfr_pool_find(ch, f->type, key);
	if (s && s->cls != JFR_NO_CLASS) {
		*ecls = f->type;
		*at = s->pos;
	}
	return 0;
}
