/* inthread.c: see inthread.h. */
#include "inthread.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "clock.h"
#include "conn.h"
#include "emit.h"
#include "log.h"
#include "markers.h"
#include "scratch.h"

/* One fire id: which connection's slot it fires. gen is 0 while the id is
 * free; a Java thread reads gen first (acquire), the I/O thread writes it
 * last (release). probed_gen is gen once an event it selected found a
 * tracer on the slot's marker, unseen_gen once one found none before that
 * (generations, not flags: a thread late for an id given back and taken
 * again cannot mark the new owner's). A tracer that leaves (its script
 * ending before the session does) loses nothing the script wanted; one
 * that never came, every event. told_gen and what are under tell_lock. */
struct fire_id {
	uint8_t conn;
	uint16_t slot;
	uint64_t gen;
	uint64_t probed_gen;
	uint64_t unseen_gen;
	uint64_t told_gen;
	uint64_t said_gen;       /* a tracer's coming logged */
	char what[INTHREAD_WHAT_MAX];
};

static struct fire_id ids[INTHREAD_MAX_IDS];
/* the I/O thread's rounds and the VM's death callback both tell */
static pthread_mutex_t tell_lock = PTHREAD_MUTEX_INITIALIZER;
/* ids taken: a round with none looks at nothing (the I/O thread writes it) */
static unsigned ids_taken;

int inthread_id_take(unsigned conn, unsigned slot, const char *what)
{
	for (unsigned i = 0; i < INTHREAD_MAX_IDS; i++) {
		if (__atomic_load_n(&ids[i].gen, __ATOMIC_RELAXED))
			continue;
		ids[i].conn = (uint8_t)conn;
		ids[i].slot = (uint16_t)slot;
		pthread_mutex_lock(&tell_lock);
		snprintf(ids[i].what, sizeof ids[i].what, "%s", what);
		pthread_mutex_unlock(&tell_lock);
		/* newer than every match made so far: none of them fires it */
		__atomic_store_n(&ids[i].gen, atomic_fetch_add(&conn_generation, 1) + 1, __ATOMIC_RELEASE);
		__atomic_store_n(&ids_taken, ids_taken + 1, __ATOMIC_RELAXED);
		return (int)i;
	}
	return -ENOSPC;
}

void inthread_id_give(int id)
{
	if (id >= 0 && (unsigned)id < INTHREAD_MAX_IDS && __atomic_load_n(&ids[id].gen, __ATOMIC_RELAXED)) {
		__atomic_store_n(&ids[id].gen, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&ids_taken, ids_taken - 1, __ATOMIC_RELAXED);
	}
}

/* Is a tracer on F's marker now? Then F (of generation G) has seen one. */
static bool probed_now(struct fire_id *f, uint64_t g)
{
	if (!markers_slot_probed(f->slot))
		return false;
	if (__atomic_load_n(&f->probed_gen, __ATOMIC_RELAXED) != g)
		__atomic_store_n(&f->probed_gen, g, __ATOMIC_RELAXED);
	return true;
}

