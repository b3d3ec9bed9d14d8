/* jfrfeed.c: see jfrfeed.h. */
#include "jfrfeed.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jfrspec.h"
#include "log.h"
#include "outbuf.h"
#include "print.h"

struct jfrfeed {
	struct jfr_live *live;
	struct jfrspec_entry *entries;
	int64_t *threshold;      /* per entry, ns; 0: none */
	int8_t *slot;            /* per entry, its --jfr-slot, -1: none */
	size_t n;
	pid_t pid;
	jfrfeed_event_fn fn;
	void *ctx;
	int fn_rc;               /* FN's failure, returned by jfrfeed_data */
	bool in_chunk;           /* the parser has a chunk begun */
	bool error_said;         /* a chunk was refused (said once) */
	uint64_t refused;        /* chunks refused after the first */
};

static bool want(void *ctx, const char *type)
{
	const struct jfrfeed *f = ctx;

	for (size_t i = 0; i < f->n; i++)
		if (jfrspec_match(&f->entries[i].pattern, type))
			return true;
	return false;
}

/* An event is the session's when an entry selects its type and its
 * duration reaches that entry's threshold; SLOTS, the slots of those entries. */
static int on_event(void *ctx, const struct jfr_live_event *ev)
{
	struct jfrfeed *f = ctx;
	uint64_t slots = 0;
	bool any = false;

	for (size_t i = 0; i < f->n; i++) {
		if (!jfrspec_match(&f->entries[i].pattern, ev->type) || ev->duration_ns < f->threshold[i])
			continue;
		any = true;
		if (f->slot[i] >= 0)
			slots |= 1ull << f->slot[i];
	}
	if (!any || f->fn_rc)
		return 0;
	f->fn_rc = f->fn(f->ctx, ev, slots);
	return 0;
}

int jfrfeed_new(struct jfrfeed **out, const struct registry *reg, pid_t pid, jfrfeed_event_fn fn, void *ctx)
{
	struct jfrfeed *f = calloc(1, sizeof *f);
	char err[300];

	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->pid = pid;
	f->fn = fn;
	f->ctx = ctx;
	f->entries = calloc(reg->jfr_entries + 1, sizeof *f->entries);
	f->threshold = calloc(reg->jfr_entries + 1, sizeof *f->threshold);
	f->slot = calloc(reg->jfr_entries + 1, sizeof *f->slot);
	if (!f->entries || !f->threshold || !f->slot || jfr_live_new(&f->live, want, on_event, f) < 0) {
		jfrfeed_free(f);
		return -ENOMEM;
	}
	/* the registry holds only entries jfrspec_parse took (registry_add_jfr) */
	for (const char *line = reg->jfr; line && *line && f->n < reg->jfr_entries;) {
		size_t len = strcspn(line, "\n");
		struct jfrspec_entry *e = &f->entries[f->n];
		if (jfrspec_parse(line, len, e, err, sizeof err) == 0) {
			const struct jfrspec_text *th = jfrspec_setting(e, "threshold");
			if (!th || jfrspec_duration_ns(th, &f->threshold[f->n]) < 0)
				f->threshold[f->n] = 0;   /* JFR's own words for "none" ("0 ns" ...) or its own */
			f->slot[f->n] = reg->jfr_slots[f->n];
			f->n++;
		}
		line += len + (line[len] ? 1 : 0);
	}
	*out = f;
	return 0;
}

void jfrfeed_free(struct jfrfeed *f)
{
	if (!f)
		return;
	if (f->live)
		jfr_live_free(f->live);
	free(f->entries);
	free(f->threshold);
	free(f->slot);
	free(f);
}

