/* emit.c: see emit.h. */
#include "emit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "clock.h"
#include "io.h"
#include "log.h"
#include "plainev.h"
#include "scratch.h"
#include "tbuf.h"

struct scratch *emission_begin(struct emission *em, bool java_thread)
{
	struct scratch *s;

	if (atomic_load(&agent.dying) || !(s = scratch_enter()))
		return NULL;
	memset(em, 0, sizeof(*em));
	em->scratch = s;
	em->ev = &s->ev;
	em->tid = (uint32_t)agent_gettid();
	em->ts = clock_raw();
	em->site = -1;
	/* the I/O thread reads the Acks: it must never wait for one */
	em->may_wait = java_thread && (int)em->tid != atomic_load(&agent.io_tid);
	return s;
}

bool emit_any_conn(void)
{
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (__atomic_load_n(&conns[i].active, __ATOMIC_RELAXED))
			return true;
	return false;
}

void emit_want(struct want *w, want_pred pred, const void *arg, bool ext_only)
{
	w->conns = 0;
	w->opt = 0;
	memset(&w->fire, 0, sizeof(w->fire));
	w->gen = atomic_load(&conn_generation);
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (!__atomic_load_n(&c->active, __ATOMIC_RELAXED))
			continue;
		pthread_mutex_lock(&c->lock);
		if (c->active && (!ext_only || conn_ext(c)) && pred(c, arg)) {
			w->conns |= 1u << i;
			w->opt |= c->opt;
		}
		pthread_mutex_unlock(&c->lock);
	}
}

static bool wants_family(const struct conn *c, const void *arg)
{
	return conn_wants_family(c, *(const enum event_family *)arg);
}

void emit_want_family(struct want *w, enum event_family f)
{
	emit_want(w, wants_family, &f, false);
}

/* Without the connections' locks: this runs once per method event, and emit()
 * takes the lock anyway and skips a connection that closed meanwhile (an
 * option read one registration late captures a value nobody is sent). */
void emit_want_opt(struct want *w)
{
	w->opt = 0;
	for (uint32_t m = w->conns; m; m &= m - 1)
		w->opt |= __atomic_load_n(&conns[__builtin_ctz(m)].opt, __ATOMIC_RELAXED);
}

/* Notices, rare, share one message under notice_lock (taken before any
 * connection's lock): a struct wire_event is ~19 KiB, never on a thread's
 * stack. */
static struct wire_event notice_ev;
static pthread_mutex_t notice_lock = PTHREAD_MUTEX_INITIALIZER;

static __attribute__((format(printf, 3, 0))) void
emit_notice_v(uint32_t want, const struct notice_about *about, const char *fmt, va_list ap)
{
	struct wire_event *ev = &notice_ev;
	static char text[600];
	bool queued = false;

	pthread_mutex_lock(&notice_lock);
	vsnprintf(text, sizeof(text), fmt, ap);
	sj_warn("%s", text);
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->code = WIRE_EV_NOTICE;
	ev->name.ptr = text;
	ev->name.len = (uint32_t)strlen(text);
	if (about) {
		/* a peer with CAP_NOTICE_SUBJECT gets what it is about (the
		 * encoder leaves it out for the others) */
		ev->notice_scope = about->scope;
		ev->kind = about->kind;
		ev->events = about->events;
		ev->method.ptr = about->subject;
		ev->method.len = about->subject ? (uint32_t)strlen(about->subject) : 0;
	}
	ev->has_trailer = true;
	ev->trailer.timestamp_ns = agent_now_ns();
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (!(want & (1u << i)))
			continue;
		pthread_mutex_lock(&c->lock);
		if (c->active && (c->peer.caps & WIRE_CAP_NOTICE))
			queued |= conn_queue_locked(c, ev) == 0;
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&notice_lock);
	if (queued)
		io_wake();
}

