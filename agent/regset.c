/* regset.c: see regset.h. */
#include "regset.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lineage.h"
#include "log.h"
#include "patindex.h"
#include "wire.h"

/* A registration's share of its snapshot's index (three words of keys and
 * positions), counted with it against REGSET_MAX_BYTES. */
#define REGSET_INDEX_SHARE 48u

struct regset_snapshot {
	struct reg **v;
	size_t n;
	struct patindex *ix[4];  /* per wire_kind */
	uint32_t *of[4];         /* per wire_kind: index position -> v[] */
	uint8_t ev_bits[4];
	bool fire;               /* some registration is a slot's */
	uint32_t *lines;         /* the method registrations with a line: v[] positions */
	size_t nlines;
	uint32_t *roots;         /* the root method registrations ("^C.m"): v[] positions */
	size_t nroots;
};

void regset_init(struct regset *s)
{
	pthread_rwlock_init(&s->lock, NULL);
	s->live = NULL;
	s->v = s->gone = NULL;
	s->n = s->cap = s->bytes = s->ngone = s->gonecap = 0;
}

static size_t reg_bytes(const struct reg *r)
{
	return sizeof *r + pattern_size(r->pat) + r->text_len + 1 + REGSET_INDEX_SHARE;
}

static void reg_free(struct reg *r)
{
	inthread_id_give(r->fire_id);
	free(r->pat);
	free(r->text);
	free(r);
}

static int grow(struct reg ***v, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : 64;
	while (c < need)
		c *= 2;
	struct reg **n = realloc(*v, c * sizeof *n);
	if (!n)
		return -ENOMEM;
	*v = n;
	*cap = c;
	return 0;
}

int regset_add(struct regset *s, unsigned conn, uint8_t kind, uint8_t events, int slot,
	       const char *text, uint32_t len, char *err, size_t errlen)
{
	static struct pattern pat;   /* I/O thread only; 4 KiB */
	struct reg *r = NULL;
	int rc;

	if (s->n >= REGSET_MAX_REGS) {
		snprintf(err, errlen, "this connection has %u registrations, the most the agent takes "
			 "from one connection", REGSET_MAX_REGS);
		return -E2BIG;
	}
	rc = pattern_compile(&pat, kind == WIRE_KIND_METHOD ? PATTERN_METHOD : PATTERN_CLASS, text, len,
			     err, errlen);
	if (rc)
		return rc;
	if (s->bytes + sizeof *r + pattern_size(&pat) + len + 1 + REGSET_INDEX_SHARE > REGSET_MAX_BYTES) {
		snprintf(err, errlen, "this connection's registrations would take more than %u bytes, "
			 "the most the agent keeps for one connection", REGSET_MAX_BYTES);
		return -E2BIG;
	}
	rc = -ENOMEM;
	if (grow(&s->v, &s->cap, s->n + 1) < 0 || !(r = calloc(1, sizeof *r)) ||
	    !(r->pat = pattern_dup(&pat)) || !(r->text = malloc(len + 1)))
		goto fail;
	r->fire_id = -1;
	if (slot >= 0) {
		char what[INTHREAD_WHAT_MAX];

		snprintf(what, sizeof what, "%s 0x%x \"%.*s\"", wire_kind_name(kind), events,
			 (int)(len > 80 ? 80 : len), text);
		rc = inthread_id_take(conn, (unsigned)slot, what);
		if (rc < 0) {
			snprintf(err, errlen, "more than %u slot registrations of in-thread sessions in this JVM",
				 INTHREAD_MAX_IDS);
			goto fail;
		}
		r->fire_id = (int16_t)rc;
	}
	memcpy(r->text, text, len);
	r->text[len] = '\0';
	r->text_len = len;
	r->kind = kind;
	r->events = events;
	s->v[s->n++] = r;
	s->bytes += reg_bytes(r);
	return 0;
fail:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (r) {
		free(r->pat);
		free(r->text);
		free(r);
	}
	return rc;
}

