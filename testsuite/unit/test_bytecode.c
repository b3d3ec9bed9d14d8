/* Unit tests of agent/bytecode.c: bytecode_decode() (lengths of every opcode,
 * kinds, branch targets, switch padding and targets, wide forms,
 * truncation) and bytecode_branches_to(). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bytecode.h"

#define SCAN(code, target) bytecode_branches_to(code, sizeof(code), target)

static void test_straight_line(void **state)
{
	/* iconst_1 istore_0 return */
	static const uint8_t code[] = { 0x04, 0x3b, 0xb1 };
	(void)state;
	assert_int_equal(SCAN(code, 0), 0);
	assert_int_equal(bytecode_branches_to(code, 0, 0), 0);
}

static void test_loop_back_to_start(void **state)
{
	/* 0: iinc 0,-1   3: iload_0   4: ifge -4 (-> 0)   7: return */
	static const uint8_t code[] = { 0x84, 0x00, 0xff, 0x1a, 0x9c, 0xff, 0xfc, 0xb1 };
	/* 0: aload_0   1: goto +0 (-> 1) */
	static const uint8_t self[] = { 0x2a, 0xa7, 0x00, 0x00 };
	(void)state;
	assert_int_equal(SCAN(code, 0), 1);
	assert_int_equal(SCAN(code, 3), 0);
	assert_int_equal(SCAN(self, 0), 0);
	assert_int_equal(SCAN(self, 1), 1);
}

static void test_wide_forms(void **state)
{
	/* 0: wide iinc 0x0100,1 (6 bytes)   6: wide iload 0x0100 (4)   10: goto_w -10 (-> 0)   15: return */
	static const uint8_t code[] = { 0xc4, 0x84, 0x01, 0x00, 0x00, 0x01,
					0xc4, 0x15, 0x01, 0x00,
					0xc8, 0xff, 0xff, 0xff, 0xf6, 0xb1 };
	(void)state;
	assert_int_equal(SCAN(code, 0), 1);
	assert_int_equal(SCAN(code, 6), 0);
}

static void test_tableswitch_padding_and_targets(void **state)
{
	/* 0: iload_0  1: tableswitch, 2 bytes pad to 4: default +11 (-> 12), low 0, high 1,
	 * offsets -1 (-> 0) and +11; 24: return */
	static const uint8_t code[] = { 0x1a, 0xaa, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x17,
					0x00, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x01,
					0xff, 0xff, 0xff, 0xff,
					0x00, 0x00, 0x00, 0x17,
					0xb1 };
	(void)state;
	assert_int_equal(SCAN(code, 0), 1);
	assert_int_equal(SCAN(code, 24), 1);
	assert_int_equal(SCAN(code, 12), 0);
}

static void test_lookupswitch(void **state)
{
	/* 0: nop 1: nop 2: nop 3: lookupswitch (no pad): default +17 (-> 20), 1 pair: 7 -> -3 (-> 0);
	 * 20: return */
	static const uint8_t code[] = { 0x00, 0x00, 0x00, 0xab,
					0x00, 0x00, 0x00, 0x11,
					0x00, 0x00, 0x00, 0x01,
					0x00, 0x00, 0x00, 0x07, 0xff, 0xff, 0xff, 0xfd,
					0xb1 };
	(void)state;
	assert_int_equal(SCAN(code, 0), 1);
	assert_int_equal(SCAN(code, 20), 1);
	assert_int_equal(SCAN(code, 3), 0);
}

static void test_malformed(void **state)
{
	static const uint8_t truncated[] = { 0x11, 0x00 };          /* sipush missing a byte */
	static const uint8_t reserved[] = { 0xca };                  /* breakpoint opcode */
	static const uint8_t unknown[] = { 0xff };
	static const uint8_t wide_cut[] = { 0xc4 };
	/* tableswitch high < low */
	static const uint8_t backwards[] = { 0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1 };
	/* tableswitch whose range runs past the end */
	static const uint8_t huge[] = { 0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff };
	/* lookupswitch with a negative pair count */
	static const uint8_t negative[] = { 0xab, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	(void)state;
	assert_int_equal(SCAN(truncated, 0), -EINVAL);
	assert_int_equal(SCAN(reserved, 0), -EINVAL);
	assert_int_equal(SCAN(unknown, 0), -EINVAL);
	assert_int_equal(SCAN(wide_cut, 0), -EINVAL);
	assert_int_equal(SCAN(backwards, 0), -EINVAL);
	assert_int_equal(SCAN(huge, 0), -EINVAL);
	assert_int_equal(SCAN(negative, 0), -EINVAL);
}

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define U4(v) (uint8_t)((uint32_t)(v) >> 24), (uint8_t)((uint32_t)(v) >> 16), \
	      (uint8_t)((uint32_t)(v) >> 8), (uint8_t)(v)

/* Instruction lengths from JVMS 6.5, written out apart from bytecode.c:
 * 0 for the variable ones (tableswitch, lookupswitch, wide) and the opcodes
 * a class file may not hold (0xca breakpoint and up). */
static uint32_t jvms_len(uint32_t op)
{
	if (op == 0xaa || op == 0xab || op == 0xc4 || op >= 0xca)
		return 0;
	if (op == 0xc5)
		return 4;                                   /* multianewarray */
	if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9)
		return 5;                                   /* invokeinterface, invokedynamic, goto_w, jsr_w */
	if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xa8) ||
	    (op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 ||
	    op == 0xc6 || op == 0xc7)
		return 3;
	if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) ||
	    op == 0xa9 || op == 0xbc)
		return 2;
	return 1;
}

