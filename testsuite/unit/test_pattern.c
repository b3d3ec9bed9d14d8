/* Unit tests for runtime/pattern.c: wire names, normalisation, matching, rejection. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern.h"

/* One compiled pattern per test is enough; static keeps the 4 KiB off the stack. */
static struct pattern pat;
static char err[256];

static void compile_ok(enum pattern_kind kind, const char *text)
{
	int rc = pattern_compile(&pat, kind, text, strlen(text), err, sizeof err);

	if (rc != 0)
		fail_msg("pattern \"%s\" rejected (%d): %s", text, rc, err);
	assert_string_equal(err, "");
}

static void assert_method_text(const char *text, const char *normalised)
{
	size_t len = 0;

	compile_ok(PATTERN_METHOD, text);
	assert_string_equal(pattern_text(&pat, &len), normalised);
	assert_int_equal(len, strlen(normalised));
}

static void assert_class_text(const char *text, const char *normalised)
{
	size_t len = 0;

	compile_ok(PATTERN_CLASS, text);
	assert_string_equal(pattern_text(&pat, &len), normalised);
	assert_int_equal(len, strlen(normalised));
}

static bool method_matches(const char *pattern, const char *wire)
{
	compile_ok(PATTERN_METHOD, pattern);
	return pattern_match_method(&pat, wire, strlen(wire));
}

static bool class_matches(const char *pattern, const char *sig)
{
	compile_ok(PATTERN_CLASS, pattern);
	return pattern_match_class(&pat, sig, strlen(sig));
}

static void assert_rejected(enum pattern_kind kind, const char *text, size_t len,
			    int code, const char *message)
{
	memset(err, 'x', sizeof err);
	err[sizeof err - 1] = '\0';
	assert_int_equal(pattern_compile(&pat, kind, text, len, err, sizeof err), code);
	assert_string_equal(err, message);
	/* what failed to compile must match nothing */
	assert_false(pattern_match_method(&pat, "a.b()V", 6));
	assert_false(pattern_match_class(&pat, "La;", 3));
}

static void assert_method_rejected(const char *text, const char *message)
{
	assert_rejected(PATTERN_METHOD, text, strlen(text), -EINVAL, message);
}

static void assert_class_rejected(const char *text, const char *message)
{
	assert_rejected(PATTERN_CLASS, text, strlen(text), -EINVAL, message);
}

/* ---- methods --------------------------------------------------------------------- */

/* Compile method pattern TEXT; may it select a method of class CLS? */
static bool may_select(const char *text, const char *cls)
{
	compile_ok(PATTERN_METHOD, text);
	return pattern_method_may_select_class(&pat, cls, strlen(cls));
}

static void test_method_may_select_class(void **state)
{
	(void)state;
	assert_true(may_select("Workload.cold", "Workload"));
	assert_false(may_select("Workload.cold", "WorkloadX"));
	assert_false(may_select("Workload.cold", "Work"));
	assert_false(may_select("Workload.cold", "Other"));
	assert_true(may_select("java.io.BufferedWriter.write(I)V", "java.io.BufferedWriter"));
	assert_false(may_select("java.io.BufferedWriter.write(I)V", "java.io.Buffered"));
	assert_true(may_select("java/io/BufferedWriter.*", "java.io.BufferedWriter"));
	/* the prefix ends inside the class name: a prefix test only */
	assert_true(may_select("java.io.Buff*.write", "java.io.BufferedWriter"));
	assert_true(may_select("java.io.Buff*.write", "java.io.Buff"));
	assert_false(may_select("java.io.Buff*.write", "java.nio.Buffer"));
	/* the prefix reaches the method name: the class must end with the '.' */
	assert_true(may_select("Outer$Inner.run*", "Outer$Inner"));
	assert_false(may_select("Outer$Inner.run*", "Outer"));
	assert_false(may_select("Outer.run*", "Outer$Inner"));
	assert_true(may_select("*.cold", "anything.at.All"));
	assert_true(may_select("*", "X"));
	assert_false(pattern_method_may_select_class(NULL, "X", 1));
	compile_ok(PATTERN_CLASS, "X");
	assert_false(pattern_method_may_select_class(&pat, "X", 1));
}

static void test_method_exact(void **state)
{
	(void)state;
	const char *ac = "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V";

	assert_true(method_matches(ac, ac));
	assert_true(pattern_is_literal(&pat));
	assert_false(pattern_match_method(&pat, ac, strlen(ac) - 1));
	assert_false(method_matches(ac, "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;I)V"));
	assert_false(method_matches(ac, "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)VV"));
	assert_false(method_matches(ac, "xjava.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V"));
	assert_true(method_matches("java.io.BufferedWriter.write(I)V", "java.io.BufferedWriter.write(I)V"));
	assert_false(method_matches("java.io.BufferedWriter.write(I)V", "java.io.BufferedWriter.write(C)V"));
}

