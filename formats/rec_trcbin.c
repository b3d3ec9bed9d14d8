/* rec_trcbin.c: the TPTP binary writer (rec_trcbin.h; the mapping of our
 * events and the readings chosen are doc/recording-seed-formats.md's).
 *
 * TPTP's model is node > process > agent > trace > threads: the node is
 * written at the start; a JVM's process, agent and trace at its first
 * event; each thread (its OS tid as the transient thread id, its trace as
 * the Trace ID) at its start, or at its first event when its start was not
 * seen (then with the default timestamp 0: when it started is not known).
 * Every event names its thread, so the reader finds each event's pid and
 * tid through it. Classes and methods are defined at first sight, a class
 * at its load (or with timestamp 0 at its first method call). Method entry
 * and exit carry a ticket that pairs them; the writer keeps each thread's
 * stack for it, and a return whose enter is not on the stack is not
 * written. The traces end (traceEnd) at a clean end.
 */
#include "rec_trcbin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_bytes.h"
#include "rec_tables.h"
#include "rec_text.h"

struct tb_state {
	struct rec_buf msg;
	struct rec_strmap class_keys;     /* class key -> class id - 1 */
	struct rec_strmap method_names;   /* wire name -> method id - 1 */
	uint32_t *method_class;           /* [method id - 1]: its class id */
	size_t method_class_cap;
	struct rec_threads threads;       /* calls: method id, ticket; started: a threadStart with its time */
	struct rec_pairmap traced;        /* (pid, 0): its process, agent and trace are written */
	uint32_t *pids;                   /* those pids in order */
	size_t npids, pids_cap;
	uint32_t ticket;
	uint64_t last_ts;                 /* the latest event's, for traceEnd */
	char *key;                        /* scratch: a class key */
};

/* A message of at most MAX attribute bytes: its header now, its size at msg_end. */
static int msg_begin(struct tb_state *s, uint16_t id, size_t max)
{
	if (rec_buf_begin(&s->msg, TB_MESSAGE_HEADER + max) < 0)
		return -ENOMEM;
	rec_put_u16(&s->msg, id);
	rec_put_u32(&s->msg, 0);
	return 0;
}

static int msg_end(struct tb_state *s, struct record_out *out)
{
	uint32_t n = (uint32_t)s->msg.len;

	for (int i = 0; i < 4; i++)
		s->msg.p[2 + i] = (uint8_t)(n >> (8 * i));
	return record_out_write(out, s->msg.p, s->msg.len);
}

/* A string attribute; a NUL inside ends it, as it would for any reader. */
static void put_str(struct rec_buf *b, const char *p, size_t n)
{
	const char *nul = n ? memchr(p, 0, n) : NULL;

	rec_put_bytes(b, p, nul ? (size_t)(nul - p) : n);
	rec_put_u8(b, 0);
}

static void put_cstr(struct rec_buf *b, const char *s)
{
	put_str(b, s, strlen(s));
}

/* The default of a string attribute we do not have. */
static void put_null(struct rec_buf *b)
{
	rec_put_u8(b, 0);
}

static void trace_id(char *buf, size_t cap, const char *what, uint32_t pid)
{
	snprintf(buf, cap, "%s-%" PRIu32, what, pid);
}

