/* preinit.c: see preinit.h. A small abstract interpreter: each stack and
 * local slot is either `this` (uninitialized) or something else. */
#include "preinit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "descriptor.h"

enum { OTHER = 0, THIS = 1 };

struct state {
	uint32_t pc, depth;
	uint8_t *stack;          /* max_stack tags */
	uint8_t *locals;         /* max_locals tags */
};

/* PRE[pc] while scanning: 0 unseen, QUEUED (a state waits to walk from
 * it), WALKED (the output's PREINIT_BEFORE), PREINIT_INIT_CALL. */
enum { QUEUED = 2, WALKED = PREINIT_BEFORE };
_Static_assert((int)QUEUED != (int)PREINIT_INIT_CALL, "scan marks and output marks differ");

struct scan {
	const uint8_t *code;
	uint32_t len, max_stack, max_locals;
	const struct preinit_handler *handlers;
	size_t nhandlers;
	const struct preinit_pool *pool;
	uint8_t *pre;
	struct state *work;
	size_t nwork, capwork;
	const char *why;
	int inits;
};

/* Stack effect in slots of the opcodes whose effect is fixed: pops << 4 | pushes;
 * 0xff where it depends on operands or the opcode is handled apart. */
static uint8_t fixed_effect(uint8_t op)
{
	static const uint8_t table[256] = {
		[0x00] = 0x00,
		[0x01] = 0x01, [0x02] = 0x01, [0x03] = 0x01, [0x04] = 0x01, [0x05] = 0x01,
		[0x06] = 0x01, [0x07] = 0x01, [0x08] = 0x01, [0x09] = 0x02, [0x0a] = 0x02,
		[0x0b] = 0x01, [0x0c] = 0x01, [0x0d] = 0x01, [0x0e] = 0x02, [0x0f] = 0x02,
		[0x10] = 0x01, [0x11] = 0x01, [0x12] = 0x01, [0x13] = 0x01, [0x14] = 0x02,
		[0x15] = 0x01, [0x16] = 0x02, [0x17] = 0x01, [0x18] = 0x02, [0x19] = 0xff,
		[0x1a] = 0x01, [0x1b] = 0x01, [0x1c] = 0x01, [0x1d] = 0x01,
		[0x1e] = 0x02, [0x1f] = 0x02, [0x20] = 0x02, [0x21] = 0x02,
		[0x22] = 0x01, [0x23] = 0x01, [0x24] = 0x01, [0x25] = 0x01,
		[0x26] = 0x02, [0x27] = 0x02, [0x28] = 0x02, [0x29] = 0x02,
		[0x2a] = 0xff, [0x2b] = 0xff, [0x2c] = 0xff, [0x2d] = 0xff,
		[0x2e] = 0x21, [0x2f] = 0x22, [0x30] = 0x21, [0x31] = 0x22, [0x32] = 0x21,
		[0x33] = 0x21, [0x34] = 0x21, [0x35] = 0x21,
		[0x36] = 0xff, [0x37] = 0xff, [0x38] = 0xff, [0x39] = 0xff, [0x3a] = 0xff,
		[0x3b] = 0xff, [0x3c] = 0xff, [0x3d] = 0xff, [0x3e] = 0xff,
		[0x3f] = 0xff, [0x40] = 0xff, [0x41] = 0xff, [0x42] = 0xff,
		[0x43] = 0xff, [0x44] = 0xff, [0x45] = 0xff, [0x46] = 0xff,
		[0x47] = 0xff, [0x48] = 0xff, [0x49] = 0xff, [0x4a] = 0xff,
		[0x4b] = 0xff, [0x4c] = 0xff, [0x4d] = 0xff, [0x4e] = 0xff,
		[0x4f] = 0x30, [0x50] = 0x40, [0x51] = 0x30, [0x52] = 0x40, [0x53] = 0x30,
		[0x54] = 0x30, [0x55] = 0x30, [0x56] = 0x30,
		[0x57] = 0x10, [0x58] = 0x20,
		[0x59] = 0xff, [0x5a] = 0xff, [0x5b] = 0xff, [0x5c] = 0xff, [0x5d] = 0xff,
		[0x5e] = 0xff, [0x5f] = 0xff,
		[0x60] = 0x21, [0x61] = 0x42, [0x62] = 0x21, [0x63] = 0x42,
		[0x64] = 0x21, [0x65] = 0x42, [0x66] = 0x21, [0x67] = 0x42,
		[0x68] = 0x21, [0x69] = 0x42, [0x6a] = 0x21, [0x6b] = 0x42,
		[0x6c] = 0x21, [0x6d] = 0x42, [0x6e] = 0x21, [0x6f] = 0x42,
		[0x70] = 0x21, [0x71] = 0x42, [0x72] = 0x21, [0x73] = 0x42,
		[0x74] = 0x11, [0x75] = 0x22, [0x76] = 0x11, [0x77] = 0x22,
		[0x78] = 0x21, [0x79] = 0x32, [0x7a] = 0x21, [0x7b] = 0x32, [0x7c] = 0x21, [0x7d] = 0x32,
		[0x7e] = 0x21, [0x7f] = 0x42, [0x80] = 0x21, [0x81] = 0x42, [0x82] = 0x21, [0x83] = 0x42,
		[0x84] = 0x00,
		[0x85] = 0x12, [0x86] = 0x11, [0x87] = 0x12, [0x88] = 0x21, [0x89] = 0x21, [0x8a] = 0x22,
		[0x8b] = 0x11, [0x8c] = 0x12, [0x8d] = 0x12, [0x8e] = 0x21, [0x8f] = 0x22, [0x90] = 0x21,
		[0x91] = 0x11, [0x92] = 0x11, [0x93] = 0x11,
		[0x94] = 0x41, [0x95] = 0x21, [0x96] = 0x21, [0x97] = 0x41, [0x98] = 0x41,
		[0x99] = 0x10, [0x9a] = 0x10, [0x9b] = 0x10, [0x9c] = 0x10, [0x9d] = 0x10, [0x9e] = 0x10,
		[0x9f] = 0x20, [0xa0] = 0x20, [0xa1] = 0x20, [0xa2] = 0x20, [0xa3] = 0x20, [0xa4] = 0x20,
		[0xa5] = 0x20, [0xa6] = 0x20, [0xa7] = 0x00, [0xa8] = 0x01, [0xa9] = 0x00,
		[0xaa] = 0x10, [0xab] = 0x10,
		[0xac] = 0x10, [0xad] = 0x20, [0xae] = 0x10, [0xaf] = 0x20, [0xb0] = 0x10, [0xb1] = 0x00,
		[0xb2] = 0xff, [0xb3] = 0xff, [0xb4] = 0xff, [0xb5] = 0xff,
		[0xb6] = 0xff, [0xb7] = 0xff, [0xb8] = 0xff, [0xb9] = 0xff, [0xba] = 0xff,
		[0xbb] = 0x01, [0xbc] = 0x11, [0xbd] = 0x11, [0xbe] = 0x11, [0xbf] = 0x10,
		[0xc0] = 0x11, [0xc1] = 0x11, [0xc2] = 0x10, [0xc3] = 0x10,
		[0xc5] = 0xff, [0xc6] = 0x10, [0xc7] = 0x10, [0xc8] = 0x00, [0xc9] = 0x01,
	};
	return table[op];
}

