/* bytecode.c: see bytecode.h. */
#include "bytecode.h"

#include <errno.h>
#include <stdbool.h>

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

static bool lands(size_t pc, int32_t off, size_t target)
{
	return (int64_t)pc + off == (int64_t)target;
}

/* A switch at PC: *LEN gets its length; 1 if one of its targets is TARGET. */
static int scan_switch(const uint8_t *code, size_t len, size_t pc, size_t target, size_t *ilen)
{
	size_t p = (pc + 4) & ~(size_t)3;               /* operands are 4-byte aligned */
	int hit = 0;

	if (p + 12 > len)
		return -EINVAL;
	hit |= lands(pc, s32(code + p), target);
	if (code[pc] == 0xaa) {                          /* tableswitch: default low high offsets */
		int64_t lo = s32(code + p + 4), hi = s32(code + p + 8);
		if (hi < lo || (uint64_t)(hi - lo + 1) > (len - p - 12) / 4)
			return -EINVAL;
		for (int64_t i = 0; i <= hi - lo; i++)
			hit |= lands(pc, s32(code + p + 12 + 4 * i), target);
		*ilen = p + 12 + 4 * (size_t)(hi - lo + 1) - pc;
	} else {                                         /* lookupswitch: default npairs pairs */
		int64_t n = s32(code + p + 4);
		if (n < 0 || (uint64_t)n > (len - p - 8) / 8)
			return -EINVAL;
		for (int64_t i = 0; i < n; i++)
			hit |= lands(pc, s32(code + p + 8 + 8 * i + 4), target);
		*ilen = p + 8 + 8 * (size_t)n - pc;
	}
	return hit;
}

int bytecode_branches_to(const uint8_t *code, size_t len, size_t target)
{
	int hit = 0;

	for (size_t pc = 0; pc < len;) {
		uint8_t op = code[pc];
		size_t ilen = fixed_len(op);

		if (op == 0xaa || op == 0xab) {
			int r = scan_switch(code, len, pc, target, &ilen);
			if (r < 0)
				return r;
			hit |= r;
		} else if (op == 0xc4) {                 /* wide: iinc takes 6 bytes, the rest 4 */
			if (pc + 1 >= len)
				return -EINVAL;
			ilen = code[pc + 1] == 0x84 ? 6 : 4;
		} else if (ilen == 0) {
			return -EINVAL;
		}
		if (pc + ilen > len)
			return -EINVAL;
		if ((op >= 0x99 && op <= 0xa8) || op == 0xc6 || op == 0xc7)
			hit |= lands(pc, s16(code + pc + 1), target);
		else if (op == 0xc8 || op == 0xc9)
			hit |= lands(pc, s32(code + pc + 1), target);
		pc += ilen;
	}
	return hit;
}
