/* rec_trc_read.c: the JinsightLive reader (rec_trc.h, record.h's `read`).
 *
 * It checks what the seed requires of a file, in either byte order: the
 * header, every record whole, ids linear and defined before use, each
 * CLASS_DEFINE followed by its _CLASS_LOAD, each METHOD_LEAVE leaving a
 * method its thread entered, the header's event count (when not 0) equal
 * to the records there are. It hands back the events the format keeps:
 * method enter (no arguments) and return (the method from the thread's
 * stack; no return value, popped 0), thread start and end with the name of
 * THREAD_DEFINE, gc start and finish, a class's first description with
 * ticks other than 0 as its load, and our notes (USER_EVENT "stapjava
 * ..."): the pid of the events after it, a thread's OS tid, a loss. Object,
 * array and burst records are checked whole and passed over. Memory grows
 * with what the file defines, never more than a small multiple of its size.
 */
#include "rec_trc.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rec_bytes.h"
#include "rec_tables.h"
#include "rec_text.h"

/* The scratch: a name built at its start (a method's wire name: three
 * u16-long strings and a '.'), a class key at SCRATCH_KEY. */
#define SCRATCH_KEY (3u * 0x10000u)

struct rclass {
	struct wire_str name;     /* internal form, into the file */
	struct wire_str *methods; /* name, signature, name, signature ... */
	uint32_t nmethods;
	bool described;           /* a _CLASS_LOAD came */
};

struct rthread {
	struct wire_str name;
	uint64_t tid;             /* our note's; 0: none */
	struct rec_calls calls;   /* class << 16 | method */
};

struct reader {
	struct rec_cursor c;
	record_event_fn fn;
	void *ctx;
	uint32_t ticks_per_us;
	uint32_t pid;             /* of our last "pid" note */
	struct rclass *classes;
	size_t nclasses, classes_cap;
	struct rthread *threads;  /* thread id - 1 */
	size_t nthreads, threads_cap;
	long pending;             /* a CLASS_DEFINE's class awaiting its _CLASS_LOAD; -1: none */
	uint64_t pending_ticks;
	size_t pending_at;
	uint64_t records;
	struct wire_event *ev;
	char *name;               /* scratch: a method's wire name, a class signature */
};

static uint64_t ticks_to_ns(const struct reader *r, uint64_t ticks)
{
	unsigned __int128 ns;

	if (r->ticks_per_us == TRC_TICKS_PER_US)
		return ticks;
	ns = (unsigned __int128)ticks * 1000u / r->ticks_per_us;
	/* time 0 is "not known" (a thread's or class's start the writer did not
	 * see): a time that was known stays so, at 1 ns at the least */
	return ns > UINT64_MAX ? UINT64_MAX : ns == 0 && ticks ? 1 : (uint64_t)ns;
}

/* A length-prefixed string. */
static struct wire_str get_string(struct rec_cursor *c, const char *field)
{
	uint16_t n = rec_get_u16(c, field);
	const uint8_t *p = rec_take(c, n, field);

	return p ? (struct wire_str){ (const char *)p, n } : (struct wire_str){ "", 0 };
}

static struct wire_event *event(struct reader *r, unsigned code)
{
	return rec_event_reset(r->ev, code);
}

/* EV of thread T (NULL: none) at TICKS, in the JVM of our last pid note. */
static int hand_back(struct reader *r, uint64_t ticks, const struct rthread *t, const struct wire_event *ev)
{
	return rec_hand_back(r->fn, r->ctx, r->pid, t ? t->tid : 0, ticks_to_ns(r, ticks),
			     t ? t->name : (struct wire_str){ "", 0 }, ev);
}

static struct rthread *thread_get(struct reader *r, uint32_t id, size_t at)
{
	if (id == 0 || id > r->nthreads) {
		rec_cursor_fail(&r->c, at, "thread %u is not defined", id);
		return NULL;
	}
	return &r->threads[id - 1];
}

static struct rclass *class_get(struct reader *r, uint16_t id, size_t at)
{
	if (id >= r->nclasses || !r->classes[id].described) {
		rec_cursor_fail(&r->c, at, "class %u is not defined", id);
		return NULL;
	}
	return &r->classes[id];
}

