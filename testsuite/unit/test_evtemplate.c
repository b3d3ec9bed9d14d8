/* test_evtemplate.c: agent/evtemplate.c, a connection's encoded plain method
 * events: a copy is found only under the very key it was kept with, with
 * where its thread and trailer are. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "evtemplate.h"

static struct evtemplates t;

static const struct evtemplate_key key = { .site = 7, .code = 0x80, .slot = 2, .serial = 41, .caps = 0x7ff };
/* MethodEnter of "a.b" (thread at 8, trailer at 17) and MethodExit of "x"
 * (thread at 6, trailer at 16), as wire_encode_event() lays them out */
#define TRAILER 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0x39, 0x30, 0, 0, 0
static const uint8_t msg[] = { 0x80, 3, 0, 0, 0, 'a', '.', 'b', 0x39, 0x30, 0, 0, 0, 0, 0, 0, 0, TRAILER };
static const uint8_t msg2[] = { 0x81, 1, 0, 0, 0, 'x', 0x39, 0x30, 0, 0, 0, 0, 0, 0, 0, '?', TRAILER };

static int setup(void **state)
{
	(void)state;
	memset(&t, 0xA5, sizeof(t));  /* clear must not rely on zeroed memory */
	evtemplates_clear(&t);
	return 0;
}

static void kept_is_found_with_its_bytes(void **state)
{
	(void)state;
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, 17), 0);
	const struct evtemplate *e = evtemplate_find(&t, &key);
	assert_non_null(e);
	assert_int_equal(e->len, sizeof(msg));
	assert_int_equal(e->thread_at, 8);
	assert_int_equal(e->trailer_at, 17);
	assert_memory_equal(e->bytes, msg, sizeof(msg));
}

static void empty_table_finds_nothing(void **state)
{
	(void)state;
	assert_null(evtemplate_find(&t, &key));
	struct evtemplate_key k = key;
	k.site = -1;
	assert_null(evtemplate_find(&t, &k));
}

/* Every part of the key tells two events apart: another method, enter
 * against return, another connection slot, the slot reopened (serial),
 * other negotiated caps (another trailer layout). */
static void each_part_of_the_key_counts(void **state)
{
	(void)state;
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, 17), 0);
	struct evtemplate_key k;
	k = key; k.site = 7 + EVTEMPLATE_INDEX;  /* another site */
	assert_null(evtemplate_find(&t, &k));
	k = key; k.code = 0x81;
	assert_null(evtemplate_find(&t, &k));
	k = key; k.slot = 3;
	assert_null(evtemplate_find(&t, &k));
	k = key; k.serial = 42;
	assert_null(evtemplate_find(&t, &k));
	k = key; k.caps = 0x3ff;
	assert_null(evtemplate_find(&t, &k));
	assert_non_null(evtemplate_find(&t, &key));
}

/* The pool holds EVTEMPLATE_SLOTS keys, all found; one more empties it
 * and starts again (evtemplate.h says why that is enough). */
static void full_pool_starts_again(void **state)
{
	(void)state;
	struct evtemplate_key k = key;

	for (unsigned i = 0; i < EVTEMPLATE_SLOTS; i++) {
		k.site = (int32_t)(i / 2);
		k.code = (uint8_t)(0x80 + i % 2);
		assert_int_equal(evtemplate_keep(&t, &k, msg, sizeof(msg), 8, 17), 0);
	}
	for (unsigned i = 0; i < EVTEMPLATE_SLOTS; i++) {
		k.site = (int32_t)(i / 2);
		k.code = (uint8_t)(0x80 + i % 2);
		assert_non_null(evtemplate_find(&t, &k));
	}
	struct evtemplate_key other = key;
	other.site = EVTEMPLATE_SLOTS;
	assert_int_equal(evtemplate_keep(&t, &other, msg2, sizeof(msg2), 6, 16), 0);
	const struct evtemplate *e = evtemplate_find(&t, &other);
	assert_non_null(e);
	assert_int_equal(e->len, sizeof(msg2));
	assert_memory_equal(e->bytes, msg2, sizeof(msg2));
	assert_int_equal(t.used, 1);
	k.site = 0;
	k.code = 0x80;
	assert_null(evtemplate_find(&t, &k));
}

/* A key kept again under a new serial (the slot reopened) takes its old
 * entry's place: the old key is no longer found, the pool did not grow. */
static void new_serial_takes_the_old_place(void **state)
{
	(void)state;
	struct evtemplate_key again = key;

	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, 17), 0);
	again.serial = key.serial + 1;
	assert_int_equal(evtemplate_keep(&t, &again, msg2, sizeof(msg2), 6, 16), 0);
	const struct evtemplate *e = evtemplate_find(&t, &again);
	assert_non_null(e);
	assert_memory_equal(e->bytes, msg2, sizeof(msg2));
	assert_null(evtemplate_find(&t, &key));
	assert_int_equal(t.used, 1);
}

/* The connection asked for return values since its exit template was made:
 * the exit without the void value is not found; kept again, it takes the
 * old entry's place. */
