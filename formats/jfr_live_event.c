/* jfr_live_event.c: see jfr_live_event.h. */
#include "jfr_live_event.h"
#include "rec_tables.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* value reads an event may cost beyond its own bytes': a stack trace of
 * 2048 frames, each with its method and class, is read for a record of a
 * few bytes */
#define EXTRA_BUDGET (256u * 1024u)

void jfr_live_flat_free(struct jfr_live_flat *fl)
{
	jfr_buf_free(&fl->text);
	free(fl->fields);
	free(fl->field_path);
	free(fl->field_str);
	free(fl->frames);
	free(fl->frame_text);
	memset(fl, 0, sizeof *fl);
}

int jfr_live_take(struct jfr_live_walk *w, const struct jfr_cursor *c)
{
	if (w->ch->budget == 0)
		return jfr_fail(w->err, c->pos, "too many values (or values of no bytes) in one event");
	w->ch->budget--;
	return 0;
}

/* ---- text */
size_t jfr_live_text_put(struct jfr_live_flat *fl, const char *p, size_t n)
{
	size_t at = fl->text.len;

	if (!jfr_buf_reserve(&fl->text, n + 1))
		return JFR_LIVE_NONE;
	memcpy(fl->text.data + at, p, n);
	fl->text.data[at + n] = 0;
	fl->text.len += n + 1;
	return at;
}

/* T as UTF-8 into FL's text: its offset (*LEN its bytes), JFR_LIVE_NONE when memory ran out. */
static size_t text_jfr(struct jfr_live_flat *fl, const struct jfr_text *t, size_t *len)
{
	size_t at = fl->text.len;

	if (!jfr_buf_reserve(&fl->text, jfr_text_max(t) + 1))
		return JFR_LIVE_NONE;
	*len = jfr_text_utf8(t, (char *)fl->text.data + at);
	fl->text.len += *len;
	fl->text.data[fl->text.len++] = 0;
	return at;
}

/* ---- paths */
static int path_push(struct jfr_live_walk *w, size_t at, const char *name, size_t n, bool index, uint64_t i,
		     size_t *saved)
{
	struct jfr_live_flat *fl = w->fl;
	char part[24], *p = part + sizeof part;

	*saved = fl->plen;
	if (index) {   /* "[i]", without printf: a path is made for every value */
		*--p = ']';
		do
			*--p = (char)('0' + i % 10);
		while ((i /= 10) != 0);
		*--p = '[';
		name = p;
		n = (size_t)(part + sizeof part - p);
	} else {
		n += fl->plen > 0;
	}
	if (n > JFR_LIVE_MAX_PATH - fl->plen) {
		w->err->offset = at;
		snprintf(w->err->text, sizeof w->err->text, "a field path longer than %u bytes (%.60s...)",
			 JFR_LIVE_MAX_PATH, fl->path);
		return -E2BIG;
	}
	if (!index && fl->plen > 0) {
		fl->path[fl->plen++] = '.';
		n--;
	}
	memcpy(fl->path + fl->plen, name, n);
	fl->plen += n;
	fl->path[fl->plen] = 0;
	return 0;
}

void jfr_live_path_pop(struct jfr_live_flat *fl, size_t saved)
{
	fl->plen = saved;
	fl->path[saved] = 0;
}

/* ---- fields */
int jfr_live_grow_fields(struct jfr_live_flat *fl, size_t need)
{
	if (need <= fl->capfields && need <= fl->cappath && need <= fl->capstr)
		return 0;
	if (rec_grow((void **)&fl->fields, &fl->capfields, need, sizeof *fl->fields) < 0 ||
	    rec_grow((void **)&fl->field_path, &fl->cappath, need, sizeof *fl->field_path) < 0 ||
	    rec_grow((void **)&fl->field_str, &fl->capstr, need, sizeof *fl->field_str) < 0)
		return -ENOMEM;
	return 0;
}

