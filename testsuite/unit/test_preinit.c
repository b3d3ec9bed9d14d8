/* Unit tests of agent/preinit.c: which instructions of a constructor run
 * before this() or super() returns, followed through branches, switches,
 * handlers, locals and the stack shuffles; malformed code refused. */
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

#include "preinit.h"

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define U4(v) (uint8_t)((uint32_t)(v) >> 24), (uint8_t)((uint32_t)(v) >> 16), \
	      (uint8_t)((uint32_t)(v) >> 8), (uint8_t)(v)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The constants the code below names. */
enum {
	OBJ_INIT = 1,	/* Methodref java/lang/Object.<init>()V */
	T_INIT,		/* Methodref T.<init>(I)V */
	STATIC_II,	/* Methodref T.f(I)I */
	FIELD_I,	/* Fieldref T.x I */
	FIELD_J,	/* Fieldref T.y J */
	INDY,		/* InvokeDynamic run()Ljava/lang/Runnable; */
	NPOOL,
};

static const struct { const char *desc; bool init; } consts[NPOOL] = {
	[OBJ_INIT] = { "()V", true },
	[T_INIT] = { "(I)V", true },
	[STATIC_II] = { "(I)I", false },
	[FIELD_I] = { "I", false },
	[FIELD_J] = { "J", false },
	[INDY] = { "()Ljava/lang/Runnable;", false },
};

static const char *ref_desc(void *ctx, uint32_t idx, size_t *len)
{
	(void)ctx;
	if (idx == 0 || idx >= NPOOL)
		return NULL;
	*len = strlen(consts[idx].desc);
	return consts[idx].desc;
}

static bool ref_is_init(void *ctx, uint32_t idx)
{
	(void)ctx;
	return idx > 0 && idx < NPOOL && consts[idx].init;
}

static const struct preinit_pool pool = { NULL, ref_desc, ref_is_init };

/* Scans CODE; expects RET and PRE set exactly at the offsets in WANT. */
static void expect_scan(const uint8_t *code, uint32_t len, uint32_t max_stack, uint32_t max_locals,
			const struct preinit_handler *h, size_t nh, int ret, const uint32_t *want,
			size_t nwant)
{
	uint8_t *pre = malloc(len);
	assert_non_null(pre);
	memset(pre, 0xee, len);
	const char *why = NULL;
	int rc = preinit_scan(code, len, max_stack, max_locals, h, nh, &pool, pre, &why);
	if (rc != ret)
		print_error("preinit_scan: %d (%s), expected %d\n", rc, why ? why : "", ret);
	assert_int_equal(rc, ret);
	int calls = 0;
	for (uint32_t pc = 0; pc < len; pc++) {
		bool in = false;
		for (size_t i = 0; i < nwant; i++)
			in |= want[i] == pc;
		if ((pre[pc] != 0) != in || (in && pre[pc] != PREINIT_BEFORE && pre[pc] != PREINIT_INIT_CALL))
			print_error("pre[%u] = %u, expected %s\n", pc, pre[pc], in ? "before" : "0");
		assert_int_equal(pre[pc] != 0, in);
		if (pre[pc] == PREINIT_INIT_CALL) {
			/* the call that initializes `this`: an invokespecial, one per call met */
			assert_int_equal(code[pc], 0xb7);
			calls++;
		} else if (in) {
			assert_int_equal(pre[pc], PREINIT_BEFORE);
		}
	}
	assert_int_equal(calls, ret);
	free(pre);
}

static void expect_invalid(const uint8_t *code, uint32_t len, uint32_t max_stack,
			   uint32_t max_locals, const struct preinit_handler *h, size_t nh,
			   const char *part)
{
	uint8_t *pre = malloc(len ? len : 1);
	assert_non_null(pre);
	const char *why = NULL;
	assert_int_equal(preinit_scan(code, len, max_stack, max_locals, h, nh, &pool, pre, &why),
			 -EINVAL);
	assert_non_null(why);
	if (!strstr(why, part))
		print_error("reason '%s' does not name '%s'\n", why, part);
	assert_non_null(strstr(why, part));
	free(pre);
}

#define SCAN(code, ms, ml, ret, ...) do { \
		static const uint32_t want_[] = { __VA_ARGS__ }; \
		expect_scan(code, sizeof(code), ms, ml, NULL, 0, ret, want_, N(want_)); \
	} while (0)

