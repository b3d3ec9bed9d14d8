/* sj_list.c: see sj_list.h. */
#define _GNU_SOURCE
#include "sj_list.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfmethods.h"
#include "log.h"
#include "mutf8.h"
#include "sj_classpath.h"
#include "sj_diag.h"
#include "sj_emit.h"
#include "sj_java.h"
#include "sj_lex.h"

#include <regex.h>

/* --- the points ----------------------------------------------------------------- */

static bool is_pattern_point(const struct sj_token *t)
{
	if (sj_tok_is(&t[0], SJ_TOK_IDENT, "java") && sj_tok_is(&t[1], SJ_TOK_OP, "("))
		return true;	/* SystemTap's java(...).class(...).method(...) */
	if (!sj_tok_is(&t[0], SJ_TOK_IDENT, "java") || !sj_tok_is(&t[1], SJ_TOK_OP, ".") ||
	    !sj_tok_is(&t[3], SJ_TOK_OP, "("))
		return false;
	for (int k = SJ_KIND_METHOD; k <= SJ_KIND_EXCEPTION; k++)
		if (sj_tok_is(&t[2], SJ_TOK_IDENT, sj_kind_name((enum sj_kind)k)))
			return true;
	return false;
}

/* TEXT, one java.KIND("PATTERN")[.EVENT] point the translator accepts: its
 * slot, which says its kind, event and normalised pattern. */
static int add_point(struct sj_list *l, const char *text, size_t len)
{
	static struct sj_translation t;	/* 256 slots: too big for comfort on the stack */
	struct sj_buf scratch = { 0 };
	struct sj_list_point *p;
	char err[256];

	p = realloc(l->points, (l->npoints + 1) * sizeof *p);
	if (!p)
		return -ENOMEM;
	l->points = p;
	p = &l->points[l->npoints];
	*p = (struct sj_list_point){ .text = strndup(text, len) };
	sj_translation_init(&t, NULL, 0);
	int rc = p->text ? sj_translate_text(&t, "<input>", text, len, &scratch) : -ENOMEM;
	if (rc == 0 && (t.nerrors || t.nslots != 1))
		rc = -EINVAL;	/* not one point, though the whole argument had no error */
	if (rc == 0) {
		p->kind = t.slots[0].kind;
		p->event = t.slots[0].event;
		const char *pat = t.slots[0].pattern;
		rc = pattern_compile(&p->pattern, p->kind == SJ_KIND_METHOD ? PATTERN_METHOD : PATTERN_CLASS,
				     pat, strlen(pat), err, sizeof err);
	}
	if (rc == 0 && t.slots[0].java) {
		const struct sj_java_point *j = t.slots[0].java;
		rc = (p->java = calloc(1, sizeof *p->java)) ? sj_java_point_copy(p->java, j) : -ENOMEM;
		if (rc == 0 && j->check && (!(p->check = malloc(sizeof(regex_t))) ||
					    regcomp(p->check, j->check, REG_EXTENDED | REG_NOSUB) != 0)) {
			free(p->check);
			p->check = NULL;
			rc = -ENOMEM;
		}
		if (rc < 0) {
			free(p->java);
			p->java = NULL;
		}
	}
	sj_translation_free(&t);
	sj_buf_free(&scratch);
	if (rc < 0) {
		free(p->text);
		return rc == -ENOMEM ? rc : -EINVAL;
	}
	l->npoints++;
	return 0;
}

