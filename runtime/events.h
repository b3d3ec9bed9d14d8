/* events.h: the one description of every event code the agent sends.
 *
 * Contract: STAPJAVA_EVENTS(X) lists each event once -- its wire code, its
 * name as the seed spells it, the label --print lines and scripts use, how a
 * bridge selects it (a family switch, or a registration kind and event bit),
 * its family marker, the capabilities a stream needs to carry it, and its
 * payload's fields -- and everything else reads it: the wire codec,
 * wire_event_name(), print_event_label(), the bridge's registry and slots,
 * markers.c's family marker sites (an X-macro, since an SDT marker's name
 * is a literal in its note), the tapset's family aliases (written at build
 * time by tapset/gen-tapset, with the variables of sj_emit.c).
 * events_get() is the table at run time: NULL for a code that is no event.
 * Adding an event or a family touches this list and its own code.
 */
#ifndef STAPJAVA_EVENTS_H
#define STAPJAVA_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* How a bridge selects an event. */
enum event_family {
	EVENT_BY_PATTERN = 0,  /* a registration of the event's kind and bit */
	EVENT_FAMILY_GC,       /* --gc (GcEvents) */
	EVENT_FAMILY_VM,       /* --vm (VmEvents) */
	EVENT_FAMILY_THREADS,  /* --threads (ThreadEvents) */
	EVENT_FAMILY_MONITORS, /* --monitors (MonitorEvents) */
	EVENT_ALWAYS,          /* Lost: whatever is registered */
	EVENT_BOOKKEEPING,     /* Hello, ThreadName, Notice: no line, no marker */
	/* JfrData: --jfr (JfrSettings). Its bytes are no event: the bridge
	 * fires the marker once per JFR event they hold (doc/markers.md) */
	EVENT_FAMILY_JFR,
	EVENT_FAMILY_END       /* not a family: how many there are */
};

/* The fields an event's payload is made of, in wire order. Each has one
 * place in a decoded event (struct wire_event), so the codec reads and
 * writes an event by walking its list (wire_decode.c, wire_encode.c);
 * PROTOCOL.md has each field's bytes. */
enum event_field {
	EF_END = 0,        /* the list's end */
	EF_METHOD_NAME,    /* string -> name */
	EF_CLASS_NAME,     /* string -> name */
	EF_EXCEPTION_NAME, /* string -> name */
	EF_THREAD_NAME,    /* string -> name */
	EF_NOTICE_TEXT,    /* string -> name */
	EF_MATCHED_NAME,   /* string -> name */
	EF_SITE_METHOD,    /* string -> method: where an exception was thrown or caught */
	EF_ROOT_CLASS,     /* string -> method: the root pattern's class */
	EF_THREAD,         /* u64 -> thread */
	EF_THREAD_U32,     /* u32 -> thread: ClassLoad's, the seed's 4 bytes */
	EF_OBJECT,         /* u64 -> object */
	EF_CODE_SIZE,      /* u32 -> u32 */
	EF_TIMEOUT_MS,     /* u32 -> u32 */
	EF_TOTAL,          /* u32 -> u32 */
	EF_METHOD_ID,      /* u32 -> method_id */
	EF_VALUES,         /* u8 n, n values -> nvalues, values */
	EF_POPPED,         /* bool -> popped */
	EF_RETVAL,         /* value -> retval */
	EF_RETVAL_TYPE,    /* u8 '?' or 'V' -> retval.type: an exit by number, no value */
	EF_LOST,           /* u64 -> lost */
	EF_KIND,           /* u8 enum wire_kind -> kind */
	EF_JFR_FLAGS,      /* u8 WIRE_JFR_* -> jfr_flags */
	EF_JFR_BYTES,      /* string -> name; none with WIRE_JFR_NONE */
	EF_HELLO,          /* magic, order, version, pid, caps, description -> hello */
	EF_JAVA_THREAD_ID, /* u64 -> java_tid, present only with WIRE_CAP_JAVA_THREAD_ID */
	/* u8 scope, u8 kind, u8 events, string subject -> notice_scope, kind,
	 * events, method; present only with WIRE_CAP_NOTICE_SUBJECT */
	EF_NOTICE_SUBJECT,
	EF_COUNT
};
/* The most fields an event has. */
#define EVENT_MAX_FIELDS 5

