/* rec_jfr_pairs.c: the JFR writer's events that come in two halves
 * (rec_jfr_writer.h): a method call waits on a stack of open calls per
 * thread for its return, a contended monitor enter for its entered, a wait
 * for its waited, a GC start for its JVM's finish; then one JDK or
 * stapjava event holds both. A half with no other half is written alone
 * (doc/recording-jfr.md, "Pairs"). Halves wait across chunks: the pool
 * entries they refer to are marked again in the chunk they are written to.
 */
#include "rec_jfr_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec_jfr_types.h"

/* Open calls per thread: more (a probe on enters alone, say) and they are
 * all written as calls with no return; a return looks this deep for its enter. */
#define MAX_OPEN_CALLS 4096u
#define RETURN_SEARCH 64u

/* ---- per thread and per JVM state */
struct thread_state *jw_thread(struct jfr_writer *w, uint32_t pid, uint64_t tid)
{
	struct thread_state *t;
	uint32_t slot, *mine;

	if (w->last_thread < w->nthreads) {
		t = &w->threads[w->last_thread];
		if (t->pid == pid && t->tid == tid)
			return t;
	}
	slot = jfr_pool_thread_slot(&w->pools, pid, tid);
	if (slot == JFR_NONE)
		return NULL;
	mine = &w->pools.thread_keys.e[slot].v[1];
	if (!*mine) {
		if (rec_grow((void **)&w->threads, &w->capthreads, (size_t)w->nthreads + 1, sizeof *w->threads) < 0)
			return NULL;
		t = &w->threads[w->nthreads];
		memset(t, 0, sizeof *t);
		t->pid = pid;
		t->tid = tid;
		*mine = ++w->nthreads;
	}
	w->last_thread = *mine - 1;
	return &w->threads[*mine - 1];
}

struct jvm_state *jw_jvm(struct jfr_writer *w, uint32_t pid)
{
	for (uint32_t i = 0; i < w->njvms; i++)
		if (w->jvms[i].pid == pid)
			return &w->jvms[i];
	if (rec_grow((void **)&w->jvms, &w->capjvms, (size_t)w->njvms + 1, sizeof *w->jvms) < 0)
		return NULL;
	memset(&w->jvms[w->njvms], 0, sizeof w->jvms[0]);
	w->jvms[w->njvms].pid = pid;
	return &w->jvms[w->njvms++];
}

/* ---- method calls */
/* A stapjava.MethodCall. C NULL: a return with no enter; RET NULL: an
 * enter with no return. */
static void write_call(struct jfr_writer *w, struct thread_state *t, const struct open_call *c,
		       uint32_t method, const struct wire_event *ret, uint64_t ret_ts)
{
	struct jfr_buf *b = &w->chunk;
	uint64_t start = c ? c->start : ret_ts;
	size_t at;

	if (c) {
		jfr_pool_mark_method(&w->pools, method);
		jfr_pool_mark_stack(&w->pools, c->stack);
	}
	at = jw_begin(w, JFR_E_METHOD_CALL);
	jfr_put_varint(b, start);
	jfr_put_varint(b, ret ? ret_ts - start : 0);
	jw_key(b, jfr_pool_thread(&w->pools, t->pid, t->tid));
	jw_key(b, c ? c->stack : JFR_NONE);
	jw_key(b, method);
	if (c) {   /* the innermost open call: its arguments end the thread's */
		jfr_put_bytes(b, t->args.data + c->args_off, t->args.len - c->args_off);
	} else {
		jfr_put_string(b, "", 0);
		jfr_put_string(b, "", 0);
	}
	if (ret) {
		jw_values(w, b, &ret->retval, 1);
	} else {   /* no return value: none recorded */
		jfr_put_string(b, NULL, 0);
		jfr_put_string(b, NULL, 0);
	}
	jw_bool(b, c != NULL);
	jw_bool(b, ret != NULL);
	jw_bool(b, ret && ret->popped);
	jw_key(b, ret ? jw_stack(w, ret) : JFR_NONE);
	jw_end(w, at, ret ? ret_ts : start);
}

/* Open calls from index FROM up, innermost first, as calls with no return. */
static void write_unreturned(struct jfr_writer *w, struct thread_state *t, uint32_t from)
{
	while (t->ncalls > from) {
		struct open_call *c = &t->calls[t->ncalls - 1];

		write_call(w, t, c, c->method, NULL, 0);
		t->args.len = c->args_off;
		t->ncalls--;
	}
}

