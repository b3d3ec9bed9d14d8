/* sites.c: see sites.h. */
#include "sites.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "conn.h"

#define SITE_CHUNK 4096u
#define SITE_CHUNKS (SITES_MAX / SITE_CHUNK)

struct site {
	_Atomic(const struct mentry *) e;
	/* (generation + 1, 32 bits) << 32 | return conns << 16 | enter conns:
	 * the method cache's answer for that generation */
	_Atomic uint64_t match;
};
_Static_assert(AGENT_MAX_CONNS <= 16, "a site's match packs 16 connection bits per event");

static struct site *_Atomic chunks[SITE_CHUNKS];
static atomic_uint next_site;
static pthread_mutex_t chunk_lock = PTHREAD_MUTEX_INITIALIZER;

int32_t sites_new(const struct mentry *e)
{
	unsigned id = atomic_load(&next_site);

	/* never past the last id: the counter must not wrap to ids in use */
	do {
		if (id / SITE_CHUNK >= SITE_CHUNKS)
			return -ENOSPC;
	} while (!atomic_compare_exchange_weak(&next_site, &id, id + 1));
	unsigned chunk = id / SITE_CHUNK;

	if (!atomic_load(&chunks[chunk])) {
		pthread_mutex_lock(&chunk_lock);
		if (!atomic_load(&chunks[chunk]))
			atomic_store(&chunks[chunk], calloc(SITE_CHUNK, sizeof(struct site)));
		pthread_mutex_unlock(&chunk_lock);
		if (!atomic_load(&chunks[chunk]))
			return -ENOMEM;
	}
	/* the site is in no class yet: nobody reads it before this store */
	atomic_store_explicit(&atomic_load(&chunks[chunk])[id % SITE_CHUNK].e, e, memory_order_release);
	return (int32_t)id;
}

static uint64_t tag_of(uint64_t gen)
{
	return ((gen + 1) & 0xffffffffu) << 32;
}

static struct site *site_of(jint site)
{
	if (site < 0 || (unsigned)site / SITE_CHUNK >= SITE_CHUNKS)
		return NULL;
	struct site *chunk = atomic_load(&chunks[(unsigned)site / SITE_CHUNK]);
	return chunk ? &chunk[(unsigned)site % SITE_CHUNK] : NULL;
}

const struct mentry *sites_method(jint site)
{
	struct site *s = site_of(site);

	return s ? atomic_load_explicit(&s->e, memory_order_acquire) : NULL;
}

int sites_conns(jint site, int ev, const struct mentry **e, uint32_t *wanting, uint64_t *gen)
{
	struct site *s = site_of(site);

	if (!s)
		return -EINVAL;
	if (!(*e = atomic_load_explicit(&s->e, memory_order_acquire)))
		return -ENOENT;
	*gen = atomic_load(&conn_generation);
	uint64_t v = atomic_load_explicit(&s->match, memory_order_relaxed);
	if ((v & ~0xffffffffull) != tag_of(*gen))
		return -EAGAIN;
	*wanting = (uint32_t)(v >> (ev == MC_RETURN ? 16 : 0) & 0xffff);
	return 0;
}

int sites_match(jint site, struct mmatch *m)
{
	struct site *s = site_of(site);

	if (!s)
		return -EINVAL;
	const struct mentry *e = atomic_load_explicit(&s->e, memory_order_acquire);
	if (!e)
		return -ENOENT;
	uint64_t gen = atomic_load(&conn_generation);
	uint64_t v = atomic_load_explicit(&s->match, memory_order_relaxed);
	if ((v & ~0xffffffffull) == tag_of(gen)) {
		memset(m, 0, sizeof(*m));
		m->e = e;
		m->conns[MC_ENTER] = (uint32_t)(v & 0xffff);
		m->conns[MC_RETURN] = (uint32_t)(v >> 16 & 0xffff);
		m->gen = gen;
		/* stored with the match of this generation or a later one (whose
		 * new ids inthread_fire() skips for this generation) */
		mcache_fire_sets(e, m);
		return 0;
	}
	int rc = mcache_match(e, m);
	if (rc == 0 && m->gen == gen)
		atomic_store_explicit(&s->match, tag_of(gen) | (m->conns[MC_RETURN] & 0xffff) << 16 |
					      (m->conns[MC_ENTER] & 0xffff), memory_order_relaxed);
	return rc;
}
