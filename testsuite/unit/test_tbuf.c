/* test_tbuf.c: agent/tbuf.c, each thread's own event buffer and the merge
 * that drains them. Messages here are "ts:<n> thread:<t>" strings; the
 * drain's sink records what it was handed. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tbuf.h"

struct text { const char *s; size_t trailer_at; };

static int encode_text(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at)
{
	const struct text *t = ctx;
	size_t n = strlen(t->s);

	if (n > cap)
		return -ENOSPC;
	memcpy(buf, t->s, n);
	*len = n;
	*trailer_at = t->trailer_at;
	return 0;
}

static int encode_fails(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at)
{
	(void)ctx, (void)buf, (void)cap, (void)len, (void)trailer_at;
	return -EINVAL;
}

/* Put S, counting it as dropped when it does not fit (as emit.c does when
 * taking its own buffer did not help). */
static int put_text(struct tbuf *t, uint64_t ts, uint8_t slot, uint32_t serial, const char *s)
{
	struct tbuf_meta m = { .ts = ts, .serial = serial, .slot = slot };
	struct text x = { s, 0 };
	bool filling;
	int rc = tbuf_put(t, &m, encode_text, &x, &filling);

	if (rc == -ENOSPC)
		tbuf_drop(t, slot, serial);
	return rc;
}

/* MSG (N bytes) as N - 1 times C: a message of 199 bytes fills a 4 KiB
 * buffer in 17 records. */
static void long_text(char *msg, size_t n, char c)
{
	memset(msg, c, n - 1);
	msg[n - 1] = '\0';
}

/* What the sink saw, in order. */
#define SEEN_MAX 4096
static struct { char text[64]; struct tbuf_meta meta; } seen[SEEN_MAX];
static size_t nseen;
static uint64_t lost[TBUF_SLOTS];
static uint32_t lost_serial[TBUF_SLOTS];
static size_t nlost_calls;

static void sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	if (nseen < SEEN_MAX) {
		size_t n = r->len < 63 ? r->len : 63;
		memcpy(seen[nseen].text, r->msg, n);
		seen[nseen].text[n] = '\0';
		seen[nseen].meta = r->meta;
	}
	nseen++;
}

static void on_lost(void *ctx, unsigned slot, uint32_t serial, uint64_t n)
{
	(void)ctx;
	lost[slot] += n;
	lost_serial[slot] = serial;
	nlost_calls++;
}

static void reset_seen(void)
{
	nseen = 0;
	nlost_calls = 0;
	memset(lost, 0, sizeof lost);
	memset(lost_serial, 0, sizeof lost_serial);
}

/* The main thread keeps a small buffer (4 KiB) for the whole program: its
 * loss is exact and easy to reach. Other threads get 1 MiB (set after). */
static void test_loss_counted_per_slot_and_serial(void **state)
{
	(void)state;
	assert_int_equal(tbuf_init(4096), 0);
	struct tbuf *t = tbuf_mine();
	assert_non_null(t);
	assert_ptr_equal(tbuf_mine(), t);
	reset_seen();
	char msg[200];
	long_text(msg, sizeof msg, 'x');
	int ok = 0, dropped = 0;
	for (int i = 0; i < 40; i++) {
		int rc = put_text(t, (uint64_t)i, 3, 7, msg);
		assert_true(rc == 0 || rc == -ENOSPC);
		rc == 0 ? ok++ : dropped++;
	}
	/* 199 bytes + 24 of meta + 8 of header, rounded: 232 a record, 17 in 4096 */
	assert_int_equal(ok, 17);
	assert_int_equal(dropped, 23);
	assert_int_equal(put_text(t, 99, 5, 8, msg), -ENOSPC);
	assert_int_equal(put_text(t, 99, 5, 8, msg), -ENOSPC);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 17);
	assert_int_equal(nseen, 17);
	assert_int_equal(lost[3], 23);
	assert_int_equal(lost_serial[3], 7);
	assert_int_equal(lost[5], 2);
	assert_int_equal(lost_serial[5], 8);
	/* reported once: a second drain reports nothing new */
	reset_seen();
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 0);
	assert_int_equal(nlost_calls, 0);
	/* a slot that another connection (serial) took counts from zero */
	for (int i = 0; i < 18; i++)
		put_text(t, 100 + (uint64_t)i, 3, 7, msg);
	assert_int_equal(put_text(t, 200, 3, 9, msg), -ENOSPC);
	reset_seen();
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 17);
	assert_int_equal(lost[3], 1);
	assert_int_equal(lost_serial[3], 9);
	/* an encoder's own error is not a drop */
	struct tbuf_meta m = { .ts = 1, .serial = 9, .slot = 3 };
	bool filling;
	assert_int_equal(tbuf_put(t, &m, encode_fails, NULL, &filling), -EINVAL);
	m.slot = TBUF_SLOTS;
	assert_int_equal(tbuf_put(t, &m, encode_text, &(struct text){ "a", 0 }, &filling), -EINVAL);
	reset_seen();
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 0);
	assert_int_equal(nlost_calls, 0);
}

