/* fallback.c: see fallback.h. */
#include "fallback.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "bytecode.h"
#include "classfile.h"
#include "conn.h"
#include "emit.h"
#include "inject.h"
#include "log.h"
#include "mcache.h"
#include "natwrap.h"
#include "pattern.h"

#define METHOD_EVENTS (WIRE_METHOD_ENTER | WIRE_METHOD_RETURN)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool bp_active;
/* under lock */
static bool want_enter, want_return, all;
static struct fallback_need cur;     /* what the last update asked for */
static struct mentry **set;          /* the entries with a breakpoint set */
static size_t nset, setcap;
static size_t nexit;                 /* methods marked for MethodExit in this scan */
static size_t logged_bp = (size_t)-1, logged_exit = (size_t)-1;

bool fallback_breakpoints_active(void)
{
	return atomic_load(&bp_active);
}

/* Asked for only when an option wants them: HotSpot, once an agent holds
 * can_generate_breakpoint_events, compiles every method keeping all its
 * locals alive (as can_access_local_variables does), for the JVM's whole
 * life; 1.5-2 % on the bench's loop (bench/README.md, "Capabilities"). */
void fallback_want_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	if (agent.opt.methods == OPT_METHODS_INJECT)
		return;
	w->can_generate_breakpoint_events = p->can_generate_breakpoint_events;
	w->can_generate_method_exit_events = p->can_generate_method_exit_events;
}

/* Why a method (of a class the VM will not change: HIDDEN) gets no entry
 * breakpoint when the agent holds no breakpoint capability. */
static const char *no_breakpoints_why(bool hidden)
{
	if (agent.live)
		return hidden ? "a class the VM will not change, and HotSpot gives breakpoints only to an agent "
				"loaded at start" : "no injected call, and HotSpot gives breakpoints only to an "
				"agent loaded at start";
	if (agent.opt.methods == OPT_METHODS_INJECT)
		return hidden ? "a class the VM will not change; agent option methods=fallback has it by a "
				"breakpoint, which costs every compiled method of the JVM" : "no injected call; "
				"agent option methods=fallback has it by a breakpoint, which costs every compiled "
				"method of the JVM";
	return "no breakpoints in this VM";
}

/* Under lock: those of WANT not yet told that E's EVENT cannot be
 * reported, now marked told. Each connection is told once: a session that
 * comes later to the same JVM (stap-java -x PID again) is told too, since
 * a connection newer than E's last telling (by its serial) was not. */
static uint32_t tell_whom_locked(struct mentry *e, uint32_t want, uint8_t event)
{
	/* read first: a connection opened after this has a larger serial */
	unsigned newest = conn_serial_newest();

	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (__atomic_load_n(&conns[i].serial, __ATOMIC_RELAXED) > e->told_serial) {
			e->told[0] &= ~(1u << i);
			e->told[1] &= ~(1u << i);
		}
	e->told_serial = newest;
	const unsigned ev = event == WIRE_METHOD_ENTER ? 0 : 1;
	const uint32_t whom = want & ~e->told[ev];
	e->told[ev] |= whom;
	return whom;
}

/* Under lock: say once per method, event and connection what cannot be
 * reported, to the connections that want it (a Notice) and in the log. */
static void report_once(struct mentry *e, uint32_t want, uint8_t event, const char *why)
{
	static const char no_call[] = "no injected call";
	const uint32_t whom = tell_whom_locked(e, want, event);
	const size_t nc = sizeof no_call - 1;

	if (!whom)
		return;
	const char *refused = mcache_refused_why(e);
	const struct notice_about about = { WIRE_NOTICE_METHOD, WIRE_KIND_METHOD, event, e->name };
	/* "no injected call" says why too when the rewriter or the VM refused it */
	if (refused && strncmp(why, no_call, nc) == 0)
		emit_notice_about(whom, &about, "method.%s of %s cannot be reported (%s: %s%s)",
				  event == WIRE_METHOD_ENTER ? "enter" : "return", e->name, no_call, refused,
				  why + nc);
	else
		emit_notice_about(whom, &about, "method.%s of %s cannot be reported (%s)",
				  event == WIRE_METHOD_ENTER ? "enter" : "return", e->name, why);
}

/* Under lock. Can E have an entry breakpoint? Checked once per method. */
static bool eligible_locked(struct mentry *e)
{
	if (e->bp_ok < 0) {
		jvmtiEnv *jv = agent.jvmti;
		jint n = 0;
		unsigned char *code = NULL;

		e->bp_ok = 0;
		if (agent.caps.can_generate_breakpoint_events && agent.caps.can_get_bytecodes &&
		    (*jv)->GetBytecodes(jv, e->id, &n, &code) == JVMTI_ERROR_NONE) {
			e->bp_ok = n > 0 && bytecode_branches_to(code, (size_t)n, 0) == 0;
			(*jv)->Deallocate(jv, code);
		}
	}
	return e->bp_ok;
}

