/* methodids.h: a receiver's table of method numbers (CAP_METHOD_IDS).
 *
 * An agent that negotiated CAP_METHOD_IDS names a method once per
 * connection (MethodName: number, name) and then sends its plain enter and
 * exit events by number (MethodEnterId, MethodExitId), and with
 * CAP_METHOD_ID_VALUES those with values too (MethodEnterIdValues,
 * MethodExitIdValue). The receiver keeps
 * the names here and turns each event by number back into the MethodEnter
 * or MethodExit it stands for, so everything after it (printing, matching,
 * markers, recording) sees the one form; by_id and method_id say where it
 * came from (a receiver may keep what it worked out per number).
 *
 * Contract: one table per connection, one thread. Bounded: numbers below
 * METHODIDS_MAX_ID (the table: 16 bytes a number up to the highest named),
 * METHODIDS_MAX_BYTES of names (our agent numbers at most as many methods,
 * agent/conn.c); a name given again for a
 * number replaces the old one. The name an event points to after
 * methodids_resolve() lives until that number is named again or the table
 * is freed. Functions return 0 or a negative errno.
 */
#ifndef STAPJAVA_RUNTIME_METHODIDS_H
#define STAPJAVA_RUNTIME_METHODIDS_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

#define METHODIDS_MAX_ID    (1u << 22)
#define METHODIDS_MAX_BYTES (64u << 20)

struct methodid {
	char *name;       /* NULL: never named */
	uint32_t len;
};

struct methodids {
	struct methodid *ids;
	size_t cap;       /* entries of ids */
	size_t bytes;     /* of the names kept */
};

/* MethodName EV (ID, NAME): kept. -E2BIG: past a bound (WHY says which),
 * -ENOMEM. */
int methodids_name(struct methodids *t, const struct wire_event *ev, char *why, size_t whylen);
/* An event by number EV (MethodEnterId, MethodExitId, MethodEnterIdValues,
 * MethodExitIdValue): made the MethodEnter / MethodExit it stands for (its
 * name; MethodExitId's popped 0 and value; the values of the others as
 * decoded). -ENOENT: a number
 * never named (WHY says which). Other events are left as they are. */
int methodids_resolve(const struct methodids *t, struct wire_event *ev, char *why, size_t whylen);
/* EV as a receiver takes it, before anything else sees it: a MethodName
 * kept (1: it is no event of its own), an event by number resolved (0), any
 * other left as it is (0); a negative errno as methodids_name() and
 * methodids_resolve() give it, WHY saying why. */
int methodids_take(struct methodids *t, struct wire_event *ev, char *why, size_t whylen);
void methodids_free(struct methodids *t);

#endif
