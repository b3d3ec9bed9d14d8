/* cb_class.c: ClassLoad, ClassPrepare -> 0x83, 0x84; class unload -> 0x95.
 *
 * JVMTI has no standard class-unload event. We tag the java.lang.Class
 * object of every class a connection registered for unload (at ClassPrepare,
 * and for classes already loaded when the registration arrives) and report
 * the unload when ObjectFree fires for that tag: the Class object dies
 * exactly when its class is unloaded. ObjectFree may run in a GC context, so
 * that path makes no JNI or JVMTI call and never waits.
 */
#include <pthread.h>
#include <stdlib.h>

#include "fallback.h"
#include "inject.h"
#include "callbacks.h"
#include "jvmti_events.h"
#include "capture.h"
#include "conn.h"
#include "lineage.h"
#include "lineage_jvm.h"

/* Which connections want event BIT of class SIG: matched before emit_want()
 * takes their locks, which it holds only to read the answer. */
static void want_class(struct want *want, const char *sig, size_t len, uint8_t bit, bool ext_only)
{
	struct class_wants cw;

	conns_match_class(&cw, WIRE_KIND_CLASS, bit, sig, len, &want->fire);
	emit_want(want, conn_class_wanted, &cw, ext_only);
}

/* ---- unload tracking: tag -> signature */
struct tracked {
	jlong tag;
	char *sig;
};
static pthread_mutex_t unload_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tracked *tracked;
static size_t ntracked, tracked_cap;

static void track(jlong tag, const char *sig)
{
	pthread_mutex_lock(&unload_lock);
	for (size_t i = 0; i < ntracked; i++)
		if (tracked[i].tag == tag)
			goto out;
	if (ntracked == tracked_cap) {
		size_t cap = tracked_cap ? tracked_cap * 2 : 64;
		struct tracked *n = realloc(tracked, cap * sizeof(*n));
		if (!n)
			goto out;
		tracked = n;
		tracked_cap = cap;
	}
	char *copy = strdup(sig);
	if (copy)
		tracked[ntracked++] = (struct tracked){ tag, copy };
out:
	pthread_mutex_unlock(&unload_lock);
}

static void track_if_wanted(jclass klass, const char *sig)
{
	struct want want;
	want_class(&want, sig, strlen(sig), WIRE_CLASS_UNLOAD, true);
	if (!want.conns)
		return;
	jlong tag = (jlong)capture_object_id(klass);
	if (tag)
		track(tag, sig);
}

static int track_loaded(void *ctx, JNIEnv *jni, jclass klass, const char *sig)
{
	track_if_wanted(klass, sig);
	return 0;
}

void unload_track_loaded(JNIEnv *jni)
{
	if (agent.caps.can_tag_objects && agent.caps.can_generate_object_free_events)
		agent_each_prepared_class(jni, true, track_loaded, NULL);
}

void JNICALL cb_object_free(jvmtiEnv *jv, jlong tag)
{
	char *sig = NULL;

	pthread_mutex_lock(&unload_lock);
	for (size_t i = 0; i < ntracked; i++)
		if (tracked[i].tag == tag) {
			sig = tracked[i].sig;
			tracked[i] = tracked[--ntracked];
			break;
		}
	pthread_mutex_unlock(&unload_lock);
	if (!sig)
		return;
	struct emission em;
	struct scratch *s = emission_begin(&em, false);
	if (s) {
		size_t len = strlen(sig);
		want_class(&em.want, sig, len, WIRE_CLASS_UNLOAD, true);
		s->ev.code = WIRE_EV_CLASS_UNLOAD;
		s->ev.name.ptr = sig;
		s->ev.name.len = (uint32_t)len;
		if (em.want.conns)
			emit(&em);
		scratch_leave();
	}
	free(sig);
}

/* ---- load and prepare */
static void class_event(JNIEnv *jni, jclass klass, unsigned code, uint8_t bit, bool prepared)
{
	jvmtiEnv *jv = agent.jvmti;
	char *sig = NULL;
	size_t len;

	if (atomic_load(&agent.dying) || agent_class_signature(klass, &sig, &len) < 0)
		return;
	struct emission em;
	struct scratch *s = emission_begin(&em, true);
	if (!s)
		goto out;
	want_class(&em.want, sig, len, bit, false);
	if (em.want.conns) {
		s->ev.code = code;
		s->ev.name.ptr = sig;
		s->ev.name.len = (uint32_t)len;
		s->ev.thread = em.tid;
		emission_capture_stack(&em, s, NULL);
		emit(&em);
	}
	scratch_leave();
	if (prepared && agent.caps.can_generate_object_free_events)
		track_if_wanted(klass, sig);
	/* before its methods are matched, and before any of its code runs */
	if (prepared && lineage_wanted()) {
		lineage_learn(jni, klass, sig);
		lineage_tell(sig, true);
	}
	if (prepared && !events_updating_here()) {
		inject_class_prepared(jni, klass, sig);
		/* methods injected calls do not cover: a breakpoint or MethodExit may have to go on */
		if (fallback_class_prepared(jni, klass, sig))
			events_fallback_changed();
	}
out:
	(*jv)->Deallocate(jv, (unsigned char *)sig);
}

void JNICALL cb_class_load(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jclass klass)
{
	class_event(jni, klass, WIRE_EV_CLASS_LOAD, WIRE_CLASS_LOAD, false);
}

void JNICALL cb_class_prepare(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jclass klass)
{
	class_event(jni, klass, WIRE_EV_CLASS_PREPARE, WIRE_CLASS_PREPARE, true);
}
