/* monoclock.h: CLOCK_MONOTONIC in ns, for deadlines and intervals.
 *
 * Contract: monotonic_ns() never goes back; no lock, one vDSO call. (The
 * agent's event timestamps have their own, cheaper clock: agent/clock.h.)
 */
#ifndef STAPJAVA_MONOCLOCK_H
#define STAPJAVA_MONOCLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
