/* sj_java.c: see sj_java.h.
 *
 * stap 4.8 (tapset-method.cxx) hands these points to Byteman: the class
 * "with or without the package qualification", the method as "name(types)"
 * in Java source form, arguments as toString() strings.  Here they become a
 * slot of ours, with the checks our pattern cannot say done by the alias.
 */
#define _GNU_SOURCE /* asprintf */
#include "sj_java.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "sj_translate.h"

/* The classes of java.lang a signature names without their package: what
 * Java source itself finds without an import. */
static const char *const java_lang[] = {
	"Object", "String", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
	"Float", "Double", "Number", "CharSequence", "Class", "Thread", "Runnable",
	"Throwable", "Exception", "RuntimeException", "Error", "StringBuilder",
	"StringBuffer", "Iterable", "Comparable", "Void", "Enum", "Record", "ClassLoader",
	"Math", "System", "Process", "Runtime", "ThreadLocal", "AutoCloseable", "Cloneable",
};

static bool fail(struct sj_java_error *err, size_t tok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail(struct sj_java_error *err, size_t tok, const char *fmt, ...)
{
	va_list ap;

	err->tok = tok;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return false;
}

static bool is_op(const struct sj_token *t, const char *op)
{
	return sj_tok_is(t, SJ_TOK_OP, op);
}

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
	       (!first && c >= '0' && c <= '9');
}

/* A dotted Java name ("a.b.C"), N bytes. */
static bool java_name(const char *s, size_t n)
{
	bool first = true;

	if (n == 0 || s[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && !first) {
			first = true;
			continue;
		}
		if (!name_char(s[i], first))
			return false;
		first = false;
	}
	return true;
}

/* Append regex-quoted S[0..N) to OUT. */
static int re_quote(struct sj_buf *out, const char *s, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		rc |= strchr(".$[]()*+?^{}|\\", s[i]) ? sj_buf_printf(out, "\\%c", s[i]) : sj_buf_add(out, s + i, 1);
	return rc;
}

static void trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

static bool in_java_lang(const char *name, size_t n)
{
	for (size_t k = 0; k < sizeof java_lang / sizeof java_lang[0]; k++)
		if (strlen(java_lang[k]) == n && memcmp(java_lang[k], name, n) == 0)
			return true;
	return false;
}

/* D, the descriptor of a compiled pattern (from its '('): into PAT with
 * each "L*X;" of a java.lang class X made "Ljava/lang/X;"; into RE as a
 * regular expression ("L*X;": X of any package, and of no other type).
 * Returns the number of parameters, -ENOMEM; *INEXACT when a "L*X;" is left. */
static int descriptor(const char *d, struct sj_buf *pat, struct sj_buf *re, bool *inexact)
{
	int rc = 0, count = 0;
	const char *close = strchr(d, ')');

	rc |= sj_buf_puts(pat, "(");
	rc |= sj_buf_puts(re, "\\(");
	for (const char *c = d + 1; c < close; count++) {
		for (; *c == '['; c++) {
			rc |= sj_buf_puts(pat, "[");
			rc |= sj_buf_puts(re, "\\[");
		}
		if (*c != 'L') {
			rc |= sj_buf_add(pat, c, 1);
			rc |= sj_buf_add(re, c, 1);
			c++;
			continue;
		}
		const char *semi = strchr(c, ';');
		bool any = c[1] == '*';
		const char *name = c + 1 + any;
		size_t n = (size_t)(semi - name);
		if (any && in_java_lang(name, n)) {
			rc |= sj_buf_printf(pat, "Ljava/lang/%.*s;", (int)n, name);
			rc |= sj_buf_printf(re, "Ljava/lang/%.*s;", (int)n, name);
		} else {
			rc |= sj_buf_add(pat, c, (size_t)(semi + 1 - c));
			rc |= sj_buf_puts(re, any ? "L([^;]*/)?" : "L");
			rc |= re_quote(re, name, n);
			rc |= sj_buf_puts(re, ";");
			*inexact |= any;
		}
		c = semi + 1;
	}
	rc |= sj_buf_puts(pat, ")*");
	rc |= sj_buf_puts(re, "\\)");
	return rc ? -ENOMEM : count;
}

/* The text inside string token T (no escapes allowed: Java names have none). */
static bool string_text(const struct sj_token *t, const char **s, size_t *n)
{
	if (t->kind != SJ_TOK_STRING || t->len < 2 || t->text[t->len - 1] != '"')
		return false;
	*s = t->text + 1;
	*n = t->len - 2;
	return memchr(*s, '\\', *n) == NULL;
}

