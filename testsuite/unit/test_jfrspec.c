/* Unit tests for runtime/jfrspec.c: the --jfr / JfrSettings entries. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "jfrspec.h"

static int parse(const char *s, struct jfrspec_entry *e, char *err)
{
	return jfrspec_parse(s, strlen(s), e, err, 200);
}

static void test_entries(void **state)
{
	struct jfrspec_entry e;
	char err[200];

	(void)state;
	assert_int_equal(parse("jdk.GarbageCollection", &e, err), 0);
	assert_int_equal(e.pattern.n, strlen("jdk.GarbageCollection"));
	assert_int_equal(e.nsettings, 0);
	assert_int_equal(parse("jdk.JavaMonitorEnter#threshold=1 ms;stackTrace=false", &e, err), 0);
	assert_int_equal(e.pattern.n, strlen("jdk.JavaMonitorEnter"));
	assert_int_equal(e.nsettings, 2);
	assert_true(e.name[0].n == 9 && memcmp(e.name[0].p, "threshold", 9) == 0);
	assert_true(e.value[0].n == 4 && memcmp(e.value[0].p, "1 ms", 4) == 0);
	assert_true(e.value[1].n == 5 && memcmp(e.value[1].p, "false", 5) == 0);
	assert_non_null(jfrspec_setting(&e, "stackTrace"));
	assert_null(jfrspec_setting(&e, "period"));
}

static void test_faults(void **state)
{
	struct jfrspec_entry e;
	char err[200];

	(void)state;
	assert_int_equal(parse("", &e, err), -EINVAL);
	assert_string_equal(err, "an event type name is expected at byte 0 of ''");
	assert_int_equal(parse("jdk.X#", &e, err), -EINVAL);
	assert_string_equal(err, "a setting is expected after '#' at byte 6 of 'jdk.X#'");
	assert_int_equal(parse("jdk.X#threshold", &e, err), -EINVAL);
	assert_string_equal(err, "'=' is expected after a setting's name at byte 15 of 'jdk.X#threshold'");
	assert_int_equal(parse("jdk.X#threshold=", &e, err), -EINVAL);
	assert_string_equal(err, "a setting's value must be 1 to 64 bytes at byte 16 of 'jdk.X#threshold='");
	assert_int_equal(parse("jdk.X#a=1;", &e, err), -EINVAL);
	assert_string_equal(err, "a setting is expected after ';' at byte 9 of 'jdk.X#a=1;'");
	assert_int_equal(parse("jdk.X#a=\n", &e, err), -EINVAL);
	assert_int_equal(parse("jdk X", &e, err), -EINVAL);
	assert_int_equal(parse("jdk.X#a=1;b=2;c=3;d=4;e=5;f=6;g=7;h=8;i=9", &e, err), -EINVAL);
	assert_string_equal(err, "more than 8 settings at byte 38 of 'jdk.X#a=1;b=2;c=3;d=4;e=5;f=6;g=7;h=8;i=9'");
}

static bool match(const char *pattern, const char *name)
{
	struct jfrspec_text p = { pattern, strlen(pattern) };

	return jfrspec_match(&p, name);
}

static void test_match(void **state)
{
	(void)state;
	assert_true(match("jdk.GarbageCollection", "jdk.GarbageCollection"));
	assert_false(match("jdk.GarbageCollection", "jdk.GarbageCollectionX"));
	assert_false(match("jdk.GarbageCollection", "jdk.Garbage"));
	assert_true(match("jdk.Socket*", "jdk.SocketRead"));
	assert_true(match("jdk.Socket*", "jdk.Socket"));
	assert_false(match("jdk.Socket*", "jdk.FileRead"));
	assert_true(match("*", "anything"));
	assert_true(match("jdk.*Collection", "jdk.OldGarbageCollection"));
	assert_true(match("*a*a*", "banana"));
	assert_false(match("*x*", "banana"));
}

static int64_t ns(const char *v)
{
	struct jfrspec_text t = { v, strlen(v) };
	int64_t out = -1;

	return jfrspec_duration_ns(&t, &out) == 0 ? out : -1;
}

static void test_durations(void **state)
{
	(void)state;
	assert_int_equal(ns("0"), 0);
	assert_int_equal(ns("0 ns"), 0);
	assert_int_equal(ns("20 ms"), 20000000);
	assert_int_equal(ns("1 s"), 1000000000);
	assert_int_equal(ns("500 us"), 500000);
	assert_int_equal(ns("2 m"), 120000000000LL);
	assert_int_equal(ns("10ms"), 10000000);
	assert_int_equal(ns("5"), -1);
	assert_int_equal(ns("ms"), -1);
	assert_int_equal(ns("1 fortnight"), -1);
	assert_int_equal(ns("99999999999999999999 s"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_durations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
