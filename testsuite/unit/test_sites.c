/* Unit tests of agent/sites.c: site ids handed out in order and never
 * reused, each bound to its method; the per-generation cache of who wants a
 * site's enter and return (the method cache asked once per generation, a
 * match made for an older generation not kept); ids out of range; four
 * threads taking ids at once. The method cache is a stub here: what it
 * answers, and how often it is asked, is the test's. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sites.h"

/* ---- what sites.c links against */

atomic_uint_fast64_t conn_generation;

static struct {
	int asked;
	uint32_t enter, ret;
	uint64_t gen_delta;      /* the match is for the generation minus this */
	int fire_sets;
} cache;

int mcache_match(const struct mentry *e, struct mmatch *m)
{
	memset(m, 0, sizeof *m);
	m->e = e;
	m->conns[MC_ENTER] = cache.enter;
	m->conns[MC_RETURN] = cache.ret;
	m->gen = atomic_load(&conn_generation) - cache.gen_delta;
	cache.asked++;
	return 0;
}

void mcache_fire_sets(const struct mentry *e, struct mmatch *m)
{
	(void)e;
	(void)m;
	cache.fire_sets++;
}

/* ---- the tests (one id space for the process: ids only grow) */

static struct mentry methods[3];

static void test_ids_in_order(void **state)
{
	(void)state;
	int32_t a = sites_new(&methods[0]), b = sites_new(&methods[1]), c = sites_new(&methods[0]);

	assert_true(a >= 0);
	assert_int_equal(b, a + 1);
	assert_int_equal(c, a + 2);
	assert_ptr_equal(sites_method(a), &methods[0]);
	assert_ptr_equal(sites_method(b), &methods[1]);
	assert_ptr_equal(sites_method(c), &methods[0]);
	/* an id not handed out yet, in an allocated chunk or past every chunk */
	assert_null(sites_method(c + 1));
	assert_null(sites_method((jint)SITES_MAX));
	assert_null(sites_method(-1));
	struct mmatch m;
	assert_int_equal(sites_match(c + 1, &m), -ENOENT);
	assert_int_equal(sites_match(-5, &m), -EINVAL);
	assert_int_equal(sites_match((jint)SITES_MAX, &m), -EINVAL);
}

static void test_match_cached_per_generation(void **state)
{
	(void)state;
	int32_t s = sites_new(&methods[2]);
	struct mmatch m;
	const struct mentry *e;
	uint32_t wanting;
	uint64_t gen;

	memset(&cache, 0, sizeof cache);
	cache.enter = 0x5;
	cache.ret = 0x8002;
	atomic_store(&conn_generation, 41);
	/* nothing cached: the cheap half says ask */
	assert_int_equal(sites_conns(s, MC_ENTER, &e, &wanting, &gen), -EAGAIN);
	assert_int_equal(sites_match(s, &m), 0);
	assert_int_equal(cache.asked, 1);
	assert_ptr_equal(m.e, &methods[2]);
	assert_int_equal(m.conns[MC_ENTER], 0x5);
	assert_int_equal(m.conns[MC_RETURN], 0x8002);
	/* cached: not asked again, the same answer, fire sets from the cache */
	assert_int_equal(sites_match(s, &m), 0);
	assert_int_equal(cache.asked, 1);
	assert_int_equal(cache.fire_sets, 1);
	assert_int_equal(m.conns[MC_ENTER], 0x5);
	assert_int_equal(m.conns[MC_RETURN], 0x8002);
	assert_int_equal(m.gen, 41);
	assert_int_equal(sites_conns(s, MC_ENTER, &e, &wanting, &gen), 0);
	assert_ptr_equal(e, &methods[2]);
	assert_int_equal(wanting, 0x5);
	assert_int_equal(gen, 41);
	assert_int_equal(sites_conns(s, MC_RETURN, &e, &wanting, &gen), 0);
	assert_int_equal(wanting, 0x8002);
	/* a new generation: stale, asked again */
	atomic_store(&conn_generation, 42);
	cache.enter = 0;
	assert_int_equal(sites_conns(s, MC_ENTER, &e, &wanting, &gen), -EAGAIN);
	assert_int_equal(sites_match(s, &m), 0);
	assert_int_equal(cache.asked, 2);
	assert_int_equal(m.conns[MC_ENTER], 0);
	assert_int_equal(sites_conns(s, MC_ENTER, &e, &wanting, &gen), 0);
	assert_int_equal(wanting, 0);
	/* a match made while the generation moved on is not kept */
	atomic_store(&conn_generation, 43);
	cache.gen_delta = 1;
	assert_int_equal(sites_match(s, &m), 0);
	assert_int_equal(sites_conns(s, MC_ENTER, &e, &wanting, &gen), -EAGAIN);
	assert_int_equal(sites_match(s, &m), 0);
	assert_int_equal(cache.asked, 4);
}

#define TAKERS 4
#define PER_TAKER 5000

static int32_t taken[TAKERS][PER_TAKER];

static void *take(void *arg)
{
	int t = (int)(intptr_t)arg;

	for (int i = 0; i < PER_TAKER; i++)
		taken[t][i] = sites_new(&methods[t % 3]);
	return NULL;
}

static int cmp_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Ids taken by four threads at once are all different, across new chunks,
 * and each is bound to its taker's method. */
static void test_threads_take_distinct_ids(void **state)
{
	(void)state;
	pthread_t th[TAKERS];
	static int32_t all[TAKERS * PER_TAKER];

	for (int t = 0; t < TAKERS; t++)
		assert_int_equal(pthread_create(&th[t], NULL, take, (void *)(intptr_t)t), 0);
	for (int t = 0; t < TAKERS; t++)
		assert_int_equal(pthread_join(th[t], NULL), 0);
	for (int t = 0; t < TAKERS; t++)
		for (int i = 0; i < PER_TAKER; i++) {
			assert_true(taken[t][i] >= 0);
			assert_ptr_equal(sites_method(taken[t][i]), &methods[t % 3]);
			all[t * PER_TAKER + i] = taken[t][i];
		}
	qsort(all, TAKERS * PER_TAKER, sizeof all[0], cmp_id);
	for (int i = 1; i < TAKERS * PER_TAKER; i++)
		assert_int_equal(all[i], all[i - 1] + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_in_order),
		cmocka_unit_test(test_match_cached_per_generation),
		cmocka_unit_test(test_threads_take_distinct_ids),
	};
	return cmocka_run_group_tests_name("sites", tests, NULL, NULL);
}
