/* rec_jfr_writer.h: the JFR writer's state and the helpers its two files
 * share: rec_jfr.c (records, chunks, the events that are one record each)
 * and rec_jfr_pairs.c (the events that wait for a second half: method
 * calls, blocked monitor enters, waits, GCs).
 *
 * Contract: private to the writer. A record is begun (its type), given
 * its fields in the order rec_jfr_types.c lists them, and ended (its time);
 * an entry of the constant pools it refers to is marked in the chunk it
 * is written to (rec_jfr_pool.h). Nothing here fails but for memory:
 * failures stay in w->pools.error and w->chunk.error.
 */
#ifndef STPD_BRIDGE_REC_JFR_WRITER_H
#define STPD_BRIDGE_REC_JFR_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_jfr_bytes.h"
#include "rec_jfr_pool.h"
#include "record.h"

struct open_call {
	uint64_t start;
	uint32_t method, stack;
	size_t args_off;          /* its encoded arguments in the thread's args */
};

/* A contended enter or a wait, until its entered or waited. */
struct pending_monitor {
	bool open;
	uint64_t start, object;
	uint32_t stack, class, owner;
	uint32_t timeout_ms;
};

struct thread_state {
	uint32_t pid;
	uint64_t tid;
	struct open_call *calls;
	uint32_t ncalls;
	size_t capcalls;
	struct jfr_buf args;
	struct pending_monitor enter, wait;
};

struct jvm_state {
	uint32_t pid;
	uint32_t gcs;             /* GCs recorded: the next gcId */
	bool gc_open;
	uint64_t gc_start;
	uint32_t gc_thread;
};

struct jfr_writer {
	struct record_info info;
	struct jfr_pools pools;
	struct jfr_buf meta;      /* the metadata event, the same in every chunk */
	struct jfr_buf chunk;     /* the chunk being built, from its header */
	struct jfr_buf text;      /* values' text, on its way into a record */
	uint64_t first, last;     /* its records' times */
	size_t records;
	struct thread_state *threads;
	uint32_t nthreads, last_thread;
	size_t capthreads;
	struct jvm_state *jvms;
	uint32_t njvms;
	size_t capjvms;
	int error;
};

/* A record of TYPE begun in the chunk (which it opens if need be): where it starts. */
size_t jw_begin(struct jfr_writer *w, unsigned type);
/* The record from AT on is complete; its time is TICKS. */
void jw_end(struct jfr_writer *w, size_t at, uint64_t ticks);
void jw_key(struct jfr_buf *b, uint32_t id);
void jw_bool(struct jfr_buf *b, bool v);
/* N values as two strings, their text and their type letters (rec_jfr_value.h). */
int jw_values(struct jfr_writer *w, struct jfr_buf *b, const struct wire_value *v, size_t n);
/* The stack of EV's trailer, JFR_NONE without one. */
uint32_t jw_stack(struct jfr_writer *w, const struct wire_event *ev);

/* The state of thread TID of JVM PID, of JVM PID: NULL when memory runs out. */
struct thread_state *jw_thread(struct jfr_writer *w, uint32_t pid, uint64_t tid);
struct jvm_state *jw_jvm(struct jfr_writer *w, uint32_t pid);
/* The events with a second half, on thread T (of JVM J). */
int jw_call_enter(struct jfr_writer *w, struct thread_state *t, const struct print_meta *m,
		  const struct wire_event *ev);
void jw_call_exit(struct jfr_writer *w, struct thread_state *t, const struct print_meta *m,
		  const struct wire_event *ev);
void jw_monitor_begin(struct jfr_writer *w, struct thread_state *t, struct pending_monitor *p,
		      const struct print_meta *m, const struct wire_event *ev);
void jw_monitor_end(struct jfr_writer *w, struct thread_state *t, struct pending_monitor *p,
		    const struct print_meta *m, const struct wire_event *ev);
void jw_gc(struct jfr_writer *w, struct jvm_state *j, uint32_t thread, const struct print_meta *m, bool start);
/* At the end: what still waits, written alone; then its memory freed. */
int jw_flush_waiting(struct jfr_writer *w);
void jw_free_waiting(struct jfr_writer *w);

#endif