/* R is out of the list: freed at the next publish. */
static int retire(struct regset *s, struct reg *r)
{
	if (grow(&s->gone, &s->gonecap, s->ngone + 1) < 0)
		return -ENOMEM;
	s->gone[s->ngone++] = r;
	s->bytes -= reg_bytes(r);
	return 0;
}

size_t regset_remove(struct regset *s, uint8_t kind, const char *text, uint32_t len)
{
	size_t kept = 0, removed = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct reg *r = s->v[i];
		if (r->kind == kind && r->text_len == len && memcmp(r->text, text, len) == 0 &&
		    retire(s, r) == 0)
			removed++;
		else
			s->v[kept++] = r;
	}
	s->n = kept;
	return removed;
}

void regset_clear(struct regset *s)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->n; i++)
		if (retire(s, s->v[i]) < 0)
			s->v[kept++] = s->v[i];   /* no memory to defer it: kept, harmlessly */
	s->n = kept;
}

static void snapshot_free(struct regset_snapshot *sn)
{
	if (!sn)
		return;
	for (int k = 0; k < 4; k++) {
		patindex_free(sn->ix[k]);
		free(sn->of[k]);
	}
	free(sn->v);
	free(sn->lines);
	free(sn->roots);
	free(sn);
}

static struct regset_snapshot *snapshot_build(const struct regset *s)
{
	struct regset_snapshot *sn = calloc(1, sizeof *sn);
	const struct pattern **pats = malloc((s->n ? s->n : 1) * sizeof *pats);

	if (!sn || !pats || !(sn->v = malloc((s->n ? s->n : 1) * sizeof *sn->v)))
		goto fail;
	memcpy(sn->v, s->v, s->n * sizeof *sn->v);
	sn->n = s->n;
	if (!(sn->lines = malloc((s->n ? s->n : 1) * sizeof *sn->lines)) ||
	    !(sn->roots = malloc((s->n ? s->n : 1) * sizeof *sn->roots)))
		goto fail;
	size_t rlen;
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i]->kind == WIRE_KIND_METHOD && pattern_line(s->v[i]->pat))
			sn->lines[sn->nlines++] = (uint32_t)i;
		/* the index never finds them (their text starts with '^') */
		if (s->v[i]->kind == WIRE_KIND_METHOD && pattern_root(s->v[i]->pat, &rlen))
			sn->roots[sn->nroots++] = (uint32_t)i;
	}
	for (uint8_t k = WIRE_KIND_METHOD; k <= WIRE_KIND_EXCEPTION; k++) {
		size_t m = 0;
		if (!(sn->of[k] = malloc((s->n ? s->n : 1) * sizeof *sn->of[k])))
			goto fail;
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i]->kind == k) {
				pats[m] = s->v[i]->pat;
				sn->of[k][m++] = (uint32_t)i;
				sn->ev_bits[k] |= s->v[i]->events;
				sn->fire |= s->v[i]->fire_id >= 0;
			}
		if (patindex_build(&sn->ix[k], k == WIRE_KIND_METHOD ? PATTERN_METHOD : PATTERN_CLASS,
				   (const struct pattern *const *)pats, m) < 0)
			goto fail;
	}
	free(pats);
	return sn;
fail:
	free(pats);
	snapshot_free(sn);
	return NULL;
}

int regset_publish(struct regset *s, uint8_t ev_bits[4])
{
	struct regset_snapshot *sn = s->n ? snapshot_build(s) : NULL, *old;

	if (s->n && !sn)
		return -ENOMEM;
	pthread_rwlock_wrlock(&s->lock);
	old = s->live;
	s->live = sn;
	pthread_rwlock_unlock(&s->lock);
	snapshot_free(old);
	for (size_t i = 0; i < s->ngone; i++)
		reg_free(s->gone[i]);
	s->ngone = 0;
	memset(ev_bits, 0, 4);
	if (sn)
		memcpy(ev_bits, sn->ev_bits, 4);
	return 0;
}

void regset_free(struct regset *s)
{
	uint8_t none[4];
	size_t n = s->n;

	s->n = 0;   /* the snapshot goes first: nobody can see them when they are freed */
	regset_publish(s, none);
	for (size_t i = 0; i < n; i++)
		reg_free(s->v[i]);
	free(s->v);
	free(s->gone);
	s->v = s->gone = NULL;
	s->cap = s->gonecap = s->bytes = 0;
}

