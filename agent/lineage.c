/* lineage.c: see lineage.h. A chained hash table of names. */
#include "lineage.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 8192u
/* a walk longer than this is a cycle (two loaders' classes of one name) */
#define MAX_DEPTH 512

struct rec {
	struct rec *next;
	char *super;              /* into the same allocation */
	size_t clen, slen;
	char cls[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rec *table[BUCKETS];
static atomic_bool wanted;

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h % BUCKETS;
}

static struct rec *find(const char *cls, size_t clen)
{
	for (struct rec *r = table[hash(cls, clen)]; r; r = r->next)
		if (r->clen == clen && memcmp(r->cls, cls, clen) == 0)
			return r;
	return NULL;
}

int lineage_note(const char *cls, size_t clen, const char *super, size_t slen)
{
	int rc = 1;

	pthread_mutex_lock(&lock);
	if (!find(cls, clen)) {
		struct rec *r = malloc(sizeof *r + clen + slen + 2);
		rc = -ENOMEM;
		if (r) {
			memcpy(r->cls, cls, clen);
			r->cls[clen] = '\0';
			r->super = r->cls + clen + 1;
			memcpy(r->super, super, slen);
			r->super[slen] = '\0';
			r->clen = clen;
			r->slen = slen;
			uint32_t h = hash(cls, clen);
			r->next = table[h];
			table[h] = r;
			rc = 0;
		}
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

bool lineage_known(const char *cls, size_t clen)
{
	pthread_mutex_lock(&lock);
	bool known = find(cls, clen) != NULL;
	pthread_mutex_unlock(&lock);
	return known;
}

bool lineage_descends(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen)
{
	bool yes = false;
	const struct rec *r;

	(void)ctx;
	pthread_mutex_lock(&lock);
	for (int depth = 0; depth < MAX_DEPTH && (r = find(cls, clen)); depth++) {
		if (r->slen == rlen && memcmp(r->super, root, rlen) == 0) {
			yes = true;
			break;
		}
		cls = r->super;
		clen = r->slen;
	}
	pthread_mutex_unlock(&lock);
	return yes;
}

void lineage_want(bool on)
{
	atomic_store(&wanted, on);
}

bool lineage_wanted(void)
{
	return atomic_load(&wanted);
}

void lineage_clear(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < BUCKETS; i++)
		while (table[i]) {
			struct rec *r = table[i];
			table[i] = r->next;
			free(r);
		}
	pthread_mutex_unlock(&lock);
}