int sj_list_parse(struct sj_list *l, const char *points)
{
	static struct sj_translation t;
	struct sj_buf text = { 0 }, scratch = { 0 };
	struct sj_token *tk = NULL;
	size_t n = 0;
	int rc;

	*l = (struct sj_list){ 0 };
	/* what stap parses for -L POINTS: its messages show this line */
	rc = sj_buf_printf(&text, "probe %s {}", points);
	sj_translation_init(&t, NULL, 0);
	if (rc == 0)
		rc = sj_translate_text(&t, "<input>", sj_buf_str(&text), text.len, &scratch);
	if (rc == 0 && t.nerrors) {
		l->nerrors = t.nerrors;
		rc = sj_buf_add(&l->errors, t.errors.data, t.errors.len) |
		     sj_diag_summary(&l->errors, t.nerrors);
	}
	sj_translation_free(&t);
	sj_buf_free(&scratch);
	if (rc == 0 && !l->nerrors)
		rc = sj_lex_all(text.data, text.len, &tk, &n);
	/* the points: between "probe" and the body's '{', split at the commas
	 * outside parentheses */
	size_t start = 1;
	int depth = 0;
	for (size_t i = 1; rc == 0 && !l->nerrors && i <= n; i++) {
		const struct sj_token *tok = &tk[i];
		bool end = i == n || (depth == 0 && sj_tok_is(tok, SJ_TOK_OP, "{"));
		if (!end && !(depth == 0 && sj_tok_is(tok, SJ_TOK_OP, ","))) {
			depth += sj_tok_is(tok, SJ_TOK_OP, "(") || sj_tok_is(tok, SJ_TOK_OP, "[");
			depth -= depth > 0 && (sj_tok_is(tok, SJ_TOK_OP, ")") || sj_tok_is(tok, SJ_TOK_OP, "]"));
			continue;
		}
		if (i > start) {
			const char *from = text.data + tk[start].off;
			size_t len = tk[i - 1].off + tk[i - 1].len - tk[start].off;
			if (!(i - start >= 4 && is_pattern_point(&tk[start])))
				rc = (l->others.len ? sj_buf_puts(&l->others, ",") : 0) |
				     sj_buf_add(&l->others, from, len);
			else if ((rc = add_point(l, from, len)) == -EINVAL) {
				/* java.method("A.b")java.class("C"): two points, no comma */
				l->nerrors++;
				rc = sj_buf_printf(&l->errors, "parse error: '%.*s' is not one Java probe point\n",
						   (int)len, from);
			}
		}
		start = i + 1;
		if (end)
			break;
	}
	free(tk);
	sj_buf_free(&text);
	return rc ? -ENOMEM : 0;
}

void sj_list_free(struct sj_list *l)
{
	for (size_t i = 0; i < l->npoints; i++) {
		free(l->points[i].text);
		if (l->points[i].java)
			sj_java_point_free(l->points[i].java);
		free(l->points[i].java);
		if (l->points[i].check)
			regfree(l->points[i].check);
		free(l->points[i].check);
	}
	free(l->points);
	sj_buf_free(&l->others);
	sj_buf_free(&l->errors);
	*l = (struct sj_list){ 0 };
}

/* --- lines ---------------------------------------------------------------------- */

int sj_lines_add(struct sj_lines *lines, const char *s)
{
	if (lines->n == lines->cap) {
		size_t cap = lines->cap ? 2 * lines->cap : 64;
		char **v = realloc(lines->v, cap * sizeof *v);
		if (!v)
			return -ENOMEM;
		lines->v = v;
		lines->cap = cap;
	}
	if (!(lines->v[lines->n] = strdup(s)))
		return -ENOMEM;
	lines->n++;
	return 0;
}

