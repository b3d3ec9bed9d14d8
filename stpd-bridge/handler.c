/* handler.c: see handler.h. */
#define _GNU_SOURCE /* memmem */
#include "handler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fdio.h"
#include "log.h"
#include "monoclock.h"
#include "print.h"

static int jfr_event(void *ctx, const struct jfr_live_event *ev, uint64_t slots);

int handler_init(struct handler *h, const struct bridge_options *opts, const struct jvm_id *jvm,
		 int out_fd)
{
	int rc;

	memset(h, 0, sizeof *h);
	h->rec.fd = -1;
	h->opts = opts;
	h->out_fd = out_fd;
	h->pid = jvm->pid;
	threadnames_init(&h->names);
	rc = tidmap_init(&h->tids, jvm);
	if (rc < 0)
		return rc;
	if (opts->print) {
		h->line = malloc(HANDLER_BATCH + PRINT_LINE_MAX);
		h->hits = calloc(opts->reg.n ? opts->reg.n : 1, sizeof *h->hits);
		h->unreportable = calloc(opts->reg.n ? opts->reg.n : 1, sizeof *h->unreportable);
		if (!h->line || !h->hits || !h->unreportable)
			return -ENOMEM;
	}
	if ((opts->matches || opts->jfr_types) && !(h->line = malloc(HANDLER_BATCH + PRINT_LINE_MAX)))
		return -ENOMEM;
	if (opts->reg.jfr_len) {
		rc = jfrfeed_new(&h->jfr, &opts->reg, h->pid, jfr_event, h);
		if (rc < 0)
			return rc;
		if ((opts->fire || opts->in_thread) && !(h->jfr_buf = malloc(HANDLER_JFR_MARKER_BYTES)))
			return -ENOMEM;
	}
	/* in-thread, the agents fire: what still comes here (VmDeath) fires nothing */
	if (opts->fire && !opts->in_thread) {
		rc = dispatch_init(&h->disp, &opts->reg, &opts->slots);
		if (rc < 0)
			return rc;
		h->disp_ready = true;
		h->disp.matcher.descends = descent_has;
	}
	return 0;
}

int handler_record_to(struct handler *h, int fd)
{
	return recfwd_init(&h->rec, fd, (uint32_t)h->pid);
}

void handler_free(struct handler *h)
{
	jfrfeed_free(h->jfr);
	h->jfr = NULL;
	free(h->jfr_buf);
	h->jfr_buf = NULL;
	recfwd_finish(&h->rec);
	threadnames_free(&h->names);
	tidmap_free(&h->tids);
	if (h->disp_ready)
		dispatch_free(&h->disp);
	h->disp_ready = false;
	descent_free(h->descent);
	methodids_free(&h->ids);
	h->descent = NULL;
	free(h->line);
	h->line = NULL;
	free(h->hits);
	h->hits = NULL;
	free(h->unreportable);
	h->unreportable = NULL;
}

/* A Notice that says which events cannot be reported (its subject,
 * CAP_NOTICE_SUBJECT: a method, every method of a class, or a whole kind)
 * marks the patterns of that kind that select those events there: their
 * end-of-session line does not then blame the JVM alone. */
static void mark_unreportable(struct handler *h, const struct wire_event *ev)
{
	const struct registry *r = &h->opts->reg;

	if (!h->unreportable || ev->notice_scope == WIRE_NOTICE_GENERAL)
		return;
	for (size_t i = 0; i < r->n; i++) {
		const struct registry_entry *e = &r->entries[i];
		bool concerns;

		if (e->kind != ev->kind || !(e->events & ev->events))
			continue;
		switch (ev->notice_scope) {
		case WIRE_NOTICE_METHOD:
			concerns = pattern_match_method(&e->pat, ev->method.ptr, ev->method.len);
			break;
		case WIRE_NOTICE_CLASS:
			concerns = pattern_method_may_select_class(&e->pat, ev->method.ptr, ev->method.len);
			break;
		default: /* the kind's every pattern */
			concerns = true;
			break;
		}
		if (concerns)
			h->unreportable[i] = true;
	}
}

