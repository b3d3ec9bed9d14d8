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
/* OBJ's class signature ("Ljava/lang/Object;") into *SIG (the scratch
 * arena's bytes): 0, or -EIO / -ENOMEM with *SIG untouched. */
int capture_class_of(JNIEnv *jni, struct scratch *s, jobject obj, struct wire_str *sig);
/* An object reference as a value: 'N', 'T', 'L' or '['. */
void capture_object(JNIEnv *jni, struct scratch *s, jobject obj, struct wire_value *v);
/* A value of descriptor type TYPE (B C D F I J S Z L [ V) into *V. */
void capture_value(JNIEnv *jni, struct scratch *s, char type, jvalue value, struct wire_value *v);
/* The type of the parameter at DESC_POS (inside a method descriptor's
 * parentheses) into *TYPE; returns the next one's position, NULL after the last. */
const char *capture_next_param(const char *desc_pos, char *type);
/* MethodEnter arguments where nothing can read them (a breakpoint: the agent
 * does not ask for can_access_local_variables): one '?' per parameter. */
void capture_args_unavailable(const struct mentry *m, struct scratch *s);
/* MethodExit return value into ev->retval. */
void capture_return(JNIEnv *jni, const struct mentry *m, jvalue value, struct scratch *s);
/* Stack of the current thread from frame DEPTH on, innermost first, into ev->trailer. */
void capture_stack(jthread thread, jint depth, struct scratch *s);

/* Capture the calling thread's Java stack into EM's event when a wanted
 * connection asked for stacks (OPT_STACK). THREAD may be NULL: the current
 * one. */
struct emission;
void emission_capture_stack(struct emission *em, struct scratch *s, jthread thread);

#endif
