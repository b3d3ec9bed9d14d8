/* test_ring.c: agent/ring.c, the single-producer single-consumer record ring. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ring.h"

static _Alignas(64) struct ring r;
static uint8_t mem[256];

/* Write one record of LEN bytes, each byte = TAG. Returns false when it does not fit. */
static bool put(struct ring *q, size_t len, uint8_t tag)
{
	size_t cap;
	bool at_end;
	uint8_t *p = ring_room(q, len, &cap, &at_end);

	if (cap < len) {
		if (!at_end || !ring_pad(q))
			return false;
		p = ring_room(q, len, &cap, &at_end);
		if (cap < len)
			return false;
	}
	memset(p, tag, len);
	ring_commit(q, len);
	return true;
}

/* Read one record: its length, and check every byte is TAG. None left:
 * 0, and the reader gives back what it read, as it does when it stops. */
static size_t get(struct ring *q, uint8_t tag)
{
	size_t len = 0;
	const uint8_t *p = ring_peek(q, ring_tail(q), &len);

	if (!p) {
		ring_publish(q);
		return 0;
	}
	for (size_t i = 0; i < len; i++)
		assert_int_equal(p[i], tag);
	ring_release(q);
	return len;
}

static void test_init_refuses(void **state)
{
	(void)state;
	assert_int_equal(ring_init(&r, mem, 0), -EINVAL);
	assert_int_equal(ring_init(&r, mem, 32), -EINVAL);
	assert_int_equal(ring_init(&r, mem, 96), -EINVAL);
	assert_int_equal(ring_init(&r, NULL, 256), -EINVAL);
	assert_int_equal(ring_init(&r, mem, 256), 0);
}

static void test_records_in_order(void **state)
{
	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	assert_null(ring_peek(&r, ring_tail(&r), &(size_t){ 0 }));
	assert_true(put(&r, 1, 0xa1));
	assert_true(put(&r, 0, 0));
	assert_true(put(&r, 13, 0xa3));
	assert_int_equal(ring_used(&r), 16 + 8 + 24);   /* headers of 8, bodies rounded to 8 */
	assert_int_equal(get(&r, 0xa1), 1);
	assert_int_equal(get(&r, 0), 0);
	assert_int_equal(get(&r, 0xa3), 13);
	assert_int_equal(ring_used(&r), 0);
	assert_int_equal(get(&r, 0), 0);
}

/* 256 bytes: three records of 64 (+8) leave 40 at the end; a record of 48
 * goes to the start after a pad, and the reader skips the pad. */
static void test_wraps_with_a_pad(void **state)
{
	size_t cap;
	bool at_end;

	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	for (int i = 0; i < 3; i++)
		assert_true(put(&r, 64, (uint8_t)(0xb0 + i)));
	assert_int_equal(get(&r, 0xb0), 64);
	assert_int_equal(get(&r, 0xb1), 64);
	ring_room(&r, 48, &cap, &at_end);
	assert_true(at_end);
	assert_int_equal(cap, 256 - 3 * 72 - 8);
	assert_true(put(&r, 48, 0xc0));
	assert_int_equal(r.tail, 3 * 72 + 40 + 56);   /* the pad, then the record at the start */
	assert_int_equal(get(&r, 0xb2), 64);
	assert_int_equal(get(&r, 0xc0), 48);
	assert_int_equal(ring_used(&r), 0);
	assert_int_equal(r.head, r.tail);
}

/* Full: nothing is overwritten, and room comes back as the reader goes on. */
static void test_full_then_room(void **state)
{
	size_t cap;
	bool at_end;
	int n = 0;

	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	while (put(&r, 24, (uint8_t)n))
		n++;
	assert_int_equal(n, 256 / 32);
	ring_room(&r, 1, &cap, &at_end);
	assert_int_equal(cap, 0);
	assert_false(ring_pad(&r));   /* the reader has not read the end */
	assert_int_equal(get(&r, 0), 24);
	assert_true(put(&r, 24, 0x77));
	assert_false(put(&r, 24, 0x78));
	for (int i = 1; i < n; i++)
		assert_int_equal(get(&r, (uint8_t)i), 24);
	assert_int_equal(get(&r, 0x77), 24);
	assert_int_equal(ring_used(&r), 0);
}

/* The producer reads the consumer's position only when the room it last
 * saw is too small: most records touch no line the consumer writes. */