/* X(CODE, NAME, LABEL, FAMILY, KIND, BIT, HAS_MARKER, MARKER, CAPS, FIELDS):
 * HAS_MARKER is EVENT_MARKER (MARKER names the family marker) or
 * EVENT_NO_MARKER; CAPS, the capabilities a stream must have negotiated to
 * carry the event (0: any stream; Hello needs none, it is how negotiation
 * starts); FIELDS, its payload as a parenthesized list of enum event_field. */
#define STAPJAVA_EVENTS(X)                                                                          \
	X(WIRE_EV_METHOD_ENTER, "MethodEnter", "method.enter", EVENT_BY_PATTERN,                    \
	  WIRE_KIND_METHOD, WIRE_METHOD_ENTER, EVENT_NO_MARKER, _, 0,                               \
	  (EF_METHOD_NAME, EF_THREAD, EF_VALUES))                                                   \
	X(WIRE_EV_METHOD_EXIT, "MethodExit", "method.return", EVENT_BY_PATTERN,                     \
	  WIRE_KIND_METHOD, WIRE_METHOD_RETURN, EVENT_NO_MARKER, _, 0,                              \
	  (EF_METHOD_NAME, EF_THREAD, EF_POPPED, EF_RETVAL))                                        \
	X(WIRE_EV_METHOD_COMPILE, "MethodCompile", "method.compile", EVENT_BY_PATTERN,              \
	  WIRE_KIND_METHOD, WIRE_METHOD_COMPILE, EVENT_NO_MARKER, _, 0,                             \
	  (EF_METHOD_NAME, EF_CODE_SIZE, EF_VALUES))                                                \
	X(WIRE_EV_CLASS_LOAD, "ClassLoad", "class.load", EVENT_BY_PATTERN,                          \
	  WIRE_KIND_CLASS, WIRE_CLASS_LOAD, EVENT_NO_MARKER, _, 0, (EF_CLASS_NAME, EF_THREAD_U32))  \
	X(WIRE_EV_CLASS_PREPARE, "ClassPrepare", "class.prepare", EVENT_BY_PATTERN,                 \
	  WIRE_KIND_CLASS, WIRE_CLASS_PREPARE, EVENT_NO_MARKER, _, 0, (EF_CLASS_NAME, EF_THREAD))   \
	X(WIRE_EV_EXCEPTION_THROWN, "ExceptionThrown", "exception.thrown", EVENT_BY_PATTERN,        \
	  WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_THROWN, EVENT_NO_MARKER, _, 0,                        \
	  (EF_EXCEPTION_NAME, EF_THREAD, EF_SITE_METHOD))                                           \
	X(WIRE_EV_EXCEPTION_CATCH, "ExceptionCatch", "exception.catch", EVENT_BY_PATTERN,           \
	  WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_CATCH, EVENT_NO_MARKER, _, 0,                         \
	  (EF_EXCEPTION_NAME, EF_THREAD, EF_SITE_METHOD))                                           \
	X(WIRE_EV_THREAD_START, "ThreadStarted", "thread.start", EVENT_FAMILY_THREADS,              \
	  0, 0, EVENT_MARKER, thread_start, 0, (EF_THREAD))                                         \
	X(WIRE_EV_THREAD_END, "ThreadFinished", "thread.end", EVENT_FAMILY_THREADS,                 \
	  0, 0, EVENT_MARKER, thread_end, 0, (EF_THREAD))                                           \
	X(WIRE_EV_MONITOR_ENTER, "MonitorContendedEnter", "monitor.contended_enter",                \
	  EVENT_FAMILY_MONITORS, 0, 0, EVENT_MARKER, monitor_contended_enter, 0,                    \
	  (EF_THREAD, EF_OBJECT))                                                                   \
	X(WIRE_EV_MONITOR_ENTERED, "MonitorContendedEntered", "monitor.contended_entered",          \
	  EVENT_FAMILY_MONITORS, 0, 0, EVENT_MARKER, monitor_contended_entered, 0,                  \
	  (EF_THREAD, EF_OBJECT))                                                                   \
	X(WIRE_EV_MONITOR_WAIT, "MonitorWait", "monitor.wait", EVENT_FAMILY_MONITORS,               \
	  0, 0, EVENT_MARKER, monitor_wait, 0, (EF_THREAD, EF_OBJECT, EF_TIMEOUT_MS))               \
	X(WIRE_EV_MONITOR_WAITED, "MonitorWaited", "monitor.waited", EVENT_FAMILY_MONITORS,         \
	  0, 0, EVENT_MARKER, monitor_waited, 0, (EF_THREAD, EF_OBJECT, EF_TIMEOUT_MS))             \
	X(WIRE_EV_HELLO, "Hello", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _, 0, (EF_HELLO)) \
	X(WIRE_EV_GC_START, "GcStart", "gc.start", EVENT_FAMILY_GC, 0, 0, EVENT_MARKER, gc_start,   \
	  WIRE_CAP_EXT_EVENTS, ())                                                                  \
	X(WIRE_EV_GC_FINISH, "GcFinish", "gc.finish", EVENT_FAMILY_GC, 0, 0, EVENT_MARKER,          \
	  gc_finish, WIRE_CAP_EXT_EVENTS, ())                                                       \
	X(WIRE_EV_VM_INIT, "VmInit", "vm.init", EVENT_FAMILY_VM, 0, 0, EVENT_MARKER, vm_init,       \
	  WIRE_CAP_EXT_EVENTS, (EF_THREAD))                                                         \
	X(WIRE_EV_VM_DEATH, "VmDeath", "vm.death", EVENT_FAMILY_VM, 0, 0, EVENT_MARKER, vm_death,   \
	  WIRE_CAP_EXT_EVENTS, ())                                                                  \
	X(WIRE_EV_CLASS_UNLOAD, "ClassUnload", "class.unload", EVENT_BY_PATTERN,                    \
	  WIRE_KIND_CLASS, WIRE_CLASS_UNLOAD, EVENT_NO_MARKER, _, WIRE_CAP_EXT_EVENTS,              \
	  (EF_CLASS_NAME))                                                                          \
	X(WIRE_EV_THREAD_NAME, "ThreadName", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,     \
	  WIRE_CAP_EXT_EVENTS, (EF_THREAD, EF_THREAD_NAME, EF_JAVA_THREAD_ID))                      \
	X(WIRE_EV_LOST, "Lost", "lost", EVENT_ALWAYS, 0, 0, EVENT_MARKER, lost,                     \
	  WIRE_CAP_EXT_EVENTS, (EF_LOST))                                                           \
	X(WIRE_EV_NOTICE, "Notice", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,              \
	  WIRE_CAP_NOTICE, (EF_NOTICE_TEXT, EF_NOTICE_SUBJECT))                                     \
	X(WIRE_EV_MATCH, "Match", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,                \
	  WIRE_CAP_LIST, (EF_KIND, EF_MATCHED_NAME))                                                \
	X(WIRE_EV_MATCH_END, "MatchEnd", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,         \
	  WIRE_CAP_LIST, (EF_KIND, EF_TOTAL))                                                       \
	X(WIRE_EV_JFR_DATA, "JfrData", "jfr", EVENT_FAMILY_JFR, 0, 0, EVENT_MARKER, jfr,            \
	  WIRE_CAP_JFR, (EF_JFR_FLAGS, EF_JFR_BYTES))                                               \
	X(WIRE_EV_DESCENDS, "Descends", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,          \
	  WIRE_CAP_ROOTS, (EF_CLASS_NAME, EF_ROOT_CLASS))                                           \
	/* by number: a receiver makes them MethodEnter / MethodExit (methodids.h) */                \
	X(WIRE_EV_METHOD_NAME, "MethodName", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _,     \
	  WIRE_CAP_METHOD_IDS, (EF_METHOD_ID, EF_METHOD_NAME))                                      \
	X(WIRE_EV_METHOD_ENTER_ID, "MethodEnterId", NULL, EVENT_BOOKKEEPING, 0, 0,                  \
	  EVENT_NO_MARKER, _, WIRE_CAP_METHOD_IDS, (EF_METHOD_ID, EF_THREAD))                       \
	X(WIRE_EV_METHOD_EXIT_ID, "MethodExitId", NULL, EVENT_BOOKKEEPING, 0, 0, EVENT_NO_MARKER, _, \
	  WIRE_CAP_METHOD_IDS, (EF_METHOD_ID, EF_THREAD, EF_RETVAL_TYPE))                           \
	X(WIRE_EV_METHOD_ENTER_ID_VALUES, "MethodEnterIdValues", NULL, EVENT_BOOKKEEPING, 0, 0,     \
	  EVENT_NO_MARKER, _, WIRE_CAP_METHOD_IDS | WIRE_CAP_METHOD_ID_VALUES,                      \
	  (EF_METHOD_ID, EF_THREAD, EF_VALUES))                                                     \
	X(WIRE_EV_METHOD_EXIT_ID_VALUE, "MethodExitIdValue", NULL, EVENT_BOOKKEEPING, 0, 0,         \
	  EVENT_NO_MARKER, _, WIRE_CAP_METHOD_IDS | WIRE_CAP_METHOD_ID_VALUES,                      \
	  (EF_METHOD_ID, EF_THREAD, EF_POPPED, EF_RETVAL))