int jw_call_enter(struct jfr_writer *w, struct thread_state *t, const struct print_meta *m,
			const struct wire_event *ev)
{
	struct open_call *c;

	if (t->ncalls == MAX_OPEN_CALLS)
		write_unreturned(w, t, 0);
	if (rec_grow((void **)&t->calls, &t->capcalls, (size_t)t->ncalls + 1, sizeof *t->calls) < 0)
		return -ENOMEM;
	c = &t->calls[t->ncalls++];
	c->start = m->ts_ns;
	c->method = jfr_pool_method(&w->pools, ev->name.ptr, ev->name.len);
	c->stack = jw_stack(w, ev);
	c->args_off = t->args.len;
	return jw_values(w, &t->args, ev->values, ev->nvalues);
}

void jw_call_exit(struct jfr_writer *w, struct thread_state *t, const struct print_meta *m,
			const struct wire_event *ev)
{
	uint32_t method = jfr_pool_method(&w->pools, ev->name.ptr, ev->name.len);
	uint32_t low = t->ncalls > RETURN_SEARCH ? t->ncalls - RETURN_SEARCH : 0;

	for (uint32_t i = t->ncalls; i-- > low;) {
		struct open_call *c = &t->calls[i];

		if (c->method != method || c->start > m->ts_ns)
			continue;
		/* the calls above it never returned (their returns were not recorded) */
		write_unreturned(w, t, i + 1);
		write_call(w, t, c, method, ev, m->ts_ns);
		t->args.len = c->args_off;
		t->ncalls = i;
		return;
	}
	write_call(w, t, NULL, method, ev, m->ts_ns);
}

/* ---- monitors */
static uint32_t monitor_class(struct jfr_writer *w, const struct wire_event *ev)
{
	if (!ev->has_trailer || !(ev->trailer.flags & WIRE_TF_MONITOR))
		return JFR_NONE;
	return jfr_pool_class_sig(&w->pools, ev->trailer.monitor_class.ptr, ev->trailer.monitor_class.len);
}

/* A half of a pair written alone (stapjava.MonitorContendedEnter ...). */
static void write_monitor_alone(struct jfr_writer *w, const struct thread_state *t, unsigned type,
				uint64_t ts, uint32_t stack, uint32_t class, uint64_t object,
				const struct pending_monitor *detail, bool timed_out)
{
	struct jfr_buf *b = &w->chunk;
	size_t at = jw_begin(w, type);

	jfr_pool_mark_stack(&w->pools, stack);
	jfr_pool_mark_class(&w->pools, class);
	if (type == JFR_E_CONTENDED_ENTER)
		jfr_pool_mark_thread(&w->pools, detail->owner);
	jfr_put_varint(b, ts);
	jw_key(b, jfr_pool_thread(&w->pools, t->pid, t->tid));
	jw_key(b, stack);
	jw_key(b, class);
	if (type == JFR_E_CONTENDED_ENTER)
		jw_key(b, detail->owner);
	if (type == JFR_E_WAIT || type == JFR_E_WAITED)
		jfr_put_varint(b, detail->timeout_ms);
	if (type == JFR_E_WAITED)
		jw_bool(b, timed_out);
	jfr_put_varint(b, object);
	jw_end(w, at, ts);
}

static void flush_pending(struct jfr_writer *w, struct thread_state *t, struct pending_monitor *p)
{
	if (!p->open)
		return;
	write_monitor_alone(w, t, p == &t->enter ? JFR_E_CONTENDED_ENTER : JFR_E_WAIT, p->start, p->stack,
			    p->class, p->object, p, false);
	p->open = false;
}

void jw_monitor_begin(struct jfr_writer *w, struct thread_state *t, struct pending_monitor *p,
			  const struct print_meta *m, const struct wire_event *ev)
{
	flush_pending(w, t, p);
	p->open = true;
	p->start = m->ts_ns;
	p->object = ev->object;
	p->stack = jw_stack(w, ev);
	p->class = monitor_class(w, ev);
	p->timeout_ms = ev->u32;
	p->owner = JFR_NONE;
	if (p == &t->enter && ev->has_trailer && (ev->trailer.flags & WIRE_TF_MONITOR) && m->owner_tid)
		p->owner = jfr_pool_thread_named(&w->pools, t->pid, m->owner_tid, ev->trailer.owner_name.ptr,
						 ev->trailer.owner_name.len);
}

/* A contended entered, or a waited: with its enter or wait, the JDK's
 * event; without, ours. */
