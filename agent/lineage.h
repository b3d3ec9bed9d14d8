/* lineage.h: which class descends from which, by name, for root method
 * patterns ("^C.m": C's m and every override of it, pattern.h).
 *
 * Why: a class-file hook sees a class's bytes before its superclass may be
 * loaded, and matching (regset.h) has a wire name, not a jclass. The table
 * holds what JVMTI said of prepared classes (each class's superclass), so a
 * name can be walked up to its root by name.
 *
 * Contract: lineage_note() records that class CLS (dotted) has superclass
 * SUPER (dotted; a class without one is not recorded); lineage_descends()
 * walks the records up from CLS and says whether ROOT is among its
 * ancestors (pattern_descends_fn: CLS itself is not its own ancestor).
 * Names are per name, not per class loader: two classes of one name in two
 * loaders share a record (the first one noted). Any thread; one mutex, held
 * for a table operation only (no JNI or JVMTI call under it). Used by
 * matching only while some registration is a root pattern (lineage_wanted()).
 * Functions return 0 or a negative errno.
 */
#ifndef STAPJAVA_AGENT_LINEAGE_H
#define STAPJAVA_AGENT_LINEAGE_H

#include <stdbool.h>
#include <stddef.h>

/* 0, 1 when CLS was known already (its record stays), -ENOMEM. */
int lineage_note(const char *cls, size_t clen, const char *super, size_t slen);
/* Is CLS known (noted)? */
bool lineage_known(const char *cls, size_t clen);
/* pattern_descends_fn (pattern.h); CTX unused. */
bool lineage_descends(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen);
/* Some connection has a root pattern: classes are to be noted as they are
 * prepared. Set by the connections' publish (conn.c). */
void lineage_want(bool on);
bool lineage_wanted(void);
/* Every record gone (the agent's end). */
void lineage_clear(void);

#endif