static int read_class_define(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at = c->pos;
	uint16_t id = rec_get_u16(c, "classID");

	rec_get_u32(c, "classObjectID");
	if (rec_cursor_failed(c))
		return -EINVAL;
	if (id == TRC_NO_CLASS || id > r->nclasses)
		return rec_cursor_fail(c, at, "class id %u is not the next one (%zu)", id, r->nclasses);
	if (id == r->nclasses) {
		if (rec_grow((void **)&r->classes, &r->classes_cap, r->nclasses + 1, sizeof *r->classes) < 0)
			return -ENOMEM;
		r->classes[r->nclasses++] = (struct rclass){ { "", 0 }, NULL, 0, false };
	}
	r->pending = id;
	r->pending_ticks = ticks;
	r->pending_at = c->record_at;
	return 0;
}

/* A list of class ids (the super class, the interfaces): each defined. */
static int check_class_ref(struct reader *r, uint16_t id, size_t at, bool none_ok)
{
	if ((none_ok && id == TRC_NO_CLASS) || id < r->nclasses)
		return 0;
	return rec_cursor_fail(&r->c, at, "class %u is not defined", id);
}

static int read_class_load(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at_id = c->pos, at;
	uint16_t id = rec_get_u16(c, "classID"), n;
	struct wire_str name, *methods = NULL;
	struct rclass *k;
	bool first;

	rec_get_u16(c, "size");
	name = get_string(c, "className");
	at = c->pos;
	n = rec_get_u16(c, "numberOfMethods");
	if (rec_cursor_failed(c))
		return -EINVAL;
	if (r->pending != (long)id)
		return rec_cursor_fail(c, at_id, "no CLASS_DEFINE of class %u right before it", id);
	/* each method takes 6 bytes at least: what is allocated is what the file holds */
	if ((size_t)n * 6 > c->end - c->pos)
		return rec_cursor_fail(c, at, "%u methods cannot fit in the %zu bytes left", n, c->end - c->pos);
	if (n && !(methods = malloc(2 * (size_t)n * sizeof *methods)))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		methods[2 * i] = get_string(c, "methodName");
		methods[2 * i + 1] = get_string(c, "methodSignature");
		rec_get_u16(c, "accessFlags");
	}
	for (uint16_t i = 0, nf = rec_get_u16(c, "numberOfFields"); i < nf && !rec_cursor_failed(c); i++) {
		get_string(c, "fieldName");
		get_string(c, "fieldSignature");
		rec_get_u16(c, "accessFlags");
	}
	at = c->pos;
	check_class_ref(r, rec_get_u16(c, "superClassID"), at, true);
	for (uint16_t i = 0, ni = rec_get_u16(c, "numberOfInterfaces"); i < ni && !rec_cursor_failed(c); i++) {
		at = c->pos;
		check_class_ref(r, rec_get_u16(c, "interfaceID"), at, false);
	}
	if (rec_cursor_failed(c)) {
		free(methods);
		return -EINVAL;
	}
	(void)ticks; /* the CLASS_DEFINE's ticks are the load's: the two are one event */
	k = &r->classes[id];
	first = !k->described;
	free(k->methods);
	*k = (struct rclass){ name, methods, n, true };
	r->pending = -1;
	if (first && r->pending_ticks != 0 && id != TRC_CLASS_OBJECT && id != TRC_CLASS_THREAD) {
		struct wire_event *ev = event(r, WIRE_EV_CLASS_LOAD);
		char *key = r->name + SCRATCH_KEY;

		rec_class_internal_to_key(name.ptr, name.len, key);
		ev->name = (struct wire_str){ r->name, (uint32_t)rec_class_signature_from_key(key, name.len, r->name) };
		return hand_back(r, r->pending_ticks, NULL, ev);
	}
	return 0;
}

/* The wire name of method M of class K into the scratch. */
static struct wire_str method_name(struct reader *r, const struct rclass *k, uint16_t m)
{
	struct rec_method_name parts = { { r->name + SCRATCH_KEY, k->name.len }, k->methods[2 * m],
					 k->methods[2 * m + 1] };

	rec_class_internal_to_key(k->name.ptr, k->name.len, r->name + SCRATCH_KEY);
	return (struct wire_str){ r->name, (uint32_t)rec_method_join(r->name, &parts) };
}

