/* rec_jfr_decode.c: see rec_jfr_decode.h. */
#include "rec_jfr_decode.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "rec_jfr_types.h"
#include "rec_jfr_value.h"

/* the fields of JFR_DECODE_ROLES, in their order */
enum { T_OS_NAME, T_TID, T_JAVA_NAME, T_GROUP };
enum { ME_TYPE, ME_NAME, ME_DESCRIPTOR };
enum { ST_TRUNCATED, ST_FRAMES };
enum { FR_METHOD, FR_LINE, FR_TYPE };

/* Text converted to UTF-8 (Latin-1, UTF-16, built names, values) for one
 * event, in blocks that stay where they are while it is built: at most
 * ARENA_BYTES. */
#define ARENA_BYTES (16u * WIRE_MAX_MESSAGE)
#define BLOCK_BYTES 65536u

struct jfr_block {   /* an arena block */
	struct jfr_block *next;
	size_t cap, used;
	char data[];
};

/* ---- text */
static char *arena_take(struct jfr_decoder *r, size_t n, size_t offset)
{
	struct jfr_block *b = r->cur, *next;

	if (n > ARENA_BYTES - r->taken) {
		jfr_fail(r->err, offset, "an event holds more text than an event can");
		return NULL;
	}
	if (!b || b->cap - b->used < n) {
		/* the blocks after the current one are free */
		next = b ? b->next : r->blocks;
		if (next && next->cap >= n) {
			b = next;
		} else {
			size_t cap = n > BLOCK_BYTES ? n : BLOCK_BYTES;
			struct jfr_block *fresh = malloc(sizeof *fresh + cap);

			if (!fresh) {
				jfr_fail(r->err, offset, "no memory for an event's text");
				return NULL;
			}
			fresh->cap = cap;
			fresh->used = 0;
			fresh->next = next;
			*(b ? &b->next : &r->blocks) = fresh;
			b = fresh;
		}
	}
	r->cur = b;
	b->used += n;
	r->taken += n;
	return b->data + b->used - n;
}

/* Give back the last N bytes taken. */
static void arena_give(struct jfr_decoder *r, size_t n)
{
	r->cur->used -= n;
	r->taken -= n;
}

/* Every block free again, for the next event. */
void jfr_dec_reset(struct jfr_decoder *r)
{
	for (struct jfr_block *b = r->blocks; b; b = b->next)
		b->used = 0;
	r->cur = r->blocks;
	r->taken = 0;
}

/* T as a wire string (at most WIRE_MAX_STRING bytes unless WHOLE); NULL: T was null. */
static int wire_text(struct jfr_decoder *r, const struct jfr_text *t, struct wire_str *out, bool *null, size_t offset,
		     bool whole)
{
	char *p;
	size_t n = 0;

	out->ptr = "";
	out->len = 0;
	if (null)
		*null = t->ptr == NULL;
	if (!t->ptr)
		return 0;
	if (t->enc == JFR_STR_UTF8 || t->enc == JFR_STR_EMPTY) {
		out->ptr = (const char *)t->ptr;
		n = t->len;
	} else {
		size_t max = jfr_text_max(t);

		if (!(p = arena_take(r, max, offset)))
			return -EINVAL;
		n = jfr_text_utf8(t, p);
		arena_give(r, max - n);
		out->ptr = p;
	}
	if (n > UINT32_MAX)
		return jfr_fail(r->err, offset, "a string of more than 4 GiB");
	out->len = (uint32_t)(n > WIRE_MAX_STRING && !whole ? WIRE_MAX_STRING : n);
	return 0;
}

static int text_field(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos,
		      struct wire_str *out, bool *null, bool whole)
{
	struct jfr_text t;
	int rc = jfr_get_text(ch, cls, k, pos, &t, r->err);

	return rc < 0 ? rc : wire_text(r, &t, out, null, pos[k], whole);
}

static int field_text(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, unsigned k, const size_t *pos,
		      struct wire_str *out, bool *null)
{
	return text_field(r, ch, cls, k, pos, out, null, false);
}

/* Join pieces in the arena. */
static int join(struct jfr_decoder *r, struct wire_str *out, size_t offset, const struct wire_str *parts, size_t n)
{
	size_t total = 0;
	char *p;

	for (size_t i = 0; i < n; i++)
		total += parts[i].len;
	if (total > WIRE_MAX_STRING)
		total = WIRE_MAX_STRING;
	if (!(p = arena_take(r, total, offset)))
		return -EINVAL;
	out->ptr = p;
	out->len = (uint32_t)total;
	for (size_t i = 0, at = 0; i < n && at < total; i++) {
		size_t take = parts[i].len < total - at ? parts[i].len : total - at;

		memcpy(p + at, parts[i].ptr, take);
		at += take;
	}
	return 0;
}