void handler_report_silent(const struct handler *h)
{
	const struct registry *r = &h->opts->reg;

	jfrfeed_end(h->jfr);
	if (h->lost)
		sj_warn("pid %d: the agent dropped %llu events in this session (its queue was full, unless "
			"a warning above says why: give it more room with bufsize=, or ask for fewer events)",
			(int)h->pid,
			(unsigned long long)h->lost);
	if (!h->hits)
		return;
	for (size_t i = 0; i < r->n; i++) {
		const struct registry_entry *e = &r->entries[i];
		const struct event_desc *first = events_of_kind(e->kind, 0), *d;
		size_t len = 0, plen = 0;
		const char *text = pattern_text(&e->pat, &plen);
		char words[128] = "";

		if (h->hits[i] || !first)
			continue;
		for (size_t k = 0; (d = events_of_kind(e->kind, k)); k++)
			if ((e->events & d->bit) && len < sizeof words)
				len += (size_t)snprintf(words + len, sizeof words - len, "%s%s", len ? ", " : "",
							events_word(d));
		/* the kind is what the labels of its events start with ("method" of "method.enter") */
		sj_warn("pid %d: no event of the %.*s pattern '%.*s' (%s) in this session: nothing that "
			"ran matched it%s", (int)h->pid, (int)strcspn(first->label, "."), first->label, (int)plen,
			text, words, h->unreportable[i] ? " but what the agent cannot report (its warnings above "
			"say what and why)" : "");
	}
}

/* What lines and markers say besides the body: the trailer's thread and
 * time, or for an Appendix-only agent the body's thread and our clock; the
 * thread as the host knows it (a JVM in a container reports its namespace's
 * tids); the name of a thread that starts or ends. */
static void event_meta(struct handler *h, const struct wire_event *ev, struct marker_meta *m)
{
	const struct threadname *tn = NULL;
	uint64_t tid;

	memset(m, 0, sizeof *m);
	m->pid = (uint32_t)h->pid;
	if (ev->has_trailer) {
		tid = ev->trailer.os_tid;
		m->ts_ns = ev->trailer.timestamp_ns;
	} else {
		tid = ev->thread;
		m->ts_ns = monotonic_ns();
	}
	m->tid = h->tids.identity ? tid : tidmap_host(&h->tids, tid, monotonic_ns());
	if (ev->code == WIRE_EV_MONITOR_ENTER && ev->has_trailer && (ev->trailer.flags & WIRE_TF_MONITOR)) {
		uint64_t owner = ev->trailer.owner_tid;
		m->owner_tid = h->tids.identity || !owner ? owner : tidmap_host(&h->tids, owner, monotonic_ns());
	}
	if (ev->code == WIRE_EV_THREAD_START || ev->code == WIRE_EV_THREAD_END)
		tn = threadnames_get(&h->names, ev->thread);
	if (tn) {
		m->thread_name = tn->name;
		m->thread_name_len = tn->len;
	}
}

int handler_flush(struct handler *h)
{
	size_t n = h->batched;

	recfwd_flush(&h->rec);
	h->batched = 0;
	return n ? fd_write_all(h->out_fd, h->line, n) : 0;
}

/* The N bytes formatted at the batch's end are a line of it; a full batch
 * is written. */
static int batch_line(struct handler *h, size_t n)
{
	h->batched += n;
	return h->batched >= HANDLER_BATCH ? handler_flush(h) : 0;
}

static struct print_meta print_meta_of(const struct marker_meta *dm)
{
	return (struct print_meta){ .pid = dm->pid, .tid = dm->tid, .ts_ns = dm->ts_ns,
				    .thread_name = dm->thread_name, .thread_name_len = dm->thread_name_len,
				    .owner_tid = dm->owner_tid };
}

/* Format the line at the end of the batch: there is always room for one
 * whole line of PRINT_LINE_MAX bytes after less than HANDLER_BATCH. */
static int print_event(struct handler *h, const struct wire_event *ev,
		       const struct marker_meta *dm)
{
	struct print_meta m = print_meta_of(dm);
	ssize_t n;

	n = print_event_line(h->line + h->batched, PRINT_LINE_MAX, &m, ev);
	if (n < 0) {
		sj_warn("pid %d: an event line exceeds %u bytes; not printed", (int)h->pid,
			PRINT_LINE_MAX);
		return 0;
	}
	return batch_line(h, (size_t)n);
}

void handler_send_jfr_to(struct handler *h, int (*fn)(void *ctx, const struct wire_jfr_event *e), void *ctx)
{
	h->jfr_send = fn;
	h->jfr_send_ctx = ctx;
}

/* --jfr: an event of the JVM's JFR stream that the session asked for. Its
 * thread is the host's, as every event's. In-thread the agent fires the jfr
 * marker (it parses no JFR: we send it the event), else with --fire it
 * fires from here. */
