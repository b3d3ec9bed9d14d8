/* dispatch.c: see dispatch.h. */
#include "dispatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"

#define DISPATCH_BUF_SIZE MARKERS_STRINGS_MAX

int dispatch_init(struct dispatch *d, const struct registry *reg, const struct slot_table *slots)
{
	int rc;

	d->reg = reg;
	/* the registry is read-only once workers run: its answer per code is
	 * taken once, not looked up in the event table at every event */
	for (unsigned code = 0; code < SLOTS_CODES; code++)
		d->family[code] = registry_family_wanted(reg, code) == 1;
	d->cap = DISPATCH_BUF_SIZE;
	d->buf = malloc(d->cap);
	if (!d->buf)
		return -ENOMEM;
	rc = slots_matcher_init(&d->matcher, slots, reg);
	if (rc < 0) {
		free(d->buf);
		d->buf = NULL;
	}
	return rc;
}

void dispatch_free(struct dispatch *d)
{
	slots_matcher_free(&d->matcher);
	free(d->buf);
	d->buf = NULL;
}

void dispatch_event(struct dispatch *d, const struct marker_meta *m, const struct wire_event *ev)
{
	struct slot_set hits;
	struct marker_args a;
	struct wire_str shown; /* the name as $arg5 has it, from the matcher's cache */
	bool slots = ev->by_id ? slots_match_method_id(&d->matcher, ev->code, ev->method_id, ev->name.ptr,
						       ev->name.len, &hits, &shown)
			       : slots_match_shown(&d->matcher, ev->code, ev->name.ptr, ev->name.len, &hits,
						   &shown);
	bool family = ev->code < SLOTS_CODES && d->family[ev->code];

	if (!slots && !family)
		return;
	/* the strings only for markers a tracer is on (their SDT semaphores):
	 * a marker nobody probes is a nop, and formatting for it was most of
	 * what an event cost the bridge */
	bool probed = family && markers_family_probed(ev->code);
	for (unsigned w = 0; slots && !probed && w < SLOTS_WORDS; w++)
		for (uint64_t bits = hits.w[w]; bits && !probed; bits &= bits - 1)
			probed = markers_slot_probed(w * 64 + (unsigned)__builtin_ctzll(bits));
	if (!probed)
		return;
	markers_fill_args_shown(d->buf, d->cap, m, ev, &shown, &a);
	if (slots)
		for (unsigned w = 0; w < SLOTS_WORDS; w++)
			for (uint64_t bits = hits.w[w]; bits; bits &= bits - 1)
				markers_fire_slot(w * 64 + (unsigned)__builtin_ctzll(bits), &a);
	if (family)
		markers_fire_family(ev->code, &a);
}
