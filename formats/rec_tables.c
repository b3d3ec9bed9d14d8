/* rec_tables.c: see rec_tables.h. */
#include "rec_tables.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Eight bytes a step: the method names hashed per event are ~60 bytes,
 * where a byte-at-a-time hash would cost more than the rest of the event. */
static uint64_t hash_bytes(const char *s, size_t len)
{
	const uint64_t k = 0x9E3779B97F4A7C15ull;
	uint64_t h = len * k, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	if (len) {
		w = 0;
		memcpy(&w, s, len);
		h = (h ^ w) * k;
	}
	h ^= h >> 32;
	h *= k;
	return h ^ (h >> 29);
}

static uint64_t hash_pair(uint64_t a, uint64_t b)
{
	uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b + 0x632BE59BD9B4E019ull);

	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	return h ^ (h >> 29);
}

int rec_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * size)))
		return -ENOMEM;
	memset((char *)q + *cap * size, 0, (n - *cap) * size);
	*p = q;
	*cap = n;
	return 0;
}

/* ---------------------------------------------------------------- strings */
static bool str_equal(const struct rec_strmap *m, uint32_t i, uint64_t hash, const char *s, size_t len)
{
	const struct rec_strent *e = &m->ents[i];

	return e->hash == hash && e->len == len && memcmp(m->bytes + e->off, s, len) == 0;
}

static int str_lookup(const struct rec_strmap *m, uint64_t hash, const char *s, size_t len,
		      uint32_t *index, uint32_t *slot)
{
	if (!m->slots)
		return -ENOENT;
	for (uint32_t at = (uint32_t)hash & m->mask;; at = (at + 1) & m->mask) {
		uint32_t v = m->slots[at];

		if (v == 0) {
			*slot = at;
			return -ENOENT;
		}
		if (str_equal(m, v - 1, hash, s, len)) {
			*index = v - 1;
			return 0;
		}
	}
}

int rec_strmap_find(const struct rec_strmap *m, const char *s, size_t len, uint32_t *index)
{
	uint32_t slot;

	return str_lookup(m, hash_bytes(s, len), s, len, index, &slot);
}

static int str_grow_slots(struct rec_strmap *m)
{
	uint32_t nslots = m->slots ? 2 * (m->mask + 1) : 64;
	uint32_t *slots = calloc(nslots, sizeof *slots);

	if (!slots)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->n; i++) {
		uint32_t at = (uint32_t)m->ents[i].hash & (nslots - 1);

		while (slots[at])
			at = (at + 1) & (nslots - 1);
		slots[at] = i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->mask = nslots - 1;
	return 0;
}

int rec_strmap_intern(struct rec_strmap *m, const char *s, size_t len, uint32_t *index)
{
	uint64_t hash = hash_bytes(s, len);
	uint32_t slot;

	if (str_lookup(m, hash, s, len, index, &slot) == 0)
		return 0;
	if (len > UINT32_MAX || m->n >= UINT32_MAX - 1)
		return -E2BIG;
	if (!m->slots || (uint64_t)(m->n + 1) * 4 > (uint64_t)(m->mask + 1) * 3) {
		if (str_grow_slots(m) < 0)
			return -ENOMEM;
		str_lookup(m, hash, s, len, index, &slot);
	}
	if (rec_grow((void **)&m->ents, &m->cap, (size_t)m->n + 1, sizeof *m->ents) < 0 ||
	    rec_grow((void **)&m->bytes, &m->bytecap, m->nbytes + len, 1) < 0)
		return -ENOMEM;
	if (len)
		memcpy(m->bytes + m->nbytes, s, len);
	m->ents[m->n] = (struct rec_strent){ hash, m->nbytes, (uint32_t)len };
	m->nbytes += len;
	m->slots[slot] = m->n + 1;
	*index = m->n++;
	return 1;
}

const char *rec_strmap_str(const struct rec_strmap *m, uint32_t index, uint32_t *len)
{
	*len = m->ents[index].len;
	return m->bytes + m->ents[index].off;
}

