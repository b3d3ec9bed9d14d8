/* test_jvmsel.c: which JVMs --jvm NAME|PID selects (jvmsel.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "jvmsel.h"

static void test_check(void **state)
{
	(void)state;
	assert_int_equal(jvmsel_check("Hello"), 0);
	assert_int_equal(jvmsel_check("org.my.App"), 0);
	assert_int_equal(jvmsel_check("1234"), 0);
	assert_int_equal(jvmsel_check(""), -EINVAL);
	assert_int_equal(jvmsel_check("0"), -EINVAL);
	assert_int_equal(jvmsel_check("12345678901"), -EINVAL);
	assert_int_equal(jvmsel_check("a\nb"), -EINVAL);
}

/* jps -l names and jps's short ones, nothing looser */
static void test_names(void **state)
{
	const char *app[] = { "App" }, *full[] = { "org.my.App" }, *jar[] = { "app.jar" },
		   *path[] = { "/opt/x/app.jar" }, *pid[] = { "77" }, *other[] = { "Ap", "org.my", "App2" };
	(void)state;
	assert_true(jvmsel_matches_main(5, "org.my.App", app, 1));
	assert_true(jvmsel_matches_main(5, "org.my.App", full, 1));
	assert_true(jvmsel_matches_main(5, "App", app, 1));
	assert_false(jvmsel_matches_main(5, "org.my.App", other, 3));
	assert_false(jvmsel_matches_main(5, "org.my.AppMain", app, 1));
	assert_true(jvmsel_matches_main(5, "/opt/x/app.jar", jar, 1));
	assert_true(jvmsel_matches_main(5, "/opt/x/app.jar", path, 1));
	assert_true(jvmsel_matches_main(5, "app.jar", jar, 1));
	assert_false(jvmsel_matches_main(5, "/opt/x/app.jar", app, 1));
	assert_true(jvmsel_matches_main(5, "my.mod/org.my.App", app, 1));
	assert_true(jvmsel_matches_main(77, "Whatever", pid, 1));
	assert_false(jvmsel_matches_main(78, "Whatever", pid, 1));
	assert_false(jvmsel_matches_main(5, "", app, 1));
}

/* this process's command line has no main class: it matches by pid only */
static void test_proc(void **state)
{
	char self[16];
	const char *sel[] = { self }, *name[] = { "test_jvmsel" };
	(void)state;
	snprintf(self, sizeof self, "%d", (int)getpid());
	assert_true(jvmsel_matches(getpid(), sel, 1));
	assert_false(jvmsel_matches(getpid(), name, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_proc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