/* processCreate, agentCreate and traceStart of PID, the first time. */
static int trace_pid(struct tb_state *s, struct record_out *out, uint32_t pid, uint64_t ts)
{
	char process[32], agent[32], trace[32];
	uint32_t seen;
	int rc;

	if (rec_pairmap_get(&s->traced, pid, 0, &seen) == 0)
		return 0;
	if (rec_grow((void **)&s->pids, &s->pids_cap, s->npids + 1, sizeof *s->pids) < 0 ||
	    rec_pairmap_put(&s->traced, pid, 0, 1) < 0)
		return -ENOMEM;
	s->pids[s->npids++] = pid;
	trace_id(process, sizeof process, "process", pid);
	trace_id(agent, sizeof agent, "agent", pid);
	trace_id(trace, sizeof trace, "trace", pid);

	if (msg_begin(s, TB_PROCESS_CREATE, 128) < 0)
		return -ENOMEM;
	put_cstr(&s->msg, process);
	put_null(&s->msg);                  /* name */
	rec_put_u32(&s->msg, pid);
	put_cstr(&s->msg, TB_NODE_ID);
	rec_put_u64(&s->msg, 0);            /* when it was created: not known */
	put_null(&s->msg);                  /* executable */
	if ((rc = msg_end(s, out)) < 0)
		return rc;

	if (msg_begin(s, TB_AGENT_CREATE, 128) < 0)
		return -ENOMEM;
	put_cstr(&s->msg, agent);
	put_cstr(&s->msg, process);
	put_cstr(&s->msg, TB_AGENT_NAME);
	put_cstr(&s->msg, TB_AGENT_TYPE);
	rec_put_u64(&s->msg, 0);            /* when the agent was loaded: not known */
	put_null(&s->msg);                  /* parameters */
	put_null(&s->msg);                  /* version */
	if ((rc = msg_end(s, out)) < 0)
		return rc;

	if (msg_begin(s, TB_TRACE_START, 96) < 0)
		return -ENOMEM;
	put_cstr(&s->msg, trace);
	put_cstr(&s->msg, agent);
	rec_put_u64(&s->msg, ts);
	put_null(&s->msg);                  /* collation value */
	return msg_end(s, out);
}

/* threadStart of thread ID: at TS, or 0 when its start was not seen. */
static int write_thread_start(struct tb_state *s, struct record_out *out, uint32_t id, uint64_t tid,
			      uint64_t ts, const char *name, size_t name_len)
{
	char trace[32];

	trace_id(trace, sizeof trace, "trace", s->threads.v[id].pid);
	if (msg_begin(s, TB_THREAD_START, 5 * 8 + 5 + name_len + sizeof trace) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, tid);          /* transient thread id: the OS tid */
	rec_put_u64(&s->msg, id);
	rec_put_u64(&s->msg, ts);
	put_null(&s->msg);                  /* group name */
	put_null(&s->msg);                  /* parent group name */
	rec_put_u64(&s->msg, 0);            /* transient object id */
	rec_put_u64(&s->msg, 0);            /* object id */
	put_str(&s->msg, name ? name : "", name ? name_len : 0);
	put_null(&s->msg);                  /* collation value */
	put_cstr(&s->msg, trace);
	return msg_end(s, out);
}

/* A new thread with TID in META's JVM, its threadStart written (at TS, 0:
 * not seen): 0, 1 (no id left) or an error. */
static int thread_introduce(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
			    uint64_t tid, uint64_t ts, const char *name, size_t name_len, uint32_t *id)
{
	int rc;

	if ((rc = trace_pid(s, out, meta->pid, meta->ts_ns)) < 0 ||
	    (rc = rec_threads_add(&s->threads, meta->pid, tid, id)) != 0)
		return rc;
	s->threads.v[*id].started = ts != 0;
	return write_thread_start(s, out, *id, tid, ts, name, name_len);
}

/* The thread of an event: 0, 1 (no id left) or an error. */
static int thread_get(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
		      uint32_t *id)
{
	if ((*id = rec_threads_find(&s->threads, meta->pid, meta->tid)) != 0)
		return 0;
	return thread_introduce(s, out, meta, meta->tid, 0, meta->thread_name, meta->thread_name_len, id);
}

/* classDef of a new class (ID, KEY) by THREAD (whose tid is TID) at TS (0: not seen). */
static int write_class_def(struct tb_state *s, struct record_out *out, uint32_t id, const char *key,
			   size_t len, uint64_t tid, uint32_t thread, uint64_t ts)
{
	if (msg_begin(s, TB_CLASS_DEF, 9 * 8 + 4 * 4 + 9 + len) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, tid);
	rec_put_u64(&s->msg, thread);
	rec_put_u64(&s->msg, ts);
	rec_put_u32(&s->msg, 0);            /* number of interfaces */
	put_null(&s->msg);                  /* interface names */
	rec_put_u64(&s->msg, 0);            /* transient class id */
	rec_put_u64(&s->msg, id);
	put_null(&s->msg);                  /* source name */
	put_null(&s->msg);                  /* class loader */
	put_null(&s->msg);                  /* super class */
	rec_put_u64(&s->msg, 0);            /* transient object id */
	rec_put_u64(&s->msg, 0);            /* object id */
	put_str(&s->msg, key, len);
	put_null(&s->msg);                  /* access */
	rec_put_u32(&s->msg, 0);            /* static fields, methods, instance fields: not known */
	rec_put_u32(&s->msg, 0);
	rec_put_u32(&s->msg, 0);
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	return msg_end(s, out);
}

