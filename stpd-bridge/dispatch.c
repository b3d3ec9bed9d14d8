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

bool dispatch_wanted(struct dispatch *d, const struct wire_event *ev, struct dispatch_hits *h)
{
	h->slots_hit = ev->by_id ? slots_match_method_id(&d->matcher, ev->code, ev->method_id, ev->name.ptr,
							 ev->name.len, &h->slots, &h->shown)
				 : slots_match_shown(&d->matcher, ev->code, ev->name.ptr, ev->name.len,
						     &h->slots, &h->shown);
	h->family = ev->code < SLOTS_CODES && d->family[ev->code];
	/* the strings only for markers a tracer is on (their SDT semaphores):
	 * a marker nobody probes is a nop, and formatting for it was most of
	 * what an event cost the bridge */
	return (h->family && markers_family_probed(ev->code)) ||
	       (h->slots_hit && markers_slots_probed(h->slots.w));
}

void dispatch_fire(struct dispatch *d, const struct marker_meta *m, const struct wire_event *ev,
		   const struct dispatch_hits *h)
{
	struct marker_args a;

	markers_fill_args_shown(d->buf, d->cap, m, ev, &h->shown, &a);
	if (h->slots_hit)
		for (unsigned w = 0; w < SLOTS_WORDS; w++)
			for (uint64_t bits = h->slots.w[w]; bits; bits &= bits - 1)
				markers_fire_slot(w * 64 + (unsigned)__builtin_ctzll(bits), &a);
	if (h->family)
		markers_fire_family(ev->code, &a);
}
