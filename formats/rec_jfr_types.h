/* rec_jfr_types.h: the JFR types our recordings hold (doc/recording-jfr.md):
 * their ids, and their metadata event, which the writer puts in every chunk.
 *
 * Contract: one table (rec_jfr_types.c) describes each class we write --
 * the JDK's own types and event types with the JDK's field names, types and
 * annotations (as `jfr metadata` of JDK 17 and 25 shows them), and our own
 * (stapjava.*). The writer (rec_jfr.c) writes each event's fields in the
 * order the table lists them; the reader (rec_jfr_read.c) knows types by
 * name, never by these ids, since the JDK numbers its own differently.
 */
#ifndef STPD_BRIDGE_REC_JFR_TYPES_H
#define STPD_BRIDGE_REC_JFR_TYPES_H

#include "rec_jfr_bytes.h"

enum jfr_class_id {
	/* 0 and 1 are the record types of metadata and constant pools */
	JFR_C_BOOLEAN = 4, JFR_C_INT, JFR_C_LONG, JFR_C_STRING,
	JFR_C_THREAD = 20, JFR_C_THREAD_GROUP, JFR_C_CLASS, JFR_C_CLASS_LOADER, JFR_C_METHOD,
	JFR_C_SYMBOL, JFR_C_PACKAGE, JFR_C_MODULE, JFR_C_STACK_TRACE, JFR_C_STACK_FRAME,
	JFR_C_FRAME_TYPE, JFR_C_GC_NAME, JFR_C_GC_CAUSE,
	JFR_C_LABEL = 40, JFR_C_DESCRIPTION, JFR_C_TIMESTAMP, JFR_C_TIMESPAN, JFR_C_CATEGORY,
	JFR_C_UNSIGNED, JFR_C_MEMORY_ADDRESS, JFR_C_CONTENT_TYPE,
	/* events: the JDK's */
	JFR_E_THREAD_START = 100, JFR_E_THREAD_END, JFR_E_CLASS_LOAD, JFR_E_CLASS_UNLOAD,
	JFR_E_EXCEPTION_THROW, JFR_E_MONITOR_ENTER, JFR_E_MONITOR_WAIT, JFR_E_GC,
	/* events: ours */
	JFR_E_METHOD_CALL = 120, JFR_E_METHOD_COMPILE, JFR_E_CLASS_PREPARE, JFR_E_EXCEPTION_CATCH,
	JFR_E_CONTENDED_ENTER, JFR_E_CONTENDED_ENTERED, JFR_E_WAIT, JFR_E_WAITED,
	JFR_E_GC_START, JFR_E_GC_FINISH, JFR_E_VM_INIT, JFR_E_VM_DEATH, JFR_E_LOST,
};

/* The one frame type we write: the JDK's name for a native method's frame. */
#define JFR_FRAME_TYPE_NATIVE "Native"
/* A thread group per JVM, so that every thread says which JVM it is of:
 * "pid 4242" (the reader takes the pid back from it). */
#define JFR_GROUP_PREFIX "pid "

/* Append the metadata event (record type 0) describing every class of the
 * table. 0, or -ENOMEM. */
int jfr_types_metadata(struct jfr_buf *out);

#endif
