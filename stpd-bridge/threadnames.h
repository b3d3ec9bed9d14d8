/* threadnames.h: the names of a JVM's threads, learnt from ThreadName
 * events, for the thread= field of thread.start / thread.end lines.
 *
 * Contract: a hashed table keyed by thread id; names are copied. What a
 * peer sends cannot make it large: a name is kept to THREADNAMES_NAME_MAX
 * bytes (cut where a UTF-8 character begins, THREADNAMES_CUT_MARK after
 * it), and the table with its names to THREADNAMES_MAX_BYTES; a name that
 * would pass that is not kept (its lines then have no thread= field). The
 * first time each bound is reached it is logged, once per table (warn,
 * naming the JVM threadnames_owner() gave). Allocation failure only means a
 * name is not kept.
 */
#ifndef STPD_BRIDGE_THREADNAMES_H
#define STPD_BRIDGE_THREADNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define THREADNAMES_NAME_MAX 1024u
#define THREADNAMES_MAX_BYTES (4u << 20)
#define THREADNAMES_CUT_MARK "\xe2\x80\xa6"   /* U+2026, "…" */

struct threadname {
	uint64_t tid;
	char *name;              /* NULL: a free slot */
	size_t len;
	uint64_t java_tid;       /* Thread.getId(), 0 unknown */
};

struct threadnames {
	struct threadname *slots;  /* open addressing; cap a power of two */
	size_t n, cap;
	size_t bytes;              /* slots and names, against THREADNAMES_MAX_BYTES */
	int owner;                 /* the JVM's pid, for the log; 0: none */
	bool cut_said, full_said;
};

void threadnames_init(struct threadnames *t);
/* The JVM whose names these are, for the lines that say a bound was reached. */
void threadnames_owner(struct threadnames *t, int pid);
void threadnames_free(struct threadnames *t);
/* JAVA_TID: the thread's Java id, 0 when the agent did not send it. */
void threadnames_set(struct threadnames *t, uint64_t tid, const char *name, size_t len, uint64_t java_tid);
/* NULL when unknown. */
const struct threadname *threadnames_get(const struct threadnames *t, uint64_t tid);
void threadnames_forget(struct threadnames *t, uint64_t tid);

#endif
