/* stackmap.h: a method's StackMapTable, decoded to absolute offsets and written again.
 *
 * Why: when code moves (codeedit.h) every frame's offset and every
 * Uninitialized(offset) type move with it, and new code (the handler that
 * reports an exceptional exit, the end of a prologue that branches) needs
 * frames of its own. Frames are kept in the form they came in (same, chop,
 * append, full ...): their meaning is relative to the frame before, which
 * stays the frame before as long as new frames either repeat it (a same
 * frame) or are full frames after the last one.
 *
 * Contract: stackmap_decode() reads the attribute's body (after its length)
 * and refuses (-EINVAL, *WHY) reserved frame types, unknown verification
 * types and truncation. stackmap_add() adds a frame at a NEW offset (the
 * decoded ones have old offsets). stackmap_encode() writes the body with
 * each decoded frame's offset, and each Uninitialized offset, passed through
 * MAP, the frames in the order of their new offsets; it picks the short or
 * extended form the new delta needs, and refuses (-EINVAL) two frames at one
 * offset.
 * Pure: no JVMTI, no global state.
 */
#ifndef STAPJAVA_AGENT_STACKMAP_H
#define STAPJAVA_AGENT_STACKMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sm_form { SM_SAME, SM_SAME_LOCALS_1, SM_CHOP, SM_APPEND, SM_FULL };
enum { SM_T_TOP, SM_T_INT, SM_T_FLOAT, SM_T_DOUBLE, SM_T_LONG, SM_T_NULL, SM_T_UNINIT_THIS,
       SM_T_OBJECT, SM_T_UNINIT };

struct sm_type {
	uint8_t tag;
	uint16_t data;           /* SM_T_OBJECT: constant-pool index; SM_T_UNINIT: offset of its new */
};

struct sm_frame {
	uint32_t pc;
	uint8_t form;
	uint8_t chop;            /* SM_CHOP: locals removed (1-3) */
	bool added;              /* PC is a new offset already */
	uint16_t nlocals, nstack;
	size_t locals, stack;    /* first index in the map's type pool */
};

struct stackmap {
	struct sm_frame *f;
	size_t n, cap;
	struct sm_type *pool;
	size_t npool, poolcap;
};

typedef uint32_t (*stackmap_map_fn)(void *ctx, uint32_t pc);

int stackmap_decode(const uint8_t *body, uint32_t len, struct stackmap *sm, const char **why);
/* A frame at new offset PC of FORM (SM_SAME or SM_FULL) with the given types. */
int stackmap_add(struct stackmap *sm, uint32_t pc, uint8_t form, const struct sm_type *locals,
		 uint16_t nlocals, const struct sm_type *stack, uint16_t nstack);
/* Is there a decoded frame at old offset PC? */
bool stackmap_has(const struct stackmap *sm, uint32_t pc);
/* The body, malloc()ed, in *OUT. 0, -EINVAL or -ENOMEM. */
int stackmap_encode(const struct stackmap *sm, stackmap_map_fn map, void *ctx, uint8_t **out,
		    size_t *out_len);
void stackmap_free(struct stackmap *sm);

#endif
