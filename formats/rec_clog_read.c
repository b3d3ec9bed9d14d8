/* rec_clog_read.c: the concurrency log's reader (rec_clog.h); the writer
 * is rec_clog.c, the grammar doc/recording.md.
 *
 * The file is untrusted: every field is checked for its kind and bounds,
 * every id must be defined before it is used, and the first fault ends the
 * reading with the byte offset of the field (or line) at fault. What a line
 * keeps comes back as the event the writer had: a seed event as the
 * monitor, thread or method event it was written from (its method the
 * stack's innermost frame when that is the method, as the agent reports a
 * call), with what the line does not keep left out (no arguments, a return
 * value '?', a wait's timeout 0, a monitor's class ""). A file that ends
 * on a whole line without its meta part (cut short) reads up to there.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clog_text.h"
#include "rec_clog.h"
#include "rec_tables.h"
#include "rec_text.h"

struct rmethod {
	char *wire;              /* its name as the wire has it */
	uint32_t wire_len;
	uint32_t class_id;       /* index + 1; 0: none */
};

struct rclass {
	char *source;
	uint32_t source_len;
};

enum part { EVENTS, CLASSES, METHODS, END };

struct reader {
	const char *data;
	struct record_error *err;
	struct rec_strmap classes; /* "Lsig;" as written -> index */
	struct rclass *c;
	size_t capc;
	struct rmethod *m;
	size_t nm, capm;
	struct wire_event *ev;
	char *text;              /* an unescaped field */
	uint32_t pid;
	bool pid_known;
	enum part part;
};

