/* test_sj_java.c: SystemTap's java() probe points in stap-java's translation
 * (translator-patches/sj_java.h, sj_translate.h): patterns, checks, rewrites
 * of the handler, slots shared and companions, and errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sj_java.h"
#include "sj_translate.h"

static struct sj_translation tr;
static struct sj_buf out;

static const char *translate(const char *text)
{
	static char *const args[] = { "4242", "Hello" };

	sj_translation_init(&tr, args, 2);
	memset(&out, 0, sizeof out);
	assert_int_equal(sj_translate_text(&tr, "t.stp", text, strlen(text), &out), 0);
	return sj_buf_str(&out);
}

static void done(void)
{
	sj_buf_free(&out);
	sj_translation_free(&tr);
}

static void test_patterns(void **state)
{
	(void)state;
	translate("probe java(\"App\").class(\"org.my.Shop\").method(\"handle(int, String[], java.util.List<Foo>)\") {}\n"
		  "probe java(7).class(\"Shop\").method(\"ten(Object, Bar)\").return {}\n"
		  "probe java(@2).class(\"Shop\").method(\"any\") {}\n");
	assert_int_equal(tr.nerrors, 0);
	assert_int_equal(tr.nslots, 3);
	const struct sj_java_point *a = tr.slots[0].java, *b = tr.slots[1].java, *c = tr.slots[2].java;
	assert_string_equal(tr.slots[0].pattern, "org.my.Shop.handle(I[Ljava/lang/String;Ljava/util/List;)*");
	assert_null(a->check);	/* the pattern says it exactly */
	assert_int_equal(a->nparams, 3);
	assert_string_equal(a->text, "java(\"App\").class(\"org.my.Shop\").method(\"handle(int, String[], java.util.List<Foo>)\")");
	assert_string_equal(b->pattern, "*Shop.ten(Ljava/lang/Object;L*Bar;)*");
	assert_string_equal(b->check, "^([^(]*\\.)?Shop\\.ten\\(Ljava/lang/Object;L([^;]*/)?Bar;\\)");
	assert_true(b->by_pid && b->ret);
	assert_string_equal(b->jvm, "7");
	assert_string_equal(tr.slots[1].event, "return");
	assert_string_equal(c->jvm, "Hello");
	assert_int_equal(c->nparams, -1);
	assert_string_equal(c->check, "^([^(]*\\.)?Shop\\.any\\(");
	done();
}

/* a line: the method's pattern with ":LINE" (every overload's: "(*)*"),
 * the point's text as written, and no arguments */
static void test_lines(void **state)
{
	(void)state;
	translate("probe java(\"App\").class(\"org.my.Shop\").method(\"handle(int, String[]):245\") {}\n"
		  "probe java(\"App\").class(\"Shop\").method(\" any :7\") {}\n");
	assert_int_equal(tr.nerrors, 0);
	assert_int_equal(tr.nslots, 2);
	const struct sj_java_point *a = tr.slots[0].java, *b = tr.slots[1].java;
	assert_string_equal(tr.slots[0].pattern, "org.my.Shop.handle(I[Ljava/lang/String;)*:245");
	assert_string_equal(tr.slots[0].event, "enter");
	assert_int_equal(a->line, 245);
	assert_null(a->check);
	assert_string_equal(a->text, "java(\"App\").class(\"org.my.Shop\").method(\"handle(int, String[]):245\")");
	assert_string_equal(b->pattern, "*Shop.any(*)*:7");
	assert_int_equal(b->line, 7);
	assert_string_equal(b->check, "^([^(]*\\.)?Shop\\.any\\(");
	done();
}

/* the handler's stap names become ours, never longer, columns kept */
static void test_rewrite(void **state)
{
	(void)state;
	const char *t = translate("probe java(\"A\").class(\"A\").method(\"m(int)\").return {\n"
				  "  printf(\"%s %s %d %s\\n\", pn(), arg1, $arg1, user_string_quoted($arg1)); print_java_backtrace()\n"
				  "}\n"
				  "probe begin { println(pn()) }\n");
	assert_int_equal(tr.nerrors, 0);
	assert_string_equal(t, "probe __stapjava_s0                                {\n"
			       "  printf(\"%s %s %d %s\\n\", __pn, arg1, __jl1, string_quoted(arg1)      ); __stapjava_pbt($arg12)\n"
			       "}\n"
			       "probe begin { println(pn()) }\n");
	/* the return reads its arguments: an enter slot keeps them */
	assert_int_equal(tr.nslots, 2);
	assert_int_equal(tr.slots[0].java->companion, 1);
	assert_true(tr.slots[1].java->is_companion);
	assert_string_equal(tr.slots[1].event, "enter");
	assert_int_equal(tr.optional, SJ_OPT_ARGS | SJ_OPT_STACK);
	struct sj_buf pro = { 0 };
	assert_int_equal(sj_java_alias_prologue(tr.slots[1].java, 1, &pro), 0);
	assert_string_equal(sj_buf_str(&pro), " if (!(java_name =~ \"^([^(]*\\\\.)?A\\\\.m\\\\(I\\\\)\")) next; "
					      "__stapjava_jpush(sprintf(\"%d/%d/1\", java_pid, java_tid), java_args);");
	sj_buf_free(&pro);
	done();
}

/* the same text shares its slot (its copy freed), another gets its own */
static void test_shared(void **state)
{
	(void)state;
	translate("probe java(\"A\").class(\"A\").method(\"m\") { println(pn()) }\n"
		  "probe java(\"A\").class(\"A\").method(\"m\") { println(pp()) }\n"
		  "probe java(\"B\").class(\"A\").method(\"m\") { }\n");
	assert_int_equal(tr.nslots, 2);
	assert_int_equal(tr.optional, 0);
	done();
}

static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "probe java(\"A\").class(\"A\").method(\"m(int,int,int,int,int,int,int,int,int,int,int)\") {}",
		  "maximum of 10 java method parameters may be specified" },
		{ "probe java(\"A\").class(\"A\").method(\"m(int):1:2\") {}", "maximum of one line number (:NNN)" },
		{ "probe java(\"A\").class(\"A\").method(\"m(int):12\").return {}", "conflict :NNN and .return probe" },
		{ "probe java(\"A\").klass(\"A\").method(\"m\") {}", "expected .class(\"CLASSNAME\")" },
		{ "probe java($2).class(\"A\").method(\"m\") {}", "java($2): 'Hello' is not a pid" },
		{ "probe java(\"A\").class(\"A*\").method(\"m\") {}", "Wildcards are not supported" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		translate(cases[i].text);
		assert_int_equal(tr.nerrors, 1);
		assert_non_null(strstr(sj_buf_str(&tr.errors), cases[i].msg));
		assert_int_equal(tr.nslots, 0);
		done();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
