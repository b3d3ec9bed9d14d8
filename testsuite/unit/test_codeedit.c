/* Unit tests of agent/codeedit.c: where inserts go, what old offsets map to,
 * branches and switches relocated, goto/jsr widened (until nothing moves),
 * conditional branches and 64 KiB refused, malformed code. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "codeedit.h"

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define U4(v) (uint8_t)((uint32_t)(v) >> 24), (uint8_t)((uint32_t)(v) >> 16), \
	      (uint8_t)((uint32_t)(v) >> 8), (uint8_t)(v)
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const uint8_t A[] = { 0xa1, 0xa2, 0xa3 };	/* inserted bytes, recognisable */
static const uint8_t B[] = { 0xbe, 0xbb };
static const uint8_t C[] = { 0xcc };

static struct code_layout *layout_ok(const uint8_t *code, uint32_t len, const struct code_insert *ins,
				     size_t nins)
{
	struct code_layout *l = NULL;
	const char *why = NULL;
	int rc = codeedit_layout(code, len, ins, nins, &l, &why);
	if (rc != 0)
		print_error("codeedit_layout: %d %s\n", rc, why ? why : "");
	assert_int_equal(rc, 0);
	assert_non_null(l);
	return l;
}

static void expect_emit(const struct code_layout *l, const uint8_t *want, size_t n)
{
	assert_int_equal(codeedit_new_len(l), n);
	uint8_t *got = malloc(n);
	assert_non_null(got);
	codeedit_emit(l, got);
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			print_error("byte %zu: got %02x want %02x\n", i, got[i], want[i]);
			break;
		}
	assert_memory_equal(got, want, n);
	free(got);
}

static void expect_refused(const uint8_t *code, uint32_t len, const struct code_insert *ins,
			   size_t nins, int err, const char *part)
{
	struct code_layout *l = (struct code_layout *)&l;	/* not NULL */
	const char *why = NULL;
	assert_int_equal(codeedit_layout(code, len, ins, nins, &l, &why), err);
	assert_null(l);
	assert_non_null(why);
	if (!strstr(why, part))
		print_error("reason '%s' does not name '%s'\n", why, part);
	assert_non_null(strstr(why, part));
}

/* No inserts: the same code, every offset its own. */
static void test_identity(void **state)
{
	(void)state;
	static const uint8_t ok[] = {
		0x10, 7,		/* 0: bipush 7 */
		0x3b,			/* 2: istore_0 */
		0x1a,			/* 3: iload_0 */
		0x99, U2(-1),		/* 4: ifeq -1 (-> 3) */
		0xb1,			/* 7: return */
	};
	struct code_layout *l = layout_ok(ok, sizeof(ok), NULL, 0);
	expect_emit(l, ok, sizeof(ok));
	static const uint32_t starts[] = { 0, 2, 3, 4, 7, 8 };
	for (size_t i = 0; i < N(starts); i++) {
		assert_true(codeedit_is_insn(l, starts[i]));
		assert_int_equal(codeedit_map(l, starts[i]), starts[i]);
	}
	static const uint32_t middles[] = { 1, 5, 6, 9, 1000 };
	for (size_t i = 0; i < N(middles); i++) {
		assert_false(codeedit_is_insn(l, middles[i]));
		assert_int_equal(codeedit_map(l, middles[i]), 0);
	}
	assert_int_equal(codeedit_insert_at(l, 0), 0);
	codeedit_free(l);
	codeedit_free(NULL);
}

/* An unlabelled insert at 0 (a prologue: branches to 0 jump over it), a
 * labelled one before a return (branches to it run it), an unlabelled one
 * at the end (appended: the old length maps to the end of the old code). */
