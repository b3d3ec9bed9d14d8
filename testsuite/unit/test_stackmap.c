/* Unit tests of agent/stackmap.c: StackMapTable bodies decoded to absolute
 * offsets and encoded again, every frame form, offsets (and
 * Uninitialized(offset) types) passed through a map, short and extended
 * forms by the new delta, added frames in order, malformed bodies. */
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

#include "stackmap.h"

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The map: old offset + ADD; every Uninitialized offset it is asked about is noted. */
struct shift {
	uint32_t add;
	uint32_t asked[16];
	size_t nasked;
};

static uint32_t map_shift(void *ctx, uint32_t pc)
{
	struct shift *s = ctx;
	if (s->nasked < N(s->asked))
		s->asked[s->nasked++] = pc;
	return pc + s->add;
}

static void expect_encoded(const struct stackmap *sm, uint32_t add, const uint8_t *want, size_t n)
{
	struct shift s = { .add = add };
	uint8_t *out = NULL;
	size_t len = 0;
	assert_int_equal(stackmap_encode(sm, map_shift, &s, &out, &len), 0);
	if (len != n || memcmp(out, want, n) != 0) {
		for (size_t i = 0; i < len || i < n; i++)
			print_error("%3zu: got %02x want %02x%s\n", i, i < len ? out[i] : 0xff,
				    i < n ? want[i] : 0xff,
				    i < len && i < n && out[i] == want[i] ? "" : "  <--");
	}
	assert_int_equal(len, n);
	assert_memory_equal(out, want, n);
	free(out);
}

/* Every form, decoded: absolute offsets, forms, types. */
static const uint8_t every_form[] = {
	U2(11),				/* 11 frames */
	5,				/* same at 5 */
	64 + 2, 1,			/* same_locals_1 [int] at 8 */
	247, U2(100), 8, U2(3),		/* same_locals_1_extended [uninit(3)] at 109 */
	248, U2(0),			/* chop 3 at 110 */
	249, U2(1),			/* chop 2 at 112 */
	250, U2(2),			/* chop 1 at 115 */
	251, U2(300),			/* same_extended at 416 */
	252, U2(0), 2,			/* append [float] at 417 */
	253, U2(0), 3, 4,		/* append [double, long] at 418 */
	254, U2(0), 5, 6, 7, U2(0x1234),	/* append [null, uninitThis, Object #0x1234] at 419 */
	255, U2(0), U2(2), 0, 8, U2(8), U2(3), 1, 7, U2(9), 8, U2(109),
					/* full at 420: locals [top, uninit(8)],
					 * stack [int, Object #9, uninit(109)] */
};

static void test_decode_every_form(void **state)
{
	(void)state;
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(every_form, sizeof(every_form), &sm, &why), 0);
	assert_int_equal(sm.n, 11);
	static const struct { uint32_t pc; uint8_t form, chop; uint16_t nl, ns; } want[] = {
		{ 5, SM_SAME, 0, 0, 0 }, { 8, SM_SAME_LOCALS_1, 0, 0, 1 },
		{ 109, SM_SAME_LOCALS_1, 0, 0, 1 }, { 110, SM_CHOP, 3, 0, 0 },
		{ 112, SM_CHOP, 2, 0, 0 }, { 115, SM_CHOP, 1, 0, 0 }, { 416, SM_SAME, 0, 0, 0 },
		{ 417, SM_APPEND, 0, 1, 0 }, { 418, SM_APPEND, 0, 2, 0 },
		{ 419, SM_APPEND, 0, 3, 0 }, { 420, SM_FULL, 0, 2, 3 },
	};
	for (size_t i = 0; i < N(want); i++) {
		assert_int_equal(sm.f[i].pc, want[i].pc);
		assert_int_equal(sm.f[i].form, want[i].form);
		if (want[i].form == SM_CHOP)
			assert_int_equal(sm.f[i].chop, want[i].chop);
		assert_int_equal(sm.f[i].nlocals, want[i].nl);
		assert_int_equal(sm.f[i].nstack, want[i].ns);
		assert_false(sm.f[i].added);
	}
	const struct sm_type *t = &sm.pool[sm.f[2].stack];
	assert_int_equal(t->tag, SM_T_UNINIT);
	assert_int_equal(t->data, 3);
	t = &sm.pool[sm.f[9].locals];
	assert_int_equal(t[0].tag, SM_T_NULL);
	assert_int_equal(t[1].tag, SM_T_UNINIT_THIS);
	assert_int_equal(t[2].tag, SM_T_OBJECT);
	assert_int_equal(t[2].data, 0x1234);
	t = &sm.pool[sm.f[10].stack];
	assert_int_equal(t[0].tag, SM_T_INT);
	assert_int_equal(t[1].tag, SM_T_OBJECT);
	assert_int_equal(t[1].data, 9);
	assert_int_equal(t[2].tag, SM_T_UNINIT);
	assert_int_equal(t[2].data, 109);
	assert_true(stackmap_has(&sm, 5));
	assert_true(stackmap_has(&sm, 420));
	assert_false(stackmap_has(&sm, 6));
	stackmap_free(&sm);
	assert_null(sm.f);
	assert_int_equal(sm.n, 0);
}