void sj_lines_free(struct sj_lines *lines)
{
	for (size_t i = 0; i < lines->n; i++)
		free(lines->v[i]);
	free(lines->v);
	*lines = (struct sj_lines){ 0 };
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sj_lines_print(const struct sj_lines *lines)
{
	for (size_t i = 0; i < lines->n; i++)
		printf("%s\n", lines->v[i]);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

int sj_list_print(struct sj_lines *lines)
{
	size_t kept = 0;

	if (lines->n)	/* qsort's array must not be NULL, even empty */
		qsort(lines->v, lines->n, sizeof *lines->v, by_text);
	for (size_t i = 0; i < lines->n; i++) {
		if (kept && strcmp(lines->v[i], lines->v[kept - 1]) == 0)
			free(lines->v[i]);
		else
			lines->v[kept++] = lines->v[i];
	}
	lines->n = kept;
	return sj_lines_print(lines);
}

/* A word "$argN:TYPE" of stap's -L output. */
static bool is_marker_arg(const char *w, size_t len)
{
	size_t digits = len > 4 && strncmp(w, "$arg", 4) == 0 ? strspn(w + 4, "0123456789") : 0;
	return digits && 4 + digits < len && w[4 + digits] == ':';
}

void sj_list_strip_args(struct sj_lines *lines)
{
	for (size_t i = 0; i < lines->n; i++) {
		char *line = lines->v[i], *to = line;
		if (strncmp(line, "java.", 5) != 0)
			continue;
		/* in place, word by word: what is kept never moves right */
		for (const char *w = line; *w;) {
			size_t len = strcspn(w, " ");
			if (w == line || !is_marker_arg(w, len)) {
				if (to != line)
					*to++ = ' ';
				memmove(to, w, len);
				to += len;
			}
			w += len;
			w += *w == ' ';
		}
		*to = '\0';
	}
}

/* --- the class path ------------------------------------------------------------- */

/* A class of the class path, for java.class and java.exception; UTF-8. */
struct cls {
	char *name;		/* "com/acme/Shop" */
	char *sig;		/* "Lcom/acme/Shop;" */
	char *dotted;		/* "com.acme.Shop" */
	char *super;		/* "com/acme/Base"; NULL: none */
	uint16_t access;
};

/* A method of a class path's class that a root point ("^C") selects if
 * the class descends from C, which only the whole class path tells. */
struct pending {
	size_t point;
	char *wire;
	char *cls;		/* "com/acme/Sub" */
};

struct reading {
	struct sj_list *l;
	struct pending *pending;
	size_t npending, pendcap;
	char **vars;		/* per point: " NAME:TYPE ..." or "" */
	struct sj_lines *lines;
	struct cls *classes;
	size_t nclasses, cap;
	unsigned problems;
};

static void cls_free(struct cls *c)
{
	free(c->name);
	free(c->sig);
	free(c->dotted);
	free(c->super);
}

/* D (from its '(') as Java source types, "int,java.lang.String[]", into
 * OUT; how many parameters. */
static int source_types(const char *d, struct sj_buf *out)
{
	static const char *const prim[128] = { ['Z'] = "boolean", ['B'] = "byte", ['C'] = "char",
		['S'] = "short", ['I'] = "int", ['J'] = "long", ['F'] = "float", ['D'] = "double" };
	int n = 0, rc = 0;

	for (const char *c = d + 1; *c && *c != ')'; n++) {
		size_t dims = strspn(c, "[");
		c += dims;
		rc |= n ? sj_buf_puts(out, ",") : 0;
		if (*c == 'L') {
			const char *semi = strchr(c, ';');
			if (!semi)
				return -EINVAL;
			for (const char *q = c + 1; q < semi; q++)
				rc |= sj_buf_add(out, *q == '/' ? "." : q, 1);
			c = semi + 1;
		} else if ((unsigned char)*c < 128 && prim[(unsigned char)*c]) {
			rc |= sj_buf_puts(out, prim[(unsigned char)*c]);
			c++;
		} else {
			return -EINVAL;
		}
		for (size_t k = 0; k < dims; k++)
			rc |= sj_buf_puts(out, "[]");
	}
	return rc ? -ENOMEM : n;
}

/* A java(...) point's line for the wire method name NAME. */
static int java_line(const struct sj_list_point *p, const char *vars, const char *name, char **line)
{
	const struct sj_java_point *j = p->java;
	const char *open = strchr(name, '('), *dot = open;
	struct sj_buf b = { 0 };

	while (open && dot > name && dot[-1] != '.')
		dot--;
	if (!open || dot == name)
		return -EINVAL;
	int rc = j->by_pid ? sj_buf_printf(&b, "java(%s)", j->jvm) : sj_buf_printf(&b, "java(\"%s\")", j->jvm);
	rc |= sj_buf_printf(&b, ".class(\"%.*s\").method(\"%.*s(", (int)(dot - 1 - name), name,
			    (int)(open - dot), dot);
	int n = source_types(open, &b);
	const char *colon = strrchr(name, ':');
	rc |= sj_buf_puts(&b, ")");
	if (j->line && colon)
		rc |= sj_buf_puts(&b, colon);
	rc |= sj_buf_printf(&b, "\")%s", j->ret ? ".return" : "");
	if (n < 0 || rc) {
		sj_buf_free(&b);
		return n == -EINVAL ? -EINVAL : -ENOMEM;
	}
	if (*vars) {
		/* stap's variables: the arguments, as strings and as numbers */
		rc = sj_buf_puts(&b, vars);
		for (int k = 1; !j->line && k <= n && k <= SJ_JAVA_MAX_PARAMS; k++)
			rc |= sj_buf_printf(&b, " arg%d:string", k);
		for (int k = 1; !j->line && k <= n && k <= SJ_JAVA_MAX_PARAMS; k++)
			rc |= sj_buf_printf(&b, " $arg%d:long", k);
	}
	if (rc) {
		sj_buf_free(&b);
		return -ENOMEM;
	}
	*line = b.data;
	return 0;
}

static int add_line(struct reading *r, size_t k, const char *name)
{
	struct sj_list_point *p = &r->l->points[k];
	char *line;

	if (p->java) {
		int rc = java_line(p, r->vars[k], name, &line);
		if (rc == -EINVAL)
			return 0;	/* not a name the agent gives: nothing to list */
		if (rc < 0)
			return rc;
	} else if (asprintf(&line, "java.%s(\"%s\").%s%s", sj_kind_name(p->kind), name, p->event, r->vars[k]) < 0) {
		return -ENOMEM;
	}
	p->matched++;
	int rc = sj_lines_add(r->lines, line);
	free(line);
	return rc;
}

/* NAME[0..LEN), modified UTF-8, as a malloc()ed C string in UTF-8 with
 * PREFIX and SUFFIX around it. */
static char *utf8_name(const char *prefix, const char *name, size_t len, const char *suffix)
{
	size_t pl = strlen(prefix), sl = strlen(suffix);
	char *s = malloc(pl + len + sl + 1);

	if (!s)
		return NULL;
	memcpy(s, prefix, pl);
	memcpy(s + pl, name, len);
	len = mutf8_to_utf8(s + pl, len, MUTF8_NAME);
	memcpy(s + pl + len, suffix, sl + 1);
	return s;
}

/* C's names in UTF-8; -EINVAL (*WHY) when the class's is no JVM class name. */
static int cls_names(struct cls *k, const struct cfmethods *c, const char **why)
{
	*k = (struct cls){ .access = c->access };
	k->name = utf8_name("", c->name, c->name_len, "");
	k->sig = utf8_name("L", c->name, c->name_len, ";");
	k->super = c->super ? utf8_name("", c->super, c->super_len, "") : NULL;
	if (!k->name || !k->sig || (c->super && !k->super))
		return -ENOMEM;
	size_t len = strlen(k->sig);
	if (!(k->dotted = malloc(len)))
		return -ENOMEM;
	if (name_class_signature_to_dotted(k->sig, len, k->dotted, len) < 0)
		return *why = "its class name is not a JVM class name", -EINVAL;
	return 0;
}

/* The agent said which classes descend from a root (sj_list_jvm). */
static bool any_descends(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen)
{
	(void)ctx, (void)cls, (void)clen, (void)root, (void)rlen;
	return true;
}

/* Does point PT select the wire method name WIRE (NUL-terminated)? */
static bool point_selects(const struct sj_list_point *pt, const char *wire, size_t n, pattern_descends_fn descends)
{
	return pattern_match_method_via(&pt->pattern, wire, n, descends, NULL) &&
	       (!pt->check || regexec(pt->check, wire, 0, NULL, 0) == 0);
}

/* Room in *V (*CAP elements of SIZE bytes) for element N: 0 or -ENOMEM. */
static int grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : first;
	void *g = realloc(*(void **)v, c * size);
	if (!g)
		return -ENOMEM;
	*(void **)v = g;
	*cap = c;
	return 0;
}

static int add_pending(struct reading *r, size_t point, const char *wire, const char *cls)
{
	if (grow(&r->pending, &r->pendcap, r->npending, sizeof *r->pending, 64) < 0)
		return -ENOMEM;
	struct pending *p = &r->pending[r->npending];
	p->point = point;
	p->wire = strdup(wire);
	p->cls = strdup(cls);
	if (!p->wire || !p->cls) {
		free(p->wire);
		free(p->cls);
		return -ENOMEM;
	}
	r->npending++;
	return 0;
}

static const struct cls *find_class(const struct reading *r, const char *name);

/* The pending methods whose class descends from their point's root, as far
 * as the class path has the superclasses. */
static int resolve_pending(struct reading *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->npending; i++) {
		struct pending *p = &r->pending[i];
		size_t rlen;
		const char *root = pattern_root(&r->l->points[p->point].pattern, &rlen);
		const struct cls *c = find_class(r, p->cls);
		for (size_t depth = 0; rc == 0 && c && c->super && depth <= r->nclasses; depth++) {
			if (strlen(c->super) == rlen) {
				bool same = true;
				for (size_t k = 0; k < rlen; k++)
					same &= c->super[k] == (root[k] == '.' ? '/' : root[k]);
				if (same) {
					rc = add_line(r, p->point, p->wire);
					break;
				}
			}
			c = find_class(r, c->super);
		}
		free(p->wire);
		free(p->cls);
	}
	free(r->pending);
	r->pending = NULL;
	r->npending = 0;
	return rc;
}

