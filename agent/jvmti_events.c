/* jvmti_events.c: see jvmti_events.h. */
#include "jvmti_events.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "agent.h"
#include "fallback.h"
#include "callbacks.h"
#include "conn.h"
#include "emit.h"
#include "inject.h"
#include "jvmti_family.h"
#include "print.h"
#include "log.h"

/* The JVMTI events we turn on and off, as indices of events[]: first
 * those of the probe points by pattern, then each switched family's
 * (jvmti_family.h), from N_FAMILIES on, as events_install() lays them out. */
enum jvmti_index {
	N_METHOD_ENTRY, N_METHOD_EXIT, N_COMPILED, N_CLASS_LOAD, N_CLASS_PREPARE, N_OBJECT_FREE,
	N_EXCEPTION, N_EXCEPTION_CATCH, N_BREAKPOINT, N_FAMILIES,
	/* room for the families' events: no more than JVMTI has (checked at install) */
	N_COUNT = N_FAMILIES + (JVMTI_MAX_EVENT_TYPE_VAL - JVMTI_MIN_EVENT_TYPE_VAL + 1)
};

/* The switched families, each described in its own file. */
static const struct jvmti_family *const families[] = {
	&jvmti_family_threads,
	&jvmti_family_monitors,
	&jvmti_family_gc,
};
#define NFAMILIES (sizeof families / sizeof families[0])

/* EVENT, its name in the log, and the probe points it serves (for Notices). */
static struct jvmti_family_event events[N_COUNT] = {
	[N_METHOD_ENTRY] = { JVMTI_EVENT_METHOD_ENTRY, "MethodEntry", WIRE_EV_METHOD_ENTER },
	[N_METHOD_EXIT] = { JVMTI_EVENT_METHOD_EXIT, "MethodExit", WIRE_EV_METHOD_EXIT },
	[N_COMPILED] = { JVMTI_EVENT_COMPILED_METHOD_LOAD, "CompiledMethodLoad", WIRE_EV_METHOD_COMPILE },
	[N_CLASS_LOAD] = { JVMTI_EVENT_CLASS_LOAD, "ClassLoad", WIRE_EV_CLASS_LOAD },
	[N_CLASS_PREPARE] = { JVMTI_EVENT_CLASS_PREPARE, "ClassPrepare", WIRE_EV_CLASS_PREPARE },
	[N_OBJECT_FREE] = { JVMTI_EVENT_OBJECT_FREE, "ObjectFree", WIRE_EV_CLASS_UNLOAD },
	[N_EXCEPTION] = { JVMTI_EVENT_EXCEPTION, "Exception", WIRE_EV_EXCEPTION_THROWN },
	[N_EXCEPTION_CATCH] = { JVMTI_EVENT_EXCEPTION_CATCH, "ExceptionCatch", WIRE_EV_EXCEPTION_CATCH },
	[N_BREAKPOINT] = { JVMTI_EVENT_BREAKPOINT, "Breakpoint", WIRE_EV_METHOD_ENTER },
};
/* families[f]'s events are events[family_at[f] ...]; nevents: how many are laid out */
static size_t family_at[NFAMILIES], nevents = N_FAMILIES;
_Static_assert(AGENT_MAX_CONNS <= 32, "a connection mask is 32 bits");

static bool enabled[N_COUNT];
static jvmtiError failed[N_COUNT];  /* why enabling failed, JVMTI_ERROR_NONE if it did not */
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;

void events_want_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	memset(w, 0, sizeof(*w));
	w->can_generate_compiled_method_load_events = p->can_generate_compiled_method_load_events;
	w->can_generate_exception_events = p->can_generate_exception_events;
	w->can_generate_object_free_events = p->can_generate_object_free_events;
	w->can_tag_objects = p->can_tag_objects;
	w->can_get_line_numbers = p->can_get_line_numbers;
	w->can_get_source_file_name = p->can_get_source_file_name;   /* stack frames */
	for (size_t f = 0; f < NFAMILIES; f++)
		if (families[f]->want_capabilities)
			families[f]->want_capabilities(w, p);
	fallback_want_capabilities(w, p);
	inject_want_capabilities(w, p);
}