/* ---- constants */
uint32_t jfr_dec_of(const struct jfr_chunk *ch, uint32_t cls, enum jfr_type_role role)
{
	return cls != JFR_NO_CLASS && ch->classes[cls].role == (int16_t)role ? cls : JFR_NO_CLASS;
}

/* A class's JVM signature from its name as the JDK writes it ("java/lang/String"). */
int jfr_dec_class(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_str *out)
{
	size_t pos[JFR_MAX_WANT];
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	struct wire_str name, parts[3] = { { "L", 1 }, { NULL, 0 }, { ";", 1 } };
	int rc;

	out->ptr = "";
	out->len = 0;
	if ((cls = jfr_dec_of(ch, cls, JR_CLASS)) == JFR_NO_CLASS)
		return 0;
	if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
	    (rc = field_text(r, ch, cls, 0, pos, &name, NULL)) < 0)
		return rc;
	if (name.len == 0 || name.ptr[0] == '[') {
		*out = name;
		return 0;
	}
	parts[1] = name;
	return join(r, out, at, parts, 3);
}

/* A method's wire name: "java.lang.String.length()I". */
int jfr_dec_method(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_str *out)
{
	size_t pos[JFR_MAX_WANT], tpos[JFR_MAX_WANT];
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	struct wire_str parts[4] = { { "", 0 }, { ".", 1 }, { "", 0 }, { "", 0 } };
	uint32_t tcls;
	size_t tat;
	char *dotted;
	int rc;

	out->ptr = "";
	out->len = 0;
	if ((cls = jfr_dec_of(ch, cls, JR_METHOD)) == JFR_NO_CLASS)
		return 0;
	if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
	    (rc = jfr_get_ref(ch, cls, ME_TYPE, pos, &tcls, &tat, r->err)) < 0 ||
	    (rc = field_text(r, ch, cls, ME_NAME, pos, &parts[2], NULL)) < 0 ||
	    (rc = field_text(r, ch, cls, ME_DESCRIPTOR, pos, &parts[3], NULL)) < 0)
		return rc;
	if ((tcls = jfr_dec_of(ch, tcls, JR_CLASS)) != JFR_NO_CLASS) {
		struct jfr_cursor tc = { ch->data, tat, ch->end, false };

		if ((rc = jfr_read_fields(ch, tcls, &tc, tpos, r->err)) < 0 ||
		    (rc = field_text(r, ch, tcls, 0, tpos, &parts[0], NULL)) < 0)
			return rc;
	}
	if (parts[0].len == 0) {   /* a method of no class: its name is all of it */
		*out = parts[2];
		return 0;
	}
	if (!(dotted = arena_take(r, parts[0].len, at)))
		return -EINVAL;
	for (size_t i = 0; i < parts[0].len; i++)
		dotted[i] = parts[0].ptr[i] == '/' ? '.' : parts[0].ptr[i];
	parts[0].ptr = dotted;
	return join(r, out, at, parts, 4);
}

/* A thread: pid (from its group's name, "pid N"), OS tid and name. */
int jfr_dec_thread(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, size_t at, uint32_t *pid,
		     uint64_t *tid, struct wire_str *name, bool *null)
{
	size_t pos[JFR_MAX_WANT], gpos[JFR_MAX_WANT];
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	struct wire_str group;
	uint32_t gcls;
	size_t gat;
	int64_t v;
	int rc;

	*pid = 0;
	*tid = 0;
	name->ptr = "";
	name->len = 0;
	*null = true;
	if ((cls = jfr_dec_of(ch, cls, JR_THREAD)) == JFR_NO_CLASS)
		return 0;
	if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
	    (rc = jfr_get_long(ch, cls, T_TID, pos, &v, r->err)) < 0 ||
	    (rc = field_text(r, ch, cls, T_JAVA_NAME, pos, name, null)) < 0)
		return rc;
	*tid = (uint64_t)v;
	if (*null && (rc = field_text(r, ch, cls, T_OS_NAME, pos, name, null)) < 0)
		return rc;
	if ((rc = jfr_get_ref(ch, cls, T_GROUP, pos, &gcls, &gat, r->err)) < 0 ||
	    (gcls = jfr_dec_of(ch, gcls, JR_GROUP)) == JFR_NO_CLASS)
		return rc;
	c = (struct jfr_cursor){ ch->data, gat, ch->end, false };
	if ((rc = jfr_read_fields(ch, gcls, &c, gpos, r->err)) < 0 ||
	    (rc = field_text(r, ch, gcls, 0, gpos, &group, NULL)) < 0)
		return rc;
	if (group.len > strlen(JFR_GROUP_PREFIX) && group.len <= strlen(JFR_GROUP_PREFIX) + 10 &&
	    memcmp(group.ptr, JFR_GROUP_PREFIX, strlen(JFR_GROUP_PREFIX)) == 0) {
		uint64_t p = 0;

		for (size_t i = strlen(JFR_GROUP_PREFIX); i < group.len && p <= UINT32_MAX; i++)
			p = group.ptr[i] >= '0' && group.ptr[i] <= '9' ? p * 10 + (uint64_t)(group.ptr[i] - '0')
								      : UINT64_MAX;
		if (p <= UINT32_MAX)
			*pid = (uint32_t)p;
	}
	return 0;
}

