/* bpentry.c: see bpentry.h. */
#include "bpentry.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "bytecode.h"
#include "conn.h"
#include "inject.h"
#include "log.h"
#include "mcache.h"
#include "pattern.h"

static pthread_mutex_t bp_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool active;
/* under bp_lock: the entries with a breakpoint set */
static struct mentry **set;
static size_t nset, setcap;
static size_t logged_n = (size_t)-1;

bool bpentry_active(void)
{
	return atomic_load(&active);
}

void bpentry_want_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	w->can_generate_breakpoint_events = p->can_generate_breakpoint_events;
	w->can_get_bytecodes = p->can_get_bytecodes;
}

static bool caps_ok(void)
{
	return agent.caps.can_generate_breakpoint_events && agent.caps.can_get_bytecodes;
}

/* Under bp_lock. Can E have an entry breakpoint? Checked once per method. */
static bool eligible_locked(struct mentry *e)
{
	if (e->bp_ok < 0) {
		jvmtiEnv *jv = agent.jvmti;
		jint n = 0;
		unsigned char *code = NULL;

		e->bp_ok = 0;
		if (!e->is_native && (*jv)->GetBytecodes(jv, e->id, &n, &code) == JVMTI_ERROR_NONE) {
			e->bp_ok = n > 0 && bytecode_branches_to(code, (size_t)n, 0) == 0;
			(*jv)->Deallocate(jv, code);
		}
		if (!e->bp_ok)
			sj_info("method.enter of %s cannot use a breakpoint (%s)", e->name,
				e->is_native ? "native" : "a branch to its first instruction");
	}
	return e->bp_ok;
}

/* Under bp_lock. 0, or -ENOMEM / -EPERM (the VM refused): the caller then
 * falls back to MethodEntry rather than leave the method silent. */
static int set_locked(struct mentry *e)
{
	if (e->bp_set)
		return 0;
	if (nset == setcap) {
		size_t cap = setcap ? setcap * 2 : 64;
		struct mentry **n = realloc(set, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		set = n;
		setcap = cap;
	}
	jvmtiError err = (*agent.jvmti)->SetBreakpoint(agent.jvmti, e->id, 0);
	if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_DUPLICATE) {
		sj_warn("breakpoint on %s refused (JVMTI error %d): method.enter uses MethodEntry",
			e->name, (int)err);
		return -EPERM;
	}
	e->bp_set = true;
	e->bp_index = (uint32_t)nset;
	set[nset++] = e;
	return 0;
}

static void clear_locked(struct mentry *e)
{
	/* a method of an unloaded class gives INVALID_METHODID: its breakpoint went with it */
	(*agent.jvmti)->ClearBreakpoint(agent.jvmti, e->id, 0);
	e->bp_set = false;
	set[e->bp_index] = set[--nset];
	set[e->bp_index]->bp_index = e->bp_index;
}

static void clear_all_locked(void)
{
	while (nset)
		clear_locked(set[nset - 1]);
}

/* Under bp_lock: breakpoints for the wanted methods of KLASS. Returns false when
 * one of them cannot have one. */
static bool class_set_locked(jclass klass)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jmethodID *methods = NULL;
	bool ok = true;

	/* injected calls report this class's methods (inject.h) */
	if (inject_covers(klass) || (*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return true;
	for (jint i = 0; i < n && ok; i++) {
		struct mmatch m;
		if (mcache_lookup(methods[i], &m) < 0 || !m.conns[MC_ENTER] || m.e->is_abstract)
			continue;
		struct mentry *e = (struct mentry *)m.e;
		ok = eligible_locked(e) && set_locked(e) == 0;
	}
	(*jv)->Deallocate(jv, (unsigned char *)methods);
	return ok;
}

/* Under bp_lock: 1 stops the scan (a method that cannot have its breakpoint). */
static int scan_class_locked(void *ctx, JNIEnv *jni, jclass klass, const char *sig)
{
	return conns_want_enter_class(sig) && !class_set_locked(klass);
}

static bool scan_loaded_locked(JNIEnv *jni)
{
	return agent_each_prepared_class(jni, false, scan_class_locked, NULL) == 0;
}

/* Is E's class one whose methods injected calls report? */
static bool covered(JNIEnv *jni, const struct mentry *e)
{
	jclass cls = NULL;
	bool cov = false;

	if ((*agent.jvmti)->GetMethodDeclaringClass(agent.jvmti, e->id, &cls) == JVMTI_ERROR_NONE) {
		cov = inject_covers(cls);
		(*jni)->DeleteLocalRef(jni, cls);
	}
	return cov;
}

/* Under bp_lock: drop the breakpoints no connection wants any more, and those
 * injected calls now stand for. */
static void prune_locked(JNIEnv *jni)
{
	for (size_t i = nset; i-- > 0;) {
		struct mmatch m;
		if (i < nset && (mcache_lookup(set[i]->id, &m) < 0 || !m.conns[MC_ENTER] ||
				 covered(jni, set[i])))
			clear_locked(set[i]);
	}
}

/* Under bp_lock: say how many breakpoints there are when that changed. */
static void log_count_locked(void)
{
	size_t n = atomic_load(&active) ? nset : (size_t)-1;

	if (n == logged_n)
		return;
	if (n == (size_t)-1)
		sj_info("method.enter breakpoints off");
	else
		sj_info("method.enter by breakpoints on %zu method%s", n, n == 1 ? "" : "s");
	logged_n = n;
}

bool bpentry_update(JNIEnv *jni, bool want_enter, bool want_compile)
{
	bool use_method_entry = false;

	pthread_mutex_lock(&bp_lock);
	if (!want_enter || want_compile || !caps_ok() || !jni) {
		atomic_store(&active, false);
		clear_all_locked();
		use_method_entry = want_enter;
	} else {
		/* on first, so classes prepared during the scan get theirs too */
		atomic_store(&active, true);
		prune_locked(jni);
		if (!scan_loaded_locked(jni)) {
			atomic_store(&active, false);
			clear_all_locked();
			use_method_entry = true;
		}
	}
	log_count_locked();
	pthread_mutex_unlock(&bp_lock);
	return use_method_entry;
}

bool bpentry_class_prepared(JNIEnv *jni, jclass klass, const char *sig)
{
	bool ok = true;

	if (!atomic_load(&active) || sig[0] == '[' || !conns_want_enter_class(sig))
		return false;
	pthread_mutex_lock(&bp_lock);
	if (atomic_load(&active)) {
		ok = class_set_locked(klass);
		log_count_locked();
	}
	pthread_mutex_unlock(&bp_lock);
	return !ok;
}