/* ---- matching, under the read lock */
struct found {
	const struct regset_snapshot *sn;
	const uint32_t *of;
	uint8_t bits, all, bit;
	struct fire_set *fire;   /* NULL: only the bits */
	uint8_t want;            /* regset_may_select_class: the events asked about */
};

static bool found_method(void *ctx, size_t i)
{
	struct found *f = ctx;
	const struct reg *r = f->sn->v[f->of[i]];

	f->bits |= r->events;
	if (f->fire && r->fire_id >= 0)
		for (unsigned b = 0; b < 3; b++)
			if (r->events & (1u << b))
				fire_set_add(&f->fire[b], (unsigned)r->fire_id);
	/* every event found and no slot to collect: the rest cannot add anything */
	return f->bits == f->all && !(f->fire && f->sn->fire);
}

static bool found_class(void *ctx, size_t i)
{
	struct found *f = ctx;
	const struct reg *r = f->sn->v[f->of[i]];

	f->bits |= r->events;
	if (f->fire && r->fire_id >= 0 && (r->events & f->bit))
		fire_set_add(f->fire, (unsigned)r->fire_id);
	return f->bits == f->all && !(f->fire && f->sn->fire);
}

static bool found_any(void *ctx, size_t i)
{
	struct found *f = ctx;

	return (f->sn->v[f->of[i]]->events & f->want) != 0;
}

