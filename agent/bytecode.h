/* bytecode.h: the JVM's instruction set, as far as rewriting code needs it.
 *
 * Contract: bytecode_decode() reads the instruction at PC of CODE[0..LEN)
 * (JVMS 6.5: lengths, tableswitch/lookupswitch padding, wide) and says what
 * kind of control transfer it is and where it goes. It never reads outside
 * CODE; an unknown opcode, a truncated instruction or a switch whose table
 * does not fit gives -EINVAL, so callers treat the method as one they cannot
 * reason about. Branch targets are returned as computed (pc + offset): the
 * caller checks that they are instruction starts. Pure: no JVMTI, no
 * allocation.
 */
#ifndef STAPJAVA_AGENT_BYTECODE_H
#define STAPJAVA_AGENT_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bc_kind {
	BC_PLAIN,        /* falls through to the next instruction */
	BC_COND,         /* if<cond>, ifnull, ifnonnull: 16-bit offset, falls through */
	BC_GOTO,         /* goto, jsr: 16-bit offset */
	BC_GOTO_W,       /* goto_w, jsr_w: 32-bit offset */
	BC_SWITCH,       /* tableswitch, lookupswitch */
	BC_RETURN,       /* ireturn .. return */
	BC_ATHROW,
	BC_RET,          /* ret, wide ret: returns from a subroutine */
};

/* Opcodes the rewriters name. */
enum {
	OP_NOP = 0x00, OP_ILOAD = 0x15, OP_LLOAD = 0x16, OP_FLOAD = 0x17, OP_DLOAD = 0x18,
	OP_ALOAD = 0x19, OP_ALOAD_0 = 0x2a, OP_ASTORE = 0x3a, OP_POP = 0x57, OP_DUP = 0x59,
	OP_DUP2 = 0x5c, OP_IFEQ = 0x99, OP_IFNE = 0x9a, OP_GOTO = 0xa7, OP_JSR = 0xa8,
	OP_TABLESWITCH = 0xaa, OP_LOOKUPSWITCH = 0xab, OP_IRETURN = 0xac, OP_LRETURN = 0xad,
	OP_FRETURN = 0xae, OP_DRETURN = 0xaf, OP_ARETURN = 0xb0, OP_RETURN = 0xb1,
	OP_INVOKESPECIAL = 0xb7, OP_INVOKESTATIC = 0xb8, OP_NEW = 0xbb, OP_ATHROW = 0xbf,
	OP_WIDE = 0xc4, OP_GOTO_W = 0xc8, OP_JSR_W = 0xc9, OP_LDC_W = 0x13,
	OP_INVOKEVIRTUAL = 0xb6, OP_INVOKEINTERFACE = 0xb9, OP_ICONST_1 = 0x04, OP_SIPUSH = 0x11,
	OP_AALOAD = 0x32, OP_IALOAD = 0x2e, OP_IASTORE = 0x4f, OP_IADD = 0x60, OP_GETSTATIC = 0xb2,
	OP_PUTSTATIC = 0xb3,
};

struct bc_insn {
	uint32_t pc, len;
	uint8_t op;          /* for wide: the modified opcode */
	bool wide;
	uint8_t kind;        /* enum bc_kind */
	int64_t target;      /* BC_COND, BC_GOTO, BC_GOTO_W: pc + offset */
	/* BC_SWITCH: operands start at pc + 1 + pad; ntargets counts the default */
	uint32_t pad, ntargets;
};

/* 0 and *IN filled, or -EINVAL. */
int bytecode_decode(const uint8_t *code, size_t len, size_t pc, struct bc_insn *in);
/* Target I of a switch (0 is the default), as pc + offset. */
int64_t bytecode_switch_target(const uint8_t *code, const struct bc_insn *in, uint32_t i);
/* Bytes of a switch's operands after the padding, for a given count of targets. */
uint32_t bytecode_switch_body_len(uint8_t op, uint32_t ntargets);
/* 1: some branch targets TARGET; 0: none does; -EINVAL: malformed code. */
int bytecode_branches_to(const uint8_t *code, size_t len, size_t target);

#endif