void rec_strmap_free(struct rec_strmap *m)
{
	free(m->slots);
	free(m->ents);
	free(m->bytes);
	memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- pairs */
static struct rec_pairent *pair_slot(const struct rec_pairmap *m, uint64_t a, uint64_t b)
{
	for (uint32_t at = (uint32_t)hash_pair(a, b) & m->mask;; at = (at + 1) & m->mask) {
		struct rec_pairent *e = &m->slots[at];

		if (!e->used || (e->a == a && e->b == b))
			return e;
	}
}

int rec_pairmap_get(const struct rec_pairmap *m, uint64_t a, uint64_t b, uint32_t *value)
{
	const struct rec_pairent *e;

	if (!m->slots)
		return -ENOENT;
	e = pair_slot(m, a, b);
	if (!e->used)
		return -ENOENT;
	*value = e->value;
	return 0;
}

static int pair_grow(struct rec_pairmap *m)
{
	struct rec_pairmap bigger = { NULL, m->slots ? 2 * m->mask + 1 : 63, 0 };

	if (!(bigger.slots = calloc((size_t)bigger.mask + 1, sizeof *bigger.slots)))
		return -ENOMEM;
	for (uint32_t i = 0; m->slots && i <= m->mask; i++)
		if (m->slots[i].used)
			*pair_slot(&bigger, m->slots[i].a, m->slots[i].b) = m->slots[i];
	bigger.n = m->n;
	free(m->slots);
	*m = bigger;
	return 0;
}

int rec_pairmap_put(struct rec_pairmap *m, uint64_t a, uint64_t b, uint32_t value)
{
	struct rec_pairent *e;

	if ((!m->slots || (uint64_t)(m->n + 1) * 4 > (uint64_t)(m->mask + 1) * 3) && pair_grow(m) < 0)
		return -ENOMEM;
	e = pair_slot(m, a, b);
	if (!e->used)
		m->n++;
	*e = (struct rec_pairent){ a, b, value, true };
	return 0;
}

/* Linear probing without tombstones: the entries after the hole that
 * could live in it move back (Knuth's algorithm R). */
void rec_pairmap_remove(struct rec_pairmap *m, uint64_t a, uint64_t b)
{
	struct rec_pairent *e;
	uint32_t hole, at;

	if (!m->slots || !(e = pair_slot(m, a, b))->used)
		return;
	hole = (uint32_t)(e - m->slots);
	m->slots[hole].used = false;
	m->n--;
	for (at = (hole + 1) & m->mask; m->slots[at].used; at = (at + 1) & m->mask) {
		uint32_t home = (uint32_t)hash_pair(m->slots[at].a, m->slots[at].b) & m->mask;

		/* it may move to the hole unless its home lies cyclically in (hole, at] */
		if (hole <= at ? (home > hole && home <= at) : (home > hole || home <= at))
			continue;
		m->slots[hole] = m->slots[at];
		m->slots[at].used = false;
		hole = at;
	}
}

void rec_pairmap_free(struct rec_pairmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------- call stacks */
int rec_calls_push(struct rec_calls *s, uint32_t method, uint32_t ticket)
{
	if (s->depth == REC_CALLS_MAX) {
		memmove(s->frames, s->frames + REC_CALLS_MAX / 2, (REC_CALLS_MAX / 2) * sizeof *s->frames);
		s->depth = REC_CALLS_MAX / 2;
	}
	if (rec_grow((void **)&s->frames, &s->cap, (size_t)s->depth + 1, sizeof *s->frames) < 0)
		return -ENOMEM;
	s->frames[s->depth++] = (struct rec_frame){ method, ticket };
	return 0;
}

long rec_calls_find(const struct rec_calls *s, uint32_t method)
{
	for (uint32_t i = s->depth; i > 0; i--)
		if (s->frames[i - 1].method == method)
			return (long)(s->depth - i);
	return -1;
}

void rec_calls_free(struct rec_calls *s)
{
	free(s->frames);
	memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- threads */
uint32_t rec_threads_find(struct rec_threads *t, uint64_t pid, uint64_t tid)
{
	uint32_t id;

	if (t->last && t->last_pid == pid && t->last_tid == tid)
		return t->last;
	if (rec_pairmap_get(&t->ids, pid, tid, &id) < 0)
		return 0;
	t->last_pid = pid;
	t->last_tid = tid;
	t->last = id;
	return id;
}

int rec_threads_add(struct rec_threads *t, uint32_t pid, uint64_t tid, uint32_t *id)
{
	if (t->n == UINT32_MAX - 1)
		return 1;
	if (rec_grow((void **)&t->v, &t->cap, (size_t)t->n + 2, sizeof *t->v) < 0 ||
	    rec_pairmap_put(&t->ids, pid, tid, t->n + 1) < 0)
		return -ENOMEM;
	*id = ++t->n;
	t->v[*id].pid = pid;
	t->last = 0;
	return 0;
}

void rec_threads_forget(struct rec_threads *t, uint64_t pid, uint64_t tid, uint32_t id)
{
	rec_calls_free(&t->v[id].calls);
	rec_pairmap_remove(&t->ids, pid, tid);
	t->last = 0;
}

void rec_threads_free(struct rec_threads *t)
{
	for (size_t i = 0; i < t->cap; i++)
		rec_calls_free(&t->v[i].calls);
	free(t->v);
	rec_pairmap_free(&t->ids);
	memset(t, 0, sizeof *t);
}
