/* scratch.h: per-thread working memory of the event callbacks.
 *
 * Contract: a wire_event is ~20 KiB and values need room for strings, so
 * each thread that reports events gets one scratch block, allocated on its
 * first event and freed when the thread ends; callbacks allocate nothing
 * else. scratch_enter() also guards against re-entry: if a JNI or JVMTI call
 * made by a callback triggers another event on the same thread, that inner
 * event is skipped (NULL) instead of overwriting the outer one's data.
 */
#ifndef STAPJAVA_AGENT_SCRATCH_H
#define STAPJAVA_AGENT_SCRATCH_H

#include <jvmti.h>
#include <stddef.h>

#include "wire.h"

#define SCRATCH_ARENA (64u * 1024u)

struct scratch {
	struct wire_event ev;
	jvmtiFrameInfo frames[WIRE_MAX_STACK_DEPTH];
	size_t used;                 /* of mem */
	char mem[SCRATCH_ARENA];
};

void scratch_init(void);
/* The calling thread's scratch, cleared for a new event; NULL if nested or out of memory. */
struct scratch *scratch_enter(void);
void scratch_leave(void);
/* N bytes from the arena, or NULL when it is used up. */
void *scratch_alloc(struct scratch *s, size_t n);

#endif
