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

struct class_want {
	const char *sig;
	size_t len;
	uint8_t bit;
	struct fire_set *fire;
};

static bool wants_class(const struct conn *c, const void *arg)
{
	const struct class_want *w = arg;

	if (!(c->ev_bits[WIRE_KIND_CLASS] & w->bit) ||
	    !(conn_match_class(c, WIRE_KIND_CLASS, w->sig, w->len) & w->bit))
		return false;
	conn_fire_class(c, WIRE_KIND_CLASS, w->bit, w->sig, w->len, w->fire);
	return true;
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
	struct class_want w = { sig, strlen(sig), WIRE_CLASS_UNLOAD, &want.fire };

	emit_want(&want, wants_class, &w, true);
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
	struct scratch *s = scratch_enter();
	if (s) {
		struct emission em;
		struct class_want w = { sig, strlen(sig), WIRE_CLASS_UNLOAD, &em.want.fire };
		emission_init(&em, s, false);
		emit_want(&em.want, wants_class, &w, true);
		s->ev.code = WIRE_EV_CLASS_UNLOAD;
		s->ev.name.ptr = sig;
		s->ev.name.len = (uint32_t)w.len;
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
	struct scratch *s = scratch_enter();
	if (!s)
		goto out;
	struct emission em;
	struct class_want w = { sig, len, bit, &em.want.fire };
	emission_init(&em, s, true);
	emit_want(&em.want, wants_class, &w, false);
	if (em.want.conns) {
		s->ev.code = code;
		s->ev.name.ptr = sig;
		s->ev.name.len = (uint32_t)w.len;
		s->ev.thread = em.tid;
		emission_capture_stack(&em, s, NULL);
		emit(&em);
	}
	scratch_leave();
	if (prepared && agent.caps.can_generate_object_free_events)
		track_if_wanted(klass, sig);
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
