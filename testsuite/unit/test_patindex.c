/* Unit tests for runtime/patindex.c: an index of patterns gives, for every
 * name, exactly the patterns that pattern.h's own functions say select it
 * (checked against trying every pattern, over generated patterns and names),
 * and files a pattern by its literal start, else its end. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "patindex.h"

#define NPATS 400
#define NAMES 3000

static struct pattern *pats[NPATS];
static size_t npats;
static bool hit[NPATS];

static bool note(void *ctx, size_t i)
{
	size_t *n = ctx;

	assert_false(hit[i]);   /* each pattern at most once a lookup */
	hit[i] = true;
	(*n)++;
	return false;
}

static bool stop_at_first(void *ctx, size_t i)
{
	(void)i;
	(*(size_t *)ctx)++;
	return true;
}

static uint32_t rng = 12345;
static unsigned pick(unsigned n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 16) % n;
}

/* Names built from few pieces, so that patterns and names share starts and ends. */
static const char *const pkgs[] = { "a", "a.b", "a.bc", "com.acme", "com.acme.x", "java.lang", "ab" };
static const char *const classes[] = { "C", "Cd", "Foo", "Foo$Bar", "String", "C1" };
static const char *const methods[] = { "m", "mm", "get", "getX", "run", "<init>" };
static const char *const descs[] = { "()V", "(I)V", "(Ljava/lang/String;)I", "([I)J" };

static void method_name(char *out, size_t cap)
{
	snprintf(out, cap, "%s.%s.%s%s", pkgs[pick(7)], classes[pick(6)], methods[pick(6)], descs[pick(4)]);
}

/* A pattern: a name, maybe cut, with '*' put in here and there. */
static void pattern_text_of(char *out, size_t cap, bool method)
{
	char name[256];
	size_t n;

	if (method)
		method_name(name, sizeof name);
	else
		snprintf(name, sizeof name, "%s.%s", pkgs[pick(7)], classes[pick(6)]);
	n = strlen(name);
	if (method && pick(3) == 0)
		n = (size_t)(strchr(name, '(') - name);   /* no descriptor: every overload */
	size_t whole = n;
	if (pick(2))
		n = 1 + pick((unsigned)n);                 /* cut short: ends in '*' below */
	size_t o = 0;
	if (pick(5) == 0)
		out[o++] = '*';
	for (size_t i = 0; i < n && o + 2 < cap; i++) {
		if (pick(12) == 0)
			out[o++] = '*';
		else
			out[o++] = name[i];
	}
	if (n < whole || pick(6) == 0)
		out[o++] = '*';
	out[o] = '\0';
}

static void build(enum pattern_kind kind)
{
	char text[300], err[200];
	struct pattern p;

	npats = 0;
	while (npats < NPATS) {
		pattern_text_of(text, sizeof text, kind == PATTERN_METHOD);
		if (pattern_compile(&p, kind, text, strlen(text), err, sizeof err) != 0)
			continue;
		pats[npats] = pattern_dup(&p);
		assert_non_null(pats[npats]);
		npats++;
	}
}

static void release(struct patindex *ix)
{
	patindex_free(ix);
	for (size_t i = 0; i < npats; i++)
		free(pats[i]);
}

static void test_methods_as_every_pattern_says(void **state)
{
	struct patindex *ix;
	char name[256];

	(void)state;
	build(PATTERN_METHOD);
	assert_int_equal(patindex_build(&ix, PATTERN_METHOD, (const struct pattern *const *)pats, npats), 0);
	assert_true(patindex_bytes(ix) > npats * sizeof(void *));
	for (int k = 0; k < NAMES; k++) {
		size_t n = 0, want = 0;

		method_name(name, sizeof name);
		memset(hit, 0, sizeof hit);
		assert_false(patindex_match_method(ix, name, strlen(name), note, &n));
		for (size_t i = 0; i < npats; i++) {
			bool m = pattern_match_method(pats[i], name, strlen(name));
			if (m != hit[i])
				fail_msg("%s: pattern %s: index says %d, pattern.h %d", name,
					 pattern_text(pats[i], NULL), hit[i], m);
			want += m;
		}
		assert_int_equal(n, want);
		/* the class part: which patterns may select a method of it */
		size_t cl = (size_t)(strrchr(strtok(name, "("), '.') - name);
		n = 0;
		memset(hit, 0, sizeof hit);
		patindex_method_classes(ix, name, cl, note, &n);
		for (size_t i = 0; i < npats; i++)
			if (pattern_method_may_select_class(pats[i], name, cl) != hit[i])
				fail_msg("class %.*s: pattern %s: index says %d", (int)cl, name,
					 pattern_text(pats[i], NULL), hit[i]);
		/* and a class that is a start of another ("a" of "a.b", "ab") */
		n = 0;
		memset(hit, 0, sizeof hit);
		patindex_method_classes(ix, name, 1, note, &n);
		for (size_t i = 0; i < npats; i++)
			assert_int_equal(pattern_method_may_select_class(pats[i], name, 1), hit[i]);
	}
	release(ix);
}

