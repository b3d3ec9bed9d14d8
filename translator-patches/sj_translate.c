/* sj_translate.c: see sj_translate.h.
 *
 * Where a probe point can be: at brace depth 0 and outside parentheses, so
 * `java.method(...)` is rewritten in probe headers, alias definitions, both
 * branches of %( %) conditionals and @define bodies alike, but never in a
 * handler (where `java . method("x")` would be string concatenation).  Deciding
 * about synchronous dispatch needs more: which tokens start a probe point of a
 * `probe` header, tracked by a small state machine below.  The same machine reads
 * stap's pass-1 parse tree when conditionals or macros leave the user's text
 * undecided (sj_translation_resolve): there, slot probes are names already.
 */
#include "sj_translate.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "jfrspec.h"
#include "pattern.h"
#include "similar.h"
#include "sj_diag.h"
#include "sj_lex.h"

/* A kind of probe point; its event types are those of the table of events
 * (events.h), the first the default. */
struct kind_info {
	const char *name;
	uint8_t wire_kind;
	const char *first;	/* the default event's word, from the table */
	char expected[96];	/* "enter, return or compile", for the error message */
};

static struct kind_info kinds[] = {
	[SJ_KIND_METHOD] = { "method", WIRE_KIND_METHOD, NULL, "" },
	[SJ_KIND_CLASS] = { "class", WIRE_KIND_CLASS, NULL, "" },
	[SJ_KIND_EXCEPTION] = { "exception", WIRE_KIND_EXCEPTION, NULL, "" },
};

static const struct kind_info *kind_info(enum sj_kind kind)
{
	struct kind_info *ki = &kinds[kind];

	if (!ki->first) {
		const struct event_desc *ev;

		ki->first = events_word(events_of_kind(ki->wire_kind, 0));
		for (size_t i = 0; (ev = events_of_kind(ki->wire_kind, i)); i++) {
			size_t at = strlen(ki->expected);
			snprintf(ki->expected + at, sizeof ki->expected - at, "%s%s",
				 i == 0 ? "" : events_of_kind(ki->wire_kind, i + 1) ? ", " : " or ",
				 events_word(ev));
		}
	}
	return ki;
}

const char *sj_kind_name(enum sj_kind kind)
{
	return kinds[kind].name;
}

#define MAX_PP_NESTING 64

struct pp_frame {
	bool saved_at_pp;
	bool define_body;
};

struct scan {
	struct sj_translation *t;
	const char *name, *buf;
	size_t len;
	struct sj_token *tk;
	size_t n;
	struct sj_buf *out;
	size_t copied;		/* bytes of buf already in out */
	int brace, paren;
	bool in_header, at_pp, define_pending;
	bool resolving;		/* reading stap -p1's output: nothing to rewrite */
	size_t java_hdr[SJ_MAX_SLOTS];	/* slots of java(...) points in this probe header */
	size_t njava_hdr;
	bool java_body;		/* in the handler of a probe with java(...) points */
	unsigned java_needs;	/* SJ_OPT_* that handler asks for */
	long pending;		/* token starting the current probe point, -1: none */
	struct pp_frame stack[MAX_PP_NESTING];
	int depth, define_depth;
	int oom;
};

