/* rec_trcbin_read.c: the TPTP binary reader (rec_trcbin.h, record.h's `read`).
 *
 * It checks the header, that every message lies whole in the file with
 * its size at least its own header, that the attributes of each message it
 * knows fill it exactly, strings end in a NUL inside it, and ids are
 * defined before use (an agent's process, a trace's agent, a thread's
 * trace, a method's class, an event's thread and method; thread id 0 is
 * "none" where the seed does not use the thread). Messages it does not
 * know are passed over whole. It hands back the events the format keeps:
 * thread start (a threadStart with a time) and end with the thread's name,
 * a class's load (a classDef with a time), method entry (no arguments) and
 * exit (no return value, popped 0), gc start and finish, runtime init and
 * shutdown, the monitor events with their stacks (monitor waited without:
 * the format does not say whether the wait timed out), and our notes
 * (custom "stapjava lost=..."); each event's pid and tid are its thread's.
 * Memory grows with what the file defines, never more than a small
 * multiple of its size.
 */
#include "rec_trcbin.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rec_bytes.h"
#include "rec_tables.h"
#include "rec_text.h"

struct rthread {
	uint32_t pid;
	uint64_t tid;
	struct wire_str name;
};

struct rclass {
	struct wire_str key;
};

struct rmethod {
	uint32_t cls;             /* index into classes */
	struct wire_str name, sig;
};

/* Things the file names by a string (processes, agents, traces): their pid. */
struct named_pids {
	struct rec_strmap ids;
	uint32_t *pid;
	size_t cap;
};

/* Things the file numbers (threads, classes, methods): the file's id ->
 * index into a vector of them. */
struct numbered {
	struct rec_pairmap ids;
	void *v;
	size_t n, cap, size;
};

struct reader {
	struct rec_cursor c;
	record_event_fn fn;
	void *ctx;
	uint64_t ticks_per_s;
	struct named_pids processes, agents, traces;
	struct numbered threads, classes, methods;
	struct wire_event *ev;
	char *name;               /* scratch: a method's wire name, a class signature */
};

/* The scratch: a name built at its start (a method's wire name: three
 * strings of WIRE_MAX_STRING bytes at most and a '.'). */
#define SCRATCH_SIZE (3u * 0x10000u)

static int named_put(struct named_pids *m, struct wire_str id, uint32_t pid)
{
	uint32_t i;

	if (rec_grow((void **)&m->pid, &m->cap, (size_t)m->ids.n + 1, sizeof *m->pid) < 0 ||
	    rec_strmap_intern(&m->ids, id.ptr, id.len, &i) < 0)
		return -ENOMEM;
	m->pid[i] = pid;
	return 0;
}

static int named_get(const struct named_pids *m, struct wire_str id, uint32_t *pid)
{
	uint32_t i;

	if (rec_strmap_find(&m->ids, id.ptr, id.len, &i) < 0)
		return -ENOENT;
	*pid = m->pid[i];
	return 0;
}

static void named_free(struct named_pids *m)
{
	rec_strmap_free(&m->ids);
	free(m->pid);
}

/* The element with the file's ID, added (zeroed) when new. */
static void *numbered_put(struct numbered *m, uint64_t id)
{
	uint32_t i;

	if (rec_pairmap_get(&m->ids, id, 0, &i) == 0)
		return (char *)m->v + i * m->size;
	if (m->n >= UINT32_MAX || rec_grow(&m->v, &m->cap, m->n + 1, m->size) < 0 ||
	    rec_pairmap_put(&m->ids, id, 0, (uint32_t)m->n) < 0)
		return NULL;
	return (char *)m->v + m->n++ * m->size;
}

static void *numbered_get(const struct numbered *m, uint64_t id)
{
	uint32_t i;

	return rec_pairmap_get(&m->ids, id, 0, &i) == 0 ? (char *)m->v + i * m->size : NULL;
}

