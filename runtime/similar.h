/* similar.h: how far one name is from another, for "did you mean" messages.
 *
 * Contract: similar_distance() is the Levenshtein distance of A[0..AN) and
 * B[0..BN) (insertions, deletions, substitutions of bytes), or LIMIT + 1 when
 * it is more than LIMIT or either text is longer than SIMILAR_MAX_LEN: the
 * callers only care about close names. Pure; no allocation.
 */
#ifndef STAPJAVA_SIMILAR_H
#define STAPJAVA_SIMILAR_H

#include <stddef.h>

#define SIMILAR_MAX_LEN 512u

unsigned similar_distance(const char *a, size_t an, const char *b, size_t bn, unsigned limit);

#endif