static int field_add(struct jfr_live_walk *w, size_t at, enum jfr_live_kind kind, int64_t l, double d, size_t str,
		     size_t slen)
{
	struct jfr_live_flat *fl = w->fl;
	struct jfr_live_field *f;

	if (fl->nfields >= JFR_LIVE_MAX_FIELDS) {
		w->err->offset = at;
		snprintf(w->err->text, sizeof w->err->text, "an event of more than %u fields (the next: %.80s)",
			 JFR_LIVE_MAX_FIELDS, fl->path);
		return -E2BIG;
	}
	f = &fl->fields[fl->nfields];   /* room for JFR_LIVE_MAX_FIELDS: jfr_live_resolve */
	memset(f, 0, sizeof *f);
	f->v.kind = kind;
	f->v.l = l;
	f->v.d = d;
	f->v.slen = slen;
	fl->field_str[fl->nfields] = str;
	fl->field_path[fl->nfields] = jfr_live_text_put(fl, fl->path, fl->plen);
	if (fl->field_path[fl->nfields] == JFR_LIVE_NONE)
		return -ENOMEM;
	fl->nfields++;
	return 0;
}

/* ---- values */
static int64_t clamp(__int128 r)
{
	return r > INT64_MAX ? INT64_MAX : r < INT64_MIN ? INT64_MIN : (int64_t)r;
}

static int64_t mul_div(int64_t v, uint64_t mul, uint64_t div)
{
	return clamp((__int128)v * mul / (__int128)div);
}

/* A time field in nanoseconds (a duration, or since the epoch). */
static int64_t in_ns(const struct jfr_chunk *ch, const struct jfr_live_flat *fl, uint8_t unit, int64_t v)
{
	if (v == INT64_MIN || v == INT64_MAX)
		return v;
	switch (unit) {
	case JFR_U_SPAN_TICKS:
		return mul_div(v, 1000000000u, ch->freq);
	case JFR_U_SPAN_US:
		return mul_div(v, 1000u, 1);
	case JFR_U_SPAN_MS:
	case JFR_U_STAMP_MS:
		return mul_div(v, 1000000u, 1);
	case JFR_U_SPAN_S:
		return mul_div(v, 1000000000u, 1);
	case JFR_U_STAMP_TICKS:
		/* a file's ticks may be anything: no overflow, the extremes at worst */
		return clamp((__int128)fl->start_ns + (__int128)(v - (__int128)ch->ticks) * 1000000000 / ch->freq);
	default:
		return v;
	}
}

/* N bytes big-endian: a float's or a double's bits. */
static uint64_t get_be(struct jfr_cursor *c, unsigned n)
{
	uint64_t bits = 0;

	for (unsigned i = 0; i < n; i++)
		bits = bits << 8 | jfr_get_u8(c);
	return bits;
}

/* A primitive of class K (F: the field, for its annotations; NULL: none). */
static int primitive(struct jfr_live_walk *w, struct jfr_cursor *c, uint8_t prim, const struct jfr_pfield *f)
{
	size_t at = c->pos;
	bool u = f && f->is_unsigned;
	uint64_t raw;
	int64_t l = 0;
	double d = 0;
	enum jfr_live_kind kind = JFR_LIVE_LONG;

	switch (prim) {
	case JFR_P_BOOLEAN:
		l = jfr_get_u8(c) != 0;
		break;
	case JFR_P_BYTE:
		raw = jfr_get_u8(c);
		l = u ? (int64_t)(uint8_t)raw : (int64_t)(int8_t)raw;
		break;
	case JFR_P_CHAR:
		l = (uint16_t)jfr_get_varint(c);
		break;
	case JFR_P_SHORT:
		raw = jfr_get_varint(c);
		l = u ? (int64_t)(uint16_t)raw : (int64_t)(int16_t)raw;
		break;
	case JFR_P_INT:
		raw = jfr_get_varint(c);
		l = u ? (int64_t)(uint32_t)raw : (int64_t)(int32_t)raw;
		break;
	case JFR_P_LONG:
		l = (int64_t)jfr_get_varint(c);
		break;
	case JFR_P_FLOAT: {
		uint32_t bits = (uint32_t)get_be(c, 4);
		float fv;

		memcpy(&fv, &bits, sizeof fv);
		d = fv;
		kind = JFR_LIVE_DOUBLE;
		break;
	}
	default: {   /* double */
		uint64_t bits = get_be(c, 8);

		memcpy(&d, &bits, sizeof d);
		kind = JFR_LIVE_DOUBLE;
		break;
	}
	}
	if (c->bad)
		return jfr_cut(w->err, c, "a value");
	if (kind == JFR_LIVE_LONG && f && f->unit != JFR_U_NONE)
		l = in_ns(w->ch, w->fl, f->unit, l);
	return field_add(w, at, kind, l, d, JFR_LIVE_NONE, 0);
}