static void test_insert_positions(void **state)
{
	(void)state;
	static const uint8_t loop[] = {
		0x1a,			/* 0: iload_0 */
		0x9a, U2(-1),		/* 1: ifne -1 (-> 0) */
		0x9a, U2(4),		/* 4: ifne +4 (-> 8) */
		0x00,			/* 7: nop */
		0xb1,			/* 8: return */
	};
	const struct code_insert ins[] = {
		{ 0, A, sizeof(A), false },
		{ 8, B, sizeof(B), true },
		{ 9, C, sizeof(C), false },
	};
	static const uint8_t want[] = {
		0xa1, 0xa2, 0xa3,	/*  0: A */
		0x1a,			/*  3: iload_0 (was 0) */
		0x9a, U2(-1),		/*  4: ifne -1 (-> 3: over A) */
		0x9a, U2(4),		/*  7: ifne +4 (-> 11: onto B) */
		0x00,			/* 10: nop */
		0xbe, 0xbb,		/* 11: B */
		0xb1,			/* 13: return (was 8) */
		0xcc,			/* 14: C */
	};
	struct code_layout *l = layout_ok(loop, sizeof(loop), ins, N(ins));
	expect_emit(l, want, sizeof(want));
	assert_int_equal(codeedit_insert_at(l, 0), 0);
	assert_int_equal(codeedit_insert_at(l, 1), 11);
	assert_int_equal(codeedit_insert_at(l, 2), 14);
	assert_int_equal(codeedit_insert_at(l, 3), 0);	/* no such insert */
	assert_int_equal(codeedit_map(l, 0), 3);	/* after the unlabelled A */
	assert_int_equal(codeedit_map(l, 1), 4);
	assert_int_equal(codeedit_map(l, 4), 7);
	assert_int_equal(codeedit_map(l, 7), 10);
	assert_int_equal(codeedit_map(l, 8), 11);	/* onto the labelled B */
	assert_int_equal(codeedit_map(l, 9), 14);	/* the old end: before C */
	codeedit_free(l);
}

/* Several inserts at one offset go in the order given; the first labelled
 * one is where branches land, unlabelled ones before it are jumped over. */
static void test_inserts_at_one_offset(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0xa7, U2(0) };	/* 0: goto +0 (-> 0) */
	const struct {
		struct code_insert ins[3];
		uint32_t map0;
		uint8_t want[9];
	} cases[] = {
		/* A (jumped over), B (labelled), C: the goto lands on B */
		{ { { 0, A, 3, false }, { 0, B, 2, true }, { 0, C, 1, false } }, 3,
		  { 0xa1, 0xa2, 0xa3, 0xbe, 0xbb, 0xcc, 0xa7, U2(-3) } },
		/* B labelled first: everything after it runs too */
		{ { { 0, B, 2, true }, { 0, A, 3, true }, { 0, C, 1, false } }, 0,
		  { 0xbe, 0xbb, 0xa1, 0xa2, 0xa3, 0xcc, 0xa7, U2(-6) } },
		/* none labelled: the goto lands on itself */
		{ { { 0, C, 1, false }, { 0, B, 2, false }, { 0, A, 3, false } }, 6,
		  { 0xcc, 0xbe, 0xbb, 0xa1, 0xa2, 0xa3, 0xa7, U2(0) } },
	};
	for (size_t k = 0; k < N(cases); k++) {
		struct code_layout *l = layout_ok(code, sizeof(code), cases[k].ins, 3);
		expect_emit(l, cases[k].want, 9);
		assert_int_equal(codeedit_map(l, 0), cases[k].map0);
		codeedit_free(l);
	}
}

/* Switch padding for every alignment: 0 to 3 bytes inserted in front of
 * the code (labelled: the switches' targets at 0 land on them) and 0 to 3
 * between the two switches (unlabelled). Every target is relocated. */
static void test_switch_padding(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x04,			/*  0: iconst_1 */
		0xaa, 0, 0,		/*  1: tableswitch, padding 2 */
		U4(39), U4(0), U4(0),	/*  4: default +39 (-> 40); low 0 high 0 */
		U4(-1),			/* 16: 0 -> 0 */
		0x04,			/* 20: iconst_1 */
		0xab, 0, 0,		/* 21: lookupswitch, padding 2 */
		U4(19), U4(1),		/* 24: default +19 (-> 40); 1 pair */
		U4(3), U4(-21),		/* 32: 3 -> 0 */
		0xb1,			/* 40: return */
	};
	static const uint8_t fill[3] = { 0xf1, 0xf2, 0xf3 }, mid[3] = { 0xe1, 0xe2, 0xe3 };
	for (uint32_t n = 0; n <= 3; n++) {
		for (uint32_t m = 0; m <= 3; m++) {
			struct code_insert ins[2];
			size_t nins = 0;
			if (n)
				ins[nins++] = (struct code_insert){ 0, fill, n, true };
			if (m)
				ins[nins++] = (struct code_insert){ 20, mid, m, false };
			/* where things land: the tableswitch at TS with padding P1, the
			 * lookupswitch at LS with P2, the return at RET */
			uint32_t ts = n + 1, p1 = (0u - (ts + 1)) & 3;
			uint32_t ls = ts + 1 + p1 + 16 + m + 1, p2 = (0u - (ls + 1)) & 3;
			uint32_t ret = ls + 1 + p2 + 16;
			uint8_t want[64];
			size_t w = 0;
			memcpy(want, fill, n);
			w += n;
			want[w++] = 0x04;
			want[w++] = 0xaa;
			memset(want + w, 0, p1);
			w += p1;
			const uint8_t t1[] = { U4(ret - ts), U4(0), U4(0), U4(0 - ts) };
			memcpy(want + w, t1, 16);
			w += 16;
			memcpy(want + w, mid, m);
			w += m;
			want[w++] = 0x04;
			want[w++] = 0xab;
			memset(want + w, 0, p2);
			w += p2;
			const uint8_t l1[] = { U4(ret - ls), U4(1), U4(3), U4(0 - ls) };
			memcpy(want + w, l1, 16);
			w += 16;
			want[w++] = 0xb1;
			assert_int_equal(w, ret + 1);
			struct code_layout *l = layout_ok(code, sizeof(code), ins, nins);
			expect_emit(l, want, w);
			assert_int_equal(codeedit_map(l, 0), 0);
			assert_int_equal(codeedit_map(l, 1), ts);
			assert_int_equal(codeedit_map(l, 20), ls - 1);	/* after MID */
			assert_int_equal(codeedit_map(l, 21), ls);
			assert_int_equal(codeedit_map(l, 40), ret);
			codeedit_free(l);
		}
	}
}