static int match_methods(struct reading *r, const struct cfmethods *c, const struct cls *k)
{
	size_t longest = 0, slen = strlen(k->sig), dlen = strlen(k->dotted);
	int rc = 0;

	for (size_t i = 0; i < c->nmethods; i++)
		if (c->methods[i].name_len + c->methods[i].desc_len > longest)
			longest = c->methods[i].name_len + c->methods[i].desc_len;
	char *wire = malloc(slen + longest + 2);
	if (!wire)
		return -ENOMEM;
	for (size_t p = 0; rc == 0 && p < r->l->npoints; p++) {
		const struct pattern *pat = &r->l->points[p].pattern;
		size_t rlen;
		const char *root = pattern_root(pat, &rlen);
		bool own = root && rlen == dlen && memcmp(root, k->dotted, dlen) == 0;
		if (r->l->points[p].kind != SJ_KIND_METHOD ||
		    (!root && !pattern_method_may_select_class(pat, k->dotted, dlen)))
			continue;
		for (size_t i = 0; rc == 0 && i < c->nmethods; i++) {
			const struct cfmethod *m = &c->methods[i];
			if (m->access & (CFM_ACC_ABSTRACT | CFM_ACC_NATIVE))
				continue;	/* no code: never entered */
			ssize_t n = name_method_wire_n(wire, slen + longest + 2, k->sig, m->name, m->name_len,
						       m->desc, m->desc_len);
			if (n < 0 || !point_selects(&r->l->points[p], wire, (size_t)n, any_descends))
				continue;
			rc = !root || own ? add_line(r, p, wire) : add_pending(r, p, wire, k->name);
		}
	}
	free(wire);
	return rc;
}

