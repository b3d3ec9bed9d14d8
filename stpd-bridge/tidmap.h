/* tidmap.h: a JVM's thread ids as the host sees them.
 *
 * Contract: the agent reports gettid() in the JVM's own pid namespace; a
 * kernel probe's tid() is the host's. For a JVM in the bridge's pid
 * namespace the two are the same and tidmap_host() returns its argument.
 * For a JVM in a container it translates through the NSpid: lines of
 * /proc/PID/task/TID/status, which any user may read: a miss rescans the
 * task directory, and an entry older than TIDMAP_RECHECK_NS is checked
 * again (one status file) before use, so a namespace tid that a new thread
 * reuses is not given the old thread's host tid. A thread that is already
 * gone keeps its last mapping (its events may still be queued); a tid never
 * found gives 0 ("none"). Nothing here logs; memory failure means 0.
 */
#ifndef STPD_BRIDGE_TIDMAP_H
#define STPD_BRIDGE_TIDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs.h"

#define TIDMAP_RECHECK_NS 1000000000ull

struct tidmap_entry;

struct tidmap {
	pid_t pid;                /* the JVM, as the bridge sees it */
	bool identity;            /* same pid namespace: nothing to translate */
	struct tidmap_entry *e;   /* TIDMAP_SIZE entries, keyed by namespace tid */
};

/* 0 or -ENOMEM. */
int tidmap_init(struct tidmap *m, const struct jvm_id *jvm);
void tidmap_free(struct tidmap *m);

/* The host tid of the JVM's thread NS_TID (0 stays 0). NOW_NS: CLOCK_MONOTONIC. */
uint64_t tidmap_host(struct tidmap *m, uint64_t ns_tid, uint64_t now_ns);

#endif
