/* cb_gc.c: GarbageCollectionStart/Finish -> 0x91 / 0x92.
 *
 * These run in the VM thread at a safepoint: JVMTI allows only raw monitors
 * and memory functions there, so this path makes no JNI/JVMTI call and
 * never waits for an Ack (the events never carry TF_SYNC).
 */
#include "callbacks.h"
#include "conn.h"
#include "jvmti_family.h"

static void gc_event(unsigned code)
{
	struct emission em;
	struct scratch *s = emission_begin(&em, false);

	if (!s)
		return;
	emit_want_family(&em.want, EVENT_FAMILY_GC);
	if (em.want.conns) {
		s->ev.code = code;
		emit(&em);
	}
	scratch_leave();
}

static void JNICALL gc_start(jvmtiEnv *jv)
{
	gc_event(WIRE_EV_GC_START);
}

static void JNICALL gc_finish(jvmtiEnv *jv)
{
	gc_event(WIRE_EV_GC_FINISH);
}

static void gc_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	w->can_generate_garbage_collection_events = p->can_generate_garbage_collection_events;
}

static void gc_callbacks(jvmtiEventCallbacks *cb)
{
	cb->GarbageCollectionStart = gc_start;
	cb->GarbageCollectionFinish = gc_finish;
}

static const struct jvmti_family_event gc_events[] = {
	{ JVMTI_EVENT_GARBAGE_COLLECTION_START, "GarbageCollectionStart", WIRE_EV_GC_START },
	{ JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, "GarbageCollectionFinish", WIRE_EV_GC_FINISH },
};

const struct jvmti_family jvmti_family_gc = {
	EVENT_FAMILY_GC, gc_events, sizeof gc_events / sizeof gc_events[0], gc_capabilities, gc_callbacks,
};
