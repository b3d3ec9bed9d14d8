/* slots.c: see slots.h. */
#include "slots.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "print.h"

/* The match cache: open addressing, a few probes, the home entry replaced
 * when they are all taken, so it stays bounded whatever names arrive. Long
 * names are matched each time instead of being copied. */
#define SLOTS_CACHE_SIZE   4096u
#define SLOTS_CACHE_PROBES 4u
#define SLOTS_CACHE_NAME_MAX 1024u

/* A name's shown form is kept only up to this size (longer: formatted at
 * each event, as before), so an entry holds at most this much more. */
#define SLOTS_SHOWN_MAX (2u * SLOTS_CACHE_NAME_MAX + 64u)

struct slot_cache_entry {
	uint64_t hash;
	char *name;              /* NULL: empty */
	uint32_t len;
	uint8_t kind;
	uint32_t shown_len;
	char *shown;             /* the marker's form of NAME when a slot matches; NULL: none
				  * kept; == name when it is the same bytes */
	struct slot_set matches; /* slots of KIND (any event type) whose pattern selects NAME */
	uint64_t gen;            /* bumped each time the entry is emptied (slots_match_method_id) */
};

/* A method number's entry (slots_match_method_id), while its gen holds. */
struct slot_id_hint {
	struct slot_cache_entry *e;
	uint64_t gen;
};

/* The most the cache holds, whatever names the agent sends: its entries,
 * each with a name and a shown form of at most their sizes above (about
 * 13 MiB: doc/security.md, Bounds). */
#define SLOTS_CACHE_MAX_BYTES \
	(SLOTS_CACHE_SIZE * (sizeof(struct slot_cache_entry) + SLOTS_CACHE_NAME_MAX + 1 + SLOTS_SHOWN_MAX + 1))
_Static_assert(SLOTS_CACHE_MAX_BYTES <= 16u << 20, "a worker's slot cache stays under 16 MiB");

static void set_add(struct slot_set *s, unsigned slot)
{
	s->w[slot / 64] |= 1ull << (slot % 64);
}

static unsigned bit_index(uint8_t bit)
{
	return bit == 1 ? 0 : bit == 2 ? 1 : 2;
}

void slots_init(struct slot_table *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < MARKERS_SLOTS; i++)
		t->entry[i] = -1;
}

bool slots_event_type(unsigned code, uint8_t *kind, uint8_t *bit)
{
	const struct event_desc *d = events_get(code);

	if (!d || d->family != EVENT_BY_PATTERN)
		return false;
	*kind = d->kind;
	*bit = d->bit;
	return true;
}

/* "N:" -> N; -1 when not a number from 0 to MARKERS_SLOTS - 1. */
static long parse_slot_number(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < (long)MARKERS_SLOTS ? v : -1;
}

int slots_add(struct slot_table *t, struct registry *reg, const char *spec, char *err,
	      size_t errlen)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char perr[200];
	size_t type_len;
	long slot;
	int rc;

	if (!c2) {
		snprintf(err, errlen, "not N:KIND.EVENT:PATTERN");
		return -EINVAL;
	}
	slot = parse_slot_number(spec, (size_t)(c1 - spec));
	if (slot < 0) {
		snprintf(err, errlen, "slot number '%.*s' is not from 0 to %u", (int)(c1 - spec), spec,
			 MARKERS_SLOTS - 1);
		return -EINVAL;
	}
	if (t->entry[slot] >= 0) {
		snprintf(err, errlen, "slot %ld given twice", slot);
		return -EINVAL;
	}
	type_len = (size_t)(c2 - c1 - 1);
	const struct event_desc *d = events_by_label(c1 + 1, type_len);
	if (!d || d->family != EVENT_BY_PATTERN) {
		snprintf(err, errlen,
			 "unknown probe type '%.*s' (method.enter, method.return, method.compile, class.load, "
			 "class.prepare, class.unload, exception.thrown, exception.catch)",
			 (int)type_len, c1 + 1);
		return -EINVAL;
	}
	rc = registry_add(reg, d->kind, d->bit, c2 + 1, perr, sizeof perr);
	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		snprintf(err, errlen, "pattern '%s': %s", c2 + 1, perr);
		return -EINVAL;
	}
	t->entry[slot] = (int)reg->n - 1;
	set_add(&t->of_type[d->kind][bit_index(d->bit)], (unsigned)slot);
	set_add(&t->of_kind[d->kind], (unsigned)slot);
	t->n++;
	return 0;
}

