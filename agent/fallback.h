/* fallback.h: method events of the methods injected calls cannot report.
 *
 * Why: a class the VM will not let anyone change (a hidden class, such as
 * each lambda's), a class the VM refused to retransform, or a method the
 * rewriter refused (inject.h) still has its method.enter reported, by a
 * breakpoint at its first instruction (only that method runs interpreted).
 * Its method.return is not reported but said once: JVMTI MethodExit would
 * make HotSpot interpret every method of the JVM while it is on (0.008x of
 * a database's throughput), which is not a cost a pattern may bring by
 * matching a lambda. methods=jvmti (options.h) puts every method here, with
 * MethodExit for returns, at that cost, and then no class is ever changed.
 *
 * Contract: fallback_update() runs on the I/O thread after registrations
 * change and after inject_update(). It sets a breakpoint at location 0 of
 * each loaded method wanted for method.enter that injection does not cover,
 * clears those no longer wanted or now covered, and with methods=jvmti marks
 * each method wanted for method.return (mentry.by_exit_event). It says once
 * per method, event and connection, to the connections that want it (a
 * Notice; a session that comes later is told too) and in the log, what it
 * cannot report: a native method inject.h did not wrap (no bytecode), a
 * method whose first instruction is a branch target (its breakpoint would
 * fire on every loop turn), a return without an injected call (with the
 * reason the rewriter or the VM refused it), an empty finalize(). It never changes how another method is
 * reported. The answer says whether the Breakpoint and MethodExit events
 * must be on. fallback_class_prepared() does the same for one class
 * prepared later and returns true when the enabled events must change.
 * Breakpoint and MethodExit callbacks act only on the methods marked here:
 * cb_method_exit() looks a jmethodID up without any JVMTI call, and
 * MethodExit is on only where no class is retransformed, so the MethodExit
 * of a method version a retransformation made obsolete (which crashed JDK 17
 * in GetMethodName) cannot happen. The lock is held across SetBreakpoint and
 * ClearBreakpoint (VM operations): only threads in native state (JVMTI
 * callbacks, the I/O thread) wait for it.
 */
#ifndef STAPJAVA_AGENT_FALLBACK_H
#define STAPJAVA_AGENT_FALLBACK_H

#include <jvmti.h>
#include <stdbool.h>

struct fallback_need {
	bool breakpoints;        /* the Breakpoint event */
	bool method_exit;        /* the MethodExit event */
};

/* WANT_ENTER / WANT_RETURN: some connection wants those events. ALL: every
 * wanted method comes here (no injection). JNI NULL: everything off. */
struct fallback_need fallback_update(JNIEnv *jni, bool want_enter, bool want_return, bool all);
/* From ClassPrepare (any thread). True when fallback_need_now() changed. */
bool fallback_class_prepared(JNIEnv *jni, jclass klass, const char *sig);
/* What the last update and the classes prepared since need. */
struct fallback_need fallback_need_now(void);
/* Breakpoints are set now (cb_breakpoint reports them). */
bool fallback_breakpoints_active(void);
/* Capabilities the fallback needs (those the VM can give). */
void fallback_want_capabilities(jvmtiCapabilities *want, const jvmtiCapabilities *potential);

#endif