/* A string at C, a pooled one followed; *OUT its text (JFR_LIVE_NONE: null). */
int jfr_live_string(struct jfr_live_walk *w, struct jfr_cursor *c, size_t *out, size_t *len)
{
	struct jfr_chunk *ch = w->ch;
	struct jfr_text t;
	uint64_t key;
	int rc = jfr_read_string(c, &t, &key, w->err);

	*out = JFR_LIVE_NONE;
	*len = 0;
	if (rc < 0)
		return rc;
	if (t.enc == JFR_STR_POOL) {
		struct jfr_pool_slot *s = ch->string_class == JFR_NO_CLASS ? NULL : jfr_pool_find(ch, ch->string_class, key);
		struct jfr_cursor at;

		if (!s || s->cls == JFR_NO_CLASS) {
			w->fl->unresolved |= w->fl->strict;
			return 0;
		}
		at = (struct jfr_cursor){ ch->data, s->pos, ch->end, false };
		if ((rc = jfr_read_string(&at, &t, &key, w->err)) < 0)
			return rc;
		if (t.enc == JFR_STR_POOL)
			return jfr_fail(w->err, s->pos, "a pooled string refers to the pool again");
	}
	if (!t.ptr)
		return 0;
	*out = text_jfr(w->fl, &t, len);
	return *out == JFR_LIVE_NONE ? -ENOMEM : 0;
}

static int value(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, const struct jfr_pfield *f, bool pool,
		 unsigned depth);

/* A constant pool reference at C: where its value is (false: in no pool). */
int jfr_live_deref(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, struct jfr_cursor *out, bool *found)
{
	uint64_t key = jfr_get_varint(c);
	struct jfr_pool_slot *s;

	*found = false;
	if (c->bad)
		return jfr_cut(w->err, c, "a constant pool reference");
	s = jfr_pool_find(w->ch, cls, key);
	if (!s || s->cls == JFR_NO_CLASS) {
		w->fl->unresolved |= w->fl->strict;
		return 0;
	}
	*out = (struct jfr_cursor){ w->ch->data, s->pos, w->ch->end, false };
	*found = true;
	return 0;
}

int jfr_live_deeper(struct jfr_live_walk *w, const struct jfr_cursor *c, unsigned depth)
{
	if (depth < JFR_LIVE_MAX_DEPTH)
		return 0;
	w->err->offset = c->pos;
	snprintf(w->err->text, sizeof w->err->text, "values nested deeper than %u (a constant pool cycle?) at %.80s",
		 JFR_LIVE_MAX_DEPTH, w->fl->path);
	return -E2BIG;
}

/* Field F of a struct at C: its value(s) at its path. */
static int member(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, unsigned depth)
{
	size_t saved, at;
	uint64_t n;
	int rc;

	if ((rc = path_push(w, c->pos, f->name, f->namelen, false, 0, &saved)) < 0)
		return rc;
	if (!f->array) {
		rc = value(w, c, f->type, f, f->pool, depth + 1);
	} else {
		at = c->pos;
		n = jfr_get_varint(c);
		if (c->bad)
			return jfr_cut(w->err, c, "an array's length");
		if (n > w->ch->budget)
			return jfr_fail(w->err, at, "an array of %" PRIu64 " elements is longer than its event allows", n);
		for (uint64_t e = 0; e < n && rc == 0; e++) {
			size_t in;

			if ((rc = path_push(w, c->pos, NULL, 0, true, e, &in)) == 0)
				rc = value(w, c, f->type, f, f->pool, depth + 1);
			jfr_live_path_pop(w->fl, in);
		}
	}
	jfr_live_path_pop(w->fl, saved);
	return rc;
}

static int fields_of(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, unsigned depth)
{
	const struct jfr_pclass *k = &w->ch->classes[cls];
	int rc;

	if (k->simple && k->nfields == 1) {
		const struct jfr_pfield *f = &w->ch->fields[k->field0];

		return value(w, c, f->type, f, f->pool, depth);
	}
	if ((rc = jfr_live_deeper(w, c, depth)) < 0)
		return rc;
	for (uint32_t i = 0; i < k->nfields && rc == 0; i++)
		rc = member(w, c, &w->ch->fields[k->field0 + i], depth);
	return rc;
}

