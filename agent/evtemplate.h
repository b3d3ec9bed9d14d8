/* evtemplate.h: a connection's plain method events, kept encoded to be copied.
 *
 * Why: most method events carry nothing but the method, the thread and the
 * time (no arguments, return value or stack were asked for). A thread puts
 * such an event into its buffer as its site and thread only (plainev.h);
 * whoever takes it makes the message. Its encoded bytes depend only on the
 * injected site, the event code and the connection (its serial and
 * negotiated caps), but for the thread (in the body and the trailer) and
 * the trailer's seq and timestamp, which the taker writes into the copy: the
 * first one is encoded by the general encoder and kept here, the next ones
 * are copied.
 *
 * Contract: one table per connection (made at its open, used under its
 * lock) of EVTEMPLATE_SLOTS entries of at most EVTEMPLATE_BYTES bytes (a
 * longer message is never kept, so it is always encoded). evtemplate_find()
 * returns the entry only when every part of its key matches. Pure: no
 * JVMTI, no I/O.
 */
#ifndef STAPJAVA_AGENT_EVTEMPLATE_H
#define STAPJAVA_AGENT_EVTEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A wildcard over a package selects a hundred sites or more a request (the
 * real application's JDBC package: 110, spread over the package's sites).
 * Direct-mapped by site, a table of 256 entries left a third of those
 * sharing an entry with another, evicting each other at every request, and
 * their events all paid the general path; sets of 4 ways still overflowed
 * for a few. So: entries taken in turn from a pool of EVTEMPLATE_SLOTS and
 * found through an open-addressed index twice that size (short probes at
 * any fill); a pool that is full is emptied at once and filled again, so a
 * connection whose methods fit is never evicted. ~128 KiB a connection. */
#define EVTEMPLATE_SLOTS 512u
#define EVTEMPLATE_INDEX (2u * EVTEMPLATE_SLOTS)
#define EVTEMPLATE_BYTES 232u

struct evtemplate_key {
	int32_t site;        /* injected call site (sites.h) */
	uint8_t code;        /* WIRE_EV_METHOD_ENTER or WIRE_EV_METHOD_EXIT */
	uint8_t slot;        /* the connection's slot */
	uint32_t serial;     /* the connection's serial */
	uint32_t caps;       /* its negotiated caps: the trailer's layout */
	bool void_value;     /* an exit with the void value (plainev_event()) */
};

struct evtemplate {
	struct evtemplate_key key;
	uint16_t len;        /* bytes of the message */
	uint16_t thread_at;  /* where its thread (u64) is */
	uint16_t trailer_at; /* where its trailer starts, 0: none */
	uint8_t bytes[EVTEMPLATE_BYTES];
};

struct evtemplates {
	uint16_t index[EVTEMPLATE_INDEX];  /* 0: empty; else 1 + the entry's number */
	uint16_t used;                     /* entries of e[] taken */
	struct evtemplate e[EVTEMPLATE_SLOTS];
};

/* Every entry empty. */
void evtemplates_clear(struct evtemplates *t);

/* Where a key's search starts: by site and code only, so that a key
 * kept again with a new serial or caps is found where it was. */
static inline unsigned evtemplate_home(const struct evtemplate_key *k)
{
	return (((uint32_t)k->site * 2u + (k->code & 1u)) * 2654435761u) >> 22 & (EVTEMPLATE_INDEX - 1);
}

/* The entry for KEY, or NULL. */
static inline const struct evtemplate *evtemplate_find(const struct evtemplates *t,
							const struct evtemplate_key *k)
{
	for (unsigned h = evtemplate_home(k);; h = (h + 1) & (EVTEMPLATE_INDEX - 1)) {
		unsigned i = t->index[h];
		if (!i)
			return NULL;
		const struct evtemplate *e = &t->e[i - 1];
		if (e->key.site == k->site && e->key.code == k->code && e->key.slot == k->slot &&
		    e->key.serial == k->serial && e->key.caps == k->caps && e->key.void_value == k->void_value)
			return e;
	}
}

/* Keep MSG (LEN bytes, thread at THREAD_AT, trailer at TRAILER_AT, 0 for
 * none) for KEY: in the entry of its site, code and slot when there is one
 * (its serial or caps changed), else in the pool's next entry (the pool
 * emptied first when it is full). -EMSGSIZE when it is longer than
 * EVTEMPLATE_BYTES, -EINVAL for a key with no site, or a thread or trailer
 * outside the message. */
int evtemplate_keep(struct evtemplates *t, const struct evtemplate_key *k, const uint8_t *msg,
		    size_t len, size_t thread_at, size_t trailer_at);

#endif
