/* print.h: the `stpd-bridge --print` line format (doc/agent-bridge.md), and
 * the text of the SDT markers' string arguments (markers.h) in the bridge and
 * the agent alike.
 *
 * Contract: pure functions. They format one decoded event, or one value,
 * into a caller-owned buffer and never allocate, log or fail for bad peer
 * bytes: whatever the bytes, the output is one line with no NUL, no newline
 * inside it and no byte below 0x20 other than none at all (names and strings
 * are escaped). They return the number of bytes written (a NUL follows, not
 * counted), 0 when the event has no line of its own (Hello, ThreadName), or
 * -ENOSPC when the buffer is too small (its contents are then undefined).
 * PRINT_LINE_MAX bytes always suffice for any event the decoder accepts.
 * The pieces below (a name, a class, values, a stack) are the fields of a
 * line on their own, for the SDT marker arguments (doc/markers.md).
 */
#ifndef STAPJAVA_PRINT_H
#define STAPJAVA_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire.h"

/* Escaping makes a byte at most 4 bytes; a message is at most WIRE_MAX_MESSAGE
 * bytes; the fixed text per value/frame is bounded by the slack. */
#define PRINT_LINE_MAX (4u * WIRE_MAX_MESSAGE + 65536u)

/* What the line says besides the event body: resolved by the caller (the
 * trailer when there is one, else the bridge's own stamp). */
struct print_meta {
	uint32_t pid;             /* the JVM's pid as the bridge sees it */
	uint64_t tid;             /* OS thread id of the event's thread (0: none) */
	uint64_t ts_ns;           /* CLOCK_MONOTONIC nanoseconds */
	const char *thread_name;  /* thread.start/end: the name, or NULL if unknown */
	size_t thread_name_len;
	uint64_t owner_tid;       /* monitor.contended_enter with TF_MONITOR: the owner's OS tid (0: none) */
	uint64_t java_tid;        /* the thread's Java id (Thread.getId()) when the bridge knows it, else 0 */
};

/* "method.enter" ... "lost", or NULL for codes with no line (Hello, ThreadName). */
const char *print_event_label(unsigned code);

/* One whole line for EV, ending in '\n'. */
ssize_t print_event_line(char *buf, size_t cap, const struct print_meta *meta,
			 const struct wire_event *ev);

/* One value as in the table of doc/agent-bridge.md ("5", "\"hi\"...", "int[3]#7"). */
ssize_t print_value(char *buf, size_t cap, const struct wire_value *v);

/* The pieces of a line, each NUL-terminated: a method name as in method=;
 * a class signature in Java form as in class=; free text (a thread name)
 * with control bytes, 0x7F, '\' and bytes that are not UTF-8 as \xHH but
 * spaces kept; values comma-separated as in args=; frames as in stack=
 * (without the "stack=", "" for none). */
ssize_t print_name(char *buf, size_t cap, const struct wire_str *name);
ssize_t print_class(char *buf, size_t cap, const struct wire_str *sig);
ssize_t print_text(char *buf, size_t cap, const char *s, size_t n);
/* Text in double quotes, escaped as a String value is ("\"" and \xHH). */
ssize_t print_quoted(char *buf, size_t cap, const char *s, size_t n);
ssize_t print_values(char *buf, size_t cap, const struct wire_value *v, size_t n);
ssize_t print_stack(char *buf, size_t cap, const struct wire_trailer *t);
/* The frames in Java's own form, innermost first, joined by '|':
 * "Shop.handle(Shop.java:42)", as StackTraceElement.toString() shows them
 * ("(Unknown Source)" without a source file, "(Native Method)"). OFFSETS,
 * unless NULL, gets each frame's offset in BUF (t->depth of them). */
ssize_t print_java_stack(char *buf, size_t cap, const struct wire_trailer *t, uint32_t *offsets);

#endif