/* aload_0; invokespecial super.<init>; return: the call is the last one before. */
static void test_super_first(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0x2a, 0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(code, 1, 1, 1, 0, 1);
}

/* A ternary in this(...)'s argument: both paths are before. */
static void test_branch_before(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/*  0: aload_0 */
		0x1b,			/*  1: iload_1 */
		0x99, U2(7),		/*  2: ifeq -> 9 */
		0x04,			/*  5: iconst_1 */
		0xa7, U2(4),		/*  6: goto -> 10 */
		0x05,			/*  9: iconst_2 */
		0xb7, U2(T_INIT),	/* 10: invokespecial T.<init>(I)V */
		0x2a,			/* 13: aload_0 */
		0x04,			/* 14: iconst_1 */
		0xb5, U2(FIELD_I),	/* 15: putfield x */
		0xb1,			/* 18: return */
	};
	SCAN(code, 2, 2, 1, 0, 1, 2, 5, 6, 9, 10);
}

/* A switch before super(); each case calls it: two calls counted. */
static void test_switch_and_two_calls(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x1b,				/*  0: iload_1 */
		0xaa, 0, 0,			/*  1: tableswitch */
		U4(23), U4(0), U4(0),		/*  4: default -> 24; low 0 high 0 */
		U4(28),				/* 16: 0 -> 29 */
		0x00,				/* 20: nop (never reached) */
		0x00, 0x00, 0x00,		/* 21..23: nop */
		0x2a,				/* 24: aload_0 */
		0xb7, U2(OBJ_INIT),		/* 25 */
		0xb1,				/* 28: return */
		0x2a,				/* 29: aload_0 */
		0x08,				/* 30: iconst_5 */
		0xb7, U2(T_INIT),		/* 31 */
		0xb1,				/* 34: return */
	};
	SCAN(code, 2, 2, 2, 0, 1, 24, 25, 29, 30, 31);
}

/* `new T; dup; ...; invokespecial T.<init>` initializes the new object, not
 * `this`; the scan goes on to super(). */
static void test_new_before(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xbb, U2(9),		/*  0: new */
		0x59,			/*  3: dup */
		0x08,			/*  4: iconst_5 */
		0xb7, U2(T_INIT),	/*  5: invokespecial T.<init>(I)V on the new one */
		0x57,			/*  8: pop */
		0x2a,			/*  9: aload_0 */
		0xb7, U2(OBJ_INIT),	/* 10: invokespecial on this */
		0xb1,			/* 13: return */
	};
	SCAN(code, 3, 1, 1, 0, 3, 4, 5, 8, 9, 10);
}

/* Every path throws before: 0 calls, every instruction before. */
static void test_always_throws(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x1b,			/*  0: iload_1 */
		0x99, U2(11),		/*  1: ifeq -> 12 */
		0xbb, U2(9),		/*  4: new */
		0x59,			/*  7: dup */
		0xb7, U2(OBJ_INIT),	/*  8: invokespecial Object.<init> on the new one */
		0xbf,			/* 11: athrow */
		0x01,			/* 12: aconst_null */
		0xbf,			/* 13: athrow */
	};
	SCAN(code, 2, 2, 0, 0, 1, 4, 7, 8, 11, 12, 13);
}

/* `this` through a local, the wide form, swap and the dup family: the tags
 * move with the values. */
