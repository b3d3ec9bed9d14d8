/* jfr_live_stack.c: an event's stack trace as frames, and the paths of an
 * event type's fields, for jfr_live_event.c (see jfr_live_event.h). */
#include "jfr_live_event.h"
#include "rec_tables.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the stack trace */
/* F's name, as JFR_LIVE_NAME_* (jfr_live_roles): no string compared a frame */
static uint8_t name_of(const struct jfr_live_walk *w, const struct jfr_pfield *f)
{
	return w->fl->roles[f - w->ch->fields];
}

/* The text a value of class CLS at C stands for: a string, or a simple
 * type's (a Symbol's, a FrameType's); JFR_LIVE_NONE for null or anything else. */
static int text_of(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, bool pool, unsigned depth, size_t *out)
{
	const struct jfr_pclass *k = &w->ch->classes[cls];
	size_t len;
	int rc;

	*out = JFR_LIVE_NONE;
	if ((rc = jfr_live_take(w, c)) < 0 || (rc = jfr_live_deeper(w, c, depth)) < 0)
		return rc;
	if (pool) {
		struct jfr_cursor v;
		bool found;

		if ((rc = jfr_live_deref(w, c, cls, &v, &found)) < 0 || !found)
			return rc;
		return text_of(w, &v, cls, false, depth + 1, out);
	}
	if (k->prim == JFR_P_STRING)
		return jfr_live_string(w, c, out, &len);
	if (k->prim == JFR_P_STRUCT && k->simple && k->nfields == 1) {
		const struct jfr_pfield *f = &w->ch->fields[k->field0];

		if (!f->array)
			return text_of(w, c, f->type, f->pool, depth + 1, out);
	}
	return jfr_skip_value(w->ch, c, cls, false, false, depth, w->err);
}

/* The struct at C (a pool reference followed when POOL): FN for each field. */
typedef int (*member_fn)(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, void *ctx);

static int members(struct jfr_live_walk *w, struct jfr_cursor *c, uint32_t cls, bool pool, member_fn fn, void *ctx)
{
	const struct jfr_pclass *k = &w->ch->classes[cls];
	struct jfr_cursor v;
	bool found = true;
	int rc;

	if ((rc = jfr_live_take(w, c)) < 0)
		return rc;
	if (pool) {
		if ((rc = jfr_live_deref(w, c, cls, &v, &found)) < 0 || !found)
			return rc;
		c = &v;
	}
	if (k->prim != JFR_P_STRUCT)
		return jfr_skip_value(w->ch, c, cls, false, false, 1, w->err);
	for (uint32_t i = 0; i < k->nfields; i++) {
		const struct jfr_pfield *f = &w->ch->fields[k->field0 + i];

		if ((rc = fn(w, c, f, ctx)) < 0)
			return rc;
	}
	return 0;
}

struct frame_text { size_t cls, name, desc, type; int32_t line; };

static int class_member(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, void *ctx)
{
	struct frame_text *ft = ctx;

	if (name_of(w, f) == JFR_LIVE_NAME_NAME && !f->array)
		return text_of(w, c, f->type, f->pool, 1, &ft->cls);
	return jfr_skip_value(w->ch, c, f->type, f->pool, f->array, 1, w->err);
}

static int method_member(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, void *ctx)
{
	struct frame_text *ft = ctx;

	if (!f->array && name_of(w, f) == JFR_LIVE_NAME_TYPE)
		return members(w, c, f->type, f->pool, class_member, ft);
	if (!f->array && name_of(w, f) == JFR_LIVE_NAME_NAME)
		return text_of(w, c, f->type, f->pool, 1, &ft->name);
	if (!f->array && name_of(w, f) == JFR_LIVE_NAME_DESCRIPTOR)
		return text_of(w, c, f->type, f->pool, 1, &ft->desc);
	return jfr_skip_value(w->ch, c, f->type, f->pool, f->array, 1, w->err);
}

