/* descriptor.h: walking field and method descriptors (JVMS 4.3).
 *
 * Contract: every function reads at most LEN bytes of D (not NUL-terminated)
 * and checks the grammar it walks: a malformed descriptor gives -EINVAL.
 * descriptor_next() steps over one field type at *POS and returns its first
 * character (the kind: B C D F I J S Z L [) and its slots (1, or 2 for J D).
 * Pure.
 */
#ifndef STAPJAVA_AGENT_DESCRIPTOR_H
#define STAPJAVA_AGENT_DESCRIPTOR_H

#include <stddef.h>

/* One field type at D[*POS]; *POS moves past it; *KIND its first character.
 * Returns its slots (1 or 2), or -EINVAL. */
int descriptor_next(const char *d, size_t len, size_t *pos, char *kind);
/* Slots of a field descriptor (the whole of D). */
int descriptor_field_slots(const char *d, size_t len);
/* Slots of a method descriptor's parameters, and of its return (0 for V). */
int descriptor_arg_slots(const char *d, size_t len);
int descriptor_ret_slots(const char *d, size_t len);
/* The return type's kind ('V' too), or 0 if malformed. */
char descriptor_ret_kind(const char *d, size_t len);

#endif