/* A thread's drops reach the drainer where they happened in its stream:
 * after the records written before them, before those written after. */
static char order_log[64][24];
static size_t norder;

static void order_sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	snprintf(order_log[norder++ % 64], sizeof order_log[0], "rec %llu", (unsigned long long)r->meta.ts);
}

static void order_lost(void *ctx, unsigned slot, uint32_t serial, uint64_t n)
{
	(void)ctx;
	snprintf(order_log[norder++ % 64], sizeof order_log[0], "lost %u/%u %llu", slot, serial,
		 (unsigned long long)n);
}

/* The sink of the test below writes, while the drain runs, records and
 * then drops: they come after everything the drain took. */
static struct tbuf *writer;
static int written_in_sink;

static void sink_that_writes(void *ctx, struct tbuf_rec *r)
{
	char msg[200];

	order_sink(ctx, r);
	if (written_in_sink)
		return;
	long_text(msg, sizeof msg, 'z');
	while (put_text(writer, 500 + (uint64_t)written_in_sink, 4, 21, msg) == 0)
		written_in_sink++;
}

static void test_lost_told_after_records_written_during_the_drain(void **state)
{
	(void)state;
	char msg[200];
	long_text(msg, sizeof msg, 'w');
	writer = tbuf_mine();
	norder = 0;
	written_in_sink = 0;
	assert_int_equal(put_text(writer, 400, 4, 21, msg), 0);
	assert_int_equal(tbuf_drain(sink_that_writes, order_lost, NULL), 1);
	assert_true(written_in_sink > 0);
	assert_int_equal(norder, 1);                     /* the drop waits for the records before it */
	assert_string_equal(order_log[0], "rec 400");
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), (size_t)written_in_sink);
	assert_int_equal(norder, 2 + (size_t)written_in_sink);
	assert_string_equal(order_log[1], "rec 500");
	assert_string_equal(order_log[norder - 1], "lost 4/21 1");
}

static void test_lost_placed_where_it_happened(void **state)
{
	(void)state;
	struct tbuf *t = tbuf_mine();   /* the main thread's 4 KiB */
	char msg[200];
	long_text(msg, sizeof msg, 'y');

	norder = 0;
	for (uint64_t i = 1; i <= 17; i++)
		assert_int_equal(put_text(t, i, 4, 21, msg), 0);
	assert_int_equal(put_text(t, 18, 4, 21, msg), -ENOSPC);
	assert_int_equal(put_text(t, 19, 4, 21, msg), -ENOSPC);
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), 17);
	assert_int_equal(norder, 18);
	assert_string_equal(order_log[0], "rec 1");
	assert_string_equal(order_log[16], "rec 17");
	assert_string_equal(order_log[17], "lost 4/21 2");
	/* the next record carries the count already told: told once */
	assert_int_equal(put_text(t, 20, 4, 21, msg), 0);
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), 1);
	assert_int_equal(norder, 19);
	assert_string_equal(order_log[18], "rec 20");
	/* drops while a record written before them waits in the buffer: told
	 * after that record, not before it */
	for (uint64_t i = 21; put_text(t, i, 4, 21, msg) == 0; i++)
		;
	assert_true(tbuf_pending());
	norder = 0;
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), 17);
	assert_string_equal(order_log[16], "rec 37");
	assert_string_equal(order_log[17], "lost 4/21 1");
	assert_int_equal(put_text(t, 100, 4, 21, msg), 0);      /* written before the next drops */
	assert_int_equal(put_text(t, 101, 4, 22, msg), 0);      /* another connection in slot 4 */
	norder = 0;
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), 2);
	assert_int_equal(norder, 2);
	assert_string_equal(order_log[0], "rec 100");
	assert_string_equal(order_log[1], "rec 101");
}