int jfrfeed_data(struct jfrfeed *f, const struct wire_event *ev)
{
	struct record_error err = { 0 };
	int rc;

	if (ev->jfr_flags & WIRE_JFR_NONE) {   /* no recording: what came of a chunk is all of it */
		f->in_chunk = false;
		return 0;
	}
	if (ev->jfr_flags & WIRE_JFR_CHUNK_BEGIN) {
		rc = jfr_live_chunk_begin(f->live);
		if (rc < 0)
			return rc;
		f->in_chunk = true;
	}
	if (!f->in_chunk)
		return 0;   /* the rest of a chunk the parser gave up on */
	rc = jfr_live_feed(f->live, (const uint8_t *)ev->name.ptr, ev->name.len, &err);
	if (rc < 0 && rc != -ENOMEM) {
		f->in_chunk = false;
		if (!f->error_said)
			sj_warn("pid %d: the JVM's JFR data is malformed at offset %" PRIu64 " of its chunk: %s; "
				"that chunk's later events are skipped, the next chunk is read",
				(int)f->pid, err.offset, err.text[0] ? err.text : strerror(-rc));
		else
			f->refused++;
		f->error_said = true;
	} else if (rc == -ENOMEM) {
		return rc;
	}
	rc = f->fn_rc;
	f->fn_rc = 0;
	return rc;
}

void jfrfeed_end(struct jfrfeed *f)
{
	struct record_error err = { 0 };
	uint64_t unresolved = 0;

	if (!f)
		return;
	if (f->in_chunk && jfr_live_end(f->live, &unresolved, &err) < 0 && err.text[0])
		sj_warn("pid %d: the JVM's JFR stream ended inside a record, at offset %" PRIu64 " of its "
			"chunk: %s", (int)f->pid, err.offset, err.text);
	if (unresolved)
		sj_warn("pid %d: the JVM's JFR stream ended mid-chunk: %" PRIu64 " events whose constants "
			"never came are not shown", (int)f->pid, unresolved);
	if (f->refused)
		sj_warn("pid %d: %" PRIu64 " more malformed JFR chunks were skipped", (int)f->pid, f->refused);
}

struct list_ctx {
	struct jfrfeed *f;
	jfr_live_type_fn fn;
	void *ctx;
	int n;
};

static int list_one(void *ctx, const char *type, const char *const *paths, size_t npaths)
{
	struct list_ctx *l = ctx;

	l->n++;
	return want(l->f, type) ? l->fn(l->ctx, type, paths, npaths) : 0;
}

int jfrfeed_list(struct jfrfeed *f, jfr_live_type_fn fn, void *ctx)
{
	struct list_ctx l = { f, fn, ctx, 0 };
	int rc = jfr_live_types(f->live, list_one, &l);

	return rc < 0 ? rc : l.n;
}

/* ------------------------------------------------------------ the line */

static void add_value(struct outbuf *l, const struct jfr_live_value *v)
{
	switch (v->kind) {
	case JFR_LIVE_NULL:
		outbuf_str(l, "null");
		return;
	case JFR_LIVE_LONG:
		outbuf_fmt(l, "%" PRId64, v->l);
		return;
	case JFR_LIVE_DOUBLE:
		outbuf_fmt(l, "%.17g", v->d);
		return;
	case JFR_LIVE_STRING:
		outbuf_with(l, print_quoted, v->s, strlen(v->s));
		return;
	}
}

ssize_t jfrfeed_line(char *buf, size_t cap, uint32_t pid, uint64_t host_tid, const struct jfr_live_event *ev)
{
	struct outbuf l = OUTBUF_INIT(buf, cap);

	outbuf_fmt(&l, "jfr pid=%" PRIu32 " tid=%" PRIu64 " start_ns=%" PRId64 " duration_ns=%" PRId64 " type=", pid,
	    host_tid, ev->start_ns, ev->duration_ns);
	outbuf_with(&l, print_text, ev->type, strlen(ev->type));
	outbuf_str(&l, " thread=");
	outbuf_with(&l, print_quoted, ev->thread_name, strlen(ev->thread_name));
	for (size_t i = 0; i < ev->nfields; i++) {
		outbuf_str(&l, " ");
		outbuf_with(&l, print_text, ev->fields[i].path, strlen(ev->fields[i].path));
		outbuf_str(&l, "=");
		add_value(&l, &ev->fields[i].v);
	}
	if (ev->nframes) {
		outbuf_str(&l, " stack=");
		for (size_t i = 0; i < ev->nframes; i++) {
			outbuf_fmt(&l, "%s", i ? "|" : "");
			outbuf_with(&l, print_text, ev->frames[i].method, strlen(ev->frames[i].method));
			if (ev->frames[i].line >= 0)
				outbuf_fmt(&l, ":%" PRId32, ev->frames[i].line);
		}
		if (ev->stack_truncated)
			outbuf_str(&l, "|...");
	}
	outbuf_str(&l, "\n");
	return outbuf_finish(&l);
}

