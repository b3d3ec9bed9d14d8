/* uprobe_floor.c: bench-uprobe-floor, what one uprobe trap costs on this
 * machine, without a JVM or anything of ours: row 12f of bench/run, the
 * floor under row 12b (an in-thread event with a uprobe on the agent's slot
 * marker) and row 9b (the bridge's markers with one).
 *
 *   bench-uprobe-floor ITERATIONS [GATE]
 *
 * Hits one SDT marker (provider stapjava_bench, name floor, one argument,
 * guarded by its semaphore as the agent's and the bridge's markers are:
 * runtime/markers.c) ITERATIONS times in a loop and prints
 *   FLOOR iterations=N elapsed_ns=T ns_per_hit=X semaphore=S
 * where S is the semaphore's value during the loop (0: no tracer was on the
 * marker, so nothing trapped). With GATE (a file path) it waits for that
 * file to exist first, at most 120 s (bench/run starts bpftrace on the
 * marker, then makes the gate), as bench/java/Workload does, and then for a
 * tracer to have raised the marker's semaphore, at most 120 s more: a
 * tracer says it is ready (bpftrace's BEGIN) before its probe is in, and the
 * semaphore goes up with the probe, so no hit is missed and no caller
 * guesses how long attaching takes. (STAPJAVA_FLOOR_WAIT_MS: a shorter
 * bound for each wait, in ms, for a test of the refusal.)
 *
 * Why: the trap is the kernel's and the hypervisor's, not ours, and it
 * differs between the machines the bench runs on by more than our whole
 * event costs (0.8 µs a hit on one, 5-6 µs on another): a row 12b or 9b
 * figure is read against this one. Exit 2 on a bad argument, 1 when the gate
 * or the tracer does not come.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "monoclock.h"

/* The marker's semaphore: a tracer raises it while it is attached, from
 * another process (so it is read at each hit, as the agent reads its own). */
__extension__ unsigned short stapjava_bench_floor_semaphore __attribute__((section(".probes")));

#define GATE_WAIT_MS 120000u

static int parse_count(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* how long each wait may last: GATE_WAIT_MS, or STAPJAVA_FLOOR_WAIT_MS (a
 * test's shorter bound) */
static unsigned wait_ms = GATE_WAIT_MS;

static bool gate_exists(const char *gate)
{
	return access(gate, F_OK) == 0;
}

static bool tracer_attached(const char *unused)
{
	(void)unused;
	return __atomic_load_n(&stapjava_bench_floor_semaphore, __ATOMIC_RELAXED) != 0;
}

/* Poll READY(ARG) every 10 ms for at most wait_ms. */
static int wait_for(bool (*ready)(const char *), const char *arg)
{
	for (unsigned ms = 0; ms < wait_ms; ms += 10) {
		if (ready(arg))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

int main(int argc, char **argv)
{
	uint64_t n, start, elapsed;
	unsigned short seen = 0;

	if (argc < 2 || argc > 3 || parse_count(argv[1], &n) < 0) {
		fprintf(stderr, "usage: bench-uprobe-floor ITERATIONS [GATE] (ITERATIONS: a positive number%s%s)\n",
			argc >= 2 ? ", not " : "", argc >= 2 ? argv[1] : "");
		return 2;
	}
	const char *env = getenv("STAPJAVA_FLOOR_WAIT_MS");
	uint64_t env_ms;

	if (env && parse_count(env, &env_ms) == 0 && env_ms < GATE_WAIT_MS)
		wait_ms = (unsigned)env_ms;
	if (argc == 3 && wait_for(gate_exists, argv[2]) < 0) {
		fprintf(stderr, "bench-uprobe-floor: the gate %s did not appear within %g s\n", argv[2],
			wait_ms / 1000.0);
		return 1;
	}
	if (argc == 3 && wait_for(tracer_attached, NULL) < 0) {
		fprintf(stderr, "bench-uprobe-floor: no tracer raised the marker's semaphore within %g s of the gate\n",
			wait_ms / 1000.0);
		return 1;
	}
	start = monotonic_ns();
	for (uint64_t i = 0; i < n; i++)
		if (__builtin_expect(__atomic_load_n(&stapjava_bench_floor_semaphore, __ATOMIC_RELAXED), 0)) {
			seen = __atomic_load_n(&stapjava_bench_floor_semaphore, __ATOMIC_RELAXED);
			STAP_PROBE1(stapjava_bench, floor, i);
		}
	elapsed = monotonic_ns() - start;
	printf("FLOOR iterations=%" PRIu64 " elapsed_ns=%" PRIu64 " ns_per_hit=%.1f semaphore=%u\n", n, elapsed,
	       (double)elapsed / (double)n, (unsigned)seen);
	return 0;
}