static int read_method_enter(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at_thread = c->pos, at_class = at_thread + 4, at_method = at_class + 2;
	uint32_t thread = rec_get_u32(c, "threadID");
	uint16_t cls = rec_get_u16(c, "classID"), m = rec_get_u16(c, "methodID");
	struct rthread *t;
	struct rclass *k;
	struct wire_event *ev;

	rec_get_u32(c, "objectID");
	rec_get_u16(c, "lineNumber");
	if (rec_cursor_failed(c) || !(t = thread_get(r, thread, at_thread)) || !(k = class_get(r, cls, at_class)))
		return -EINVAL;
	if (m >= k->nmethods)
		return rec_cursor_fail(c, at_method, "class %u has no method %u", cls, m);
	if (rec_calls_push(&t->calls, (uint32_t)cls << 16 | m, 0) < 0)
		return -ENOMEM;
	ev = event(r, WIRE_EV_METHOD_ENTER);
	ev->name = method_name(r, k, m);
	return hand_back(r, ticks, t, ev);
}

static int read_method_leave(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at;
	uint32_t thread, frame;
	struct rthread *t;
	struct rclass *k;
	struct wire_event *ev;

	rec_get_u64(c, "overhead");
	at = c->pos;
	thread = rec_get_u32(c, "threadID");
	if (rec_cursor_failed(c) || !(t = thread_get(r, thread, at)))
		return -EINVAL;
	if (t->calls.depth == 0)
		return rec_cursor_fail(c, at, "thread %u has entered no method", thread);
	frame = t->calls.frames[--t->calls.depth].method;
	k = &r->classes[frame >> 16];
	if ((frame & 0xFFFF) >= k->nmethods) /* described again since, with fewer methods */
		return rec_cursor_fail(c, at, "class %u has no method %u any more", frame >> 16, frame & 0xFFFF);
	ev = event(r, WIRE_EV_METHOD_EXIT);
	ev->name = method_name(r, k, (uint16_t)(frame & 0xFFFF));
	return hand_back(r, ticks, t, ev);
}

static int read_thread_define(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	size_t at_thread, at_class;
	uint32_t id;
	uint16_t cls;
	struct wire_str name;

	rec_get_u64(c, "ticks");
	at_thread = c->pos;
	id = rec_get_u32(c, "threadID");
	rec_get_u32(c, "objectID");
	at_class = c->pos;
	cls = rec_get_u16(c, "classID");
	name = get_string(c, "threadName");
	if (rec_cursor_failed(c) || !class_get(r, cls, at_class))
		return -EINVAL;
	if (id != r->nthreads + 1)
		return rec_cursor_fail(c, at_thread, "thread id %u is not the next one (%zu)", id, r->nthreads + 1);
	if (rec_grow((void **)&r->threads, &r->threads_cap, r->nthreads + 1, sizeof *r->threads) < 0)
		return -ENOMEM;
	r->threads[r->nthreads++] = (struct rthread){ name, 0, { NULL, 0, 0 } };
	return 0;
}

static int read_thread_event(struct reader *r, unsigned code)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at = c->pos;
	uint32_t id = rec_get_u32(c, "threadID");
	struct rthread *t;

	if (rec_cursor_failed(c) || !(t = thread_get(r, id, at)))
		return -EINVAL;
	return hand_back(r, ticks, t, event(r, code));
}

static int read_gc(struct reader *r, unsigned code)
{
	uint64_t ticks = rec_get_u64(&r->c, "ticks");

	if (rec_cursor_failed(&r->c))
		return -EINVAL;
	return hand_back(r, ticks, NULL, event(r, code));
}

