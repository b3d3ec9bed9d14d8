/* rec_clog.c: the concurrency log of seed 004 (.clog), writer; the reader
 * is rec_clog_read.c, the fields clog_text.c, the grammar and the readings
 * chosen doc/recording.md.
 *
 * One file for every JVM: the seed's event lines in the order the events
 * come, a "#pid" line wherever the JVM changes, each class and method
 * defined ("#class", "#method") before the first stack that uses it, so any
 * prefix of the file reads; at a clean end the seed's meta part (classes
 * with their source file, methods with their line tables: the lines their
 * frames were seen at, a frame's location being its line). Threads are
 * their OS tids, objects their stable ids. Thread.join's own waits and
 * monitor contention are not written (the seed drops the inner wait: a
 * join is one ThreadJoin and one ThreadJoined), nor the inner calls of a
 * nested join or sleep. Each line goes out in one record_out_write(), so a
 * capped file ends on a whole line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clog_text.h"
#include "rec_clog.h"
#include "rec_tables.h"
#include "rec_text.h"
#include "record.h"

/* The longest line: a method's in the meta part, 512 KiB of escaped name
 * and class and a line table of 64 Ki lines. */
#define LINE_CAP (2u << 20)
#define LINE_NUMBER_MAX 65535 /* a class file's line numbers are u2 */
#define UNKNOWN 0             /* a thread or an object the events do not carry */

struct method {
	char *def;                /* "ID,NAME,SIG,CLASS", escaped: the meta part repeats it */
	size_t def_len;
	int32_t *lines;           /* seen, sorted, each >= 0 */
	uint32_t nlines, cap;
};

struct klass {
	char *def;                /* "Lsig;,source", escaped */
	size_t def_len, sig_len;
};

struct clog {
	char *line, *def;         /* the event line being built; a definition */
	char *internal;           /* a class name in the JVM's form */
	size_t len;
	struct rec_strmap methods, classes;  /* wire name, dotted class -> index (id - 1) */
	struct rec_pairmap threads;          /* (pid, tid) -> calls under way */
	struct method *m;
	size_t capm;
	struct klass *c;
	size_t capc;
	uint32_t pid;
	bool pid_known;
	uint64_t dropped;         /* the bridge's running total */
};

/* A thread's calls under way: join in bits 0-15, sleep 16-31. */
#define JOIN_ONE 1u
#define SLEEP_ONE (1u << 16)
#define DEPTH_OF(v, one) (((v) / (one)) & 0xffffu)

static size_t put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return n;
}

#define PUT(p, lit) put(p, lit, sizeof(lit) - 1)

static void add(struct clog *w, const char *s, size_t n)
{
	w->len += put(w->line + w->len, s, n);
}

static void add_hex(struct clog *w, uint64_t v)
{
	w->line[w->len++] = ',';
	w->len += clog_put_hex(w->line + w->len, v);
}

static int write_line(struct record_out *out, char *line, size_t n)
{
	line[n++] = '\n';
	return record_out_write(out, line, n);
}

/* ------------------------------------------------------------ definitions */

/* Keep a copy of the definition line DEF[SKIP..END) for the meta part. */
static int keep(char **copy, size_t *len, const char *def, size_t skip, const char *end)
{
	*len = (size_t)(end - def) - skip;
	if (!(*copy = malloc(*len)))
		return -ENOMEM;
	memcpy(*copy, def + skip, *len);
	return 0;
}

/* The class of a method's dotted name (its index), "#class" written when new. */
static int class_index(struct clog *w, struct record_out *out, const struct wire_str *dotted,
		       const struct wire_str *source, uint32_t *index)
{
	int rc = rec_strmap_intern(&w->classes, dotted->ptr, dotted->len, index);
	char *p = w->def;

	if (rc <= 0) /* known, or no memory */
		return rc;
	if (rec_grow((void **)&w->c, &w->capc, w->classes.n, sizeof *w->c) < 0)
		return -ENOMEM;
	/* the JVM's form of the name: its signature, as the seed writes it */
	rec_class_key_to_internal(dotted->ptr, dotted->len, w->internal);
	p += PUT(p, "#class,L");
	p += clog_put_text(p, w->internal, dotted->len);
	*p++ = ';';
	struct klass *k = &w->c[*index];
	k->sig_len = (size_t)(p - w->def) - 7;
	*p++ = ',';
	p += clog_put_text(p, source->ptr, source->len);
	if ((rc = keep(&k->def, &k->def_len, w->def, 7, p)) < 0)
		return rc;
	return write_line(out, w->def, (size_t)(p - w->def));
}

