/* conn.h: the connections (one per bridge) and what each has registered.
 *
 * Contract: a fixed table of AGENT_MAX_CONNS slots that is never freed, so a
 * JVMTI callback can always take a slot's lock. Everything a callback reads
 * (active, peer, switches, out buffer, seq/ack) is under that lock, and
 * nobody calls JNI or JVMTI while holding it (GC callbacks take it). The
 * registrations are a regset (regset.h), matched under its own read lock
 * and never under the connection's: a burst of registrations being applied
 * or matched does not hold up the connection's events. Only the I/O thread
 * opens, closes and changes registrations; each such change bumps
 * conn_generation, which invalidates cached match results.
 */
#ifndef STAPJAVA_AGENT_CONN_H
#define STAPJAVA_AGENT_CONN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "events.h"
#include "evtemplate.h"
#include "generation.h"
#include "inthread.h"
#include "regset.h"
#include "wire.h"

#define AGENT_MAX_CONNS 16

struct conn {
	pthread_mutex_t lock;
	pthread_cond_t acked;    /* signalled on Ack and on close */
	/* What every event reads, without the lock: on a line of its own,
	 * which nothing writes while events flow (a field that the I/O thread
	 * writes at every flush beside them cost each event a cache miss). */
	bool active __attribute__((aligned(64)));
	uint64_t opened_gen;     /* conn_generation when this connection was opened */
	unsigned serial;         /* "conn#N" in logs */
	struct wire_peer peer;
	uint32_t opt;            /* WIRE_OPT_*; written under lock with __atomic_store_n, read without it */
	bool sync;
	/* FireInThread: its markers fire in the event's thread (inthread.h);
	 * written under lock with __atomic_store_n, read without it */
	bool in_thread;
	pid_t peer_pid __attribute__((aligned(64)));
	uid_t peer_uid;
	bool first_seen;         /* a first command arrived (Hello or Appendix B) */
	/* I/O thread only: when the connection was accepted, and when the last
	 * read left a message unfinished (0: none), in ms (io.c's stall deadlines) */
	uint64_t accepted_ms, partial_since_ms;
	bool started;            /* Start received: the peer's registrations are complete */
	/* I/O thread only: the bridge's Appendix B commands for an Appendix-only
	 * agent, which an agent that negotiated WIRE_CAP_EARLY_APPENDIX ignores */
	struct wire_early_window early;
	/* registrations and switches */
	struct regset regs;
	uint8_t ev_bits[4];      /* per wire_kind: union of the published registrations' events */
	event_family_set families; /* EVENT_FAMILY_BIT()s switched on (events.h) */
	uint32_t timeout_us;
	uint32_t session;        /* FireInThread's */
	/* A wait timed out: a stalled bridge must not make every event wait the
	 * whole timeout, so events go without TF_SYNC until the peer has acked
	 * the last synchronous one (last_sync_seq). */
	bool sync_stalled;
	uint64_t last_sync_seq;
	/* outgoing events: out[out_head, out_len) is queued. Threads append at
	 * out_len under the lock; the I/O thread sends from out_head without
	 * it (nothing before out_len moves meanwhile) and, under it, moves the
	 * rest to the front only when out_head has passed a quarter of the
	 * buffer: a memmove at every flush made each event's bytes a line the
	 * I/O thread's core had written. A full tail is moved to the front by
	 * the appending thread itself unless a send is under way (sending). */
	uint8_t *out;
	size_t out_head, out_len, out_cap;
	bool sending;
	/* the I/O thread's last flush stopped at EAGAIN with bytes left: the
	 * peer reads nothing now (I/O thread only) */
	bool out_blocked;
	uint64_t seq, acked_seq;
	uint64_t dropped, lost_sent;
	uint64_t unreported;     /* of dropped: exits whose report found no stack (overflow.h) */
	uint64_t sync_timeouts;
	/* the plain method events taken for it (evtemplate.h), made empty at
	 * its open; NULL without memory (each is encoded then) */
	struct evtemplates *plain;
	/* CAP_METHOD_IDS: bit N, site N was named to this connection (a
	 * MethodName queued); made empty at its open, never freed */
	uint64_t *named;
	uint32_t named_words;
	/* I/O thread only */
	int fd;
	struct wire_reader rd;
	bool want_flush_close;
	bool ended;              /* VmDeath is queued: nothing follows it (PROTOCOL.md) */
};

extern struct conn conns[AGENT_MAX_CONNS];

/* Under c->lock: append EV to C's queue. 0, -ENOSPC (full: nothing
 * written), -EINVAL (EV breaks a limit). */
