/* sites.h: the site ids of injected calls, and the method each stands for.
 *
 * Why: an injected call carries one int, its site (classfile.h); the Java
 * thread that makes it must find the method and who wants its events
 * without a lock shared with other threads (the design's event path).
 *
 * Contract: sites_new(E) hands out ids from 0, never reused (SITES_MAX for
 * a JVM's life; -ENOSPC when they run out, -ENOMEM), each bound to E, the
 * method it stands for (mcache_named(): known from the class being
 * rewritten, so a call never asks the VM which method it is in). Chunks of
 * sites are allocated once and never move or go away. sites_match() caches,
 * per registration generation, which connections want the site's
 * method.enter and method.return: a call reads that with two atomic loads
 * and takes the method cache's lock only once per generation. No JVMTI call.
 */
#ifndef STAPJAVA_AGENT_SITES_H
#define STAPJAVA_AGENT_SITES_H

#include <errno.h>
#include <jvmti.h>
#include <stdatomic.h>
#include <stdint.h>

#include "classfile.h"
#include "generation.h"
#include "mcache.h"

/* an exit's site has a lost count (classfile.h) */
#define SITES_MAX CLASSFILE_SITES_MAX

int32_t sites_new(const struct mentry *e);
/* Fill *M (e and conns[MC_ENTER], conns[MC_RETURN]) for SITE. 0 or -errno. */
int sites_match(jint site, struct mmatch *m);

/* The table's read side is inline: as a call, with its spills and its
 * return, an event's site lookup took 34 instructions, 11 inline
 * (callgrind, bench row 9i). Its fields are sites.c's. */
#define SITE_CHUNK 4096u
#define SITE_CHUNKS (SITES_MAX / SITE_CHUNK)
struct site {
	_Atomic(const struct mentry *) e;
	/* (generation + 1, 32 bits) << 32 | return conns << 16 | enter conns:
	 * the method cache's answer for that generation */
	_Atomic uint64_t match;
};
extern struct site *_Atomic sites_chunks[SITE_CHUNKS];

static inline uint64_t sites_tag_of(uint64_t gen)
{
	return ((gen + 1) & 0xffffffffu) << 32;
}

static inline struct site *sites_site_of(jint site)
{
	if (site < 0 || (unsigned)site / SITE_CHUNK >= SITE_CHUNKS)
		return NULL;
	struct site *chunk = atomic_load(&sites_chunks[(unsigned)site / SITE_CHUNK]);
	return chunk ? &chunk[(unsigned)site % SITE_CHUNK] : NULL;
}

/* The cheap half of sites_match() for event EV (MC_ENTER or MC_RETURN):
 * *E, the site's method, and *WANTING (a bit per connection) for SITE as the current generation's match cached it, *GEN that
 * generation. -EAGAIN when the cache does not have it (sites_match() then
 * matches again), -EINVAL / -ENOENT as sites_match(). */
static inline int sites_conns(jint site, int ev, const struct mentry **e, uint32_t *wanting, uint64_t *gen)
{
	struct site *s = sites_site_of(site);

	if (!s)
		return -EINVAL;
	if (!(*e = atomic_load_explicit(&s->e, memory_order_acquire)))
		return -ENOENT;
	*gen = atomic_load(&conn_generation);
	uint64_t v = atomic_load_explicit(&s->match, memory_order_relaxed);
	if ((v & ~0xffffffffull) != sites_tag_of(*gen))
		return -EAGAIN;
	*wanting = (uint32_t)(v >> (ev == MC_RETURN ? 16 : 0) & 0xffff);
	return 0;
}
/* The method SITE stands for, or NULL (no such site): for whoever takes a
 * plain event of it (plainev.h). */
const struct mentry *sites_method(jint site);

#endif
