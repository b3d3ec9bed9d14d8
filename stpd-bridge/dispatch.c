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

/* Does the family marker of EV's code fire? */
static bool family_on(const struct registry *r, unsigned code)
{
	return registry_family_wanted(r, code) == 1;
}

void dispatch_event(struct dispatch *d, const struct marker_meta *m, const struct wire_event *ev)
{
	struct slot_set hits;
	struct marker_args a;
	bool slots = slots_match(&d->matcher, ev->code, ev->name.ptr, ev->name.len, &hits);
	bool family = family_on(d->reg, ev->code);

	if (!slots && !family)
		return;
	markers_fill_args(d->buf, d->cap, m, ev, &a);
	if (slots)
		for (unsigned w = 0; w < SLOTS_WORDS; w++)
			for (uint64_t bits = hits.w[w]; bits; bits &= bits - 1)
				markers_fire_slot(w * 64 + (unsigned)__builtin_ctzll(bits), &a);
	if (family)
		markers_fire_family(ev->code, &a);
}