static void numbered_free(struct numbered *m)
{
	rec_pairmap_free(&m->ids);
	free(m->v);
}

static uint64_t ticks_to_ns(const struct reader *r, uint64_t ticks)
{
	unsigned __int128 ns;

	if (r->ticks_per_s == TB_TICKS_PER_S)
		return ticks;
	ns = (unsigned __int128)ticks * TB_TICKS_PER_S / r->ticks_per_s;
	/* time 0 is "not known" (a thread's or class's start the writer did not
	 * see): a time that was known stays so, at 1 ns at the least */
	return ns > UINT64_MAX ? UINT64_MAX : ns == 0 && ticks ? 1 : (uint64_t)ns;
}

/* ---------------------------------------------------------------- attributes */
#define L(field) rec_get_u64(&r->c, field)
#define I(field) rec_get_u32(&r->c, field)

/* A string attribute: the bytes before its NUL, which lies in the message. */
static struct wire_str S(struct reader *r, const char *field)
{
	struct rec_cursor *c = &r->c;
	const uint8_t *nul;
	size_t len;

	if (rec_cursor_failed(c))
		return (struct wire_str){ "", 0 };
	nul = memchr(c->data + c->pos, 0, c->end - c->pos);
	if (!nul) {
		rec_cursor_fail(c, c->pos, "%s has no NUL before the message's end at %zu", field, c->end);
		return (struct wire_str){ "", 0 };
	}
	len = (size_t)(nul - (c->data + c->pos));
	return (struct wire_str){ (const char *)rec_take(c, len + 1, field), (uint32_t)len };
}

/* A string handed back in an event: no longer than the wire allows. */
static struct wire_str S_name(struct reader *r, const char *field)
{
	size_t at = r->c.pos;
	struct wire_str s = S(r, field);

	if (s.len > WIRE_MAX_STRING)
		rec_cursor_fail(&r->c, at, "%s is %u bytes long, more than %u", field, s.len, WIRE_MAX_STRING);
	return s;
}

/* The thread with ID; NULL for 0 when ZERO_OK ("none"), or a failure. */
static struct rthread *thread_ref(struct reader *r, uint64_t id, size_t at, bool zero_ok, bool *bad)
{
	struct rthread *t;

	*bad = false;
	if (rec_cursor_failed(&r->c) || (id == 0 && zero_ok))
		return NULL;
	if (!(t = numbered_get(&r->threads, id))) {
		rec_cursor_fail(&r->c, at, "thread %llu is not defined", (unsigned long long)id);
		*bad = true;
	}
	return t;
}

/* ---------------------------------------------------------------- events */
static struct wire_event *event(struct reader *r, unsigned code)
{
	return rec_event_reset(r->ev, code);
}

/* EV of thread T (NULL: none) at TS_NS: its JVM and tid are the thread's. */
static int hand_back(struct reader *r, uint64_t ts_ns, const struct rthread *t, const struct wire_event *ev)
{
	return rec_hand_back(r->fn, r->ctx, t ? t->pid : 0, t ? t->tid : 0, ts_ns,
			     t ? t->name : (struct wire_str){ "", 0 }, ev);
}

/* The message's last attribute ends where its size says. */
static int check_filled(struct reader *r)
{
	struct rec_cursor *c = &r->c;

	if (rec_cursor_failed(c))
		return -EINVAL;
	if (c->pos != c->end)
		return rec_cursor_fail(c, c->pos, "%zu bytes follow its last attribute", c->end - c->pos);
	return 0;
}

static int read_frequency(struct reader *r)
{
	size_t at = r->c.pos;

	r->ticks_per_s = L("frequency");
	if (!rec_cursor_failed(&r->c) && r->ticks_per_s == 0)
		return rec_cursor_fail(&r->c, at, "the frequency is 0");
	return check_filled(r);
}

