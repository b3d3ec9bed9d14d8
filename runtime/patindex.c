/* patindex.c: see patindex.h. Each table is an array of keys sorted
 * bytewise (a suffix table compares from the end), with the distinct key
 * lengths it holds: the keys a name has are found by one binary search per
 * length, and the keys that start with a given string are one run. */
#include "patindex.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* KEY[0..LEN): a pattern's literal prefix, or (in a suffix table) its
 * literal suffix, read from its last byte back. */
struct kent {
	const char *key;
	uint32_t len;
	uint32_t pat;
};

struct keytab {
	struct kent *v;
	size_t n;
	uint32_t *lens;          /* the distinct key lengths, ascending */
	size_t nlens;
	bool from_end;
};

struct patindex {
	enum pattern_kind kind;
	const struct pattern **pats;
	size_t n;
	struct keytab prefix;
	/* suffix: matched against the whole name; before_paren: a method
	 * pattern without a descriptor, matched against the name before '(' */
	struct keytab suffix, before_paren;
	uint32_t *loose;         /* neither prefix nor suffix: tried one by one */
	size_t nloose;
	size_t bytes;
};

static unsigned char key_at(const char *key, size_t len, size_t i, bool from_end)
{
	return (unsigned char)key[from_end ? len - 1 - i : i];
}

static int key_cmp(const char *a, size_t alen, const char *b, size_t blen, bool from_end)
{
	size_t n = alen < blen ? alen : blen;

	for (size_t i = 0; i < n; i++) {
		int d = key_at(a, alen, i, from_end) - key_at(b, blen, i, from_end);
		if (d)
			return d;
	}
	return alen < blen ? -1 : alen > blen;
}

static int kent_cmp_start(const void *x, const void *y)
{
	const struct kent *a = x, *b = y;

	return key_cmp(a->key, a->len, b->key, b->len, false);
}

static int kent_cmp_end(const void *x, const void *y)
{
	const struct kent *a = x, *b = y;

	return key_cmp(a->key, a->len, b->key, b->len, true);
}

/* Does entry E's key begin with PROBE (in the table's direction)? */
static bool key_has(const struct kent *e, const char *probe, size_t plen, bool from_end)
{
	if (e->len < plen)
		return false;
	for (size_t i = 0; i < plen; i++)
		if (key_at(e->key, e->len, i, from_end) != key_at(probe, plen, i, from_end))
			return false;
	return true;
}

/* The first entry not below PROBE. */
static size_t lower_bound(const struct keytab *t, const char *probe, size_t plen)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(t->v[mid].key, t->v[mid].len, probe, plen, t->from_end) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int keytab_finish(struct keytab *t, size_t *bytes)
{
	bool seen[PATINDEX_KEY_MAX + 1] = { false };

	qsort(t->v, t->n, sizeof *t->v, t->from_end ? kent_cmp_end : kent_cmp_start);
	for (size_t i = 0; i < t->n; i++)
		if (!seen[t->v[i].len]) {
			seen[t->v[i].len] = true;
			t->nlens++;
		}
	t->lens = malloc((t->nlens ? t->nlens : 1) * sizeof *t->lens);
	if (!t->lens)
		return -ENOMEM;
	t->nlens = 0;
	for (uint32_t l = 0; l <= PATINDEX_KEY_MAX; l++)
		if (seen[l])
			t->lens[t->nlens++] = l;
	*bytes += t->n * sizeof *t->v + t->nlens * sizeof *t->lens;
	return 0;
}

static void keytab_add(struct keytab *t, const char *key, size_t len, size_t pat)
{
	if (len > PATINDEX_KEY_MAX) {
		if (t->from_end)
			key += len - PATINDEX_KEY_MAX;
		len = PATINDEX_KEY_MAX;
	}
	t->v[t->n++] = (struct kent){ key, (uint32_t)len, (uint32_t)pat };
}

void patindex_free(struct patindex *ix)
{
	if (!ix)
		return;
	free(ix->prefix.v);
	free(ix->prefix.lens);
	free(ix->suffix.v);
	free(ix->suffix.lens);
	free(ix->before_paren.v);
	free(ix->before_paren.lens);
	free(ix->loose);
	free(ix->pats);
	free(ix);
}

int patindex_build(struct patindex **out, enum pattern_kind kind, const struct pattern *const *pats,
		   size_t n)
{
	struct patindex *ix = calloc(1, sizeof *ix);
	size_t each = n ? n : 1;

	*out = NULL;
	if (!ix)
		return -ENOMEM;
	ix->kind = kind;
	ix->n = n;
	ix->suffix.from_end = ix->before_paren.from_end = true;
	ix->pats = malloc(each * sizeof *ix->pats);
	ix->prefix.v = malloc(each * sizeof(struct kent));
	ix->suffix.v = malloc(each * sizeof(struct kent));
	ix->before_paren.v = malloc(each * sizeof(struct kent));
	ix->loose = malloc(each * sizeof *ix->loose);
	if (!ix->pats || !ix->prefix.v || !ix->suffix.v || !ix->before_paren.v || !ix->loose) {
		patindex_free(ix);
		return -ENOMEM;
	}
	ix->bytes = sizeof *ix + each * (sizeof *ix->pats + sizeof *ix->loose);
	for (size_t i = 0; i < n; i++) {
		const struct pattern *p = pats[i];
		size_t plen, slen;
		const char *prefix = pattern_prefix(p, &plen), *suffix = pattern_suffix(p, &slen);

		if (pattern_kind_of(p) != kind) {
			patindex_free(ix);
			return -EINVAL;
		}
		ix->pats[i] = p;
		if (plen)
			keytab_add(&ix->prefix, prefix, plen, i);
		else if (slen)
			keytab_add(kind == PATTERN_METHOD && !pattern_has_descriptor(p) ? &ix->before_paren
											 : &ix->suffix,
				   suffix, slen, i);
		else
			ix->loose[ix->nloose++] = (uint32_t)i;
	}
	if (keytab_finish(&ix->prefix, &ix->bytes) < 0 || keytab_finish(&ix->suffix, &ix->bytes) < 0 ||
	    keytab_finish(&ix->before_paren, &ix->bytes) < 0) {
		patindex_free(ix);
		return -ENOMEM;
	}
	*out = ix;
	return 0;
}