static void set_locked(struct mentry *e, uint32_t want)
{
	if (e->bp_set)
		return;
	if (nset == setcap) {
		size_t cap = setcap ? setcap * 2 : 64;
		struct mentry **n = realloc(set, cap * sizeof(*n));
		if (!n) {
			report_once(e, want, WIRE_METHOD_ENTER, "out of memory");
			return;
		}
		set = n;
		setcap = cap;
	}
	jvmtiError err = (*agent.jvmti)->SetBreakpoint(agent.jvmti, e->id, 0);
	if (err != JVMTI_ERROR_NONE && err != JVMTI_ERROR_DUPLICATE) {
		report_once(e, want, WIRE_METHOD_ENTER, "the VM refused a breakpoint");
		return;
	}
	e->bp_set = true;
	e->bp_index = (uint32_t)nset;
	set[nset++] = e;
}

static void clear_locked(struct mentry *e)
{
	/* a method of an unloaded class gives INVALID_METHODID: its breakpoint went with it */
	(*agent.jvmti)->ClearBreakpoint(agent.jvmti, e->id, 0);
	e->bp_set = false;
	set[e->bp_index] = set[--nset];
	set[e->bp_index]->bp_index = e->bp_index;
}

/* Why a native of KLASS has no wrapper (inject.h): the boot loader's are
 * never wrapped; another loader's only as their class loads. */
static const char *native_why(JNIEnv *jni, jclass klass)
{
	jobject loader = NULL;

	if (all || !inject_active() || !natwrap_enabled() ||
	    (*agent.jvmti)->GetClassLoader(agent.jvmti, klass, &loader) != JVMTI_ERROR_NONE || !loader)
		return "a native method";
	(*jni)->DeleteLocalRef(jni, loader);
	return "a native method of a class loaded before the registration: a native is wrapped "
	       "only as its class loads";
}

/* Under lock: the wanted events of the methods of KLASS that injected calls
 * do not report. method.enter: a breakpoint. method.return: MethodExit with
 * methods=jvmti (ALL); else said once, not reported, since MethodExit would
 * make every method of the JVM interpreted for as long as it is on. */
static void class_locked(JNIEnv *jni, jclass klass, const char *sig)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jmethodID *methods = NULL;
	size_t bp_before = nset, hidden_ret = 0;
	uint32_t hidden_conns = 0, bp_conns = 0;
	bool new_exit = false;

	if (strcmp(sig, "L" CLASSFILE_PROBE_CLASS ";") == 0 ||
	    (*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return;
	for (jint i = 0; i < n; i++) {
		struct mmatch m;
		if (mcache_lookup(methods[i], &m) < 0 || m.e->is_abstract)
			continue;
		struct mentry *e = (struct mentry *)m.e;
		enum inject_cover ce = all ? INJECT_NOT : inject_covers(jni, klass, sig, e, WIRE_METHOD_ENTER);
		enum inject_cover cr = all ? INJECT_NOT : inject_covers(jni, klass, sig, e, WIRE_METHOD_RETURN);
		bool enter = want_enter && m.conns[MC_ENTER] && ce != INJECT_COVERED;
		bool ret = want_return && m.conns[MC_RETURN] && cr != INJECT_COVERED;
		const char *why_ret = "no injected call, and MethodExit would make every method of the "
				      "JVM interpreted (agent option methods=jvmti has it at that cost)";
		if (ce == INJECT_SKIPPED || cr == INJECT_SKIPPED) {
			const char *why = "an empty finalize(), which the VM never calls: a call in it would "
					  "make the class's objects finalizable";
			if (enter)
				report_once(e, m.conns[MC_ENTER], WIRE_METHOD_ENTER, why);
			if (ret)
				report_once(e, m.conns[MC_RETURN], WIRE_METHOD_RETURN, why);
			continue;
		}
		if (e->is_native) {
			const char *why = native_why(jni, klass);
			if (enter)
				report_once(e, m.conns[MC_ENTER], WIRE_METHOD_ENTER, why);
			if (ret)
				report_once(e, m.conns[MC_RETURN], WIRE_METHOD_RETURN, why);
			continue;
		}
		/* its ClassPrepare, under way on its own thread, gives it its calls
		 * and brings it back here: nothing said, nothing set before then */
		if (ce == INJECT_PENDING || cr == INJECT_PENDING)
			continue;
		if (enter) {
			if (eligible_locked(e)) {
				if (!e->bp_set)
					bp_conns |= m.conns[MC_ENTER];
				set_locked(e, m.conns[MC_ENTER]);
			} else
				report_once(e, m.conns[MC_ENTER], WIRE_METHOD_ENTER, agent.caps.can_generate_breakpoint_events
					    ? "its first instruction is a branch target: a breakpoint there "
					      "would fire on every loop turn" : no_breakpoints_why(ce == INJECT_HIDDEN));
		} else if (e->bp_set) {
			clear_locked(e);
		}
		if (ret && !all && cr == INJECT_HIDDEN) {
			/* said once for the class below, not for each of its methods */
			const uint32_t whom = tell_whom_locked(e, m.conns[MC_RETURN], WIRE_METHOD_RETURN);
			if (whom) {
				hidden_ret++;
				hidden_conns |= whom;
			}
		} else if (ret && !all) {
			report_once(e, m.conns[MC_RETURN], WIRE_METHOD_RETURN, why_ret);
		} else if (ret) {
			if (!agent.caps.can_generate_method_exit_events) {
				report_once(e, m.conns[MC_RETURN], WIRE_METHOD_RETURN,
					    agent.live ? "the agent was attached to a running JVM: HotSpot gives "
					    "MethodExit only to an agent loaded at start" : "no MethodExit events in this VM");
			} else {
				new_exit |= !atomic_exchange(&e->by_exit_event, true);
				nexit++;
			}
		}
	}
	(*jv)->Deallocate(jv, (unsigned char *)methods);
	char dotted[1024];
	ssize_t dn = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));
	/* said when this class's methods get breakpoints anew, not on every rescan */
	/* a fallback costs the methods their compiled code: the user is told
	 * (a Notice), not only the JVM's log */
	if (!all && (nset > bp_before || new_exit)) {
		jboolean mod = JNI_TRUE;
		(*jv)->IsModifiableClass(jv, klass, &mod);
		emit_notice(bp_conns, "method.enter of %s by breakpoints (%s): its matched methods run "
			    "interpreted", dn < 0 ? sig : dotted,
			    mod ? "no injected calls" : "a class the VM will not change");
	}
	if (hidden_ret) {
		const struct notice_about about = { WIRE_NOTICE_CLASS, WIRE_KIND_METHOD, WIRE_METHOD_RETURN,
						    dn < 0 ? sig : dotted };
		emit_notice_about(hidden_conns, &about, "method.return of %zu method%s of %s cannot be "
				  "reported (a class the VM will not change, and MethodExit would make every "
				  "method of the JVM interpreted; agent option methods=jvmti has it at that "
				  "cost)", hidden_ret, hidden_ret == 1 ? "" : "s", dn < 0 ? sig : dotted);
	}
}

