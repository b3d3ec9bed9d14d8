/* Unit tests of agent/records.c: which methods of which loaded class carry
 * injected calls, per (class, loader); a record replaced whole or dropped;
 * more classes than buckets; names that grow the buffer; four threads
 * setting and reading at once (ASan/TSan where they run). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "records.h"

static int reset(void **state)
{
	(void)state;
	records_clear();
	return 0;
}

static void add(struct record_names *rn, const char *name, uint8_t flags)
{
	record_names_add(rn, name, strlen(name), flags);
}

static void test_set_and_read(void **state)
{
	(void)state;
	struct record_names rn = { 0 };

	assert_int_equal(records_flags("LA;", 7, "m(I)V"), -1);
	add(&rn, "m(I)V", REC_ENTER);
	add(&rn, "n()V", REC_ENTER | REC_EXIT);
	add(&rn, "big()V", REC_REFUSED);
	add(&rn, "finalize()V", REC_SKIPPED);
	add(&rn, "plain()V", 0);
	assert_int_equal(rn.n, 5);
	records_set("LA;", 7, &rn);
	/* taken over */
	assert_null(rn.buf);
	assert_int_equal(rn.n, 0);
	assert_int_equal(records_count(), 1);
	assert_int_equal(records_flags("LA;", 7, "m(I)V"), REC_ENTER);
	assert_int_equal(records_flags("LA;", 7, "n()V"), REC_ENTER | REC_EXIT);
	assert_int_equal(records_flags("LA;", 7, "big()V"), REC_REFUSED);
	assert_int_equal(records_flags("LA;", 7, "finalize()V"), REC_SKIPPED);
	assert_int_equal(records_flags("LA;", 7, "plain()V"), 0);
	/* known class, a method it does not name; a prefix is another name */
	assert_int_equal(records_flags("LA;", 7, "other()V"), 0);
	assert_int_equal(records_flags("LA;", 7, "m"), 0);
	/* the same class of another loader, another class of that loader */
	assert_int_equal(records_flags("LA;", 8, "m(I)V"), -1);
	assert_int_equal(records_flags("LAB;", 7, "m(I)V"), -1);
}

static void test_replace_and_drop(void **state)
{
	(void)state;
	struct record_names rn = { 0 };

	add(&rn, "m(I)V", REC_ENTER);
	add(&rn, "n()V", REC_EXIT);
	records_set("LA;", 7, &rn);
	add(&rn, "n()V", REC_ENTER);
	records_set("LA;", 7, &rn);
	assert_int_equal(records_count(), 1);
	assert_int_equal(records_flags("LA;", 7, "m(I)V"), 0);
	assert_int_equal(records_flags("LA;", 7, "n()V"), REC_ENTER);
	/* no names: the record goes */
	records_set("LA;", 7, &rn);
	assert_int_equal(records_count(), 0);
	assert_int_equal(records_flags("LA;", 7, "n()V"), -1);
	/* dropping what is not there changes nothing */
	records_set("LZ;", 1, &rn);
	assert_int_equal(records_count(), 0);
	record_names_free(&rn);
}

/* More classes than buckets (chains), each found; clear empties all. */
static void test_many_classes(void **state)
{
	(void)state;
	char sig[32], name[32];

	for (int i = 0; i < 3000; i++) {
		struct record_names rn = { 0 };
		snprintf(sig, sizeof sig, "LC%d;", i);
		snprintf(name, sizeof name, "m%d()V", i);
		add(&rn, name, (uint8_t)(1 + i % 2));
		records_set(sig, (uint32_t)(i % 3), &rn);
	}
	assert_int_equal(records_count(), 3000);
	for (int i = 0; i < 3000; i++) {
		snprintf(sig, sizeof sig, "LC%d;", i);
		snprintf(name, sizeof name, "m%d()V", i);
		assert_int_equal(records_flags(sig, (uint32_t)(i % 3), name), 1 + i % 2);
		assert_int_equal(records_flags(sig, (uint32_t)(i % 3 + 1), name), -1);
	}
	records_clear();
	assert_int_equal(records_count(), 0);
	assert_int_equal(records_flags("LC5;", 2, "m5()V"), -1);
}

/* Names past the first buffer (1024 bytes) and its doublings. */
static void test_long_names(void **state)
{
	(void)state;
	struct record_names rn = { 0 };
	char name[600];

	for (int i = 0; i < 40; i++) {
		memset(name, 'a' + i % 26, sizeof name - 12);
		snprintf(name + sizeof name - 12, 12, "%d()V", i);
		add(&rn, name, (uint8_t)(i % 3 ? REC_ENTER : REC_EXIT));
	}
	assert_false(rn.nomem);
	assert_int_equal(rn.n, 40);
	records_set("LLong;", 0, &rn);
	for (int i = 0; i < 40; i++) {
		memset(name, 'a' + i % 26, sizeof name - 12);
		snprintf(name + sizeof name - 12, 12, "%d()V", i);
		assert_int_equal(records_flags("LLong;", 0, name), i % 3 ? REC_ENTER : REC_EXIT);
	}
}

static void *churn(void *arg)
{
	int t = (int)(intptr_t)arg;
	char sig[32];

	for (int i = 0; i < 2000; i++) {
		struct record_names rn = { 0 };
		snprintf(sig, sizeof sig, "LT%d_%d;", t, i % 50);
		add(&rn, "m()V", (uint8_t)(1 + (i & 1)));
		records_set(sig, (uint32_t)t, &rn);
		int f = records_flags(sig, (uint32_t)t, "m()V");
		if (f != 1 + (i & 1))
			return (void *)1;
		(void)records_count();
	}
	return NULL;
}

/* Four threads: each sees its own writes, the count is the classes'. */
static void test_threads(void **state)
{
	(void)state;
	pthread_t th[4];

	for (int t = 0; t < 4; t++)
		assert_int_equal(pthread_create(&th[t], NULL, churn, (void *)(intptr_t)t), 0);
	for (int t = 0; t < 4; t++) {
		void *r = (void *)1;
		assert_int_equal(pthread_join(th[t], &r), 0);
		assert_null(r);
	}
	assert_int_equal(records_count(), 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_set_and_read, reset),
		cmocka_unit_test_setup(test_replace_and_drop, reset),
		cmocka_unit_test_setup(test_many_classes, reset),
		cmocka_unit_test_setup(test_long_names, reset),
		cmocka_unit_test_setup(test_threads, reset),
	};
	return cmocka_run_group_tests_name("records", tests, NULL, reset);
}
