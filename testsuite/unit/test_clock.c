/* test_clock.c: agent/clock.c, raw event timestamps and their conversion. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"

/* How far a converted reading may be from clock_gettime taken around it:
 * the fit's error over a few ms, far below what a trailer's user sees. */
#define TOLERANCE_NS 20000

static bool kernel_on_tsc(void)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (!f)
		return false;
	bool tsc = fgets(buf, sizeof buf, f) && strcmp(buf, "tsc\n") == 0;
	fclose(f);
#if !defined(__x86_64__)
	tsc = false;
#endif
	return tsc;
}

static void check_converts(void)
{
	uint64_t prev = 0;

	for (int i = 0; i < 1000; i++) {
		uint64_t a = clock_mono_ns();
		uint64_t ns = clock_to_ns(clock_raw());
		uint64_t b = clock_mono_ns();
		assert_true(ns + TOLERANCE_NS >= a);
		assert_true(ns <= b + TOLERANCE_NS);
		assert_true(ns + TOLERANCE_NS >= prev);
		prev = ns;
	}
}

static void test_monotonic(void **state)
{
	(void)state;
	assert_int_equal(clock_init(false), 0);
	assert_string_equal(clock_source(), "monotonic");
	uint64_t a = clock_mono_ns(), raw = clock_raw(), b = clock_mono_ns();
	assert_true(a <= raw && raw <= b);
	assert_int_equal(clock_to_ns(12345), 12345);
	check_converts();
}

/* On the TSC where the kernel's clock runs on it; elsewhere the choice is
 * refused and the monotonic clock used. */
static void test_tsc(void **state)
{
	(void)state;
	if (!kernel_on_tsc()) {
		assert_int_equal(clock_init(true), -ENOTSUP);
		assert_string_equal(clock_source(), "monotonic");
		check_converts();
		return;
	}
	assert_int_equal(clock_init(true), 0);
	assert_string_equal(clock_source(), "tsc");
	check_converts();
	/* refitted later, the line still agrees, before and after the refit */
	uint64_t old_raw = clock_raw();
	uint64_t old_ns = clock_mono_ns();
	struct timespec pause = { 0, 20000000 };
	nanosleep(&pause, NULL);
	clock_calibrate();
	check_converts();
	int64_t d = (int64_t)(clock_to_ns(old_raw) - old_ns);
	assert_true(d > -TOLERANCE_NS && d < TOLERANCE_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotonic),
		cmocka_unit_test(test_tsc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