static void test_classes_as_every_pattern_says(void **state)
{
	struct patindex *ix;
	char sig[300], dotted[256];

	(void)state;
	build(PATTERN_CLASS);
	assert_int_equal(patindex_build(&ix, PATTERN_CLASS, (const struct pattern *const *)pats, npats), 0);
	for (int k = 0; k < NAMES; k++) {
		size_t n = 0;

		snprintf(dotted, sizeof dotted, "%s.%s", pkgs[pick(7)], classes[pick(6)]);
		snprintf(sig, sizeof sig, "%sL%s;", pick(4) ? "" : "[[", dotted);
		for (char *p = sig; *p; p++)
			if (*p == '.')
				*p = '/';
		memset(hit, 0, sizeof hit);
		patindex_match_class(ix, sig, strlen(sig), note, &n);
		for (size_t i = 0; i < npats; i++)
			if (pattern_match_class(pats[i], sig, strlen(sig)) != hit[i])
				fail_msg("%s: pattern %s: index says %d", sig, pattern_text(pats[i], NULL), hit[i]);
	}
	release(ix);
}

static struct pattern *compiled(enum pattern_kind kind, const char *text)
{
	struct pattern p;

	assert_int_equal(pattern_compile(&p, kind, text, strlen(text), NULL, 0), 0);
	return pattern_dup(&p);
}

/* FN's "stop" ends the lookup; a NULL or empty index selects nothing. */
static void test_stop_empty_and_edges(void **state)
{
	struct patindex *ix;
	size_t n = 0;
	const char *name = "com.acme.Foo.run()V";

	(void)state;
	assert_false(patindex_match_method(NULL, name, strlen(name), stop_at_first, &n));
	assert_int_equal(patindex_build(&ix, PATTERN_METHOD, NULL, 0), 0);
	assert_false(patindex_match_method(ix, name, strlen(name), stop_at_first, &n));
	assert_false(patindex_method_classes(ix, "com.acme.Foo", 12, stop_at_first, &n));
	assert_int_equal(n, 0);
	patindex_free(ix);

	npats = 0;
	pats[npats++] = compiled(PATTERN_METHOD, "com.acme.Foo.run");
	pats[npats++] = compiled(PATTERN_METHOD, "*.run");
	pats[npats++] = compiled(PATTERN_METHOD, "*");
	assert_int_equal(patindex_build(&ix, PATTERN_METHOD, (const struct pattern *const *)pats, npats), 0);
	assert_true(patindex_match_method(ix, name, strlen(name), stop_at_first, &n));
	assert_int_equal(n, 1);
	release(ix);
	/* a pattern of the other kind is refused */
	npats = 0;
	pats[npats++] = compiled(PATTERN_CLASS, "java.lang.String");
	assert_int_equal(patindex_build(&ix, PATTERN_METHOD, (const struct pattern *const *)pats, npats),
			 -EINVAL);
	assert_null(ix);
	free(pats[0]);
	npats = 0;
}

/* Keys are cut at PATINDEX_KEY_MAX: prefixes longer than that still match exactly. */
static void test_long_prefixes(void **state)
{
	static char a[700], b[700], name[800];
	struct patindex *ix;
	size_t n = 0;

	(void)state;
	memset(a, 'x', 600);
	memcpy(a, "p.", 2);
	strcpy(b, a);
	strcpy(a + 600, ".A.m*");
	strcpy(b + 600, ".B.m*");
	npats = 0;
	pats[npats++] = compiled(PATTERN_METHOD, a);
	pats[npats++] = compiled(PATTERN_METHOD, b);
	assert_int_equal(patindex_build(&ix, PATTERN_METHOD, (const struct pattern *const *)pats, npats), 0);
	snprintf(name, sizeof name, "%.600s.B.mx()V", a);
	memset(hit, 0, sizeof hit);
	patindex_match_method(ix, name, strlen(name), note, &n);
	assert_int_equal(n, 1);
	assert_true(hit[1]);
	n = 0;
	memset(hit, 0, sizeof hit);
	patindex_method_classes(ix, name, 602, note, &n);   /* "p.xxx....A"? no: the B class */
	for (size_t i = 0; i < npats; i++)
		assert_int_equal(pattern_method_may_select_class(pats[i], name, 602), hit[i]);
	release(ix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_methods_as_every_pattern_says),
		cmocka_unit_test(test_classes_as_every_pattern_says),
		cmocka_unit_test(test_stop_empty_and_edges),
		cmocka_unit_test(test_long_prefixes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