static int read_process(struct reader *r)
{
	struct wire_str id = S(r, "process ID");
	uint32_t pid;

	S(r, "name");
	pid = I("PID");
	S(r, "node ID ref");
	L("timestamp");
	S(r, "executable");
	return check_filled(r) < 0 ? -EINVAL : named_put(&r->processes, id, pid);
}

/* A string attribute FIELD naming WHAT, which REFS defines: its pid (0 for
 * an empty string when EMPTY_OK). */
static uint32_t S_ref(struct reader *r, const char *field, const struct named_pids *refs, const char *what,
		      bool empty_ok)
{
	size_t at = r->c.pos;
	struct wire_str id = S(r, field);
	uint32_t pid = 0;

	if (!rec_cursor_failed(&r->c) && !(empty_ok && id.len == 0) && named_get(refs, id, &pid) < 0)
		rec_cursor_fail(&r->c, at, "its %s is not defined", what);
	return pid;
}

static int read_agent(struct reader *r)
{
	struct wire_str id = S(r, "agent ID");
	uint32_t pid = S_ref(r, "process ID", &r->processes, "process", false);

	S(r, "name");
	S(r, "type");
	L("timestamp");
	S(r, "parameters");
	S(r, "version");
	return check_filled(r) < 0 ? -EINVAL : named_put(&r->agents, id, pid);
}

static int read_trace_start(struct reader *r)
{
	struct wire_str id = S(r, "trace ID");
	uint32_t pid = S_ref(r, "agent ID", &r->agents, "agent", false);

	L("timestamp");
	S(r, "collation value");
	return check_filled(r) < 0 ? -EINVAL : named_put(&r->traces, id, pid);
}

/* The first three attributes of many messages: the transient thread ID
 * (*TRANSIENT), the thread ID (*THREAD, at *AT) and the timestamp (returned). */
static uint64_t thread_head(struct reader *r, uint64_t *transient, uint64_t *thread, size_t *at)
{
	*transient = L("transient thread ID");
	*at = r->c.pos;
	*thread = L("thread ID");
	return L("timestamp");
}

static int read_thread_start(struct reader *r)
{
	size_t at_id;
	uint64_t tid, id, ticks = thread_head(r, &tid, &id, &at_id);
	struct wire_str name;
	struct rthread *t;
	uint32_t pid;
	int rc;

	S(r, "group name");
	S(r, "parent group name");
	L("transient object ID");
	L("object ID");
	name = S_name(r, "thread name");
	S(r, "collation value");
	pid = S_ref(r, "trace ID", &r->traces, "trace", true);
	if ((rc = check_filled(r)) < 0)
		return rc;
	if (id == 0)
		return rec_cursor_fail(&r->c, at_id, "thread ID 0");
	if (!(t = numbered_put(&r->threads, id)))
		return -ENOMEM;
	*t = (struct rthread){ pid, tid, name };
	return ticks ? hand_back(r, ticks_to_ns(r, ticks), t, event(r, WIRE_EV_THREAD_START)) : 0;
}

/* threadEnd, gcStart, gcFinish, runtimeInitDone, runtimeShutdown: a thread and a time. */
static int read_thread_time(struct reader *r, unsigned code)
{
	size_t at;
	uint64_t tid, id, ticks = thread_head(r, &tid, &id, &at);
	struct rthread *t;
	bool bad;

	if (code == WIRE_EV_GC_FINISH) {
		L("total object space");
		L("used object space");
		L("used objects");
	}
	S(r, "collation value");
	S(r, "trace ID");
	t = thread_ref(r, id, at, code != WIRE_EV_THREAD_END, &bad);
	if (check_filled(r) < 0 || bad)
		return -EINVAL;
	return hand_back(r, ticks_to_ns(r, ticks), t, event(r, code));
}

