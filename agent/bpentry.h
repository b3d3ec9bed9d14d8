/* bpentry.h: method.enter by a breakpoint at bytecode index 0 of each matched method.
 *
 * Why: MethodEntry makes HotSpot run every method of every thread in the
 * interpreter (about 100x slower on a tight loop), whatever the patterns say.
 * A breakpoint costs only the methods it is set on: they run interpreted,
 * every other method stays compiled.
 *
 * Contract: bpentry_update() runs on the I/O thread after registrations
 * change. It returns true when MethodEntry must be used instead, and then
 * leaves no breakpoint set: the VM lacks can_generate_breakpoint_events or
 * can_get_bytecodes; a connection wants method.compile (a method with a
 * breakpoint is never compiled); or a matched method is native or branches
 * back to its first instruction (the breakpoint would fire on every loop
 * iteration), or the VM refused a breakpoint. Otherwise exactly the loaded
 * methods some connection wants method.enter for have their breakpoint;
 * classes prepared later get theirs
 * from bpentry_class_prepared(), which asks for a full update when it meets a
 * method that cannot have one. The lock is held across SetBreakpoint and
 * ClearBreakpoint (VM operations): only threads in native state (JVMTI
 * callbacks, the I/O thread) wait for it, so a safepoint never waits for us.
 */
#ifndef STAPJAVA_AGENT_BPENTRY_H
#define STAPJAVA_AGENT_BPENTRY_H

#include <jvmti.h>
#include <stdbool.h>

/* WANT_ENTER: some connection wants method.enter; WANT_COMPILE: method.compile. */
bool bpentry_update(JNIEnv *jni, bool want_enter, bool want_compile);
/* From ClassPrepare (any thread). Returns true when a full update is needed. */
bool bpentry_class_prepared(JNIEnv *jni, jclass klass, const char *sig);
/* Breakpoints are how method.enter is reported right now. */
bool bpentry_active(void);
/* Capabilities bpentry needs (those the VM can give). */
void bpentry_want_capabilities(jvmtiCapabilities *want, const jvmtiCapabilities *potential);

#endif