uint32_t emit_tell_once(uint64_t told[AGENT_MAX_CONNS], uint32_t want)
{
	uint32_t tell = 0;

	for (uint32_t w = want; w; w &= w - 1) {
		const unsigned i = (unsigned)__builtin_ctz(w);
		uint64_t gen = __atomic_load_n(&conns[i].opened_gen, __ATOMIC_RELAXED);
		uint64_t was = __atomic_load_n(&told[i], __ATOMIC_RELAXED);

		if (was != gen && __atomic_compare_exchange_n(&told[i], &was, gen, false, __ATOMIC_RELAXED,
							      __ATOMIC_RELAXED))
			tell |= 1u << i;
	}
	return tell;
}

void emit_notice(uint32_t want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_notice_v(want, NULL, fmt, ap);
	va_end(ap);
}

void emit_notice_about(uint32_t want, const struct notice_about *about, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_notice_v(want, about, fmt, ap);
	va_end(ap);
}

static void wait_for_ack(struct conn *c, unsigned serial, uint64_t seq, const struct timespec *start)
{
	bool first_timeout = false;

	pthread_mutex_lock(&c->lock);
	uint32_t us = c->timeout_us;
	struct timespec dl = *start;
	dl.tv_sec += us / 1000000;
	dl.tv_nsec += (long)(us % 1000000) * 1000;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	while (c->active && c->serial == serial && c->acked_seq < seq && !atomic_load(&agent.dying)) {
		if (pthread_cond_timedwait(&c->acked, &c->lock, &dl) == ETIMEDOUT) {
			if (c->acked_seq >= seq)
				break;
			first_timeout = c->sync_timeouts++ == 0;
			c->sync_stalled = true;
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	/* logged unlocked: a write that blocks must not hold c->lock, which the
	 * GC callbacks take at a safepoint */
	if (first_timeout)
		sj_warn("conn#%u: no Ack for event %llu within %u us; the Java thread goes on, and "
			"events go without waiting until the bridge catches up (later timeouts are only "
			"counted)", serial, (unsigned long long)seq, us);
}

/* The event as a connection with options OPT and capabilities CAPS is to
 * get it: its arguments, return value and stack as it asked. Returns the
 * trailer flags (without TF_SYNC). */
static uint8_t shape_for(const struct emission *em, struct wire_event *ev, uint32_t opt, uint32_t caps,
			 uint8_t all_args, const struct wire_value *ret)
{
	uint8_t flags = em->tflags;

	if (ev->code == WIRE_EV_METHOD_ENTER)
		ev->nvalues = em->args_captured && (opt & WIRE_OPT_ARGUMENTS) ? all_args : 0;
	if (ev->code == WIRE_EV_METHOD_ENTER && em->receiver_captured)
		ev->nvalues = (opt & WIRE_OPT_MONITOR) && (caps & WIRE_CAP_MONITOR_DETAIL) ? all_args : 0;
	if (ev->code == WIRE_EV_METHOD_EXIT) {
		/* a popped frame's value is its throwable, sent to everyone */
		ev->retval = *ret;
		if (!em->ret_captured || (!(opt & WIRE_OPT_RETURN_VALUE) && !ev->popped))
			ev->retval.type = WIRE_T_NONE;
	}
	if (em->stack_captured && (opt & WIRE_OPT_STACK) && (caps & WIRE_CAP_STACK))
		flags |= WIRE_TF_STACK;
	if (em->monitor_captured && (opt & WIRE_OPT_MONITOR) && (caps & WIRE_CAP_MONITOR_DETAIL))
		flags |= WIRE_TF_MONITOR;
	return flags;
}

struct thread_encoding {
	struct wire_peer peer;
	const struct wire_event *ev;
};

static int encode_for_thread_buffer(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at)
{
	struct thread_encoding *x = ctx;
	struct wire_buf b = { .data = buf, .cap = cap, .len = 0 };
	int rc = wire_encode_event_at(&b, &x->peer, x->ev, trailer_at);

	*len = b.len;
	return rc;
}

_Static_assert(PLAINEV_BYTES % 8 == 0 && PLAINEV_BYTES <= TBUF_SMALL_MAX, "a plain event is a small message");

/* One try: the message ENCODE makes from CTX, or with ENCODE NULL the
 * plain event CTX points to (struct plainev), as it is. */
static int put_once(struct tbuf *t, const struct tbuf_meta *meta, tbuf_encode_fn encode, void *ctx,
		    bool *filling)
{
	return encode ? tbuf_put(t, meta, encode, ctx, filling)
		      : tbuf_put_small(t, meta, ctx, PLAINEV_BYTES, filling);
}

/* Put one record into the thread's buffer T (put_once says what). A full
 * buffer is taken by the thread itself (the I/O thread is behind: the
 * connection's queue decides what is lost, as bufsize says), then the
 * record put again; only a record that still does not fit is dropped
 * (counted). */
static inline int put_in_thread_buffer(struct tbuf *t, const struct tbuf_meta *meta, tbuf_encode_fn encode,
				       void *ctx, bool *filling)
{
	int rc = put_once(t, meta, encode, ctx, filling);

	if (rc == -ENOSPC) {
		conn_take_own_buffer(t);
		rc = put_once(t, meta, encode, ctx, filling);
		if (rc == -ENOSPC)
			tbuf_drop(t, meta->slot, meta->serial);
		*filling = true;
	}
	return rc;
}

/* An asynchronous connection's event goes into the calling thread's own
 * buffer, without the connection's lock: the I/O thread numbers it and
 * stamps its time when it takes it (tbuf.h, conn_take_thread_buffers). The
 * connection's fields are read unlocked; one closed meanwhile is told by its
 * serial there. A full buffer is taken by the thread itself, then the event
 * put again; only an event larger than the buffer is dropped (counted). 1
 * queued, 0 not for C, -ENOSPC dropped, or another -errno. */
static int queue_async(struct emission *em, struct tbuf *t, unsigned i, uint8_t all_args,
		       const struct wire_value *ret, bool *filling)
{
	const struct conn *c = &conns[i];
	struct wire_event *ev = em->ev;
	struct thread_encoding x = { .ev = ev };

	if (!__atomic_load_n(&c->active, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&c->opened_gen, __ATOMIC_RELAXED) > em->want.gen)
		return 0;
	x.peer.caps = __atomic_load_n(&c->peer.caps, __ATOMIC_RELAXED);
	if (wire_event_is_extension(ev->code) && !(x.peer.caps & WIRE_CAP_EXT_EVENTS))
		return 0;
	uint32_t opt = __atomic_load_n(&c->opt, __ATOMIC_RELAXED);
	ev->trailer.flags = shape_for(em, ev, opt, x.peer.caps, all_args, ret);
	ev->trailer.seq = 0;                 /* both filled in by the I/O thread */
	ev->trailer.timestamp_ns = em->ts;
	/* an injected site's event by the site's number: the I/O thread gives
	 * it the connection's form (conn.c), so the name is never written here */
	const unsigned code = ev->code;
	const bool by_site = em->site >= 0 && (code == WIRE_EV_METHOD_ENTER || code == WIRE_EV_METHOD_EXIT);
	if (by_site) {
		ev->code = code == WIRE_EV_METHOD_ENTER ? WIRE_EV_METHOD_ENTER_ID_VALUES : WIRE_EV_METHOD_EXIT_ID_VALUE;
		ev->method_id = (uint32_t)em->site;
		x.peer.caps |= WIRE_CAP_METHOD_IDS | WIRE_CAP_METHOD_ID_VALUES;
	}
	const struct tbuf_meta meta = {
		.ts = em->ts, .serial = __atomic_load_n(&c->serial, __ATOMIC_RELAXED), .slot = (uint8_t)i,
		.form = by_site ? PLAINEV_BY_SITE : 0,
	};
	int rc = put_in_thread_buffer(t, &meta, encode_for_thread_buffer, &x, filling);
	ev->code = code;
	return rc == 0 ? 1 : rc;
}

void emit(struct emission *em)
{
	struct wire_event *ev = em->ev;
	const uint8_t all_args = ev->nvalues;
	const struct wire_value ret = ev->retval;
	const bool ext_code = wire_event_is_extension(ev->code);
	struct { struct conn *c; unsigned serial; uint64_t seq; } waits[AGENT_MAX_CONNS];
	size_t nwaits = 0;
	bool queued = false, filling = false;
	struct tbuf *t = NULL;

	if (atomic_load(&agent.dying) && ev->code != WIRE_EV_VM_DEATH)
		return;
	uint32_t in_thread = 0, queued_to = em->want.conns & ((1u << AGENT_MAX_CONNS) - 1);
	for (uint32_t m = queued_to; m; m &= m - 1) {
		const struct conn *c = &conns[__builtin_ctz(m)];
		if (__atomic_load_n(&c->in_thread, __ATOMIC_ACQUIRE) &&
		    __atomic_load_n(&c->active, __ATOMIC_RELAXED) &&
		    __atomic_load_n(&c->opened_gen, __ATOMIC_RELAXED) <= em->want.gen)
			in_thread |= m & -m;
	}
	if (in_thread) {
		inthread_fire(em, in_thread);
		/* VmDeath still ends the stream: the bridge tells a JVM's end from a dead agent by it */
		if (ev->code != WIRE_EV_VM_DEATH)
			queued_to &= ~in_thread;
		if (!queued_to)
			return;
	}
	ev->has_trailer = true;
	ev->trailer.os_tid = em->tid;
	/* the wanting connections only: usually one */
	for (uint32_t m = queued_to; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		struct conn *c = &conns[i];
		int rc;

		/* a synchronous connection's events all go through its lock, in
		 * the order its Acks follow; the others' through the thread's buffer */
		if (!__atomic_load_n(&c->sync, __ATOMIC_RELAXED) && (t || (t = tbuf_mine()))) {
			bool fill = false;
			rc = queue_async(em, t, i, all_args, &ret, &fill);
			queued |= rc > 0;
			filling |= fill;
			if (rc < 0 && rc != -ENOSPC)
				sj_debug("conn#%u: cannot encode %s: %s", c->serial, wire_event_name(ev->code),
					 strerror(-rc));
			continue;
		}
		pthread_mutex_lock(&c->lock);
		if (!c->active || c->opened_gen > em->want.gen || (ext_code && !conn_ext(c))) {
			pthread_mutex_unlock(&c->lock);
			continue;
		}
		uint8_t flags = shape_for(em, ev, c->opt, c->peer.caps, all_args, &ret);
		bool sync = em->may_wait && c->sync && !c->sync_stalled && (c->peer.caps & WIRE_CAP_SYNC);
		if (sync)
			flags |= WIRE_TF_SYNC;
		ev->trailer.flags = flags;
		ev->trailer.timestamp_ns = clock_to_ns(em->ts);
		rc = conn_queue_locked(c, ev);
		if (rc == 0) {
			queued = true;
			filling |= conn_queued(c) > c->out_cap / 4;
			if (sync) {
				c->last_sync_seq = c->seq;
				waits[nwaits++] = (typeof(waits[0])){ c, c->serial, c->seq };
			}
		}
		unsigned serial = c->serial;
		pthread_mutex_unlock(&c->lock);
		if (rc != 0 && rc != -ENOSPC && rc != -ESHUTDOWN)  /* logged unlocked, like every log line */
			sj_debug("conn#%u: cannot encode %s: %s", serial, wire_event_name(ev->code),
				 strerror(-rc));
	}
	ev->nvalues = all_args;
	ev->retval = ret;
	if (nwaits)
		io_wake_urgent();
	else if (filling)
		io_wake_filling();
	else if (queued)
		io_wake();
	if (nwaits) {
		struct timespec start;
		clock_gettime(CLOCK_MONOTONIC, &start);
		for (size_t i = 0; i < nwaits; i++)
			wait_for_ack(waits[i].c, waits[i].serial, waits[i].seq, &start);
	}
}

/* What connection I does with a plain event of fire set FIRE, made in
 * generation GEN, whose optional data OPT_NEEDED it must not want. */
enum plain_take { PLAIN_SKIP, PLAIN_TAKE, PLAIN_GENERAL };
static inline enum plain_take plain_take_of(unsigned i, const struct fire_set *fire, uint64_t gen,
					    uint32_t opt_needed, uint32_t *serial)
{
	const struct conn *c = &conns[i];

	if (!__atomic_load_n(&c->active, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&c->opened_gen, __ATOMIC_RELAXED) > gen)
		return PLAIN_SKIP;
	if (__atomic_load_n(&c->in_thread, __ATOMIC_RELAXED))
		return inthread_would_fire(fire, i, gen) ? PLAIN_GENERAL : PLAIN_SKIP;
	if (__atomic_load_n(&c->sync, __ATOMIC_RELAXED) ||
	    (__atomic_load_n(&c->opt, __ATOMIC_RELAXED) & opt_needed))
		return PLAIN_GENERAL;
	*serial = __atomic_load_n(&c->serial, __ATOMIC_RELAXED);
	return PLAIN_TAKE;
}

/* The plain record of SITE for connection I (SERIAL) into the thread's
 * buffer T at raw time TS: 0 queued, else as put_in_thread_buffer. */
static inline int put_plain(struct tbuf *t, uint64_t ts, unsigned i, uint32_t serial, unsigned code,
			    const struct plainev *p, bool *filling)
{
	const struct tbuf_meta meta = {
		.ts = ts, .serial = serial, .slot = (uint8_t)i, .form = plainev_form_of(code),
	};

	return put_in_thread_buffer(t, &meta, NULL, (void *)p, filling);
}

/* The start of a plain event's records: the thread's buffer *T, the
 * time *TS and the record *P. False when the general path must decide:
 * the thread's first event, or one made while another event of this
 * thread is (its capture called Java), as for any nested event. */
static inline bool plain_begin(int32_t site, struct tbuf **t, uint64_t *ts, struct plainev *p)
{
	if (!scratch_idle() || !(*t = tbuf_mine()))
		return false;
	*ts = clock_raw();
	*p = (struct plainev){ .site = site, .tid = (uint32_t)agent_gettid() };
	return true;
}

static inline void plain_wake(bool filling, bool queued)
{
	if (filling)
		io_wake_filling();
	else if (queued)
		io_wake();
}

/* emit_plain_method for two connections or more in WANTING */
static __attribute__((noinline)) bool plain_to_many(int32_t site, const struct fire_set *fire, unsigned code,
						    uint32_t wanting, uint64_t gen, uint32_t opt_needed)
{
	uint32_t to = 0, serial[AGENT_MAX_CONNS];
	struct tbuf *t;
	uint64_t ts;
	struct plainev p;
	bool queued = false, filling = false;

	/* every wanting connection can take the plain record, or the event takes
	 * the general path for all of them (never half of each) */
	for (uint32_t m = wanting; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		enum plain_take k = plain_take_of(i, fire, gen, opt_needed, &serial[i]);

		if (k == PLAIN_GENERAL)
			return false;
		if (k == PLAIN_TAKE)
			to |= 1u << i;
	}
	/* in-thread connections that nobody traces: nothing to make, no buffer */
	if (!to)
		return true;
	if (!plain_begin(site, &t, &ts, &p))
		return false;
	for (uint32_t m = to; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		bool fill = false;

		queued |= put_plain(t, ts, i, serial[i], code, &p, &fill) == 0;
		filling |= fill;
	}
	plain_wake(filling, queued);
	return true;
}

bool emit_plain_method(int32_t site, const struct fire_set *fire, unsigned code, uint32_t wanting,
		       uint64_t gen, uint32_t opt_needed)
{
	uint32_t serial;
	struct tbuf *t;
	uint64_t ts;
	struct plainev p;
	bool filling = false;

	if (atomic_load_explicit(&agent.dying, memory_order_relaxed))
		return true;
	wanting &= (1u << AGENT_MAX_CONNS) - 1;
	if (wanting & (wanting - 1))
		return plain_to_many(site, fire, code, wanting, gen, opt_needed);
	/* one connection, the common case (or none) */
	if (!wanting)
		return true;
	unsigned i = (unsigned)__builtin_ctz(wanting);
	enum plain_take k = plain_take_of(i, fire, gen, opt_needed, &serial);
	if (k != PLAIN_TAKE)
		return k == PLAIN_SKIP;
	if (!plain_begin(site, &t, &ts, &p))
		return false;
	int rc = put_plain(t, ts, i, serial, code, &p, &filling);
	plain_wake(filling, rc == 0);
	return true;
}