/* CLASSNAME (token CT) and PATTERN (token MT) into P's pattern and check. */
static bool signature(struct sj_java_point *p, size_t ct, const struct sj_token *ctok, size_t mt,
		      const struct sj_token *mtok, struct sj_java_error *err)
{
	const char *cls, *m;
	size_t clen, mlen;
	struct sj_buf pat = { 0 }, re = { 0 };
	bool inexact = false, ok = false;
	char why[256];

	if (!string_text(ctok, &cls, &clen))
		return fail(err, ct, "expected the class as a string literal: java(...).class(\"CLASSNAME\")");
	if (!string_text(mtok, &m, &mlen))
		return fail(err, mt, "expected the method as a string literal: java(...).class(...).method(\"PATTERN\")");
	trim(&cls, &clen);
	trim(&m, &mlen);
	if (memchr(cls, '*', clen) || memchr(cls, '?', clen) || memchr(m, '*', mlen) || memchr(m, '?', mlen))
		return fail(err, memchr(cls, '*', clen) || memchr(cls, '?', clen) ? ct : mt,
			    "Wildcards are not supported in java(...).class(...).method(...) (stapprobes(3stap)); java.method(\"PATTERN\") takes them");
	/* "^C": C and the subclasses that override the method (a root pattern,
	 * doc/patterns.md), C named in full: a name without a package is a
	 * class of the default package */
	bool root = clen && cls[0] == '^';
	if (root) {
		cls++;
		clen--;
		trim(&cls, &clen);
	}
	if (!java_name(cls, clen))
		return fail(err, ct, "bad class name '%.*s' in java(...).class(...)", (int)clen, cls);

	/* a line: stap's own checks, in its order */
	const char *colon = memchr(m, ':', mlen);
	if (colon) {
		const char *line = colon + 1;
		size_t llen = mlen - (size_t)(line - m);
		if (memchr(line, ':', llen))
			return fail(err, mt, "maximum of one line number (:NNN)");
		if (p->ret)
			return fail(err, mt, "conflict :NNN and .return probe");
		if (llen == 0 || strspn(line, "0123456789") < llen || llen > 9 || line[0] == '0')
			return fail(err, mt, "bad line number ':%.*s' in method(\"%.*s\"): a positive decimal number",
				    (int)llen, line, (int)mlen, m);
		/* the agent probes the line's first instruction (pattern.h: ":LINE") */
		p->line = (unsigned)strtoul(line, NULL, 10);
		mlen = (size_t)(colon - m);
		trim(&m, &mlen);
	}

	const char *open = memchr(m, '(', mlen);
	size_t nlen = open ? (size_t)(open - m) : mlen;
	const char *name = m;
	trim(&name, &nlen);
	bool special = (nlen == 6 && memcmp(name, "<init>", 6) == 0) || (nlen == 8 && memcmp(name, "<clinit>", 8) == 0);
	if (!special && (!java_name(name, nlen) || memchr(name, '.', nlen)))
		return fail(err, mt, "bad method name '%.*s' in method(\"%.*s\")", (int)nlen, name, (int)mlen, m);
	if (open && m[mlen - 1] != ')')
		return fail(err, mt, "method(\"%.*s\"): expected NAME(TYPE, ...) with the types in Java source form",
			    (int)mlen, m);

	bool qualified = root || memchr(cls, '.', clen) != NULL;
	/* pattern_compile reads a parameter list in Java source form (signature.h) */
	struct sj_buf text = { 0 };
	int rc = sj_buf_printf(&text, "%s%.*s.%.*s%.*s", root ? "^" : qualified ? "" : "*", (int)clen, cls, (int)nlen, name,
			       open ? (int)(mlen - (size_t)(open - m)) : 0, open ? open : "");
	static struct pattern compiled;	/* 4 KiB: too big for comfort on the stack */
	if (rc == 0 && pattern_compile(&compiled, PATTERN_METHOD, text.data, text.len, why, sizeof why) < 0) {
		sj_buf_free(&text);
		/* its offsets are in our text, not the user's */
		char *at = strstr(why, " at offset ");
		if (at)
			memmove(at, at + 11 + strspn(at + 11, "0123456789"), strlen(at + 11 + strspn(at + 11, "0123456789")) + 1);
		fail(err, mt, "method(\"%.*s\"): %s", (int)mlen, m, why);
		goto out;
	}
	sj_buf_free(&text);
	const char *norm = pattern_text(&compiled, NULL), *d = strchr(norm, '(');
	rc |= sj_buf_add(&pat, norm, d ? (size_t)(d - norm) : strlen(norm));
	/* a root point's events name the subclass: its check leaves the class out */
	rc |= sj_buf_puts(&re, root ? "^[^(]*" : qualified ? "^" : "^([^(]*\\.)?");
	if (!root)
		rc |= re_quote(&re, cls, clen);
	rc |= sj_buf_puts(&re, "\\.");
	rc |= re_quote(&re, name, nlen);
	inexact = !qualified;
	p->nparams = -1;
	if (d) {
		p->nparams = descriptor(d, &pat, &re, &inexact);
		rc |= p->nparams < 0;
	} else {
		rc |= sj_buf_puts(&re, "\\(");
	}
	if (rc) {
		fail(err, mt, "out of memory");
		goto out;
	}
	if (p->nparams > SJ_JAVA_MAX_PARAMS) {	/* stap's limit, in its words */
		fail(err, mt, "maximum of 10 java method parameters may be specified");
		goto out;
	}
	if (p->line && sj_buf_printf(&pat, "%s:%u", d ? "" : "(*)*", p->line)) {
		fail(err, mt, "out of memory");
		goto out;
	}
	p->pattern = strdup(sj_buf_str(&pat));
	p->check = inexact ? strdup(sj_buf_str(&re)) : NULL;
	ok = p->pattern && (!inexact || p->check);
	if (!ok)
		fail(err, mt, "out of memory");
out:
	sj_buf_free(&pat);
	sj_buf_free(&re);
	return ok;
}