/* The id of a frame's method, "#method" (and its "#class") written when new. */
static int method_id(struct clog *w, struct record_out *out, const struct wire_frame *f, uint32_t *id)
{
	struct rec_method_name parts;
	uint32_t index, cls;
	int rc = rec_strmap_intern(&w->methods, f->method.ptr, f->method.len, &index);
	char *p = w->def;

	if (rc < 0)
		return rc;
	*id = index + 1;
	if (rc == 0)
		return 0;
	if (rec_grow((void **)&w->m, &w->capm, w->methods.n, sizeof *w->m) < 0)
		return -ENOMEM;
	rec_method_split(f->method.ptr, f->method.len, &parts);
	if (parts.cls.len && (rc = class_index(w, out, &parts.cls, &f->source, &cls)) < 0)
		return rc;
	p += PUT(p, "#method,");
	p += clog_put_hex(p, *id);
	*p++ = ',';
	p += clog_put_text(p, parts.name.ptr, parts.name.len);
	*p++ = ',';
	p += clog_put_text(p, parts.sig.ptr, parts.sig.len);
	*p++ = ',';
	if (parts.cls.len)
		p += put(p, w->c[cls].def, w->c[cls].sig_len);
	if ((rc = keep(&w->m[index].def, &w->m[index].def_len, w->def, 8, p)) < 0)
		return rc;
	return write_line(out, w->def, (size_t)(p - w->def));
}