static int keep_class(struct reading *r, const struct cls *k)
{
	if (grow(&r->classes, &r->cap, r->nclasses, sizeof *r->classes, 256) < 0)
		return -ENOMEM;
	r->classes[r->nclasses++] = *k;
	return 0;
}

static int one_class(void *ctx, const uint8_t *bytes, size_t len, const char *file, const char *entry)
{
	struct reading *r = ctx;
	struct cfmethods c;
	struct cls k = { 0 };
	const char *why;

	int rc = cfmethods_read(bytes, len, &c, &why);
	if (rc == 0)
		rc = cls_names(&k, &c, &why);
	if (rc == 0)
		rc = match_methods(r, &c, &k);
	if (rc == 0)
		rc = keep_class(r, &k);
	cfmethods_free(&c);
	if (rc == 0)
		return 0;
	cls_free(&k);
	if (rc != -EINVAL)
		return rc;
	if (entry)
		sj_error("malformed class file %s in the jar %s: %s", entry, file, why);
	else
		sj_error("malformed class file %s: %s", file, why);
	r->problems++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct cls *)a)->name, ((const struct cls *)b)->name);
}

static const struct cls *find_class(const struct reading *r, const char *name)
{
	struct cls key = { .name = (char *)name };
	return r->nclasses ? bsearch(&key, r->classes, r->nclasses, sizeof *r->classes, by_name) : NULL;
}

/* Might C be a Throwable?  Only its superclasses in the class path tell:
 * one that is not there may be one (java.lang.Exception), Object is not. */
static bool may_be_throwable(const struct reading *r, const struct cls *c)
{
	if (c->access & CFM_ACC_INTERFACE)
		return false;
	if (strcmp(c->name, "java/lang/Throwable") == 0)
		return true;
	const char *super = c->super;
	for (size_t depth = 0; super && depth <= r->nclasses; depth++) {
		if (strcmp(super, "java/lang/Throwable") == 0)
			return true;
		const struct cls *up = find_class(r, super);
		if (!up)
			return strcmp(super, "java/lang/Object") != 0;
		super = up->super;
	}
	return false;	/* Object itself, or a class that is its own superclass */
}

