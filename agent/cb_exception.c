/* cb_exception.c: Exception, ExceptionCatch -> 0x85, 0x86. */
#include "callbacks.h"
#include "capture.h"
#include "conn.h"
#include "inject.h"
#include "mcache.h"

static void exception_event(JNIEnv *jni, jthread thread, jmethodID method, jlocation location,
			    jobject exception, unsigned code, uint8_t bit)
{
	jvmtiEnv *jv = agent.jvmti;
	char *sig = NULL;

	/* the handler that reports a method's exceptional exit catches and
	 * rethrows: not the program's own exception events */
	if (atomic_load(&agent.dying) || !exception ||
	    inject_own_handler(method, location, code == WIRE_EV_EXCEPTION_THROWN))
		return;
	jclass cls = (*jni)->GetObjectClass(jni, exception);
	if (!cls)
		return;
	size_t len;
	if (agent_class_signature(cls, &sig, &len) < 0) {
		(*jni)->DeleteLocalRef(jni, cls);
		return;
	}
	(*jni)->DeleteLocalRef(jni, cls);
	struct want want;
	/* matched before emit_want() takes the connections' locks, which it
	 * holds only to read the answer */
	struct class_wants cw;
	conns_match_class(&cw, WIRE_KIND_EXCEPTION, bit, sig, len, &want.fire);
	emit_want(&want, conn_class_wanted, &cw, false);
	if (want.conns) {
		const struct mentry *m = method ? mcache_entry(method) : NULL;
		struct emission em;
		struct scratch *s = emission_begin(&em, true);
		if (s) {
			em.want = want;
			s->ev.code = code;
			s->ev.name.ptr = sig;
			s->ev.name.len = (uint32_t)len;
			s->ev.thread = em.tid;
			s->ev.method.ptr = m ? m->name : "";
			s->ev.method.len = m ? m->name_len : 0;
			emission_capture_stack(&em, s, thread);
			emit(&em);
			scratch_leave();
		}
	}
	(*jv)->Deallocate(jv, (unsigned char *)sig);
}

void JNICALL cb_exception(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			  jlocation location, jobject exception, jmethodID catch_method,
			  jlocation catch_location)
{
	exception_event(jni, thread, method, location, exception, WIRE_EV_EXCEPTION_THROWN,
			WIRE_EXCEPTION_THROWN);
}

void JNICALL cb_exception_catch(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
				jlocation location, jobject exception)
{
	exception_event(jni, thread, method, location, exception, WIRE_EV_EXCEPTION_CATCH,
			WIRE_EXCEPTION_CATCH);
}
