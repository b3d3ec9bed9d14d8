/* test_jvmsets.c: the sets of JVMs the supervisor keeps between scans
 * (stpd-bridge/jvmsets.c): a JVM is its pid and start time; the due list's
 * lookups, removal, next due time, and what a scan's pids keep. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "jvmsets.h"

static struct jvm_id jvm(pid_t pid, uint64_t start)
{
	return (struct jvm_id){ .pid = pid, .starttime = start };
}

static void test_list_pid_and_start_time(void **state)
{
	struct jvm_list l = { 0 };
	struct jvm_id a = jvm(100, 5), a_later = jvm(100, 9), b = jvm(200, 5);

	(void)state;
	assert_false(jvm_list_has(&l, &a));
	assert_int_equal(jvm_list_add(&l, &a), 0);
	assert_int_equal(jvm_list_add(&l, &b), 0);
	assert_true(jvm_list_has(&l, &a));
	/* the same pid, started later: another process */
	assert_false(jvm_list_has(&l, &a_later));
	assert_true(jvm_list_has_pid(&l, 100));
	assert_false(jvm_list_has_pid(&l, 300));
	jvm_list_remove(&l, &a_later);
	assert_int_equal(l.n, 2);
	jvm_list_remove(&l, &a);
	assert_int_equal(l.n, 1);
	assert_false(jvm_list_has_pid(&l, 100));
	assert_true(jvm_list_has(&l, &b));
	jvm_list_remove_at(&l, 0);
	assert_int_equal(l.n, 0);
	jvm_list_free(&l);
	assert_null(l.v);
}

static void test_due_lookups_and_removal(void **state)
{
	struct jvm_due_list l = { 0 };
	struct jvm_id a = jvm(100, 5), b = jvm(200, 7);

	(void)state;
	struct jvm_due *e = jvm_due_add(&l, &a);
	assert_non_null(e);
	assert_int_equal(e->due_ms, 0);
	assert_int_equal(e->count, 0);
	e->due_ms = 50;
	e->count = 3;
	assert_non_null(jvm_due_add(&l, &b));
	e = jvm_due_of(&l, &a);
	assert_non_null(e);
	assert_int_equal(e->due_ms, 50);
	assert_int_equal(e->count, 3);
	struct jvm_id a_later = jvm(100, 6);
	assert_null(jvm_due_of(&l, &a_later));
	assert_ptr_equal(jvm_due_of_pid(&l, 100), e);
	assert_null(jvm_due_of_pid(&l, 300));
	jvm_due_remove(&l, e);
	assert_int_equal(l.n, 1);
	assert_null(jvm_due_of_pid(&l, 100));
	assert_non_null(jvm_due_of(&l, &b));
	jvm_due_free(&l);
	assert_int_equal(l.n, 0);
}

static void test_due_next(void **state)
{
	struct jvm_due_list l = { 0 };
	const uint64_t dues[] = { 300, 0, 120, 900, 100 };

	(void)state;
	assert_int_equal(jvm_due_next(&l, 0), 0);
	for (unsigned i = 0; i < 5; i++) {
		struct jvm_id id = jvm((pid_t)(10 + i), 1);
		jvm_due_add(&l, &id)->due_ms = dues[i];
	}
	assert_int_equal(jvm_due_next(&l, 0), 100);
	assert_int_equal(jvm_due_next(&l, 100), 120);   /* due at NOW: not after it */
	assert_int_equal(jvm_due_next(&l, 120), 300);
	assert_int_equal(jvm_due_next(&l, 899), 900);
	assert_int_equal(jvm_due_next(&l, 900), 0);
	jvm_due_free(&l);
}

static void test_due_keep_pids(void **state)
{
	struct jvm_due_list l = { 0 };
	const pid_t have[] = { 7, 40, 41, 900, 1000, 5 };
	const pid_t found[] = { 1, 5, 40, 700, 900, 901, 1000 };  /* a scan's, ascending */

	(void)state;
	for (unsigned i = 0; i < 6; i++) {
		struct jvm_id id = jvm(have[i], i);
		assert_non_null(jvm_due_add(&l, &id));
	}
	jvm_due_keep_pids(&l, found, 7);
	assert_int_equal(l.n, 4);
	assert_non_null(jvm_due_of_pid(&l, 5));
	assert_non_null(jvm_due_of_pid(&l, 40));
	assert_non_null(jvm_due_of_pid(&l, 900));
	assert_non_null(jvm_due_of_pid(&l, 1000));
	jvm_due_keep_pids(&l, found, 1);   /* only pid 1 */
	assert_int_equal(l.n, 0);
	jvm_due_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_pid_and_start_time),
		cmocka_unit_test(test_due_lookups_and_removal),
		cmocka_unit_test(test_due_next),
		cmocka_unit_test(test_due_keep_pids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