static int match_classes(struct reading *r)
{
	if (r->nclasses)
		qsort(r->classes, r->nclasses, sizeof *r->classes, by_name);
	for (size_t p = 0; p < r->l->npoints; p++) {
		const struct sj_list_point *pt = &r->l->points[p];
		if (pt->kind == SJ_KIND_METHOD)
			continue;
		for (size_t i = 0; i < r->nclasses; i++) {
			const struct cls *c = &r->classes[i];
			if (!pattern_match_class(&pt->pattern, c->sig, strlen(c->sig)) ||
			    (pt->kind == SJ_KIND_EXCEPTION && !may_be_throwable(r, c)))
				continue;
			if (add_line(r, p, c->dotted) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* What -L shows after each point of KIND.EVENT: its slot's variables. */
static char *vars_text(enum sj_kind kind, const char *event)
{
	const struct sj_alias_var *vars[SJ_MAX_ALIAS_VARS];
	size_t n = sj_slot_vars(kind, event, vars, SJ_MAX_ALIAS_VARS);
	struct sj_buf b = { 0 };
	int rc = sj_buf_puts(&b, "");

	for (size_t i = 0; i < n && i < SJ_MAX_ALIAS_VARS; i++)
		rc |= sj_buf_printf(&b, " %s:%s", vars[i]->name, vars[i]->type);
	if (rc)
		sj_buf_free(&b);
	return b.data;
}

/* Each point's variables (or ""), into R->vars. */
static int points_vars(struct reading *r, bool vars)
{
	struct sj_list *l = r->l;

	r->vars = calloc(l->npoints ? l->npoints : 1, sizeof *r->vars);
	if (!r->vars)
		return -ENOMEM;
	for (size_t p = 0; p < l->npoints; p++)
		if (!(r->vars[p] = vars ? vars_text(l->points[p].kind, l->points[p].event) : strdup("")))
			return -ENOMEM;
	return 0;
}

static void points_vars_free(struct reading *r)
{
	for (size_t p = 0; r->vars && p < r->l->npoints; p++)
		free(r->vars[p]);
	free(r->vars);
}

/* A point that selected nothing is said; how many there were. */
static unsigned say_unmatched(const struct sj_list *l, const char *where)
{
	unsigned n = 0;

	for (size_t p = 0; p < l->npoints; p++) {
		if (l->points[p].matched)
			continue;
		sj_error("no %s of %s matches %s",
			 l->points[p].kind == SJ_KIND_METHOD ? "method" :
			 l->points[p].kind == SJ_KIND_CLASS ? "class" : "exception class", where, l->points[p].text);
		n++;
	}
	return n;
}

int sj_list_jvm(struct sj_list *l, char *const *found, const char *pid, bool vars, struct sj_lines *lines)
{
	struct reading r = { .l = l, .lines = lines };
	char where[64];
	int rc = points_vars(&r, vars);

	for (size_t i = 0; rc == 0 && found && found[i]; i++) {
		for (size_t p = 0; rc == 0 && p < l->npoints; p++) {
			const struct sj_list_point *pt = &l->points[p];
			/* the bridge's "KIND NAME" */
			const char *kind = sj_kind_name(pt->kind);
			size_t k = strlen(kind);

			if (strncmp(found[i], kind, k) != 0 || found[i][k] != ' ')
				continue;
			const char *name = found[i] + k + 1;
			if (pt->kind == SJ_KIND_METHOD ? point_selects(pt, name, strlen(name), any_descends)
						       : pattern_match_class_name(&pt->pattern, name, strlen(name)))
				rc = add_line(&r, p, name);
		}
	}
	snprintf(where, sizeof where, "what JVM %s has loaded", pid);
	unsigned problems = rc == 0 ? say_unmatched(l, where) : 0;
	points_vars_free(&r);
	return rc < 0 ? rc : (int)problems;
}

int sj_list_classpath(struct sj_list *l, const char *cp, bool vars, struct sj_lines *lines)
{
	struct reading r = { .l = l, .lines = lines };
	int rc = points_vars(&r, vars);

	if (rc == 0)
		rc = sj_classpath_each(cp, one_class, &r);
	if (rc >= 0) {
		r.problems += (unsigned)rc;
		rc = match_classes(&r);
	}
	if (rc == 0)
		rc = resolve_pending(&r);
	for (size_t i = 0; i < r.npending; i++) {
		free(r.pending[i].wire);
		free(r.pending[i].cls);
	}
	free(r.pending);
	if (rc == 0)
		r.problems += say_unmatched(l, "the class path");
	for (size_t i = 0; i < r.nclasses; i++)
		cls_free(&r.classes[i]);
	free(r.classes);
	points_vars_free(&r);
	return rc < 0 ? rc : (int)r.problems;
}
