/* lineage_jvm.h: lineage.h's records from the JVM, and the Descends events
 * (PROTOCOL.md, "Root method patterns") that tell a bridge which classes
 * descend from the roots of its patterns. */
#ifndef STAPJAVA_AGENT_LINEAGE_JVM_H
#define STAPJAVA_AGENT_LINEAGE_JVM_H

#include <jni.h>
#include <stdbool.h>

/* From the JVM (lineage_jvm.c): note KLASS (signature SIG) and its
 * ancestors up to the first one already noted. Where JNI may be called. */
void lineage_learn(JNIEnv *jni, jclass klass, const char *sig);
/* Send each connection that negotiated CAP_ROOTS a Descends event for each
 * root of its registrations that class SIG descends from (JAVA_THREAD: the
 * caller is a Java thread, as emit.h's emission_begin()). */
void lineage_tell(const char *sig, bool java_thread);


#endif