/* The id of the class with KEY into *ID, its classDef written when new (at
 * TS by THREAD): 0 or an error. */
static int class_get(struct tb_state *s, struct record_out *out, const char *key, size_t len,
		     const struct print_meta *meta, uint32_t thread, uint64_t ts, uint32_t *id)
{
	int rc = rec_strmap_intern(&s->class_keys, key, len, id);

	if (rc < 0)
		return rc;
	*id += 1;
	return rc == 1 ? write_class_def(s, out, *id, key, len, meta->tid, thread, ts) : 0;
}

/* Method id *M of NAME, it and its class defined when new: 0 or an error. */
static int method_get(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
		      uint32_t thread, const struct wire_str *name, uint32_t *m)
{
	struct rec_method_name parts;
	uint32_t c;
	int rc;

	if (rec_grow((void **)&s->method_class, &s->method_class_cap, (size_t)s->method_names.n + 1,
		     sizeof *s->method_class) < 0)
		return -ENOMEM;
	if ((rc = rec_strmap_intern(&s->method_names, name->ptr, name->len, m)) < 0)
		return rc;
	*m += 1;
	if (rc == 0)
		return 0;
	rec_method_split(name->ptr, name->len, &parts);
	if ((rc = class_get(s, out, parts.cls.ptr, parts.cls.len, meta, thread, 0, &c)) < 0)
		return rc;
	s->method_class[*m - 1] = c;
	if (msg_begin(s, TB_METHOD_DEF, 7 * 8 + 4 + 9 + parts.name.len + parts.sig.len) < 0)
		return -ENOMEM;
	put_str(&s->msg, parts.name.ptr, parts.name.len);
	put_str(&s->msg, parts.sig.ptr, parts.sig.len);
	for (int i = 0; i < 4; i++)
		rec_put_u8(&s->msg, 0);     /* native, abstract, static, synchronized: not known */
	put_null(&s->msg);                  /* exceptions */
	rec_put_u64(&s->msg, 0);            /* start line, end line */
	rec_put_u64(&s->msg, 0);
	put_null(&s->msg);                  /* signature notation */
	rec_put_u64(&s->msg, 0);            /* transient class id */
	rec_put_u64(&s->msg, c);
	rec_put_u64(&s->msg, *m);
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	return msg_end(s, out);
}

static int method_enter(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
			const struct wire_event *ev, uint32_t thread)
{
	struct rec_calls *calls = &s->threads.v[thread].calls;
	uint32_t m;
	int rc;

	if ((rc = method_get(s, out, meta, thread, &ev->name, &m)) < 0)
		return rc;
	if (++s->ticket == 0)
		s->ticket = 1;
	if (rec_calls_push(calls, m, s->ticket) < 0 || msg_begin(s, TB_METHOD_ENTRY, 9 * 8 + 4 + 2) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, meta->tid);
	rec_put_u64(&s->msg, thread);
	rec_put_u64(&s->msg, meta->ts_ns);
	rec_put_u64(&s->msg, m);
	rec_put_u32(&s->msg, s->ticket);
	rec_put_u64(&s->msg, 0);            /* transient object id */
	rec_put_u64(&s->msg, s->method_class[m - 1]);
	rec_put_u64(&s->msg, 0);            /* thread cpu time: not known */
	rec_put_u64(&s->msg, ev->has_trailer ? ev->trailer.seq : 0);
	rec_put_u64(&s->msg, calls->depth); /* of the frames the recording saw */
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	return msg_end(s, out);
}

