/* rec_jfr_pool.h: the JFR writer's constant pools -- threads, thread
 * groups, classes, packages, methods, stack traces and symbols -- and the
 * constant pool event each chunk ends with (doc/recording-jfr.md).
 *
 * Contract: each pool interns its values in a hash table keyed by their
 * bytes (a name, a frame list, a pid and tid) and gives each a dense id for
 * the whole recording: the key in the file is id + 1, 0 being null. An
 * event marks the entries it refers to; jfr_pool_write() writes the entries
 * marked since the last one, and what they refer to, so every chunk holds
 * the constants its events use and no other. Tables and arenas grow by
 * doubling: in steady state nothing is allocated. Functions that can fail
 * return a negative errno (-ENOMEM, -E2BIG); ids fit in 32 bits.
 */
#ifndef STPD_BRIDGE_REC_JFR_POOL_H
#define STPD_BRIDGE_REC_JFR_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec_jfr_bytes.h"
#include "rec_tables.h"
#include "wire.h"

#define JFR_NONE UINT32_MAX   /* no entry: written as the null key 0 */

struct jfr_entry {
	uint32_t marked;          /* the chunk number it was last marked in */
	uint32_t v[3];            /* what it refers to (per pool) */
};

/* Byte strings to dense ids (rec_tables.h), and each id's entry. */
struct jfr_intern {
	struct rec_strmap map;
	struct jfr_entry *e;
	size_t cap;
	uint32_t *marked;         /* ids marked in this chunk */
	uint32_t nmarked;
	size_t capmarked;
};

struct jfr_thread {
	uint64_t tid;             /* host OS thread id, 0: none */
	uint64_t java_tid;        /* Thread.getId(), 0: not known */
	uint32_t group;
	uint32_t name_off, name_len;
	bool named;
	uint32_t marked;
};

struct jfr_pools {
	struct jfr_intern symbols, packages, classes, methods, stacks, groups;
	struct jfr_intern thread_keys;   /* (pid, tid) -> v[0]: the thread's current entry */
	struct jfr_thread *threads;
	uint32_t nthreads;
	size_t capthreads;
	struct jfr_buf names;            /* thread names */
	uint32_t *threads_marked;
	uint32_t nthreads_marked;
	size_t capthreads_marked;
	uint32_t chunk;                  /* the chunk being written, from 1 */
	struct jfr_buf scratch;          /* a stack trace's key */
	struct jfr_buf name;             /* a class name being made */
	int error;                       /* the first failure; then lookups give JFR_NONE */
};

int jfr_pools_init(struct jfr_pools *p);
void jfr_pools_free(struct jfr_pools *p);

/* Each lookup interns its value (an id, or JFR_NONE after a failure, see
 * p->error) and marks it used in this chunk. */
/* A class from its JVM signature ("Ljava/lang/String;", "[I"). */
uint32_t jfr_pool_class_sig(struct jfr_pools *p, const char *sig, size_t n);
/* A method from its wire name ("java.lang.String.length()I"). */
uint32_t jfr_pool_method(struct jfr_pools *p, const char *name, size_t n);
/* A stack trace from an event's trailer (depth 0: an empty one). */
uint32_t jfr_pool_stack(struct jfr_pools *p, const struct wire_trailer *t);
/* A stack trace of one frame, METHOD (line unknown), marked truncated: all
 * we know of where an exception was thrown when the event has no stack. */
uint32_t jfr_pool_stack_top(struct jfr_pools *p, const char *method, size_t n);
/* The slot of thread TID of JVM PID: p->thread_keys.e[slot].v[1] is the
 * caller's to keep a number of its own there (0 until it does). */
uint32_t jfr_pool_thread_slot(struct jfr_pools *p, uint32_t pid, uint64_t tid);
/* The entry of thread TID of JVM PID as it is named now. */
uint32_t jfr_pool_thread(struct jfr_pools *p, uint32_t pid, uint64_t tid);
/* The same, now named NAME: an entry with another name was that thread
 * before, and stays in the pool for the events that refer to it. */
uint32_t jfr_pool_thread_named(struct jfr_pools *p, uint32_t pid, uint64_t tid, const char *name,
			       size_t n);
/* Thread TID of JVM PID has Java id JAVA_TID (Thread.getId()): its
 * entry's javaThreadId from now on. */
void jfr_pool_thread_java_id(struct jfr_pools *p, uint32_t pid, uint64_t tid, uint64_t java_tid);
/* Mark entries that an event recorded in an earlier chunk refers to. */
void jfr_pool_mark_method(struct jfr_pools *p, uint32_t id);
void jfr_pool_mark_stack(struct jfr_pools *p, uint32_t id);
void jfr_pool_mark_class(struct jfr_pools *p, uint32_t id);
void jfr_pool_mark_thread(struct jfr_pools *p, uint32_t id);

/* Append the constant pool event of this chunk (TICKS: its time) and start
 * the next chunk's marks. 0 or a negative errno. */
int jfr_pool_write(struct jfr_pools *p, struct jfr_buf *out, uint64_t ticks);

#endif