/* One value (an array's element, or a field that is none) at the current path. */
static int value(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, const struct jfr_pfield *f, bool pool,
		 unsigned depth)
{
	uint8_t prim = w->ch->classes[cls].prim;
	size_t at = c->pos, str, len;
	int rc;

	if ((rc = jfr_live_take(w, c)) < 0)
		return rc;
	if (pool) {
		struct jfr_cursor v;
		bool found;

		if ((rc = jfr_live_deref(w, c, cls, &v, &found)) < 0)
			return rc;
		if (!found)
			return field_add(w, at, JFR_LIVE_NULL, 0, 0, JFR_LIVE_NONE, 0);
		return value(w, &v, cls, f, false, depth);
	}
	if (prim == JFR_P_STRING) {
		if ((rc = jfr_live_string(w, c, &str, &len)) < 0)
			return rc;
		return field_add(w, at, str == JFR_LIVE_NONE ? JFR_LIVE_NULL : JFR_LIVE_STRING, 0, 0, str, len);
	}
	if (prim != JFR_P_STRUCT)
		return primitive(w, c, prim, f);
	return fields_of(w, c, cls, depth);
}

/* ---- the event */
const char *jfr_live_text_at(const struct jfr_live_flat *fl, size_t at, const char *none)
{
	return at == JFR_LIVE_NONE ? none : (const char *)fl->text.data + at;
}

/* Offsets become pointers (the text no longer moves); the thread is found
 * among fields [THREAD, END), eventThread's. */
static void finish(struct jfr_live_flat *fl, struct jfr_live_event *ev, size_t thread, size_t end)
{
	const char *os_name = NULL, *java_name = NULL;

	for (size_t i = 0; i < fl->nfields; i++) {
		struct jfr_live_field *f = &fl->fields[i];

		f->path = jfr_live_text_at(fl, fl->field_path[i], "");
		f->v.s = f->v.kind == JFR_LIVE_STRING ? jfr_live_text_at(fl, fl->field_str[i], "") : NULL;
		if (i < thread || i >= end || strncmp(f->path, "eventThread.", 12) != 0)
			continue;
		if (strcmp(f->path + 12, "osThreadId") == 0 && f->v.kind == JFR_LIVE_LONG)
			ev->os_tid = (uint64_t)f->v.l;
		else if (strcmp(f->path + 12, "javaName") == 0 && f->v.kind == JFR_LIVE_STRING)
			java_name = f->v.s;
		else if (strcmp(f->path + 12, "osName") == 0 && f->v.kind == JFR_LIVE_STRING)
			os_name = f->v.s;
	}
	ev->thread_name = java_name ? java_name : os_name ? os_name : "";
	for (size_t i = 0; i < fl->nframes; i++) {
		fl->frames[i].method = jfr_live_text_at(fl, fl->frame_text[3 * i], "");
		fl->frames[i].descriptor = jfr_live_text_at(fl, fl->frame_text[3 * i + 1], "");
		fl->frames[i].type = jfr_live_text_at(fl, fl->frame_text[3 * i + 2], "");
	}
	ev->fields = fl->fields;
	ev->nfields = fl->nfields;
	ev->frames = fl->frames;
	ev->nframes = fl->nframes;
}

/* the names a stack trace's walk reads (jfr_live_stack.c) */
#define STACK_NAME(s, role) { s, sizeof s - 1, role }
static const struct {
	const char *name;
	size_t len;
	uint8_t role;
} stack_names[] = {
	STACK_NAME("frames", JFR_LIVE_NAME_FRAMES), STACK_NAME("truncated", JFR_LIVE_NAME_TRUNCATED),
	STACK_NAME("method", JFR_LIVE_NAME_METHOD), STACK_NAME("type", JFR_LIVE_NAME_TYPE),
	STACK_NAME("lineNumber", JFR_LIVE_NAME_LINE), STACK_NAME("name", JFR_LIVE_NAME_NAME),
	STACK_NAME("descriptor", JFR_LIVE_NAME_DESCRIPTOR),
};