/* ------------------------------------------------------------ the marker */

/* O's text from AT as a string of the event, or "" (and no parts) when it
 * did not fit O or a wire string; O goes on from AT then. */
static struct wire_str taken(struct outbuf *o, size_t at, uint16_t *nparts)
{
	if (o->full || o->pos - at > WIRE_MAX_STRING) {
		o->pos = at;
		o->full = false;
		*nparts = 0;
		return (struct wire_str){ "", 0 };
	}
	return (struct wire_str){ o->buf + at, (uint32_t)(o->pos - at) };
}

void jfrfeed_event_text(char *buf, size_t cap, uint64_t host_tid, uint64_t slots, const struct jfr_live_event *ev,
			struct wire_jfr_event *out)
{
	/* more than a JfrEvent counts: as if they did not fit */
	const size_t nfields = ev->nfields <= UINT16_MAX / 2 ? ev->nfields : 0;
	const size_t nframes = ev->nframes <= UINT16_MAX ? ev->nframes : 0;
	struct outbuf o = OUTBUF_INIT(buf, cap);
	size_t at = 0;

	*out = (struct wire_jfr_event){
		.slots = slots, .tid = host_tid, .start_ns = ev->start_ns, .duration_ns = ev->duration_ns,
		.type = { ev->type, (uint32_t)strnlen(ev->type, WIRE_MAX_STRING) },
		.thread_name = { ev->thread_name, (uint32_t)strnlen(ev->thread_name, WIRE_MAX_STRING) },
		.nfields = (uint16_t)nfields, .depth = (uint16_t)nframes,
	};
	for (size_t i = 0; i < nfields; i++) {
		const struct jfr_live_field *fl = &ev->fields[i];

		outbuf_bytes(&o, fl->path, strlen(fl->path) + 1);
		switch (fl->v.kind) {
		case JFR_LIVE_LONG:
			outbuf_fmt(&o, "%" PRId64, fl->v.l);
			break;
		case JFR_LIVE_DOUBLE:
			outbuf_fmt(&o, "%.17g", fl->v.d);
			break;
		case JFR_LIVE_STRING:
			outbuf_str(&o, fl->v.s);
			break;
		case JFR_LIVE_NULL:
			break;
		}
		outbuf_bytes(&o, "", 1);
	}
	out->fields = taken(&o, at, &out->nfields);
	at = o.pos;
	/* frames as the other stacks show them: "Class.method:LINE" */
	for (size_t i = 0; i < nframes; i++) {
		outbuf_str(&o, ev->frames[i].method);
		if (ev->frames[i].line >= 0)
			outbuf_fmt(&o, ":%" PRId32, ev->frames[i].line);
		outbuf_bytes(&o, "", 1);
	}
	out->stack = taken(&o, at, &out->depth);
}

void jfrfeed_marker_args(char *buf, size_t cap, uint32_t pid, uint64_t host_tid, uint64_t slots,
			 const struct jfr_live_event *ev, struct marker_args *a)
{
	struct wire_jfr_event e;

	jfrfeed_event_text(buf, cap / 2, host_tid, slots, ev, &e);
	markers_fill_jfr(buf + cap / 2, cap - cap / 2, pid, 0, &e, a);
}