static int jfr_event(void *ctx, const struct jfr_live_event *ev, uint64_t slots)
{
	struct handler *h = ctx;
	uint64_t tid = ev->os_tid;
	ssize_t n;

	if (tid && !h->tids.identity)
		tid = tidmap_host(&h->tids, tid, monotonic_ns());
	if (h->jfr_send && h->jfr_buf) {
		struct wire_jfr_event e;
		int rc;

		jfrfeed_event_text(h->jfr_buf, HANDLER_JFR_MARKER_BYTES, tid, slots, ev, &e);
		rc = h->jfr_send(h->jfr_send_ctx, &e);
		if (rc < 0)
			return rc;
	} else if (h->opts->fire && h->jfr_buf && markers_family_probed(WIRE_EV_JFR_DATA)) {
		struct marker_args a;
		jfrfeed_marker_args(h->jfr_buf, HANDLER_JFR_MARKER_BYTES, (uint32_t)h->pid, tid, slots, ev, &a);
		markers_fire_family(WIRE_EV_JFR_DATA, &a);
	}
	if (!h->opts->print)
		return 0;
	n = jfrfeed_line(h->line + h->batched, PRINT_LINE_MAX, (uint32_t)h->pid, tid, ev);
	if (n < 0) {
		sj_warn("pid %d: a JFR event's line exceeds %u bytes; not printed", (int)h->pid, PRINT_LINE_MAX);
		return 0;
	}
	return batch_line(h, (size_t)n);
}

/* --jfr-types: "jfr TYPE PATH PATH ..." for a type the session selects. */
static int jfr_type_line(void *ctx, const char *type, const char *const *paths, size_t npaths)
{
	struct handler *h = ctx;
	char *line = h->line + h->batched;
	size_t n = 0, cap = PRINT_LINE_MAX;
	ssize_t k = print_text(line + 4, cap - 8, type, strlen(type));

	if (k < 0)
		return 0;
	memcpy(line, "jfr ", 4);
	n = 4 + (size_t)k;
	for (size_t i = 0; i < npaths; i++) {
		if (cap - n < 8)
			return 0;
		line[n++] = ' ';
		k = print_text(line + n, cap - n - 4, paths[i], strlen(paths[i]));
		if (k < 0)
			return 0;
		n += (size_t)k;
	}
	line[n++] = '\n';
	return batch_line(h, n);
}

static int jfr_data(struct handler *h, const struct wire_event *ev)
{
	int rc = jfrfeed_data(h->jfr, ev);

	/* no recording serves the session (a Notice said why): nothing more
	 * comes, and a listing has its answer */
	if (ev->jfr_flags & WIRE_JFR_NONE) {
		h->jfr_none = true;
		return rc;
	}
	if (rc == 0 && h->opts->jfr_types && !h->jfr_listed) {
		rc = jfrfeed_list(h->jfr, jfr_type_line, h);
		h->jfr_listed = rc > 0;
		rc = rc < 0 ? rc : 0;
	}
	return rc;
}

/* --matches: one line per match, "method NAME" (its wire name), "class
 * NAME" or "exception NAME" (Java form); at a list's end, how many the
 * agent left out. */
static int list_match(struct handler *h, const struct wire_event *ev)
{
	const char *kind = wire_kind_name(ev->kind);   /* the decoder took only the three */
	char *line = h->line + h->batched;
	size_t k = strlen(kind);
	ssize_t n;

	if (ev->code == WIRE_EV_MATCH_END) {
		if (ev->u32 > h->listed)
			sj_warn("pid %d: %u of the %u loaded matches of a %s pattern are not listed (the "
				"agent's queue was full)", (int)h->pid, ev->u32 - h->listed, ev->u32, kind);
		h->listed = 0;
		return 0;
	}
	h->listed++;
	memcpy(line, kind, k);
	line[k] = ' ';
	n = ev->kind == WIRE_KIND_METHOD ? print_name(line + k + 1, PRINT_LINE_MAX - k - 2, &ev->name)
					 : print_class(line + k + 1, PRINT_LINE_MAX - k - 2, &ev->name);
	if (n < 0) {
		sj_warn("pid %d: a matched name exceeds %u bytes; not listed", (int)h->pid, PRINT_LINE_MAX);
		return 0;
	}
	line[k + 1 + (size_t)n] = '\n';
	return batch_line(h, k + 2 + (size_t)n);
}

/* A class that descends from a root method pattern's class: its methods'
 * events are that pattern's from now on. */