void jw_monitor_end(struct jfr_writer *w, struct thread_state *t, struct pending_monitor *p,
			const struct print_meta *m, const struct wire_event *ev)
{
	bool wait = p == &t->wait;
	bool timed_out = ev->has_trailer && (ev->trailer.flags & WIRE_TF_TIMED_OUT);
	struct jfr_buf *b = &w->chunk;
	size_t at;

	if (!p->open || p->object != ev->object || p->start > m->ts_ns) {
		struct pending_monitor alone = { .timeout_ms = ev->u32 };

		flush_pending(w, t, p);
		write_monitor_alone(w, t, wait ? JFR_E_WAITED : JFR_E_CONTENDED_ENTERED, m->ts_ns, jw_stack(w, ev),
				    monitor_class(w, ev), ev->object, &alone, timed_out);
		return;
	}
	jfr_pool_mark_stack(&w->pools, p->stack);
	jfr_pool_mark_class(&w->pools, p->class);
	jfr_pool_mark_thread(&w->pools, p->owner);
	at = jw_begin(w, wait ? JFR_E_MONITOR_WAIT : JFR_E_MONITOR_ENTER);
	jfr_put_varint(b, p->start);
	jfr_put_varint(b, m->ts_ns - p->start);
	jw_key(b, jfr_pool_thread(&w->pools, t->pid, t->tid));
	jw_key(b, p->stack);
	jw_key(b, p->class);
	jw_key(b, wait ? JFR_NONE : p->owner);   /* notifier / previousOwner */
	if (wait) {
		jfr_put_varint(b, p->timeout_ms);
		jw_bool(b, timed_out);
	}
	jfr_put_varint(b, p->object);
	jw_end(w, at, m->ts_ns);
	p->open = false;
}

/* ---- GC */
static void write_gc_alone(struct jfr_writer *w, unsigned type, uint64_t ts, uint32_t thread)
{
	size_t at = jw_begin(w, type);

	jfr_pool_mark_thread(&w->pools, thread);
	jfr_put_varint(&w->chunk, ts);
	jw_key(&w->chunk, thread);
	jw_end(w, at, ts);
}

void jw_gc(struct jfr_writer *w, struct jvm_state *j, uint32_t thread, const struct print_meta *m,
		     bool start)
{
	struct jfr_buf *b = &w->chunk;
	uint64_t d;
	size_t at;

	if (start || !j->gc_open || j->gc_start > m->ts_ns) {
		if (j->gc_open)
			write_gc_alone(w, JFR_E_GC_START, j->gc_start, j->gc_thread);
		j->gc_open = start;
		j->gc_start = m->ts_ns;
		j->gc_thread = thread;
		if (!start)
			write_gc_alone(w, JFR_E_GC_FINISH, m->ts_ns, thread);
		return;
	}
	d = m->ts_ns - j->gc_start;
	jfr_pool_mark_thread(&w->pools, j->gc_thread);
	at = jw_begin(w, JFR_E_GC);
	jfr_put_varint(b, j->gc_start);
	jfr_put_varint(b, d);
	jw_key(b, j->gc_thread);
	jfr_put_varint(b, j->gcs++);
	jw_key(b, JFR_NONE);      /* name: which collector, JVMTI does not say */
	jw_key(b, JFR_NONE);      /* cause */
	jfr_put_varint(b, d);      /* one stop-the-world pause: JVMTI's start to finish */
	jfr_put_varint(b, d);
	jw_end(w, at, m->ts_ns);
	j->gc_open = false;
}

/* ---- the end */
int jw_flush_waiting(struct jfr_writer *w)
{
	int rc = 0;

	for (uint32_t i = 0; i < w->nthreads && rc == 0; i++) {
		struct thread_state *t = &w->threads[i];

		write_unreturned(w, t, 0);
		flush_pending(w, t, &t->enter);
		flush_pending(w, t, &t->wait);
		rc = w->pools.error ? w->pools.error : w->chunk.error;
	}
	for (uint32_t i = 0; i < w->njvms && rc == 0; i++)
		if (w->jvms[i].gc_open)
			write_gc_alone(w, JFR_E_GC_START, w->jvms[i].gc_start, w->jvms[i].gc_thread);
	return rc ? rc : w->chunk.error;
}

void jw_free_waiting(struct jfr_writer *w)
{
	for (uint32_t i = 0; i < w->nthreads; i++) {
		free(w->threads[i].calls);
		jfr_buf_free(&w->threads[i].args);
	}
	free(w->threads);
	free(w->jvms);
	w->threads = NULL;
	w->jvms = NULL;
	w->nthreads = w->njvms = 0;
}