int events_install(void)
{
	jvmtiEventCallbacks cb;
	jvmtiEnv *jv = agent.jvmti;

	nevents = N_FAMILIES;
	for (size_t f = 0; f < NFAMILIES; f++) {
		if (families[f]->nevents > N_COUNT - nevents) {
			sj_error("more JVMTI events in the switched families than N_COUNT has room for");
			return -1;
		}
		family_at[f] = nevents;
		for (size_t j = 0; j < families[f]->nevents; j++)
			events[nevents++] = families[f]->events[j];
	}
	memset(&cb, 0, sizeof(cb));
	cb.VMInit = agent_vm_init;
	cb.VMDeath = agent_vm_death;
	cb.Breakpoint = cb_breakpoint;
	cb.ClassFileLoadHook = cb_class_file_load_hook;
	cb.MethodExit = cb_method_exit;
	cb.CompiledMethodLoad = cb_compiled_method_load;
	cb.ClassLoad = cb_class_load;
	cb.ClassPrepare = cb_class_prepare;
	cb.ObjectFree = cb_object_free;
	cb.Exception = cb_exception;
	cb.ExceptionCatch = cb_exception_catch;
	for (size_t f = 0; f < NFAMILIES; f++)
		families[f]->set_callbacks(&cb);
	if ((*jv)->SetEventCallbacks(jv, &cb, (jint)sizeof(cb)) != JVMTI_ERROR_NONE)
		return -1;
	/* VMInit starts the I/O thread, VMDeath ends it: both cost nothing */
	if ((*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL) != JVMTI_ERROR_NONE ||
	    (*jv)->SetEventNotificationMode(jv, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL) != JVMTI_ERROR_NONE)
		return -1;
	return 0;
}

/* NEED: the union of what the open connections want; BY[e]: which want event e. */
static void compute(bool need[N_COUNT], uint32_t by[N_COUNT])
{
	memset(by, 0, N_COUNT * sizeof(uint32_t));
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		memset(need, 0, N_COUNT * sizeof(bool));
		pthread_mutex_lock(&c->lock);
		if (c->active) {
			uint8_t m = c->ev_bits[WIRE_KIND_METHOD], k = c->ev_bits[WIRE_KIND_CLASS],
				e = c->ev_bits[WIRE_KIND_EXCEPTION];
			bool unload = (k & WIRE_CLASS_UNLOAD) && conn_ext(c);
			need[N_METHOD_ENTRY] |= m & WIRE_METHOD_ENTER;
			need[N_METHOD_EXIT] |= m & WIRE_METHOD_RETURN;
			need[N_COMPILED] |= m & WIRE_METHOD_COMPILE;
			need[N_CLASS_LOAD] |= k & WIRE_CLASS_LOAD;
			need[N_CLASS_PREPARE] |= (k & WIRE_CLASS_PREPARE) || unload;
			need[N_OBJECT_FREE] |= unload;
			need[N_EXCEPTION] |= e & WIRE_EXCEPTION_THROWN;
			need[N_EXCEPTION_CATCH] |= e & WIRE_EXCEPTION_CATCH;
			for (size_t f = 0; f < NFAMILIES; f++)
				for (size_t j = 0; j < families[f]->nevents; j++)
					need[family_at[f] + j] |= conn_wants_family(c, families[f]->family);
		}
		pthread_mutex_unlock(&c->lock);
		for (size_t e = 0; e < nevents; e++)
			by[e] |= need[e] ? 1u << i : 0;
	}
	for (size_t e = 0; e < N_COUNT; e++)
		need[e] = by[e] != 0;
}

/* Why an event cannot be had, for the user. */
static const char *why_not(jvmtiError err)
{
	if (err == JVMTI_ERROR_MUST_POSSESS_CAPABILITY)
		return agent.live ? "the agent was attached to a running JVM, and HotSpot grants this "
				    "only to an agent loaded at start with -agentpath"
				  : "this JVM does not grant the capability";
	return "the JVM refused it";
}