/* Wrap-around: records go on being whole and in order across the end of
 * the buffer, and the meta (trailer offset, serial, slot, form) comes back. */
static void test_wraps_keeping_order(void **state)
{
	(void)state;
	struct tbuf *t = tbuf_mine();
	char msg[64];
	int next = 0;

	reset_seen();
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 7; i++) {
			struct tbuf_meta m = { .ts = (uint64_t)next, .serial = 11, .slot = 1, .form = (uint8_t)(next % 3) };
			snprintf(msg, sizeof msg, "event %d %.*s", next, next % 40, "........................................");
			bool filling;
			assert_int_equal(tbuf_put(t, &m, encode_text, &(struct text){ msg, 3 }, &filling), 0);
			next++;
		}
		size_t before = nseen;
		assert_int_equal(tbuf_drain(sink, on_lost, NULL), 7);
		for (size_t k = before; k < nseen; k++) {
			int n = (int)(k);
			snprintf(msg, sizeof msg, "event %d %.*s", n, n % 40, "........................................");
			if (k < SEEN_MAX)
				assert_string_equal(seen[k].text, msg);
			assert_int_equal(seen[k].meta.trailer_at, 3);
			assert_int_equal(seen[k].meta.serial, 11);
			assert_int_equal(seen[k].meta.slot, 1);
			assert_int_equal(seen[k].meta.form, n % 3);
		}
	}
	assert_int_equal(nseen, 350);
	assert_int_equal(nlost_calls, 0);
}

/* Two threads' records come out in timestamp order, each thread's in its own. */
struct script { const uint64_t *ts; size_t n; const char *name; pthread_barrier_t *done; pthread_barrier_t *go; };

static void *write_script(void *arg)
{
	struct script *sc = arg;
	char msg[32];

	for (size_t i = 0; i < sc->n; i++) {
		snprintf(msg, sizeof msg, "%s%llu", sc->name, (unsigned long long)sc->ts[i]);
		assert_int_equal(put_text(tbuf_mine(), sc->ts[i], 0, 1, msg), 0);
	}
	pthread_barrier_wait(sc->done);   /* written */
	pthread_barrier_wait(sc->go);     /* drained: exit */
	return NULL;
}

static void test_merge_by_timestamp(void **state)
{
	static const uint64_t a_ts[] = { 10, 30, 31, 70 }, b_ts[] = { 20, 40, 50, 60, 80 };
	pthread_barrier_t done, go;
	pthread_t a, b;
	(void)state;

	assert_int_equal(tbuf_init(1u << 20), 0);
	pthread_barrier_init(&done, NULL, 3);
	pthread_barrier_init(&go, NULL, 3);
	struct script sa = { a_ts, 4, "a", &done, &go }, sb = { b_ts, 5, "b", &done, &go };
	reset_seen();
	pthread_create(&a, NULL, write_script, &sa);
	pthread_create(&b, NULL, write_script, &sb);
	pthread_barrier_wait(&done);
	assert_true(tbuf_pending());
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 9);
	assert_false(tbuf_pending());
	static const char *const want[] = { "a10", "b20", "a30", "a31", "b40", "b50", "b60", "a70", "b80" };
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(seen[i].text, want[i]);
	pthread_barrier_wait(&go);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_barrier_destroy(&done);
	pthread_barrier_destroy(&go);
}

/* A thread that exits leaves its records to be drained, then its buffer goes
 * to the next new thread. */
static void *write_and_exit(void *arg)
{
	struct tbuf **out = arg;

	*out = tbuf_mine();
	assert_int_equal(put_text(*out, 1000, 2, 5, "last words"), 0);
	return NULL;
}

