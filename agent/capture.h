/* capture.h: optional data (Appendix C values), object ids and stack traces.
 *
 * Contract: called on the event's own Java thread inside a callback that got
 * a JNIEnv; strings and class names go into the thread's scratch arena, and
 * what cannot be read (native frame, arena used up, JVMTI error) becomes '?'.
 * String contents are standard UTF-8 cut at agent.opt.strmax bytes, on a
 * character boundary. Object ids are JVMTI tags: stable per object for the
 * JVMTI environment's life, never reused.
 */
#ifndef STAPJAVA_AGENT_CAPTURE_H
#define STAPJAVA_AGENT_CAPTURE_H

#include <jvmti.h>
#include <stdint.h>

#include "mcache.h"
#include "scratch.h"
#include "wire.h"

/* Once, when JNI works (VMInit / attach): remembers java.lang.String. */
void capture_init(JNIEnv *jni);
/* The object's id (tagging it on first sight); 0 for null or on error. */
uint64_t capture_object_id(jobject obj);
/* Tag for an object that is already tagged or 0; does not tag. */
uint64_t capture_peek_tag(jobject obj);
/* An object reference as a value: 'N', 'T', 'L' or '['. */
void capture_object(JNIEnv *jni, struct scratch *s, jobject obj, struct wire_value *v);
/* MethodEnter arguments of the frame at DEPTH of THREAD, into ev->values/nvalues. */
void capture_args(JNIEnv *jni, jthread thread, jint depth, const struct mentry *m, struct scratch *s);
/* MethodExit return value into ev->retval. */
void capture_return(JNIEnv *jni, const struct mentry *m, jvalue value, struct scratch *s);
/* Stack of the current thread from frame DEPTH on, innermost first, into ev->trailer. */
void capture_stack(jthread thread, jint depth, struct scratch *s);

#endif