/* goto and jsr that no longer reach become goto_w and jsr_w; goto_w stays. */
static void test_widening(void **state)
{
	(void)state;
	/* 0: jsr +32767 (-> 32767)  3: goto +32767 (-> 32770)  6: goto_w +32761
	 * (-> 32767)  11..32769: nop  32770: return; 1 byte inserted at 11 */
	uint8_t *code = calloc(32771, 1), *want = calloc(32776, 1);
	assert_non_null(code);
	assert_non_null(want);
	const uint8_t head[] = { 0xa8, U2(32767), 0xa7, U2(32767), 0xc8, U4(32761) };
	memcpy(code, head, sizeof(head));
	code[32770] = 0xb1;
	const struct code_insert ins[] = { { 11, C, 1, false } };
	/* 0: jsr_w +32772 (-> 32772)  5: goto_w +32770 (-> 32775)  10: goto_w +32762
	 * (-> 32772)  15: C  16..32774: nop  32775: return */
	const uint8_t whead[] = { 0xc9, U4(32772), 0xc8, U4(32770), 0xc8, U4(32762), 0xcc };
	memcpy(want, whead, sizeof(whead));
	want[32775] = 0xb1;
	struct code_layout *l = layout_ok(code, 32771, ins, 1);
	expect_emit(l, want, 32776);
	assert_int_equal(codeedit_map(l, 3), 5);
	assert_int_equal(codeedit_map(l, 6), 10);
	assert_int_equal(codeedit_map(l, 11), 16);
	assert_int_equal(codeedit_map(l, 32767), 32772);
	assert_int_equal(codeedit_map(l, 32770), 32775);
	assert_int_equal(codeedit_map(l, 32771), 32776);
	codeedit_free(l);
	free(code);
	free(want);
}

/* One widening makes another goto too short: the layout repeats until
 * nothing moves. The goto at 3 widens because of the insert; the goto at
 * 32767 back to 0 crosses it and only then no longer reaches. */
static void test_widening_repeats(void **state)
{
	(void)state;
	/* 0..2: nop  3: goto +32767 (-> 32770)  6..32766: nop
	 * 32767: goto -32767 (-> 0)  32770: return; 1 byte at 32770, unlabelled */
	uint8_t *code = calloc(32771, 1), *want = calloc(32776, 1);
	assert_non_null(code);
	assert_non_null(want);
	code[3] = 0xa7; code[4] = 0x7f; code[5] = 0xff;
	code[32767] = 0xa7; code[32768] = 0x80; code[32769] = 0x01;
	code[32770] = 0xb1;
	const struct code_insert ins[] = { { 32770, C, 1, false } };
	/* 3: goto_w +32772 (-> 32775)  8..32768: nop  32769: goto_w -32769 (-> 0)
	 * 32774: C  32775: return */
	const uint8_t g1[] = { 0xc8, U4(32772) }, g2[] = { 0xc8, U4(-32769) };
	memcpy(want + 3, g1, 5);
	memcpy(want + 32769, g2, 5);
	want[32774] = 0xcc;
	want[32775] = 0xb1;
	struct code_layout *l = layout_ok(code, 32771, ins, 1);
	expect_emit(l, want, 32776);
	codeedit_free(l);
	free(code);
	free(want);
}

