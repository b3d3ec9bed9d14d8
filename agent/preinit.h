/* preinit.h: which instructions of a constructor run before this() or super() returns.
 *
 * Why: the handler that reports a method's exceptional exit (classfile.h)
 * covers code where `this` is still uninitialized only with a frame that
 * holds uninitializedThis, and HotSpot lets no handler cover the call that
 * initializes it (it checks the handler against the frame after the call
 * too, where `this` is initialized but flagged). So the rewriter needs both:
 * the code before (JDK 25 allows statements before super()), and the call.
 *
 * Contract: preinit_scan() follows every path of CODE from offset 0 (and
 * into the exception handlers of the instructions it meets), tracking which
 * stack and local slots hold `this`, until the invokespecial of an <init>
 * whose receiver is `this`. PRE[pc] is set to PREINIT_BEFORE for each
 * instruction start reached on the way, PREINIT_INIT_CALL for that call,
 * 0 elsewhere; it returns the number of such calls met (0: `this` is never
 * initialized, every path throws). The code must decode (bytecode.h); a stack that over- or
 * underflows max_stack, a local out of range or a constant the pool does not
 * describe gives -EINVAL with *WHY. Pure: no JVMTI; it allocates only its
 * work list.
 */
#ifndef STAPJAVA_AGENT_PREINIT_H
#define STAPJAVA_AGENT_PREINIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the scan needs from the constant pool. */
struct preinit_pool {
	void *ctx;
	/* The descriptor of a Fieldref, Methodref, InterfaceMethodref or
	 * InvokeDynamic constant (NUL-less, *LEN bytes), NULL if IDX is none. */
	const char *(*ref_desc)(void *ctx, uint32_t idx, size_t *len);
	/* Is IDX a Methodref or InterfaceMethodref named <init>? */
	bool (*ref_is_init)(void *ctx, uint32_t idx);
};

enum { PREINIT_BEFORE = 1, PREINIT_INIT_CALL = 3 };

struct preinit_handler {
	uint32_t start, end, handler;
};

int preinit_scan(const uint8_t *code, uint32_t len, uint32_t max_stack, uint32_t max_locals,
		 const struct preinit_handler *handlers, size_t nhandlers,
		 const struct preinit_pool *pool, uint8_t *pre, const char **why);

#endif