static int descends(struct handler *h, const struct wire_event *ev)
{
	int rc = descent_add(&h->descent, ev->name.ptr, ev->name.len, ev->method.ptr, ev->method.len);

	if (rc == 1 && h->disp_ready) {
		h->disp.matcher.descends_ctx = h->descent;
		slots_matcher_forget(&h->disp.matcher);
	}
	if (rc < 0 && !h->descent_full) {
		h->descent_full = true;
		sj_warn("pid %d: class %.*s descends from %.*s, but the bridge keeps no more of that (%s): "
			"its methods' events go to no root pattern", (int)h->pid, (int)ev->name.len, ev->name.ptr,
			(int)ev->method.len, ev->method.ptr,
			rc == -E2BIG ? "too many, or a name too long" : rc == -ENOMEM ? "out of memory" : "not a class name");
	}
	return 0;
}

int handler_event(struct handler *h, const struct wire_event *ev)
{
	struct marker_meta meta;
	bool have_meta = false;
	int rc = 0;

	if (ev->code == WIRE_EV_LOST && ev->lost > h->lost)
		h->lost = ev->lost;   /* a running total */
	if (ev->code == WIRE_EV_MATCH || ev->code == WIRE_EV_MATCH_END)
		return h->opts->matches ? list_match(h, ev) : 0;
	if (ev->code == WIRE_EV_JFR_DATA)
		return h->jfr ? jfr_data(h, ev) : 0;
	if (ev->code == WIRE_EV_DESCENDS)
		return descends(h, ev);
	if (ev->code == WIRE_EV_THREAD_NAME) {
		threadnames_set(&h->names, ev->thread, ev->name.ptr, ev->name.len, ev->java_tid);
		return 0;
	}
	/* what the agent cannot do for us: the user reads it in the log (stderr) */
	if (ev->code == WIRE_EV_NOTICE) {
		mark_unreportable(h, ev);
		/* bytes from the agent: the log escapes every control byte but
		 * the NUL, which would end the text here; it is written as the
		 * log writes the others */
		char text[1001];
		size_t o = 0;
		for (size_t i = 0; i < ev->name.len && o + 4 < sizeof text; i++) {
			if (ev->name.ptr[i] == '\0') {
				memcpy(text + o, "\\x00", 4);
				o += 4;
			} else {
				text[o++] = ev->name.ptr[i];
			}
		}
		text[o] = '\0';
		sj_warn("pid %d: %s", (int)h->pid, text);
		return 0;
	}
	bool record = recfwd_on(&h->rec);
	if ((h->opts->print || record) && registry_wants_via(&h->opts->reg, ev, h->hits, descent_has, h->descent)) {
		event_meta(h, ev, &meta);
		have_meta = true;
		if (h->opts->print)
			rc = print_event(h, ev, &meta);
		if (record) {
			struct print_meta m = print_meta_of(&meta);
			/* the formats name a thread at its first event in the
			 * file (JFR's thread constants, the seeds' THREAD_DEFINE):
			 * every event carries the name and Java id the bridge knows */
			const struct threadname *tn = threadnames_get(&h->names, ev->thread);
			if (tn && !m.thread_name) {
				m.thread_name = tn->name;
				m.thread_name_len = tn->len;
			}
			if (tn)
				m.java_tid = tn->java_tid;
			recfwd_event(&h->rec, &m, ev);
		}
	}
	/* before the caller's Ack: in sync mode the handlers run while the Java thread waits */
	if (rc == 0 && h->disp_ready) {
		struct dispatch_hits hits;
		const bool fire = dispatch_wanted(&h->disp, ev, &hits);

		/* a JVM in a container: its threads' host tids are learnt from
		 * every event, fired or not, while the thread lives; an event
		 * handled after its thread is gone (its ThreadEnd) finds the
		 * mapping its earlier events left (tidmap.h) */
		if (!have_meta && (fire || !h->tids.identity))
			event_meta(h, ev, &meta);
		if (fire)
			dispatch_fire(&h->disp, &meta, ev, &hits);
	}
	if (ev->code == WIRE_EV_THREAD_END)
		threadnames_forget(&h->names, ev->thread);
	return rc;
}

int handler_method_number(struct handler *h, struct wire_event *ev, char *why, size_t whylen)
{
	int rc = methodids_take(&h->ids, ev, why, whylen);

	/* named anew: what its number found before is another method's */
	if (ev->code == WIRE_EV_METHOD_NAME && h->disp_ready)
		slots_forget_method_id(&h->disp.matcher, ev->method_id);
	return rc;
}