/* A conditional branch has no wide form; nor has the 64 KiB limit. */
static void test_refusals(void **state)
{
	(void)state;
	uint8_t *code = calloc(65535, 1);
	assert_non_null(code);
	/* 0: ifeq +32767 (-> 32767), 1 byte inserted between */
	code[0] = 0x99; code[1] = 0x7f; code[2] = 0xff;
	code[32767] = 0xb1;
	const struct code_insert ins[] = { { 3, C, 1, false } };
	expect_refused(code, 32768, ins, 1, -ENOTSUP, "conditional");
	/* backwards: 0..32768: nop  32769: ifnull -32768 (-> 1), 1 byte inserted at 1:
	 * unlabelled it is jumped over (the target is after it): -32768 still reaches;
	 * labelled the branch lands on it: -32769 does not */
	memset(code, 0, 65535);
	code[32769] = 0xc6; code[32770] = 0x80; code[32771] = 0x00;
	code[32772] = 0xb1;
	const struct code_insert unl[] = { { 1, C, 1, false } };
	struct code_layout *l = layout_ok(code, 32773, unl, 1);
	assert_int_equal(codeedit_map(l, 1), 2);
	assert_int_equal(codeedit_map(l, 32769), 32770);
	codeedit_free(l);
	const struct code_insert lab[] = { { 1, C, 1, true } };
	expect_refused(code, 32773, lab, 1, -ENOTSUP, "conditional");
	/* 65535 bytes of code, and one more */
	memset(code, 0, 65535);
	code[65534] = 0xb1;
	codeedit_free(layout_ok(code, 65534, (const struct code_insert[]){ { 0, C, 1, false } }, 1));
	expect_refused(code, 65535, (const struct code_insert[]){ { 0, C, 1, false } }, 1,
		       -ENOTSUP, "64 KiB");
	free(code);
}

static void test_malformed(void **state)
{
	(void)state;
	static const uint8_t into[] = { 0x11, 0, 1, 0xa7, U2(-2), 0xb1 };	/* goto -> 1 */
	static const uint8_t past[] = { 0xa7, U2(4), 0xb1 };			/* goto -> 4 */
	static const uint8_t before[] = { 0x00, 0x9a, U2(-2), 0xb1 };		/* ifne -> -1 */
	static const uint8_t wide_into[] = { 0x11, 0, 1, 0xc8, U4(-1), 0xb1 };	/* goto_w -> 2 */
	static const uint8_t sw_into[] = { 0xaa, 0, 0, 0, U4(9), U4(0), U4(0), U4(17), 0xb1 };
	static const uint8_t sw_past[] = { 0xab, 0, 0, 0, U4(20), U4(0), 0xb1 };
	static const uint8_t unknown[] = { 0x00, 0xfe, 0xb1 };
	static const uint8_t cut[] = { 0x00, 0x13, 0 };
	static const uint8_t ret[] = { 0x00, 0x00, 0xb1 };
	const struct code_insert none[1] = { { 0, C, 1, false } };
	expect_refused(into, sizeof(into), NULL, 0, -EINVAL, "no instruction");
	expect_refused(past, sizeof(past), NULL, 0, -EINVAL, "no instruction");
	expect_refused(before, sizeof(before), NULL, 0, -EINVAL, "no instruction");
	expect_refused(wide_into, sizeof(wide_into), NULL, 0, -EINVAL, "no instruction");
	expect_refused(sw_into, sizeof(sw_into), NULL, 0, -EINVAL, "switch");
	expect_refused(sw_past, sizeof(sw_past), NULL, 0, -EINVAL, "switch");
	expect_refused(unknown, sizeof(unknown), NULL, 0, -EINVAL, "instruction");
	expect_refused(cut, sizeof(cut), NULL, 0, -EINVAL, "instruction");
	expect_refused(ret, 0, none, 1, -EINVAL, "code length");
	/* inserts not at instructions, past the end, or out of order */
	expect_refused(into, sizeof(into), (const struct code_insert[]){ { 1, C, 1, false } }, 1,
		       -EINVAL, "insert");
	expect_refused(ret, sizeof(ret), (const struct code_insert[]){ { 4, C, 1, false } }, 1,
		       -EINVAL, "insert");
	expect_refused(ret, sizeof(ret), (const struct code_insert[]){ { 2, C, 1, false },
								       { 1, C, 1, false } }, 2,
		       -EINVAL, "insert");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_insert_positions),
		cmocka_unit_test(test_inserts_at_one_offset),
		cmocka_unit_test(test_switch_padding),
		cmocka_unit_test(test_widening),
		cmocka_unit_test(test_widening_repeats),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
