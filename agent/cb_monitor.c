/* cb_monitor.c: MonitorContendedEnter/Entered, MonitorWait/Waited -> 0x89..0x8C. */
#include "callbacks.h"
#include "capture.h"
#include "conn.h"
#include "jvmti_family.h"
#include "mutf8.h"
#include "osthread.h"

#include <string.h>

/* MonitorWaited does not carry the timeout: remember MonitorWait's. A thread
 * waits on one object at a time, so one slot per thread is enough. */
static __thread uint32_t last_wait_timeout;

/* Who holds OBJECT now: its OS tid (0 when unknown) and its name, into the
 * trailer. Asked only on a contended enter, where the thread is about to
 * block anyway: GetObjectMonitorUsage may stop the JVM at a safepoint. */
static void capture_owner(JNIEnv *jni, struct scratch *s, jobject object)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiMonitorUsage usage;
	jvmtiThreadInfo info;
	struct wire_trailer *t = &s->ev.trailer;

	if (!agent.caps.can_get_monitor_info ||
	    (*jv)->GetObjectMonitorUsage(jv, object, &usage) != JVMTI_ERROR_NONE)
		return;
	if (usage.owner) {
		t->owner_tid = osthread_tid(jni, usage.owner);
		if ((*jv)->GetThreadInfo(jv, usage.owner, &info) == JVMTI_ERROR_NONE) {
			size_t n = info.name ? strlen(info.name) : 0;
			char *copy = n ? scratch_alloc(s, n) : NULL;

			if (copy) {
				/* a thread's name is a Java String: modified UTF-8 here */
				memcpy(copy, info.name, n);
				n = mutf8_to_utf8(copy, n, MUTF8_TEXT);
				t->owner_name = (struct wire_str){ copy, (uint32_t)n };
			}
			(*jv)->Deallocate(jv, (unsigned char *)info.name);
			if (info.thread_group)
				(*jni)->DeleteLocalRef(jni, info.thread_group);
			if (info.context_class_loader)
				(*jni)->DeleteLocalRef(jni, info.context_class_loader);
		}
		(*jni)->DeleteLocalRef(jni, usage.owner);
	}
	(*jv)->Deallocate(jv, (unsigned char *)usage.waiters);
	(*jv)->Deallocate(jv, (unsigned char *)usage.notify_waiters);
}

/* The monitor's class, and for a contended enter its owner, when a wanting
 * connection asked for them (OPT_MONITOR). */
static void capture_monitor(JNIEnv *jni, struct emission *em, struct scratch *s, jobject object)
{
	struct wire_trailer *t = &s->ev.trailer;

	if (!(em->want.opt & WIRE_OPT_MONITOR))
		return;
	t->monitor_class = (struct wire_str){ "", 0 };
	t->owner_tid = 0;
	t->owner_name = (struct wire_str){ "", 0 };
	capture_class_of(jni, s, object, &t->monitor_class);
	if (s->ev.code == WIRE_EV_MONITOR_ENTER)
		capture_owner(jni, s, object);
	em->monitor_captured = true;
}

static void monitor_event(JNIEnv *jni, jthread thread, jobject object, unsigned code,
			  uint32_t timeout, uint8_t tflags)
{
	struct emission em;
	struct scratch *s = emission_begin(&em, true);

	if (!s)
		return;
	emit_want_family(&em.want, EVENT_FAMILY_MONITORS);
	if (em.want.conns) {
		s->ev.code = code;
		s->ev.thread = em.tid;
		s->ev.object = capture_object_id(object);
		s->ev.u32 = timeout;
		em.tflags = tflags;
		capture_monitor(jni, &em, s, object);
		emission_capture_stack(&em, s, thread);
		emit(&em);
	}
	scratch_leave();
}

static void JNICALL monitor_contended_enter(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object)
{
	monitor_event(jni, thread, object, WIRE_EV_MONITOR_ENTER, 0, 0);
}

static void JNICALL monitor_contended_entered(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object)
{
	monitor_event(jni, thread, object, WIRE_EV_MONITOR_ENTERED, 0, 0);
}

static void JNICALL monitor_wait(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object, jlong timeout)
{
	uint32_t ms = timeout < 0 ? 0 : timeout > (jlong)UINT32_MAX ? UINT32_MAX : (uint32_t)timeout;

	last_wait_timeout = ms;
	monitor_event(jni, thread, object, WIRE_EV_MONITOR_WAIT, ms, 0);
}

static void JNICALL monitor_waited(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jobject object,
				   jboolean timed_out)
{
	monitor_event(jni, thread, object, WIRE_EV_MONITOR_WAITED, last_wait_timeout,
		      timed_out ? WIRE_TF_TIMED_OUT : 0);
}

static void monitor_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	w->can_generate_monitor_events = p->can_generate_monitor_events;
	w->can_get_monitor_info = p->can_get_monitor_info;   /* a monitor's owner */
}

static void monitor_callbacks(jvmtiEventCallbacks *cb)
{
	cb->MonitorContendedEnter = monitor_contended_enter;
	cb->MonitorContendedEntered = monitor_contended_entered;
	cb->MonitorWait = monitor_wait;
	cb->MonitorWaited = monitor_waited;
}

static const struct jvmti_family_event monitor_events[] = {
	{ JVMTI_EVENT_MONITOR_CONTENDED_ENTER, "MonitorContendedEnter", WIRE_EV_MONITOR_ENTER },
	{ JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, "MonitorContendedEntered", WIRE_EV_MONITOR_ENTERED },
	{ JVMTI_EVENT_MONITOR_WAIT, "MonitorWait", WIRE_EV_MONITOR_WAIT },
	{ JVMTI_EVENT_MONITOR_WAITED, "MonitorWaited", WIRE_EV_MONITOR_WAITED },
};

const struct jvmti_family jvmti_family_monitors = {
	EVENT_FAMILY_MONITORS, monitor_events, sizeof monitor_events / sizeof monitor_events[0],
	monitor_capabilities, monitor_callbacks,
};