static void void_value_is_part_of_the_key(void **state)
{
	(void)state;
	struct evtemplate_key ret = key, with_void;

	ret.code = 0x81;
	with_void = ret;
	with_void.void_value = true;
	assert_int_equal(evtemplate_keep(&t, &ret, msg, sizeof(msg), 8, 17), 0);
	assert_null(evtemplate_find(&t, &with_void));
	assert_int_equal(evtemplate_keep(&t, &with_void, msg2, sizeof(msg2), 6, 16), 0);
	const struct evtemplate *e = evtemplate_find(&t, &with_void);
	assert_non_null(e);
	assert_memory_equal(e->bytes, msg2, sizeof(msg2));
	assert_null(evtemplate_find(&t, &ret));
	assert_int_equal(t.used, 1);
}

/* A wildcard's hundred methods a request, numbered as a package's sites
 * are (spread, not consecutive), enter and return each: all kept at once.
 * The direct-mapped table of 256 entries this replaced kept 142 of these
 * 220 (the rest evicted each other at every request). */
static void a_wildcards_sites_all_kept(void **state)
{
	(void)state;
	uint32_t x = 12345;
	int32_t sites[110];
	struct evtemplate_key k = key;

	for (unsigned i = 0; i < 110; i++) {
		x = x * 1103515245u + 12345u;
		sites[i] = (int32_t)((x >> 16) % 1500u);
		for (unsigned j = 0; j < i; j++)
			if (sites[j] == sites[i]) { i--; break; }
	}
	for (unsigned i = 0; i < 110; i++)
		for (uint8_t code = 0x80; code <= 0x81; code++) {
			k.site = sites[i];
			k.code = code;
			assert_int_equal(evtemplate_keep(&t, &k, msg, sizeof(msg), 8, 17), 0);
		}
	unsigned found = 0;
	for (unsigned i = 0; i < 110; i++)
		for (uint8_t code = 0x80; code <= 0x81; code++) {
			k.site = sites[i];
			k.code = code;
			found += evtemplate_find(&t, &k) != NULL;
		}
	assert_int_equal(found, 220);
}

/* An injected method's enter and its return carry one site: both are kept
 * at once (one entry for both made every return of a method probed for
 * enter and return take the general path, and cost 4.2x instead of 2x). */
static void enter_and_return_of_one_site(void **state)
{
	(void)state;
	struct evtemplate_key ret = key;
	ret.code = 0x81;

	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, 17), 0);
	assert_int_equal(evtemplate_keep(&t, &ret, msg2, sizeof(msg2), 6, 16), 0);
	const struct evtemplate *e = evtemplate_find(&t, &key), *r = evtemplate_find(&t, &ret);
	assert_non_null(e);
	assert_non_null(r);
	assert_memory_equal(e->bytes, msg, sizeof(msg));
	assert_memory_equal(r->bytes, msg2, sizeof(msg2));
}

static void refused(void **state)
{
	(void)state;
	uint8_t big[EVTEMPLATE_BYTES + 1] = { 0 };
	struct evtemplate_key k = key;

	assert_int_equal(evtemplate_keep(&t, &key, big, sizeof(big), 8, 17), -EMSGSIZE);
	assert_int_equal(evtemplate_keep(&t, &key, big, EVTEMPLATE_BYTES, 8, 17), 0);
	/* a trailer past the end, or too short for its seq, time and thread */
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, sizeof(msg)), -EINVAL);
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 8, sizeof(msg) - 19), -EINVAL);
	/* no thread, a thread inside the trailer or past the end */
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 0, 17), -EINVAL);
	assert_int_equal(evtemplate_keep(&t, &key, msg, sizeof(msg), 10, 17), -EINVAL);
	assert_int_equal(evtemplate_keep(&t, &key, msg, 16, 9, 0), -EINVAL);
	k.site = -1;
	assert_int_equal(evtemplate_keep(&t, &k, msg, sizeof(msg), 8, 17), -EINVAL);
	/* what was refused left the entry as it was */
	const struct evtemplate *e = evtemplate_find(&t, &key);
	assert_non_null(e);
	assert_int_equal(e->len, EVTEMPLATE_BYTES);
}

/* A peer without CAP_TRAILER: the message ends with its body (the thread
 * its last field but the count), kept with no trailer. */
static void kept_without_trailer(void **state)
{
	(void)state;
	struct evtemplate_key k = key;
	k.caps = 0;

	assert_int_equal(evtemplate_keep(&t, &k, msg, 17, 8, 0), 0);
	const struct evtemplate *e = evtemplate_find(&t, &k);
	assert_non_null(e);
	assert_int_equal(e->len, 17);
	assert_int_equal(e->thread_at, 8);
	assert_int_equal(e->trailer_at, 0);
	assert_memory_equal(e->bytes, msg, 17);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(kept_is_found_with_its_bytes, setup),
		cmocka_unit_test_setup(empty_table_finds_nothing, setup),
		cmocka_unit_test_setup(each_part_of_the_key_counts, setup),
		cmocka_unit_test_setup(full_pool_starts_again, setup),
		cmocka_unit_test_setup(new_serial_takes_the_old_place, setup),
		cmocka_unit_test_setup(void_value_is_part_of_the_key, setup),
		cmocka_unit_test_setup(a_wildcards_sites_all_kept, setup),
		cmocka_unit_test_setup(enter_and_return_of_one_site, setup),
		cmocka_unit_test_setup(refused, setup),
		cmocka_unit_test_setup(kept_without_trailer, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
