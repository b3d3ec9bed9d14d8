/* jvmti_family.h: a switched event family's JVMTI side, described once, in the family's own file.
 *
 * Why: a family (threads, monitors, GC; the JFR issues add more) is a
 * switch command and events in the table of events (runtime/events.h),
 * and, in the agent, the JVMTI events it needs on, the capabilities they
 * take and the callbacks that turn them into wire events. Those three were
 * spread over jvmti_events.c's lists; now adding a family touches the table
 * and its own cb_<family>.c, and names it once in jvmti_events.c's list.
 *
 * Contract: each cb_<family>.c defines one struct jvmti_family. Its events
 * are on exactly while some open connection wants the family
 * (conn_wants_family), each named in the log and, if the VM refuses it, in a
 * Notice under its wire event's label. WANT_CAPABILITIES (NULL: none) sets
 * in *WANT what the events need, from what the VM can give; SET_CALLBACKS
 * puts the family's callbacks into the table given to SetEventCallbacks.
 * Callbacks obey callbacks.h.
 */
#ifndef STAPJAVA_AGENT_JVMTI_FAMILY_H
#define STAPJAVA_AGENT_JVMTI_FAMILY_H

#include <jvmti.h>
#include <stddef.h>

#include "events.h"

struct jvmti_family_event {
	jvmtiEvent event;
	const char *name;        /* in the log: "ThreadStart" */
	unsigned code;           /* the wire event it becomes (its label in a Notice) */
};

struct jvmti_family {
	enum event_family family;
	const struct jvmti_family_event *events;
	size_t nevents;
	void (*want_capabilities)(jvmtiCapabilities *want, const jvmtiCapabilities *potential);
	void (*set_callbacks)(jvmtiEventCallbacks *cb);
};

extern const struct jvmti_family jvmti_family_threads;   /* cb_thread.c */
extern const struct jvmti_family jvmti_family_monitors;  /* cb_monitor.c */
extern const struct jvmti_family jvmti_family_gc;        /* cb_gc.c */

#endif