/* The JVM token: "PNAME", a PID or @N. */
static bool jvm_selector(struct sj_java_point *p, const struct sj_token *t, size_t ti, char *const *args,
			 size_t nargs, struct sj_java_error *err)
{
	const char *s;
	size_t n;

	if (t->kind == SJ_TOK_NUMBER) {
		if (strspn(t->text, "0123456789") < t->len || t->len > 9 || t->text[0] == '0')
			return fail(err, ti, "java(%.*s): a pid is a positive decimal number", (int)t->len, t->text);
		p->by_pid = true;
		p->jvm = strndup(t->text, t->len);
	} else if (t->kind == SJ_TOK_IDENT && t->len >= 2 && (t->text[0] == '@' || t->text[0] == '$') &&
		   strspn(t->text + 1, "0123456789") == t->len - 1) {
		/* @N pastes a string, $N the word itself: a pid */
		unsigned long idx = strtoul(t->text + 1, NULL, 10);
		if (idx < 1 || idx > nargs)
			return fail(err, ti, "command line argument index %lu out of range [1-%zu]", idx, nargs);
		const char *a = args[idx - 1];
		if (t->text[0] == '$' && (!*a || strspn(a, "0123456789") < strlen(a) || strlen(a) > 9 || a[0] == '0'))
			return fail(err, ti, "java(%.*s): '%s' is not a pid (java(@%lu) takes a JVM's name)",
				    (int)t->len, t->text, a, idx);
		p->by_pid = t->text[0] == '$';
		p->jvm = strdup(a);
	} else if (string_text(t, &s, &n)) {
		p->jvm = strndup(s, n);
	} else {
		return fail(err, ti, "expected a JVM: java(\"PNAME\") as jps names it, or java(PID)");
	}
	if (!p->jvm)
		return fail(err, ti, "out of memory");
	if (!*p->jvm || strpbrk(p->jvm, "'\"\\ \t\n$`"))
		return fail(err, ti, "java(\"%s\"): a JVM's name is a main class or a jar, without quotes, spaces or backslashes",
			    p->jvm);
	return true;
}

static const char shape[] =
	"SystemTap's Java probe points are java(\"PNAME\").class(\"CLASSNAME\").method(\"PATTERN\")[.return] and java(PID)...";

size_t sj_java_parse(const struct sj_token *tk, size_t n, size_t i, char *const *args, size_t nargs,
		     struct sj_java_point *p, struct sj_java_error *err)
{
#define T(k) (&tk[(k) < n ? (k) : n])
	memset(p, 0, sizeof *p);
	p->companion = -1;
	size_t j = i + 2;
	bool ok = jvm_selector(p, T(j), j, args, nargs, err);