static void test_exited_thread_drained_then_reused(void **state)
{
	pthread_t t;
	struct tbuf *first = NULL, *second = NULL;
	(void)state;

	reset_seen();
	pthread_create(&t, NULL, write_and_exit, &first);
	pthread_join(t, NULL);
	assert_true(tbuf_pending());
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 1);
	assert_string_equal(seen[0].text, "last words");
	assert_false(tbuf_pending());
	pthread_create(&t, NULL, write_and_exit, &second);
	pthread_join(t, NULL);
	assert_ptr_equal(first, second);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 1);
}

/* A thread that dropped events for slot 2 (serial 5), then exits; the next
 * thread that takes its buffer writes for the same slot and serial: its
 * record carries the drops already there, and nothing is told lost twice
 * (the producer reads the drop counts only once its buffer has any: a
 * buffer taken over with counts must say so). */
static void *drop_and_exit(void *arg)
{
	struct tbuf **out = arg;

	*out = tbuf_mine();
	tbuf_drop(*out, 2, 5);
	tbuf_drop(*out, 2, 5);
	assert_int_equal(put_text(*out, 2000, 2, 5, "after two drops"), 0);
	return NULL;
}

static void *write_again_and_exit(void *arg)
{
	struct tbuf **out = arg;

	*out = tbuf_mine();
	assert_int_equal(put_text(*out, 3000, 2, 5, "next owner"), 0);
	return NULL;
}

static void test_reused_buffer_keeps_its_drop_counts(void **state)
{
	pthread_t t;
	struct tbuf *first = NULL, *second = NULL;
	(void)state;

	reset_seen();
	pthread_create(&t, NULL, drop_and_exit, &first);
	pthread_join(t, NULL);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 1);
	assert_int_equal(seen[0].meta.drops, 2);
	assert_int_equal(lost[2], 2);
	assert_int_equal(nlost_calls, 1);
	reset_seen();
	pthread_create(&t, NULL, write_again_and_exit, &second);
	pthread_join(t, NULL);
	assert_ptr_equal(first, second);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 1);
	assert_string_equal(seen[0].text, "next owner");
	assert_int_equal(seen[0].meta.drops, 2);
	assert_int_equal(nlost_calls, 0);
}

/* Concurrent producers while the drainer runs: within each drain the
 * records are in timestamp order; each thread's come in its order; every
 * record is delivered or counted lost, none twice. */
#define PRODUCERS 4
#define PER_PRODUCER 100000
static uint64_t clock_now;   /* a shared counter as the clock: a total order */
static int producers_left;
static uint64_t last_of[PRODUCERS];
static uint64_t delivered, lost_total;   /* atomic: the producers' own drains count too */

static void check_record(struct tbuf_rec *r, bool merged);

static void own_sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	check_record(r, false);
}

static void counting_lost(void *ctx, unsigned slot, uint32_t serial, uint64_t n);

