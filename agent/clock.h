/* clock.h: event timestamps, cheap on the event's thread.
 *
 * Contract: clock_raw() is what a thread takes at an event. Where the kernel
 * keeps CLOCK_MONOTONIC on the TSC itself (x86-64, clocksource "tsc": the
 * kernel found it constant-rate and in step across CPUs) it is the TSC, one
 * instruction (~10 ns here against ~24 ns for the vDSO's clock_gettime);
 * elsewhere, or when asked not to, it is CLOCK_MONOTONIC in ns.
 * clock_to_ns() turns a raw reading into CLOCK_MONOTONIC ns on a line fitted
 * at clock_init() and refitted by clock_calibrate() (one thread: the I/O
 * thread, each round); any thread may convert (a sequence lock: no lock, no
 * system call). Raw readings of different threads compare as their times do.
 */
#ifndef STAPJAVA_AGENT_CLOCK_H
#define STAPJAVA_AGENT_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Once, at load: with USE_TSC, the TSC where the kernel's clock runs on it;
 * fits the first line (takes ~1 ms). 0, or -ENOTSUP when USE_TSC and the TSC
 * cannot be used (the monotonic clock is used). */
int clock_init(bool use_tsc);
/* "tsc" or "monotonic": what clock_raw() reads. */
const char *clock_source(void);

extern bool clock_on_tsc;

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_raw(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(clock_on_tsc, 1))
		return __rdtsc();
#endif
	return clock_mono_ns();
}

/* A raw reading as CLOCK_MONOTONIC ns. */
uint64_t clock_to_ns(uint64_t raw);
/* One thread, now and then (each I/O round): refit the line to now. */
void clock_calibrate(void);

#endif