static int frame_member(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, void *ctx)
{
	struct frame_text *ft = ctx;

	if (!f->array && name_of(w, f) == JFR_LIVE_NAME_METHOD)
		return members(w, c, f->type, f->pool, method_member, ft);
	if (!f->array && name_of(w, f) == JFR_LIVE_NAME_TYPE)
		return text_of(w, c, f->type, f->pool, 1, &ft->type);
	if (!f->array && !f->pool && name_of(w, f) == JFR_LIVE_NAME_LINE &&
	    w->ch->classes[f->type].prim == JFR_P_INT) {
		ft->line = (int32_t)jfr_get_varint(c);
		return c->bad ? jfr_cut(w->err, c, "a frame's line number") : 0;
	}
	return jfr_skip_value(w->ch, c, f->type, f->pool, f->array, 1, w->err);
}

/* "java/lang/Thread" and "run": "java.lang.Thread.run", into the text. */
static size_t method_name(struct jfr_live_flat *fl, const struct frame_text *ft)
{
	const char *cls = ft->cls == JFR_LIVE_NONE ? "" : (const char *)fl->text.data + ft->cls;
	const char *name = ft->name == JFR_LIVE_NONE ? "" : (const char *)fl->text.data + ft->name;
	size_t nc = strlen(cls), nn = strlen(name), at = fl->text.len;
	char *p;

	if (!jfr_buf_reserve(&fl->text, nc + nn + 2))
		return JFR_LIVE_NONE;
	p = (char *)fl->text.data + at;
	cls = ft->cls == JFR_LIVE_NONE ? "" : (const char *)fl->text.data + ft->cls;   /* the text may have moved */
	name = ft->name == JFR_LIVE_NONE ? "" : (const char *)fl->text.data + ft->name;
	for (size_t i = 0; i < nc; i++)
		p[i] = cls[i] == '/' ? '.' : cls[i];
	p[nc] = '.';
	memcpy(p + nc + 1, name, nn);
	p[nc + 1 + nn] = 0;
	fl->text.len += nc + nn + 2;
	return at;
}

static int frame_add(struct jfr_live_walk *w, const struct frame_text *ft)
{
	struct jfr_live_flat *fl = w->fl;
	size_t m = method_name(fl, ft);

	if (m == JFR_LIVE_NONE || rec_grow((void **)&fl->frames, &fl->capframes, fl->nframes + 1, sizeof *fl->frames) < 0 ||
	    rec_grow((void **)&fl->frame_text, &fl->capftext, 3 * (fl->nframes + 1), sizeof *fl->frame_text) < 0)
		return -ENOMEM;
	fl->frames[fl->nframes].line = ft->line;
	fl->frame_text[3 * fl->nframes] = m;
	fl->frame_text[3 * fl->nframes + 1] = ft->desc;
	fl->frame_text[3 * fl->nframes + 2] = ft->type;
	fl->nframes++;
	return 0;
}

static int trace_member(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f, void *ctx)
{
	struct jfr_live_event *ev = ctx;
	const struct jfr_pclass *k = &w->ch->classes[f->type];

	if (!f->array && !f->pool && k->prim == JFR_P_BOOLEAN && name_of(w, f) == JFR_LIVE_NAME_TRUNCATED) {
		ev->stack_truncated = jfr_get_u8(c) != 0;
		return c->bad ? jfr_cut(w->err, c, "a stack trace") : 0;
	}
	if (f->array && name_of(w, f) == JFR_LIVE_NAME_FRAMES) {
		size_t at = c->pos;
		uint64_t n = jfr_get_varint(c);
		int rc;

		if (c->bad)
			return jfr_cut(w->err, c, "a stack trace's length");
		if (n > w->ch->budget)
			return jfr_fail(w->err, at, "a stack trace of %" PRIu64 " frames is longer than its event allows", n);
		for (uint64_t i = 0; i < n; i++) {
			struct frame_text ft = { JFR_LIVE_NONE, JFR_LIVE_NONE, JFR_LIVE_NONE, JFR_LIVE_NONE, -1 };

			if ((rc = members(w, c, f->type, f->pool, frame_member, &ft)) < 0 || (rc = frame_add(w, &ft)) < 0)
				return rc;
		}
		return 0;
	}
	return jfr_skip_value(w->ch, c, f->type, f->pool, f->array, 1, w->err);
}

