/* dispatch.h: firing the SDT markers for decoded events (`--fire`).
 *
 * Contract: for one event, dispatch_wanted() finds the markers it fires:
 * slotN for every slot whose kind, event type and pattern match it, and the
 * family marker when the event is of a family whose switch is on (--gc,
 * --threads, --monitors, --vm; lost always); true when a tracer is on one
 * of them (its SDT semaphore). Only then need the caller make the event's
 * marker_meta and call dispatch_fire(), which fires them, the slots in slot
 * order, then the family's. The arguments are those of doc/markers.md; the
 * strings are formatted into the dispatch's own buffer right before the
 * markers fire, once per event whatever the number of slots. When
 * dispatch_fire() returns every marker's handler has run, so the caller
 * may acknowledge the event. Nothing here logs or fails once initialised
 * (a string that cannot be formatted is "").
 */
#ifndef STPD_BRIDGE_DISPATCH_H
#define STPD_BRIDGE_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "markers.h"
#include "registry.h"
#include "slots.h"
#include "wire.h"


struct dispatch {
	const struct registry *reg;
	struct slot_matcher matcher;
	char *buf;                /* the strings of the markers being fired */
	size_t cap;
	bool family[SLOTS_CODES]; /* per event code: does its family marker fire? */
};

/* 0 or -ENOMEM. */
int dispatch_init(struct dispatch *d, const struct registry *reg, const struct slot_table *slots);
void dispatch_free(struct dispatch *d);

/* The markers one event fires, as dispatch_wanted() found them. */
struct dispatch_hits {
	struct slot_set slots;
	bool slots_hit;           /* any bit in slots */
	bool family;              /* the family marker */
	struct wire_str shown;    /* the name as $arg5 has it, from the matcher's cache */
};

/* Does EV fire a marker a tracer is on? *H: what it fires, for dispatch_fire(). */
bool dispatch_wanted(struct dispatch *d, const struct wire_event *ev, struct dispatch_hits *h);
/* Fire H's markers for EV. M: the pid as the bridge sees it, the host's
 * tid, session 0. */
void dispatch_fire(struct dispatch *d, const struct marker_meta *m, const struct wire_event *ev,
		   const struct dispatch_hits *h);

#endif