void inthread_tell_unseen(void)
{
	if (!__atomic_load_n(&ids_taken, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&tell_lock);
	for (unsigned i = 0; i < INTHREAD_MAX_IDS; i++) {
		struct fire_id *f = &ids[i];
		uint64_t g = __atomic_load_n(&f->gen, __ATOMIC_ACQUIRE);

		if (!g)
			continue;
		/* a tracer that came and left between two events (a slot whose
		 * method was not called while its script ran) was there all the same */
		probed_now(f, g);
		if (__atomic_load_n(&f->probed_gen, __ATOMIC_RELAXED) == g && f->said_gen != g) {
			f->said_gen = g;
			sj_info("in-thread: slot %u (%s): a tracer is on its marker", f->slot, f->what);
		}
		if (__atomic_load_n(&f->unseen_gen, __ATOMIC_ACQUIRE) != g || f->told_gen == g)
			continue;
		f->told_gen = g;
		emit_notice(1u << f->conn, "in-thread: slot %u (%s) selected an event before any tracer was on "
			    "the agent's slot%u marker in this JVM (its SDT semaphore was 0): that event was not "
			    "seen, nor are the slot's next ones until a tracer probes the marker",
			    f->slot, f->what, f->slot);
	}
	pthread_mutex_unlock(&tell_lock);
}

/* The event as the markers show it to every in-thread connection: the
 * optional data that was captured (in-thread sessions of one JVM share it). */
static void fill(const struct emission *em, struct marker_args *a)
{
	struct scratch *s = em->scratch;
	struct wire_event *ev = em->ev;
	const struct marker_meta meta = {
		.pid = (uint32_t)agent.pid, .tid = em->tid, .ts_ns = clock_to_ns(em->ts),
		.thread_name = em->thread_name, .thread_name_len = em->thread_name_len,
		.owner_tid = em->monitor_captured ? ev->trailer.owner_tid : 0,
	};
	const uint8_t nvalues = ev->nvalues;
	const uint8_t ret_type = ev->retval.type;
	char *buf = scratch_strings(s);

	ev->has_trailer = true;
	ev->trailer.flags = em->tflags | (em->stack_captured ? WIRE_TF_STACK : 0) |
			    (em->monitor_captured ? WIRE_TF_MONITOR : 0);
	if (!em->args_captured)
		ev->nvalues = 0;
	if (!em->ret_captured)
		ev->retval.type = WIRE_T_NONE;
	if (buf) {
		markers_fill_args(buf, SCRATCH_STRINGS, &meta, ev, a);
	} else {
		/* no memory for the thread's buffer: the numbers still go, and
		 * whatever string fits in this one (most are "") */
		static AGENT_TLS char small[128];
		markers_fill_args(small, sizeof(small), &meta, ev, a);
	}
	ev->nvalues = nvalues;
	ev->retval.type = ret_type;
}

/* The fire ids of SET that fire for connection CI in generation GEN. One
 * that would but for a tracer that never came is marked, once
 * (inthread_tell_unseen). */
static bool fires(struct fire_id *f, unsigned ci, uint64_t gen)
{
	uint64_t g = __atomic_load_n(&f->gen, __ATOMIC_ACQUIRE);

	if (!g || g > gen || f->conn != ci)
		return false;
	if (probed_now(f, g))
		return true;
	if (__atomic_load_n(&f->probed_gen, __ATOMIC_RELAXED) != g &&
	    __atomic_load_n(&f->unseen_gen, __ATOMIC_RELAXED) != g)
		__atomic_store_n(&f->unseen_gen, g, __ATOMIC_RELEASE);
	return false;
}

bool inthread_would_fire(const struct fire_set *set, unsigned conn, uint64_t gen)
{
	for (unsigned w = 0; w < INTHREAD_MAX_IDS / 64; w++)
		for (uint64_t bits = __atomic_load_n(&set->w[w], __ATOMIC_RELAXED); bits; bits &= bits - 1)
			if (fires(&ids[w * 64 + (unsigned)__builtin_ctzll(bits)], conn, gen))
				return true;
	return false;
}

/* A frame of its own, whatever the optimiser would do (the library is built
 * with LTO): a script's print_ubacktrace() in a Java probe shows it between
 * the marker's fire_slotN and the injected call (doc/markers.md). */
__attribute__((noinline)) void inthread_fire(const struct emission *em, uint32_t want)
{
	const unsigned code = em->ev->code;
	const struct event_desc *d = events_get(code);
	const bool family = d && events_fired_in_thread(d);
	struct marker_args a;
	bool filled = false;
	int64_t base = 0;

	/* a marker nobody probes is skipped before its strings are made: its
	 * semaphore is 0 (markers.h) */
	if (family ? !markers_family_probed(code) : fire_set_empty(&em->want.fire))
		return;
	for (uint32_t m = want; m; m &= m - 1) {
		unsigned ci = (unsigned)__builtin_ctz(m);
		int64_t session = (int64_t)__atomic_load_n(&conns[ci].session, __ATOMIC_RELAXED)
				  << MARKERS_SESSION_SHIFT;

		if (family) {
			if (!filled) {
				fill(em, &a);
				base = a.event;
				filled = true;
			}
			a.event = base | session;
			markers_fire_family(code, &a);
			continue;
		}
		for (unsigned w = 0; w < INTHREAD_MAX_IDS / 64; w++) {
			for (uint64_t bits = em->want.fire.w[w]; bits; bits &= bits - 1) {
				struct fire_id *f = &ids[w * 64 + (unsigned)__builtin_ctzll(bits)];

				if (!fires(f, ci, em->want.gen))
					continue;
				if (!filled) {
					fill(em, &a);
					base = a.event;
					filled = true;
				}
				a.event = base | session;
				markers_fire_slot(f->slot, &a);
			}
		}
	}
}

/* A JfrEvent's strings (four of at most WIRE_MAX_STRING bytes) with their
 * heads and NULs. */
#define JFR_MARKER_BYTES (4u * (WIRE_MAX_STRING + 1u) + 4u * (2u * WIRE_MAX_STRING + 4u))

void inthread_fire_jfr(unsigned conn, const struct wire_jfr_event *e)
{
	static char *buf;   /* I/O thread only */
	struct marker_args a;

	if (!markers_family_probed(WIRE_EV_JFR_DATA) || conn >= AGENT_MAX_CONNS)
		return;
	if (!buf && !(buf = malloc(JFR_MARKER_BYTES)))
		return;   /* the event is not shown, as when a tracer came too late */
	markers_fill_jfr(buf, JFR_MARKER_BYTES, (uint32_t)agent.pid,
			 __atomic_load_n(&conns[conn].session, __ATOMIC_RELAXED), e, &a);
	markers_fire_family(WIRE_EV_JFR_DATA, &a);
}
