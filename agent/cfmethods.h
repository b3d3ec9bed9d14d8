/* cfmethods.h: a class file's name, superclass and methods, read in place.
 *
 * Why: stap-java -L lists the methods and classes of a class path as the
 * agent will name them, so it reads class files with the agent's own code
 * (cfpool.h) rather than another parser that could disagree.
 *
 * Contract: cfmethods_read() checks IN[0..LEN) as a whole class file (JVMS
 * 4.1): the magic, the constant pool, this_class (a Class constant whose
 * name is a non-empty Utf8), super_class (0 or a Class), the interfaces,
 * fields and methods complete, each method's name a non-empty Utf8 and its
 * descriptor a Utf8 starting with '(', the class's attributes complete and
 * nothing after them. Names are pointers into IN, in modified UTF-8 and not
 * NUL-terminated (mutf8.h converts a copy); offsets and constant indices say
 * where each part is, for a writer that copies the class with changes
 * (cfwrap.h), which then reads the pool kept in OUT. Returns 0, -EINVAL with *WHY
 * saying in a few words what is wrong (the offset is not told: the caller
 * names the file), or -ENOMEM. On success OUT->methods is malloc()ed (NULL
 * when the class has none) and OUT->pool holds the constant pool:
 * cfmethods_free() releases both. Pure: no JVMTI,
 * no global state, nothing printed.
 */
#ifndef STAPJAVA_AGENT_CFMETHODS_H
#define STAPJAVA_AGENT_CFMETHODS_H

#include <stddef.h>
#include <stdint.h>

#include "cfpool.h"

/* Access flags (JVMS 4.1, 4.6) the readers of the listing look at. */
#define CFM_ACC_INTERFACE 0x0200u
#define CFM_ACC_NATIVE 0x0100u
#define CFM_ACC_ABSTRACT 0x0400u

struct cfmethod {
	const char *name, *desc;	/* "buy", "(I)V" */
	size_t name_len, desc_len;
	uint16_t access;
	uint32_t name_idx, desc_idx;	/* their Utf8 constants */
	size_t start, attrs, end;	/* offsets in IN: access_flags, attributes_count, past it */
};

struct cfmethods {
	const char *name;	/* internal form: "com/acme/Shop" */
	size_t name_len;
	const char *super;	/* "java/lang/Object"; NULL for a class without one */
	size_t super_len;
	uint16_t access;
	uint32_t this_class;		/* its Class constant */
	struct cfmethod *methods;	/* in the order of the class file */
	size_t nmethods;
	size_t methods_at, methods_end;	/* offsets in IN: methods_count, the class's attributes */
	struct cfpool pool;
};

int cfmethods_read(const uint8_t *in, size_t len, struct cfmethods *out, const char **why);
void cfmethods_free(struct cfmethods *m);

#endif