static int fail(struct scan *s, const char *why)
{
	if (!s->why)
		s->why = why;
	return -EINVAL;
}

static int push(struct scan *s, struct state *st, uint8_t tag)
{
	if (st->depth >= s->max_stack)
		return fail(s, "operand stack overflows max_stack");
	st->stack[st->depth++] = tag;
	return 0;
}

static int pop(struct scan *s, struct state *st, uint32_t n)
{
	if (n > st->depth)
		return fail(s, "operand stack underflows");
	st->depth -= n;
	return 0;
}

static int effect(struct scan *s, struct state *st, uint32_t pops, uint32_t pushes)
{
	int rc = pop(s, st, pops);
	for (uint32_t i = 0; i < pushes && rc == 0; i++)
		rc = push(s, st, OTHER);
	return rc;
}

/* The dup family and swap move tags around: top slots [TAKE] are copied
 * below the next [UNDER] slots. */
static int dup_under(struct scan *s, struct state *st, uint32_t take, uint32_t under)
{
	uint8_t keep[4];

	if (take + under > st->depth)
		return fail(s, "operand stack underflows");
	if (st->depth + take > s->max_stack)
		return fail(s, "operand stack overflows max_stack");
	uint8_t *top = st->stack + st->depth - take - under;
	memcpy(keep, st->stack + st->depth - take, take);
	memmove(top + take, top, take + under);
	memcpy(top, keep, take);
	st->depth += take;
	return 0;
}

static int local_index(struct scan *s, const struct bc_insn *in, uint32_t *idx)
{
	const uint8_t *p = s->code + in->pc;

	if (in->wide)
		*idx = (uint32_t)p[2] << 8 | p[3];
	else if (in->len == 2)
		*idx = p[1];
	return *idx < s->max_locals ? 0 : fail(s, "a local out of max_locals");
}