static void test_method_overloads(void **state)
{
	(void)state;
	compile_ok(PATTERN_METHOD, "java.io.BufferedWriter.write");
	assert_true(pattern_is_literal(&pat));
	static const char *const yes[] = {
		"java.io.BufferedWriter.write(I)V",
		"java.io.BufferedWriter.write(Ljava/lang/String;)V",
		"java.io.BufferedWriter.write([CII)V",
		"java.io.BufferedWriter.write(Ljava/lang/String;II)V",
		"java.io.BufferedWriter.write",	/* no descriptor at all: the whole name is the name part */
	};
	static const char *const no[] = {
		"java.io.BufferedWriter.writeBytes(I)V",
		"java.io.BufferedWriter.flush()V",
		"java.io.BufferedWriter.writ(I)V",
		"java.io.Writer.write(I)V",
		"xjava.io.BufferedWriter.write(I)V",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		assert_true(pattern_match_method(&pat, yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_false(pattern_match_method(&pat, no[i], strlen(no[i])));
	/* LEN bounds the name: the '(' beyond it is not seen */
	assert_true(pattern_match_method(&pat, "java.io.BufferedWriter.write(I)V", 28));
	assert_false(pattern_match_method(&pat, "java.io.BufferedWriter.write(I)V", 27));
}

static void test_method_star_at_end(void **state)
{
	(void)state;
	assert_true(method_matches("java.io.*", "java.io.BufferedWriter.write(I)V"));
	assert_false(pattern_is_literal(&pat));
	assert_true(method_matches("java.io.*", "java.io.sub.Deep.m()V"));
	assert_false(method_matches("java.io.*", "java.iox.Foo.bar()V"));
	assert_false(method_matches("java.io.*", "javax.io.Foo.bar()V"));
	assert_false(method_matches("java.io.*", "java.io"));
	assert_true(method_matches("java.io.BufferedWriter.*", "java.io.BufferedWriter.write(I)V"));
	assert_true(method_matches("java.io.BufferedWriter.*", "java.io.BufferedWriter.<init>(Ljava/io/Writer;)V"));
	assert_false(method_matches("java.io.BufferedWriter.*", "java.io.BufferedWriterX.write(I)V"));
	assert_true(method_matches("com.acme.Foo.get*", "com.acme.Foo.getName()Ljava/lang/String;"));
	assert_true(method_matches("com.acme.Foo.get*", "com.acme.Foo.get()I"));
	assert_false(method_matches("com.acme.Foo.get*", "com.acme.Foo.set()I"));
}

static void test_method_star_at_start(void **state)
{
	(void)state;
	assert_true(method_matches("*.run()V", "java.lang.Thread.run()V"));
	assert_true(method_matches("*.run()V", "com.acme.Task$1.run()V"));
	assert_false(method_matches("*.run()V", "java.lang.Thread.rerun()V"));
	assert_false(method_matches("*.run()V", "java.lang.Thread.run(I)V"));
	assert_false(method_matches("*.run()V", "java.lang.Thread.run()Z"));
	assert_true(method_matches("*.run", "java.lang.Thread.run()V"));
	assert_true(method_matches("*.run", "java.lang.Thread.run(J)V"));
	assert_false(method_matches("*.run", "java.lang.Thread.running()Z"));
	assert_true(method_matches("*", "java.lang.Thread.run()V"));
	assert_true(method_matches("*", ""));
	assert_true(method_matches("*run", "java.lang.Thread.run()V"));
	assert_true(method_matches("*run", "java.lang.Thread.rerun()V"));
}

static void test_method_star_in_middle(void **state)
{
	(void)state;
	assert_true(method_matches("java.*.Writer.write", "java.io.Writer.write(I)V"));
	assert_true(method_matches("java.*.Writer.write", "java.a.b.c.Writer.write(I)V"));
	assert_false(method_matches("java.*.Writer.write", "java.Writer.write(I)V"));
	/* `*` may match the empty run, even between two dots' worth of text */
	assert_true(method_matches("java.*Writer.write", "java.Writer.write(I)V"));
	assert_true(method_matches("java*Writer.write", "java.io.BufferedWriter.write(I)V"));
	assert_true(method_matches("com.acme.Foo.bar(*)V", "com.acme.Foo.bar()V"));
	assert_true(method_matches("com.acme.Foo.bar(*)V", "com.acme.Foo.bar(ILjava/lang/String;)V"));
	assert_false(method_matches("com.acme.Foo.bar(*)V", "com.acme.Foo.bar(I)I"));
	assert_true(method_matches("com.acme.Foo.bar(*)*", "com.acme.Foo.bar(I)I"));
	assert_true(method_matches("com.acme.Foo.bar(I*)V", "com.acme.Foo.bar(II)V"));
	assert_false(method_matches("com.acme.Foo.bar(I*)V", "com.acme.Foo.bar(JI)V"));
}

static void test_method_many_stars(void **state)
{
	(void)state;
	assert_true(method_matches("*Buffered*.write*", "java.io.BufferedWriter.write(I)V"));
	assert_true(method_matches("*Buffered*.write*", "java.io.BufferedOutputStream.write([BII)V"));
	assert_false(method_matches("*Buffered*.write*", "java.io.Writer.write(I)V"));
	assert_true(method_matches("**.run**", "a.run()V"));
	assert_true(method_matches("*a*b*c*", "x.abc()V"));
	assert_true(method_matches("*a*b*c*", "a.bc()V"));
	/* without '(' only the name is seen, so the c after it does not count */
	assert_false(method_matches("*a*b*c*", "a.b()c"));
	assert_true(method_matches("*a*b*(*)c", "a.b()c"));
	assert_false(method_matches("*a*b*c*", "c.b()a"));
	/* the segments may not overlap the anchored prefix and suffix */
	assert_false(method_matches("ab*ba", "aba"));
	assert_true(method_matches("ab*ba", "abba"));
	assert_true(method_matches("a*a*a", "a.aa"));
	assert_false(method_matches("a*a*a", "a.a"));
	/* leftmost choice of a middle segment must not hide a later match */
	assert_true(method_matches("x*ab*abc", "x.ab.ab.abc()"));
	assert_true(method_matches("*ab*ab*c", "x.abab.c()V"));
	assert_false(method_matches("*ab*ab*c", "x.aba.c()V"));
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_method_pathological_is_fast(void **state)
{
	(void)state;
	enum { N = 200000 };
	char *name = malloc(N + 2);
	struct timespec t0;

	assert_non_null(name);
	memset(name, 'a', N);
	name[N] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 50; i++) {
		assert_false(method_matches("*a*a*a*a*b", name));
		assert_false(method_matches("*a*a*a*a*b*", name));
		assert_false(method_matches("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", name));
		assert_true(method_matches("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*", name));
	}
	name[N] = 'b';
	name[N + 1] = '\0';
	for (int i = 0; i < 50; i++) {
		assert_true(method_matches("*a*a*a*a*b", name));
		assert_true(method_matches("*a*a*a*a*b*", name));
		assert_true(method_matches("*aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab*", name));
		assert_false(method_matches("*aaaaaaaaaaaaaaaaaaaaaaaaaaaaaabb*", name));
	}
	/* a recursive or backtracking matcher would take hours; this takes milliseconds */
	assert_true(seconds_since(&t0) < 5.0);
	free(name);
}

static void test_method_internal_names(void **state)
{
	(void)state;
	assert_method_text("java/io/BufferedWriter.write(I)V", "java.io.BufferedWriter.write(I)V");
	assert_true(pattern_match_method(&pat, "java.io.BufferedWriter.write(I)V", 32));
	assert_method_text("java/io/BufferedWriter.write", "java.io.BufferedWriter.write");
	assert_method_text("java/io/*", "java.io.*");
	assert_method_text("java.io.Writer.write(Ljava.lang.String;)V",
			   "java.io.Writer.write(Ljava/lang/String;)V");
	assert_true(method_matches("java.io.Writer.write(Ljava.lang.String;)V",
				   "java.io.Writer.write(Ljava/lang/String;)V"));
	assert_method_text("java/io/Writer.write(Ljava.lang.String;II)Ljava.io.Writer;",
			   "java.io.Writer.write(Ljava/lang/String;II)Ljava/io/Writer;");
	assert_method_text("java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
			   "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
	assert_method_text("*.main([Ljava.lang.String;)V", "*.main([Ljava/lang/String;)V");
}

static void test_method_special_names(void **state)
{
	(void)state;
	assert_true(method_matches("Outer$Inner.<init>()V", "Outer$Inner.<init>()V"));
	assert_true(method_matches("Outer$*.<init>", "Outer$Inner.<init>(LOuter;)V"));
	assert_false(method_matches("Outer$*.<init>", "Outer.<init>()V"));
	assert_true(method_matches("java.lang.Object.<clinit>()V", "java.lang.Object.<clinit>()V"));
	assert_true(method_matches("*.<clinit>", "com.acme.Foo.<clinit>()V"));
	assert_false(method_matches("*.<clinit>", "com.acme.Foo.<init>()V"));
	assert_true(method_matches("com.acme.Foo$$Lambda*.*", "com.acme.Foo$$Lambda.0x0000000800c03000.run()V"));
}

/* ":LINE" selects a line's site ("C.m(I)V:245") and nothing else; a
 * pattern without a line never selects a line's site. */
static void test_method_lines(void **state)
{
	(void)state;
	assert_method_text("C.m(I)V:245", "C.m(I)V:245");
	assert_int_equal(pattern_line(&pat), 245);
	assert_method_text("C.m(int):245", "C.m(I)*:245");
	assert_method_text("a/b/C.m:7", "a.b.C.m(*)*:7");
	assert_int_equal(pattern_line(&pat), 7);
	assert_method_text("C.m(I)V", "C.m(I)V");
	assert_int_equal(pattern_line(&pat), 0);
	assert_true(method_matches("C.m(I)V:245", "C.m(I)V:245"));
	assert_true(method_matches("C.m(int):245", "C.m(I)V:245"));
	assert_true(method_matches("C.m:245", "C.m(I)V:245"));
	assert_true(method_matches("*C.m(I)*:245", "p.C.m(I)V:245"));
	assert_false(method_matches("C.m(I)V:245", "C.m(I)V:2245"));
	assert_false(method_matches("C.m(I)V:245", "C.m(I)V:24"));
	assert_false(method_matches("C.m(I)V:245", "C.m(I)V"));
	assert_false(method_matches("C.m:245", "C.m(I)V"));
	assert_false(method_matches("C.*", "C.m(I)V:245"));
	assert_false(method_matches("C.m", "C.m(I)V:245"));
	assert_false(method_matches("*", "C.m(I)V:245"));
	assert_false(method_matches("C.m(I)V", "C.m(I)V:245"));
	assert_true(method_matches("C.*", "C.m(I)V"));
	/* a ':' that is not a line stays in the name */
	assert_method_text("C.m:x", "C.m:x");
	assert_int_equal(pattern_line(&pat), 0);
	assert_method_rejected("C.m(I)V:0245", "bad line number at offset 8: a positive decimal number of at most 9 digits");
	assert_method_rejected("C.m(I)V:1234567890", "bad line number at offset 8: a positive decimal number of at most 9 digits");
	assert_method_rejected(":12", "no method before the line at offset 0");
}

/* A lineage for the root tests: B and C descend from A, D from B; E does not. */
static bool test_descends(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen)
{
	static const char *const pairs[][2] = { { "p.B", "p.A" }, { "p.C", "p.A" }, { "p.D", "p.A" }, { "p.D", "p.B" } };

	(*(int *)ctx)++;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (strlen(pairs[i][0]) == clen && memcmp(pairs[i][0], cls, clen) == 0 &&
		    strlen(pairs[i][1]) == rlen && memcmp(pairs[i][1], root, rlen) == 0)
			return true;
	return false;
}

static bool via(const char *text, const char *name, int *asked)
{
	compile_ok(PATTERN_METHOD, text);
	return pattern_match_method_via(&pat, name, strlen(name), test_descends, asked);
}

/* "^C.m": C's m and the m of every class the caller says descends from C;
 * the plain matcher and the index see C's own only. */
static void test_method_roots(void **state)
{
	size_t rlen = 0;
	int asked = 0;

	(void)state;
	assert_method_text("^p.A.run", "^p.A.run");
	assert_memory_equal(pattern_root(&pat, &rlen), "p.A", 3);
	assert_int_equal(rlen, 3);
	assert_method_text("^p/A.run(int)", "^p.A.run(I)*");
	assert_method_text("^p.A.run:12", "^p.A.run(*)*:12");
	assert_int_equal(pattern_line(&pat), 12);
	assert_method_text("p.A.run", "p.A.run");
	assert_null(pattern_root(&pat, &rlen));
	assert_int_equal(rlen, 0);

	assert_true(via("^p.A.run", "p.A.run()V", &asked));
	assert_int_equal(asked, 0);	/* its own class: nobody asked */
	assert_true(via("^p.A.run", "p.B.run()V", &asked));
	assert_true(via("^p.A.run", "p.D.run(I)V", &asked));
	assert_true(via("^p.B.run()V", "p.D.run()V", &asked));
	assert_false(via("^p.B.run()V", "p.C.run()V", &asked));
	assert_false(via("^p.A.run", "p.E.run()V", &asked));
	asked = 0;
	assert_false(via("^p.A.run", "p.B.walk()V", &asked));
	assert_false(via("^p.A.run(I)V", "p.B.run()V", &asked));
	assert_false(via("^p.A.run", "p.B.runs()V", &asked));
	assert_int_equal(asked, 0);	/* the method part decides first */
	assert_true(via("^p.A.r*", "p.C.rest(J)V", &asked));
	assert_true(via("^p.A.run:12", "p.B.run(I)V:12", &asked));
	assert_false(via("^p.A.run:12", "p.B.run(I)V", &asked));
	assert_false(via("^p.A.run", "p.B.run(I)V:12", &asked));
	assert_false(via("^p.A.run", "run()V", &asked));
	assert_false(pattern_match_method_via(&pat, "p.B.run()V", 10, NULL, NULL));
	/* without a lineage: the root's own methods only */
	assert_true(method_matches("^p.A.run", "p.A.run()V"));
	assert_false(method_matches("^p.A.run", "p.B.run()V"));

	assert_method_rejected("^", "no class after '^' at offset 0");
	assert_method_rejected("^run", "no class before the method name ending at offset 3 (write Class.method, e.g. com.acme.Foo.bar, or *.method)");
	assert_method_rejected("^p.*.run", "'*' in the class after '^' at offset 3: '^' names one class (write ^com.acme.Base.run)");
	assert_method_rejected("^*.run", "'*' in the class after '^' at offset 1: '^' names one class (write ^com.acme.Base.run)");
}

static void test_normalising_is_idempotent(void **state)
{
	(void)state;
	static const struct { enum pattern_kind kind; const char *text; } cases[] = {
		{ PATTERN_METHOD, "java/io/Writer.write(Ljava.lang.String;)V" },
		{ PATTERN_METHOD, "java/io/*" },
		{ PATTERN_CLASS, "Ljava/lang/String;" },
		{ PATTERN_CLASS, "[[Ljava/lang/*;" },
		{ PATTERN_CLASS, "[J" },
	};
	static struct pattern again;
	char copy[PATTERN_MAX_LEN + 1];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len;

		compile_ok(cases[i].kind, cases[i].text);
		const char *text = pattern_text(&pat, &len);

		memcpy(copy, text, len + 1);
		assert_int_equal(pattern_compile(&again, cases[i].kind, copy, len, err, sizeof err), 0);
		assert_string_equal(pattern_text(&again, NULL), copy);
	}
}

/* ---- classes --------------------------------------------------------------------- */

static void test_class_exact(void **state)
{
	(void)state;
	assert_true(class_matches("java.lang.String", "Ljava/lang/String;"));
	assert_true(pattern_is_literal(&pat));
	assert_false(class_matches("java.lang.String", "Ljava/lang/StringBuilder;"));
	assert_false(class_matches("java.lang.String", "Ljava/lang/Strin;"));
	assert_false(class_matches("java.lang.String", "[Ljava/lang/String;"));
	assert_true(class_matches("com.acme.Outer$Inner", "Lcom/acme/Outer$Inner;"));
	assert_false(class_matches("com.acme.Outer.Inner", "Lcom/acme/Outer$Inner;"));
	assert_true(class_matches("Default", "LDefault;"));
	assert_true(class_matches("int", "I"));
}

static void test_class_wildcards(void **state)
{
	(void)state;
	compile_ok(PATTERN_CLASS, "java.lang.*Exception");
	static const char *const yes[] = {
		"Ljava/lang/Exception;",
		"Ljava/lang/IllegalStateException;",
		"Ljava/lang/reflect/UndeclaredThrowableException;",
	};
	static const char *const no[] = {
		"Ljava/io/IOException;",
		"Ljava/lang/ExceptionInInitializerError;",
		"Ljava/lang/Error;",
		"[Ljava/lang/Exception;",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		assert_true(pattern_match_class(&pat, yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_false(pattern_match_class(&pat, no[i], strlen(no[i])));

	assert_true(class_matches("*", "Ljava/lang/Object;"));
	assert_true(class_matches("*", "[[I"));
	assert_true(class_matches("*", "Z"));
	assert_true(class_matches("com.acme.Outer$*", "Lcom/acme/Outer$Inner;"));
	assert_true(class_matches("com.acme.Outer$*", "Lcom/acme/Outer$1;"));
	assert_false(class_matches("com.acme.Outer$*", "Lcom/acme/Outer;"));
	assert_true(class_matches("java.util.*", "Ljava/util/concurrent/ConcurrentHashMap;"));
	/* '*' crosses '[' too: a package pattern selects that package's arrays */
	assert_true(class_matches("java.util.*", "[Ljava/util/List;"));
	/* segments between stars, read through the '/' -> '.' mapping */
	assert_true(class_matches("java.lang.*String*", "Ljava/lang/String;"));
	assert_true(class_matches("*.lang.*String*", "[Ljava/lang/String;"));
	assert_true(class_matches("*lang.String*", "[Ljava/lang/String;"));
	assert_false(class_matches("*lang.String*x", "[Ljava/lang/String;"));
	assert_true(class_matches("*[*]", "[[I"));
	assert_true(class_matches("*t[]*", "[[I"));
	assert_false(class_matches("*t[]]*", "[[I"));
	assert_false(class_matches("java.*.*.String", "Ljava/lang/String;"));
	assert_true(class_matches("java.*.*.String", "Ljava/lang/x/String;"));
}

static void test_class_long_names_are_fast(void **state)
{
	(void)state;
	enum { N = 65535 };	/* the longest name a class file can hold */
	char *sig = malloc(N + 5);
	struct timespec t0;

	assert_non_null(sig);
	sig[0] = 'L';
	memset(sig + 1, 'a', N);
	memcpy(sig + 1 + N, "/Z;", 4);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 20; i++) {
		assert_false(class_matches("*a*a*a*a*b", sig));
		assert_true(class_matches("*a*a*a*a*.Z", sig));
		assert_true(class_matches("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*.*", sig));
		assert_false(class_matches("*aaaaaaaaaaaaaaaab*", sig));
	}
	assert_true(seconds_since(&t0) < 5.0);
	free(sig);
}

static void test_class_internal_forms(void **state)
{
	(void)state;
	assert_class_text("Ljava/lang/String;", "java.lang.String");
	assert_true(pattern_match_class(&pat, "Ljava/lang/String;", 18));
	assert_class_text("java/lang/String", "java.lang.String");
	assert_class_text("Ljava.lang.String;", "java.lang.String");
	assert_class_text("Ljava/lang/*;", "java.lang.*");
	assert_class_text("LOuter$Inner;", "Outer$Inner");
	assert_class_text("L*;", "*");
	/* L without ';' is a class whose name starts with L, not a signature */
	assert_class_text("Launcher", "Launcher");
	assert_true(pattern_match_class(&pat, "LLauncher;", 10));
	assert_class_text("L", "L");
}

static void test_class_arrays(void **state)
{
	(void)state;
	assert_true(class_matches("int[]", "[I"));
	assert_false(class_matches("int[]", "[[I"));
	assert_false(class_matches("int[]", "I"));
	assert_true(class_matches("int[][]", "[[I"));
	assert_true(class_matches("java.lang.String[]", "[Ljava/lang/String;"));
	assert_false(class_matches("java.lang.String[]", "Ljava/lang/String;"));
	assert_true(class_matches("*[]", "[J"));
	assert_true(class_matches("*[]", "[[Ljava/lang/Object;"));
	assert_false(class_matches("*[]", "Ljava/lang/Object;"));
	assert_true(class_matches("java.lang.*[]", "[Ljava/lang/Thread;"));

	assert_class_text("[I", "int[]");
	assert_class_text("[[Ljava/lang/String;", "java.lang.String[][]");
	assert_true(pattern_match_class(&pat, "[[Ljava/lang/String;", 20));
	assert_false(pattern_match_class(&pat, "[Ljava/lang/String;", 19));
	assert_class_text("[Ljava/lang/*;", "java.lang.*[]");
	assert_class_text("[Z", "boolean[]");
	assert_class_text("[[[D", "double[][][]");
	assert_class_text("java/lang/String[]", "java.lang.String[]");
}

static void test_class_bad_signatures_match_nothing(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "Ljava/lang/String", "java/lang/String;", "L;", "[", "[[", "[V", "Q", "II",
		"Ljava/lang/String;;", "La;b;", "[Ljava/lang/String", "L[I;",
	};
	compile_ok(PATTERN_CLASS, "*");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (pattern_match_class(&pat, bad[i], strlen(bad[i])))
			fail_msg("\"%s\" matched", bad[i]);
	assert_false(pattern_match_class(&pat, "La\0b;", 5));
	assert_false(pattern_match_class(&pat, NULL, 0));
	assert_true(pattern_match_class(&pat, "V", 1));
	/* kinds do not mix */
	assert_false(pattern_match_method(&pat, "a.b()V", 6));
	compile_ok(PATTERN_METHOD, "*");
	assert_false(pattern_match_class(&pat, "La;", 3));
	assert_false(pattern_match_method(&pat, NULL, 0));
}

/* ---- rejection ------------------------------------------------------------------- */

static void test_reject_empty(void **state)
{
	(void)state;
	assert_rejected(PATTERN_METHOD, "", 0, -EINVAL, "empty pattern");
	assert_rejected(PATTERN_CLASS, "", 0, -EINVAL, "empty pattern");
	assert_rejected(PATTERN_CLASS, NULL, 0, -EINVAL, "empty pattern");
	assert_int_equal(pattern_compile(NULL, PATTERN_CLASS, "a", 1, err, sizeof err), -EINVAL);
	assert_string_equal(err, "no pattern object given");
	assert_rejected((enum pattern_kind)7, "a", 1, -EINVAL, "unknown pattern kind 7");
}

static void test_reject_too_long(void **state)
{
	(void)state;
	static char text[PATTERN_MAX_LEN + 2];

	memset(text, 'a', sizeof text);
	text[0] = '*';
	assert_int_equal(pattern_compile(&pat, PATTERN_METHOD, text, PATTERN_MAX_LEN, err, sizeof err), 0);
	assert_int_equal(pattern_compile(&pat, PATTERN_CLASS, text, PATTERN_MAX_LEN, err, sizeof err), 0);
	assert_rejected(PATTERN_METHOD, text, PATTERN_MAX_LEN + 1, -ENAMETOOLONG,
			"pattern is 4097 bytes long, more than the limit of 4096");
	/* 7 + 2 * 3000 bytes once written as boolean[][]...[] */
	memset(text, '[', 3000);
	text[3000] = 'Z';
	assert_rejected(PATTERN_CLASS, text, 3001, -ENAMETOOLONG,
			"pattern is 6007 bytes long in Java form, more than the limit of 4096");
	memset(text, '[', 2000);
	text[2000] = 'Z';
	assert_int_equal(pattern_compile(&pat, PATTERN_CLASS, text, 2001, err, sizeof err), 0);
	assert_int_equal(pattern_text(&pat, NULL)[4006], ']');
}

static void test_reject_bad_bytes(void **state)
{
	(void)state;
	assert_method_rejected("java.io.Foo .bar", "space at offset 11 cannot occur in a Java name");
	assert_method_rejected(" java.io.Foo.bar", "space at offset 0 cannot occur in a Java name");
	assert_class_rejected("java.lang.String ", "space at offset 16 cannot occur in a Java name");
	assert_method_rejected("java.io.Foo.bar\n",
			       "control character 0x0a at offset 15 cannot occur in a Java name");
	assert_class_rejected("java.lang.\tString",
			      "control character 0x09 at offset 10 cannot occur in a Java name");
	assert_method_rejected("a.b\x7f", "control character 0x7f at offset 3 cannot occur in a Java name");
	assert_rejected(PATTERN_CLASS, "java\0lang", 9, -EINVAL,
			"control character 0x00 at offset 4 cannot occur in a Java name");
	/* non-ASCII (modified UTF-8) is part of Java names and stays */
	assert_true(class_matches("caf\xc3\xa9.*", "Lcaf\xc3\xa9/Menu;"));
}

static void test_reject_parentheses(void **state)
{
	(void)state;
	assert_method_rejected("com.acme.Foo.bar(I", "'(' at offset 16 has no matching ')'");
	assert_method_rejected("com.acme.Foo.bar(", "'(' at offset 16 has no matching ')'");
	assert_method_rejected("com.acme.Foo.bar)V", "')' at offset 16 has no '(' before it");
	assert_method_rejected("com.acme.Foo.bar(I)(V",
			       "second '(' at offset 19: a method has one descriptor");
	assert_method_rejected("com.acme.Foo.bar(I))V",
			       "second ')' at offset 19: a descriptor has one parameter list");
	assert_method_rejected("(I)V", "no method name before '(' at offset 0");
	assert_method_rejected("com.acme.Foo.bar(I)",
			       "'com.acme.Foo.bar(I)' has no return type after ')' at offset 18: write com.acme.Foo.bar(I)V (or "
			       "another type, or * for any), or the parameters as Java types, e.g. (int, String)");
}

/* A list without a return type is Java source (runtime/signature.c). */
static void test_method_source_signatures(void **state)
{
	(void)state;
	assert_method_text("Shop.handle(int,String)", "Shop.handle(IL*String;)*");
	assert_method_text("Shop.handle(int, String)", "Shop.handle(IL*String;)*");
	assert_method_text("Shop.run()", "Shop.run()*");
	assert_method_text("a.B.c(long,boolean,byte,char,short,float,double)", "a.B.c(JZBCSFD)*");
	assert_method_text("a.B.c(java.util.List<java.util.Map<String, int[]>>, byte[][], String...)",
			   "a.B.c(Ljava/util/List;[[B[L*String;)*");
	assert_method_text("a.B.c(java/lang/Object,Outer$Inner,com.acme.*)",
			   "a.B.c(Ljava/lang/Object;L*Outer$Inner;Lcom/acme/*;)*");
	/* the normalised form compiles to itself */
	assert_method_text("Shop.handle(IL*String;)*", "Shop.handle(IL*String;)*");
	assert_true(method_matches("Shop.handle(int, String)", "Shop.handle(ILjava/lang/String;)J"));
	assert_true(method_matches("Shop.handle(int,String)", "Shop.handle(ILjava/lang/String;)V"));
	assert_false(method_matches("Shop.handle(int,String)", "Shop.handle(JLjava/lang/String;)V"));
	assert_false(method_matches("Shop.handle(int)", "Shop.handle(ILjava/lang/String;)V"));
	assert_true(method_matches("Shop.handle(java.lang.String)", "Shop.handle(Ljava/lang/String;)V"));
	assert_false(method_matches("Shop.handle(java.lang.String)", "Shop.handle(Lcom/x/String;)V"));
	assert_true(method_matches("Shop.handle(int[]...)", "Shop.handle([[I)V"));
	assert_true(method_matches("Shop.run()", "Shop.run()Ljava/lang/String;"));
}

static void test_reject_source_signatures(void **state)
{
	(void)state;
	assert_method_rejected("Shop.handle(int,)", "no type after the ',' at offset 15");
	assert_method_rejected("Shop.handle(,int)", "no type before the ',' or ')' at offset 12");
	assert_method_rejected("Shop.handle(int, ,String)", "no type before the ',' or ')' at offset 17");
	assert_method_rejected("Shop.handle(java.lang. String)",
			       "'java.lang. String' at offset 12 is not a Java type (write int, String, "
			       "java.util.List, byte[] ...)");
	assert_method_rejected("Shop.handle(void)", "void at offset 12 is no parameter type");
	assert_method_rejected("Shop.handle(List<String)", "'<' in the parameter at offset 12 is not closed");
	assert_method_rejected("Shop.handle(List>)", "'>' at offset 16 closes no '<'");
	assert_method_rejected("Shop.handle([])", "no type in the parameter at offset 12");
	assert_method_rejected("Shop.handle(ILjava/lang/String;)",
			       "'Shop.handle(ILjava/lang/String;)' has no return type after ')' at offset 31: write "
			       "Shop.handle(ILjava/lang/String;)V (or another type, or * for any), or the "
			       "parameters as Java types, e.g. (int, String)");
}

static void test_reject_method_names(void **state)
{
	(void)state;
	assert_method_rejected("bar", "no class before the method name ending at offset 3 "
			       "(write Class.method, e.g. com.acme.Foo.bar, or *.method)");
	assert_method_rejected("bar(I)V", "no class before the method name ending at offset 3 "
			       "(write Class.method, e.g. com.acme.Foo.bar, or *.method)");
	assert_method_rejected("com.acme.Foo.",
			       "no method name after '.' at offset 12 (write .* for every method)");
	assert_method_rejected("com/acme/Foo/",
			       "no method name after '/' at offset 12 (write /* for every method)");
	assert_method_rejected("com.acme.Foo.(I)V",
			       "no method name after '.' at offset 12 (write .* for every method)");
}

static void test_reject_class_names(void **state)
{
	(void)state;
	/* found by fuzz_pattern: its normalised "[" was no pattern */
	assert_class_rejected("L[;", "'[' at offset 1 cannot start a class name (an array is [I or int[], not L[I;)");
	assert_class_rejected("java.lang.String;",
			      "';' at offset 16 cannot occur in a class name "
			      "(write java.lang.String or Ljava/lang/String;)");
	assert_class_rejected("Ljava/lang/String;;",
			      "';' at offset 17 cannot occur in a class name "
			      "(write java.lang.String or Ljava/lang/String;)");
	assert_class_rejected("L;", "no class name between 'L' and ';'");
	assert_class_rejected("java.lang.", "no class name after '.' at offset 9 (write .* for a whole package)");
	assert_class_rejected("Ljava/lang/;", "no class name after '/' at offset 10 (write /* for a whole package)");
	static const char *const arrays[] = { "[", "[X", "[V", "[*", "[Ljava/lang/String", "[I[]" };
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		assert_class_rejected(arrays[i],
				      "'[' at offset 0 starts an array signature, but it is not one "
				      "(write e.g. [I, [Ljava/lang/String;, int[] or java.lang.String[])");
}

static void test_reject_message_buffer(void **state)
{
	(void)state;
	char tiny[6];

	assert_int_equal(pattern_compile(&pat, PATTERN_METHOD, "", 0, tiny, sizeof tiny), -EINVAL);
	assert_string_equal(tiny, "empty");
	assert_int_equal(pattern_compile(&pat, PATTERN_METHOD, "", 0, NULL, 0), -EINVAL);
	assert_int_equal(pattern_compile(&pat, PATTERN_METHOD, "", 0, tiny, 0), -EINVAL);
	assert_int_equal(pattern_compile(&pat, PATTERN_METHOD, "a.b", 3, NULL, 0), 0);
}

/* ---- building names -------------------------------------------------------------- */

static void test_signature_to_dotted(void **state)
{
	(void)state;
	static const struct { const char *sig, *dotted; } cases[] = {
		{ "Ljava/lang/String;", "java.lang.String" },
		{ "[I", "int[]" },
		{ "[Ljava/lang/String;", "java.lang.String[]" },
		{ "[[Lcom/acme/Outer$Inner;", "com.acme.Outer$Inner[][]" },
		{ "Lcom/acme/Outer$Inner;", "com.acme.Outer$Inner" },
		{ "LNoPackage;", "NoPackage" },
		{ "J", "long" },
		{ "V", "void" },
		{ "[C", "char[]" }, { "[B", "byte[]" }, { "[S", "short[]" },
		{ "[F", "float[]" }, { "[D", "double[]" }, { "[Z", "boolean[]" },
		{ "Lcom/acme/Foo$$Lambda.0x0000000800c03000;", "com.acme.Foo$$Lambda.0x0000000800c03000" },
	};
	char out[128];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(out, 'x', sizeof out);
		assert_int_equal(name_class_signature_to_dotted(cases[i].sig, strlen(cases[i].sig),
								out, sizeof out),
				 strlen(cases[i].dotted));
		assert_string_equal(out, cases[i].dotted);
	}
	/* LEN, not the NUL, ends the signature */
	assert_int_equal(name_class_signature_to_dotted("[Ixyz", 2, out, sizeof out), 5);
	assert_string_equal(out, "int[]");
}

/* A peer's class names in the seed's forms: the JVMTI signature, the seed's
 * "Ljava/lang/Object" without ';', and the Java form. */
static void test_class_name_forms(void **state)
{
	static const char *const forms[] = { "Ljava/util/List;", "Ljava/util/List", "java.util.List" };
	char out[32];

	(void)state;
	compile_ok(PATTERN_CLASS, "java.util.*");
	for (size_t i = 0; i < 3; i++) {
		assert_true(pattern_match_class_name(&pat, forms[i], strlen(forms[i])));
		assert_int_equal(name_class_any_to_dotted(forms[i], strlen(forms[i]), out, sizeof out), 14);
		assert_string_equal(out, "java.util.List");
	}
	/* the strict forms stay strict */
	assert_false(pattern_match_class(&pat, "Ljava/util/List", 15));
	assert_false(pattern_match_class(&pat, "java.util.List", 14));
	compile_ok(PATTERN_CLASS, "Demo$Inner");
	assert_true(pattern_match_class_name(&pat, "Demo$Inner", 10));
	assert_true(pattern_match_class_name(&pat, "LDemo$Inner;", 12));
	/* what is none of them */
	compile_ok(PATTERN_CLASS, "*");
	static const char *const bad[] = { "", "java/lang/String", "java.lang.String;", "Lx;;", "a[b", "[" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (pattern_match_class_name(&pat, bad[i], strlen(bad[i])))
			fail_msg("\"%s\" matched", bad[i]);
		assert_int_equal(name_class_any_to_dotted(bad[i], strlen(bad[i]), out, sizeof out), -EINVAL);
	}
	assert_false(pattern_match_class_name(&pat, "a\0b", 3));
	assert_true(pattern_match_class_name(&pat, "[I", 2));
}

static void test_signature_to_dotted_errors(void **state)
{
	(void)state;
	char out[17];

	/* "java.lang.String" is 16 bytes: 17 fit with the NUL, 16 do not */
	assert_int_equal(name_class_signature_to_dotted("Ljava/lang/String;", 18, out, 17), 16);
	assert_string_equal(out, "java.lang.String");
	memset(out, 'x', sizeof out);
	assert_int_equal(name_class_signature_to_dotted("Ljava/lang/String;", 18, out, 16), -ENAMETOOLONG);
	assert_int_equal(out[0], 'x');
	assert_int_equal(name_class_signature_to_dotted("[I", 2, out, 5), -ENAMETOOLONG);
	assert_int_equal(name_class_signature_to_dotted("[I", 2, out, 6), 5);
	assert_int_equal(name_class_signature_to_dotted("[I", 2, NULL, 0), -ENAMETOOLONG);
	assert_int_equal(name_class_signature_to_dotted("I", 1, out, 0), -ENAMETOOLONG);
	static const char *const bad[] = {
		"", "Ljava/lang/String", "L;", "[", "[V", "Q", "Lx;y", "Lx;;", "java.lang.String",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(name_class_signature_to_dotted(bad[i], strlen(bad[i]), out, sizeof out),
				 -EINVAL);
	assert_int_equal(name_class_signature_to_dotted(NULL, 0, out, sizeof out), -EINVAL);
}

static void test_method_wire(void **state)
{
	(void)state;
	char out[128];

	assert_int_equal(name_method_wire(out, sizeof out, "Ljava/lang/System;", "arraycopy",
					  "(Ljava/lang/Object;ILjava/lang/Object;II)V"), 68);
	assert_string_equal(out, "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
	assert_int_equal(name_method_wire(out, sizeof out, "Ljava/io/BufferedWriter;", "write", "(I)V"), 32);
	assert_string_equal(out, "java.io.BufferedWriter.write(I)V");
	assert_int_equal(name_method_wire(out, sizeof out, "LOuter$Inner;", "<init>", "()V"), 21);
	assert_string_equal(out, "Outer$Inner.<init>()V");
	assert_int_equal(name_method_wire(out, sizeof out, "Ljava/lang/Object;", "<clinit>", "()V"), 28);
	assert_string_equal(out, "java.lang.Object.<clinit>()V");
	assert_int_equal(name_method_wire(out, sizeof out, "[I", "clone", "()Ljava/lang/Object;"), 31);
	assert_string_equal(out, "int[].clone()Ljava/lang/Object;");

	/* what the agent builds, the bridge's patterns match */
	assert_int_equal(name_method_wire(out, sizeof out, "Ljava/io/BufferedWriter;", "write",
					  "(Ljava/lang/String;)V"), 49);
	assert_true(method_matches("java/io/BufferedWriter.write(Ljava.lang.String;)V", out));
	assert_true(method_matches("java.io.BufferedWriter.write", out));
	assert_true(method_matches("java.io.*", out));
}

/* JVMTI and class files give names in modified UTF-8: U+1D518 is ED A0 B5 ED
 * B4 98 there, F0 9D 94 98 in UTF-8, which the wire name holds and which a
 * pattern in UTF-8 matches (the modified form never would). */
static void test_method_wire_modified_utf8(void **state)
{
	(void)state;
	char out[128];

	assert_int_equal(name_method_wire(out, sizeof out, "Lp/C\xed\xa0\xb5\xed\xb4\x98;",
					  "h\xed\xa0\xb5\xed\xb4\x98llo",
					  "(LEx\xed\xa0\xb5\xed\xb4\x98;)V"), 27);
	assert_string_equal(out, "p.C\xf0\x9d\x94\x98.h\xf0\x9d\x94\x98llo(LEx\xf0\x9d\x94\x98;)V");
	assert_true(method_matches("p.C\xf0\x9d\x94\x98.h\xf0\x9d\x94\x98llo", out));
	assert_true(method_matches("p.C\xf0\x9d\x94\x98.h\xf0\x9d\x94\x98llo(Ex\xf0\x9d\x94\x98)", out));
	assert_false(method_matches("p.C\xed\xa0\xb5\xed\xb4\x98.*", out));
	/* a NUL in a name stays C0 80: the name stays one C string */
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", "a\xc0\x80" "b", "()V"), 9);
	assert_string_equal(out, "A.a\xc0\x80" "b()V");
	/* OUT must hold the modified form: 6 bytes more here than the result */
	assert_int_equal(name_method_wire(out, 11, "LA;", "\xed\xa0\xb5\xed\xb4\x98", "()V"),
			 -ENAMETOOLONG);
	assert_int_equal(name_method_wire(out, 12, "LA;", "\xed\xa0\xb5\xed\xb4\x98", "()V"), 9);
	assert_string_equal(out, "A.\xf0\x9d\x94\x98()V");
}

static void test_method_wire_errors(void **state)
{
	(void)state;
	char out[33];

	/* "java.io.BufferedWriter.write(I)V" is 32 bytes */
	assert_int_equal(name_method_wire(out, 33, "Ljava/io/BufferedWriter;", "write", "(I)V"), 32);
	assert_string_equal(out, "java.io.BufferedWriter.write(I)V");
	memset(out, 'x', sizeof out);
	assert_int_equal(name_method_wire(out, 32, "Ljava/io/BufferedWriter;", "write", "(I)V"),
			 -ENAMETOOLONG);
	assert_int_equal(out[0], 'x');
	assert_int_equal(name_method_wire(out, 1, "LA;", "b", "()V"), -ENAMETOOLONG);
	assert_int_equal(name_method_wire(NULL, 0, "LA;", "b", "()V"), -ENAMETOOLONG);

	assert_int_equal(name_method_wire(out, sizeof out, "java/io/Writer", "write", "(I)V"), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", "b", "V"), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", "b", ""), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", "", "()V"), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, NULL, "b", "()V"), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", NULL, "()V"), -EINVAL);
	assert_int_equal(name_method_wire(out, sizeof out, "LA;", "b", NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_method_exact),
		cmocka_unit_test(test_method_roots),
		cmocka_unit_test(test_method_may_select_class),
		cmocka_unit_test(test_method_overloads),
		cmocka_unit_test(test_method_star_at_end),
		cmocka_unit_test(test_method_star_at_start),
		cmocka_unit_test(test_method_star_in_middle),
		cmocka_unit_test(test_method_many_stars),
		cmocka_unit_test(test_method_pathological_is_fast),
		cmocka_unit_test(test_method_internal_names),
		cmocka_unit_test(test_method_special_names),
		cmocka_unit_test(test_method_lines),
		cmocka_unit_test(test_normalising_is_idempotent),
		cmocka_unit_test(test_class_exact),
		cmocka_unit_test(test_class_wildcards),
		cmocka_unit_test(test_class_long_names_are_fast),
		cmocka_unit_test(test_class_internal_forms),
		cmocka_unit_test(test_class_arrays),
		cmocka_unit_test(test_class_bad_signatures_match_nothing),
		cmocka_unit_test(test_reject_empty),
		cmocka_unit_test(test_reject_too_long),
		cmocka_unit_test(test_reject_bad_bytes),
		cmocka_unit_test(test_reject_parentheses),
		cmocka_unit_test(test_method_source_signatures),
		cmocka_unit_test(test_reject_source_signatures),
		cmocka_unit_test(test_reject_method_names),
		cmocka_unit_test(test_reject_class_names),
		cmocka_unit_test(test_reject_message_buffer),
		cmocka_unit_test(test_signature_to_dotted),
		cmocka_unit_test(test_signature_to_dotted_errors),
		cmocka_unit_test(test_class_name_forms),
		cmocka_unit_test(test_method_wire),
		cmocka_unit_test(test_method_wire_modified_utf8),
		cmocka_unit_test(test_method_wire_errors),
	};

	return cmocka_run_group_tests_name("pattern", tests, NULL, NULL);
}