int slots_matcher_init(struct slot_matcher *m, const struct slot_table *t,
		       const struct registry *reg)
{
	m->t = t;
	m->reg = reg;
	m->cache = NULL;
	m->last = NULL;
	m->by_id = NULL;
	m->by_id_cap = 0;
	m->descends = NULL;
	m->descends_ctx = NULL;
	/* the event table's lookup and the test for an empty slot set, once
	 * here rather than at every event */
	for (unsigned code = 0; code < SLOTS_CODES; code++) {
		uint8_t kind, bit;
		uint64_t any = 0;

		m->code_kind[code] = 0;
		m->code_type[code] = 0;
		if (!slots_event_type(code, &kind, &bit))
			continue;
		for (unsigned w = 0; w < SLOTS_WORDS; w++)
			any |= t->of_type[kind][bit_index(bit)].w[w];
		if (any) {
			m->code_kind[code] = kind;
			m->code_type[code] = (uint8_t)bit_index(bit);
		}
	}
	if (t->n == 0)
		return 0;
	m->cache = calloc(SLOTS_CACHE_SIZE, sizeof *m->cache);
	return m->cache ? 0 : -ENOMEM;
}

static void entry_clear(struct slot_cache_entry *e)
{
	if (e->shown != e->name)
		free(e->shown);
	free(e->name);
	e->shown = NULL;
	e->name = NULL;
	e->gen++;
}

void slots_matcher_free(struct slot_matcher *m)
{
	if (m->cache)
		for (size_t i = 0; i < SLOTS_CACHE_SIZE; i++)
			entry_clear(&m->cache[i]);
	free(m->cache);
	m->cache = NULL;
	m->last = NULL;
	free(m->by_id);
	m->by_id = NULL;
	m->by_id_cap = 0;
}

void slots_matcher_forget(struct slot_matcher *m)
{
	if (m->cache)
		for (size_t i = 0; i < SLOTS_CACHE_SIZE; i++)
			entry_clear(&m->cache[i]);
	m->last = NULL;
}

/* Every slot of KIND whose pattern selects NAME, whatever its event type. */
static void match_all(const struct slot_matcher *m, uint8_t kind, const char *name, size_t len,
		      struct slot_set *out)
{
	memset(out, 0, sizeof *out);
	for (unsigned w = 0; w < SLOTS_WORDS; w++) {
		uint64_t bits = m->t->of_kind[kind].w[w];

		while (bits) {
			unsigned slot = w * 64 + (unsigned)__builtin_ctzll(bits);
			const struct registry_entry *e = &m->reg->entries[m->t->entry[slot]];
			bool hit = kind == WIRE_KIND_METHOD ? pattern_match_method_via(&e->pat, name, len, m->descends,
										       m->descends_ctx)
							    : pattern_match_class_name(&e->pat, name, len);

			bits &= bits - 1;
			if (hit)
				set_add(out, slot);
		}
	}
}

/* Eight bytes at a time, then a final mix: FNV-1a's byte loop cost more
 * than the rest of a cache hit. Any well-mixed hash does; the entry's full
 * comparison decides. */
static uint64_t hash_name(uint8_t kind, const char *name, size_t len)
{
	const uint64_t k = 0x9E3779B97F4A7C15ull;
	uint64_t h = (k ^ kind) * k ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, name + i, 8);
		h = ((h << 23 | h >> 41) ^ w) * k;
	}
	if (i < len) {
		if (len >= 8) { /* the last eight bytes, overlapping: no byte loop */
			memcpy(&w, name + len - 8, 8);
		} else { /* a byte loop: memcpy of a variable length is a call */
			w = 0;
			for (unsigned b = 0; i < len; i++, b += 8)
				w |= (uint64_t)(uint8_t)name[i] << b;
		}
		h = ((h << 23 | h >> 41) ^ w) * k;
	}
	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93ull;
	return h ^ (h >> 32);
}

