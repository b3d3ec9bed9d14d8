/* clock.c: see clock.h. */
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool clock_on_tsc;

/* The published line: ns = base_ns + (raw - base_raw) * mult / 2^32, under
 * a sequence count (odd while the one writer changes it). */
static struct {
	uint64_t seq;
	uint64_t base_raw, base_ns, mult;
} line;

/* The calibrating thread's: the point the rate is measured from. */
static uint64_t anchor_raw, anchor_ns;

/* The rate is measured over at least this long, and from a newer anchor
 * after RE_ANCHOR_NS, so a slewed kernel clock is followed. */
#define MIN_SPAN_NS 1000000ull
#define RE_ANCHOR_NS 60000000000ull
#define HOLD_NS 1000000000ull
static uint64_t held_mult;   /* the rate measured before the last re-anchoring */

static bool kernel_clock_is_tsc(void)
{
#if defined(__x86_64__)
	char buf[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");

	if (!f)
		return false;
	bool ok = fgets(buf, sizeof buf, f) && strcmp(buf, "tsc\n") == 0;
	fclose(f);
	return ok;
#else
	return false;
#endif
}

/* A (raw, ns) pair read close together: the narrowest of a few tries. */
static void sample(uint64_t *raw, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = clock_mono_ns();
		uint64_t r = clock_raw();
		uint64_t b = clock_mono_ns();
		if (b - a < best) {
			best = b - a;
			*raw = r;
			*ns = a + (b - a) / 2;
		}
	}
}

static void publish(uint64_t raw, uint64_t ns, uint64_t mult)
{
	uint64_t s = line.seq;

	__atomic_store_n(&line.seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&line.base_raw, raw, __ATOMIC_RELAXED);
	__atomic_store_n(&line.base_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&line.mult, mult, __ATOMIC_RELAXED);
	__atomic_store_n(&line.seq, s + 2, __ATOMIC_RELEASE);
}

static uint64_t rate(uint64_t raw, uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)(ns - anchor_ns) << 32) / (raw - anchor_raw));
}

int clock_init(bool use_tsc)
{
	bool tsc = use_tsc && kernel_clock_is_tsc();

	clock_on_tsc = tsc;
	if (!tsc)
		return use_tsc ? -ENOTSUP : 0;
	uint64_t raw, ns;
	sample(&anchor_raw, &anchor_ns);
	do {
		struct timespec pause = { 0, 200000 };
		nanosleep(&pause, NULL);
		sample(&raw, &ns);
	} while (ns - anchor_ns < MIN_SPAN_NS || raw <= anchor_raw);
	publish(raw, ns, rate(raw, ns));
	return 0;
}

const char *clock_source(void)
{
	return clock_on_tsc ? "tsc" : "monotonic";
}

void clock_calibrate(void)
{
	uint64_t raw, ns;

	if (!clock_on_tsc)
		return;
	sample(&raw, &ns);
	uint64_t span = ns - anchor_ns;
	if (raw <= anchor_raw || (span < MIN_SPAN_NS && !held_mult))
		return;
	/* a young anchor measures the rate less well than the old one did */
	uint64_t m = span >= HOLD_NS || !held_mult ? rate(raw, ns) : held_mult;
	publish(raw, ns, m);
	if (span >= RE_ANCHOR_NS) {
		held_mult = m;
		anchor_raw = raw;
		anchor_ns = ns;
	}
}

uint64_t clock_to_ns(uint64_t raw)
{
	uint64_t s, base_raw, base_ns, mult;

	if (!clock_on_tsc)
		return raw;
	do {
		s = __atomic_load_n(&line.seq, __ATOMIC_ACQUIRE);
		base_raw = __atomic_load_n(&line.base_raw, __ATOMIC_RELAXED);
		base_ns = __atomic_load_n(&line.base_ns, __ATOMIC_RELAXED);
		mult = __atomic_load_n(&line.mult, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((s & 1) || s != __atomic_load_n(&line.seq, __ATOMIC_RELAXED));
	int64_t d = (int64_t)(raw - base_raw);
	return base_ns + (uint64_t)(((__int128)d * (__int128)mult) >> 32);
}