int jfr_live_roles(const struct jfr_chunk *ch, uint8_t **out)
{
	uint8_t *roles = calloc(ch->nfields ? ch->nfields : 1, 1);

	*out = roles;
	if (!roles)
		return -ENOMEM;
	for (uint32_t i = 0; i < ch->nfields; i++)
		for (size_t n = 0; n < sizeof stack_names / sizeof stack_names[0]; n++)
			if (ch->fields[i].namelen == stack_names[n].len &&
			    memcmp(ch->fields[i].name, stack_names[n].name, stack_names[n].len) == 0)
				roles[i] = stack_names[n].role;
	for (uint32_t k = 0; k < ch->nclasses; k++) {
		if (!ch->classes[k].event)
			continue;
		for (uint32_t i = ch->classes[k].field0; i < ch->classes[k].field0 + ch->classes[k].nfields; i++) {
			const struct jfr_pfield *f = &ch->fields[i];
			uint8_t prim = ch->classes[f->type].prim;
			bool integer = !f->array && !f->pool && prim >= JFR_P_CHAR && prim <= JFR_P_LONG;

			if (integer && strcmp(f->name, "startTime") == 0)
				roles[i] = JFR_LIVE_ROLE_START;
			else if (integer && strcmp(f->name, "duration") == 0)
				roles[i] = JFR_LIVE_ROLE_DURATION;
			else if (!f->array && prim == JFR_P_STRUCT && strcmp(f->name, "stackTrace") == 0)
				roles[i] = JFR_LIVE_ROLE_STACK;
			else if (!f->array && strcmp(f->name, "eventThread") == 0)
				roles[i] = JFR_LIVE_ROLE_THREAD;
		}
	}
	return 0;
}

/* startTime and duration (ticks unless annotated otherwise). */
static int event_time(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, bool start,
		      struct jfr_live_event *ev)
{
	int64_t v = (int64_t)jfr_get_varint(c);
	uint8_t unit = f->unit != JFR_U_NONE ? f->unit : start ? JFR_U_STAMP_TICKS : JFR_U_SPAN_TICKS;

	if (c->bad)
		return jfr_cut(w->err, c, f->name);
	if (start)
		ev->start_ns = in_ns(w->ch, w->fl, unit, v);
	else
		ev->duration_ns = in_ns(w->ch, w->fl, unit, v);
	return 0;
}

int jfr_live_resolve(struct jfr_live_flat *fl, struct jfr_chunk *ch, size_t at, uint32_t cls, bool strict,
		     struct jfr_live_event *ev, struct record_error *err)
{
	struct jfr_live_walk w = { fl, ch, err };
	struct jfr_cursor c = { ch->data, at, ch->end, false };
	const struct jfr_pclass *k = &ch->classes[cls];
	size_t thread = 0, threads = 0;
	int rc = jfr_record_start(&c, ch->classes[cls].id, err, "an event");

	memset(ev, 0, sizeof *ev);
	fl->text.len = 0;
	fl->text.error = 0;
	fl->nfields = fl->nframes = 0;
	fl->plen = 0;
	fl->path[0] = 0;
	fl->strict = strict;
	fl->unresolved = false;
	if (rc < 0)
		return rc;
	if (jfr_live_grow_fields(fl, JFR_LIVE_MAX_FIELDS) < 0)
		return -ENOMEM;
	ch->budget = 8u * (uint64_t)(c.end - at) + 4096u + EXTRA_BUDGET;
	ev->type = k->name;
	for (uint32_t i = k->field0; i < k->field0 + k->nfields; i++) {
		const struct jfr_pfield *f = &ch->fields[i];

		switch (fl->roles[i]) {
		case JFR_LIVE_ROLE_START:
		case JFR_LIVE_ROLE_DURATION:
			rc = event_time(&w, &c, f, fl->roles[i] == JFR_LIVE_ROLE_START, ev);
			break;
		case JFR_LIVE_ROLE_STACK:
			rc = jfr_live_stack(&w, &c, f, ev);
			break;
		case JFR_LIVE_ROLE_THREAD:
			thread = fl->nfields;
			rc = member(&w, &c, f, 0);
			threads = fl->nfields - thread;
			break;
		default:
			rc = member(&w, &c, f, 0);
		}
		if (rc < 0)
			return rc;
	}
	if (fl->text.error)
		return -ENOMEM;
	if (strict && fl->unresolved)
		return 1;
	finish(fl, ev, thread, thread + threads);
	return 0;
}