/* A stack trace into the trailer; *SYNTHETIC: the one truncated frame the
 * writer puts where an exception's event had no stack. */
int jfr_dec_stack(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_trailer *t,
		    bool *synthetic)
{
	size_t pos[JFR_MAX_WANT];
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	uint64_t count;
	int64_t truncated;
	size_t first;
	int rc;

	*synthetic = false;
	if ((cls = jfr_dec_of(ch, cls, JR_STACK)) == JFR_NO_CLASS)
		return 0;
	if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
	    (rc = jfr_get_long(ch, cls, ST_TRUNCATED, pos, &truncated, r->err)) < 0 ||
	    (rc = jfr_get_array(ch, cls, ST_FRAMES, pos, &count, &first, r->err)) < 0)
		return rc;
	t->flags |= WIRE_TF_STACK;
	t->depth = 0;
	*synthetic = truncated && count == 1;
	c = (struct jfr_cursor){ ch->data, first, ch->end, false };
	for (uint64_t i = 0; i < count && i < WIRE_MAX_STACK_DEPTH; i++) {
		size_t fpos[JFR_MAX_WANT], fat;
		uint32_t fcls, mcls;
		size_t mat;
		struct wire_frame *f = &t->frames[t->depth];
		struct wire_str type;
		int64_t line;

		if ((rc = jfr_array_element(ch, cls, ST_FRAMES, &c, &fcls, &fat, r->err)) < 0)
			return rc;
		if ((fcls = jfr_dec_of(ch, fcls, JR_FRAME)) == JFR_NO_CLASS)
			continue;
		struct jfr_cursor fc = { ch->data, fat, ch->end, false };

		if ((rc = jfr_read_fields(ch, fcls, &fc, fpos, r->err)) < 0 ||
		    (rc = jfr_get_ref(ch, fcls, FR_METHOD, fpos, &mcls, &mat, r->err)) < 0 ||
		    (rc = jfr_dec_method(r, ch, mcls, mat, &f->method)) < 0 ||
		    (rc = jfr_get_long(ch, fcls, FR_LINE, fpos, &line, r->err)) < 0 ||
		    (rc = field_text(r, ch, fcls, FR_TYPE, fpos, &type, NULL)) < 0)
			return rc;
		f->line = type.len == strlen(JFR_FRAME_TYPE_NATIVE) &&
				  memcmp(type.ptr, JFR_FRAME_TYPE_NATIVE, type.len) == 0 ? -2 : (int32_t)line;
		f->source.ptr = "";
		f->source.len = 0;
		t->depth++;
	}
	return 0;
}

/* Values from their text and type letters (rec_jfr_value.h). */
int jfr_dec_values(struct jfr_decoder *r, struct jfr_chunk *ch, uint32_t cls, unsigned text_k, unsigned types_k,
		     const size_t *pos, struct wire_value *out, uint8_t *n)
{
	struct wire_str text, types;
	size_t bad_at;
	char *arena;
	int rc;

	*n = 0;
	if ((rc = text_field(r, ch, cls, text_k, pos, &text, NULL, true)) < 0 ||
	    (rc = text_field(r, ch, cls, types_k, pos, &types, NULL, true)) < 0)
		return rc;
	if (types.len > WIRE_MAX_VALUES)
		return jfr_fail(r->err, pos[types_k], "%u values: an event has %u at most", types.len, WIRE_MAX_VALUES);
	if (!(arena = arena_take(r, JFR_VALUES_ARENA((size_t)text.len, (size_t)types.len), pos[text_k])))
		return -EINVAL;
	if (jfr_values_parse(text.ptr, text.len, types.ptr, types.len, out, arena, &bad_at) < 0) {
		/* bytes from the file: escaped, so the message stays one line */
		char shown[4 * 24 + 1];
		ssize_t k = print_text(shown, sizeof shown, text.ptr + bad_at, text.len - bad_at < 24 ? text.len - bad_at : 24);

		return jfr_fail(r->err, pos[text_k], "values not as --print writes them (%u of them): at character %zu, "
				"\"%s\"", types.len, bad_at, k < 0 ? "" : shown);
	}
	for (uint32_t i = 0; i < types.len; i++)
		if (out[i].str.len > WIRE_MAX_STRING)
			return jfr_fail(r->err, pos[text_k], "a value of %u bytes: a string has %u at most",
					out[i].str.len, WIRE_MAX_STRING);
	*n = (uint8_t)types.len;
	return 0;
}

void jfr_dec_free(struct jfr_decoder *r)
{
	while (r->blocks) {
		struct jfr_block *next = r->blocks->next;

		free(r->blocks);
		r->blocks = next;
	}
	r->cur = NULL;
	r->taken = 0;
}