static int method_return(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
			 const struct wire_event *ev)
{
	struct rec_calls *calls;
	uint32_t thread, m, ticket;
	long above;

	if (rec_strmap_find(&s->method_names, ev->name.ptr, ev->name.len, &m) < 0 ||
	    (thread = rec_threads_find(&s->threads, meta->pid, meta->tid)) == 0)
		return 0;
	m += 1;
	calls = &s->threads.v[thread].calls;
	if ((above = rec_calls_find(calls, m)) < 0)
		return 0;
	/* the frames above it never returned as far as we know: forgotten */
	calls->depth -= (uint32_t)above + 1;
	ticket = calls->frames[calls->depth].ticket;
	if (msg_begin(s, TB_METHOD_EXIT, 9 * 8 + 4 + 3) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, meta->tid);
	rec_put_u64(&s->msg, thread);
	rec_put_u64(&s->msg, meta->ts_ns);
	rec_put_u32(&s->msg, ticket);
	rec_put_u64(&s->msg, 0);            /* thread cpu time */
	rec_put_u64(&s->msg, m);
	rec_put_u64(&s->msg, 0);            /* transient object id, object id, transient class id */
	rec_put_u64(&s->msg, 0);
	rec_put_u64(&s->msg, 0);
	rec_put_u64(&s->msg, s->method_class[m - 1]);
	put_null(&s->msg);                  /* sequence counter (a string here) */
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	return msg_end(s, out);
}

/* gcStart, gcFinish, runtimeInitDone, runtimeShutdown: a thread and a time. */
static int thread_time_message(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
			       uint32_t thread, uint16_t id)
{
	if (msg_begin(s, id, 6 * 8 + 2) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, meta->tid);
	rec_put_u64(&s->msg, thread);
	rec_put_u64(&s->msg, meta->ts_ns);
	if (id == TB_GC_FINISH) {
		rec_put_u64(&s->msg, 0);    /* total object space, used object space, used objects */
		rec_put_u64(&s->msg, 0);
		rec_put_u64(&s->msg, 0);
	}
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	return msg_end(s, out);
}

static int monitor(struct tb_state *s, struct record_out *out, const struct print_meta *meta,
		   const struct wire_event *ev, uint32_t thread)
{
	static const uint16_t ids[] = {
		[WIRE_EV_MONITOR_ENTER - WIRE_EV_MONITOR_ENTER] = TB_MON_CONTENDED_ENTER,
		[WIRE_EV_MONITOR_ENTERED - WIRE_EV_MONITOR_ENTER] = TB_MON_CONTENDED_ENTERED,
		[WIRE_EV_MONITOR_WAIT - WIRE_EV_MONITOR_ENTER] = TB_MON_WAIT,
		[WIRE_EV_MONITOR_WAITED - WIRE_EV_MONITOR_ENTER] = TB_MON_WAITED,
	};
	const struct wire_trailer *t = &ev->trailer;
	uint16_t depth = ev->has_trailer && (t->flags & WIRE_TF_STACK) ? t->depth : 0;
	size_t size = 4 * 8 + 4 + 9 * (size_t)depth;
	uint32_t owner = 0;
	int rc;

	if (ev->code == WIRE_EV_MONITOR_ENTER && meta->owner_tid) {
		bool named = ev->has_trailer && (t->flags & WIRE_TF_MONITOR);

		if ((owner = rec_threads_find(&s->threads, meta->pid, meta->owner_tid)) == 0 &&
		    (rc = thread_introduce(s, out, meta, meta->owner_tid, 0, named ? t->owner_name.ptr : NULL,
					   named ? t->owner_name.len : 0, &owner)) != 0)
			return rc < 0 ? rc : 0;
	}
	for (uint16_t i = 0; i < depth; i++)
		size += t->frames[i].method.len;
	if (msg_begin(s, ids[ev->code - WIRE_EV_MONITOR_ENTER], size) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, thread);
	rec_put_u64(&s->msg, meta->ts_ns);
	rec_put_u64(&s->msg, ev->object);
	if (ev->code == WIRE_EV_MONITOR_WAIT || ev->code == WIRE_EV_MONITOR_WAITED)
		rec_put_u64(&s->msg, ev->u32);
	else if (ev->code == WIRE_EV_MONITOR_ENTER)
		rec_put_u64(&s->msg, owner);
	rec_put_u32(&s->msg, depth);
	for (uint16_t i = 0; i < depth; i++)
		put_str(&s->msg, t->frames[i].method.ptr, t->frames[i].method.len);
	for (uint16_t i = 0; i < depth; i++)
		rec_put_u64(&s->msg, (uint64_t)(int64_t)t->frames[i].line);
	return msg_end(s, out);
}

