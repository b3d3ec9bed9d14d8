/* callbacks.h: the JVMTI event callbacks, one file per event family.
 *
 * Contract: each callback returns at once unless a connection registered
 * for it (the JVMTI event is only enabled while one did, see jvmti_events.h);
 * it never blocks except for a synchronous Ack wait bounded by timeout_us,
 * and GC-context callbacks (GarbageCollection*, ObjectFree) make no JNI or
 * JVMTI call and never wait.
 */
#ifndef STAPJAVA_AGENT_CALLBACKS_H
#define STAPJAVA_AGENT_CALLBACKS_H

#include <jvmti.h>
#include <string.h>

#include "agent.h"
#include "capture.h"
#include "emit.h"
#include "scratch.h"

void JNICALL cb_breakpoint(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			   jlocation location);
void JNICALL cb_method_exit(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			    jboolean popped, jvalue value);
void JNICALL cb_compiled_method_load(jvmtiEnv *jv, jmethodID method, jint code_size,
				     const void *code_addr, jint map_length,
				     const jvmtiAddrLocationMap *map, const void *compile_info);
void JNICALL cb_class_load(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jclass klass);
void JNICALL cb_class_prepare(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jclass klass);
void JNICALL cb_object_free(jvmtiEnv *jv, jlong tag);
void JNICALL cb_exception(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			  jlocation location, jobject exception, jmethodID catch_method,
			  jlocation catch_location);
void JNICALL cb_exception_catch(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
				jlocation location, jobject exception);
/* The switched families' callbacks (cb_thread.c, cb_monitor.c, cb_gc.c)
 * are their own: jvmti_family.h. */

/* cb_thread.c, on the I/O thread: C has just switched thread events on;
 * send it the names of the threads already running. */
struct conn;
void threads_name_live(struct conn *c, JNIEnv *jni);

/* Class-unload tracking (cb_class.c), from the I/O thread after registrations change. */
void unload_track_loaded(JNIEnv *jni);

#endif
