/* jvmti_events.h: which JVMTI events are enabled, driven by registrations.
 *
 * Contract: with no connection registered for a family, none of its JVMTI
 * events is enabled, so the JVM pays nothing (MethodEntry/Exit would force
 * the interpreter). events_update() recomputes the union of what the open
 * connections want and enables/disables the difference, logging each
 * transition at info ("event MethodExit enabled"). Called by the I/O thread
 * after every registration change and connection close; never under a
 * connection's lock.
 */
#ifndef STAPJAVA_AGENT_JVMTI_EVENTS_H
#define STAPJAVA_AGENT_JVMTI_EVENTS_H

#include <jvmti.h>
#include <stdbool.h>

/* The callbacks table and always-on events (VMInit, VMDeath); at load time. */
int events_install(void);
/* JNI is the caller's (used to tag already-loaded classes for unload, to
 * retransform classes and to set breakpoints); the I/O thread. */
void events_update(JNIEnv *jni);
/* From ClassPrepare: is this thread inside events_update() (a class the VM
 * prepares inside one of its JVMTI calls)? Then the caller does nothing:
 * the update scans the loaded classes again when it is done. */
bool events_updating_here(void);
/* From ClassPrepare when fallback.h needs its Breakpoint or MethodExit event
 * on: only those two follow fallback_need_now(). */
void events_fallback_changed(void);
/* At VM death: every on-demand event off. */
void events_disable_all(void);
/* Capabilities we ask for (those the VM can give). */
void events_want_capabilities(jvmtiCapabilities *want, const jvmtiCapabilities *potential);

/* agent.c */
void JNICALL agent_vm_init(jvmtiEnv *jv, JNIEnv *jni, jthread thread);
void JNICALL agent_vm_death(jvmtiEnv *jv, JNIEnv *jni);

#endif