/* memcmp(A, B, N) == 0 for the short names of a cache hit, inline: eight
 * bytes at a time, the last word overlapping (libc's memcmp was a call
 * and a few percent of an event). */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i = 0;

	if (n < 8) {
		for (; i < n; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}
	for (; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	if (i == n)
		return true;
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

static bool entry_is(const struct slot_cache_entry *e, uint64_t h, uint8_t kind, const char *name,
		     size_t len)
{
	return e->name && e->hash == h && e->kind == kind && e->len == len &&
	       same_bytes(e->name, name, len);
}

/* E's shown form of its name, as the markers' $arg5 has it (print_name for
 * a method, print_class for a class or exception): the same bytes as the
 * name when they are (a plain method name), a copy when it fits
 * SLOTS_SHOWN_MAX, else none (it is then formatted per event). */
static void entry_show(struct slot_cache_entry *e)
{
	char text[SLOTS_SHOWN_MAX];
	struct wire_str name = { e->name, e->len };
	ssize_t n = e->kind == WIRE_KIND_METHOD ? print_name(text, sizeof text, &name)
						: print_class(text, sizeof text, &name);

	e->shown = NULL;
	if (n < 0)
		return;
	if ((size_t)n == e->len && memcmp(text, e->name, e->len) == 0) {
		e->shown = e->name;
	} else {
		e->shown = malloc((size_t)n + 1);
		if (!e->shown) /* none kept; it is formatted per event */
			return;
		memcpy(e->shown, text, (size_t)n + 1);
	}
	e->shown_len = (uint32_t)n;
}

/* The cached entry for (KIND, NAME), computing and storing it on a miss;
 * NULL when it cannot be kept (a long name, no memory): then *TMP holds
 * the matches. */
static const struct slot_cache_entry *cached_matches(struct slot_matcher *m, uint8_t kind,
						     const char *name, size_t len,
						     struct slot_set *tmp)
{
	struct slot_cache_entry *free_entry = NULL, *e = m->last;
	uint64_t h;
	char *copy;
	uint64_t any = 0;

	/* the same name again (a method's return after its entry, a hot
	 * method): no hash; the entry may hold another name by now, which the
	 * comparison sees */
	if (e && e->name && e->kind == kind && e->len == len && same_bytes(e->name, name, len))
		return e;
	if (!m->cache || len > SLOTS_CACHE_NAME_MAX) {
		match_all(m, kind, name, len, tmp);
		return NULL;
	}
	h = hash_name(kind, name, len);
	for (unsigned p = 0; p < SLOTS_CACHE_PROBES; p++) {
		e = &m->cache[(h + p) % SLOTS_CACHE_SIZE];
		if (!e->name) {
			if (!free_entry)
				free_entry = e;
			continue;
		}
		if (entry_is(e, h, kind, name, len)) {
			m->last = e;
			return e;
		}
	}
	e = free_entry ? free_entry : &m->cache[h % SLOTS_CACHE_SIZE];
	match_all(m, kind, name, len, tmp);
	copy = malloc(len + 1);
	if (!copy) /* not cached; the answer is still right */
		return NULL;
	memcpy(copy, name, len);
	copy[len] = '\0';
	entry_clear(e);
	e->name = copy;
	e->len = (uint32_t)len;
	e->hash = h;
	e->kind = kind;
	e->matches = *tmp;
	/* only a name some slot selects is ever shown */
	for (unsigned w = 0; w < SLOTS_WORDS; w++)
		any |= tmp->w[w];
	if (any)
		entry_show(e);
	m->last = e;
	return e;
}

bool slots_match(struct slot_matcher *m, unsigned code, const char *name, size_t len,
		 struct slot_set *out)
{
	return slots_match_shown(m, code, name, len, out, NULL);
}

/* The slots of CODE's event type among what entry E (or, NULL, TMP) matches. */
static bool of_code(const struct slot_matcher *m, unsigned code, const struct slot_cache_entry *e,
		    const struct slot_set *tmp, struct slot_set *out, struct wire_str *shown)
{
	const struct slot_set *of_type = &m->t->of_type[m->code_kind[code]][m->code_type[code]];
	const struct slot_set *hits = e ? &e->matches : tmp;
	uint64_t any = 0;

	for (unsigned w = 0; w < SLOTS_WORDS; w++) {
		out->w[w] = hits->w[w] & of_type->w[w];
		any |= out->w[w];
	}
	if (any && e && shown && e->shown)
		*shown = (struct wire_str){ e->shown, e->shown_len };
	return any != 0;
}

bool slots_match_shown(struct slot_matcher *m, unsigned code, const char *name, size_t len,
		       struct slot_set *out, struct wire_str *shown)
{
	struct slot_set tmp;
	uint8_t kind;

	if (shown)
		*shown = (struct wire_str){ NULL, 0 };
	if (code >= SLOTS_CODES || !(kind = m->code_kind[code]))
		return false;
	return of_code(m, code, cached_matches(m, kind, name, len, &tmp), &tmp, out, shown);
}

/* The hint of method number ID if the table has room for it yet, else NULL. */
static struct slot_id_hint *id_hint_held(const struct slot_matcher *m, uint32_t id)
{
	return id < m->by_id_cap ? &m->by_id[id] : NULL;
}

/* The hint of method number ID, made room for; NULL past SLOTS_ID_HINTS or
 * without memory (the name is then looked up as any other). */
static struct slot_id_hint *id_hint(struct slot_matcher *m, uint32_t id)
{
	struct slot_id_hint *h = id_hint_held(m, id);

	if (h)
		return h;
	if (id >= SLOTS_ID_HINTS)
		return NULL;
	uint32_t cap = m->by_id_cap ? m->by_id_cap : 1024;
	while (cap <= id)
		cap *= 2;
	struct slot_id_hint *n = realloc(m->by_id, cap * sizeof(*n));
	if (!n)
		return NULL;
	memset(n + m->by_id_cap, 0, (cap - m->by_id_cap) * sizeof(*n));
	m->by_id = n;
	m->by_id_cap = cap;
	return &m->by_id[id];
}

/* slots_match_method_id when the number's hint does not hold its entry:
 * the name looked up, the hint made (out of line: its frame and the
 * lookup's are not the common case's) */
static __attribute__((noinline)) bool match_method_id_slow(struct slot_matcher *m, unsigned code, uint32_t id,
							   const char *name, size_t len, struct slot_set *out,
							   struct wire_str *shown)
{
	struct slot_id_hint *h;
	struct slot_cache_entry *e;
	struct slot_set tmp;

	if (m->code_kind[code] != WIRE_KIND_METHOD || !(h = id_hint(m, id)))
		return slots_match_shown(m, code, name, len, out, shown);
	e = (struct slot_cache_entry *)cached_matches(m, WIRE_KIND_METHOD, name, len, &tmp);
	*h = (struct slot_id_hint){ e, e ? e->gen : 0 };
	return of_code(m, code, e, &tmp, out, shown);
}

bool slots_match_method_id(struct slot_matcher *m, unsigned code, uint32_t id, const char *name,
			   size_t len, struct slot_set *out, struct wire_str *shown)
{
	if (shown)
		*shown = (struct wire_str){ NULL, 0 };
	if (code >= SLOTS_CODES || !m->code_kind[code])
		return false;
	/* the entry the number found last, while nothing emptied it since */
	const struct slot_id_hint *h = id_hint_held(m, id);
	if (m->code_kind[code] == WIRE_KIND_METHOD && h && h->e && h->e->gen == h->gen)
		return of_code(m, code, h->e, NULL, out, shown);
	return match_method_id_slow(m, code, id, name, len, out, shown);
}

void slots_forget_method_id(struct slot_matcher *m, uint32_t id)
{
	if (id < m->by_id_cap)
		m->by_id[id] = (struct slot_id_hint){ NULL, 0 };
}
