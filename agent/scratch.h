/* scratch.h: per-thread working memory of the event callbacks.
 *
 * Contract: a wire_event is ~20 KiB and values need room for strings, so
 * each thread that reports events gets one scratch block, allocated on its
 * first event and freed when the thread ends; callbacks allocate nothing
 * else. scratch_enter() also guards against re-entry: if a JNI or JVMTI call
 * made by a callback triggers another event on the same thread, that inner
 * event is skipped (NULL) instead of overwriting the outer one's data.
 *
 * An event may be built over several calls (a method's arguments, one
 * injected call each, probe.c): the first call marks the scratch pending
 * and leaves it; scratch_resume() takes it up again, and any new
 * scratch_enter() drops what a sequence cut short (an exception between the
 * calls) left pending.
 */
#ifndef STAPJAVA_AGENT_SCRATCH_H
#define STAPJAVA_AGENT_SCRATCH_H

#include <jvmti.h>
#include <stddef.h>

#include "emit.h"
#include "wire.h"

#define SCRATCH_ARENA (64u * 1024u)

struct scratch {
	struct wire_event ev;
	int32_t pending_site;        /* >= 0: an event being built over several calls */
	uint8_t pending_n;           /* its arguments so far */
	uint32_t pending_desc;       /* offset in its method's name of the next parameter's type */
	struct emission pending_em;
	jvmtiFrameInfo frames[WIRE_MAX_STACK_DEPTH];
	size_t used;                 /* of mem */
	char mem[SCRATCH_ARENA];
	char *strings;               /* in-thread markers' strings (SCRATCH_STRINGS), made on first use */
};

/* The strings of one in-thread event: a bigger event's are "" (markers.h). */
#define SCRATCH_STRINGS (256u * 1024u)

void scratch_init(void);
/* The calling thread's scratch, cleared for a new event; NULL if nested or out of memory. */
struct scratch *scratch_enter(void);
void scratch_leave(void);
/* The calling thread's scratch when it has one and no event is being made
 * on it (nothing nested), without taking it; NULL otherwise. Inline: the
 * plain event path asks it at every event. */
extern __thread __attribute__((tls_model("initial-exec"))) struct scratch *scratch_mine;
extern __thread __attribute__((tls_model("initial-exec"))) bool scratch_in_callback;
static inline struct scratch *scratch_idle(void)
{
	return scratch_in_callback ? NULL : scratch_mine;
}
/* The calling thread's scratch as the last scratch_enter() left it, if it is
 * pending and not in use; NULL otherwise. scratch_leave() when done. */
struct scratch *scratch_resume(void);
/* N bytes from the arena, or NULL when it is used up. */
void *scratch_alloc(struct scratch *s, size_t n);
/* S's SCRATCH_STRINGS bytes for marker strings; NULL out of memory. */
char *scratch_strings(struct scratch *s);

#endif
