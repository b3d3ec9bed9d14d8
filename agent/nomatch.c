/* nomatch.c: see nomatch.h. */
#include "nomatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "conn.h"
#include "emit.h"
#include "mcache.h"
#include "patindex.h"
#include "similar.h"

/* How far a loaded name may be from the pattern to be offered. */
#define NOMATCH_SIMILAR 4u

struct search {
	struct reg *r;
	size_t pos;               /* in the connection's list: Notices go in that order */
	bool found;
	bool class_seen;          /* a loaded class the method pattern may select */
	unsigned best;            /* distance of similar[] */
	char similar[512];        /* the closest loaded name so far, "" if none */
	/* a line pattern: its method's pattern, and the lines with code
	 * nearest to the line in the methods that pattern selects */
	struct pattern *base;
	uint32_t line, below, above;
	char method[512];         /* the first such method, "" if none */
};

/* The literal method patterns of one batch, indexed, and what was found of
 * each (made when a loaded class may have its method: most never are). */
struct pick {
	struct reg *r;
	size_t pos;
};

struct check {
	struct pick *r;
	const struct pattern **pats;
	struct search **s;
	size_t n;
	struct patindex *ix;
	jclass klass;             /* the class being looked at */
	const char *sig;
};

/* Keep NAME as the suggestion when it is the closest so far. */
static void consider(struct search *s, const char *name, size_t len)
{
	size_t plen;
	const char *text = pattern_text(s->r->pat, &plen);
	unsigned d = similar_distance(text, plen, name, len, s->best - 1);

	if (d < s->best && len < sizeof(s->similar)) {
		s->best = d;
		memcpy(s->similar, name, len);
		s->similar[len] = '\0';
	}
}

/* A line pattern's method E: has it code at the line? If not, the lines
 * nearest it that have. */
static bool line_has_code(struct search *s, const struct mentry *e)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiLineNumberEntry *t = NULL;
	jint n = 0;
	bool found = false, first = !s->method[0];

	/* the nearest lines are the first method's, the one the Notice names */
	if (first && e->name_len < sizeof(s->method)) {
		memcpy(s->method, e->name, e->name_len);
		s->method[e->name_len] = '\0';
	}
	if (!agent.caps.can_get_line_numbers || (*jv)->GetLineNumberTable(jv, e->id, &n, &t) != JVMTI_ERROR_NONE)
		return true;	/* nothing known: nothing said */
	for (jint i = 0; i < n; i++) {
		uint32_t l = (uint32_t)t[i].line_number;
		found |= l == s->line;
		if (first && l < s->line && l > s->below)
			s->below = l;
		if (first && l > s->line && (!s->above || l < s->above))
			s->above = l;
	}
	(*jv)->Deallocate(jv, (unsigned char *)t);
	return found;
}

/* One method of a class the pattern may select: a match ends the search. */
static bool search_method(void *arg, const struct mentry *e)
{
	struct search *s = arg;

	if (s->base) {
		if (pattern_match_method(s->base, e->name, e->name_len))
			s->found = line_has_code(s, e);
		else
			consider(s, e->name, e->name_len);
		return !s->found;
	}
	/* a pattern without a descriptor is compared with names without one */
	bool descriptor = memchr(s->r->text, '(', s->r->text_len) != NULL;

	s->found = pattern_match_method(s->r->pat, e->name, e->name_len);
	if (!s->found)
		consider(s, e->name, descriptor ? e->name_len : e->desc_off);
	return !s->found;
}

/* The pattern of the method whose line line pattern P selects. */
static struct pattern *line_base(const struct pattern *p)
{
	static struct pattern tmp;	/* the I/O thread's alone; 4 KiB off its stack */
	size_t len;
	const char *text = pattern_text(p, &len);
	while (len && text[len - 1] != ':')
		len--;
	if (len < 2 || pattern_compile(&tmp, PATTERN_METHOD, text, len - 1, NULL, 0) < 0)
		return NULL;
	return pattern_dup(&tmp);
}

/* Pattern I may select a method of the class looked at: search its methods. */
static bool search_class_of(void *arg, size_t i)
{
	struct check *k = arg;
	struct search *s = k->s[i];

	if (!s && (s = k->s[i] = calloc(1, sizeof(*s)))) {
		s->r = k->r[i].r;
		s->pos = k->r[i].pos;
		s->best = NOMATCH_SIMILAR + 1;
		s->line = pattern_line(s->r->pat);
		if (s->line && !(s->base = line_base(s->r->pat)))
			s->found = true;	/* no memory: nothing said */
	}
	if (s && !s->found)
		s->class_seen |= mcache_each_method(s->r->pat, k->klass, k->sig, search_method, s);
	return false;
}

static int visit_class(void *arg, JNIEnv *jni, jclass klass, const char *sig)
{
	struct check *k = arg;
	char dotted[1024];
	ssize_t dn = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));

	if (dn > 0) {
		k->klass = klass;
		k->sig = sig;
		patindex_method_classes(k->ix, dotted, (size_t)dn, search_class_of, k);
	}
	return 0;
}