/* Loads and stores: the op decides the slots, tags move with aload/astore. */
static int load_store(struct scan *s, struct state *st, const struct bc_insn *in)
{
	uint8_t op = in->op;
	uint32_t idx = 0;
	bool store = op >= 0x36;
	uint32_t kind;              /* 0 i, 1 l, 2 f, 3 d, 4 a */

	if (op >= 0x15 && op <= 0x19) {
		kind = op - 0x15u;
		if (local_index(s, in, &idx) < 0)
			return -EINVAL;
	} else if (op >= 0x1a && op <= 0x2d) {
		kind = (op - 0x1au) / 4;
		idx = (op - 0x1au) % 4;
	} else if (op >= 0x36 && op <= 0x3a) {
		kind = op - 0x36u;
		if (local_index(s, in, &idx) < 0)
			return -EINVAL;
	} else {
		kind = (op - 0x3bu) / 4;
		idx = (op - 0x3bu) % 4;
	}
	uint32_t slots = (kind == 1 || kind == 3) ? 2 : 1;
	if (idx + slots > s->max_locals)
		return fail(s, "a local out of max_locals");
	if (!store)
		return push(s, st, kind == 4 ? st->locals[idx] : OTHER) ||
		       (slots == 2 && push(s, st, OTHER)) ? -EINVAL : 0;
	if (slots > st->depth)
		return fail(s, "operand stack underflows");
	st->locals[idx] = kind == 4 ? st->stack[st->depth - 1] : OTHER;
	if (slots == 2)
		st->locals[idx + 1] = OTHER;
	st->depth -= slots;
	return 0;
}

static uint32_t u2_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

/* Field access, invokes, multianewarray. Returns 1 for the call that
 * initializes `this` (the path ends there). */
static int pool_op(struct scan *s, struct state *st, const struct bc_insn *in)
{
	const uint8_t *p = s->code + in->pc;
	uint32_t idx = u2_at(p + 1);
	size_t dlen = 0;
	const char *d;

	if (in->op == 0xc5)                          /* multianewarray: dims */
		return effect(s, st, p[3], 1);
	d = s->pool->ref_desc(s->pool->ctx, idx, &dlen);
	if (!d)
		return fail(s, "an instruction names no matching constant");
	if (in->op >= 0xb2 && in->op <= 0xb5) {
		int n = descriptor_field_slots(d, dlen);
		if (n < 0)
			return fail(s, "a malformed field descriptor");
		uint32_t obj = (in->op == 0xb4 || in->op == 0xb5);
		return in->op == 0xb2 || in->op == 0xb4 ? effect(s, st, obj, (uint32_t)n)
						       : effect(s, st, obj + (uint32_t)n, 0);
	}
	int args = descriptor_arg_slots(d, dlen), ret = descriptor_ret_slots(d, dlen);
	if (args < 0 || ret < 0)
		return fail(s, "a malformed method descriptor");
	uint32_t recv = in->op == 0xb6 || in->op == 0xb7 || in->op == 0xb9;
	if (in->op == OP_INVOKESPECIAL && s->pool->ref_is_init(s->pool->ctx, idx)) {
		if ((uint32_t)args + 1 > st->depth)
			return fail(s, "operand stack underflows");
		if (st->stack[st->depth - (uint32_t)args - 1] == THIS)
			return 1;
	}
	return effect(s, st, recv + (uint32_t)args, (uint32_t)ret);
}

static int step(struct scan *s, struct state *st, const struct bc_insn *in)
{
	uint8_t op = in->op;
	uint8_t e = in->wide && op == 0x84 ? 0x00 : fixed_effect(op);

	if ((op >= 0x15 && op <= 0x19) || (op >= 0x1a && op <= 0x2d) || (op >= 0x36 && op <= 0x4e))
		return load_store(s, st, in);
	switch (op) {
	case 0x59: return dup_under(s, st, 1, 0);   /* dup */
	case 0x5a: return dup_under(s, st, 1, 1);   /* dup_x1 */
	case 0x5b: return dup_under(s, st, 1, 2);   /* dup_x2 */
	case 0x5c: return dup_under(s, st, 2, 0);   /* dup2 */
	case 0x5d: return dup_under(s, st, 2, 1);   /* dup2_x1 */
	case 0x5e: return dup_under(s, st, 2, 2);   /* dup2_x2 */
	case 0x5f:                                  /* swap */
		if (st->depth < 2)
			return fail(s, "operand stack underflows");
		uint8_t t = st->stack[st->depth - 1];
		st->stack[st->depth - 1] = st->stack[st->depth - 2];
		st->stack[st->depth - 2] = t;
		return 0;
	case 0xb2: case 0xb3: case 0xb4: case 0xb5: case 0xb6: case 0xb7: case 0xb8:
	case 0xb9: case 0xba: case 0xc5:
		return pool_op(s, st, in);
	default:
		break;
	}
	if (e == 0xff)
		return fail(s, "an opcode this scan does not know");
	return effect(s, st, e >> 4, e & 0xf);
}

