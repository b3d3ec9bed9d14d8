/* cb_monitor.c: MonitorContendedEnter/Entered, MonitorWait/Waited -> 0x89..0x8C. */
#include "callbacks.h"
#include "capture.h"
#include "conn.h"

/* MonitorWaited does not carry the timeout: remember MonitorWait's. A thread
 * waits on one object at a time, so one slot per thread is enough. */
static __thread uint32_t last_wait_timeout;

static void monitor_event(jthread thread, jobject object, unsigned code, uint32_t timeout,
			  uint8_t tflags)
{
	struct emission em;

	if (atomic_load(&agent.dying))
		return;
	struct scratch *s = scratch_enter();
	if (!s)
		return;
	emission_init(&em, s, true);
	emit_want_family(&em.want, EVENT_FAMILY_MONITORS);
	if (em.want.conns) {
		s->ev.code = code;
		s->ev.thread = em.tid;
		s->ev.object = capture_object_id(object);
		s->ev.u32 = timeout;
		em.tflags = tflags;
		emission_capture_stack(&em, s, thread);
		emit(&em);
	}
	scratch_leave();
}

void JNICALL cb_monitor_contended_enter(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object)
{
	monitor_event(thread, object, WIRE_EV_MONITOR_ENTER, 0, 0);
}

void JNICALL cb_monitor_contended_entered(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object)
{
	monitor_event(thread, object, WIRE_EV_MONITOR_ENTERED, 0, 0);
}

void JNICALL cb_monitor_wait(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object, jlong timeout)
{
	uint32_t ms = timeout < 0 ? 0 : timeout > (jlong)UINT32_MAX ? UINT32_MAX : (uint32_t)timeout;

	last_wait_timeout = ms;
	monitor_event(thread, object, WIRE_EV_MONITOR_WAIT, ms, 0);
}

void JNICALL cb_monitor_waited(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object,
			       jboolean timed_out)
{
	monitor_event(thread, object, WIRE_EV_MONITOR_WAITED, last_wait_timeout,
		      timed_out ? WIRE_TF_TIMED_OUT : 0);
}