static void *produce(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	struct tbuf *t = tbuf_mine();
	char msg[48];

	for (uint32_t i = 1; i <= PER_PRODUCER; i++) {
		uint64_t ts = __atomic_add_fetch(&clock_now, 1, __ATOMIC_SEQ_CST);
		int n = snprintf(msg, sizeof msg, "%lu %u", (unsigned long)id, i);
		struct tbuf_meta m = { .ts = ts, .serial = 1, .slot = 0 };
		bool filling;
		(void)n;
		int rc = tbuf_put(t, &m, encode_text, &(struct text){ msg, 0 }, &filling);
		if (rc == -ENOSPC && id % 2 == 0) {
			/* half the threads take their own buffer when it is full, as emit.c does */
			tbuf_drain_mine(t, own_sink, counting_lost, NULL);
			rc = tbuf_put(t, &m, encode_text, &(struct text){ msg, 0 }, &filling);
		}
		if (rc == -ENOSPC)
			tbuf_drop(t, 0, 1);
		assert_true(rc == 0 || rc == -ENOSPC);
	}
	__atomic_sub_fetch(&producers_left, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static uint64_t drain_last_ts;

/* Each record once, in its thread's order; in a merged drain, in
 * timestamp order. last_of[id] is touched by the drainer and by thread id
 * itself, never at once (the buffer's take lock). */
static void check_record(struct tbuf_rec *r, bool merged)
{
	char text[48];
	unsigned long id;
	unsigned i;

	if (r->len >= sizeof text)
		abort();
	memcpy(text, r->msg, r->len);
	text[r->len] = '\0';
	if (sscanf(text, "%lu %u", &id, &i) != 2 || id >= PRODUCERS || i <= last_of[id])
		abort();   /* the thread's order; nothing twice (a cmocka assert cannot fail off the main thread) */
	last_of[id] = i;
	if (merged) {
		if (r->meta.ts < drain_last_ts)
			abort();
		drain_last_ts = r->meta.ts;
	}
	__atomic_add_fetch(&delivered, 1, __ATOMIC_RELAXED);
}

static void checking_sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	check_record(r, true);
}

static void counting_lost(void *ctx, unsigned slot, uint32_t serial, uint64_t n)
{
	(void)ctx;
	if (slot != 0 || serial != 1)
		abort();
	__atomic_add_fetch(&lost_total, n, __ATOMIC_RELAXED);
}

static void test_concurrent_producers(void **state)
{
	pthread_t t[PRODUCERS];
	(void)state;

	assert_int_equal(tbuf_init(64u << 10), 0);   /* small: some loss likely, all counted */
	producers_left = PRODUCERS;
	for (uintptr_t i = 0; i < PRODUCERS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, produce, (void *)i), 0);
	for (;;) {
		bool last = __atomic_load_n(&producers_left, __ATOMIC_SEQ_CST) == 0;
		drain_last_ts = 0;
		tbuf_drain(checking_sink, counting_lost, NULL);
		if (last)
			break;
	}
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(t[i], NULL);
	drain_last_ts = 0;
	tbuf_drain(checking_sink, counting_lost, NULL);   /* the exited threads' buffers */
	assert_int_equal(delivered + lost_total, (uint64_t)PRODUCERS * PER_PRODUCER);
	for (int i = 0; i < PRODUCERS; i++)
		assert_true(last_of[i] <= PER_PRODUCER);
	assert_false(tbuf_pending());
}

/* A full buffer taken by its own thread: every record, in order, and room again. */
static void test_drain_mine(void **state)
{
	(void)state;
	struct tbuf *t = tbuf_mine();   /* the main thread's 4 KiB */
	char msg[200];
	long_text(msg, sizeof msg, 'v');
	struct tbuf_meta m = { .ts = 0, .serial = 30, .slot = 6 };
	bool filling;
	uint64_t i = 1;

	norder = 0;
	for (;; i++) {
		m.ts = i;
		if (tbuf_put(t, &m, encode_text, &(struct text){ msg, 0 }, &filling) == -ENOSPC)
			break;
	}
	assert_true(i > 10);
	assert_int_equal(tbuf_drain_mine(t, order_sink, order_lost, NULL), i - 1);
	assert_int_equal(norder, i - 1);
	assert_string_equal(order_log[0], "rec 1");
	assert_int_equal(tbuf_put(t, &m, encode_text, &(struct text){ msg, 0 }, &filling), 0);
	assert_int_equal(tbuf_drain(order_sink, order_lost, NULL), 1);
	assert_int_equal(norder, i);
	assert_false(tbuf_pending());
}


/* tbuf_put_small, its own path and tbuf_put's where it falls back (no room
 * seen, the end of the buffer, drops): the same records as tbuf_put would
 * make, in order, over several wraps of a thread's buffer; a full buffer
 * says -ENOSPC and counts nothing; a length it does not take is -EINVAL. */
static uint64_t small_words[4];

static void fill_small(uint64_t n)
{
	for (unsigned k = 0; k < 4; k++)
		small_words[k] = n * 0x0101010101010101ull + k;
}

static uint64_t small_checked;

static void small_sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	uint64_t n = small_checked++;
	size_t len = 8 * (1 + n % 4);

	fill_small(n);
	assert_int_equal(r->len, len);
	assert_memory_equal(r->msg, small_words, len);
	assert_int_equal(r->meta.ts, 1000 + n);
	assert_int_equal(r->meta.serial, 21);
	assert_int_equal(r->meta.slot, 2);
	assert_int_equal(r->meta.form, 1 + n % 2);
	assert_int_equal(r->meta.trailer_at, 0);
	assert_int_equal(r->meta.drops, 0);
}