static int read_class_def(struct reader *r)
{
	size_t at_thread, at_class;
	uint64_t tid, thread, id, ticks = thread_head(r, &tid, &thread, &at_thread);
	struct wire_str key;
	struct rthread *t;
	struct rclass *k;
	struct wire_event *ev;
	bool bad;

	I("number of interfaces");
	S(r, "interface names");
	L("transient class ID");
	at_class = r->c.pos;
	id = L("class ID");
	S(r, "source name");
	S(r, "class loader");
	S(r, "super class");
	L("transient object ID");
	L("object ID");
	key = S_name(r, "name");
	S(r, "access");
	I("number of static fields");
	I("number of methods");
	I("number of instance fields");
	S(r, "collation value");
	S(r, "trace ID");
	t = thread_ref(r, thread, at_thread, true, &bad);
	if (check_filled(r) < 0 || bad)
		return -EINVAL;
	if (id == 0)
		return rec_cursor_fail(&r->c, at_class, "class ID 0");
	if (!(k = numbered_put(&r->classes, id)))
		return -ENOMEM;
	k->key = key;
	if (!ticks)
		return 0;
	ev = event(r, WIRE_EV_CLASS_LOAD);
	ev->name = (struct wire_str){ r->name, (uint32_t)rec_class_signature_from_key(key.ptr, key.len, r->name) };
	return hand_back(r, ticks_to_ns(r, ticks), t, ev);
}

static int read_method_def(struct reader *r)
{
	struct wire_str name = S_name(r, "name"), sig = S_name(r, "signature");
	size_t at_class, at_method;
	uint64_t cls, id;
	struct rclass *k;
	struct rmethod *m;

	for (int i = 0; i < 4; i++)
		rec_get_u8(&r->c, "a flag");
	S(r, "exceptions");
	L("start line");
	L("end line");
	S(r, "signature notation");
	L("transient class ID");
	at_class = r->c.pos;
	cls = L("class ID");
	at_method = r->c.pos;
	id = L("method ID");
	S(r, "collation value");
	S(r, "trace ID");
	if (check_filled(r) < 0)
		return -EINVAL;
	if (!(k = numbered_get(&r->classes, cls)))
		return rec_cursor_fail(&r->c, at_class, "class %llu is not defined", (unsigned long long)cls);
	if (id == 0)
		return rec_cursor_fail(&r->c, at_method, "method ID 0");
	if (!(m = numbered_put(&r->methods, id)))
		return -ENOMEM;
	/* classes only grow: its index stays */
	*m = (struct rmethod){ (uint32_t)(k - (struct rclass *)r->classes.v), name, sig };
	return 0;
}

/* methodEntry and methodExit: their method's wire name. */
static int read_method_event(struct reader *r, unsigned code)
{
	size_t at_thread, at_method;
	uint64_t tid, thread, id, ticks = thread_head(r, &tid, &thread, &at_thread);
	struct rthread *t;
	struct rmethod *m;
	const struct rclass *k;
	struct rec_method_name parts;
	struct wire_event *ev;
	bool bad;

	if (code == WIRE_EV_METHOD_ENTER) {
		at_method = r->c.pos;
		id = L("method ID");
		I("ticket");
		L("transient object ID");
		L("class ID");
		L("thread CPU time");
		L("sequence counter");
		L("stack depth");
	} else {
		I("ticket");
		L("thread CPU time");
		at_method = r->c.pos;
		id = L("method ID");
		L("transient object ID");
		L("object ID");
		L("transient class ID");
		L("class ID");
		S(r, "sequence counter");
	}
	S(r, "collation value");
	S(r, "trace ID");
	t = thread_ref(r, thread, at_thread, false, &bad);
	if (check_filled(r) < 0 || bad)
		return -EINVAL;
	if (!(m = numbered_get(&r->methods, id)))
		return rec_cursor_fail(&r->c, at_method, "method %llu is not defined", (unsigned long long)id);
	k = (const struct rclass *)r->classes.v + m->cls;
	parts = (struct rec_method_name){ k->key, m->name, m->sig };
	ev = event(r, code);
	ev->name = (struct wire_str){ r->name, (uint32_t)rec_method_join(r->name, &parts) };
	return hand_back(r, ticks_to_ns(r, ticks), t, ev);
}

