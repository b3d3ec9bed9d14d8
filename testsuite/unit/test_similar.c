/* Unit tests for runtime/similar.c: the bounded edit distance of "did you
 * mean" messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "similar.h"

static unsigned d(const char *a, const char *b, unsigned limit)
{
	return similar_distance(a, strlen(a), b, strlen(b), limit);
}

static void test_distances(void **state)
{
	(void)state;
	assert_int_equal(d("method", "method", 2), 0);
	assert_int_equal(d("methd", "method", 2), 1);          /* a deletion */
	assert_int_equal(d("exeption", "exception", 2), 1);
	assert_int_equal(d("klass", "class", 2), 1);           /* a substitution */
	assert_int_equal(d("mehtod", "method", 2), 2);         /* a swap is two */
	assert_int_equal(d("", "abc", 3), 3);
	assert_int_equal(d("abc", "", 3), 3);
	assert_int_equal(d("A.b(I)J", "A.b(I)I", 4), 1);
	/* more than the limit: limit + 1, whatever the distance */
	assert_int_equal(d("gc", "method", 2), 3);
	assert_int_equal(d("a", "abcdefgh", 2), 3);
	assert_int_equal(d("zzzzzzzz", "aaaaaaaa", 4), 5);
}

static void test_too_long(void **state)
{
	static char big[SIMILAR_MAX_LEN + 2];

	(void)state;
	memset(big, 'x', sizeof big - 1);
	assert_int_equal(similar_distance(big, SIMILAR_MAX_LEN + 1, big, SIMILAR_MAX_LEN + 1, 4), 5);
	assert_int_equal(similar_distance(big, SIMILAR_MAX_LEN, big, SIMILAR_MAX_LEN, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distances),
		cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