static int note_lost(struct tb_state *s, struct record_out *out, uint64_t ts_ns, uint64_t count,
		     uint32_t pid, uint64_t tid)
{
	static const char *const keys[] = { "lost", "pid", "tid", "ts" };
	const uint64_t values[] = { count, pid, tid, ts_ns };
	char text[128];
	size_t n = rec_note_format(text, keys, values, 4);

	if (msg_begin(s, TB_CUSTOM, n + 1) < 0)
		return -ENOMEM;
	put_str(&s->msg, text, n);
	return msg_end(s, out);
}

static int thread_start(struct tb_state *s, struct record_out *out, const struct print_meta *meta)
{
	uint32_t id = rec_threads_find(&s->threads, meta->pid, meta->tid);
	int rc;

	if (id && s->threads.v[id].started) { /* its tid is another thread's now */
		rec_threads_forget(&s->threads, meta->pid, meta->tid, id);
		id = 0;
	}
	if (!id) {
		rc = thread_introduce(s, out, meta, meta->tid, meta->ts_ns, meta->thread_name,
				      meta->thread_name_len, &id);
		return rc < 0 ? rc : 0;
	}
	s->threads.v[id].started = true;
	return write_thread_start(s, out, id, meta->tid, meta->ts_ns, meta->thread_name, meta->thread_name_len);
}

static int thread_end(struct tb_state *s, struct record_out *out, const struct print_meta *meta, uint32_t id)
{
	int rc;

	if (msg_begin(s, TB_THREAD_END, 3 * 8 + 2) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, meta->tid);
	rec_put_u64(&s->msg, id);
	rec_put_u64(&s->msg, meta->ts_ns);
	put_null(&s->msg);                  /* collation value */
	put_null(&s->msg);                  /* trace id */
	rc = msg_end(s, out);
	rec_threads_forget(&s->threads, meta->pid, meta->tid, id);
	return rc;
}

static int tb_event(void *state, struct record_out *out, const struct print_meta *meta,
		    const struct wire_event *ev)
{
	struct tb_state *s = state;
	uint32_t thread, c;
	int rc;

	if (meta->ts_ns > s->last_ts)
		s->last_ts = meta->ts_ns;
	switch (ev->code) {
	case WIRE_EV_METHOD_EXIT:
		return method_return(s, out, meta, ev);
	case WIRE_EV_THREAD_START:
		return thread_start(s, out, meta);
	case WIRE_EV_LOST:
		return note_lost(s, out, meta->ts_ns, ev->lost, meta->pid, meta->tid);
	case WIRE_EV_METHOD_ENTER: case WIRE_EV_THREAD_END: case WIRE_EV_CLASS_LOAD:
	case WIRE_EV_GC_START: case WIRE_EV_GC_FINISH: case WIRE_EV_VM_INIT: case WIRE_EV_VM_DEATH:
	case WIRE_EV_MONITOR_ENTER: case WIRE_EV_MONITOR_ENTERED:
	case WIRE_EV_MONITOR_WAIT: case WIRE_EV_MONITOR_WAITED:
		break;
	default: /* the format has no place for the others */
		return 0;
	}
	if ((rc = thread_get(s, out, meta, &thread)) != 0)
		return rc < 0 ? rc : 0;
	switch (ev->code) {
	case WIRE_EV_METHOD_ENTER:
		return method_enter(s, out, meta, ev, thread);
	case WIRE_EV_THREAD_END:
		return thread_end(s, out, meta, thread);
	case WIRE_EV_CLASS_LOAD:
		return class_get(s, out, s->key, rec_class_key_from_signature(ev->name.ptr, ev->name.len, s->key),
				 meta, thread, meta->ts_ns, &c);
	case WIRE_EV_GC_START:
		return thread_time_message(s, out, meta, thread, TB_GC_START);
	case WIRE_EV_GC_FINISH:
		return thread_time_message(s, out, meta, thread, TB_GC_FINISH);
	case WIRE_EV_VM_INIT:
		return thread_time_message(s, out, meta, thread, TB_RUNTIME_INIT_DONE);
	case WIRE_EV_VM_DEATH:
		return thread_time_message(s, out, meta, thread, TB_RUNTIME_SHUTDOWN);
	default:
		return monitor(s, out, meta, ev, thread);
	}
}

