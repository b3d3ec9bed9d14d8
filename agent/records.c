/* records.c: see records.h. */
#include "records.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct record {
	struct record *next;
	uint32_t loader_hash;
	size_t size;
	char *names;
	char sig[];
};

#define RECORD_BUCKETS 1024u
static struct record *buckets[RECORD_BUCKETS];
static size_t nrecords;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void record_names_add(struct record_names *rn, const char *name, size_t len, uint8_t flags)
{
	if (rn->cap - rn->size < len + 2) {
		size_t cap = rn->cap ? rn->cap * 2 : 1024;
		while (cap - rn->size < len + 2)
			cap *= 2;
		char *p = realloc(rn->buf, cap);
		if (!p) {
			rn->nomem = true;
			return;
		}
		rn->buf = p;
		rn->cap = cap;
	}
	memcpy(rn->buf + rn->size, name, len);
	rn->buf[rn->size + len] = '\0';
	rn->buf[rn->size + len + 1] = (char)flags;
	rn->size += len + 2;
	rn->n++;
}

void record_names_free(struct record_names *rn)
{
	free(rn->buf);
	memset(rn, 0, sizeof(*rn));
}

static unsigned bucket_of(const char *sig, uint32_t loader_hash)
{
	uint32_t h = 2166136261u ^ loader_hash;
	for (const char *p = sig; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return h % RECORD_BUCKETS;
}

/* Under lock. */
static struct record **find_locked(const char *sig, uint32_t loader_hash)
{
	struct record **r = &buckets[bucket_of(sig, loader_hash)];
	while (*r && ((*r)->loader_hash != loader_hash || strcmp((*r)->sig, sig) != 0))
		r = &(*r)->next;
	return r;
}

void records_set(const char *sig, uint32_t loader_hash, struct record_names *rn)
{
	pthread_mutex_lock(&lock);
	struct record **at = find_locked(sig, loader_hash), *old = *at;
	if (old) {
		*at = old->next;
		free(old->names);
		free(old);
		nrecords--;
	}
	struct record *r = rn->n ? malloc(sizeof(*r) + strlen(sig) + 1) : NULL;
	if (r) {
		r->loader_hash = loader_hash;
		r->names = rn->buf;
		r->size = rn->size;
		strcpy(r->sig, sig);
		at = &buckets[bucket_of(sig, loader_hash)];
		r->next = *at;
		*at = r;
		nrecords++;
		memset(rn, 0, sizeof(*rn));
	}
	pthread_mutex_unlock(&lock);
	record_names_free(rn);
}

int records_flags(const char *sig, uint32_t loader_hash, const char *name)
{
	int flags = -1;

	pthread_mutex_lock(&lock);
	struct record *r = *find_locked(sig, loader_hash);
	if (r) {
		flags = 0;
		for (size_t off = 0; off < r->size;) {
			size_t n = strlen(r->names + off);
			if (strcmp(r->names + off, name) == 0) {
				flags = (uint8_t)r->names[off + n + 1];
				break;
			}
			off += n + 2;
		}
	}
	pthread_mutex_unlock(&lock);
	return flags;
}

size_t records_count(void)
{
	pthread_mutex_lock(&lock);
	size_t n = nrecords;
	pthread_mutex_unlock(&lock);
	return n;
}

void records_clear(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned b = 0; b < RECORD_BUCKETS; b++)
		while (buckets[b]) {
			struct record *r = buckets[b];
			buckets[b] = r->next;
			free(r->names);
			free(r);
		}
	nrecords = 0;
	pthread_mutex_unlock(&lock);
}