static int scan_class(void *ctx, JNIEnv *jni, jclass klass, const char *sig)
{
	if (conns_want_method_class(sig, METHOD_EVENTS))
		class_locked(jni, klass, sig);
	return 0;
}

/* Under lock: drop the breakpoints no connection wants any more. */
static void prune_locked(void)
{
	for (size_t i = nset; i-- > 0;) {
		struct mmatch m;
		if (i < nset && (!want_enter || mcache_lookup(set[i]->id, &m) < 0 || !m.conns[MC_ENTER]))
			clear_locked(set[i]);
	}
}

static void log_locked(void)
{
	size_t bp = cur.breakpoints ? nset : (size_t)-1, ex = cur.method_exit ? nexit : (size_t)-1;

	if (bp != logged_bp) {
		if (bp == (size_t)-1)
			sj_info("method.enter breakpoints off");
		else
			sj_info("method.enter by breakpoints on %zu method%s", bp, bp == 1 ? "" : "s");
		logged_bp = bp;
	}
	if (ex != logged_exit) {
		if (ex == (size_t)-1)
			sj_info("method.return by MethodExit off");
		else
			sj_info("method.return by MethodExit for %zu method%s (every method runs "
				"interpreted while it is on)", ex, ex == 1 ? "" : "s");
		logged_exit = ex;
	}
}

struct fallback_need fallback_update(JNIEnv *jni, bool enter, bool ret, bool every)
{
	pthread_mutex_lock(&lock);
	want_enter = enter && jni;
	want_return = ret && jni;
	all = every;
	nexit = 0;
	atomic_store(&bp_active, want_enter);
	prune_locked();
	if (jni && (want_enter || want_return))
		agent_each_prepared_class(jni, false, scan_class, NULL);
	cur.breakpoints = nset > 0 || (all && want_enter);
	cur.method_exit = nexit > 0 || (all && want_return);
	log_locked();
	struct fallback_need need = cur;
	pthread_mutex_unlock(&lock);
	return need;
}

bool fallback_class_prepared(JNIEnv *jni, jclass klass, const char *sig)
{
	bool change = false;

	if (sig[0] == '[' || !conns_want_method_class(sig, METHOD_EVENTS))
		return false;
	pthread_mutex_lock(&lock);
	if (want_enter || want_return) {
		class_locked(jni, klass, sig);
		change = (nset > 0 && !cur.breakpoints) || (nexit > 0 && !cur.method_exit);
		cur.breakpoints |= nset > 0;
		cur.method_exit |= nexit > 0;
		log_locked();
	}
	pthread_mutex_unlock(&lock);
	return change;
}

struct fallback_need fallback_need_now(void)
{
	pthread_mutex_lock(&lock);
	struct fallback_need need = cur;
	pthread_mutex_unlock(&lock);
	return need;
}
