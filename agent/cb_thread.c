/* cb_thread.c: ThreadStart, ThreadEnd -> ThreadName (0x96) then 0x87 / 0x88;
 * and the names of the threads already running when a connection switches
 * thread events on. */
#include <pthread.h>
#include <stdatomic.h>

#include "callbacks.h"
#include "capture.h"
#include "conn.h"
#include "jvmti_family.h"
#include "log.h"
#include "mutf8.h"
#include "osthread.h"

/* THREAD's Thread.getId(), read from its `tid` field (JDK 17 to 25) so that
 * no Java code runs inside a callback; 0 when the field is not there. Only
 * where JNI may be called: ThreadStart/End, the I/O thread. */
static uint64_t java_thread_id(JNIEnv *jni, jthread thread)
{
	static _Atomic(jfieldID) tid_field;
	static atomic_bool looked;
	jfieldID f = atomic_load(&tid_field);

	if (!f && !atomic_load(&looked)) {
		jclass k = (*jni)->FindClass(jni, "java/lang/Thread");
		f = k ? (*jni)->GetFieldID(jni, k, "tid", "J") : NULL;
		if (!f) {
			(*jni)->ExceptionClear(jni);
			sj_info("java.lang.Thread has no field tid: threads go without their Java id");
		}
		if (k)
			(*jni)->DeleteLocalRef(jni, k);
		atomic_store(&tid_field, f);
		atomic_store(&looked, true);
	}
	return f && thread ? (uint64_t)(*jni)->GetLongField(jni, thread, f) : 0;
}

static void thread_event(JNIEnv *jni, jthread thread, unsigned code)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiThreadInfo info;
	struct emission em;
	struct scratch *s = emission_begin(&em, true);

	if (!s)
		return;
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
		s->ev.java_tid = java_thread_id(jni, thread);
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
	s->ev.java_tid = 0;
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

static void JNICALL thread_start(jvmtiEnv *jv, JNIEnv *jni, jthread thread)
{
	thread_event(jni, thread, WIRE_EV_THREAD_START);
}

static void JNICALL thread_end(jvmtiEnv *jv, JNIEnv *jni, jthread thread)
{
	thread_event(jni, thread, WIRE_EV_THREAD_END);
}

static void thread_callbacks(jvmtiEventCallbacks *cb)
{
	cb->ThreadStart = thread_start;
	cb->ThreadEnd = thread_end;
}

static const struct jvmti_family_event thread_events[] = {
	{ JVMTI_EVENT_THREAD_START, "ThreadStart", WIRE_EV_THREAD_START },
	{ JVMTI_EVENT_THREAD_END, "ThreadEnd", WIRE_EV_THREAD_END },
};

/* ThreadStart and ThreadEnd need no capability */
const struct jvmti_family jvmti_family_threads = {
	EVENT_FAMILY_THREADS, thread_events, sizeof thread_events / sizeof thread_events[0], NULL,
	thread_callbacks,
};

/* A thread that started before the connection switched thread events on
 * has had no ThreadStarted: without this, a recording (JFR's threads, the
 * seed formats' THREAD_DEFINE) or a --print line would never name it unless
 * it ends while the session lasts. The names go out on the I/O thread, as
 * ThreadName events of each thread's OS tid (osthread.h: 0, so skipped, on
 * a JVM that does not say). */
void threads_name_live(struct conn *c, JNIEnv *jni)
{
	jvmtiEnv *jv = agent.jvmti;
	static struct wire_event ev;   /* I/O thread only */
	jint n = 0;
	jthread *threads = NULL;
	unsigned named = 0;

	if (!conn_ext(c) || (*jv)->GetAllThreads(jv, &n, &threads) != JVMTI_ERROR_NONE)
		return;
	const int self = atomic_load(&agent.io_tid);
	for (jint i = 0; i < n; i++) {
		jvmtiThreadInfo info;
		uint32_t tid = osthread_tid(jni, threads[i]);

		memset(&info, 0, sizeof(info));
		if (tid && (int)tid != self &&
		    (*jv)->GetThreadInfo(jv, threads[i], &info) == JVMTI_ERROR_NONE) {
			memset(&ev, 0, offsetof(struct wire_event, values));
			ev.code = WIRE_EV_THREAD_NAME;
			ev.thread = tid;
			ev.java_tid = java_thread_id(jni, threads[i]);
			ev.name.ptr = info.name ? info.name : "";
			ev.name.len = info.name
				? (uint32_t)mutf8_to_utf8(info.name, strlen(info.name), MUTF8_TEXT) : 0;
			if (ev.name.len > WIRE_MAX_STRING)
				ev.name.len = WIRE_MAX_STRING;
			ev.has_trailer = true;
			ev.trailer.timestamp_ns = agent_now_ns();
			pthread_mutex_lock(&c->lock);
			named += conn_queue_locked(c, &ev) == 0;
			pthread_mutex_unlock(&c->lock);
		}
		if (info.name)
			(*jv)->Deallocate(jv, (unsigned char *)info.name);
		if (info.thread_group)
			(*jni)->DeleteLocalRef(jni, info.thread_group);
		if (info.context_class_loader)
			(*jni)->DeleteLocalRef(jni, info.context_class_loader);
		(*jni)->DeleteLocalRef(jni, threads[i]);
	}
	(*jv)->Deallocate(jv, (unsigned char *)threads);
	sj_info("conn#%u: the names of %u running threads sent", c->serial, named);
}