/* With the identity map, every form comes back as it was. */
static void test_round_trip(void **state)
{
	(void)state;
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(every_form, sizeof(every_form), &sm, &why), 0);
	expect_encoded(&sm, 0, every_form, sizeof(every_form));
	stackmap_free(&sm);
	/* an empty table */
	static const uint8_t none[] = { 0, 0 };
	assert_int_equal(stackmap_decode(none, 2, &sm, &why), 0);
	assert_int_equal(sm.n, 0);
	expect_encoded(&sm, 0, none, 2);
	stackmap_free(&sm);
}

/* Shifted by 60: only the first delta changes, so the first frame takes its
 * extended form (5 + 60 > 63); the Uninitialized offsets move by 60 too. */
static void test_shifted(void **state)
{
	(void)state;
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(every_form, sizeof(every_form), &sm, &why), 0);
	static const uint8_t want[] = {
		U2(11),
		251, U2(65),			/* same at 65: extended */
		64 + 2, 1,
		247, U2(100), 8, U2(63),	/* uninit(3) -> 63 */
		248, U2(0), 249, U2(1), 250, U2(2), 251, U2(300),
		252, U2(0), 2, 253, U2(0), 3, 4, 254, U2(0), 5, 6, 7, U2(0x1234),
		255, U2(0), U2(2), 0, 8, U2(68), U2(3), 1, 7, U2(9), 8, U2(169),
	};
	expect_encoded(&sm, 60, want, sizeof(want));
	stackmap_free(&sm);
	/* 58 + 5 = 63: still short; same_locals_1 at 0 -> 63 short, 64 extended */
	static const uint8_t one[] = { U2(1), 64, 4 };
	assert_int_equal(stackmap_decode(one, sizeof(one), &sm, &why), 0);
	static const uint8_t at63[] = { U2(1), 127, 4 }, at64[] = { U2(1), 247, U2(64), 4 };
	expect_encoded(&sm, 63, at63, sizeof(at63));
	expect_encoded(&sm, 64, at64, sizeof(at64));
	stackmap_free(&sm);
	/* extended forms that fit come back short */
	static const uint8_t ext[] = { U2(2), 251, U2(3), 247, U2(0), 1 };
	assert_int_equal(stackmap_decode(ext, sizeof(ext), &sm, &why), 0);
	static const uint8_t ext_short[] = { U2(2), 3, 64, 1 };
	expect_encoded(&sm, 0, ext_short, sizeof(ext_short));
	stackmap_free(&sm);
}

/* Only Uninitialized offsets and frame offsets go through the map: an
 * Object's constant-pool index does not. */
static void test_map_asked(void **state)
{
	(void)state;
	static const uint8_t body[] = { U2(1), 255, U2(7), U2(2), 7, U2(40), 8, U2(2), U2(1), 7, U2(41) };
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(body, sizeof(body), &sm, &why), 0);
	struct shift s = { .add = 1 };
	uint8_t *out = NULL;
	size_t len = 0;
	assert_int_equal(stackmap_encode(&sm, map_shift, &s, &out, &len), 0);
	assert_int_equal(s.nasked, 2);
	assert_int_equal(s.asked[0], 7);	/* the frame */
	assert_int_equal(s.asked[1], 2);	/* uninit(2) */
	static const uint8_t want[] = { U2(1), 255, U2(8), U2(2), 7, U2(40), 8, U2(3), U2(1), 7, U2(41) };
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(out, want, len);
	free(out);
	stackmap_free(&sm);
}

/* Added frames (at new offsets, not mapped) go between the decoded ones in
 * offset order, each delta from the frame before in that order. */
