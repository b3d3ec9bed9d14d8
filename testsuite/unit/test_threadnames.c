/* Unit tests for stpd-bridge/threadnames.c: a hashed table of thread names
 * whose bounds a peer cannot pass (issue 16 §5: 20,000 names of 60 KB made a
 * worker 1.18 GB), against a plain array over random sets and forgets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "log.h"
#include "threadnames.h"

static char logged[8192];

/* The log, to a pipe read back here. */
static int log_pipe[2];

static void log_to_pipe(void)
{
	assert_int_equal(pipe(log_pipe), 0);
	sj_log_open("stpd-bridge", log_pipe[1], SJ_LOG_INFO);
}

static const char *log_read(void)
{
	ssize_t n;

	close(log_pipe[1]);
	n = read(log_pipe[0], logged, sizeof logged - 1);
	logged[n > 0 ? n : 0] = '\0';
	close(log_pipe[0]);
	sj_log_open("stpd-bridge", -1, SJ_LOG_WARN);
	return logged;
}

static void test_same_as_a_plain_array(void **state)
{
	enum { TIDS = 500 };
	static char ref[TIDS][40];
	static bool have[TIDS];
	struct threadnames t;
	uint32_t rng = 7;

	(void)state;
	threadnames_init(&t);
	memset(have, 0, sizeof have);
	for (int k = 0; k < 200000; k++) {
		rng = rng * 1103515245u + 12345u;
		unsigned tid = (rng >> 8) % TIDS, op = (rng >> 20) % 3;
		uint64_t key = (uint64_t)tid * 4096 + 17;   /* collide in the low bits */

		if (op < 2) {
			snprintf(ref[tid], sizeof ref[tid], "t-%u-%d", tid, k);
			threadnames_set(&t, key, ref[tid], strlen(ref[tid]), 0);
			have[tid] = true;
		} else {
			threadnames_forget(&t, key);
			have[tid] = false;
		}
		if (k % 997 == 0)
			for (unsigned i = 0; i < TIDS; i++) {
				const struct threadname *n = threadnames_get(&t, (uint64_t)i * 4096 + 17);
				assert_int_equal(n != NULL, have[i]);
				if (n) {
					assert_int_equal(n->len, strlen(ref[i]));
					assert_memory_equal(n->name, ref[i], n->len);
				}
			}
	}
	threadnames_free(&t);
}

/* A name past THREADNAMES_NAME_MAX is cut where a character begins, marked,
 * and said once; the table stays within THREADNAMES_MAX_BYTES whatever comes. */
static void test_bounds(void **state)
{
	static char big[60000];
	struct threadnames t;
	const struct threadname *n;
	size_t held = 0;

	(void)state;
	memset(big, 'x', sizeof big);
	/* a 3-byte character across the cut: not split */
	memcpy(big + THREADNAMES_NAME_MAX - 4, "\xe2\x82\xac", 3);
	log_to_pipe();
	threadnames_init(&t);
	threadnames_owner(&t, 4242);
	for (uint64_t tid = 1; tid <= 20000; tid++)
		threadnames_set(&t, tid, big, sizeof big, 0);
	n = threadnames_get(&t, 1);
	assert_non_null(n);
	assert_int_equal(n->len, THREADNAMES_NAME_MAX - 4 + 3);
	assert_memory_equal(n->name + n->len - 3, THREADNAMES_CUT_MARK, 3);
	assert_int_equal((unsigned char)n->name[n->len - 4], 'x');
	for (uint64_t tid = 1; tid <= 20000; tid++)
		if ((n = threadnames_get(&t, tid)))
			held += n->len;
	assert_true(t.bytes <= THREADNAMES_MAX_BYTES);
	assert_true(held > THREADNAMES_MAX_BYTES / 2);
	/* names of threads that ended make room again */
	for (uint64_t tid = 1; tid <= 20000; tid++)
		threadnames_forget(&t, tid);
	threadnames_set(&t, 99999, "main", 4, 0);
	assert_non_null(threadnames_get(&t, 99999));
	assert_int_equal(threadnames_get(&t, 99999)->java_tid, 0);
	/* a name set again (a ThreadName with the Java id) keeps the new id */
	threadnames_set(&t, 99999, "main", 4, 1);
	assert_int_equal(threadnames_get(&t, 99999)->java_tid, 1);
	threadnames_free(&t);
	char want[1024];
	snprintf(want, sizeof want,
		 "stpd-bridge[%d]: warn: pid 4242: a thread name of 60000 bytes is kept to its first 1020, "
		 "then \"\xe2\x80\xa6\" (the most kept of a name: 1024 bytes; said once)\n"
		 "stpd-bridge[%d]: warn: pid 4242: thread names reached 4194304 bytes, the most kept for one "
		 "JVM: names of further threads are not kept (said once)\n", (int)getpid(), (int)getpid());
	assert_string_equal(log_read(), want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_a_plain_array),
		cmocka_unit_test(test_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
