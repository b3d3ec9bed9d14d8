/* cb_gc.c: GarbageCollectionStart/Finish -> 0x91 / 0x92.
 *
 * These run in the VM thread at a safepoint: JVMTI allows only raw monitors
 * and memory functions there, so this path makes no JNI/JVMTI call and
 * never waits for an Ack (the events never carry TF_SYNC).
 */
#include "callbacks.h"
#include "conn.h"

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

void JNICALL cb_gc_start(jvmtiEnv *jv)
{
	gc_event(WIRE_EV_GC_START);
}

void JNICALL cb_gc_finish(jvmtiEnv *jv)
{
	gc_event(WIRE_EV_GC_FINISH);
}