static void error_at(struct scan *s, const struct sj_token *tok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error_at(struct scan *s, const struct sj_token *tok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (sj_diag_error(&s->t->errors, s->name, s->buf, s->len, tok, fmt, ap) < 0)
		s->oom = 1;
	va_end(ap);
	s->t->nerrors++;
}

static const struct sj_token *tok(const struct scan *s, size_t i)
{
	return &s->tk[i < s->n ? i : s->n];	/* the EOF token past the end */
}

static bool is_op(const struct sj_token *t, const char *op)
{
	return sj_tok_is(t, SJ_TOK_OP, op);
}

static int push_name(char ***v, size_t *n, const char *text, size_t len)
{
	char **bigger = realloc(*v, (*n + 1) * sizeof **v);
	if (!bigger)
		return -ENOMEM;
	*v = bigger;
	if (!(bigger[*n] = strndup(text, len)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

/* --- slots ------------------------------------------------------------------------ */

/* The slot of (KIND, EVENT, PATTERN), added if new; -ENOSPC when all are taken. */
static int slot_for(struct sj_translation *t, enum sj_kind kind, const char *event,
		    const char *pattern)
{
	for (size_t i = 0; i < t->nslots; i++) {
		const struct sj_slot *sl = &t->slots[i];
		if (sl->kind == kind && sl->event == event && strcmp(sl->pattern, pattern) == 0)
			return (int)i;
	}
	if (t->nslots == SJ_MAX_SLOTS)
		return -ENOSPC;
	char *copy = strdup(pattern);
	if (!copy)
		return -ENOMEM;
	/* used until stap's pass 1 says otherwise (sj_translation_resolve) */
	t->slots[t->nslots] = (struct sj_slot){ kind, event, copy, true, NULL };
	return (int)t->nslots++;
}

/* Copy buf up to OFF, then NAME in place of [OFF, END): newlines are kept and
 * every other byte becomes a space, so what follows stays put. */
static int emit_text(struct scan *s, size_t off, size_t end, const char *name)
{
	int nlen = (int)strlen(name);
	int rc = sj_buf_add(s->out, s->buf + s->copied, off - s->copied);

	rc |= sj_buf_add(s->out, name, (size_t)nlen);
	for (size_t i = off; i < end; i++) {
		if (s->buf[i] == '\n')
			rc |= sj_buf_add(s->out, "\n", 1);
		else if (i - off >= (size_t)nlen || memchr(s->buf + off, '\n', i - off))
			rc |= sj_buf_add(s->out, " ", 1);
	}
	s->copied = end;
	return rc ? -ENOMEM : 0;
}

/* The slot probe's name in place of [OFF, END). */
static int emit_replacement(struct scan *s, size_t off, size_t end, int slot)
{
	char name[32];

	snprintf(name, sizeof name, SJ_SLOT_PREFIX "%d", slot);
	return emit_text(s, off, end, name);
}

/* --- one java.KIND("PATTERN")[.EVENT] point ----------------------------------------- */

/* The pattern text of token P (a string literal or @N) into OUT; false after an error. */
static bool pattern_argument(struct scan *s, const struct sj_token *p, const char *kname,
			     char *out, size_t outlen)
{
	const char *text;
	size_t len;

	if (p->kind == SJ_TOK_STRING && p->len >= 2 && p->text[p->len - 1] == '"') {
		text = p->text + 1;
		len = p->len - 2;
	} else if (p->kind == SJ_TOK_IDENT && p->len >= 2 && p->text[0] == '@' &&
		   strspn(p->text + 1, "0123456789") == p->len - 1) {
		unsigned long idx = strtoul(p->text + 1, NULL, 10);
		if (idx < 1 || idx > s->t->nscript_args) {
			error_at(s, p, "command line argument index %lu out of range [1-%zu]",
				 idx, s->t->nscript_args);
			return false;
		}
		text = s->t->script_args[idx - 1];
		len = strlen(text);
	} else if (p->kind == SJ_TOK_STRING) {
		error_at(s, p, "Could not find matching closing quote");   /* stap's words */
		return false;
	} else {
		error_at(s, p, "expected a string literal as the pattern of java.%s", kname);
		return false;
	}
	if (len == 0) {
		error_at(s, p, "empty pattern in java.%s", kname);
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\'' || text[i] == '\\' || text[i] == '"') {
			error_at(s, p, "bad pattern in java.%s: %s at offset %zu cannot occur in a Java name",
				 kname, text[i] == '\'' ? "quote" : text[i] == '"' ? "double quote" : "backslash", i);
			return false;
		}
	}
	static struct pattern compiled;	/* 4 KiB: too big for comfort on the stack */
	char err[256];
	enum pattern_kind pk = strcmp(kname, "method") == 0 ? PATTERN_METHOD : PATTERN_CLASS;
	if (pattern_compile(&compiled, pk, text, len, err, sizeof err) < 0) {
		error_at(s, p, "bad pattern in java.%s: %s", kname, err);
		return false;
	}
	size_t nlen;
	const char *norm = pattern_text(&compiled, &nlen);
	if (nlen + 1 > outlen) {
		error_at(s, p, "bad pattern in java.%s: too long", kname);
		return false;
	}
	memcpy(out, norm, nlen + 1);
	return true;
}

/* Tokens I, I+1, I+2 are `java` `.` KIND.  Returns the index of the first token
 * after the point (after an error: where scanning goes on). */
static size_t java_point(struct scan *s, size_t i, enum sj_kind kind)
{
	const struct kind_info *ki = kind_info(kind);
	const char *event = ki->first;
	size_t j = i + 3;
	static char pattern[PATTERN_MAX_LEN + 1];

	if (!is_op(tok(s, j), "(")) {
		error_at(s, tok(s, j), "expected '(' and a pattern after java.%s", ki->name);
		return j;
	}
	bool ok = pattern_argument(s, tok(s, j + 1), ki->name, pattern, sizeof pattern);
	if (!is_op(tok(s, j + 2), ")")) {
		if (ok)
			error_at(s, tok(s, j + 2), "expected ')' after the pattern of java.%s", ki->name);
		return j + 2;
	}
	j += 3;
	if (is_op(tok(s, j), ".")) {
		const struct sj_token *ev = tok(s, j + 1);
		event = NULL;
		const struct event_desc *d =
			ev->kind == SJ_TOK_IDENT ? events_by_kind_word(ki->wire_kind, ev->text, ev->len) : NULL;
		if (d)
			event = events_word(d);
		if (!event) {
			if (ev->kind == SJ_TOK_IDENT)
				error_at(s, ev, "unknown event type '%.*s' of java.%s (expected %s)",
					 (int)ev->len, ev->text, ki->name, ki->expected);
			else
				error_at(s, ev, "expected an event type of java.%s (%s)", ki->name,
					 ki->expected);
			return j + 1;
		}
		j += 2;
		if (is_op(tok(s, j), ".")) {
			error_at(s, tok(s, j), "expected the end of the probe point after java.%s(...).%s",
				 ki->name, event);
			return j;
		}
	}
	if (!ok)
		return j;
	int slot = slot_for(s->t, kind, event, pattern);
	if (slot == -ENOSPC) {
		error_at(s, tok(s, i), "too many Java probe points: at most %d distinct java.method/class/exception points per script, all branches of %%( %%) conditionals counted",
			 SJ_MAX_SLOTS);
		return j;
	}
	if (slot < 0 || emit_replacement(s, tok(s, i)->off, tok(s, j - 1)->off + tok(s, j - 1)->len, slot) < 0)
		s->oom = 1;
	return j;
}

/* --- SystemTap's java("PNAME"|PID).class("C").method("M")[.return] ------------------ */

/* A slot of its own for the java(...) point P (taken over), or the slot of
 * the same text: its index, -ENOSPC or -ENOMEM. */
static int java_slot_for(struct sj_translation *t, struct sj_java_point *p)
{
	for (size_t i = 0; i < t->nslots; i++) {
		const struct sj_java_point *q = t->slots[i].java;
		if (q && q->is_companion == p->is_companion && strcmp(q->text, p->text) == 0) {
			sj_java_point_free(p);
			return (int)i;
		}
	}
	if (t->nslots == SJ_MAX_SLOTS)
		return -ENOSPC;
	struct sj_java_point *kept = malloc(sizeof *kept);
	char *pattern = strdup(p->pattern);
	if (!kept || !pattern) {
		free(kept);
		free(pattern);
		return -ENOMEM;
	}
	*kept = *p;
	const char *event = events_word(events_get(p->ret ? WIRE_EV_METHOD_EXIT : WIRE_EV_METHOD_ENTER));
	t->slots[t->nslots] = (struct sj_slot){ SJ_KIND_METHOD, event, pattern, true, kept };
	return (int)t->nslots++;
}

/* Tokens I, I+1 are `java` `(`. */
static size_t java_form(struct scan *s, size_t i)
{
	struct sj_java_point p;
	struct sj_java_error err;
	size_t j = sj_java_parse(s->tk, s->n, i, s->t->script_args, s->t->nscript_args, &p, &err);

	if (!p.text) {
		error_at(s, tok(s, err.tok), "%s", err.msg);
		sj_java_point_free(&p);
		return j > i ? j : i + 1;
	}
	int slot = java_slot_for(s->t, &p);
	if (slot == -ENOSPC) {
		sj_java_point_free(&p);
		error_at(s, tok(s, i), "too many Java probe points: at most %d distinct java.method/class/exception points per script, all branches of %%( %%) conditionals counted",
			 SJ_MAX_SLOTS);
		return j;
	}
	if (slot < 0 || emit_replacement(s, tok(s, i)->off, tok(s, j - 1)->off + tok(s, j - 1)->len, slot) < 0) {
		s->oom = 1;
		return j;
	}
	if (s->in_header && s->njava_hdr < SJ_MAX_SLOTS)
		s->java_hdr[s->njava_hdr++] = (size_t)slot;
	return j;
}

/* The handler of a probe with java(...) points is over: what it reads is
 * asked for each of them, and a .return that reads the arguments gets its
 * companion. */
static void java_body_end(struct scan *s)
{
	struct sj_translation *t = s->t;

	for (size_t k = 0; k < s->njava_hdr; k++) {
		struct sj_java_point *p = t->slots[s->java_hdr[k]].java;
		p->optional |= s->java_needs;
		t->optional |= s->java_needs;
		if (!p->ret || !(p->optional & SJ_OPT_ARGS) || p->companion >= 0)
			continue;
		struct sj_java_point c;
		if (sj_java_point_copy(&c, p) < 0) {
			s->oom = 1;
			return;
		}
		c.ret = false;
		c.is_companion = true;
		c.optional = SJ_OPT_ARGS;
		int slot = java_slot_for(t, &c);
		if (slot == -ENOSPC) {
			sj_java_point_free(&c);
			error_at(s, tok(s, 0), "too many Java probe points: at most %d, the enter points that keep the arguments of .return points counted",
				 SJ_MAX_SLOTS);
			return;
		}
		if (slot < 0) {
			s->oom = 1;
			return;
		}
		t->slots[s->java_hdr[k]].java->companion = slot;
	}
	s->njava_hdr = 0;
	s->java_body = false;
	s->java_needs = 0;
}

/* Token I in such a handler: stap's Java variables and functions become ours. */
static size_t java_rewrite(struct scan *s, size_t i)
{
	char text[64];
	size_t k = sj_java_rewrite(s->tk, s->n, i, text, sizeof text, &s->java_needs);
	const char *no = k ? NULL : sj_java_unservable(s->tk, s->n, i);

	if (no) {
		error_at(s, tok(s, i), "%s", no);
		return 1;
	}
	if (k == 0)
		return 0;
	const struct sj_token *last = tok(s, i + k - 1);
	if (emit_text(s, tok(s, i)->off, last->off + last->len, text) < 0)
		s->oom = 1;
	return k;
}

/* --- one java.jfr("TYPE"[, "SETTINGS"]) point (sj_jfr.h) ----------------------------- */

/* The text of string literal P into *TEXT, *LEN; false after an error. */
static bool jfr_string(struct scan *s, const struct sj_token *p, const char *what, const char **text,
		       size_t *len)
{
	if (p->kind == SJ_TOK_STRING && p->len >= 2 && p->text[p->len - 1] == '"') {
		*text = p->text + 1;
		*len = p->len - 2;
		return true;
	}
	error_at(s, p, "expected a string literal as the %s of java.jfr", what);
	return false;
}

/* Tokens I, I+1, I+2 are `java` `.` `jfr`.  Returns the index of the first
 * token after the point (after an error: where scanning goes on). */
static size_t java_jfr_point(struct scan *s, size_t i)
{
	static char spec[JFRSPEC_MAX_PATTERN + JFRSPEC_MAX_SETTINGS * (JFRSPEC_MAX_NAME + JFRSPEC_MAX_VALUE + 2) + 2];
	const char *type = NULL, *settings = NULL;
	size_t j = i + 3, tlen = 0, slen = 0, stok = 0;
	char err[300];

	if (!is_op(tok(s, j), "(")) {
		error_at(s, tok(s, j), "expected '(' and an event type after java.jfr");
		return j;
	}
	bool ok = jfr_string(s, tok(s, j + 1), "event type", &type, &tlen);
	j += 2;
	if (ok && is_op(tok(s, j), ",")) {
		stok = j + 1;
		ok = jfr_string(s, tok(s, stok), "settings", &settings, &slen);
		j += 2;
	}
	if (!is_op(tok(s, j), ")")) {
		if (ok)
			error_at(s, tok(s, j), "expected ')' after the event type (and settings) of java.jfr");
		return j;
	}
	j++;
	if (is_op(tok(s, j), ".")) {
		error_at(s, tok(s, j), "expected the end of the probe point after java.jfr(...)");
		return j;
	}
	if (!ok)
		return j;
	if (sj_jfr_spec(type, tlen, settings, slen, spec, sizeof spec, err, sizeof err) < 0) {
		/* the type alone right: the settings are what is wrong */
		char ignored[8];
		bool type_ok = stok && sj_jfr_spec(type, tlen, NULL, 0, spec, sizeof spec, ignored, sizeof ignored) == 0;
		error_at(s, tok(s, type_ok ? stok : i + 4), "bad java.jfr point: %s", err);
		return j;
	}
	int n = sj_jfr_point_for(&s->t->jfr, spec);
	if (n == -ENOSPC) {
		error_at(s, tok(s, i), "too many java.jfr points: at most %d distinct ones per script, all "
			 "branches of %%( %%) conditionals counted", SJ_MAX_JFR);
		return j;
	}
	char name[32];
	snprintf(name, sizeof name, SJ_JFR_PREFIX "%d", n);
	if (n < 0 || emit_text(s, tok(s, i)->off, tok(s, j - 1)->off + tok(s, j - 1)->len, name) < 0)
		s->oom = 1;
	return j;
}

static bool is_java_jfr(const struct scan *s, size_t i)
{
	return sj_tok_is(tok(s, i), SJ_TOK_IDENT, "java") && is_op(tok(s, i + 1), ".") &&
	       sj_tok_is(tok(s, i + 2), SJ_TOK_IDENT, "jfr") && is_op(tok(s, i + 3), "(");
}

/* Tokens I.. are `java` `.` WORD `(` with WORD no kind: a kind it is a typo of,
 * or NULL (stap says what it thinks of the rest). */
static const char *misspelt_kind(const struct scan *s, size_t i)
{
	const struct sj_token *w = tok(s, i + 2);

	if (!sj_tok_is(tok(s, i), SJ_TOK_IDENT, "java") || !is_op(tok(s, i + 1), ".") ||
	    w->kind != SJ_TOK_IDENT || !is_op(tok(s, i + 3), "("))
		return NULL;
	for (int k = SJ_KIND_METHOD; k <= SJ_KIND_EXCEPTION; k++)
		if (similar_distance(w->text, w->len, kinds[k].name, strlen(kinds[k].name), 2) <= 2)
			return kinds[k].name;
	return NULL;
}

static int java_kind(const struct scan *s, size_t i)
{
	if (!sj_tok_is(tok(s, i), SJ_TOK_IDENT, "java") || !is_op(tok(s, i + 1), "."))
		return -1;
	for (int k = SJ_KIND_METHOD; k <= SJ_KIND_EXCEPTION; k++)
		if (sj_tok_is(tok(s, i + 2), SJ_TOK_IDENT, kinds[k].name))
			return k;
	return -1;
}

/* --- which probe points force synchronous dispatch -------------------------------- */

/* The component starting at token I, glued from adjacent identifier and '*' tokens
 * ("gc", "thr*", "*"). */
static size_t component(const struct scan *s, size_t i, char *out, size_t outlen)
{
	size_t n = 0;
	for (size_t k = i; k < s->n; k++) {
		const struct sj_token *t = tok(s, k);
		if (!(t->kind == SJ_TOK_IDENT || is_op(t, "*")) ||
		    (k > i && t->off != tok(s, k - 1)->off + tok(s, k - 1)->len) ||
		    n + t->len >= outlen)
			break;
		memcpy(out + n, t->text, t->len);
		n += t->len;
	}
	out[n] = '\0';
	return n;
}

static void classify_pending(struct scan *s)
{
	static const char *const neutral[] = { "begin", "end", "error", "never", "timer" };
	char first[128], second[128];
	long i = s->pending;

	if (i < 0)
		return;
	s->pending = -1;
	component(s, (size_t)i, first, sizeof first);
	size_t plen = strlen(SJ_SLOT_PREFIX);
	if (strncmp(first, SJ_SLOT_PREFIX, plen) == 0 && first[plen] &&
	    strspn(first + plen, "0123456789") == strlen(first + plen)) {
		unsigned long n = strtoul(first + plen, NULL, 10);
		if (n < s->t->nslots)
			s->t->slots[n].used = true;	/* a Java point kept by stap's pass 1 */
		return;
	}
	plen = strlen(SJ_JFR_PREFIX);
	if (strncmp(first, SJ_JFR_PREFIX, plen) == 0 && first[plen] &&
	    strspn(first + plen, "0123456789") == strlen(first + plen)) {
		unsigned long n = strtoul(first + plen, NULL, 10);
		if (n < s->t->jfr.n)
			s->t->jfr.p[n].used = true;	/* a java.jfr point kept by stap's pass 1 */
		return;
	}
	if (strcmp(first, "java") == 0 && is_op(tok(s, (size_t)i + 1), ".")) {
		component(s, (size_t)i + 2, second, sizeof second);
		for (unsigned f = 0; f < N_SWITCHED_FAMILIES; f++)
			if (fnmatch(second, event_families[f].probe, 0) == 0)
				s->t->families |= EVENT_FAMILY_BIT(event_families[f].family);
		return;
	}
	for (size_t k = 0; k < sizeof neutral / sizeof neutral[0]; k++)
		if (strcmp(first, neutral[k]) == 0)
			return;
	const struct sj_token *t = tok(s, (size_t)i);
	if (push_name(&s->t->other_points, &s->t->nother, first[0] ? first : t->text,
		      first[0] ? strlen(first) : t->len) < 0)
		s->oom = 1;
}

static void preprocessor(struct scan *s, const struct sj_token *t)
{
	if (t->kind == SJ_TOK_PP_IF) {
		/* a conditional, or a macro that may be used as a probe point */
		s->t->needs_resolution = true;
		if (s->depth < MAX_PP_NESTING)
			s->stack[s->depth] = (struct pp_frame){ s->at_pp, s->define_pending };
		s->depth++;
		s->define_depth += s->define_pending;
		s->define_pending = false;
		s->at_pp = false;	/* a condition, or a macro body */
		return;
	}
	if (s->depth == 0)
		return;
	struct pp_frame *f = &s->stack[s->depth <= MAX_PP_NESTING ? s->depth - 1 : MAX_PP_NESTING - 1];
	if (t->kind == SJ_TOK_PP_END) {
		s->define_depth -= f->define_body;
		s->depth--;
		return;
	}
	if (t->kind == SJ_TOK_PP_ELSE)
		classify_pending(s);
	if (!f->define_body)
		s->at_pp = f->saved_at_pp;
}

/* One token that is not part of a java.KIND point. */
static void track(struct scan *s, size_t i)
{
	const struct sj_token *t = tok(s, i);
	bool top = s->brace == 0 && s->paren == 0;
	bool header = top && s->in_header;

	if (t->kind >= SJ_TOK_PP_IF) {
		preprocessor(s, t);
	} else if (t->kind == SJ_TOK_IDENT && top && sj_tok_is(t, SJ_TOK_IDENT, "@define")) {
		s->define_pending = true;
	} else if (t->kind == SJ_TOK_IDENT && top && sj_tok_is(t, SJ_TOK_IDENT, "probe")) {
		s->in_header = s->at_pp = true;
		s->pending = -1;
		s->njava_hdr = 0;
	} else if (is_op(t, "{")) {
		if (header) {
			classify_pending(s);
			s->in_header = s->at_pp = false;
			s->java_body = s->njava_hdr > 0;
		}
		s->brace++;
	} else if (is_op(t, "}")) {
		s->brace -= s->brace > 0;
		if (s->java_body && s->brace == 0)
			java_body_end(s);
	} else if (is_op(t, "(") || is_op(t, "[")) {
		s->paren++;
	} else if (is_op(t, ")") || is_op(t, "]")) {
		s->paren -= s->paren > 0;
	} else if (header && is_op(t, ",")) {
		classify_pending(s);
		s->at_pp = true;
	} else if (header && (is_op(t, "=") || is_op(t, "+="))) {
		if (s->pending >= 0) {
			const struct sj_token *a = tok(s, (size_t)s->pending);
			if (push_name(&s->t->aliases, &s->t->naliases, a->text, a->len) < 0)
				s->oom = 1;
		}
		s->pending = -1;
		s->at_pp = true;
	} else if (header && sj_tok_is(t, SJ_TOK_IDENT, "if")) {
		classify_pending(s);
		s->at_pp = false;
	} else if (header && s->at_pp && s->define_depth == 0) {
		/* @macro, $1 or @1 pasted in: only stap's pass 1 knows what it is */
		if (t->kind == SJ_TOK_IDENT && (t->text[0] == '@' || t->text[0] == '$'))
			s->t->needs_resolution = true;
		s->pending = (long)i;
		s->at_pp = false;
	}
}

const struct sj_optional_desc sj_optional_data[SJ_N_OPTIONAL] = {
	{ "java_arg", SJ_OPT_ARGS, "--args" },
	{ "java_ret", SJ_OPT_RETURN, "--return" },
	{ "java_stack", SJ_OPT_STACK, "--stack" },
	{ "java_monitor_", SJ_OPT_MONITOR, "--monitor-detail" },
};

static void scan_optional_data(struct scan *s, const struct sj_token *t)
{
	char word[256];

	if (t->kind != SJ_TOK_IDENT || t->len >= sizeof word)
		return;
	memcpy(word, t->text, t->len);
	word[t->len] = '\0';
	for (size_t k = 0; k < SJ_N_OPTIONAL; k++)
		if (strstr(word, sj_optional_data[k].word))
			s->t->optional |= sj_optional_data[k].bit;
}

/* Tokenize S->buf and go through it: rewrite Java points (unless resolving) and
 * note what the script uses. */
static int scan_all(struct scan *s)
{
	int rc = sj_lex_all(s->buf, s->len, &s->tk, &s->n);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < s->n && !s->oom;) {
		if (!s->resolving && s->brace == 0 && s->paren == 0 && sj_tok_is(tok(s, i), SJ_TOK_IDENT, "java") &&
		    is_op(tok(s, i + 1), "(")) {
			if (s->in_header && s->at_pp)
				s->at_pp = false;	/* a slot: never forces sync by itself */
			i = java_form(s, i);
			continue;
		}
		if (s->java_body && s->brace > 0 && !s->resolving) {
			size_t k = java_rewrite(s, i);
			if (k) {
				i += k;
				continue;
			}
		}
		int kind = !s->resolving && s->brace == 0 && s->paren == 0 ? java_kind(s, i) : -1;
		if (kind >= 0) {
			if (s->in_header && s->at_pp)
				s->at_pp = false;	/* a slot: never forces sync by itself */
			i = java_point(s, i, (enum sj_kind)kind);
			continue;
		}
		if (!s->resolving && s->brace == 0 && s->paren == 0 && is_java_jfr(s, i)) {
			if (s->in_header && s->at_pp)
				s->at_pp = false;	/* the bridge's marker: never forces sync */
			i = java_jfr_point(s, i);
			continue;
		}
		const char *meant = !s->resolving && s->brace == 0 && s->paren == 0 && s->in_header
			? misspelt_kind(s, i) : NULL;
		if (meant) {
			error_at(s, tok(s, i + 2), "unknown Java probe point 'java.%.*s' (did you mean java.%s?)",
				 (int)tok(s, i + 2)->len, tok(s, i + 2)->text, meant);
			i += 3;
			continue;
		}
		scan_optional_data(s, tok(s, i));
		track(s, i);
		i++;
	}
	classify_pending(s);
	free(s->tk);
	s->tk = NULL;
	return s->oom ? -ENOMEM : 0;
}

int sj_translate_text(struct sj_translation *t, const char *name, const char *buf, size_t len,
		      struct sj_buf *out)
{
	struct scan s = { .t = t, .name = name, .buf = buf, .len = len, .out = out, .pending = -1 };
	int rc = scan_all(&s);

	if (rc == 0 && sj_buf_add(out, buf + s.copied, len - s.copied) < 0)
		rc = -ENOMEM;
	return rc;
}

/* --- the translation as a whole ------------------------------------------------------ */

void sj_translation_init(struct sj_translation *t, char *const *script_args, size_t nargs)
{
	memset(t, 0, sizeof *t);
	t->script_args = script_args;
	t->nscript_args = nargs;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sj_translation_resolve(struct sj_translation *t, const char *parsed, size_t len)
{
	struct scan s = { .t = t, .name = "<stap -p1>", .buf = parsed, .len = len, .pending = -1,
			  .resolving = true };

	for (size_t i = 0; i < t->nslots; i++)
		t->slots[i].used = false;
	for (size_t i = 0; i < t->jfr.n; i++)
		t->jfr.p[i].used = false;
	free_names(t->other_points, t->nother);
	free_names(t->aliases, t->naliases);
	t->other_points = t->aliases = NULL;
	t->nother = t->naliases = 0;
	t->families = t->optional = 0;
	int rc = scan_all(&s);
	/* a companion is used with its return; the handlers' needs were read before */
	for (size_t i = 0; i < t->nslots; i++) {
		const struct sj_java_point *p = t->slots[i].java;
		if (p && p->companion >= 0 && t->slots[i].used)
			t->slots[p->companion].used = true;
		if (p && t->slots[i].used)
			t->optional |= p->optional;
	}
	return rc;
}

void sj_translation_free(struct sj_translation *t)
{
	for (size_t i = 0; i < t->nslots; i++) {
		free(t->slots[i].pattern);
		if (t->slots[i].java)
			sj_java_point_free(t->slots[i].java);
		free(t->slots[i].java);
	}
	free_names(t->other_points, t->nother);
	free_names(t->aliases, t->naliases);
	sj_jfr_points_free(&t->jfr);
	sj_buf_free(&t->errors);
}

bool sj_translation_wants_sync(const struct sj_translation *t)
{
	for (size_t i = 0; i < t->nother; i++) {
		bool alias = false;
		for (size_t k = 0; k < t->naliases && !alias; k++)
			alias = strcmp(t->other_points[i], t->aliases[k]) == 0;
		if (!alias)
			return true;
	}
	return false;
}

bool sj_translation_uses_java(const struct sj_translation *t)
{
	for (size_t i = 0; i < t->nslots; i++)
		if (t->slots[i].used)
			return true;
	return t->families != 0 || sj_jfr_any_used(&t->jfr);
}