	if (!ok)
		return j + 1;
	if (!is_op(T(j + 1), ")")) {
		fail(err, j + 1, "expected ')' after java(%s", p->jvm);
		return j + 1;
	}
	j += 2;
	if (!is_op(T(j), ".") || !sj_tok_is(T(j + 1), SJ_TOK_IDENT, "class") || !is_op(T(j + 2), "(") ||
	    !is_op(T(j + 4), ")")) {
		fail(err, is_op(T(j), ".") ? j + 1 : j, "expected .class(\"CLASSNAME\") after java(...): %s", shape);
		return j + 1;
	}
	size_t ct = j + 3;
	j += 5;
	if (!is_op(T(j), ".") || !sj_tok_is(T(j + 1), SJ_TOK_IDENT, "method") || !is_op(T(j + 2), "(") ||
	    !is_op(T(j + 4), ")")) {
		fail(err, is_op(T(j), ".") ? j + 1 : j, "expected .method(\"PATTERN\") after java(...).class(...): %s",
		     shape);
		return j + 1;
	}
	size_t mt = j + 3;
	j += 5;
	if (is_op(T(j), ".")) {
		if (!sj_tok_is(T(j + 1), SJ_TOK_IDENT, "return") || is_op(T(j + 2), ".")) {
			fail(err, j + 1, "expected .return or the end of the probe point after java(...).class(...).method(...)");
			return j + 2;
		}
		p->ret = true;
		j += 2;
	}
	if (!signature(p, ct, T(ct), mt, T(mt), err))
		return j;
	/* what pn() and pp() say: the point as stap prints it */
	const struct sj_token *c = T(ct), *m = T(mt);
	p->name = strndup(m->text + 1, m->len - 2);	/* a string token: its quotes off */
	int rc = p->by_pid ? asprintf(&p->text, "java(%s).class(%.*s).method(%.*s)%s", p->jvm, (int)c->len,
				      c->text, (int)m->len, m->text, p->ret ? ".return" : "")
			   : asprintf(&p->text, "java(\"%s\").class(%.*s).method(%.*s)%s", p->jvm, (int)c->len,
				      c->text, (int)m->len, m->text, p->ret ? ".return" : "");
	if (rc < 0 || !p->name) {
		if (rc < 0)
			p->text = NULL;
		fail(err, i, "out of memory");
	}
	return j;
#undef T
}

void sj_java_point_free(struct sj_java_point *p)
{
	free(p->text);
	free(p->name);
	free(p->jvm);
	free(p->pattern);
	free(p->check);
	memset(p, 0, sizeof *p);
}

int sj_java_point_copy(struct sj_java_point *to, const struct sj_java_point *p)
{
	*to = *p;
	to->text = strdup(p->text);
	to->name = strdup(p->name);
	to->jvm = strdup(p->jvm);
	to->pattern = strdup(p->pattern);
	to->check = p->check ? strdup(p->check) : NULL;
	if (!to->text || !to->name || !to->jvm || !to->pattern || (p->check && !to->check)) {
		sj_java_point_free(to);
		return -ENOMEM;
	}
	return 0;
}

/* N in 1..10 when T is PREFIX followed by N. */
static int arg_number(const struct sj_token *t, const char *prefix)
{
	size_t pl = strlen(prefix);

	if (t->kind != SJ_TOK_IDENT || t->len <= pl || t->len > pl + 2 || memcmp(t->text, prefix, pl) != 0 ||
	    strspn(t->text + pl, "0123456789") != t->len - pl || t->text[pl] == '0')
		return 0;
	int v = atoi(t->text + pl);	/* at most two digits */
	return v <= SJ_JAVA_MAX_PARAMS ? v : 0;
}

