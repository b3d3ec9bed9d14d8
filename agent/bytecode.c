/* bytecode.c: see bytecode.h. */
#include "bytecode.h"

#include <errno.h>

/* Fixed instruction lengths, 0 where the length depends on the operands
 * (tableswitch, lookupswitch, wide) or the opcode is not valid in a class
 * file (0xca breakpoint and above are reserved). */
static uint8_t fixed_len(uint8_t op)
{
	if (op <= 0x0f) return 1;                       /* nop .. dconst_1 */
	switch (op) {
	case 0x10: return 2;                            /* bipush */
	case 0x11: return 3;                            /* sipush */
	case 0x12: return 2;                            /* ldc */
	case 0x13: case 0x14: return 3;                 /* ldc_w, ldc2_w */
	case 0x84: return 3;                            /* iinc */
	case 0xa9: return 2;                            /* ret */
	case 0xaa: case 0xab: case 0xc4: return 0;      /* switches, wide */
	case 0xb9: case 0xba: return 5;                 /* invokeinterface, invokedynamic */
	case 0xbc: return 2;                            /* newarray */
	case 0xc5: return 4;                            /* multianewarray */
	case 0xc8: case 0xc9: return 5;                 /* goto_w, jsr_w */
	default: break;
	}
	if (op >= 0x15 && op <= 0x19) return 2;         /* iload .. aload */
	if (op >= 0x1a && op <= 0x35) return 1;         /* iload_0 .. saload */
	if (op >= 0x36 && op <= 0x3a) return 2;         /* istore .. astore */
	if (op >= 0x3b && op <= 0x98) return 1;         /* istore_0 .. dcmpg */
	if (op >= 0x99 && op <= 0xa8) return 3;         /* if* .. goto, jsr */
	if (op >= 0xac && op <= 0xb1) return 1;         /* returns */
	if (op >= 0xb2 && op <= 0xb8) return 3;         /* field access, invokes */
	if (op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1) return 3; /* new, anewarray, checkcast, instanceof */
	if (op == 0xbe || op == 0xbf || op == 0xc2 || op == 0xc3) return 1; /* arraylength, athrow, monitors */
	if (op == 0xc6 || op == 0xc7) return 3;         /* ifnull, ifnonnull */
	return 0;
}

static int32_t s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] << 8 | p[1]); }
static int32_t s32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}

uint32_t bytecode_switch_body_len(uint8_t op, uint32_t ntargets)
{
	/* tableswitch: default low high + offsets; lookupswitch: default npairs + pairs */
	return op == OP_TABLESWITCH ? 12 + 4 * (ntargets - 1) : 8 + 8 * (ntargets - 1);
}

static int decode_switch(const uint8_t *code, size_t len, size_t pc, struct bc_insn *in)
{
	size_t p = (pc + 4) & ~(size_t)3;               /* operands are 4-byte aligned */
	uint64_t n;

	if (p + 8 > len)
		return -EINVAL;
	if (in->op == OP_TABLESWITCH) {
		if (p + 12 > len)
			return -EINVAL;
		int64_t lo = s32(code + p + 4), hi = s32(code + p + 8);
		if (hi < lo)
			return -EINVAL;
		n = (uint64_t)(hi - lo + 1);
		if (n > (len - p - 12) / 4)
			return -EINVAL;
	} else {
		int64_t pairs = s32(code + p + 4);
		if (pairs < 0 || (uint64_t)pairs > (len - p - 8) / 8)
			return -EINVAL;
		n = (uint64_t)pairs;
	}
	in->kind = BC_SWITCH;
	in->pad = (uint32_t)(p - pc - 1);
	in->ntargets = (uint32_t)n + 1;
	in->len = (uint32_t)(p - pc) + bytecode_switch_body_len(in->op, in->ntargets);
	return 0;
}

int bytecode_decode(const uint8_t *code, size_t len, size_t pc, struct bc_insn *in)
{
	if (pc >= len)
		return -EINVAL;
	uint8_t op = code[pc];

	*in = (struct bc_insn){ .pc = (uint32_t)pc, .op = op, .kind = BC_PLAIN, .target = -1 };
	if (op == OP_TABLESWITCH || op == OP_LOOKUPSWITCH)
		return decode_switch(code, len, pc, in);
	if (op == OP_WIDE) {
		if (pc + 1 >= len)
			return -EINVAL;
		in->wide = true;
		in->op = code[pc + 1];
		/* iinc takes 6 bytes; the loads, stores and ret 4 */
		if (in->op == 0x84)
			in->len = 6;
		else if ((in->op >= 0x15 && in->op <= 0x19) || (in->op >= 0x36 && in->op <= 0x3a) || in->op == 0xa9)
			in->len = 4;
		else
			return -EINVAL;
		if (pc + in->len > len)
			return -EINVAL;
		if (in->op == 0xa9)
			in->kind = BC_RET;
		return 0;
	}
	in->len = fixed_len(op);
	if (in->len == 0 || pc + in->len > len)
		return -EINVAL;
	if ((op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7) {
		in->kind = BC_COND;
		in->target = (int64_t)pc + s16(code + pc + 1);
	} else if (op == OP_GOTO || op == OP_JSR) {
		in->kind = BC_GOTO;
		in->target = (int64_t)pc + s16(code + pc + 1);
	} else if (op == OP_GOTO_W || op == OP_JSR_W) {
		in->kind = BC_GOTO_W;
		in->target = (int64_t)pc + s32(code + pc + 1);
	} else if (op >= OP_IRETURN && op <= OP_RETURN) {
		in->kind = BC_RETURN;
	} else if (op == OP_ATHROW) {
		in->kind = BC_ATHROW;
	} else if (op == 0xa9) {
		in->kind = BC_RET;
	}
	return 0;
}

int64_t bytecode_switch_target(const uint8_t *code, const struct bc_insn *in, uint32_t i)
{
	const uint8_t *ops = code + in->pc + 1 + in->pad;

	if (i == 0)
		return (int64_t)in->pc + s32(ops);
	if (in->op == OP_TABLESWITCH)
		return (int64_t)in->pc + s32(ops + 12 + 4 * (i - 1));
	return (int64_t)in->pc + s32(ops + 8 + 8 * (i - 1) + 4);
}

int bytecode_branches_to(const uint8_t *code, size_t len, size_t target)
{
	int hit = 0;

	for (size_t pc = 0; pc < len;) {
		struct bc_insn in;
		if (bytecode_decode(code, len, pc, &in) < 0)
			return -EINVAL;
		if (in.kind == BC_COND || in.kind == BC_GOTO || in.kind == BC_GOTO_W)
			hit |= in.target == (int64_t)target;
		else if (in.kind == BC_SWITCH)
			for (uint32_t i = 0; i < in.ntargets; i++)
				hit |= bytecode_switch_target(code, &in, i) == (int64_t)target;
		pc += in.len;
	}
	return hit;
}