static void test_room_reads_head_only_when_short(void **state)
{
	size_t cap;
	bool at_end;

	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	for (int i = 0; i < 7; i++)
		assert_true(put(&r, 24, 1));
	for (int i = 0; i < 7; i++)
		assert_int_equal(get(&r, 1), 24);
	ring_room(&r, 8, &cap, &at_end);
	assert_int_equal(cap, 24);            /* 32 to the end, as last seen */
	assert_true(at_end);
	assert_int_equal(r.head_seen, 0);     /* not read: the room seen was enough */
	assert_true(ring_pad(&r));
	ring_room(&r, 8, &cap, &at_end);
	assert_int_equal(r.head_seen, 224);   /* read again: none seen at the start */
	assert_int_equal(cap, 224 - 8);
	assert_false(at_end);
	assert_int_equal(get(&r, 0), 0);      /* only the pad: nothing to read */
	assert_int_equal(r.head, 256);
}

/* The reader's position reaches the writer a batch at a time (an eighth
 * of this ring: 32 bytes) and when it stops: not at every record, whose
 * store would take the line from the writer's core each time. */
static void test_release_gives_back_a_batch_at_a_time(void **state)
{
	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	for (int i = 0; i < 5; i++)
		assert_true(put(&r, 8, (uint8_t)(0xd0 + i)));   /* 16 bytes each */
	assert_int_equal(get(&r, 0xd0), 8);
	assert_int_equal(r.head, 0);           /* 16 read: under a batch */
	assert_int_equal(ring_used(&r), 80);   /* read and not given back still counts */
	assert_int_equal(get(&r, 0xd1), 8);
	assert_int_equal(r.head, 32);          /* a batch */
	assert_int_equal(get(&r, 0xd2), 8);
	assert_int_equal(r.head, 32);
	ring_publish(&r);                      /* the reader stops: all of it */
	assert_int_equal(r.head, 48);
	assert_int_equal(ring_used(&r), 32);
	assert_false(ring_filling(&r));        /* the writer sees what was given back: */
	assert_int_equal(r.head_seen, 48);     /* 32 in use by its count, not 80 */
	assert_int_equal(get(&r, 0xd3), 8);
	assert_int_equal(get(&r, 0xd4), 8);
	assert_int_equal(r.head, 80);          /* 32 since the last: a batch */
	assert_int_equal(get(&r, 0), 0);
	assert_int_equal(ring_used(&r), 0);
}

static void test_filling(void **state)
{
	(void)state;
	assert_int_equal(ring_init(&r, mem, sizeof mem), 0);
	assert_true(put(&r, 56, 1));
	assert_false(ring_filling(&r));       /* 64 of 256: a quarter */
	assert_true(put(&r, 0, 2));
	assert_true(ring_filling(&r));
	assert_int_equal(get(&r, 1), 56);
	assert_false(ring_filling(&r));       /* reads head again: 8 in use */
}

/* One producer, one consumer, concurrently: every record arrives once, whole,
 * in order, across many wrap-arounds (the ASan and TSan builds check the
 * memory accesses). */
#define N_RECORDS 200000
static uint8_t big[4096];

static void *producer(void *arg)
{
	struct ring *q = arg;

	for (uint32_t i = 0; i < N_RECORDS;) {
		size_t len = 4 + (i * 7) % 100, cap;
		bool at_end;
		uint8_t *p = ring_room(q, len, &cap, &at_end);
		if (cap < len) {
			if (at_end)
				ring_pad(q);
			continue;   /* spin: the consumer makes room */
		}
		memcpy(p, &i, 4);
		memset(p + 4, (uint8_t)i, len - 4);
		ring_commit(q, len);
		i++;
	}
	return NULL;
}

static void test_concurrent(void **state)
{
	pthread_t t;
	uint32_t next = 0;

	(void)state;
	assert_int_equal(ring_init(&r, big, sizeof big), 0);
	assert_int_equal(pthread_create(&t, NULL, producer, &r), 0);
	while (next < N_RECORDS) {
		size_t len;
		const uint8_t *p = ring_peek(&r, ring_tail(&r), &len);
		if (!p) {
			ring_publish(&r);   /* as a drainer does when it stops */
			continue;
		}
		uint32_t i;
		memcpy(&i, p, 4);
		assert_int_equal(i, next);
		assert_int_equal(len, 4 + (i * 7) % 100);
		for (size_t k = 4; k < len; k++)
			assert_int_equal(p[k], (uint8_t)i);
		ring_release(&r);
		next++;
	}
	pthread_join(t, NULL);
	ring_publish(&r);
	assert_int_equal(ring_used(&r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_refuses),
		cmocka_unit_test(test_records_in_order),
		cmocka_unit_test(test_wraps_with_a_pad),
		cmocka_unit_test(test_full_then_room),
		cmocka_unit_test(test_room_reads_head_only_when_short),
		cmocka_unit_test(test_release_gives_back_a_batch_at_a_time),
		cmocka_unit_test(test_filling),
		cmocka_unit_test(test_concurrent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
