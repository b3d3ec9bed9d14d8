/* emit.h: delivering one event to the connections that want it.
 *
 * Contract: a callback first asks which connections want an event
 * (emit_want*), captures optional data only if one of them asked for it,
 * then calls emit(). emit() encodes the event once per connection (each has
 * its own negotiated form and options), without any JNI/JVMTI call:
 * - an asynchronous connection's copy goes into the calling thread's own
 *   buffer (tbuf.h), with no lock shared with another thread and no system
 *   call while the I/O thread is awake; the I/O thread numbers the events of
 *   all threads in timestamp order as it takes them;
 * - a synchronous connection's copy goes into the connection's buffer under
 *   its lock, and a Java thread then waits for the Acks, never longer than
 *   the agent's timeout_us in total;
 * - an in-thread connection is not sent the event: its markers fire here, in
 *   the calling thread (inthread.h), without its lock.
 * A full buffer drops the event and counts it (the total reaches the peer
 * as a Lost event). Never allocates (but a thread's first event makes its
 * buffer, and its first in-thread event its string buffer).
 */
#ifndef STAPJAVA_AGENT_EMIT_H
#define STAPJAVA_AGENT_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "conn.h"
#include "inthread.h"
#include "wire.h"

struct want {
	uint32_t conns;   /* bit i: conns[i] wants the event */
	uint32_t opt;     /* union of their WIRE_OPT_* masks */
	uint64_t gen;     /* conn_generation when computed */
	struct fire_set fire;  /* the in-thread slots it selects (inthread.h) */
};

/* Which connections want an event: PRED is called under each active
 * connection's lock. Extension-only events pass ext_only so Appendix-only
 * peers are skipped. */
typedef bool (*want_pred)(const struct conn *c, const void *arg);
void emit_want(struct want *w, want_pred pred, const void *arg, bool ext_only);
/* Which connections want the events of family F (events.h): switched on,
 * and an extension peer where the family needs one. */
void emit_want_family(struct want *w, enum event_family f);
/* The opt union of the connections in W->conns (method events, whose conns come from the cache). */
void emit_want_opt(struct want *w);
/* Cheap check before doing any work: is any connection open at all? */
bool emit_any_conn(void);

struct scratch;

struct emission {
	struct scratch *scratch; /* the calling thread's */
	struct wire_event *ev;  /* body (in the scratch); for MethodEnter ev->nvalues arguments when captured */
	struct want want;
	bool args_captured;     /* MethodEnter: ev->values hold the arguments */
	bool receiver_captured; /* MethodEnter of Object.notify/notifyAll: ev->values[0] is the
				 * receiver, sent with OPT_MONITOR (PROTOCOL.md) */
	bool ret_captured;      /* MethodExit: ev->retval holds the return value */
	bool stack_captured;    /* ev->trailer.depth / frames hold the stack */
	bool monitor_captured;  /* ev->trailer's monitor_class, owner_* hold the monitor's detail */
	uint8_t tflags;         /* WIRE_TF_TIMED_OUT */
	bool may_wait;          /* the calling thread may wait for an Ack (a Java thread, not GC) */
	uint32_t tid;           /* OS tid of the event's thread, 0 for none */
	uint8_t depth;          /* frames of ours above the event's frame (an injected call: 1) */
	uint64_t ts;            /* raw (clock.h): clock_to_ns() makes it CLOCK_MONOTONIC ns */
	int32_t site;           /* the injected call's site (sites.h), -1 none: its method event
				 * goes into a thread's buffer by the site's number, not its
				 * name (plainev.h, PLAINEV_BY_SITE) */
	const char *thread_name; /* ThreadStart/End: the name, for in-thread markers */
	size_t thread_name_len;
};

/* An event begins (a callback's, or an injected call's on the general
 * path): the calling thread's scratch, entered, and EM made for it (a Java
 * thread may wait for an Ack; the I/O thread and GC threads never do); NULL,
 * with nothing entered, while the VM is dying or when the thread is already
 * inside one of our callbacks. The caller leaves the scratch
 * (scratch_leave()). GC-safe: no JNI or JVMTI. */
struct scratch *emission_begin(struct emission *em, bool java_thread);

void emit(struct emission *em);

/* The common method event at injected SITE, without an emission: CODE
 * (WIRE_EV_METHOD_ENTER or _EXIT) for the connections in WANTING (as
 * sites_conns() gave them for generation GEN), when every one of them is
 * asynchronous and asked for none of the optional data in OPT_NEEDED; an
 * in-thread one is skipped when no tracer is on its markers of the event's
 * fire set FIRE (inthread_fire() would fire nothing for it). It goes into
 * the thread's buffer as its site and thread only, made into its message
 * where it is taken (plainev.h). True when it is done (queued, or nobody
 * wants it any more); false when the caller must take the general path
 * (emit()): the thread's first event, or one nested in another. No lock,
 * no system call while the I/O thread is awake. */
bool emit_plain_method(int32_t site, const struct fire_set *fire, unsigned code, uint32_t wanting,
		       uint64_t gen, uint32_t opt_needed);

/* Tell the connections in CONNS (extension peers only) what the agent cannot
 * do for them (a Notice, PROTOCOL.md): one sentence, logged here too. Not
 * from a GC callback (formats a string, takes the connections' locks). */
void emit_notice(uint32_t conns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What a Notice says cannot be reported (PROTOCOL.md, CAP_NOTICE_SUBJECT),
 * so that a bridge can tell which of its patterns it concerns without
 * reading the sentence: SCOPE (enum wire_notice_scope), the KIND's EVENTS
 * (enum wire_event_bits), SUBJECT the method's wire name or the class's
 * dotted name (NULL for a kind). */
struct notice_about {
	uint8_t scope;
	uint8_t kind;
	uint8_t events;
	const char *subject;
};

/* emit_notice(), saying what it is about to a peer that can read it. */
void emit_notice_about(uint32_t conns, const struct notice_about *about, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Of the connections in WANT, those that TOLD (one word per connection
 * slot, zero at first) says were not told yet, now marked told: a thing
 * said once per connection. A connection opened later in the same slot is
 * told again (its opened_gen differs). Lock-free: of two threads that tell
 * at once, one gets each connection. */
uint32_t emit_tell_once(uint64_t told[AGENT_MAX_CONNS], uint32_t want);

#endif