static int read_monitor(struct reader *r, unsigned code)
{
	struct rec_cursor *c = &r->c;
	size_t at_thread = c->pos, at, total = 0;
	uint64_t thread = L("thread ID"), ticks = L("timestamp"), object = L("object ID"), timeout = 0;
	uint32_t depth;
	struct rthread *t;
	struct wire_event *ev = event(r, code);
	struct wire_trailer *tr = &ev->trailer;
	bool bad;

	at = c->pos;
	if (code == WIRE_EV_MONITOR_WAIT || code == WIRE_EV_MONITOR_WAITED) {
		if ((timeout = L("timeout")) > UINT32_MAX && !rec_cursor_failed(c))
			return rec_cursor_fail(c, at, "timeout %llu does not fit 32 bits", (unsigned long long)timeout);
	} else if (code == WIRE_EV_MONITOR_ENTER) {
		thread_ref(r, L("thread owner ID"), at, true, &bad);
	}
	at = c->pos;
	depth = I("stack depth");
	if (!rec_cursor_failed(c) && depth > WIRE_MAX_STACK_DEPTH)
		return rec_cursor_fail(c, at, "stack depth %u is more than %u", depth, WIRE_MAX_STACK_DEPTH);
	for (uint32_t i = 0; i < depth && !rec_cursor_failed(c); i++) {
		at = c->pos;
		tr->frames[i].method = S_name(r, "stack method");
		if ((total += tr->frames[i].method.len) > WIRE_MAX_MESSAGE / 2)
			return rec_cursor_fail(c, at, "the stack's names pass %u bytes", WIRE_MAX_MESSAGE / 2);
	}
	for (uint32_t i = 0; i < depth && !rec_cursor_failed(c); i++) {
		int64_t line;

		at = c->pos;
		line = (int64_t)L("stack line");
		if (line < INT32_MIN || line > INT32_MAX)
			return rec_cursor_fail(c, at, "line %lld does not fit 32 bits", (long long)line);
		tr->frames[i].line = (int32_t)line;
	}
	t = thread_ref(r, thread, at_thread, false, &bad);
	if (check_filled(r) < 0 || bad)
		return -EINVAL;
	ev->object = object;
	ev->u32 = (uint32_t)timeout;
	/* a waited line with a trailer would say timed_out=0, which the file does not know */
	if (depth && code != WIRE_EV_MONITOR_WAITED) {
		ev->has_trailer = true;
		tr->flags = WIRE_TF_STACK;
		tr->depth = (uint16_t)depth;
		tr->timestamp_ns = ticks_to_ns(r, ticks);
		tr->os_tid = t ? (uint32_t)t->tid : 0;
		tr->seq = 0;
		tr->monitor_class = tr->owner_name = (struct wire_str){ "", 0 };
		tr->owner_tid = 0;
	}
	return hand_back(r, ticks_to_ns(r, ticks), t, ev);
}

static int read_custom(struct reader *r)
{
	size_t at = r->c.pos;
	struct wire_str body = S(r, "custom body");
	struct rec_note note;
	struct rthread t = { 0 };
	struct wire_event *ev;
	int rc;

	if (check_filled(r) < 0)
		return -EINVAL;
	if ((rc = rec_note_parse(body.ptr, body.len, &note)) < 0)
		return rec_cursor_fail(&r->c, at, "a \"" REC_NOTE_PREFIX "\" body that is no note of ours");
	if (rc == 0 || !rec_note_is(&note, "lost pid tid ts"))
		return 0; /* someone else's, or a note of a later version */
	if (note.kv[1].value > UINT32_MAX)
		return rec_cursor_fail(&r->c, at, "pid %llu does not fit 32 bits", (unsigned long long)note.kv[1].value);
	t.pid = (uint32_t)note.kv[1].value;
	t.tid = note.kv[2].value;
	ev = event(r, WIRE_EV_LOST);
	ev->lost = note.kv[0].value;
	return hand_back(r, note.kv[3].value, &t, ev); /* the note's ts is in ns */
}