static int same_text(const struct reg *x, const struct reg *y)
{
	if (x->text_len != y->text_len)
		return x->text_len < y->text_len ? -1 : 1;
	return memcmp(x->text, y->text, x->text_len);
}

/* By text, then by position: the first of equal texts is the earliest. */
static int by_text(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	int d = same_text(x->r, y->r);

	return d ? d : x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int by_position(const void *a, const void *b)
{
	const struct search *x = *(struct search *const *)a, *y = *(struct search *const *)b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The literal method patterns not checked yet, each text once (the same
 * pattern for several events, a slot each, is said once); every new one
 * is checked from now on. 0, or -1 (no memory: none is said). */
static int collect(struct conn *c, struct check *k)
{
	struct regset *rs = &c->regs;
	size_t n = 0;

	/* the I/O thread alone changes the list: read without a lock */
	for (size_t i = 0; i < rs->n; i++)
		n += !rs->v[i]->checked;
	k->r = malloc((n ? n : 1) * sizeof(*k->r));
	if (!k->r)
		return -1;
	for (size_t i = 0; i < rs->n; i++) {
		struct reg *r = rs->v[i];
		if (r->checked)
			continue;
		r->checked = true;
		/* a wildcard may select thousands of classes: only a name is looked
		 * for; and a class that is not loaded yet may well load later (a
		 * session usually registers before main runs): only a method its
		 * loaded class lacks is a sure mistake */
		if (r->kind == WIRE_KIND_METHOD && (pattern_is_literal(r->pat) || pattern_line(r->pat)))
			k->r[k->n++] = (struct pick){ r, i };
	}
	qsort(k->r, k->n, sizeof(*k->r), by_text);
	n = 0;
	for (size_t i = 0; i < k->n; i++)
		if (n == 0 || same_text(k->r[n - 1].r, k->r[i].r) != 0)
			k->r[n++] = k->r[i];
	k->n = n;
	k->pats = malloc((n ? n : 1) * sizeof(*k->pats));
	k->s = calloc(n ? n : 1, sizeof(*k->s));
	if (!k->pats || !k->s)
		return -1;
	for (size_t i = 0; i < n; i++)
		k->pats[i] = k->r[i].r->pat;
	return patindex_build(&k->ix, PATTERN_METHOD, k->pats, n) < 0 ? -1 : 0;
}

void nomatch_say_line(uint32_t want, const char *text, uint32_t line, const char *method, uint32_t below,
		      uint32_t above)
{
	char near[64] = "";

	if (below || above)
		snprintf(near, sizeof near, "; the nearest lines with code: %.0u%s%.0u", below,
			 below && above ? ", " : "", above);
	emit_notice(want, "java.method pattern '%s': line %u of %s has no code%s", text, line, method, near);
}

void nomatch_check(struct conn *c, JNIEnv *jni)
{
	struct check k = { 0 };
	size_t nsaid = 0;

	if (!jni || !(c->peer.caps & WIRE_CAP_NOTICE))
		return;
	/* one walk of the loaded classes for every pattern of the batch, each
	 * class looked up in their index: a burst of 10,000 patterns walked the
	 * classes 10,000 times */
	if (collect(c, &k) == 0 && k.n &&
	    agent_each_prepared_class(jni, false, visit_class, &k) == 0) {
		for (size_t i = 0; i < k.n; i++)
			/* a line pattern's may select any class (its "*C"): it is
			 * said only of a method it selects that lacks the line */
			if (k.s[i] && !k.s[i]->found && (k.s[i]->line ? k.s[i]->method[0] : k.s[i]->class_seen))
				k.s[nsaid++] = k.s[i];
			else if (k.s[i])
				free(k.s[i]->base), free(k.s[i]);
		qsort(k.s, nsaid, sizeof(*k.s), by_position);
		for (size_t i = 0; i < nsaid; i++) {
			struct search *s = k.s[i];
			if (s->method[0]) {
				/* said once, here or by the class-file hook (a retransform
				 * for this very registration comes first) */
				if (!__atomic_exchange_n(&s->r->nocode_said, true, __ATOMIC_RELAXED))
					nomatch_say_line(1u << (c - conns), s->r->text, s->line, s->method,
							 s->below, s->above);
				free(s->base);
				free(s);
				continue;
			}
			emit_notice(1u << (c - conns), "java.method pattern '%s': its class is loaded and declares "
				    "no such method (an inherited one is its declaring class's)%s%s", s->r->text,
				    s->similar[0] ? "; similar: " : "", s->similar);
			free(s->base);
			free(s);
		}
	} else if (k.s) {
		for (size_t i = 0; i < k.n; i++)
			if (k.s[i])
				free(k.s[i]->base);
		for (size_t i = 0; i < k.n; i++)
			free(k.s[i]);
	}
	patindex_free(k.ix);
	free(k.r);
	free(k.pats);
	free(k.s);
}