/* Each connection that wants an event that cannot be enabled is told once. */
static void tell_failures(const uint32_t by[N_COUNT])
{
	static uint64_t told[N_COUNT][AGENT_MAX_CONNS];

	for (size_t e = 0; e < nevents; e++) {
		uint32_t tell = failed[e] == JVMTI_ERROR_NONE ? 0 : emit_tell_once(told[e], by[e]);
		if (!tell)
			continue;
		/* a pattern's event: every pattern of its kind misses it */
		const struct event_desc *d = events_get(events[e].code);
		const struct notice_about about = { WIRE_NOTICE_KIND, d ? d->kind : 0, d ? d->bit : 0, NULL };
		emit_notice_about(tell, d && d->family == EVENT_BY_PATTERN ? &about : NULL,
				  "%s probes cannot fire in this JVM (JVMTI %s: error %d, %s)",
				  print_event_label(events[e].code), events[e].name, (int)failed[e], why_not(failed[e]));
	}
}

static void set_enabled(const bool need[N_COUNT])
{
	jvmtiEnv *jv = agent.jvmti;

	for (size_t i = 0; i < nevents; i++) {
		if (need[i] == enabled[i])
			continue;
		jvmtiError err = (*jv)->SetEventNotificationMode(jv, need[i] ? JVMTI_ENABLE : JVMTI_DISABLE,
								 events[i].event, NULL);
		if (err == JVMTI_ERROR_NONE) {
			enabled[i] = need[i];
			sj_info("event %s %s", events[i].name, need[i] ? "enabled" : "disabled");
		} else if (need[i]) {
			failed[i] = err;    /* said to each connection that wants it: tell_failures() */
		}
	}
}

/* Set on the thread inside events_update(): a class the VM prepares inside
 * one of its JVMTI calls (an exception class RetransformClasses makes, say)
 * must not take the locks that thread holds; the update looks again. */
static __thread bool updating;
static atomic_bool prepared_meanwhile;

bool events_updating_here(void)
{
	if (updating)
		atomic_store(&prepared_meanwhile, true);
	return updating;
}

void events_update(JNIEnv *jni)
{
	bool need[N_COUNT];
	uint32_t by[N_COUNT];

	pthread_mutex_lock(&update_lock);
	updating = true;
	atomic_store(&prepared_meanwhile, false);
	compute(need, by);
	/* method enter and return: calls injected into the matched methods
	 * (inject.h); breakpoints and MethodExit only for what they cannot cover
	 * (fallback.h) or with methods=jvmti. MethodEntry is never used. */
	bool enter = need[N_METHOD_ENTRY], ret = need[N_METHOD_EXIT];
	bool by_calls = (enter || ret) && agent.opt.methods != OPT_METHODS_JVMTI;
	if (by_calls && !enabled[N_CLASS_PREPARE]) {
		/* before the hook: a class that gets calls is seen prepared (module reads) */
		bool early[N_COUNT];
		memcpy(early, enabled, sizeof(early));
		early[N_CLASS_PREPARE] = true;
		set_enabled(early);
	}
	inject_update(jni, by_calls);
	struct fallback_need fb = fallback_update(jni, enter, ret, !by_calls);
	/* classes prepared by our own JVMTI calls were skipped: scan again */
	if (atomic_exchange(&prepared_meanwhile, false))
		fb = fallback_update(jni, enter, ret, !by_calls);
	need[N_METHOD_ENTRY] = false;
	need[N_METHOD_EXIT] = fb.method_exit;
	need[N_BREAKPOINT] = fb.breakpoints;
	need[N_CLASS_PREPARE] |= enter || ret;
	bool track = need[N_OBJECT_FREE];
	set_enabled(need);
	tell_failures(by);
	updating = false;
	pthread_mutex_unlock(&update_lock);
	if (track && jni)
		unload_track_loaded(jni);
}

void events_fallback_changed(void)
{
	bool need[N_COUNT];

	pthread_mutex_lock(&update_lock);
	struct fallback_need fb = fallback_need_now();
	memcpy(need, enabled, sizeof(need));
	need[N_METHOD_EXIT] = fb.method_exit;
	need[N_BREAKPOINT] = fb.breakpoints;
	set_enabled(need);
	pthread_mutex_unlock(&update_lock);
}

void events_disable_all(void)
{
	bool none[N_COUNT];

	memset(none, 0, sizeof(none));
	pthread_mutex_lock(&update_lock);
	fallback_update(NULL, false, false, false);
	inject_update(NULL, false);   /* no JNI: nothing is retransformed */
	set_enabled(none);
	pthread_mutex_unlock(&update_lock);
}