int jfr_live_stack(struct jfr_live_walk *w, struct jfr_cursor *c, const struct jfr_pfield *f,
		   struct jfr_live_event *ev)
{
	return members(w, c, f->type, f->pool, trace_member, ev);
}

/* ---- the paths of a type */
struct type_walk {
	struct jfr_live_flat *fl;
	const struct jfr_chunk *ch;
	uint32_t on_way[JFR_LIVE_MAX_DEPTH];
};

static int type_paths(struct type_walk *t, uint32_t cls, unsigned depth)
{
	struct jfr_live_flat *fl = t->fl;
	const struct jfr_pclass *k = &t->ch->classes[cls];
	bool seen = false;

	if (k->prim == JFR_P_STRUCT && k->simple && k->nfields == 1 && !t->ch->fields[k->field0].array)
		return type_paths(t, t->ch->fields[k->field0].type, depth);
	for (unsigned d = 0; d < depth; d++)
		seen |= t->on_way[d] == cls;
	if (k->prim != JFR_P_STRUCT || seen || depth >= JFR_LIVE_MAX_DEPTH) {
		size_t at;

		if (fl->nfields >= JFR_LIVE_MAX_FIELDS)
			return 0;   /* listed up to the bound */
		at = jfr_live_text_put(fl, fl->path, fl->plen);
		if (at == JFR_LIVE_NONE)
			return -ENOMEM;
		fl->field_path[fl->nfields++] = at;
		return 0;
	}
	t->on_way[depth] = cls;
	for (uint32_t i = 0; i < k->nfields; i++) {
		const struct jfr_pfield *f = &t->ch->fields[k->field0 + i];
		size_t saved = fl->plen;
		int n = snprintf(fl->path + fl->plen, JFR_LIVE_MAX_PATH + 1 - fl->plen, "%s%s%s", fl->plen ? "." : "",
				 f->name, f->array ? "[]" : "");
		int rc;

		if (n < 0 || (size_t)n > JFR_LIVE_MAX_PATH - fl->plen) {
			jfr_live_path_pop(fl, saved);
			continue;   /* too long to be given: left out of the list */
		}
		fl->plen += (size_t)n;
		rc = type_paths(t, f->type, depth + 1);
		jfr_live_path_pop(fl, saved);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int jfr_live_type_paths(struct jfr_live_flat *fl, const struct jfr_chunk *ch, uint32_t cls, const char ***paths,
			size_t *npaths)
{
	struct type_walk t = { fl, ch, { 0 } };
	const struct jfr_pclass *k = &ch->classes[cls];
	int rc;

	fl->text.len = 0;
	fl->text.error = 0;
	fl->nfields = 0;
	fl->plen = 0;
	fl->path[0] = 0;
	if (jfr_live_grow_fields(fl, JFR_LIVE_MAX_FIELDS) < 0)
		return -ENOMEM;
	t.on_way[0] = cls;
	for (uint32_t i = 0; i < k->nfields; i++) {
		const struct jfr_pfield *f = &ch->fields[k->field0 + i];

		if (strcmp(f->name, "startTime") == 0 || strcmp(f->name, "duration") == 0 ||
		    strcmp(f->name, "stackTrace") == 0)
			continue;
		fl->plen = (size_t)snprintf(fl->path, JFR_LIVE_MAX_PATH + 1, "%.*s%s", (int)(JFR_LIVE_MAX_PATH - 2),
					    f->name, f->array ? "[]" : "");
		if ((rc = type_paths(&t, f->type, 1)) < 0)
			return rc;
	}
	/* the paths as pointers, in the fields' array (it has room) */
	*paths = (const char **)(void *)fl->fields;
	for (size_t i = 0; i < fl->nfields; i++)
		(*paths)[i] = jfr_live_text_at(fl, fl->field_path[i], "");
	*npaths = fl->nfields;
	return 0;
}
