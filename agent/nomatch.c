/* nomatch.c: see nomatch.h. */
#include "nomatch.h"

#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "conn.h"
#include "emit.h"
#include "mcache.h"
#include "similar.h"

/* How far a loaded name may be from the pattern to be offered. */
#define NOMATCH_SIMILAR 4u

struct search {
	const struct reg *r;
	bool found;
	bool class_seen;          /* a loaded class the method pattern may select */
	unsigned best;            /* distance of similar[] */
	char similar[512];        /* the closest loaded name so far, "" if none */
};

/* Keep NAME as the suggestion when it is the closest so far. */
static void consider(struct search *s, const char *name, size_t len)
{
	size_t plen;
	const char *text = pattern_text(&s->r->pat, &plen);
	unsigned d = similar_distance(text, plen, name, len, s->best - 1);

	if (d < s->best && len < sizeof(s->similar)) {
		s->best = d;
		memcpy(s->similar, name, len);
		s->similar[len] = '\0';
	}
}

/* One method of a class the pattern may select: a match ends the search. */
static bool search_method(void *arg, const struct mentry *e)
{
	struct search *s = arg;
	/* a pattern without a descriptor is compared with names without one */
	bool descriptor = memchr(s->r->text, '(', s->r->text_len) != NULL;

	s->found = pattern_match_method(&s->r->pat, e->name, e->name_len);
	if (!s->found)
		consider(s, e->name, descriptor ? e->name_len : e->desc_off);
	return !s->found;
}

static int search_methods(struct search *s, jclass klass, const char *sig)
{
	s->class_seen |= mcache_each_method(&s->r->pat, klass, sig, search_method, s);
	return s->found;
}

static int search_class(void *arg, JNIEnv *jni, jclass klass, const char *sig)
{
	struct search *s = arg;
	size_t len = strlen(sig);

	if (s->r->kind == WIRE_KIND_METHOD)
		return search_methods(s, klass, sig);
	s->found = pattern_match_class(&s->r->pat, sig, len);
	if (!s->found) {
		char dotted[512];
		ssize_t dn = name_class_signature_to_dotted(sig, len, dotted, sizeof(dotted));
		if (dn > 0)
			consider(s, dotted, (size_t)dn);
	}
	return s->found;
}

void nomatch_check(struct conn *c, JNIEnv *jni)
{
	if (!jni || !(c->peer.caps & WIRE_CAP_NOTICE))
		return;
	/* the I/O thread alone changes registrations: read without the lock */
	for (size_t i = 0; i < c->nregs; i++) {
		struct reg *r = c->regs[i];
		struct search s = { .r = r, .best = NOMATCH_SIMILAR + 1 };

		if (r->checked)
			continue;
		/* the same pattern for several events (a slot each): said once */
		for (size_t j = i; j < c->nregs; j++)
			if (c->regs[j]->kind == r->kind && c->regs[j]->text_len == r->text_len &&
			    memcmp(c->regs[j]->text, r->text, r->text_len) == 0)
				c->regs[j]->checked = true;
		/* a wildcard may select thousands of classes: only a name is looked
		 * for; and a class that is not loaded yet may well load later (a
		 * session usually registers before main runs): only a method its
		 * loaded class lacks is a sure mistake */
		if (r->kind != WIRE_KIND_METHOD || !pattern_is_literal(&r->pat))
			continue;
		if (agent_each_prepared_class(jni, false, search_class, &s) < 0 || s.found || !s.class_seen)
			continue;
		emit_notice(1u << (c - conns), "java.method pattern '%s': its class is loaded and declares no "
			    "such method (an inherited one is its declaring class's)%s%s", r->text,
			    s.similar[0] ? "; similar: " : "", s.similar);
	}
}