static uint8_t jvms_kind(uint32_t op)
{
	if ((op >= 0x99 && op <= 0xa6) || op == 0xc6 || op == 0xc7)
		return BC_COND;
	if (op == 0xa7 || op == 0xa8)
		return BC_GOTO;
	if (op == 0xc8 || op == 0xc9)
		return BC_GOTO_W;
	if (op >= 0xac && op <= 0xb1)
		return BC_RETURN;
	if (op == 0xbf)
		return BC_ATHROW;
	if (op == 0xa9)
		return BC_RET;
	return BC_PLAIN;
}

/* Every fixed-length opcode at pc 2 of a buffer that holds it exactly:
 * length, kind, target (operand 0x0102 or 0x01020304 from pc 2); one byte
 * less is truncated. */
static void test_decode_every_opcode(void **state)
{
	(void)state;
	for (uint32_t op = 0; op < 256; op++) {
		uint32_t n = jvms_len(op);
		if (op == 0xaa || op == 0xab || op == 0xc4)
			continue;
		uint8_t code[8] = { 0, 0, (uint8_t)op, 1, 2, 3, 4, 5 };
		struct bc_insn in;
		char what[32];
		snprintf(what, sizeof(what), "opcode 0x%02x", op);
		if (n == 0) {
			if (bytecode_decode(code, sizeof(code), 2, &in) != -EINVAL)
				fail_msg("%s decodes", what);
			continue;
		}
		if (bytecode_decode(code, 2 + n, 2, &in) != 0)
			fail_msg("%s does not decode", what);
		if (in.len != n || in.op != op || in.pc != 2 || in.wide || in.kind != jvms_kind(op))
			fail_msg("%s: len %u op 0x%02x kind %u", what, in.len, in.op, in.kind);
		int64_t want = in.kind == BC_COND || in.kind == BC_GOTO ? 2 + 0x0102
			     : in.kind == BC_GOTO_W ? 2 + 0x01020304 : -1;
		if (in.target != want)
			fail_msg("%s: target %lld", what, (long long)in.target);
		uint8_t *cut = malloc(n);	/* exact size, for ASan */
		assert_non_null(cut);
		memcpy(cut, code + 1, n);
		if (bytecode_decode(cut, n, 1, &in) != -EINVAL)
			fail_msg("%s cut short decodes", what);
		free(cut);
	}
}

/* Branch offsets are signed; targets come back as computed, even out of the code. */
static void test_decode_targets(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x00,				/*  0: nop */
		0x99, U2(-1),			/*  1: ifeq -1 (-> 0) */
		0xa7, U2(-32768),		/*  4: goto -32768 */
		0xc6, U2(32767),		/*  7: ifnull +32767 */
		0xc9, U4(-10),			/* 10: jsr_w -10 */
		0xc8, U4(0x7fffffff),		/* 15: goto_w */
	};
	static const struct { uint32_t pc; uint8_t kind; int64_t target; } want[] = {
		{ 1, BC_COND, 0 }, { 4, BC_GOTO, 4 - 32768 }, { 7, BC_COND, 7 + 32767 },
		{ 10, BC_GOTO_W, 0 }, { 15, BC_GOTO_W, 15 + (int64_t)0x7fffffff },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct bc_insn in;
		assert_int_equal(bytecode_decode(code, sizeof(code), want[i].pc, &in), 0);
		assert_int_equal(in.kind, want[i].kind);
		assert_true(in.target == want[i].target);
	}
	struct bc_insn in;
	assert_int_equal(bytecode_decode(code, sizeof(code), sizeof(code), &in), -EINVAL);
	assert_int_equal(bytecode_decode(code, sizeof(code), 1000, &in), -EINVAL);
}

/* tableswitch and lookupswitch at each alignment: padding, targets (the
 * default first), length; one byte less is truncated. */