static int read_user_event(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	uint64_t ticks = rec_get_u64(c, "ticks");
	size_t at = c->pos + 2;
	struct wire_str text = get_string(c, "message");
	struct rec_note note;
	int rc;

	if (rec_cursor_failed(c))
		return -EINVAL;
	rc = rec_note_parse(text.ptr, text.len, &note);
	if (rc < 0)
		return rec_cursor_fail(c, at, "a \"" REC_NOTE_PREFIX "\" message that is no note of ours");
	if (rc == 0)
		return 0; /* someone else's text */
	if (rec_note_is(&note, "pid")) {
		if (note.kv[0].value > UINT32_MAX)
			return rec_cursor_fail(c, at, "pid %llu does not fit 32 bits", (unsigned long long)note.kv[0].value);
		r->pid = (uint32_t)note.kv[0].value;
	} else if (rec_note_is(&note, "thread tid")) {
		if (note.kv[0].value == 0 || note.kv[0].value > r->nthreads)
			return rec_cursor_fail(c, at, "a note of thread %llu, which is not defined",
					       (unsigned long long)note.kv[0].value);
		r->threads[note.kv[0].value - 1].tid = note.kv[1].value;
	} else if (rec_note_is(&note, "lost pid tid")) {
		struct wire_event *ev = event(r, WIRE_EV_LOST);
		struct rthread t = { .tid = note.kv[2].value };
		uint32_t pid = r->pid;

		if (note.kv[1].value > UINT32_MAX)
			return rec_cursor_fail(c, at, "pid %llu does not fit 32 bits", (unsigned long long)note.kv[1].value);
		ev->lost = note.kv[0].value;
		r->pid = (uint32_t)note.kv[1].value;
		rc = hand_back(r, ticks, &t, ev);
		r->pid = pid;
		return rc;
	}
	return 0; /* a note of a later version: nothing we know */
}

/* Records with nothing for us, checked whole: their bodies' sizes. */
static size_t fixed_body(uint8_t id)
{
	switch (id) {
	case TRC_OBJECT_DEFINED: return 8 + 4 + 2;
	case TRC_OBJECT_CREATED: return 8 + 4 + 2 + 4;
	case TRC_ARRAY_DEFINED: return 8 + 1 + 4 + 4;
	case TRC_ARRAY_CLASS_DEFINED: return 8 + 4 + 2 + 4;
	case TRC_ARRAY_CREATED: return 8 + 1 + 4 + 4 + 4;
	case TRC_OBJECT_RECLAIMED: return 8 + 4;
	case TRC_BEGIN_BURST: case TRC_END_BURST: return 8;
	default: return 0;
	}
}

static const char *record_name(uint8_t id)
{
	switch (id) {
	case TRC_CLASS_DEFINE: return "CLASS_DEFINE";
	case TRC_CLASS_LOAD: return "EXTENDED_EXTENSIVE_CLASS_LOAD";
	case TRC_WIDE_METHOD_ENTER: return "WIDE_METHOD_ENTER";
	case TRC_METHOD_LEAVE: return "METHOD_LEAVE";
	case TRC_OBJECT_DEFINED: return "OBJECT_DEFINED";
	case TRC_OBJECT_CREATED: return "OBJECT_CREATED";
	case TRC_OBJECT_RECLAIMED: return "OBJECT_RECLAIMED";
	case TRC_ARRAY_DEFINED: return "ARRAY_DEFINED";
	case TRC_ARRAY_CLASS_DEFINED: return "ARRAY_CLASS_DEFINED";
	case TRC_ARRAY_CREATED: return "ARRAY_CREATED";
	case TRC_THREAD_DEFINE: return "THREAD_DEFINE";
	case TRC_THREAD_START: return "THREAD_START";
	case TRC_THREAD_EXIT: return "THREAD_EXIT";
	case TRC_GC_START: return "GC_START";
	case TRC_GC_STOP: return "GC_STOP";
	case TRC_USER_EVENT: return "USER_EVENT";
	case TRC_BEGIN_BURST: return "BEGIN_BURST";
	case TRC_END_BURST: return "END_BURST";
	default: return NULL;
	}
}