/* The families a switch selects: X(FAMILY, NAME, PROBE, SWITCH_COMMAND,
 * EXT_ONLY): NAME is the bridge's option (--NAME), PROBE the probe points'
 * second component (java.PROBE.*); EXT_ONLY, the agent reports them only to
 * a peer that negotiated extension events (GC and VM events are ours, not
 * the seed's). In the order the bridge sends the switches (VmEvents last). */
#define STAPJAVA_FAMILIES(X)                                                                        \
	X(EVENT_FAMILY_GC, "gc", "gc", WIRE_CMD_GC_EVENTS, true)                                    \
	X(EVENT_FAMILY_THREADS, "threads", "thread", WIRE_CMD_THREAD_EVENTS, false)                 \
	X(EVENT_FAMILY_MONITORS, "monitors", "monitor", WIRE_CMD_MONITOR_EVENTS, false)             \
	X(EVENT_FAMILY_VM, "vm", "vm", WIRE_CMD_VM_EVENTS, true)

struct family_desc {
	enum event_family family;
	const char *name;         /* "threads" */
	const char *probe;        /* "thread" */
	unsigned switch_command;  /* WIRE_CMD_THREAD_EVENTS */
	bool ext_only;
};

/* A set of families: bit F is family F. */
#define EVENT_FAMILY_BIT(f) (1u << (f))
typedef uint8_t event_family_set;
_Static_assert(EVENT_FAMILY_END <= 8 * sizeof(event_family_set),
	       "a family added to enum event_family needs a wider event_family_set");

