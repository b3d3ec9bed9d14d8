/* rec_jfr_decode.h: for the JFR reader (rec_jfr_read.c), the constants of
 * a chunk -- threads, classes, methods, stack traces -- and its strings and
 * values as the pieces of a wire_event: a thread's pid (its group "pid N"),
 * tid and name, a class's signature, a method's wire name, a trailer's
 * frames, values from their text.
 *
 * Contract: reads through rec_jfr_parse.h, bounded as it is. Text that is
 * not UTF-8 in the file (Latin-1, UTF-16) and names built from pieces go
 * into the decoder's arena, which holds them until jfr_dec_reset (at most
 * 16 MiB for one event); others point into the file. A wire string is cut
 * to WIRE_MAX_STRING bytes; a stack to WIRE_MAX_STACK_DEPTH frames. A
 * reference to a class of another type than the expected one reads as
 * null. Failures: -EINVAL with d->err saying what and where.
 */
#ifndef STPD_BRIDGE_REC_JFR_DECODE_H
#define STPD_BRIDGE_REC_JFR_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "rec_jfr_parse.h"
#include "wire.h"

/* The JDK's types the decoder reads: the first roles of the reader's table. */
enum jfr_type_role { JR_THREAD, JR_GROUP, JR_CLASS, JR_METHOD, JR_STACK, JR_FRAME, JR_TYPES };
#define JFR_DECODE_ROLES                                                                          \
	[JR_THREAD] = { "java.lang.Thread", { "osName", "osThreadId", "javaName", "group" } },   \
	[JR_GROUP] = { "jdk.types.ThreadGroup", { "name" } },                                      \
	[JR_CLASS] = { "java.lang.Class", { "name" } },                                            \
	[JR_METHOD] = { "jdk.types.Method", { "type", "name", "descriptor" } },                    \
	[JR_STACK] = { "jdk.types.StackTrace", { "truncated", "frames" } },                        \
	[JR_FRAME] = { "jdk.types.StackFrame", { "method", "lineNumber", "type" } }

struct jfr_block;

struct jfr_decoder {
	struct jfr_block *blocks, *cur;
	size_t taken;             /* by the event being built */
	struct record_error *err;
};

/* Before each event: the arena is free again. */
void jfr_dec_reset(struct jfr_decoder *d);
void jfr_dec_free(struct jfr_decoder *d);

/* CLS, or JFR_NO_CLASS when it is not the class of ROLE. */
uint32_t jfr_dec_of(const struct jfr_chunk *ch, uint32_t cls, enum jfr_type_role role);

/* The value of class CLS at AT (as jfr_get_ref gives them): */
/* a class's JVM signature ("Ljava/lang/String;", "[I") */
int jfr_dec_class(struct jfr_decoder *d, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_str *out);
/* a method's wire name ("java.lang.String.length()I") */
int jfr_dec_method(struct jfr_decoder *d, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_str *out);
/* a thread: its JVM (0 when its group says none), OS tid and name (*NULL_NAME: none) */
int jfr_dec_thread(struct jfr_decoder *d, struct jfr_chunk *ch, uint32_t cls, size_t at, uint32_t *pid,
		   uint64_t *tid, struct wire_str *name, bool *null_name);
/* a stack trace into T (TF_STACK set); *SYNTHETIC: the one truncated frame
 * the writer puts where an exception's event had no stack */
int jfr_dec_stack(struct jfr_decoder *d, struct jfr_chunk *ch, uint32_t cls, size_t at, struct wire_trailer *t,
		  bool *synthetic);
/* Values of a value of class CLS (its field TEXT_K, their --print text, and
 * TYPES_K, their type letters: rec_jfr_value.h) into OUT, *N of them. */
int jfr_dec_values(struct jfr_decoder *d, struct jfr_chunk *ch, uint32_t cls, unsigned text_k, unsigned types_k,
		   const size_t *pos, struct wire_value *out, uint8_t *n);

#endif
