/* dispatch.h: firing the SDT markers for decoded events (`--fire`).
 *
 * Contract: dispatch_event() fires, for one event, slotN for every slot
 * whose kind, event type and pattern match it, in slot order, and then the
 * family marker when the event is of a family whose switch is on (--gc,
 * --threads, --monitors, --vm; lost always). The arguments are those of
 * doc/markers.md; the strings are formatted into the dispatch's own buffer
 * right before the markers fire, only when at least one will, and once per
 * event whatever the number of slots. When it returns every marker's
 * handler has run, so the caller may acknowledge the event. Nothing here
 * logs or fails once initialised (a string that cannot be formatted is "").
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

/* M: the pid as the bridge sees it, the host's tid, session 0. */
void dispatch_event(struct dispatch *d, const struct marker_meta *m, const struct wire_event *ev);

#endif