/* The switched families, in the list's order; N_SWITCHED_FAMILIES of them. */
#define N_SWITCHED_FAMILIES 4u
extern const struct family_desc event_families[N_SWITCHED_FAMILIES];
/* Family F's description, NULL when F is no switched family. */
const struct family_desc *events_family(enum event_family f);
/* The family a switch command turns on and off, NULL for another command. */
const struct family_desc *events_family_of_switch(unsigned command);
/* The family named NAME ("gc"), NULL if none. */
const struct family_desc *events_family_by_name(const char *name);

struct event_desc {
	unsigned code;            /* enum wire_event_code */
	const char *name;         /* "MethodEnter" */
	const char *label;        /* "method.enter"; NULL: bookkeeping, no line */
	enum event_family family;
	uint8_t kind;             /* EVENT_BY_PATTERN: enum wire_kind; else 0 */
	uint8_t bit;              /* EVENT_BY_PATTERN: enum wire_event_bits; else 0 */
	const char *marker;       /* the family marker's name, NULL: none (slots only) */
	uint32_t caps;            /* WIRE_CAP_*: what a stream needs to carry it */
	uint8_t fields[EVENT_MAX_FIELDS + 1]; /* enum event_field, in wire order, to EF_END */
};

/* CODE's description, NULL when CODE is no event. */
const struct event_desc *events_get(unsigned code);
/* Is CODE an event of family F? */
static inline bool events_in_family(unsigned code, enum event_family f)
{
	const struct event_desc *d = events_get(code);

	return d && d->family == f;
}
/* Does the agent fire D's family marker too (in-thread dispatch)? The
 * switched families' events, in the Java thread; JfrData's jfr marker, in
 * the agent's own thread for the bridge that parsed the event (JfrEvent).
 * Lost is the bridge's alone, since in-thread dispatch loses nothing. */
static inline bool events_fired_in_thread(const struct event_desc *d)
{
	return d->marker && (events_family(d->family) || d->family == EVENT_FAMILY_JFR);
}
/* The event of a registration KIND and event BIT (one bit), NULL if none. */
const struct event_desc *events_by_kind_bit(uint8_t kind, uint8_t bit);
/* The word after the kind in D's label ("enter" of "method.enter"). */
const char *events_word(const struct event_desc *d);
/* KIND's Ith event in the list's order (enter, return, compile ...; the
 * first is the kind's default), NULL past its last. */
const struct event_desc *events_of_kind(uint8_t kind, size_t i);
/* The event of KIND whose word is WORD[0..LEN), NULL if none. */
const struct event_desc *events_by_kind_word(uint8_t kind, const char *word, size_t len);
/* The event labelled LABEL[0..LEN) ("class.load"), NULL if none. */
const struct event_desc *events_by_label(const char *label, size_t len);

#endif