static void *small_records(void *arg)
{
	(void)arg;
	struct tbuf *t = tbuf_mine();
	uint64_t n = 0;
	bool filling;

	assert_non_null(t);
	small_checked = 0;
	/* 1 MiB holds about 20 000 of these: three wraps, drained every 1000 */
	for (int round = 0; round < 60; round++) {
		for (int i = 0; i < 1000; i++, n++) {
			struct tbuf_meta m = { .ts = 1000 + n, .serial = 21, .slot = 2, .form = (uint8_t)(1 + n % 2) };
			fill_small(n);
			assert_int_equal(tbuf_put_small(t, &m, small_words, 8 * (1 + n % 4), &filling), 0);
		}
		assert_int_equal(tbuf_drain(small_sink, on_lost, NULL), 1000);
	}
	assert_int_equal(small_checked, 60000);
	/* full: -ENOSPC, nothing written, nothing counted; then all of it, in order */
	uint64_t first = n;
	for (;; n++) {
		struct tbuf_meta m = { .ts = 1000 + n, .serial = 21, .slot = 2, .form = (uint8_t)(1 + n % 2) };
		fill_small(n);
		int rc = tbuf_put_small(t, &m, small_words, 8 * (1 + n % 4), &filling);
		if (rc == -ENOSPC)
			break;
		assert_int_equal(rc, 0);
		assert_true(n - first < 1000000);
	}
	assert_int_equal(tbuf_drain(small_sink, on_lost, NULL), n - first);
	assert_int_equal(small_checked, n);
	/* lengths it does not take, and a slot out of range */
	struct tbuf_meta m = { .ts = 1, .serial = 21, .slot = 2 };
	assert_int_equal(tbuf_put_small(t, &m, small_words, 12, &filling), -EINVAL);
	assert_int_equal(tbuf_put_small(t, &m, small_words, TBUF_SMALL_MAX + 8, &filling), -EINVAL);
	m.slot = TBUF_SLOTS;
	assert_int_equal(tbuf_put_small(t, &m, small_words, 8, &filling), -EINVAL);
	assert_int_equal(tbuf_drain(small_sink, on_lost, NULL), 0);
	return NULL;
}

static void test_small_records(void **state)
{
	(void)state;
	pthread_t th;

	reset_seen();
	assert_int_equal(pthread_create(&th, NULL, small_records, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(nlost_calls, 0);
}

/* After drops, tbuf_put_small's records carry them as tbuf_put's do. */
static void test_small_records_after_drops(void **state)
{
	(void)state;
	struct tbuf *t = tbuf_mine();     /* the main thread's 4 KiB */
	struct tbuf_meta m = { .ts = 5, .serial = 31, .slot = 6, .form = 1 };
	bool filling;
	int fit = 0;

	reset_seen();
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 0);
	reset_seen();
	fill_small(0);
	bool was_filling = false;
	while (tbuf_put_small(t, &m, small_words, 32, &filling) == 0) {
		was_filling = filling;
		fit++;
	}
	/* 32 bytes + 24 of meta + 8 of header: 64 a record, 64 in 4096, or 63
	 * when the earlier tests left the position off a multiple of 64 (the
	 * end's pad then takes a record's room) */
	assert_true(fit == 64 || fit == 63);
	assert_true(was_filling);
	tbuf_drop(t, 6, 31);
	tbuf_drop(t, 6, 31);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), fit);
	reset_seen();
	assert_int_equal(tbuf_put_small(t, &m, small_words, 8, &filling), 0);
	assert_false(filling);
	assert_int_equal(tbuf_drain(sink, on_lost, NULL), 1);
	assert_int_equal(nseen, 1);
	assert_int_equal(seen[0].meta.drops, 2);
	assert_memory_equal(seen[0].text, small_words, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loss_counted_per_slot_and_serial),
		cmocka_unit_test(test_lost_placed_where_it_happened),
		cmocka_unit_test(test_lost_told_after_records_written_during_the_drain),
		cmocka_unit_test(test_wraps_keeping_order),
		cmocka_unit_test(test_merge_by_timestamp),
		cmocka_unit_test(test_exited_thread_drained_then_reused),
		cmocka_unit_test(test_reused_buffer_keeps_its_drop_counts),
		cmocka_unit_test(test_concurrent_producers),
		cmocka_unit_test(test_drain_mine),
		cmocka_unit_test(test_small_records),
		cmocka_unit_test(test_small_records_after_drops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
