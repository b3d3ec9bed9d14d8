/* test_jvmsock.c: the agent socket's name (runtime/jvmsock.c), as the agent
 * binds it and the bridge looks for it, and the start time read from
 * /proc/PID/stat texts, with command names any process could choose. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvmsock.h"

/* A stat line as the kernel prints it for COMM, with START in field 22. */
static int stat_line(char *buf, size_t cap, const char *comm, uint64_t start)
{
	return snprintf(buf, cap,
			"4242 (%s) S 1 4242 4242 0 -1 4194560 1369 0 0 0 3 1 0 0 20 0 1 0 %" PRIu64
			" 7467008 896 18446744073709551615 1 1 0 0 0 0 0 4096 1260 0 0 0 17 1 0 0 0 0 0\n",
			comm, start);
}

static void test_name(void **state)
{
	char name[JVMSOCK_NAME_MAX];

	(void)state;
	assert_int_equal(jvmsock_name(name, sizeof name, 4026531836u, 1234, 987654), 0);
	assert_string_equal(name, "jvm-4026531836-1234-987654.sock");
	assert_int_equal(jvmsock_name(name, sizeof name, UINT64_MAX, INT32_MAX, UINT64_MAX), 0);
	assert_string_equal(name, "jvm-18446744073709551615-2147483647-18446744073709551615.sock");
	/* exactly the name's length is one byte short: the NUL */
	assert_int_equal(jvmsock_name(name, strlen("jvm-1-2-3.sock"), 1, 2, 3), -ENAMETOOLONG);
	assert_int_equal(jvmsock_name(name, strlen("jvm-1-2-3.sock") + 1, 1, 2, 3), 0);
	assert_string_equal(name, "jvm-1-2-3.sock");
}

static void test_starttime_of_forged_comms(void **state)
{
	static const char *comms[] = { "java", "a b", ")", ") 1 2 3 4 5 6 7 8 9", "x) S 1 2 (y", "((((", "" };
	char buf[512];
	uint64_t start;

	(void)state;
	for (size_t i = 0; i < sizeof comms / sizeof comms[0]; i++) {
		int n = stat_line(buf, sizeof buf, comms[i], 55667788);

		start = 0;
		assert_int_equal(jvmsock_stat_starttime(buf, (size_t)n, &start), 0);
		assert_int_equal(start, 55667788);
	}
	int n = stat_line(buf, sizeof buf, "java", UINT64_MAX);
	assert_int_equal(jvmsock_stat_starttime(buf, (size_t)n, &start), 0);
	assert_true(start == UINT64_MAX);
}

static void test_starttime_refused(void **state)
{
	char buf[512];
	uint64_t start = 77;

	(void)state;
	assert_int_equal(jvmsock_stat_starttime("", 0, &start), -EINVAL);
	assert_int_equal(jvmsock_stat_starttime("4242 java S 1", 13, &start), -EINVAL);
	/* cut inside field 21, and right after its space */
	const char *cut = "4242 (java) S 1 4242 4242 0 -1 4194560 1369 0 0 0 3 1 0 0 20 0 1 0 ";
	assert_int_equal(jvmsock_stat_starttime(cut, strlen(cut) - 2, &start), -EINVAL);
	assert_int_equal(jvmsock_stat_starttime(cut, strlen(cut), &start), -EINVAL);
	/* one more than UINT64_MAX */
	int n = snprintf(buf, sizeof buf, "%s18446744073709551616 7467008\n", cut);
	assert_int_equal(jvmsock_stat_starttime(buf, (size_t)n, &start), -EINVAL);
	/* not a number */
	n = snprintf(buf, sizeof buf, "%s-5 7467008\n", cut);
	assert_int_equal(jvmsock_stat_starttime(buf, (size_t)n, &start), -EINVAL);
	assert_int_equal(start, 77);
	/* the length is the end: the digits after it are not read */
	n = snprintf(buf, sizeof buf, "%s123456", cut);
	assert_int_equal(jvmsock_stat_starttime(buf, (size_t)n - 3, &start), 0);
	assert_int_equal(start, 123);
}

/* The calling process's name, from what /proc says of it, with a command
 * name that holds ") " as any process may choose. */
static void test_self_name(void **state)
{
	char name[JVMSOCK_NAME_MAX], want[JVMSOCK_NAME_MAX], buf[1024];
	unsigned long long start;
	struct stat st;

	(void)state;
	assert_int_equal(prctl(PR_SET_NAME, "t) 1 2 3 4"), 0);
	FILE *f = fopen("/proc/self/stat", "re");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof buf, f));
	fclose(f);
	/* counted by hand: field 22 is the 20th after the last ')' */
	char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	assert_non_null(p);
	assert_int_equal(sscanf(p, " %llu", &start), 1);
	assert_int_equal(stat("/proc/self/ns/pid", &st), 0);
	snprintf(want, sizeof want, "jvm-%llu-%d-%llu.sock", (unsigned long long)st.st_ino, (int)getpid(), start);
	assert_int_equal(jvmsock_self_name(name, sizeof name), 0);
	assert_string_equal(name, want);
	assert_int_equal(jvmsock_self_name(name, 10), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_starttime_of_forged_comms),
		cmocka_unit_test(test_starttime_refused),
		cmocka_unit_test(test_self_name),
	};
	return cmocka_run_group_tests_name("jvmsock", tests, NULL, NULL);
}
