/* tbuf.c: see tbuf.h. */
#include "tbuf.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

#define TBUF_MIN (4u * 1024u)
#define TBUF_MAX (256u * 1024u * 1024u)

enum tbuf_state { TBUF_FREE, TBUF_OWNED, TBUF_EXITED };

static struct tbuf *pool;            /* atomic: newest first */
static size_t ring_bytes = 256u * 1024u;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
__thread __attribute__((tls_model("initial-exec"))) struct tbuf *tbuf_mine_cached;
__thread __attribute__((tls_model("initial-exec"))) bool tbuf_mine_dropped;

/* Drainer only: the merge heap. */
static struct tbuf **heap;
static size_t heap_cap;

/* At the thread's exit: its records are still drained, then the buffer is reused. */
static void tbuf_exit(void *p)
{
	struct tbuf *t = p;

	__atomic_store_n(&t->state, TBUF_EXITED, __ATOMIC_RELEASE);
}

static void make_key(void)
{
	pthread_key_create(&exit_key, tbuf_exit);
}

int tbuf_init(size_t bytes)
{
	size_t n = TBUF_MIN;

	if (bytes > TBUF_MAX)
		return -EINVAL;
	while (n < bytes)
		n <<= 1;
	ring_bytes = n;
	pthread_once(&key_once, make_key);
	return 0;
}