/* ---------------------------------------------------------------- messages */
static const char *message_name(unsigned id)
{
	switch (id) {
	case TB_ENCODING: return "encoding";
	case TB_FREQUENCY: return "frequency";
	case TB_NODE: return "node";
	case TB_PROCESS_CREATE: return "processCreate";
	case TB_AGENT_CREATE: return "agentCreate";
	case TB_AGENT_DESTROY: return "agentDestroy";
	case TB_TRACE_START: return "traceStart";
	case TB_TRACE_END: return "traceEnd";
	case TB_THREAD_START: return "threadStart";
	case TB_THREAD_END: return "threadEnd";
	case TB_CLASS_DEF: return "classDef";
	case TB_METHOD_DEF: return "methodDef";
	case TB_METHOD_ENTRY: return "methodEntry";
	case TB_METHOD_EXIT: return "methodExit";
	case TB_GC_START: return "gcStart";
	case TB_GC_FINISH: return "gcFinish";
	case TB_RUNTIME_INIT_DONE: return "runtimeInitDone";
	case TB_RUNTIME_SHUTDOWN: return "runtimeShutdown";
	case TB_MON_WAIT: return "monWait";
	case TB_MON_WAITED: return "monWaited";
	case TB_MON_CONTENDED_ENTER: return "monContendedEnter";
	case TB_MON_CONTENDED_ENTERED: return "monContendedEntered";
	case TB_CUSTOM: return "custom";
	default: return NULL;
	}
}

static int read_message_body(struct reader *r, unsigned id)
{
	switch (id) {
	case TB_ENCODING:
		S(r, "encoding name");
		return check_filled(r);
	case TB_FREQUENCY: return read_frequency(r);
	case TB_NODE:
		S(r, "node ID");
		S(r, "hostname");
		S(r, "IP address");
		I("time zone");
		L("timestamp");
		return check_filled(r);
	case TB_PROCESS_CREATE: return read_process(r);
	case TB_AGENT_CREATE: return read_agent(r);
	case TB_AGENT_DESTROY:
		S(r, "agent ID");
		L("timestamp");
		return check_filled(r);
	case TB_TRACE_START: return read_trace_start(r);
	case TB_TRACE_END:
		S(r, "trace ID");
		L("timestamp");
		S(r, "collation value");
		return check_filled(r);
	case TB_THREAD_START: return read_thread_start(r);
	case TB_THREAD_END: return read_thread_time(r, WIRE_EV_THREAD_END);
	case TB_CLASS_DEF: return read_class_def(r);
	case TB_METHOD_DEF: return read_method_def(r);
	case TB_METHOD_ENTRY: return read_method_event(r, WIRE_EV_METHOD_ENTER);
	case TB_METHOD_EXIT: return read_method_event(r, WIRE_EV_METHOD_EXIT);
	case TB_GC_START: return read_thread_time(r, WIRE_EV_GC_START);
	case TB_GC_FINISH: return read_thread_time(r, WIRE_EV_GC_FINISH);
	case TB_RUNTIME_INIT_DONE: return read_thread_time(r, WIRE_EV_VM_INIT);
	case TB_RUNTIME_SHUTDOWN: return read_thread_time(r, WIRE_EV_VM_DEATH);
	case TB_MON_WAIT: return read_monitor(r, WIRE_EV_MONITOR_WAIT);
	case TB_MON_WAITED: return read_monitor(r, WIRE_EV_MONITOR_WAITED);
	case TB_MON_CONTENDED_ENTER: return read_monitor(r, WIRE_EV_MONITOR_ENTER);
	case TB_MON_CONTENDED_ENTERED: return read_monitor(r, WIRE_EV_MONITOR_ENTERED);
	case TB_CUSTOM: return read_custom(r);
	default: /* not ours to know: passed over whole */
		r->c.pos = r->c.end;
		return 0;
	}
}