static int cmp_line(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void regset_lines_without_code(struct regset *s, const char *wire, size_t n, const uint32_t *lines, size_t nl,
			       void (*fn)(void *ctx, const char *text, uint32_t line), void *ctx)
{
	struct {
		char text[256];
		uint32_t line;
	} miss[4];
	size_t nm = 0;
	char *named = NULL;

	pthread_rwlock_rdlock(&s->lock);
	const struct regset_snapshot *sn = s->live;
	if (sn && sn->nlines && (named = malloc(n + 12)))
		memcpy(named, wire, n);
	for (size_t k = 0; named && k < sn->nlines && nm < 4; k++) {
		struct reg *r = sn->v[sn->lines[k]];
		uint32_t l = pattern_line(r->pat);
		if (bsearch(&l, lines, nl, sizeof *lines, cmp_line))
			continue;
		size_t len = n + (size_t)snprintf(named + n, 12, ":%" PRIu32, l);
		if (!pattern_match_method(r->pat, named, len) ||
		    __atomic_exchange_n(&r->nocode_said, true, __ATOMIC_RELAXED))
			continue;
		snprintf(miss[nm].text, sizeof miss[nm].text, "%.*s", (int)r->text_len, r->text);
		miss[nm++].line = l;
	}
	pthread_rwlock_unlock(&s->lock);
	free(named);
	for (size_t k = 0; k < nm; k++)
		fn(ctx, miss[k].text, miss[k].line);
}

uint8_t regset_match_method(struct regset *s, const char *name, size_t len, struct fire_set fire[3])
{
	struct found f = { .fire = fire };

	pthread_rwlock_rdlock(&s->lock);
	if ((f.sn = s->live) && f.sn->ev_bits[WIRE_KIND_METHOD]) {
		f.of = f.sn->of[WIRE_KIND_METHOD];
		f.all = f.sn->ev_bits[WIRE_KIND_METHOD];
		patindex_match_method(f.sn->ix[WIRE_KIND_METHOD], name, len, found_method, &f);
		f.of = f.sn->roots;
		for (size_t k = 0; k < f.sn->nroots; k++)
			if (pattern_match_method_via(f.sn->v[f.of[k]]->pat, name, len, lineage_descends, NULL))
				found_method(&f, k);
	}
	pthread_rwlock_unlock(&s->lock);
	return f.bits;
}

bool regset_has_roots(struct regset *s)
{
	pthread_rwlock_rdlock(&s->lock);
	bool has = s->live && s->live->nroots;
	pthread_rwlock_unlock(&s->lock);
	return has;
}

/* The distinct roots of SN above class DOTTED, copied into *BUF (one
 * after another, their lengths in *LENS): 0, or -ENOMEM. */
static int copy_roots_above(const struct regset_snapshot *sn, const char *dotted, size_t len, char **buf,
			    size_t **lens, size_t *n)
{
	size_t used = 0, cap = 0;

	*buf = NULL;
	*lens = NULL;
	*n = 0;
	for (size_t k = 0; sn && k < sn->nroots; k++) {
		size_t rlen;
		const char *root = pattern_root(sn->v[sn->roots[k]]->pat, &rlen);
		bool seen = false;
		/* a root several registrations share is given at its first */
		for (size_t j = 0; j < k && !seen; j++) {
			size_t plen;
			const char *p = pattern_root(sn->v[sn->roots[j]]->pat, &plen);
			seen = plen == rlen && memcmp(p, root, rlen) == 0;
		}
		if (seen || !lineage_descends(NULL, dotted, len, root, rlen))
			continue;
		if (!*lens && !(*lens = malloc(sn->nroots * sizeof **lens)))
			return -ENOMEM;
		if (used + rlen > cap) {
			size_t want = (used + rlen) * 2;
			char *more = realloc(*buf, want);
			if (!more)
				return -ENOMEM;
			*buf = more;
			cap = want;
		}
		memcpy(*buf + used, root, rlen);
		used += rlen;
		(*lens)[(*n)++] = rlen;
	}
	return 0;
}

size_t regset_roots_above(struct regset *s, const char *dotted, size_t len,
			  void (*fn)(void *ctx, const char *root, size_t rlen), void *ctx)
{
	char *buf;
	size_t *lens, n, at = 0;

	/* copied under one hold of the lock and given after it (FN emits): a
	 * registration that changes meanwhile can neither repeat a root nor
	 * hide one, as taking up the scan again by position could */
	pthread_rwlock_rdlock(&s->lock);
	int rc = copy_roots_above(s->live, dotted, len, &buf, &lens, &n);
	pthread_rwlock_unlock(&s->lock);
	if (rc < 0)
		sj_warn("the classes above %.*s: out of memory; %zu of their root patterns are told",
			(int)len, dotted, n);
	for (size_t j = 0; j < n; j++) {
		fn(ctx, buf + at, lens[j]);
		at += lens[j];
	}
	free(buf);
	free(lens);
	return n;
}

uint8_t regset_match_class(struct regset *s, uint8_t kind, uint8_t bit, const char *sig, size_t len,
			   struct fire_set *fire)
{
	struct found f = { .fire = fire, .bit = bit };

	if (kind != WIRE_KIND_CLASS && kind != WIRE_KIND_EXCEPTION)
		return 0;
	pthread_rwlock_rdlock(&s->lock);
	if ((f.sn = s->live) && f.sn->ev_bits[kind]) {
		f.of = f.sn->of[kind];
		f.all = f.sn->ev_bits[kind];
		patindex_match_class(f.sn->ix[kind], sig, len, found_class, &f);
	}
	pthread_rwlock_unlock(&s->lock);
	return f.bits;
}

bool regset_may_select_class(struct regset *s, uint8_t events, const char *dotted, size_t len)
{
	struct found f = { .want = events };
	bool may = false;

	pthread_rwlock_rdlock(&s->lock);
	if ((f.sn = s->live) && (f.sn->ev_bits[WIRE_KIND_METHOD] & events)) {
		f.of = f.sn->of[WIRE_KIND_METHOD];
		may = patindex_method_classes(f.sn->ix[WIRE_KIND_METHOD], dotted, len, found_any, &f);
		for (size_t k = 0; !may && k < f.sn->nroots; k++) {
			const struct reg *r = f.sn->v[f.sn->roots[k]];
			size_t rlen;
			const char *root = pattern_root(r->pat, &rlen);
			may = (r->events & events) &&
			      ((rlen == len && memcmp(root, dotted, len) == 0) ||
			       lineage_descends(NULL, dotted, len, root, rlen));
		}
	}
	pthread_rwlock_unlock(&s->lock);
	return may;
}