static void test_added_frames_sorted(void **state)
{
	(void)state;
	/* decoded: same at 10, append [int] at 20 */
	static const uint8_t body[] = { U2(2), 10, 252, U2(9), 1 };
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(body, sizeof(body), &sm, &why), 0);
	const struct sm_type thr = { SM_T_OBJECT, 77 };
	const struct sm_type locals[] = { { SM_T_INT, 0 }, { SM_T_OBJECT, 3 } };
	/* added at 200, 5, 115 (new offsets); the old ones map to 110 and 120 */
	assert_int_equal(stackmap_add(&sm, 200, SM_FULL, NULL, 0, &thr, 1), 0);
	assert_int_equal(stackmap_add(&sm, 5, SM_SAME, NULL, 0, NULL, 0), 0);
	assert_int_equal(stackmap_add(&sm, 115, SM_FULL, locals, 2, NULL, 0), 0);
	assert_true(stackmap_has(&sm, 10));
	assert_false(stackmap_has(&sm, 5));	/* added ones are not decoded ones */
	static const uint8_t want[] = {
		U2(5),
		5,					/* added same at 5 */
		251, U2(104),				/* same at 110 (was 10): 110 - 5 - 1 */
		255, U2(4), U2(2), 1, 7, U2(3), U2(0),	/* added full at 115 */
		252, U2(4), 1,				/* append at 120 (was 20) */
		255, U2(79), U2(0), U2(1), 7, U2(77),	/* added full at 200 */
	};
	expect_encoded(&sm, 100, want, sizeof(want));
	stackmap_free(&sm);
}

/* Two frames at one new offset, or a delta over 65535: -EINVAL. */
static void test_encode_refuses(void **state)
{
	(void)state;
	static const uint8_t body[] = { U2(2), 10, 0 };		/* same at 10 and 11 */
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(body, sizeof(body), &sm, &why), 0);
	assert_int_equal(stackmap_add(&sm, 11, SM_SAME, NULL, 0, NULL, 0), 0);
	struct shift s = { 0 };
	uint8_t *out = (uint8_t *)&s;
	size_t len = 0;
	assert_int_equal(stackmap_encode(&sm, map_shift, &s, &out, &len), -EINVAL);
	assert_null(out);
	stackmap_free(&sm);

	static const uint8_t one[] = { U2(1), 0 };
	assert_int_equal(stackmap_decode(one, sizeof(one), &sm, &why), 0);
	assert_int_equal(stackmap_add(&sm, 65536, SM_SAME, NULL, 0, NULL, 0), 0);
	assert_int_equal(stackmap_encode(&sm, map_shift, &s, &out, &len), 0);	/* delta 65535 */
	free(out);
	assert_int_equal(stackmap_add(&sm, 65536 + 65537, SM_SAME, NULL, 0, NULL, 0), 0);
	assert_int_equal(stackmap_encode(&sm, map_shift, &s, &out, &len), -EINVAL);
	stackmap_free(&sm);
}

static void expect_bad(const uint8_t *body, size_t len)
{
	/* an exact-size copy, so that ASan sees any overread */
	uint8_t *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, body, len);
	struct stackmap sm;
	const char *why = NULL;
	assert_int_equal(stackmap_decode(copy, (uint32_t)len, &sm, &why), -EINVAL);
	assert_non_null(why);
	stackmap_free(&sm);
	free(copy);
}

/* Reserved frame types, unknown verification types, every truncation,
 * trailing bytes. */
static void test_decode_malformed(void **state)
{
	(void)state;
	for (uint32_t t = 128; t <= 246; t++) {
		const uint8_t b[] = { U2(1), (uint8_t)t, U2(0) };
		expect_bad(b, sizeof(b));
	}
	for (uint32_t tag = 9; tag < 256; tag += 7) {
		const uint8_t b[] = { U2(1), 64, (uint8_t)tag, U2(0) };
		expect_bad(b, sizeof(b));
		const uint8_t f[] = { U2(1), 255, U2(0), U2(1), 1, U2(1), (uint8_t)tag };
		expect_bad(f, sizeof(f));
	}
	for (size_t len = 0; len < sizeof(every_form); len++)
		expect_bad(every_form, len);
	uint8_t more[sizeof(every_form) + 1];
	memcpy(more, every_form, sizeof(every_form));
	more[sizeof(every_form)] = 0;
	expect_bad(more, sizeof(more));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_every_form),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_shifted),
		cmocka_unit_test(test_map_asked),
		cmocka_unit_test(test_added_frames_sorted),
		cmocka_unit_test(test_encode_refuses),
		cmocka_unit_test(test_decode_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
