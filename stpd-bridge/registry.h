/* registry.h: what the command line asks the agents for, and which decoded
 * events that selects.
 *
 * Contract: a registry holds compiled method / class / exception patterns,
 * each with the event types wanted (enum wire_event_bits of its kind), the
 * GC / thread / monitor / VM switches and the optional-data mask. It is
 * filled once at start-up (registry_add) and read-only afterwards, so workers
 * share it after fork. registry_wants() is the bridge-side filter: it is
 * what makes an Appendix-only agent (which gets every event type of a
 * pattern) behave as if it understood per-type registration. Probe slots
 * (slots.h) add their patterns here too, and match them per slot
 * themselves. Functions return 0 or a negative errno.
 */
#ifndef STPD_BRIDGE_REGISTRY_H
#define STPD_BRIDGE_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "pattern.h"
#include "wire.h"

struct registry_entry {
	uint8_t kind;         /* enum wire_kind */
	uint8_t events;       /* enum wire_event_bits of that kind, never 0 */
	struct pattern pat;   /* compiled; pattern_text() is what is sent */
};

struct registry {
	struct registry_entry *entries;
	size_t n;
	event_family_set families; /* EVENT_FAMILY_BIT()s switched on (events.h) */
	uint32_t opt_mask;    /* WIRE_OPT_* */
	bool sync;            /* synchronous dispatch requested */
	uint32_t sync_timeout_us;
	/* --jfr: the JFR event types wanted, one jfrspec.h entry a line (the
	 * JfrSettings text); NULL: none */
	char *jfr;
	size_t jfr_len, jfr_entries;
	int8_t *jfr_slots;    /* per entry: its --jfr-slot (0..63), -1 none */
};

/* java.jfr probe points of one script: bit N of the jfr marker's $arg10 */
#define REGISTRY_JFR_SLOTS 64

void registry_init(struct registry *r);
void registry_free(struct registry *r);

/* Compile TEXT as a pattern of KIND (method patterns as PATTERN_METHOD,
 * class and exception ones as PATTERN_CLASS) and add it with EVENTS.
 * -EINVAL / -ENAMETOOLONG: ERR holds pattern_compile's message. */
int registry_add(struct registry *r, uint8_t kind, uint8_t events, const char *text,
		 char *err, size_t errlen);

/* Does the registry select EV? Lost is always wanted; Hello and ThreadName
 * are bookkeeping and never "wanted" as lines. */
bool registry_wants(const struct registry *r, const struct wire_event *ev);
/* The same, and HITS[i] (r->n of them) counts the events entry i selects. */
bool registry_wants_counted(const struct registry *r, const struct wire_event *ev, uint64_t *hits);
/* The same, with root method patterns ("^C.m") also selecting the classes
 * DESCENDS says descend from C (pattern_match_method_via). */
bool registry_wants_via(const struct registry *r, const struct wire_event *ev, uint64_t *hits,
			pattern_descends_fn descends, void *ctx);
/* For an event code without a pattern (GC, VM, thread, monitor, Lost): 1 when
 * its switch is on, 0 when off; -1 for the codes patterns select. */
int registry_family_wanted(const struct registry *r, unsigned code);

static inline bool registry_family_on(const struct registry *r, enum event_family f)
{
	return r->families & EVENT_FAMILY_BIT(f);
}

/* Check SPEC, one jfrspec.h entry, and add it to the JFR wishes, for
 * --jfr-slot SLOT (-1: none). -EINVAL: ERR says why; -ENOMEM. */
int registry_add_jfr(struct registry *r, const char *spec, size_t len, int slot, char *err, size_t errlen);
/* --jfr-types: every JFR wish with "enabled=false" last, so that the
 * agent's recording (whose metadata, written at its first flush, lists
 * the types) records none. */
int registry_jfr_disable(struct registry *r);
/* True when nothing at all is registered. */
bool registry_is_empty(const struct registry *r);

#endif
