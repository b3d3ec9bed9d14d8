/* sites.c: see sites.h. */
#include "sites.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "conn.h"

_Static_assert(AGENT_MAX_CONNS <= 16, "a site's match packs 16 connection bits per event");

struct site *_Atomic sites_chunks[SITE_CHUNKS];
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

	if (!atomic_load(&sites_chunks[chunk])) {
		pthread_mutex_lock(&chunk_lock);
		if (!atomic_load(&sites_chunks[chunk]))
			atomic_store(&sites_chunks[chunk], calloc(SITE_CHUNK, sizeof(struct site)));
		pthread_mutex_unlock(&chunk_lock);
		if (!atomic_load(&sites_chunks[chunk]))
			return -ENOMEM;
	}
	/* the site is in no class yet: nobody reads it before this store */
	atomic_store_explicit(&atomic_load(&sites_chunks[chunk])[id % SITE_CHUNK].e, e, memory_order_release);
	return (int32_t)id;
}

const struct mentry *sites_method(jint site)
{
	struct site *s = sites_site_of(site);

	return s ? atomic_load_explicit(&s->e, memory_order_acquire) : NULL;
}

int sites_match(jint site, struct mmatch *m)
{
	struct site *s = sites_site_of(site);

	if (!s)
		return -EINVAL;
	const struct mentry *e = atomic_load_explicit(&s->e, memory_order_acquire);
	if (!e)
		return -ENOENT;
	uint64_t gen = atomic_load(&conn_generation);
	uint64_t v = atomic_load_explicit(&s->match, memory_order_relaxed);
	if ((v & ~0xffffffffull) == sites_tag_of(gen)) {
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
		atomic_store_explicit(&s->match, sites_tag_of(gen) | (m->conns[MC_RETURN] & 0xffff) << 16 |
					      (m->conns[MC_ENTER] & 0xffff), memory_order_relaxed);
	return rc;
}
