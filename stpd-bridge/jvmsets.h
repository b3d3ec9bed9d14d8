/* jvmsets.h: the JVMs the supervisor remembers from one scan of /proc to
 * the next.
 *
 * Contract: a JVM is known by its pid and its start time (jvm_id): a pid
 * that another process took since is another JVM. A jvm_list is a set of
 * them (served, failed, told once...); a jvm_due_list holds JVMs each with
 * a time, in ms, before which nothing is done for it (the next worker of a
 * JVM whose worker died; the next look for a socket in a JVM without the
 * agent) and a count the caller keeps (the deaths in a row). Both are
 * transparent (a caller may walk v[0..n) and remove with *_remove_at).
 * Pure: no /proc, no clock, no log. Out of memory, a JVM is simply not
 * remembered, which costs the caller the work it would have saved.
 */
#ifndef STPD_BRIDGE_JVMSETS_H
#define STPD_BRIDGE_JVMSETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs.h"

struct jvm_list {
	struct jvm_id *v;
	size_t n;
};

bool jvm_list_has(const struct jvm_list *l, const struct jvm_id *id);
bool jvm_list_has_pid(const struct jvm_list *l, pid_t pid);
/* ID added, even when it is there already (callers ask first): 0, or
 * -ENOMEM (the list unchanged). */
int jvm_list_add(struct jvm_list *l, const struct jvm_id *id);
void jvm_list_remove(struct jvm_list *l, const struct jvm_id *id);
/* Entry I removed; the last one takes its place. */
void jvm_list_remove_at(struct jvm_list *l, size_t i);
void jvm_list_free(struct jvm_list *l);

struct jvm_due {
	struct jvm_id jvm;
	uint64_t due_ms;
	unsigned count;
};

struct jvm_due_list {
	struct jvm_due *v;
	size_t n;
};

/* The entry of ID (pid and start time), of PID (whatever its start time),
 * or NULL. */
struct jvm_due *jvm_due_of(struct jvm_due_list *l, const struct jvm_id *id);
struct jvm_due *jvm_due_of_pid(struct jvm_due_list *l, pid_t pid);
/* A new entry for ID, due at 0, count 0; NULL without memory. */
struct jvm_due *jvm_due_add(struct jvm_due_list *l, const struct jvm_id *id);
/* Entry E (of L) removed; the last one takes its place. */
void jvm_due_remove(struct jvm_due_list *l, struct jvm_due *e);
/* The earliest due time after NOW; 0 when none is after it. */
uint64_t jvm_due_next(const struct jvm_due_list *l, uint64_t now);
/* Every entry whose pid is not among the N PIDS (in ascending order)
 * removed: a scan did not find them. */
void jvm_due_keep_pids(struct jvm_due_list *l, const pid_t *pids, size_t n);
void jvm_due_free(struct jvm_due_list *l);

#endif
