/* slots.h: the probe slots of `--slot N:KIND.EVENT:PATTERN` (doc/markers.md)
 * and which of them an event matches.
 *
 * Contract: a slot table is filled once at start-up (slots_add) and
 * read-only afterwards, so workers share it after fork. Each slot's pattern
 * lives in the registry as an ordinary entry (kind, one event bit, pattern),
 * so registrations and --print cover slots like -m/-c/-e. A slot_matcher is
 * per worker: slots_match() gives the set of slots an event selects, each
 * slot's pattern tested at most once per distinct (kind, name) thanks to a
 * bounded cache of results, which also keeps a matched name in the form the
 * markers show it. Nothing here logs; functions return 0, true /
 * false, or a negative errno.
 */
#ifndef STPD_BRIDGE_SLOTS_H
#define STPD_BRIDGE_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "markers.h"
#include "registry.h"

#define SLOTS_WORDS (MARKERS_SLOTS / 64u)

/* A set of slots: bit N of word N/64 is slot N. */
struct slot_set {
	uint64_t w[SLOTS_WORDS];
};

struct slot_table {
	unsigned n;                           /* slots in use */
	int entry[MARKERS_SLOTS];             /* registry entry index; -1: unused */
	struct slot_set of_type[4][3];        /* [wire_kind][event bit index] */
	struct slot_set of_kind[4];
};

void slots_init(struct slot_table *t);

/* Parse SPEC ("N:KIND.EVENT:PATTERN") and add it to T and REG. -EINVAL with
 * ERR saying what is wrong (bad number, N twice, unknown KIND.EVENT, the
 * pattern's fault), -ENOMEM. */
int slots_add(struct slot_table *t, struct registry *reg, const char *spec, char *err,
	      size_t errlen);

/* The registration kind and event bit of a decoded event's code; false for
 * events that take no pattern. */
bool slots_event_type(unsigned code, uint8_t *kind, uint8_t *bit);

struct slot_cache_entry;

/* Event codes are one byte on the wire. */
#define SLOTS_CODES 256u

struct slot_id_hint;

struct slot_matcher {
	const struct slot_table *t;
	const struct registry *reg;
	struct slot_cache_entry *cache;       /* SLOTS_CACHE_SIZE entries, or NULL */
	struct slot_cache_entry *last;        /* the entry of the last name looked up */
	/* by a method's number (CAP_METHOD_IDS): the entry its name found, no
	 * hash; below SLOTS_ID_HINTS, grown as numbers come */
	struct slot_id_hint *by_id;
	uint32_t by_id_cap;
	/* per event code, from the table at init: its kind when a slot has its
	 * kind and event type (0: none, so no name is looked at), and the
	 * index of that type in of_type[kind] */
	uint8_t code_kind[SLOTS_CODES];
	uint8_t code_type[SLOTS_CODES];
	/* root method patterns ("^C.m"): which classes descend from C
	 * (pattern_match_method_via); NULL at init: none */
	pattern_descends_fn descends;
	void *descends_ctx;
};

/* T must be complete (slots_add is done): the matcher keeps per event
 * code which kind and type have slots. 0 or -ENOMEM. */
int slots_matcher_init(struct slot_matcher *m, const struct slot_table *t,
		       const struct registry *reg);
void slots_matcher_free(struct slot_matcher *m);
/* What M's cache holds goes: DESCENDS has learnt of a class since. */
void slots_matcher_forget(struct slot_matcher *m);

/* The slots whose kind and event type are those of CODE and whose pattern
 * selects NAME[0..LEN) (a wire method name or a class signature), into
 * *OUT. True when there is at least one. */
bool slots_match(struct slot_matcher *m, unsigned code, const char *name, size_t len,
		 struct slot_set *out);
/* The same, and *SHOWN: NAME as the markers show it ($arg5: print_name()'s
 * form for a method, print_class()'s for a class or exception), kept with
 * the cached result so that it is not formatted at every event; {NULL, 0}
 * when none is kept (no slot matched, a long name). It stays valid until
 * the next call on M. */
bool slots_match_shown(struct slot_matcher *m, unsigned code, const char *name, size_t len,
		       struct slot_set *out, struct wire_str *shown);
/* The same for a method event that came by number (CAP_METHOD_IDS,
 * methodids.h): the number finds the cached entry its name found before,
 * without hashing the name, for numbers below SLOTS_ID_HINTS (4 MiB of hints
 * at most); NAME is looked up when there is none. */
#define SLOTS_ID_HINTS (1u << 18)
bool slots_match_method_id(struct slot_matcher *m, unsigned code, uint32_t id, const char *name,
			   size_t len, struct slot_set *out, struct wire_str *shown);
/* Number ID names another method now: what it found goes. */
void slots_forget_method_id(struct slot_matcher *m, uint32_t id);

#endif
