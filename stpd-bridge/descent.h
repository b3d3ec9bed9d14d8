/* descent.h: which classes descend from the roots of root method patterns
 * ("^C.m", pattern.h), as one JVM's agent says in Descends events
 * (PROTOCOL.md, "Root method patterns").
 *
 * Contract: a set of (class, root) pairs of dotted names, one per
 * connection (worker), filled as Descends events arrive and asked by
 * pattern_match_method_via() through descent_has(). Bounded to
 * DESCENT_MAX pairs and DESCENT_BYTES_MAX bytes of names (each pair's two
 * dotted names and a NUL between: what a hostile agent can make its worker
 * keep); names longer than DESCENT_NAME_MAX are not kept.
 * Nothing here logs. Functions return 0 or a negative errno.
 */
#ifndef STPD_BRIDGE_DESCENT_H
#define STPD_BRIDGE_DESCENT_H

#include <stdbool.h>
#include <stddef.h>

#define DESCENT_MAX (1u << 20)
#define DESCENT_NAME_MAX 1024u
#define DESCENT_BYTES_MAX (32u << 20)

struct descent;

/* Add "CLS descends from ROOT", both in any class form pattern.h's
 * name_class_any_to_dotted() takes (a Descends event's signatures). 1: a
 * new pair, 0: known already, -E2BIG (a bound, or a name too long),
 * -EINVAL (not a class name), -ENOMEM. *D is made at the first pair. */
int descent_add(struct descent **d, const char *cls, size_t clen, const char *root, size_t rlen);
/* pattern_descends_fn (pattern.h): CTX is the struct descent (NULL: empty). */
bool descent_has(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen);
void descent_free(struct descent *d);

#endif