size_t sj_java_rewrite(const struct sj_token *tk, size_t n, size_t i, char *out, size_t outlen,
		       unsigned *needs)
{
#define T(k) (&tk[(k) < n ? (k) : n])
	const struct sj_token *t = T(i);
	int k;

	if (arg_number(t, "arg"))
		*needs |= SJ_OPT_ARGS;
	if ((k = arg_number(t, "$arg"))) {
		*needs |= SJ_OPT_ARGS;
		snprintf(out, outlen, "__jl%d", k);	/* the number, as --compatible=3.0 gives */
		return 1;
	}
	if (t->kind != SJ_TOK_IDENT || !is_op(T(i + 1), "("))
		return 0;
	if ((sj_tok_is(t, SJ_TOK_IDENT, "user_string") || sj_tok_is(t, SJ_TOK_IDENT, "user_string_warn") ||
	     sj_tok_is(t, SJ_TOK_IDENT, "user_string_quoted")) &&
	    (k = arg_number(T(i + 2), "$arg")) && is_op(T(i + 3), ")")) {
		*needs |= SJ_OPT_ARGS;
		if (sj_tok_is(t, SJ_TOK_IDENT, "user_string_quoted"))
			snprintf(out, outlen, "string_quoted(arg%d)", k);
		else
			snprintf(out, outlen, "arg%d", k);
		return 4;
	}
	if ((sj_tok_is(t, SJ_TOK_IDENT, "user_string") || sj_tok_is(t, SJ_TOK_IDENT, "user_string_warn") ||
	     sj_tok_is(t, SJ_TOK_IDENT, "user_string_quoted")) &&
	    sj_tok_is(T(i + 2), SJ_TOK_IDENT, "$name") && is_op(T(i + 3), ")")) {
		/* stap's tests print it: the method as the point writes it */
		snprintf(out, outlen, sj_tok_is(t, SJ_TOK_IDENT, "user_string_quoted") ? "string_quoted(__jmn)" : "__jmn");
		return 4;
	}
	if ((sj_tok_is(t, SJ_TOK_IDENT, "pn") || sj_tok_is(t, SJ_TOK_IDENT, "pp")) && is_op(T(i + 2), ")")) {
		snprintf(out, outlen, "__%.2s", t->text);
		return 3;
	}
	if ((sj_tok_is(t, SJ_TOK_IDENT, "print_java_backtrace") || sj_tok_is(t, SJ_TOK_IDENT, "sprint_java_backtrace")) &&
	    is_op(T(i + 2), ")")) {
		*needs |= SJ_OPT_STACK;
		snprintf(out, outlen, "__stapjava_%cbt($arg12)", t->text[0]);
		return 3;
	}
	return 0;
#undef T
}

const char *sj_java_unservable(const struct sj_token *tk, size_t n, size_t i)
{
	/* user_string*($name) was rewritten before it got here */
	if (i < n && sj_tok_is(&tk[i], SJ_TOK_IDENT, "$name"))
		return "$name in a java(...) probe is a pointer to the method's name in stap, and stapjava has no "
		       "pointer to give: write user_string($name) (the method as written in .method(...)) or java_name "
		       "(the method the event is of)";
	return NULL;
}

/* S as the inside of a stap string literal. */
static int stap_quoted(struct sj_buf *out, const char *s)
{
	int rc = 0;

	for (; *s; s++)
		rc |= *s == '"' || *s == '\\' ? sj_buf_printf(out, "\\%c", *s) : sj_buf_add(out, s, 1);
	return rc;
}

int sj_java_alias_prologue(const struct sj_java_point *p, int slot, struct sj_buf *out)
{
	int rc = 0;

	if (p->by_pid)
		rc |= sj_buf_printf(out, " if (java_pid != %s) next;", p->jvm);
	if (p->check) {
		rc |= sj_buf_puts(out, " if (!(java_name =~ \"");
		rc |= stap_quoted(out, p->check);
		rc |= sj_buf_puts(out, "\")) next;");
	}
	if (p->is_companion)	/* keeps the arguments for the return */
		return rc | sj_buf_printf(out, " __stapjava_jpush(sprintf(\"%%d/%%d/%d\", java_pid, java_tid), java_args);",
					  slot) ? -ENOMEM : 0;
	rc |= sj_buf_puts(out, " __pn = \"");
	rc |= stap_quoted(out, p->text);
	rc |= sj_buf_puts(out, "\"; __pp = __pn; __jmn = \"");
	rc |= stap_quoted(out, p->name);
	rc |= sj_buf_puts(out, "\";");
	const char *from = "java_args";
	if (p->ret) {
		from = "__sj_jargs";
		if (p->companion >= 0)
			rc |= sj_buf_printf(out, " __sj_jargs = __stapjava_jpop(sprintf(\"%%d/%%d/%d\", java_pid, java_tid));",
					    p->companion);
		else
			rc |= sj_buf_puts(out, " __sj_jargs = \"\";");
	}
	/* all ten, "" and 0 past the method's own (no never-assigned warning
	 * when one handler serves points of different lengths) */
	/* a line's event carries no arguments (stapprobes-java(3stap)) */
	int nargs = p->line ? 0 : p->nparams < 0 ? SJ_JAVA_MAX_PARAMS : p->nparams;
	for (int k = 1; k <= SJ_JAVA_MAX_PARAMS; k++)
		rc |= k <= nargs
			? sj_buf_printf(out, " arg%d = __stapjava_jtext(java_arg(%s, %d)); __jl%d = __stapjava_jlong(java_arg(%s, %d));",
					k, from, k, k, from, k)
			: sj_buf_printf(out, " arg%d = \"\"; __jl%d = 0;", k, k);
	return rc ? -ENOMEM : 0;
}
