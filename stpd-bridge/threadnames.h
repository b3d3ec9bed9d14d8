/* threadnames.h: the names of a JVM's threads, learnt from ThreadName
 * events, for the thread= field of thread.start / thread.end lines.
 *
 * Contract: a bounded table keyed by thread id; names are copied. A full
 * table stores nothing more (the line then has no thread= field). Nothing
 * here logs; allocation failure only means a name is not kept.
 */
#ifndef STPD_BRIDGE_THREADNAMES_H
#define STPD_BRIDGE_THREADNAMES_H

#include <stddef.h>
#include <stdint.h>

#define THREADNAMES_MAX 65536u

struct threadname {
	uint64_t tid;
	char *name;
	size_t len;
};

struct threadnames {
	struct threadname *items;
	size_t n, cap;
};

void threadnames_init(struct threadnames *t);
void threadnames_free(struct threadnames *t);
void threadnames_set(struct threadnames *t, uint64_t tid, const char *name, size_t len);
/* NULL when unknown. */
const struct threadname *threadnames_get(const struct threadnames *t, uint64_t tid);
void threadnames_forget(struct threadnames *t, uint64_t tid);

#endif
