/* clock_read.c: bench-clock-read, what the event's timestamp costs the Java
 * thread: row 9t of bench/run, a part of row 9e that depends on the machine
 * more than on our code (a TSC read was ~10 ns on the AMD machine of the
 * bench's earlier tables, agent/clock.h, and is 17-24 ns on the Intel one
 * of the latest).
 *
 *   bench-clock-read [--reads N]
 *
 * Times clock_raw() (agent/clock.h: what emit_plain_method reads once an
 * event, the TSC where the kernel's clock runs on it) and, for comparison,
 * clock_gettime(CLOCK_MONOTONIC) (the vDSO), N reads each (default
 * 10000000), in batches of 10000 that alternate between the two. Each read's
 * value is summed, so none is left out. stdout gets only "RESULT" lines:
 * clock_raw_ns, clock_gettime_ns (the mean over the batches, and _fast_ns
 * over their fastest tenth: the machine's other tenants interrupt some) and
 * clock_raw_is_tsc (1 or 0); stderr a summary.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batchstat.h"
#include "clock.h"

#define BATCH 10000u

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "reads", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long reads = 10000000;
	int o;

	while ((o = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		char *end;
		unsigned long v;

		errno = 0;
		if (o != 'n' || !optarg || (v = strtoul(optarg, &end, 10), errno || *end || v < BATCH)) {
			fprintf(stderr, "usage: bench-clock-read [--reads N (at least %u)]\n", BATCH);
			return 2;
		}
		reads = v;
	}
	if (optind != argc) {
		fprintf(stderr, "bench-clock-read: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (clock_init(true) < 0)
		fprintf(stderr, "# the TSC cannot be used here: clock_raw() reads CLOCK_MONOTONIC\n");
	size_t nbatches = reads / BATCH;
	uint64_t *ns[2] = { calloc(nbatches, sizeof(uint64_t)), calloc(nbatches, sizeof(uint64_t)) };
	if (!ns[0] || !ns[1]) {
		fprintf(stderr, "bench-clock-read: no memory for %zu batches\n", nbatches);
		return 1;
	}
	volatile uint64_t keep = 0;
	for (size_t i = 0; i < 2 * nbatches; i++) {
		uint64_t sum = 0, t0 = clock_mono_ns();

		if (i % 2 == 0)
			for (unsigned k = 0; k < BATCH; k++)
				sum += clock_raw();
		else
			for (unsigned k = 0; k < BATCH; k++)
				sum += clock_mono_ns();
		ns[i % 2][i / 2] = clock_mono_ns() - t0;
		keep += sum;
	}
	(void)keep;
	double raw, raw_fast, mono, mono_fast;
	batchstat_summarize(ns[0], nbatches, BATCH, &raw, &raw_fast);
	batchstat_summarize(ns[1], nbatches, BATCH, &mono, &mono_fast);
	printf("RESULT clock_raw_ns %.2f ns/read\n", raw);
	printf("RESULT clock_raw_fast_ns %.2f ns/read\n", raw_fast);
	printf("RESULT clock_gettime_ns %.2f ns/read\n", mono);
	printf("RESULT clock_gettime_fast_ns %.2f ns/read\n", mono_fast);
	printf("RESULT clock_raw_is_tsc %d bool\n", clock_on_tsc ? 1 : 0);
	fprintf(stderr, "# %zu batches of %u reads each way: clock_raw (%s) %.2f ns a read (fastest tenth %.2f), "
		"clock_gettime %.2f (%.2f)\n", nbatches, BATCH, clock_source(), raw, raw_fast, mono, mono_fast);
	free(ns[0]);
	free(ns[1]);
	return 0;
}
