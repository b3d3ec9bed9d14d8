/* cfpool.h: a class file's constant pool, read in place.
 *
 * Contract: cfpool_parse() walks the pool that starts at R's offset (JVMS
 * 4.4), records where each entry is and leaves R just after it; an unknown
 * tag, a Long/Double in the last slot or truncation gives -EINVAL with
 * *WHY. The accessors check indices and tags, so a class that names the
 * wrong kind of constant is refused rather than misread. The pool keeps
 * pointers into the caller's bytes. Pure.
 */
#ifndef STAPJAVA_AGENT_CFPOOL_H
#define STAPJAVA_AGENT_CFPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfbytes.h"

enum {
	CP_UTF8 = 1, CP_INTEGER = 3, CP_FLOAT = 4, CP_LONG = 5, CP_DOUBLE = 6, CP_CLASS = 7,
	CP_STRING = 8, CP_FIELDREF = 9, CP_METHODREF = 10, CP_IMETHODREF = 11,
	CP_NAME_AND_TYPE = 12, CP_METHOD_HANDLE = 15, CP_METHOD_TYPE = 16, CP_DYNAMIC = 17,
	CP_INVOKE_DYNAMIC = 18, CP_MODULE = 19, CP_PACKAGE = 20,
};

struct cfpool {
	const uint8_t *bytes;    /* the class file */
	uint32_t count;          /* constant_pool_count */
	uint32_t *off;           /* per index: offset of the entry's tag, 0 for none */
	size_t start, end;       /* the pool's entries in BYTES */
};

int cfpool_parse(struct cfpool *cp, struct cf_rd *r, const char **why);
void cfpool_free(struct cfpool *cp);
uint8_t cfpool_tag(const struct cfpool *cp, uint32_t idx);
/* A Utf8 constant's bytes; -EINVAL if IDX is not one. */
int cfpool_utf8(const struct cfpool *cp, uint32_t idx, const char **s, size_t *len);
/* The name of a Class constant (its Utf8); -EINVAL if IDX is not one. */
int cfpool_class(const struct cfpool *cp, uint32_t idx, const char **s, size_t *len);
bool cfpool_utf8_is(const struct cfpool *cp, uint32_t idx, const char *s);
/* The index of the Utf8 constant S, or 0. */
uint32_t cfpool_find_utf8(const struct cfpool *cp, const char *s);
/* Name and descriptor of a Fieldref, Methodref, InterfaceMethodref,
 * InvokeDynamic or Dynamic constant. */
int cfpool_ref(const struct cfpool *cp, uint32_t idx, const char **name, size_t *name_len,
	       const char **desc, size_t *desc_len);

#endif
