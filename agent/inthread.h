/* inthread.h: in-thread dispatch -- the agent fires a connection's SDT
 * markers itself, in the thread that reports the event, at the event.
 *
 * Contract: a connection that sent FireInThread (PROTOCOL.md) is not sent
 * its events (but VmDeath, which ends its stream): emit() hands them here.
 * Each of its RegisterSlot registrations holds a fire id, an index below
 * INTHREAD_MAX_IDS shared by all connections (two sessions may both use
 * slot 0): the method cache and the class and exception callbacks collect
 * the ids an event selects in a fire_set, and inthread_fire() fires each
 * id's slot marker, and the family marker of a family event, with the
 * connection's session in $arg1 (so a session's handlers skip the others').
 * Ids are taken and given back by the I/O thread only; an id taken again
 * carries a newer generation, so a match made before is never fired for its
 * new owner. The firing path takes no lock, makes no system call and
 * allocates only each thread's string buffer, once (scratch.h).
 */
#ifndef STAPJAVA_AGENT_INTHREAD_H
#define STAPJAVA_AGENT_INTHREAD_H

#include <stdbool.h>
#include <stdint.h>

#define INTHREAD_MAX_IDS 256u

struct fire_set {
	uint64_t w[INTHREAD_MAX_IDS / 64];
};

static inline void fire_set_add(struct fire_set *s, unsigned id)
{
	s->w[id / 64] |= 1ull << (id % 64);
}

static inline bool fire_set_empty(const struct fire_set *s)
{
	for (unsigned i = 0; i < INTHREAD_MAX_IDS / 64; i++)
		if (s->w[i])
			return false;
	return true;
}

/* The registration of a fire id, as messages name it (longer is cut). */
#define INTHREAD_WHAT_MAX 120u

/* I/O thread: a fire id for slot SLOT of the connection at index CONN,
 * whose registration WHAT says ("method 0x1 \"C.m\""), or -ENOSPC when
 * every id is taken. */
int inthread_id_take(unsigned conn, unsigned slot, const char *what);
/* I/O thread: ID (>= 0) is free again. */
void inthread_id_give(int id);
/* An id whose slot selected an event before any tracer was on the slot's
 * marker (its SDT semaphore 0: stap had not put its uprobes in this JVM's
 * copy of the library) lost that event: its connection is told, by a
 * Notice, once per registration. (Events after a tracer has left are not:
 * its script has ended; this sees a tracer's semaphore too, between events,
 * and logs its coming once per registration.) The I/O thread calls it every
 * round (nothing while no id is taken; else a look at each id), the VM's
 * death callback before VmDeath ends the streams. */
void inthread_tell_unseen(void);

struct emission;
/* Fire EM's markers for the in-thread connections in CONNS (bit i:
 * conns[i]). */
void inthread_fire(const struct emission *em, uint32_t conns);
/* Would inthread_fire() fire any marker of connection CONN for an event
 * whose fire set is SET, selected in generation GEN? (A tracer on one of
 * its slots: the SDT semaphores.) False lets a method event skip the
 * connection before anything is made for it. */
bool inthread_would_fire(const struct fire_set *set, unsigned conn, uint64_t gen);

/* I/O thread: fire the jfr marker for a JfrEvent E of connection CONN,
 * with its session (PROTOCOL.md, JfrEvent): the agent's own thread fires
 * it, not a Java thread, with the bridge's jfr marker's arguments. Its
 * strings go into a buffer of the I/O thread's, made at the first. */
struct wire_jfr_event;
void inthread_fire_jfr(unsigned conn, const struct wire_jfr_event *e);

#endif