static int read_record(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	size_t start = c->pos;
	uint8_t id;
	const char *name;

	rec_cursor_record(c, "record", c->len);
	id = rec_get_u8(c, "record id");
	if (!(name = record_name(id)))
		return rec_cursor_fail(c, start, "unknown record id 0x%02x", id);
	c->record = name;
	if (r->pending >= 0 && id != TRC_CLASS_LOAD)
		return rec_cursor_fail(c, start, "class %ld's CLASS_DEFINE is not followed by its "
				       "EXTENDED_EXTENSIVE_CLASS_LOAD", r->pending);
	switch (id) {
	case TRC_CLASS_DEFINE: return read_class_define(r);
	case TRC_CLASS_LOAD: return read_class_load(r);
	case TRC_WIDE_METHOD_ENTER: return read_method_enter(r);
	case TRC_METHOD_LEAVE: return read_method_leave(r);
	case TRC_THREAD_DEFINE: return read_thread_define(r);
	case TRC_THREAD_START: return read_thread_event(r, WIRE_EV_THREAD_START);
	case TRC_THREAD_EXIT: return read_thread_event(r, WIRE_EV_THREAD_END);
	case TRC_GC_START: return read_gc(r, WIRE_EV_GC_START);
	case TRC_GC_STOP: return read_gc(r, WIRE_EV_GC_FINISH);
	case TRC_USER_EVENT: return read_user_event(r);
	default:
		rec_take(c, fixed_body(id), "its body");
		return rec_cursor_failed(c) ? -EINVAL : 0;
	}
}

static int read_header(struct reader *r, uint32_t *events)
{
	struct rec_cursor *c = &r->c;
	uint32_t v, platform;

	rec_cursor_record(c, "header", c->len);
	if (rec_get_u8(c, "binary") != TRC_BINARY && !rec_cursor_failed(c))
		return rec_cursor_fail(c, 0, "the first byte is not 'b' (a binary trace)");
	if ((v = rec_get_u32(c, "version")) != TRC_VERSION && !rec_cursor_failed(c))
		return rec_cursor_fail(c, TRC_AT_VERSION, "version %u, not %u", v, TRC_VERSION);
	platform = rec_get_u32(c, "platform");
	*events = rec_get_u32(c, "numberOfEvents");
	rec_get_u32(c, "maxThreads");
	rec_get_u32(c, "maxClasses");
	r->ticks_per_us = rec_get_u32(c, "ticksPerMicrosecond");
	rec_get_u64(c, "startTicks");
	rec_get_u32(c, "vmStartTime");
	rec_get_u32(c, "connectionStartTime");
	rec_get_u32(c, "overhead");
	if (rec_cursor_failed(c))
		return -EINVAL;
	switch (platform) {
	case TRC_WIN32_X86: case TRC_LINUX_X86: c->big = false; break;
	case TRC_AIX_PPC: case TRC_OS390: case TRC_LINUX_390: c->big = true; break;
	default: return rec_cursor_fail(c, TRC_AT_PLATFORM, "unknown platform %u", platform);
	}
	if (r->ticks_per_us == 0)
		return rec_cursor_fail(c, TRC_AT_TICKS_PER_US, "ticksPerMicrosecond is 0");
	return 0;
}

int trc_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err)
{
	struct reader r = { .c = { .data = data, .len = len, .end = len, .err = err }, .fn = fn, .ctx = ctx,
			    .pending = -1 };
	uint32_t events = 0;
	int rc;

	memset(err, 0, sizeof *err);
	r.ev = malloc(sizeof *r.ev);
	r.name = malloc(SCRATCH_KEY + 0x10000);
	if (!r.ev || !r.name)
		rc = -ENOMEM;
	else
		rc = read_header(&r, &events);
	while (rc == 0 && r.c.pos < len) {
		rc = read_record(&r);
		r.records++;
	}
	if (rc == 0 && r.pending >= 0) {
		rec_cursor_record(&r.c, "CLASS_DEFINE", len);
		r.c.record_at = r.pending_at;
		rc = rec_cursor_fail(&r.c, len, "the file ends before its EXTENDED_EXTENSIVE_CLASS_LOAD");
	}
	if (rc == 0 && events != 0 && events != r.records) {
		rec_cursor_record(&r.c, "header", len);
		r.c.record_at = 0;
		rc = rec_cursor_fail(&r.c, TRC_AT_EVENTS, "numberOfEvents is %u but the file holds %llu records",
				     events, (unsigned long long)r.records);
	}
	for (size_t i = 0; i < r.nclasses; i++)
		free(r.classes[i].methods);
	for (size_t i = 0; i < r.nthreads; i++)
		rec_calls_free(&r.threads[i].calls);
	free(r.classes);
	free(r.threads);
	free(r.ev);
	free(r.name);
	return rc;
}
