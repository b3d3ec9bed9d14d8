/* patindex.h: a set of compiled patterns of one kind, indexed by their
 * literal start or end, so that a name is matched against the few patterns
 * that can select it, not against every one.
 *
 * Why: one agent connection may hold thousands of registrations, and every
 * method the JVM reports or rewrites and every class it loads is matched
 * against them (2,000 registrations took 14 s to apply when each name was
 * tried against each pattern).
 *
 * Contract: patindex_build() makes an immutable index over N patterns of
 * one kind, known by their position; the caller keeps the patterns alive
 * and unchanged while the index lives. A pattern is filed under its literal
 * prefix (the bytes before its first '*'; a pattern without '*' is all
 * prefix), else under its literal suffix, else in a list tried one by one
 * ("*", "*foo*"). A lookup makes one binary search per distinct key length
 * and fully matches (pattern.h) only the patterns whose key the name has,
 * calling FN for each that selects it, in no particular order, until FN
 * returns true ("stop"); it returns whether FN stopped it. Keys are cut at
 * PATINDEX_KEY_MAX bytes (the full match checks the rest). Lookups never
 * allocate, never fail, and may run on many threads at once; a NULL index
 * is an empty one. Functions return 0 or a negative errno.
 */
#ifndef STAPJAVA_PATINDEX_H
#define STAPJAVA_PATINDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "pattern.h"

#define PATINDEX_KEY_MAX 256u

struct patindex;

/* I: the position of a pattern in the array given to patindex_build(). */
typedef bool (*patindex_fn)(void *ctx, size_t i);

/* An index over PATS[0..N), all of KIND. 0, -ENOMEM, -EINVAL (a pattern of
 * another kind). The array itself may go once this returns. */
int patindex_build(struct patindex **out, enum pattern_kind kind, const struct pattern *const *pats,
		   size_t n);
void patindex_free(struct patindex *ix);
/* What IX takes in memory, for the caller's bounds. */
size_t patindex_bytes(const struct patindex *ix);

/* FN for each method pattern that selects the wire method name NAME. */
bool patindex_match_method(const struct patindex *ix, const char *name, size_t len, patindex_fn fn,
			   void *ctx);
/* FN for each class pattern that selects the class with JVMTI signature SIG. */
bool patindex_match_class(const struct patindex *ix, const char *sig, size_t len, patindex_fn fn,
			  void *ctx);
/* FN for each method pattern that may select a method of the class DOTTED
 * (Java form): those for which pattern_method_may_select_class() is true. */
bool patindex_method_classes(const struct patindex *ix, const char *dotted, size_t len,
			     patindex_fn fn, void *ctx);

#endif