static int tb_lost(void *state, struct record_out *out, uint64_t ts_ns, uint64_t count)
{
	return note_lost(state, out, ts_ns, count, 0, 0);
}

static int tb_begin(void *state, struct record_out *out, const struct record_info *info)
{
	struct tb_state *s = state;
	int rc;

	if (!(s->key = malloc(WIRE_MAX_STRING)) || rec_buf_begin(&s->msg, TB_HEADER_SIZE) < 0)
		return -ENOMEM;
	rec_put_bytes(&s->msg, TB_MAGIC, 4);
	rec_put_u8(&s->msg, TB_VERSION_MAJOR);
	rec_put_u8(&s->msg, TB_VERSION_MINOR);
	rec_put_u8(&s->msg, sizeof(void *) == 8);   /* platform: 0 32-bit, 1 64-bit */
	rec_put_u8(&s->msg, 1);                     /* little-endian */
	rec_put_u32(&s->msg, TB_HEADER_SIZE);       /* the first message follows */
	if ((rc = record_out_write(out, s->msg.p, s->msg.len)) < 0)
		return rc;

	if (msg_begin(s, TB_ENCODING, sizeof TB_ENCODING_NAME) < 0)
		return -ENOMEM;
	put_cstr(&s->msg, TB_ENCODING_NAME);
	if ((rc = msg_end(s, out)) < 0)
		return rc;
	if (msg_begin(s, TB_FREQUENCY, 8) < 0)
		return -ENOMEM;
	rec_put_u64(&s->msg, TB_TICKS_PER_S);
	if ((rc = msg_end(s, out)) < 0)
		return rc;
	if (msg_begin(s, TB_NODE, sizeof TB_NODE_ID + 2 + 4 + 8) < 0)
		return -ENOMEM;
	put_cstr(&s->msg, TB_NODE_ID);
	put_null(&s->msg);                  /* hostname */
	put_null(&s->msg);                  /* IP address */
	rec_put_u32(&s->msg, 0);            /* time zone */
	rec_put_u64(&s->msg, info->start_ns);
	return msg_end(s, out);
}

static int tb_end(void *state, struct record_out *out)
{
	struct tb_state *s = state;
	int rc = out->error;

	for (size_t i = 0; rc == 0 && i < s->npids; i++) {
		char trace[32];

		trace_id(trace, sizeof trace, "trace", s->pids[i]);
		if ((rc = msg_begin(s, TB_TRACE_END, sizeof trace + 10)) < 0)
			break;
		put_cstr(&s->msg, trace);
		rec_put_u64(&s->msg, s->last_ts);
		put_null(&s->msg);          /* collation value */
		rc = msg_end(s, out);
	}
	rec_threads_free(&s->threads);
	free(s->method_class);
	free(s->pids);
	free(s->key);
	rec_strmap_free(&s->class_keys);
	rec_strmap_free(&s->method_names);
	rec_pairmap_free(&s->traced);
	rec_buf_free(&s->msg);
	memset(s, 0, sizeof *s);
	return rc;
}

const struct record_format record_format_trcbin = {
	.name = "trcbin",
	.extension = ".trcbin",
	.state_size = sizeof(struct tb_state),
	.begin = tb_begin,
	.event = tb_event,
	.end = tb_end,
	.lost = tb_lost,
	.read = trcbin_read,
	.needs = &record_needs_thread_names,
};
