/* probe.h: stapjava.Probe, the class injected calls go to, and its native methods.
 *
 * Why: the calls classfile.h puts into matched methods land here, on the
 * Java thread, with the site id and the values the bytecode passes
 * (arguments, return value, the throwable of an exceptional exit): no JVMTI
 * event, no GetLocal*, so the methods stay compiled and the agent needs no
 * can_access_local_variables.
 *
 * Contract: probe_define() defines the class in the boot loader (visible to
 * every loader) and binds its natives, once; later calls return 0 at once.
 * Each native returns at once unless injection is on (inject.h) and a
 * connection wants the site's event. Arguments arrive one call each between
 * enterArgs and entered (scratch.h's pending event); an event is emitted
 * only whole. An exceptional exit carries the throwable as its value
 * ('L': class, id, hash), whatever the optional-data mask says.
 */
#ifndef STAPJAVA_AGENT_PROBE_H
#define STAPJAVA_AGENT_PROBE_H

#include <jvmti.h>

/* 0, or -errno with a warning logged. */
int probe_define(JNIEnv *jni);
/* The module of the Probe class (NULL before it is defined or before JDK 9). */
jobject probe_module(void);

#endif
