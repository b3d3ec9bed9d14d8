/* Unit tests of agent/bytecode.c: branch targets, lengths, malformed code. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight_line),
		cmocka_unit_test(test_loop_back_to_start),
		cmocka_unit_test(test_wide_forms),
		cmocka_unit_test(test_tableswitch_padding_and_targets),
		cmocka_unit_test(test_lookupswitch),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
