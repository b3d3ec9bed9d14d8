/* cb_thread.c: ThreadStart, ThreadEnd -> ThreadName (0x96) then 0x87 / 0x88. */
#include "callbacks.h"
#include "capture.h"
#include "conn.h"
#include "mutf8.h"

static void thread_event(JNIEnv *jni, jthread thread, unsigned code)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiThreadInfo info;
	struct emission em;

	if (atomic_load(&agent.dying))
		return;
	struct scratch *s = scratch_enter();
	if (!s)
		return;
	emission_init(&em, s, true);
	if ((int)em.tid == atomic_load(&agent.io_tid))
		goto out;   /* our own I/O thread is not the application's */
	emit_want_family(&em.want, EVENT_FAMILY_THREADS);
	if (!em.want.conns)
		goto out;
	memset(&info, 0, sizeof(info));
	bool have_info = (*jv)->GetThreadInfo(jv, thread, &info) == JVMTI_ERROR_NONE;
	if (have_info) {
		/* ThreadName first, so a bridge always knows the name of a thread it hears of */
		s->ev.code = WIRE_EV_THREAD_NAME;
		s->ev.thread = em.tid;
		/* a String, in modified UTF-8: sent as a String value is (a NUL
		 * is a 0 byte on the wire, where strings have a length) */
		s->ev.name.ptr = info.name ? info.name : "";
		s->ev.name.len = info.name
			? (uint32_t)mutf8_to_utf8(info.name, strlen(info.name), MUTF8_TEXT) : 0;
		if (s->ev.name.len > WIRE_MAX_STRING)
			s->ev.name.len = WIRE_MAX_STRING;
		/* in-thread markers have the name themselves */
		em.thread_name = s->ev.name.ptr;
		em.thread_name_len = s->ev.name.len;
		bool wait = em.may_wait;
		em.may_wait = false;  /* one Ack wait per Java event: on the event itself */
		emit(&em);
		em.may_wait = wait;
	}
	s->ev.code = code;
	s->ev.thread = em.tid;
	s->ev.name.ptr = NULL;
	s->ev.name.len = 0;
	emission_capture_stack(&em, s, thread);
	emit(&em);
	if (have_info) {
		(*jv)->Deallocate(jv, (unsigned char *)info.name);
		if (info.thread_group)
			(*jni)->DeleteLocalRef(jni, info.thread_group);
		if (info.context_class_loader)
			(*jni)->DeleteLocalRef(jni, info.context_class_loader);
	}
out:
	scratch_leave();
}

void JNICALL cb_thread_start(jvmtiEnv *jv, JNIEnv *jni, jthread thread)
{
	thread_event(jni, thread, WIRE_EV_THREAD_START);
}

void JNICALL cb_thread_end(jvmtiEnv *jv, JNIEnv *jni, jthread thread)
{
	thread_event(jni, thread, WIRE_EV_THREAD_END);
}