static int read_message(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	size_t start = c->pos, at_size;
	unsigned id;
	uint32_t size;
	const char *name;

	rec_cursor_record(c, "message", c->len);
	id = rec_get_u16(c, "message ID");
	at_size = c->pos;
	size = rec_get_u32(c, "message size");
	if (rec_cursor_failed(c))
		return -EINVAL;
	if ((name = message_name(id)))
		c->record = name;
	if (size < TB_MESSAGE_HEADER)
		return rec_cursor_fail(c, at_size, "size %u is less than the message's own %u-byte header", size,
				       TB_MESSAGE_HEADER);
	if (size > c->len - start)
		return rec_cursor_fail(c, at_size, "size %u runs past the end of the file (%zu bytes)", size, c->len);
	c->end = start + size;
	return read_message_body(r, id);
}

static int read_header(struct reader *r)
{
	struct rec_cursor *c = &r->c;
	const uint8_t *magic;
	uint8_t major, platform, endianness;
	uint32_t offset;

	rec_cursor_record(c, "header", c->len);
	magic = rec_take(c, 4, "magic");
	if (magic && memcmp(magic, TB_MAGIC, 4) != 0)
		return rec_cursor_fail(c, 0, "the magic is not \"" TB_MAGIC "\"");
	major = rec_get_u8(c, "major version");
	rec_get_u8(c, "minor version");
	platform = rec_get_u8(c, "platform");
	endianness = rec_get_u8(c, "endianness");
	if (rec_cursor_failed(c))
		return -EINVAL;
	if (major != TB_VERSION_MAJOR)
		return rec_cursor_fail(c, TB_AT_VERSION, "major version %u, not %u", major, TB_VERSION_MAJOR);
	if (platform > 1)
		return rec_cursor_fail(c, TB_AT_PLATFORM, "platform %u (0: 32-bit, 1: 64-bit)", platform);
	if (endianness > 1)
		return rec_cursor_fail(c, TB_AT_ENDIANNESS, "endianness %u (0: big, 1: little)", endianness);
	c->big = endianness == 0;
	offset = rec_get_u32(c, "offset to data");
	if (rec_cursor_failed(c))
		return -EINVAL;
	if (offset < TB_HEADER_SIZE || offset > c->len)
		return rec_cursor_fail(c, TB_AT_OFFSET, "offset to data %u is not between %u and the file's "
				       "end (%zu)", offset, TB_HEADER_SIZE, c->len);
	c->pos = offset;
	return 0;
}

int trcbin_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err)
{
	struct reader r = { .c = { .data = data, .len = len, .end = len, .err = err }, .fn = fn, .ctx = ctx,
			    .ticks_per_s = TB_TICKS_PER_S,
			    .threads = { .size = sizeof(struct rthread) },
			    .classes = { .size = sizeof(struct rclass) },
			    .methods = { .size = sizeof(struct rmethod) } };
	int rc;

	memset(err, 0, sizeof *err);
	r.ev = malloc(sizeof *r.ev);
	r.name = malloc(SCRATCH_SIZE);
	if (!r.ev || !r.name)
		rc = -ENOMEM;
	else
		rc = read_header(&r);
	while (rc == 0 && r.c.pos < len)
		rc = read_message(&r);
	named_free(&r.processes);
	named_free(&r.agents);
	named_free(&r.traces);
	numbered_free(&r.threads);
	numbered_free(&r.classes);
	numbered_free(&r.methods);
	free(r.ev);
	free(r.name);
	return rc;
}