static int fail(struct reader *r, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, const char *at, const char *fmt, ...)
{
	va_list ap;

	r->err->offset = (uint64_t)(at - r->data);
	va_start(ap, fmt);
	vsnprintf(r->err->text, sizeof r->err->text, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The next field, or the fault "WHAT is missing" at the line's end. */
static int field(struct reader *r, struct clog_cursor *c, const char *what, const char **f, size_t *n)
{
	if (!clog_next(c, f, n))
		return fail(r, c->end, "%s is missing", what);
	return 0;
}

static int hex_field(struct reader *r, struct clog_cursor *c, const char *what, uint64_t *v)
{
	const char *f;
	size_t n;
	int rc = field(r, c, what, &f, &n);

	if (rc == 0 && clog_parse_hex(f, n, v) < 0)
		return fail(r, f, "%s '%.*s' is not 1 to 16 upper-case hex digits", what, (int)(n > 40 ? 40 : n), f);
	return rc;
}

static int time_field(struct reader *r, struct clog_cursor *c, uint64_t *ns)
{
	const char *f;
	size_t n;
	int rc = field(r, c, "the timestamp", &f, &n);

	if (rc == 0 && clog_parse_time(f, n, ns) < 0)
		return fail(r, f, "the timestamp '%.*s' is not seconds with nine decimals", (int)(n > 40 ? 40 : n), f);
	return rc;
}

static int text_field(struct reader *r, struct clog_cursor *c, const char *what, size_t *len)
{
	const char *f;
	size_t n;
	int rc = field(r, c, what, &f, &n);
	long got;

	if (rc < 0)
		return rc;
	if ((got = clog_unescape(f, n, r->text)) < 0)
		return fail(r, f, "%s has a '\\' that starts no \\xHH", what);
	*len = (size_t)got;
	return 0;
}

static int no_more(struct reader *r, struct clog_cursor *c)
{
	const char *f;
	size_t n;

	return clog_next(c, &f, &n) ? fail(r, f, "a field too many") : 0;
}

/* ------------------------------------------------------------ definitions */

static int define_class(struct reader *r, struct clog_cursor *c)
{
	const char *sig;
	size_t n, len;
	uint32_t index;
	int rc;

	if ((rc = field(r, c, "the class signature", &sig, &n)) < 0)
		return rc;
	if (n < 3 || sig[0] != 'L' || sig[n - 1] != ';')
		return fail(r, sig, "the class signature is not of the form Lname;");
	if ((rc = rec_strmap_intern(&r->classes, sig, n, &index)) < 0 ||
	    rec_grow((void **)&r->c, &r->capc, r->classes.n, sizeof *r->c) < 0)
		return -ENOMEM;
	if (rc == 0)
		return fail(r, sig, "class '%.*s' is defined twice", (int)(n > 80 ? 80 : n), sig);
	if ((rc = text_field(r, c, "the source file", &len)) < 0 || (rc = no_more(r, c)) < 0)
		return rc;
	struct rclass *k = &r->c[index];
	k->source_len = (uint32_t)len;
	if (!(k->source = malloc(len ? len : 1)))
		return -ENOMEM;
	memcpy(k->source, r->text, len);
	return 0;
}

/* Unescape field F (N bytes, WHAT) onto the end of OUT. */
static int append(struct reader *r, char *out, size_t *at, const char *f, size_t n, const char *what)
{
	long got = clog_unescape(f, n, out + *at);

	if (got < 0)
		return fail(r, f, "%s has a '\\' that starts no \\xHH", what);
	*at += (size_t)got;
	return 0;
}

/* "ID,NAME,SIG,CLASS": the method's wire name is the class dotted (its
 * internal form's '/' as '.', rec_text.h), '.', the name and the descriptor. */
static int define_method(struct reader *r, struct clog_cursor *c)
{
	const char *at = c->p, *name, *sig, *cls;
	size_t name_n, sig_n, cls_n, k = 0;
	uint64_t id;
	uint32_t class_id = 0, index;
	int rc;

	if ((rc = hex_field(r, c, "the method id", &id)) < 0 ||
	    (rc = field(r, c, "the method name", &name, &name_n)) < 0 ||
	    (rc = field(r, c, "the method signature", &sig, &sig_n)) < 0 ||
	    (rc = field(r, c, "the declaring class", &cls, &cls_n)) < 0 || (rc = no_more(r, c)) < 0)
		return rc;
	if (id != r->nm + 1)
		return fail(r, at, "method id %llX: ids are defined in order from 1, and the next is %zX",
			    (unsigned long long)id, r->nm + 1);
	if (cls_n) {
		if (rec_strmap_find(&r->classes, cls, cls_n, &index) < 0)
			return fail(r, cls, "class '%.*s' is not defined (by a #class line before)",
				    (int)(cls_n > 80 ? 80 : cls_n), cls);
		class_id = index + 1;
	}
	if (rec_grow((void **)&r->m, &r->capm, r->nm + 1, sizeof *r->m) < 0)
		return -ENOMEM;
	char *wire = malloc(cls_n + name_n + sig_n + 1);
	if (!wire)
		return -ENOMEM;
	r->m[r->nm++] = (struct rmethod){ .wire = wire, .class_id = class_id };
	/* a defined class is "L...;": its inside, dotted */
	if (cls_n) {
		size_t inside = 0;
		if ((rc = append(r, r->text, &inside, cls + 1, cls_n - 2, "the declaring class")) < 0)
			return rc;
		rec_class_internal_to_key(r->text, inside, wire);
		k = inside;
		wire[k++] = '.';
	}
	if ((rc = append(r, wire, &k, name, name_n, "the method name")) < 0 ||
	    (rc = append(r, wire, &k, sig, sig_n, "the method signature")) < 0)
		return rc;
	r->m[r->nm - 1].wire_len = (uint32_t)k;
	return 0;
}

/* The meta part at a clean end: each class and method again (defined
 * before, the same), the methods with their line tables. */
static int meta_class(struct reader *r, struct clog_cursor *c)
{
	const char *sig, *src;
	size_t n, src_n;
	uint32_t index;
	int rc;

	if ((rc = field(r, c, "the class signature", &sig, &n)) < 0 ||
	    (rc = field(r, c, "the source file", &src, &src_n)) < 0 || (rc = no_more(r, c)) < 0)
		return rc;
	if (rec_strmap_find(&r->classes, sig, n, &index) < 0)
		return fail(r, sig, "class '%.*s' of the meta part was never defined", (int)(n > 80 ? 80 : n), sig);
	return 0;
}

static int meta_method(struct reader *r, struct clog_cursor *c)
{
	const char *f, *at = c->p;
	size_t n;
	uint64_t id, v;
	int64_t count;
	int rc;

	if ((rc = hex_field(r, c, "the method id", &id)) < 0)
		return rc;
	if (id == 0 || id > r->nm)
		return fail(r, at, "method %llX of the meta part was never defined", (unsigned long long)id);
	for (int i = 0; i < 3; i++) /* name, signature, class: as defined */
		if ((rc = field(r, c, "the method's name, signature and class", &f, &n)) < 0)
			return rc;
	if ((rc = field(r, c, "the line table's count", &f, &n)) < 0)
		return rc;
	if (clog_parse_count(f, n, &count) < 0)
		return fail(r, f, "the line table's count '%.*s' is not -1 or a number", (int)(n > 40 ? 40 : n), f);
	for (int64_t i = 0; i < count; i++) {
		if ((rc = hex_field(r, c, "a line table's location", &v)) < 0 ||
		    (rc = field(r, c, "a line table's line", &f, &n)) < 0)
			return rc;
		if (clog_parse_dec(f, n, &v) < 0 || v > INT32_MAX)
			return fail(r, f, "the line number '%.*s' is not a number", (int)(n > 40 ? 40 : n), f);
	}
	return no_more(r, c);
}

/* ------------------------------------------------------------ events */

static int stack_field(struct reader *r, struct clog_cursor *c, struct wire_trailer *t)
{
	const char *f;
	size_t n;
	uint64_t depth, id, loc;
	int rc;

	if ((rc = field(r, c, "the stack depth", &f, &n)) < 0)
		return rc;
	if (clog_parse_dec(f, n, &depth) < 0 || depth > WIRE_MAX_STACK_DEPTH)
		return fail(r, f, "the stack depth '%.*s' is not a number from 0 to %u", (int)(n > 40 ? 40 : n), f,
			    WIRE_MAX_STACK_DEPTH);
	t->flags |= WIRE_TF_STACK;
	t->depth = (uint16_t)depth;
	for (unsigned i = 0; i < depth; i++) {
		const char *at = c->p;
		if ((rc = hex_field(r, c, "a frame's method", &id)) < 0 ||
		    (rc = hex_field(r, c, "a frame's location", &loc)) < 0)
			return rc;
		if (id == 0 || id > r->nm)
			return fail(r, at, "method %llX is not defined (by a #method line before)", (unsigned long long)id);
		if (loc > UINT32_MAX)
			return fail(r, c->p, "a frame's location is more than 8 hex digits");
		const struct rmethod *m = &r->m[id - 1];
		const struct rclass *k = m->class_id ? &r->c[m->class_id - 1] : NULL;
		t->frames[i] = (struct wire_frame){
			.method = { m->wire, m->wire_len }, .line = (int32_t)(uint32_t)loc,
			.source = { k ? k->source : "", k ? k->source_len : 0 },
		};
	}
	return 0;
}

/* EV as the decoder leaves an event with a trailer but no stack: only the
 * fields a line can set (the arrays are left as they are). */
static void reset_event(struct wire_event *ev, unsigned code)
{
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->code = code;
	ev->retval = (struct wire_value){ .type = WIRE_T_NONE };
	ev->has_trailer = true;
	ev->trailer.seq = 0;
	ev->trailer.flags = 0;
	ev->trailer.depth = 0;
	ev->trailer.monitor_class = ev->trailer.owner_name = (struct wire_str){ "", 0 };
	ev->trailer.owner_tid = 0;
}

struct kind {
	const char *name;
	unsigned code;
	const char *method;      /* a method event: the method's name when no frame says */
	bool object, owner, stack;
};

static const struct kind kinds[] = {
	{ "ThreadStarted", WIRE_EV_THREAD_START, NULL, false, false, false },
	{ "ThreadEnded", WIRE_EV_THREAD_END, NULL, false, false, false },
	{ "MonitorContendedEnter", WIRE_EV_MONITOR_ENTER, NULL, true, true, true },
	{ "MonitorContendedEntered", WIRE_EV_MONITOR_ENTERED, NULL, true, false, true },
	{ "ObjectWait", WIRE_EV_MONITOR_WAIT, NULL, true, false, true },
	{ "ObjectWaited", WIRE_EV_MONITOR_WAITED, NULL, true, false, true },
	{ "ObjectNotify", WIRE_EV_METHOD_ENTER, "java.lang.Object.notify()V", true, false, true },
	{ "ObjectNotifyAll", WIRE_EV_METHOD_ENTER, "java.lang.Object.notifyAll()V", true, false, true },
	{ "ThreadStart", WIRE_EV_METHOD_ENTER, "java.lang.Thread.start()V", true, false, true },
	{ "ThreadJoin", WIRE_EV_METHOD_ENTER, "java.lang.Thread.join()V", true, false, true },
	{ "ThreadJoined", WIRE_EV_METHOD_EXIT, "java.lang.Thread.join()V", true, false, true },
	{ "ThreadSleep", WIRE_EV_METHOD_ENTER, "java.lang.Thread.sleep(J)V", false, false, true },
	{ "ThreadSlept", WIRE_EV_METHOD_EXIT, "java.lang.Thread.sleep(J)V", false, false, true },
};

/* The method of a method event: the innermost frame when it is one of the
 * same name (the agent's stacks start at the method called). */
static struct wire_str method_of(const struct kind *k, const struct wire_trailer *t)
{
	size_t upto = (size_t)(strchr(k->method, '(') - k->method) + 1;

	if (t->depth && t->frames[0].method.len >= upto && memcmp(t->frames[0].method.ptr, k->method, upto) == 0)
		return t->frames[0].method;
	return (struct wire_str){ k->method, (uint32_t)strlen(k->method) };
}

static int event(struct reader *r, const char *line, struct clog_cursor *c, record_event_fn fn, void *ctx)
{
	struct wire_event *ev = r->ev;
	struct print_meta meta = { .pid = r->pid };
	const struct kind *k = NULL;
	const char *f;
	size_t n, name_len = 0;
	uint64_t tid, object = 0, owner = 0;
	int rc;

	if (!r->pid_known)
		return fail(r, line, "an event before the first #pid line");
	if ((rc = time_field(r, c, &meta.ts_ns)) < 0 || (rc = field(r, c, "the event", &f, &n)) < 0)
		return rc;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !k; i++)
		if (strlen(kinds[i].name) == n && memcmp(kinds[i].name, f, n) == 0)
			k = &kinds[i];
	if (!k)
		return fail(r, f, "unknown event '%.*s'", (int)(n > 40 ? 40 : n), f);
	if ((rc = hex_field(r, c, "the thread", &tid)) < 0 ||
	    (k->object && (rc = hex_field(r, c, "the object", &object)) < 0) ||
	    (k->owner && (rc = hex_field(r, c, "the owner thread", &owner)) < 0) ||
	    (k->code == WIRE_EV_THREAD_START && (rc = text_field(r, c, "the thread name", &name_len)) < 0))
		return rc;
	reset_event(ev, k->code);
	ev->thread = tid;
	ev->object = object;
	ev->trailer.timestamp_ns = meta.ts_ns;
	ev->trailer.os_tid = (uint32_t)tid;
	if (k->stack && (rc = stack_field(r, c, &ev->trailer)) < 0)
		return rc;
	if ((rc = no_more(r, c)) < 0)
		return rc;
	if (k->owner) {
		/* the owner comes back; the monitor's class is not kept */
		ev->trailer.flags |= WIRE_TF_MONITOR;
		ev->trailer.owner_tid = (uint32_t)owner;
	}
	if (k->method)
		ev->name = method_of(k, &ev->trailer);
	meta.tid = tid;
	meta.owner_tid = owner;
	if (k->code == WIRE_EV_THREAD_START) {
		meta.thread_name = r->text;
		meta.thread_name_len = name_len;
	}
	return fn(ctx, &meta, ev);
}

/* "#lost" (the agent's running total, of this JVM) and "#dropped" (the
 * bridge's, of every JVM: pid 0) are lost events. */
static int lost(struct reader *r, struct clog_cursor *c, bool dropped, record_event_fn fn, void *ctx)
{
	struct print_meta meta = { .pid = dropped ? 0 : r->pid };
	const char *f;
	size_t n;
	int rc;

	if (!dropped && !r->pid_known)
		return fail(r, c->p, "a #lost line before the first #pid line");
	if ((rc = time_field(r, c, &meta.ts_ns)) < 0 || (rc = field(r, c, "the count", &f, &n)) < 0)
		return rc;
	reset_event(r->ev, WIRE_EV_LOST);
	r->ev->trailer.timestamp_ns = meta.ts_ns;
	if (clog_parse_dec(f, n, &r->ev->lost) < 0)
		return fail(r, f, "the count '%.*s' is not a number", (int)(n > 40 ? 40 : n), f);
	if ((rc = no_more(r, c)) < 0)
		return rc;
	return fn(ctx, &meta, r->ev);
}

/* ------------------------------------------------------------ lines */

static bool word(const char *f, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(f, w, n) == 0;
}

static int directive(struct reader *r, const char *line, struct clog_cursor *c, record_event_fn fn, void *ctx)
{
	static const enum part after[] = { [EVENTS] = CLASSES, [CLASSES] = METHODS, [METHODS] = END };
	static const char *const parts[] = { [EVENTS] = "#classes", [CLASSES] = "#methods", [METHODS] = "#end" };
	const char *f;
	size_t n;
	uint64_t v;
	int rc;

	clog_next(c, &f, &n);
	if (r->part != END && word(f, n, parts[r->part])) {
		r->part = after[r->part];
		return no_more(r, c);
	}
	if (r->part != EVENTS)
		return fail(r, line, "'%.*s' after the meta part began", (int)(n > 40 ? 40 : n), f);
	if (word(f, n, "#pid")) {
		if ((rc = field(r, c, "the pid", &f, &n)) < 0)
			return rc;
		if (clog_parse_dec(f, n, &v) < 0 || v > UINT32_MAX)
			return fail(r, f, "the pid '%.*s' is not a number", (int)(n > 40 ? 40 : n), f);
		r->pid = (uint32_t)v;
		r->pid_known = true;
		return no_more(r, c);
	}
	if (word(f, n, "#clock")) {
		if ((rc = time_field(r, c, &v)) < 0 || (rc = time_field(r, c, &v)) < 0)
			return rc;
		return no_more(r, c);
	}
	if (word(f, n, "#class"))
		return define_class(r, c);
	if (word(f, n, "#method"))
		return define_method(r, c);
	if (word(f, n, "#lost") || word(f, n, "#dropped"))
		return lost(r, c, word(f, n, "#dropped"), fn, ctx);
	return fail(r, line, "unknown line '%.*s'", (int)(n > 40 ? 40 : n), f);
}

static int one_line(struct reader *r, const char *line, const char *end, record_event_fn fn, void *ctx)
{
	struct clog_cursor c = { line, end, false };

	if (line == end)
		return fail(r, line, "an empty line");
	if (line[0] == '#')
		return directive(r, line, &c, fn, ctx);
	if (r->part == END)
		return fail(r, line, "a line after #end");
	if (r->part == CLASSES)
		return meta_class(r, &c);
	if (r->part == METHODS)
		return meta_method(r, &c);
	return event(r, line, &c, fn, ctx);
}

int clog_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err)
{
	static const char magic[] = "#clog,1\n";
	struct reader r = { .data = (const char *)data, .err = err };
	size_t text_cap = 0;
	int rc = 0;

	if (len < sizeof magic - 1 || memcmp(data, magic, sizeof magic - 1) != 0)
		return fail(&r, r.data, "not a concurrency log: it does not begin with the line \"#clog,1\"");
	if (!(r.ev = malloc(sizeof *r.ev)))
		return -ENOMEM;
	for (size_t pos = sizeof magic - 1; rc == 0 && pos < len;) {
		const char *line = r.data + pos, *nl = memchr(line, '\n', len - pos);

		if (!nl) {
			rc = fail(&r, line, "the last line has no end (a recording cut short)");
			break;
		}
		size_t n = (size_t)(nl - line);
		if (n + 1 > text_cap) {
			char *grown = realloc(r.text, n + 1);
			if (!grown) {
				rc = -ENOMEM;
				break;
			}
			r.text = grown;
			text_cap = n + 1;
		}
		rc = one_line(&r, line, nl, fn, ctx);
		pos += n + 1;
	}
	for (size_t i = 0; i < r.nm; i++)
		free(r.m[i].wire);
	for (size_t i = 0; i < r.capc; i++) /* rec_grow zeroes what it adds */
		free(r.c[i].source);
	free(r.m);
	free(r.c);
	free(r.text);
	free(r.ev);
	rec_strmap_free(&r.classes);
	return rc;
}