size_t patindex_bytes(const struct patindex *ix)
{
	return ix ? ix->bytes : 0;
}

/* ---- lookups */
struct lookup {
	const struct patindex *ix;
	bool (*test)(const struct pattern *p, const char *name, size_t len);
	const char *name;         /* as the caller gave it, for the full match */
	size_t len;
	patindex_fn fn;
	void *ctx;
};

/* The pattern at I is a candidate: FN if it selects the name. */
static bool candidate(const struct lookup *l, size_t i)
{
	return l->test(l->ix->pats[i], l->name, l->len) && l->fn(l->ctx, i);
}

/* Every entry of T whose key the subject S[0..N) has: its start, or in a
 * suffix table its end. */
static bool probe_table(const struct lookup *l, const struct keytab *t, const char *s, size_t n)
{
	for (size_t k = 0; k < t->nlens && t->lens[k] <= n; k++) {
		size_t plen = t->lens[k];
		const char *probe = t->from_end ? s + n - plen : s;

		for (size_t at = lower_bound(t, probe, plen);
		     at < t->n && t->v[at].len == plen && key_has(&t->v[at], probe, plen, t->from_end); at++)
			if (candidate(l, t->v[at].pat))
				return true;
	}
	return false;
}

static bool probe_loose(const struct lookup *l)
{
	for (size_t i = 0; i < l->ix->nloose; i++)
		if (candidate(l, l->ix->loose[i]))
			return true;
	return false;
}

static bool probe_all(const struct lookup *l)
{
	for (size_t i = 0; i < l->ix->n; i++)
		if (candidate(l, i))
			return true;
	return false;
}

bool patindex_match_method(const struct patindex *ix, const char *name, size_t len, patindex_fn fn,
			   void *ctx)
{
	struct lookup l = { ix, pattern_match_method, name, len, fn, ctx };
	const char *paren;

	if (!ix || ix->kind != PATTERN_METHOD || !name)
		return false;
	paren = memchr(name, '(', len);
	return probe_table(&l, &ix->prefix, name, len) || probe_table(&l, &ix->suffix, name, len) ||
	       probe_table(&l, &ix->before_paren, name, paren ? (size_t)(paren - name) : len) ||
	       probe_loose(&l);
}

bool patindex_match_class(const struct patindex *ix, const char *sig, size_t len, patindex_fn fn,
			  void *ctx)
{
	struct lookup l = { ix, pattern_match_class, sig, len, fn, ctx };
	char dotted[1024];
	ssize_t n;

	if (!ix || ix->kind != PATTERN_CLASS || !sig)
		return false;
	/* class patterns are matched against the Java form */
	n = name_class_signature_to_dotted(sig, len, dotted, sizeof dotted);
	if (n == -ENAMETOOLONG)
		return probe_all(&l);   /* a name that long is rare: no copy of it */
	if (n < 0)
		return false;           /* malformed: no pattern selects it */
	return probe_table(&l, &ix->prefix, dotted, (size_t)n) ||
	       probe_table(&l, &ix->suffix, dotted, (size_t)n) ||
	       probe_table(&l, &ix->before_paren, dotted, (size_t)n) || probe_loose(&l);
}

static bool may_select(const struct pattern *p, const char *dotted, size_t len)
{
	return pattern_method_may_select_class(p, dotted, len);
}

bool patindex_method_classes(const struct patindex *ix, const char *dotted, size_t len,
			     patindex_fn fn, void *ctx)
{
	struct lookup l = { ix, may_select, dotted, len, fn, ctx };
	char probe[PATINDEX_KEY_MAX + 1];
	size_t plen;

	if (!ix || ix->kind != PATTERN_METHOD || !dotted)
		return false;
	/* no literal prefix: it may select a method of any class */
	for (size_t i = 0; i < ix->suffix.n; i++)
		if (candidate(&l, ix->suffix.v[i].pat))
			return true;
	for (size_t i = 0; i < ix->before_paren.n; i++)
		if (candidate(&l, ix->before_paren.v[i].pat))
			return true;
	if (probe_loose(&l))
		return true;
	/* every method name of the class starts with "<dotted>.": the prefixes
	 * that are a start of that, and those that start with it */
	plen = len + 1 < sizeof probe ? len + 1 : sizeof probe - 1;
	memcpy(probe, dotted, plen < len ? plen : len);
	if (plen > len)
		probe[len] = '.';
	if (probe_table(&l, &ix->prefix, probe, plen))
		return true;
	if (plen < len + 1)
		return false;   /* no key is longer than the probe */
	for (size_t at = lower_bound(&ix->prefix, probe, plen);
	     at < ix->prefix.n && key_has(&ix->prefix.v[at], probe, plen, false); at++)
		if (ix->prefix.v[at].len > plen && candidate(&l, ix->prefix.v[at].pat))
			return true;
	return false;
}