static void test_decode_switches(void **state)
{
	(void)state;
	for (uint32_t at = 0; at < 4; at++) {
		uint32_t pad = (4 - (at + 1) % 4) % 4;
		uint8_t code[64] = { 0 };
		size_t n = at;
		code[n++] = 0xaa;
		n += pad;
		const uint8_t ts[] = { U4(100), U4(-1), U4(1), U4(-5), U4(0), U4(7) };
		memcpy(code + n, ts, sizeof(ts));
		n += sizeof(ts);
		struct bc_insn in;
		assert_int_equal(bytecode_decode(code, n, at, &in), 0);
		assert_int_equal(in.kind, BC_SWITCH);
		assert_int_equal(in.op, 0xaa);
		assert_int_equal(in.pad, pad);
		assert_int_equal(in.ntargets, 4);	/* default, -1, 0, 1 */
		assert_int_equal(in.len, 1 + pad + 24);
		assert_int_equal(bytecode_switch_body_len(0xaa, in.ntargets), 24);
		assert_true(bytecode_switch_target(code, &in, 0) == at + 100);
		assert_true(bytecode_switch_target(code, &in, 1) == (int64_t)at - 5);
		assert_true(bytecode_switch_target(code, &in, 2) == at);
		assert_true(bytecode_switch_target(code, &in, 3) == at + 7);
		for (size_t k = at; k < n; k++)
			assert_int_equal(bytecode_decode(code, k, at, &in), -EINVAL);

		n = at;
		code[n++] = 0xab;
		memset(code + n, 0, pad);
		n += pad;
		const uint8_t ls[] = { U4(9), U4(2), U4(-3), U4(20), U4(70000), U4(-at) };
		memcpy(code + n, ls, sizeof(ls));
		n += sizeof(ls);
		assert_int_equal(bytecode_decode(code, n, at, &in), 0);
		assert_int_equal(in.kind, BC_SWITCH);
		assert_int_equal(in.op, 0xab);
		assert_int_equal(in.pad, pad);
		assert_int_equal(in.ntargets, 3);
		assert_int_equal(in.len, 1 + pad + 24);
		assert_int_equal(bytecode_switch_body_len(0xab, in.ntargets), 24);
		assert_true(bytecode_switch_target(code, &in, 0) == at + 9);
		assert_true(bytecode_switch_target(code, &in, 1) == at + 20);
		assert_true(bytecode_switch_target(code, &in, 2) == 0);
		for (size_t k = at; k < n; k++)
			assert_int_equal(bytecode_decode(code, k, at, &in), -EINVAL);
	}
	/* no pairs: only the default */
	static const uint8_t empty[] = { 0xab, 0, 0, 0, U4(8), U4(0) };
	struct bc_insn in;
	assert_int_equal(bytecode_decode(empty, sizeof(empty), 0, &in), 0);
	assert_int_equal(in.ntargets, 1);
	assert_int_equal(in.len, 12);
	/* low == high: one target besides the default; high < low is malformed */
	static const uint8_t one[] = { 0xaa, 0, 0, 0, U4(8), U4(-7), U4(-7), U4(16) };
	assert_int_equal(bytecode_decode(one, sizeof(one), 0, &in), 0);
	assert_int_equal(in.ntargets, 2);
	static const uint8_t huge[] = { 0xaa, 0, 0, 0, U4(8), U4(-0x7fffffff - 1), U4(0x7fffffff) };
	assert_int_equal(bytecode_decode(huge, sizeof(huge), 0, &in), -EINVAL);
}

/* wide: the loads, stores and ret take 4 bytes, iinc 6; the opcode is the
 * modified one; anything else after wide is malformed. */
static void test_decode_wide(void **state)
{
	(void)state;
	for (uint32_t op = 0; op < 256; op++) {
		uint8_t code[] = { 0xc4, (uint8_t)op, 1, 2, 3, 4 };
		bool four = (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9;
		uint32_t n = op == 0x84 ? 6 : four ? 4 : 0;
		struct bc_insn in;
		if (n == 0) {
			if (bytecode_decode(code, sizeof(code), 0, &in) != -EINVAL)
				fail_msg("wide 0x%02x decodes", op);
			continue;
		}
		assert_int_equal(bytecode_decode(code, n, 0, &in), 0);
		assert_true(in.wide);
		assert_int_equal(in.op, op);
		assert_int_equal(in.len, n);
		assert_int_equal(in.kind, op == 0xa9 ? BC_RET : BC_PLAIN);
		for (uint32_t k = 0; k < n; k++)
			assert_int_equal(bytecode_decode(code, k, 0, &in), -EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight_line),
		cmocka_unit_test(test_loop_back_to_start),
		cmocka_unit_test(test_wide_forms),
		cmocka_unit_test(test_tableswitch_padding_and_targets),
		cmocka_unit_test(test_lookupswitch),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_decode_every_opcode),
		cmocka_unit_test(test_decode_targets),
		cmocka_unit_test(test_decode_switches),
		cmocka_unit_test(test_decode_wide),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