static struct tbuf *tbuf_take_free(void)
{
	for (struct tbuf *t = __atomic_load_n(&pool, __ATOMIC_ACQUIRE); t; t = t->next) {
		int free_state = TBUF_FREE;
		if (__atomic_compare_exchange_n(&t->state, &free_state, TBUF_OWNED, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return t;
	}
	return NULL;
}

static struct tbuf *tbuf_new(void)
{
	size_t sz = (sizeof(struct tbuf) + 63) & ~(size_t)63;
	struct tbuf *t = aligned_alloc(64, sz);
	void *data = malloc(ring_bytes);

	if (t) {
		memset(t, 0, sizeof(*t));
		pthread_mutex_init(&t->take_lock, NULL);
	}

	if (!t || !data || ring_init(&t->ring, data, ring_bytes) < 0) {
		free(data);
		free(t);
		return NULL;
	}
	t->state = TBUF_OWNED;
	t->next = __atomic_load_n(&pool, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&pool, &t->next, t, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	return t;
}

struct tbuf *tbuf_mine_first(void)
{
	pthread_once(&key_once, make_key);
	struct tbuf *t = tbuf_take_free();
	if (!t)
		t = tbuf_new();
	if (!t)
		return NULL;
	pthread_setspecific(exit_key, t);
	tbuf_mine_cached = t;
	tbuf_mine_dropped = false;
	for (unsigned i = 0; i < TBUF_SLOTS; i++)
		tbuf_mine_dropped |= __atomic_load_n(&t->dropped[i], __ATOMIC_RELAXED) != 0;
	return t;
}

void tbuf_drop(struct tbuf *t, unsigned slot, uint32_t serial)
{
	uint64_t w = __atomic_load_n(&t->dropped[slot], __ATOMIC_RELAXED);
	uint32_t n = (uint32_t)(w >> 32) == serial ? (uint32_t)w : 0;

	if (t == tbuf_mine_cached)
		tbuf_mine_dropped = true;
	/* one writer: a plain store, no locked instruction */
	__atomic_store_n(&t->dropped[slot], (uint64_t)serial << 32 | (uint32_t)(n + 1), __ATOMIC_RELEASE);
}

int tbuf_put(struct tbuf *t, const struct tbuf_meta *meta, tbuf_encode_fn encode, void *ctx,
	     bool *filling)
{
	struct ring *r = &t->ring;
	size_t want = 512, tried = 0;

	*filling = false;
	if (meta->slot >= TBUF_SLOTS)
		return -EINVAL;
	/* at most: the room last seen, the room now, a pad to the end, the start */
	for (int attempt = 0; attempt < 4; attempt++) {
		size_t cap, len, at;
		bool at_end;
		uint8_t *p = ring_room(r, want, &cap, &at_end);

		if (cap > TBUF_META && cap > tried) {
			int rc = encode(ctx, p + TBUF_META, cap - TBUF_META, &len, &at);
			if (rc == 0) {
				uint64_t w = t != tbuf_mine_cached || tbuf_mine_dropped
						     ? __atomic_load_n(&t->dropped[meta->slot], __ATOMIC_RELAXED) : 0;
				tbuf_write_meta(p, meta, at, (uint32_t)(w >> 32) == meta->serial ? (uint32_t)w : 0);
				ring_commit(r, TBUF_META + len);
				*filling = ring_filling(r);
				return 0;
			}
			if (rc != -ENOSPC)
				return rc;
			tried = cap;
		}
		if (!at_end && want < r->size) {
			want = r->size;      /* read the consumer's position again */
			continue;
		}
		if (!at_end || !ring_pad(r))
			break;
		tried = 0;
	}
	return -ENOSPC;
}

struct small_msg {
	const void *msg;
	size_t len;
};

static int copy_small(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at)
{
	const struct small_msg *m = ctx;

	if (cap < m->len)
		return -ENOSPC;
	memcpy(buf, m->msg, m->len);
	*len = m->len;
	*trailer_at = 0;
	return 0;
}

int tbuf_put_small_slow(struct tbuf *t, const struct tbuf_meta *meta, const void *msg, size_t len,
			bool *filling)
{
	struct small_msg m = { msg, len };

	if (len > TBUF_SMALL_MAX || len % 8 || meta->slot >= TBUF_SLOTS)
		return -EINVAL;
	return tbuf_put(t, meta, copy_small, &m, filling);
}

/* ------------------------------------------------------------ drainer */

static bool peek(struct tbuf *t)
{
	size_t len;
	const uint8_t *p = ring_peek(&t->ring, t->limit, &len);

	if (!p)
		return false;
	if (len < TBUF_META) {   /* cannot happen: tbuf_put writes the meta first */
		ring_release(&t->ring);
		return peek(t);
	}
	memcpy(&t->cur.meta, p, TBUF_META);
	t->cur.msg = (uint8_t *)p + TBUF_META;
	t->cur.len = len - TBUF_META;
	return true;
}

static bool before(const struct tbuf *a, const struct tbuf *b)
{
	return a->cur.meta.ts < b->cur.meta.ts;
}

static void sift_down(size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && before(heap[l], heap[m]))
			m = l;
		if (l + 1 < n && before(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct tbuf *x = heap[i];
		heap[i] = heap[m];
		heap[m] = x;
		i = m;
	}
}

static void sift_up(size_t i)
{
	while (i > 0 && before(heap[i], heap[(i - 1) / 2])) {
		struct tbuf *x = heap[i];
		heap[i] = heap[(i - 1) / 2];
		heap[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

/* Report SLOT's drops up to the cumulative word W (serial << 32 | count),
 * if it is newer than what was reported. */
static void report_word(struct tbuf *t, unsigned slot, uint64_t w, tbuf_lost_fn lost, void *ctx)
{
	uint64_t r = t->reported[slot];
	uint32_t serial = (uint32_t)(w >> 32);
	uint32_t base = (uint32_t)(r >> 32) == serial ? (uint32_t)r : 0;
	int32_t n = (int32_t)((uint32_t)w - base);

	/* a record written before the last report carries an older count */
	if (w == r || n <= 0)
		return;
	t->reported[slot] = w;
	lost(ctx, slot, serial, (uint32_t)n);
}

/* Drops that no record carried: told only when every record the thread
 * wrote before them has been taken (the tail, read after the counts, is
 * where we are). Otherwise a record written before a drop, still in the
 * buffer, would come after its Lost; the next drain tells them. */
static void report_drops(struct tbuf *t, tbuf_lost_fn lost, void *ctx)
{
	uint64_t w[TBUF_SLOTS];

	for (unsigned i = 0; i < TBUF_SLOTS; i++)
		w[i] = __atomic_load_n(&t->dropped[i], __ATOMIC_ACQUIRE);
	if (ring_tail(&t->ring) != t->ring.head)
		return;
	for (unsigned i = 0; i < TBUF_SLOTS; i++)
		report_word(t, i, w[i], lost, ctx);
}

/* One record to SINK, after the drops its thread counted before it. */
static void hand_over(struct tbuf *t, tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx)
{
	const struct tbuf_meta *m = &t->cur.meta;

	if (m->drops)
		report_word(t, m->slot, (uint64_t)m->serial << 32 | m->drops, lost, ctx);
	sink(ctx, &t->cur);
	ring_release(&t->ring);
}

/* Every record of T before its limit, in T's order. */
static size_t hand_over_all(struct tbuf *t, tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx)
{
	size_t n = 0;

	for (; peek(t); n++)
		hand_over(t, sink, lost, ctx);
	return n;
}

/* Without memory for the heap: each buffer in turn (a thread's order kept). */
static size_t drain_unmerged(struct tbuf *list, tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx)
{
	size_t n = 0;

	for (struct tbuf *t = list; t; t = t->next)
		if (t->drain_state != TBUF_FREE)
			n += hand_over_all(t, sink, lost, ctx);
	return n;
}

size_t tbuf_drain_mine(struct tbuf *t, tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx)
{
	pthread_mutex_lock(&t->take_lock);
	t->limit = ring_tail(&t->ring);
	size_t n = hand_over_all(t, sink, lost, ctx);
	ring_publish(&t->ring);
	report_drops(t, lost, ctx);
	pthread_mutex_unlock(&t->take_lock);
	return n;
}

size_t tbuf_drain(tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx)
{
	struct tbuf *list = __atomic_load_n(&pool, __ATOMIC_ACQUIRE);
	size_t nbufs = 0, n = 0, done = 0;

	for (struct tbuf *t = list; t; t = t->next) {
		/* an exited thread wrote everything before its state said so */
		t->drain_state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
		if (t->drain_state == TBUF_FREE)
			continue;
		/* its own thread is taking it (a full buffer): the next drain will */
		if (pthread_mutex_trylock(&t->take_lock) != 0) {
			t->drain_state = TBUF_FREE;
			continue;
		}
		t->limit = ring_tail(&t->ring);
		nbufs++;
	}
	if (nbufs > heap_cap) {
		struct tbuf **h = realloc(heap, nbufs * 2 * sizeof(*h));
		if (h) {
			heap = h;
			heap_cap = nbufs * 2;
		}
	}
	if (nbufs > heap_cap) {
		done = drain_unmerged(list, sink, lost, ctx);
	} else {
		for (struct tbuf *t = list; t; t = t->next)
			if (t->drain_state != TBUF_FREE && peek(t)) {
				heap[n++] = t;
				sift_up(n - 1);
			}
		while (n) {
			struct tbuf *t = heap[0];
			hand_over(t, sink, lost, ctx);
			done++;
			if (!peek(t))
				heap[0] = heap[--n];
			sift_down(n, 0);
		}
	}
	/* drops after the last record taken (or with no record of their slot since) */
	for (struct tbuf *t = list; t; t = t->next) {
		if (t->drain_state == TBUF_FREE)
			continue;
		ring_publish(&t->ring);
		report_drops(t, lost, ctx);
		/* an exited thread's buffer is empty for good once drained: told, free */
		if (t->drain_state == TBUF_EXITED && ring_used(&t->ring) == 0)
			__atomic_store_n(&t->state, TBUF_FREE, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&t->take_lock);
	}
	return done;
}

bool tbuf_pending(void)
{
	for (struct tbuf *t = __atomic_load_n(&pool, __ATOMIC_ACQUIRE); t; t = t->next)
		if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != TBUF_FREE && ring_used(&t->ring))
			return true;
	return false;
}
