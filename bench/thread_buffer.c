/* thread_buffer.c: bench-thread-buffer, what a plain method event costs the
 * Java thread in its own buffer (agent/tbuf.c, agent/ring.h), the producer
 * alone: row 9k of bench/run (issue 12: the Java thread's cost per event,
 * row 9e, is this plus the site's lookup, the timestamp and the call).
 *
 *   bench-thread-buffer [--records N] [--batch B]
 *
 * The producer puts a plain event's record (struct plainev, as
 * emit_plain_method puts it) B at a time (default 4000, about 160 KiB of
 * the default 256 KiB buffer), then hands the buffer to a drainer thread,
 * which takes every record as the agent's I/O thread does, and waits for
 * it; only the puts are timed. So each line the producer writes was last
 * read by the drainer's core, as in the JVM. Two ways, alternating by
 * batch: tbuf_put with an encoder that copies the record (the general put)
 * and tbuf_put_small (the plain event's). N records each (default
 * 10000000). stdout gets only "RESULT <name> <value> <unit>" lines:
 * thread_buffer_put_ns, thread_buffer_put_small_ns (wall clock, the mean
 * over the run's batches, and over its fastest tenth: the machine's
 * other tenants interrupt some batches); stderr a summary.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batchstat.h"
#include "plainev.h"
#include "tbuf.h"
#include "monoclock.h"

static atomic_int drainer_turn;   /* 1: the drainer takes the buffer now; -1: it ends */
static size_t drained;

static void sink(void *ctx, struct tbuf_rec *r)
{
	(void)ctx;
	drained += r->len;
}

static void lost(void *ctx, unsigned slot, uint32_t serial, uint64_t n)
{
	(void)ctx, (void)slot, (void)serial, (void)n;
}

static void *drainer(void *arg)
{
	(void)arg;
	for (;;) {
		int turn = atomic_load(&drainer_turn);
		if (turn < 0)
			return NULL;
		if (turn == 1) {
			tbuf_drain(sink, lost, NULL);
			atomic_store(&drainer_turn, 0);
		}
	}
}

static int copy_plain(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at)
{
	if (cap < PLAINEV_BYTES)
		return -ENOSPC;
	memcpy(buf, ctx, PLAINEV_BYTES);
	*len = PLAINEV_BYTES;
	*trailer_at = 0;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "records", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long records = 10000000, batch = 4000;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		char *end;
		unsigned long v = strtoul(optarg ? optarg : "", &end, 10);
		if (c == '?' || !optarg || *end || v == 0 || (c == 'b' && v > 5000)) {
			fprintf(stderr, "usage: bench-thread-buffer [--records N] [--batch B (1..5000)]\n");
			return 2;
		}
		if (c == 'n')
			records = v;
		else
			batch = v;
	}
	size_t nbatches = records / batch ? records / batch : 1;
	uint64_t *ns[2] = { calloc(nbatches, sizeof(uint64_t)), calloc(nbatches, sizeof(uint64_t)) };
	pthread_t th;
	struct tbuf *t;

	if (!ns[0] || !ns[1] || tbuf_init(256u * 1024u) < 0 || !(t = tbuf_mine()) ||
	    pthread_create(&th, NULL, drainer, NULL) != 0) {
		fprintf(stderr, "bench-thread-buffer: cannot set up (memory, or a thread)\n");
		return 1;
	}
	struct plainev p = { .site = 7, .tid = 4242 };
	uint64_t ts = 0, refused = 0;
	for (size_t i = 0; i < 2 * nbatches; i++) {
		int small = (int)(i & 1);
		uint64_t t0 = monotonic_ns();
		for (unsigned long k = 0; k < batch; k++) {
			struct tbuf_meta m = { .ts = ++ts, .serial = 1, .slot = 0, .form = PLAINEV_ENTER };
			bool filling;
			int rc = small ? tbuf_put_small(t, &m, &p, PLAINEV_BYTES, &filling)
				       : tbuf_put(t, &m, copy_plain, &p, &filling);
			refused += rc != 0;
		}
		ns[small][i / 2] = monotonic_ns() - t0;
		atomic_store(&drainer_turn, 1);
		while (atomic_load(&drainer_turn) == 1)
			;
	}
	atomic_store(&drainer_turn, -1);
	pthread_join(th, NULL);
	if (refused) {
		fprintf(stderr, "bench-thread-buffer: %llu records did not fit (a batch larger than the buffer?)\n",
			(unsigned long long)refused);
		return 1;
	}
	double put, put_fast, small, small_fast;
	batchstat_summarize(ns[0], nbatches, batch, &put, &put_fast);
	batchstat_summarize(ns[1], nbatches, batch, &small, &small_fast);
	printf("RESULT thread_buffer_put_ns %.2f ns/record\n", put);
	printf("RESULT thread_buffer_put_small_ns %.2f ns/record\n", small);
	printf("RESULT thread_buffer_put_fast_ns %.2f ns/record\n", put_fast);
	printf("RESULT thread_buffer_put_small_fast_ns %.2f ns/record\n", small_fast);
	fprintf(stderr, "# %zu batches of %lu records each way, %zu bytes drained: tbuf_put %.2f ns a record "
		"(fastest tenth %.2f), tbuf_put_small %.2f (%.2f)\n", nbatches, batch, drained, put, put_fast, small,
		small_fast);
	free(ns[0]);
	free(ns[1]);
	return 0;
}