static int enqueue(struct scan *s, const struct state *from, uint32_t pc, bool handler)
{
	if (pc >= s->len)
		return fail(s, "a branch out of the code");
	if (handler && s->max_stack < 1)
		return fail(s, "an exception handler with max_stack 0");
	/* once queued is enough: first arrival wins, as for walked code, and
	 * the work list stays bounded by the code's length (a long try range
	 * would queue its handler once per instruction) */
	if (s->pre[pc])
		return 0;
	s->pre[pc] = QUEUED;
	if (s->nwork == s->capwork) {
		size_t cap = s->capwork ? s->capwork * 2 : 16;
		struct state *w = realloc(s->work, cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		s->work = w;
		s->capwork = cap;
	}
	struct state *st = &s->work[s->nwork];
	st->stack = malloc(s->max_stack + 1);
	st->locals = malloc(s->max_locals + 1);
	if (!st->stack || !st->locals) {
		free(st->stack);
		free(st->locals);
		return -ENOMEM;
	}
	st->pc = pc;
	memcpy(st->locals, from->locals, s->max_locals);
	if (handler) {
		st->depth = 1;
		st->stack[0] = OTHER;
	} else {
		st->depth = from->depth;
		memcpy(st->stack, from->stack, from->depth);
	}
	s->nwork++;
	return 0;
}

/* Follow one path from ST until it ends, initializes `this`, or meets code seen before. */
static int walk(struct scan *s, struct state *st)
{
	for (;;) {
		struct bc_insn in;
		int rc;

		if (st->pc >= s->len)
			return fail(s, "code runs off its end");
		if (s->pre[st->pc] == WALKED || s->pre[st->pc] == PREINIT_INIT_CALL)
			return 0;
		if (bytecode_decode(s->code, s->len, st->pc, &in) < 0)
			return fail(s, "unknown or truncated instruction");
		s->pre[st->pc] = WALKED;
		for (size_t h = 0; h < s->nhandlers; h++)
			if (st->pc >= s->handlers[h].start && st->pc < s->handlers[h].end &&
			    (rc = enqueue(s, st, s->handlers[h].handler, true)) < 0)
				return rc;
		rc = step(s, st, &in);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			s->pre[st->pc] = PREINIT_INIT_CALL;
			s->inits++;
			return 0;
		}
		switch (in.kind) {
		case BC_COND:
			if (in.target < 0 || (rc = enqueue(s, st, (uint32_t)in.target, false)) < 0)
				return rc < 0 ? rc : fail(s, "a branch out of the code");
			break;
		case BC_GOTO:
		case BC_GOTO_W:
			if (in.target < 0 || in.target >= s->len)
				return fail(s, "a branch out of the code");
			if (in.op == OP_JSR || in.op == OP_JSR_W) {
				/* the subroutine, then on after the jsr */
				if ((rc = enqueue(s, st, (uint32_t)in.target, false)) < 0)
					return rc;
				st->depth--;
				break;
			}
			st->pc = (uint32_t)in.target;
			continue;
		case BC_SWITCH:
			for (uint32_t i = 0; i < in.ntargets; i++) {
				int64_t t = bytecode_switch_target(s->code, &in, i);
				if (t < 0 || (rc = enqueue(s, st, (uint32_t)t, false)) < 0)
					return rc < 0 ? rc : fail(s, "a switch out of the code");
			}
			return 0;
		case BC_RETURN:
		case BC_ATHROW:
		case BC_RET:
			return 0;
		default:
			break;
		}
		st->pc += in.len;
	}
}

int preinit_scan(const uint8_t *code, uint32_t len, uint32_t max_stack, uint32_t max_locals,
		 const struct preinit_handler *handlers, size_t nhandlers,
		 const struct preinit_pool *pool, uint8_t *pre, const char **why)
{
	struct scan s = { .code = code, .len = len, .max_stack = max_stack, .max_locals = max_locals,
			  .handlers = handlers, .nhandlers = nhandlers, .pool = pool, .pre = pre };
	struct state first = { 0 };
	int rc = -ENOMEM;

	memset(pre, 0, len);
	if (max_locals < 1)
		return *why = "a constructor without a local for this", -EINVAL;
	first.stack = calloc(max_stack + 1, 1);
	first.locals = calloc(max_locals + 1, 1);
	if (!first.stack || !first.locals)
		goto out;
	first.locals[0] = THIS;
	rc = enqueue(&s, &first, 0, false);
	while (rc == 0 && s.nwork) {
		struct state st = s.work[--s.nwork];
		rc = walk(&s, &st);
		free(st.stack);
		free(st.locals);
	}
	while (s.nwork) {
		s.nwork--;
		free(s.work[s.nwork].stack);
		free(s.work[s.nwork].locals);
	}
out:
	free(s.work);
	free(first.stack);
	free(first.locals);
	if (rc < 0) {
		*why = s.why ? s.why : "out of memory";
		return rc;
	}
	return s.inits;
}