static void test_this_moves(void **state)
{
	(void)state;
	/* aload_0; astore_2; aload_2; invokespecial; return */
	static const uint8_t via_local[] = { 0x2a, 0x4d, 0x2c, 0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(via_local, 1, 3, 1, 0, 1, 2, 3);
	/* wide aload 0; wide astore 300; wide aload 300; invokespecial; return */
	static const uint8_t wide[] = { 0xc4, 0x19, U2(0), 0xc4, 0x3a, U2(300), 0xc4, 0x19, U2(300),
					0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(wide, 1, 301, 1, 0, 4, 8, 12);
	/* storing something else over the copy: the call is on another object */
	static const uint8_t overwritten[] = { 0x2a, 0x4c, 0x01, 0x4c, 0x2b, 0xb7, U2(OBJ_INIT),
					       0x01, 0xbf };
	SCAN(overwritten, 1, 2, 0, 0, 1, 2, 3, 4, 5, 8, 9);
	/* aload_0; iconst_5; swap; swap; invokespecial T.<init>(I)V */
	static const uint8_t swapped[] = { 0x2a, 0x08, 0x5f, 0x5f, 0xb7, U2(T_INIT), 0xb1 };
	SCAN(swapped, 2, 1, 1, 0, 1, 2, 3, 4);
	/* iconst_5; aload_0; swap: [this, 5]: T.<init>(I)V on this */
	static const uint8_t swapped1[] = { 0x08, 0x2a, 0x5f, 0xb7, U2(T_INIT), 0xb1 };
	SCAN(swapped1, 2, 1, 1, 0, 1, 2, 3);
	/* iconst_1; iconst_2; aload_0; dup_x2: [this, 1, 2, this]; pop x3; invokespecial */
	static const uint8_t dup_x2[] = { 0x04, 0x05, 0x2a, 0x5b, 0x57, 0x57, 0x57, 0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(dup_x2, 4, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7);
	/* iconst_1; aload_0; dup_x1: [this, 1, this]; pop; pop; invokespecial */
	static const uint8_t dup_x1[] = { 0x04, 0x2a, 0x5a, 0x57, 0x57, 0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(dup_x1, 3, 1, 1, 0, 1, 2, 3, 4, 5);
	/* iconst_1; aload_0; iconst_1; dup2_x1 */
	static const uint8_t dup2_x1[] = { 0x04, 0x2a, 0x04, 0x5d, 0x57, 0x57, 0x57, 0xb7, U2(T_INIT), 0xb1 };
	/* [1, this, 1] dup2_x1 -> [this, 1, 1, this, 1]; pop x3 -> [this, 1]: the call */
	SCAN(dup2_x1, 5, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7);
	/* lconst_0; aload_0; iconst_1; dup2_x2 -> [this, 1, long, this, 1]; pop x4 */
	static const uint8_t dup2_x2[] = { 0x09, 0x2a, 0x04, 0x5e, 0x57, 0x57, 0x57, 0x57,
					   0xb7, U2(T_INIT), 0xb1 };
	SCAN(dup2_x2, 6, 1, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8);
	/* aload_0; aload_0; dup2: [this x4]; pop x3; invokespecial */
	static const uint8_t dup2[] = { 0x2a, 0x2a, 0x5c, 0x57, 0x57, 0x57, 0xb7, U2(OBJ_INIT), 0xb1 };
	SCAN(dup2, 4, 1, 1, 0, 1, 2, 3, 4, 5, 6);
}

/* The operands of other instructions count: fields (a long takes 2 slots),
 * invokes, invokedynamic, multianewarray, putfield on this (an inner
 * class's outer instance, before super()). */
static void test_operand_counts(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a, 0x1b, 0xb5, U2(FIELD_I),	/*  0: aload_0; iload_1; putfield x (on this) */
		0xb2, U2(FIELD_J),		/*  5: getstatic y (J: 2 slots) */
		0xb3, U2(FIELD_J),		/*  8: putstatic y */
		0x1b, 0xb8, U2(STATIC_II),	/* 11: iload_1; invokestatic f(I)I */
		0x57,				/* 15: pop */
		0xba, U2(INDY), 0, 0,		/* 16: invokedynamic: pushes 1 */
		0x57,				/* 21: pop */
		0x04, 0x05, 0xc5, U2(9), 2,	/* 22: iconst_1; iconst_2; multianewarray 2 dims */
		0x57,				/* 28: pop */
		0x2a, 0xb7, U2(OBJ_INIT),	/* 29: aload_0; invokespecial */
		0xb1,				/* 33 */
	};
	SCAN(code, 2, 2, 1, 0, 1, 2, 5, 8, 11, 12, 15, 16, 21, 22, 23, 24, 28, 29, 30);
	/* with max_stack 1 the long does not fit */
	expect_invalid(code, sizeof(code), 1, 2, NULL, 0, "overflow");
}

/* Handlers of instructions before super() are before too; a handler only
 * for code after it is not. */
static void test_handlers(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/*  0: aload_0 */
		0x1b,			/*  1: iload_1 */
		0xb8, U2(STATIC_II),	/*  2: invokestatic f(I)I */
		0xb7, U2(T_INIT),	/*  5: invokespecial */
		0xb1,			/*  8: return */
		0xbf,			/*  9: handler A: athrow */
		0x57,			/* 10: handler B: pop */
		0xb1,			/* 11: return */
	};
	const struct preinit_handler h[] = { { 1, 5, 9 }, { 8, 9, 10 } };
	static const uint32_t want[] = { 0, 1, 2, 5, 9 };
	expect_scan(code, sizeof(code), 2, 2, h, 2, 1, want, N(want));
	/* a handler with max_stack 0 cannot hold its exception */
	static const uint8_t ret[] = { 0x00, 0xb1 };
	const struct preinit_handler h0[] = { { 0, 1, 1 } };
	expect_invalid(ret, sizeof(ret), 0, 1, h0, 1, "max_stack");
	const struct preinit_handler hout[] = { { 0, 1, 7 } };
	expect_invalid(ret, sizeof(ret), 1, 1, hout, 1, "out of the code");
}

static void test_malformed(void **state)
{
	(void)state;
	static const uint8_t underflow[] = { 0x57, 0xb1 };
	static const uint8_t overflow[] = { 0x2a, 0x2a, 0xb1 };
	static const uint8_t long_overflow[] = { 0x09, 0xb1 };
	static const uint8_t local[] = { 0x2b, 0xb1 };			/* aload_1 */
	static const uint8_t wide_local[] = { 0xc4, 0x15, U2(5), 0xb1 };	/* wide iload 5 */
	static const uint8_t long_local[] = { 0x1f, 0xb1 };		/* lload_1: slots 1, 2 */
	static const uint8_t store_empty[] = { 0x4c, 0xb1 };		/* astore_1 */
	static const uint8_t unknown_const[] = { 0x2a, 0xb7, U2(99), 0xb1 };
	static const uint8_t getstatic_bad[] = { 0xb2, U2(0), 0xb1 };
	static const uint8_t init_underflow[] = { 0xb7, U2(OBJ_INIT), 0xb1 };
	static const uint8_t out[] = { 0xa7, U2(100) };
	static const uint8_t out_cond[] = { 0x04, 0x99, U2(-5), 0xb1 };
	static const uint8_t off_end[] = { 0x00, 0x00 };
	static const uint8_t unknown_op[] = { 0x00, 0xcb };
	static const uint8_t sw_out[] = { 0x04, 0xab, 0, 0, U4(100), U4(0) };
	static const uint8_t dup_under[] = { 0x5a, 0xb1 };			/* dup_x1 on nothing */
	static const uint8_t swap_under[] = { 0x04, 0x5f, 0xb1 };
	expect_invalid(underflow, sizeof(underflow), 1, 1, NULL, 0, "underflow");
	expect_invalid(overflow, sizeof(overflow), 1, 1, NULL, 0, "overflow");
	expect_invalid(long_overflow, sizeof(long_overflow), 1, 1, NULL, 0, "overflow");
	expect_invalid(local, sizeof(local), 1, 1, NULL, 0, "local");
	expect_invalid(wide_local, sizeof(wide_local), 1, 5, NULL, 0, "local");
	expect_invalid(long_local, sizeof(long_local), 2, 2, NULL, 0, "local");
	expect_invalid(store_empty, sizeof(store_empty), 1, 2, NULL, 0, "underflow");
	expect_invalid(unknown_const, sizeof(unknown_const), 1, 1, NULL, 0, "constant");
	expect_invalid(getstatic_bad, sizeof(getstatic_bad), 1, 1, NULL, 0, "constant");
	expect_invalid(init_underflow, sizeof(init_underflow), 1, 1, NULL, 0, "underflow");
	expect_invalid(out, sizeof(out), 1, 1, NULL, 0, "out of the code");
	expect_invalid(out_cond, sizeof(out_cond), 1, 1, NULL, 0, "out of the code");
	expect_invalid(off_end, sizeof(off_end), 1, 1, NULL, 0, "off its end");
	expect_invalid(unknown_op, sizeof(unknown_op), 1, 1, NULL, 0, "instruction");
	expect_invalid(sw_out, sizeof(sw_out), 1, 1, NULL, 0, "out of the code");
	expect_invalid(dup_under, sizeof(dup_under), 2, 1, NULL, 0, "underflow");
	expect_invalid(swap_under, sizeof(swap_under), 2, 1, NULL, 0, "underflow");
	/* a constructor needs a local for this */
	static const uint8_t ret[] = { 0xb1 };
	expect_invalid(ret, sizeof(ret), 0, 0, NULL, 0, "local");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_super_first),
		cmocka_unit_test(test_branch_before),
		cmocka_unit_test(test_switch_and_two_calls),
		cmocka_unit_test(test_new_before),
		cmocka_unit_test(test_always_throws),
		cmocka_unit_test(test_this_moves),
		cmocka_unit_test(test_operand_counts),
		cmocka_unit_test(test_handlers),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