/* The line table grows with each line a frame is seen at. */
static int saw_line(struct method *m, int32_t line)
{
	uint32_t lo = 0, hi = m->nlines;

	if (line < 0 || line > LINE_NUMBER_MAX)
		return 0;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (m->lines[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nlines && m->lines[lo] == line)
		return 0;
	if (m->nlines == m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 8;
		int32_t *grown = realloc(m->lines, cap * sizeof *grown);
		if (!grown)
			return -ENOMEM;
		m->lines = grown;
		m->cap = cap;
	}
	memmove(m->lines + lo + 1, m->lines + lo, (m->nlines - lo) * sizeof *m->lines);
	m->lines[lo] = line;
	m->nlines++;
	return 0;
}

/* ",DEPTH[,METHOD,LOCATION]...": the location is the line (-1 unknown, -2 native). */
static int add_stack(struct clog *w, struct record_out *out, const struct wire_event *ev)
{
	unsigned depth = ev->has_trailer && (ev->trailer.flags & WIRE_TF_STACK) ? ev->trailer.depth : 0;
	char num[12];
	int rc;

	w->line[w->len++] = ',';
	add(w, num, (size_t)snprintf(num, sizeof num, "%u", depth));
	for (unsigned i = 0; i < depth; i++) {
		const struct wire_frame *f = &ev->trailer.frames[i];
		uint32_t id;

		if ((rc = method_id(w, out, f, &id)) < 0 || (rc = saw_line(&w->m[id - 1], f->line)) < 0)
			return rc;
		add_hex(w, id);
		add_hex(w, (uint32_t)f->line);
	}
	return 0;
}

/* ------------------------------------------------------------ events */

/* A thread's calls under way (0: none, or not known). */
static uint32_t calls_of(const struct clog *w, const struct print_meta *meta)
{
	uint32_t v = 0;

	rec_pairmap_get(&w->threads, meta->pid, meta->tid, &v);
	return v;
}

static bool in_join(const struct clog *w, const struct print_meta *meta)
{
	return DEPTH_OF(calls_of(w, meta), JOIN_ONE) != 0;
}

static bool starts(const struct wire_str *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return s->len >= n && memcmp(s->ptr, prefix, n) == 0;
}

static bool is(const struct wire_str *s, const char *name)
{
	return s->len == strlen(name) && memcmp(s->ptr, name, s->len) == 0;
}

/* An outer call of join or sleep begins or ends (ONE: its counter): the
 * event to write, or NULL for an inner call. */
static const char *nested(struct clog *w, const struct print_meta *meta, bool enter, uint32_t one,
			  const char *begins, const char *ends)
{
	uint32_t v = calls_of(w, meta);

	if (enter) {
		if (DEPTH_OF(v, one) == 0xffffu)
			return NULL;
		v += one;
	} else if (DEPTH_OF(v, one) == 0) {
		return NULL; /* its enter came before the recording */
	} else
		v -= one;
	/* out of memory, nesting is forgotten: each call is then written */
	rec_pairmap_put(&w->threads, meta->pid, meta->tid, v);
	return DEPTH_OF(v, one) == (enter ? 1u : 0u) ? (enter ? begins : ends) : NULL;
}

static bool is_notify(const struct wire_event *ev)
{
	return is(&ev->name, "java.lang.Object.notify()V") || is(&ev->name, "java.lang.Object.notifyAll()V");
}

/* The seed's name of a method event, and whether its line names an object. */
static const char *method_event(struct clog *w, const struct print_meta *meta,
				const struct wire_event *ev, bool *object)
{
	bool enter = ev->code == WIRE_EV_METHOD_ENTER;

	*object = true;
	if (starts(&ev->name, "java.lang.Thread.join("))
		return nested(w, meta, enter, JOIN_ONE, "ThreadJoin", "ThreadJoined");
	if (starts(&ev->name, "java.lang.Thread.sleep(")) {
		*object = false;
		return nested(w, meta, enter, SLEEP_ONE, "ThreadSleep", "ThreadSlept");
	}
	if (!enter)
		return NULL;
	if (starts(&ev->name, "java.lang.Thread.start("))
		return "ThreadStart";
	if (is(&ev->name, "java.lang.Object.notify()V"))
		return "ObjectNotify";
	if (is(&ev->name, "java.lang.Object.notifyAll()V"))
		return "ObjectNotifyAll";
	return NULL;
}

static void begin_line(struct clog *w, const struct print_meta *meta, const char *what)
{
	w->len = clog_put_time(w->line, meta->ts_ns);
	w->line[w->len++] = ',';
	add(w, what, strlen(what));
	add_hex(w, meta->tid);
}

/* The line of EV, in w->line; w->len 0 when it has none. */
static int event_line(struct clog *w, struct record_out *out, const struct print_meta *meta,
		      const struct wire_event *ev)
{
	static const char *const monitor[] = {
		[WIRE_EV_MONITOR_ENTER - WIRE_EV_MONITOR_ENTER] = "MonitorContendedEnter",
		[WIRE_EV_MONITOR_ENTERED - WIRE_EV_MONITOR_ENTER] = "MonitorContendedEntered",
		[WIRE_EV_MONITOR_WAIT - WIRE_EV_MONITOR_ENTER] = "ObjectWait",
		[WIRE_EV_MONITOR_WAITED - WIRE_EV_MONITOR_ENTER] = "ObjectWaited",
	};
	const char *what;
	bool object;

	w->len = 0;
	switch (ev->code) {
	case WIRE_EV_THREAD_START:
		begin_line(w, meta, "ThreadStarted");
		w->line[w->len++] = ',';
		/* a name is a wire string: the line has room for it escaped */
		w->len += clog_put_text(w->line + w->len, meta->thread_name,
					meta->thread_name_len < WIRE_MAX_STRING ? meta->thread_name_len : WIRE_MAX_STRING);
		return 0;
	case WIRE_EV_THREAD_END:
		rec_pairmap_remove(&w->threads, meta->pid, meta->tid); /* the tid may be another thread's next */
		begin_line(w, meta, "ThreadEnded");
		return 0;
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
	case WIRE_EV_MONITOR_WAIT:
	case WIRE_EV_MONITOR_WAITED:
		if (in_join(w, meta))
			return 0;
		begin_line(w, meta, monitor[ev->code - WIRE_EV_MONITOR_ENTER]);
		add_hex(w, ev->object);
		if (ev->code == WIRE_EV_MONITOR_ENTER)
			add_hex(w, meta->owner_tid);
		return add_stack(w, out, ev);
	case WIRE_EV_METHOD_ENTER:
	case WIRE_EV_METHOD_EXIT:
		if (!(what = method_event(w, meta, ev, &object)))
			return 0;
		begin_line(w, meta, what);
		/* the receiver: on the wire only as notify's one value (PROTOCOL.md) */
		if (object)
			add_hex(w, ev->code == WIRE_EV_METHOD_ENTER && ev->nvalues == 1 &&
				   (ev->values[0].type == WIRE_T_OBJECT || ev->values[0].type == WIRE_T_ARRAY) &&
				   is_notify(ev) ? ev->values[0].object_id : UNKNOWN);
		return add_stack(w, out, ev);
	case WIRE_EV_LOST:
		w->len = (size_t)PUT(w->line, "#lost,");
		w->len += clog_put_time(w->line + w->len, meta->ts_ns);
		w->len += (size_t)snprintf(w->line + w->len, 24, ",%llu", (unsigned long long)ev->lost);
		return 0;
	}
	return 0;
}

/* ------------------------------------------------------------ the format */

static int clog_begin(void *state, struct record_out *out, const struct record_info *info)
{
	struct clog *w = state;
	char *p;

	w->line = malloc(LINE_CAP);
	w->def = malloc(LINE_CAP);
	w->internal = malloc(WIRE_MAX_STRING);
	if (!w->line || !w->def || !w->internal)
		return -ENOMEM;
	p = w->line + PUT(w->line, "#clog,1\n#clock,");
	p += clog_put_time(p, info->start_ns);
	*p++ = ',';
	p += clog_put_time(p, info->start_wall_ns);
	return write_line(out, w->line, (size_t)(p - w->line));
}

static int clog_event(void *state, struct record_out *out, const struct print_meta *meta,
		      const struct wire_event *ev)
{
	struct clog *w = state;
	int rc;

	/* definitions go out while the line is built: the JVM must be said first */
	if (!w->pid_known || meta->pid != w->pid) {
		char pidline[24];
		w->pid = meta->pid;
		w->pid_known = true;
		if ((rc = write_line(out, pidline, (size_t)snprintf(pidline, sizeof pidline - 1, "#pid,%u", meta->pid))) < 0)
			return rc;
	}
	if ((rc = event_line(w, out, meta, ev)) < 0)
		return rc;
	return w->len ? write_line(out, w->line, w->len) : 0;
}

static int clog_lost(void *state, struct record_out *out, uint64_t ts_ns, uint64_t count)
{
	struct clog *w = state;
	char *p = w->line;

	w->dropped += count;
	p += PUT(p, "#dropped,");
	p += clog_put_time(p, ts_ns);
	p += snprintf(p, 24, ",%llu", (unsigned long long)w->dropped);
	return write_line(out, w->line, (size_t)(p - w->line));
}

/* The seed's meta part: classes, then methods with their line tables. */
static int write_meta(struct clog *w, struct record_out *out)
{
	int rc = record_out_write(out, "#classes\n", 9);

	/* (a definition memory ran out for has none: the recording stopped there) */
	for (size_t i = 0; rc == 0 && i < w->classes.n && w->c[i].def; i++)
		rc = write_line(out, memcpy(w->line, w->c[i].def, w->c[i].def_len), w->c[i].def_len);
	if (rc == 0)
		rc = record_out_write(out, "#methods\n", 9);
	for (size_t i = 0; rc == 0 && i < w->methods.n && w->m[i].def; i++) {
		const struct method *m = &w->m[i];
		char *p = w->line + put(w->line, m->def, m->def_len);

		p += snprintf(p, 16, ",%d", m->nlines ? (int)m->nlines : -1);
		for (uint32_t k = 0; k < m->nlines; k++) {
			*p++ = ',';
			p += clog_put_hex(p, (uint32_t)m->lines[k]);
			p += snprintf(p, 16, ",%d", m->lines[k]);
		}
		rc = write_line(out, w->line, (size_t)(p - w->line));
	}
	return rc ? rc : record_out_write(out, "#end\n", 5);
}

static int clog_end(void *state, struct record_out *out)
{
	struct clog *w = state;
	int rc = w->line && w->def ? write_meta(w, out) : -ENOMEM;

	/* rec_grow zeroes what it adds: entries memory ran out for have NULL */
	for (size_t i = 0; i < w->capm; i++) {
		free(w->m[i].def);
		free(w->m[i].lines);
	}
	for (size_t i = 0; i < w->capc; i++)
		free(w->c[i].def);
	free(w->m);
	free(w->c);
	rec_strmap_free(&w->methods);
	rec_strmap_free(&w->classes);
	rec_pairmap_free(&w->threads);
	free(w->line);
	free(w->def);
	free(w->internal);
	memset(w, 0, sizeof *w);
	return rc;
}

static const char *const clog_methods[] = {
	"java.lang.Thread.start:enter",
	"java.lang.Thread.join",
	"java.lang.Thread.sleep",
	"java.lang.Object.notify()V:enter",
	"java.lang.Object.notifyAll()V:enter",
	NULL,
};

static const struct record_needs clog_needs = {
	.families = EVENT_FAMILY_BIT(EVENT_FAMILY_THREADS) | EVENT_FAMILY_BIT(EVENT_FAMILY_MONITORS),
	.opt_mask = WIRE_OPT_STACK | WIRE_OPT_MONITOR,
	.methods = clog_methods,
};

const struct record_format record_format_clog = {
	.name = "clog",
	.extension = ".clog",
	.state_size = sizeof(struct clog),
	.begin = clog_begin,
	.event = clog_event,
	.end = clog_end,
	.lost = clog_lost,
	.read = clog_read,
	.needs = &clog_needs,
};