int conn_append_locked(struct conn *c, const struct wire_event *ev);
/* Under c->lock: queue EV as C's next event (its sequence number; VmDeath
 * ends the stream), after the Lost C owes its peer if events were dropped
 * since the last one. 0, -ENOSPC (the queue is full: EV is dropped and
 * counted, the total goes out in the next Lost), -ESHUTDOWN (after VmDeath),
 * -EINVAL (EV breaks a limit). */
int conn_queue_locked(struct conn *c, struct wire_event *ev);
/* Under c->lock: queue a Lost if drops were not reported yet (extension
 * peers), as the I/O thread does once there is room again. */
void conn_queue_lost_locked(struct conn *c);
/* Under c->lock, no send under way: move the queued bytes to the front. */
void conn_compact_locked(struct conn *c);
/* Under c->lock: the bytes queued. */
static inline size_t conn_queued(const struct conn *c)
{
	return c->out_len - c->out_head;
}
/* N more events lost for each active connection in CONNS (a bit per slot)
 * that were never queued: exits whose report found no stack (overflow.h).
 * The next Lost says them. Takes each connection's lock. */
void conn_count_unreported(uint32_t conns, uint64_t n);
/* Under c->lock: the events dropped that no Lost has told the peer of yet. */
static inline uint64_t conn_lost_unsaid(const struct conn *c)
{
	return c->dropped - c->lost_sent;
}
/* I/O thread: take what the threads' own buffers hold (tbuf.h), in timestamp
 * order, into the connections' queues, numbered and stamped; the drops they
 * counted become the connections' Lost. Returns the events taken. */
size_t conn_take_thread_buffers(void);
/* A thread whose own buffer T is full: take its events into the
 * connections' queues now, as the I/O thread would (its order; not merged
 * with other threads'), so a burst is lost only where a connection's own
 * queue (bufsize) is full. */
struct tbuf;
size_t conn_take_own_buffer(struct tbuf *t);

void conn_table_init(void);
/* I/O thread: take a free slot for FD; NULL when all are in use. */
struct conn *conn_open(int fd, pid_t pid, uid_t uid, size_t bufsize);
/* I/O thread: close C, drop its registrations, wake its waiters. */
void conn_close(struct conn *c, const char *why);
/* The serial of the newest connection opened (any thread): a slot whose
 * serial is larger was opened after this was read. */
unsigned conn_serial_newest(void);

/* I/O thread, after a batch of registration changes (c->regs): publish
 * them, and bump conn_generation. 0, or -ENOMEM (the registrations before
 * the batch stay). */
int conn_publish_regs(struct conn *c);

/* What the connections' registrations of KIND (class or exception) say of
 * class SIG for event BIT, found without any connection's lock before
 * emit_want() asks (its predicate, conn_class_wanted, only reads it). */
struct class_wants {
	uint32_t conns;                       /* bit i: conns[i] wants it */
	unsigned serial[AGENT_MAX_CONNS];     /* ... while it is this connection */
	struct fire_set fire[AGENT_MAX_CONNS];
	struct fire_set *into;                /* the want's fire ids (emit.h) */
};
void conns_match_class(struct class_wants *cw, uint8_t kind, uint8_t bit, const char *sig, size_t len,
		       struct fire_set *into);
/* emit_want()'s predicate for a class_wants (ARG). */
bool conn_class_wanted(const struct conn *c, const void *arg);

/* Might some connection's method registration for one of EVENTS select a
 * method of the class with JVMTI signature SIG? (No connection's lock.) */
bool conns_want_method_class(const char *sig, uint8_t events);
/* The method events (WIRE_METHOD_*) some connection wants of the method
 * with wire name NAME; with WANT, per event bit i (enter, return, compile)
 * the connections that want it (bit j: conns[j]), and with FIRE the fire
 * ids of the slots that select it. (No connection's lock.) */
uint8_t conns_method_events(const char *name, size_t len, uint32_t want[3], struct fire_set fire[3]);

static inline bool conn_ext(const struct conn *c)
{
	return c->peer.caps & WIRE_CAP_EXT_EVENTS;
}

/* Under c->lock: is family F switched on for C, and may C be sent its
 * events (an extension-only family needs an extension peer)? */
static inline bool conn_wants_family(const struct conn *c, enum event_family f)
{
	const struct family_desc *d = events_family(f);

	return d && (c->families & EVENT_FAMILY_BIT(f)) && (!d->ext_only || conn_ext(c));
}

#endif
