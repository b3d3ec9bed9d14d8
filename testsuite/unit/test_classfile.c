/* Unit tests of agent/classfile.c: the bytes of rewritten class files, the
 * shifted tables, the StackMapTable's first frame, constant-pool indices, and
 * malformed or unsupported input.
 *
 * Class files are built by a small byte builder below; every expected output
 * is built with the same builder from the rewritten method spelled out by hand
 * (code with the 8-byte call in front, tables with their shifted offsets). */
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

#include "classfile.h"

/* ------------------------------------------------------------ byte builder */

struct bb {
	uint8_t *p;
	size_t n, cap;
};

static void bb_bytes(struct bb *b, const void *s, size_t n)
{
	if (b->cap - b->n < n) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->n < n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		assert_non_null(b->p);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void bb_u1(struct bb *b, uint32_t v)
{
	uint8_t x = (uint8_t)v;
	bb_bytes(b, &x, 1);
}

static void bb_u2(struct bb *b, uint32_t v)
{
	bb_u1(b, v >> 8);
	bb_u1(b, v);
}

static void bb_u4(struct bb *b, uint32_t v)
{
	bb_u2(b, v >> 16);
	bb_u2(b, v);
}

/* A u4 length to fill in once what it counts is written. */
static size_t bb_len_begin(struct bb *b)
{
	bb_u4(b, 0);
	return b->n;
}

static void bb_len_end(struct bb *b, size_t start)
{
	uint32_t v = (uint32_t)(b->n - start);
	b->p[start - 4] = (uint8_t)(v >> 24);
	b->p[start - 3] = (uint8_t)(v >> 16);
	b->p[start - 2] = (uint8_t)(v >> 8);
	b->p[start - 1] = (uint8_t)v;
}

static void bb_free(struct bb *b)
{
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

static void cp_utf8(struct bb *b, const char *s)
{
	bb_u1(b, 1);
	bb_u2(b, (uint32_t)strlen(s));
	bb_bytes(b, s, strlen(s));
}

/* ------------------------------------------------------------ class files */

/* The constant pool every test class starts with: one constant of every tag. */
enum {
	C_CODE = 1,
	C_LNT,
	C_LVT,
	C_SMT,
	C_THIS_NAME,
	C_THIS,		/* 6 Class */
	C_OBJ_NAME,
	C_OBJ,		/* 8 Class */
	C_M,
	C_DESC_IV,	/* 10 "(I)V" */
	C_LONG,		/* 11 Long: takes 11 and 12 */
	C_N = 13,
	C_DOUBLE,	/* 14 Double: takes 14 and 15 */
	C_LVTT = 16,
	C_RVTA,
	C_RITA,
	C_FOO,		/* 19 an attribute name nobody knows */
	C_X,
	C_I,
	C_ABS,
	C_DESC_V,	/* 23 "()V" */
	C_SOURCEFILE,
	C_SRC,
	C_INT,		/* 26 Integer */
	C_FLOAT,
	C_STRING,
	C_NAT,
	C_MREF,		/* 30 Methodref */
	C_FREF,
	C_IMREF,
	C_MH,
	C_MT,
	C_DYN,
	C_INDY,
	C_MODULE,
	C_PACKAGE,
	C_BASE_COUNT	/* 39: the constant_pool_count without extra constants */
};

static void put_base_pool(struct bb *b)
{
	cp_utf8(b, "Code");
	cp_utf8(b, "LineNumberTable");
	cp_utf8(b, "LocalVariableTable");
	cp_utf8(b, "StackMapTable");
	cp_utf8(b, "T");
	bb_u1(b, 7); bb_u2(b, C_THIS_NAME);
	cp_utf8(b, "java/lang/Object");
	bb_u1(b, 7); bb_u2(b, C_OBJ_NAME);
	cp_utf8(b, "m");
	cp_utf8(b, "(I)V");
	bb_u1(b, 5); bb_u4(b, 0x01020304); bb_u4(b, 0x05060708);
	cp_utf8(b, "n");
	bb_u1(b, 6); bb_u4(b, 0x3ff00000); bb_u4(b, 0);
	cp_utf8(b, "LocalVariableTypeTable");
	cp_utf8(b, "RuntimeVisibleTypeAnnotations");
	cp_utf8(b, "RuntimeInvisibleTypeAnnotations");
	cp_utf8(b, "Foo");
	cp_utf8(b, "x");
	cp_utf8(b, "I");
	cp_utf8(b, "abs");
	cp_utf8(b, "()V");
	cp_utf8(b, "SourceFile");
	cp_utf8(b, "T.java");
	bb_u1(b, 3); bb_u4(b, 42);
	bb_u1(b, 4); bb_u4(b, 0x3f800000);
	bb_u1(b, 8); bb_u2(b, C_SRC);
	bb_u1(b, 12); bb_u2(b, C_M); bb_u2(b, C_DESC_IV);
	bb_u1(b, 10); bb_u2(b, C_THIS); bb_u2(b, C_NAT);
	bb_u1(b, 9); bb_u2(b, C_THIS); bb_u2(b, C_NAT);
	bb_u1(b, 11); bb_u2(b, C_THIS); bb_u2(b, C_NAT);
	bb_u1(b, 15); bb_u1(b, 6); bb_u2(b, C_MREF);
	bb_u1(b, 16); bb_u2(b, C_DESC_IV);
	bb_u1(b, 17); bb_u2(b, 0); bb_u2(b, C_NAT);
	bb_u1(b, 18); bb_u2(b, 0); bb_u2(b, C_NAT);
	bb_u1(b, 19); bb_u2(b, C_THIS_NAME);
	bb_u1(b, 20); bb_u2(b, C_THIS_NAME);
}

struct xentry { uint16_t start, end, handler, type; };
struct line { uint16_t pc, line; };
struct local { uint16_t start, len, name, desc, index; };

struct method {
	uint16_t access, name, desc;
	bool pre_attr;			/* an unknown method attribute before Code */
	bool has_code;
	uint16_t max_stack, max_locals;
	const uint8_t *code;
	size_t code_len;
	const struct xentry *ex;
	size_t nex;
	const struct line *lines;
	size_t nlines;
	const struct local *lvt;
	size_t nlvt;
	const struct local *lvtt;
	size_t nlvtt;
	const uint8_t *frames;		/* the StackMapTable's entries, raw */
	size_t frames_len;
	uint16_t nframes;		/* 0: no StackMapTable */
	uint16_t extra_attr;		/* another Code attribute with this name, 0: none */
	const uint8_t *extra;
	size_t extra_len;
	int32_t code_len_delta;		/* added to the Code attribute's length (malformed) */
};

struct cls {
	const uint8_t *cp_extra;	/* constants after the base pool, raw */
	size_t cp_extra_len;
	uint16_t cp_extra_slots;
	const struct method *methods;
	size_t nmethods;
};

static void put_locals(struct bb *b, uint16_t name, const struct local *l, size_t n)
{
	bb_u2(b, name);
	size_t len = bb_len_begin(b);
	bb_u2(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		bb_u2(b, l[i].start);
		bb_u2(b, l[i].len);
		bb_u2(b, l[i].name);
		bb_u2(b, l[i].desc);
		bb_u2(b, l[i].index);
	}
	bb_len_end(b, len);
}

static void put_method(struct bb *b, const struct method *m)
{
	bb_u2(b, m->access);
	bb_u2(b, m->name);
	bb_u2(b, m->desc);
	bb_u2(b, (uint32_t)m->pre_attr + m->has_code);
	if (m->pre_attr) {
		bb_u2(b, C_FOO);
		bb_u4(b, 3);
		bb_u1(b, 0xca); bb_u1(b, 0xfe); bb_u1(b, 0x99);
	}
	if (!m->has_code)
		return;
	bb_u2(b, C_CODE);
	size_t code = bb_len_begin(b);
	bb_u2(b, m->max_stack);
	bb_u2(b, m->max_locals);
	bb_u4(b, (uint32_t)m->code_len);
	bb_bytes(b, m->code, m->code_len);
	bb_u2(b, (uint32_t)m->nex);
	for (size_t i = 0; i < m->nex; i++) {
		bb_u2(b, m->ex[i].start);
		bb_u2(b, m->ex[i].end);
		bb_u2(b, m->ex[i].handler);
		bb_u2(b, m->ex[i].type);
	}
	bb_u2(b, (uint32_t)(!!m->nlines + !!m->nlvt + !!m->nlvtt + !!m->nframes + !!m->extra_attr));
	if (m->nlines) {
		bb_u2(b, C_LNT);
		size_t len = bb_len_begin(b);
		bb_u2(b, (uint32_t)m->nlines);
		for (size_t i = 0; i < m->nlines; i++) {
			bb_u2(b, m->lines[i].pc);
			bb_u2(b, m->lines[i].line);
		}
		bb_len_end(b, len);
	}
	if (m->nlvt)
		put_locals(b, C_LVT, m->lvt, m->nlvt);
	if (m->nlvtt)
		put_locals(b, C_LVTT, m->lvtt, m->nlvtt);
	if (m->nframes) {
		bb_u2(b, C_SMT);
		size_t len = bb_len_begin(b);
		bb_u2(b, m->nframes);
		bb_bytes(b, m->frames, m->frames_len);
		bb_len_end(b, len);
	}
	if (m->extra_attr) {
		bb_u2(b, m->extra_attr);
		bb_u4(b, (uint32_t)m->extra_len);
		bb_bytes(b, m->extra, m->extra_len);
	}
	bb_len_end(b, code);
	if (m->code_len_delta) {
		uint32_t v = (uint32_t)(b->n - code) + (uint32_t)m->code_len_delta;
		b->p[code - 4] = (uint8_t)(v >> 24);
		b->p[code - 3] = (uint8_t)(v >> 16);
		b->p[code - 2] = (uint8_t)(v >> 8);
		b->p[code - 1] = (uint8_t)v;
	}
}

static void build_class(struct bb *b, const struct cls *c)
{
	bb_u4(b, 0xCAFEBABE);
	bb_u2(b, 0);
	bb_u2(b, 52);
	bb_u2(b, C_BASE_COUNT + c->cp_extra_slots);
	put_base_pool(b);
	bb_bytes(b, c->cp_extra, c->cp_extra_len);
	bb_u2(b, 0x0021);		/* access */
	bb_u2(b, C_THIS);
	bb_u2(b, C_OBJ);
	bb_u2(b, 1);			/* one interface */
	bb_u2(b, C_OBJ);
	bb_u2(b, 2);			/* fields: x I with an attribute, n I without */
	bb_u2(b, 0x0002); bb_u2(b, C_X); bb_u2(b, C_I);
	bb_u2(b, 1);
	bb_u2(b, C_FOO); bb_u4(b, 2); bb_u2(b, 0xbeef);
	bb_u2(b, 0x0002); bb_u2(b, C_N); bb_u2(b, C_I);
	bb_u2(b, 0);
	bb_u2(b, (uint32_t)c->nmethods);
	for (size_t i = 0; i < c->nmethods; i++)
		put_method(b, &c->methods[i]);
	bb_u2(b, 1);			/* SourceFile */
	bb_u2(b, C_SOURCEFILE);
	bb_u4(b, 2);
	bb_u2(b, C_SRC);
}

/* The constants the rewriter appends at BASE: Probe.enter's Methodref (BASE+5)
 * and one Integer per instrumented method (BASE+6...). */
static void put_probe_constants(struct bb *b, uint16_t base, const int32_t *ids, size_t n)
{
	cp_utf8(b, "stapjava/Probe");
	bb_u1(b, 7); bb_u2(b, base);
	cp_utf8(b, "enter");
	cp_utf8(b, "(I)V");
	bb_u1(b, 12); bb_u2(b, base + 2); bb_u2(b, base + 3);
	bb_u1(b, 10); bb_u2(b, base + 1); bb_u2(b, base + 4);
	for (size_t i = 0; i < n; i++) {
		bb_u1(b, 3);
		bb_u4(b, (uint32_t)ids[i]);
	}
}

/* CODE with the call in front: ldc_w INT; invokestatic MREF; nop; nop. */
static uint8_t *with_call(const uint8_t *code, size_t n, uint16_t int_index, uint16_t mref)
{
	uint8_t *p = malloc(n + 8);
	assert_non_null(p);
	const uint8_t call[8] = { 0x13, (uint8_t)(int_index >> 8), (uint8_t)int_index,
				  0xb8, (uint8_t)(mref >> 8), (uint8_t)mref, 0x00, 0x00 };
	memcpy(p, call, 8);
	memcpy(p + 8, code, n);
	return p;
}

/* ------------------------------------------------------------ SELECT */

#define MAX_CALLS 16

struct sel {
	const int32_t *ids;		/* returned in call order; -1 after the end */
	size_t nids;
	size_t calls;
	char name[MAX_CALLS][32];
	char desc[MAX_CALLS][32];
	uint16_t access[MAX_CALLS];
};

static int32_t select_seq(void *ctx, const char *name, size_t name_len, const char *desc,
			  size_t desc_len, uint16_t access)
{
	struct sel *s = ctx;
	size_t i = s->calls++;
	if (i < MAX_CALLS) {
		assert_true(name_len < sizeof(s->name[i]));
		assert_true(desc_len < sizeof(s->desc[i]));
		memcpy(s->name[i], name, name_len);
		s->name[i][name_len] = 0;
		memcpy(s->desc[i], desc, desc_len);
		s->desc[i][desc_len] = 0;
		s->access[i] = access;
	}
	return i < s->nids ? s->ids[i] : -1;
}

static int32_t select_all(void *ctx, const char *name, size_t name_len, const char *desc,
			  size_t desc_len, uint16_t access)
{
	int *calls = ctx;
	(void)name; (void)name_len; (void)desc; (void)desc_len; (void)access;
	return (*calls)++;
}

static int32_t select_none(void *ctx, const char *name, size_t name_len, const char *desc,
			   size_t desc_len, uint16_t access)
{
	int *calls = ctx;
	(void)name; (void)name_len; (void)desc; (void)desc_len; (void)access;
	(*calls)++;
	return -1;
}

/* What the test is at, named when the output differs. */
static const char *g_case = "";

/* Rewrites IN with SEL; expects RET and, when positive, output EXPECT. */
static void expect_rewrite(const struct bb *in, struct sel *sel, int ret, const struct bb *expect)
{
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = "unset";
	int r = classfile_inject_enter(in->p, in->n, select_seq, sel, &out, &out_len, &why);
	assert_int_equal(r, ret);
	assert_null(why);
	assert_non_null(out);
	if (out_len != expect->n || memcmp(out, expect->p, out_len) != 0) {
		size_t i = 0;
		while (i < out_len && i < expect->n && out[i] == expect->p[i])
			i++;
		print_error("%soutput differs at byte %zu (lengths %zu, expected %zu)\n", g_case, i,
			    out_len, expect->n);
	}
	assert_int_equal(out_len, expect->n);
	assert_memory_equal(out, expect->p, out_len);
	free(out);
}

/* Expects IN to be refused with ERR, a reason, and *out untouched. */
static void expect_error(const uint8_t *in, size_t len, int err)
{
	uint8_t sentinel;
	uint8_t *out = &sentinel;
	size_t out_len = 12345;
	const char *why = NULL;
	int calls = 0;
	int r = classfile_inject_enter(in, len, select_all, &calls, &out, &out_len, &why);
	assert_int_equal(r, err);
	assert_non_null(why);
	assert_true(why[0] != 0);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 12345);
}

/* M alone in a class, chosen with site ID: the rewrite must give EXPECTED (M
 * as the rewriter leaves it, but for the call) with the call in front and the
 * Probe constants appended. *SEEN, when given, gets what SELECT was shown. */
static void expect_one(const struct method *m, const struct method *expected, int32_t id,
		       struct sel *seen)
{
	const struct cls c = { .methods = m, .nmethods = 1 };
	struct bb in = { 0 }, exp = { 0 }, extra = { 0 };
	build_class(&in, &c);
	put_probe_constants(&extra, C_BASE_COUNT, &id, 1);
	uint8_t *code = with_call(expected->code, expected->code_len, C_BASE_COUNT + 6, C_BASE_COUNT + 5);
	struct method em = *expected;
	em.code = code;
	em.code_len += 8;
	const struct cls ec = { .cp_extra = extra.p, .cp_extra_len = extra.n, .cp_extra_slots = 7,
				.methods = &em, .nmethods = 1 };
	build_class(&exp, &ec);
	struct sel s = { .ids = &id, .nids = 1 };
	expect_rewrite(&in, &s, 1, &exp);
	if (seen)
		*seen = s;
	free(code);
	bb_free(&in);
	bb_free(&exp);
	bb_free(&extra);
}

/* ------------------------------------------------------------ tests */

/* 0: iload_0  1: istore_1  2: return */
static const uint8_t small_code[] = { 0x1a, 0x3c, 0xb1 };

static void test_one_method(void **state)
{
	(void)state;
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 2, .code = small_code,
				  .code_len = sizeof(small_code) };
	struct sel s;
	expect_one(&m, &m, 1234, &s);
	assert_int_equal(s.calls, 1);
	assert_string_equal(s.name[0], "m");
	assert_string_equal(s.desc[0], "(I)V");
	assert_int_equal(s.access[0], 0x0009);
}

/* A loop with a try range: every table moves, ranges from 0 stay at 0. */
static const uint8_t loop_code[] = {
	0x03,			/* 0: iconst_0 */
	0x3c,			/* 1: istore_1 */
	0x84, 0x01, 0x01,	/* 2: iinc 1,1 */
	0x1b,			/* 5: iload_1 */
	0x10, 0x0a,		/* 6: bipush 10 */
	0xa1, 0xff, 0xfa,	/* 8: if_icmplt -6 (-> 2) */
	0xb1,			/* 11: return */
};

static void test_tables_shifted(void **state)
{
	(void)state;
	static const struct xentry ex[] = { { 2, 8, 11, C_OBJ }, { 0, 11, 11, 0 } };
	static const struct line lines[] = { { 0, 10 }, { 2, 11 }, { 11, 12 } };
	static const struct local lvt[] = { { 0, 12, C_X, C_I, 0 }, { 2, 9, C_N, C_I, 1 } };
	static const struct local lvtt[] = { { 5, 3, C_N, C_I, 1 }, { 0, 12, C_X, C_I, 0 } };
	/* at 2: append_frame [int] (delta 2); at 11: chop_frame 1 (delta 8) */
	static const uint8_t frames[] = { 252, 0, 2, 1, 250, 0, 8 };
	const struct method m = { .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 2, .max_locals = 2, .code = loop_code,
				  .code_len = sizeof(loop_code), .ex = ex, .nex = 2,
				  .lines = lines, .nlines = 3, .lvt = lvt, .nlvt = 2,
				  .lvtt = lvtt, .nlvtt = 2, .frames = frames,
				  .frames_len = sizeof(frames), .nframes = 2 };
	static const struct xentry eex[] = { { 10, 16, 19, C_OBJ }, { 8, 19, 19, 0 } };
	static const struct line elines[] = { { 0, 10 }, { 10, 11 }, { 19, 12 } };
	static const struct local elvt[] = { { 0, 20, C_X, C_I, 0 }, { 10, 9, C_N, C_I, 1 } };
	static const struct local elvtt[] = { { 13, 3, C_N, C_I, 1 }, { 0, 20, C_X, C_I, 0 } };
	static const uint8_t eframes[] = { 252, 0, 10, 1, 250, 0, 8 };
	struct method em = m;
	em.ex = eex;
	em.lines = elines;
	em.lvt = elvt;
	em.lvtt = elvtt;
	em.frames = eframes;
	expect_one(&m, &em, 0, NULL);
}

/* The first StackMapTable frame in every form; the second is copied as it is. */
static void test_first_frame_forms(void **state)
{
	(void)state;
	static const struct {
		uint8_t in[16], out[16];
		size_t in_len, out_len;
	} cases[] = {
		{ { 0 }, { 8 }, 1, 1 },					/* same_frame */
		{ { 10 }, { 18 }, 1, 1 },
		{ { 55 }, { 63 }, 1, 1 },				/* the largest that stays */
		{ { 56 }, { 251, 0, 64 }, 1, 3 },			/* -> same_frame_extended */
		{ { 63 }, { 251, 0, 71 }, 1, 3 },
		{ { 64 + 3, 1 }, { 64 + 11, 1 }, 2, 2 },		/* same_locals_1_stack_item */
		{ { 64 + 55, 2 }, { 127, 2 }, 2, 2 },
		{ { 64 + 56, 7, 0, C_OBJ }, { 247, 0, 64, 7, 0, C_OBJ }, 4, 6 },
		{ { 127, 4 }, { 247, 0, 71, 4 }, 2, 4 },
		{ { 247, 0, 3, 1 }, { 247, 0, 11, 1 }, 4, 4 },	/* ..._extended */
		{ { 248, 0, 2 }, { 248, 0, 10 }, 3, 3 },		/* chop */
		{ { 250, 0, 9 }, { 250, 0, 17 }, 3, 3 },
		{ { 251, 0, 0 }, { 251, 0, 8 }, 3, 3 },			/* same_frame_extended */
		{ { 251, 0x01, 0xfe }, { 251, 0x02, 0x06 }, 3, 3 },
		{ { 252, 0, 7, 1 }, { 252, 0, 15, 1 }, 4, 4 },		/* append */
		{ { 254, 0, 4, 1, 2, 4 }, { 254, 0, 12, 1, 2, 4 }, 6, 6 },
		/* full_frame: locals [int, T], stack [float] */
		{ { 255, 0, 5, 0, 2, 1, 7, 0, C_THIS, 0, 1, 2 },
		  { 255, 0, 13, 0, 2, 1, 7, 0, C_THIS, 0, 1, 2 }, 12, 12 },
	};
	/* 0..510: nop, 511: return */
	static uint8_t code[512];
	memset(code, 0, sizeof(code));
	code[511] = 0xb1;
	static const uint8_t second[] = { 64 + 5, 1 };
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint8_t frames[32], eframes[32];
		memcpy(frames, cases[k].in, cases[k].in_len);
		memcpy(frames + cases[k].in_len, second, sizeof(second));
		memcpy(eframes, cases[k].out, cases[k].out_len);
		memcpy(eframes + cases[k].out_len, second, sizeof(second));
		const struct method m = { .access = 0x0001, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 3,
					  .code = code, .code_len = sizeof(code), .frames = frames,
					  .frames_len = cases[k].in_len + sizeof(second), .nframes = 2 };
		struct method em = m;
		em.frames = eframes;
		em.frames_len = cases[k].out_len + sizeof(second);
		char label[64];
		snprintf(label, sizeof(label), "first frame type %u: ", cases[k].in[0]);
		g_case = label;
		expect_one(&m, &em, 77, NULL);
		g_case = "";
	}
}

/* Uninitialized(offset) names the offset of a `new` instruction: an absolute
 * offset inside the frames (the first and the later ones), which moves by 8. */
static const uint8_t new_code[] = {
	0xbb, 0x00, C_THIS,	/* 0: new T */
	0x59,			/* 3: dup */
	0x1a,			/* 4: iload_0 */
	0x99, 0x00, 0x07,	/* 5: ifeq +7 (-> 12) */
	0x04,			/* 8: iconst_1 */
	0xa7, 0x00, 0x04,	/* 9: goto +4 (-> 13) */
	0x03,			/* 12: iconst_0 */
	0xb7, 0x00, C_MREF,	/* 13: invokespecial T.m(I)V (stands for <init>) */
	0xb0,			/* 16: areturn */
};

static void test_frame_uninitialized_offsets(void **state)
{
	(void)state;
	/* at 12: full_frame locals [int], stack [uninit(0), uninit(0)];
	 * at 13: full_frame locals [int], stack [uninit(0), uninit(0), int] */
	static const uint8_t frames[] = { 255, 0, 12, 0, 1, 1, 0, 2, 8, 0, 0, 8, 0, 0,
					  255, 0, 0, 0, 1, 1, 0, 3, 8, 0, 0, 8, 0, 0, 1 };
	static const uint8_t eframes[] = { 255, 0, 20, 0, 1, 1, 0, 2, 8, 0, 8, 8, 0, 8,
					   255, 0, 0, 0, 1, 1, 0, 3, 8, 0, 8, 8, 0, 8, 1 };
	const struct method m = { .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 3, .max_locals = 1, .code = new_code,
				  .code_len = sizeof(new_code), .frames = frames,
				  .frames_len = sizeof(frames), .nframes = 2 };
	struct method em = m;
	em.frames = eframes;
	expect_one(&m, &em, 5, NULL);
}

/* Several methods: abstract and native ones are never offered, unchosen ones
 * stay as they are, Integers are appended in method order. */
static void test_several_methods(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t code_x[] = { 0x2a, 0xb1 };	/* aload_0 return */
	const struct method ms[] = {
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 0, .max_locals = 2, .code = ret, .code_len = 1 },
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V },			/* abstract */
		{ .access = 0x0109, .name = C_N, .desc = C_DESC_V, .pre_attr = true },	/* native */
		{ .access = 0x0002, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 1, .max_locals = 1, .code = code_x, .code_len = 2 },
		{ .access = 0x0012, .name = C_M, .desc = C_DESC_V, .has_code = true, .pre_attr = true,
		  .max_stack = 3, .max_locals = 1, .code = code_x, .code_len = 2 },
		{ .access = 0x1008, .name = C_N, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 0, .max_locals = 1, .code = ret, .code_len = 1 },
	};
	const struct cls c = { .methods = ms, .nmethods = 6 };
	static const int32_t ids[] = { 7, -1, 0x7fffffff, 65536 };
	static const int32_t appended[] = { 7, 0x7fffffff, 65536 };
	struct bb in = { 0 }, exp = { 0 }, extra = { 0 };
	build_class(&in, &c);
	put_probe_constants(&extra, C_BASE_COUNT, appended, 3);
	const uint16_t mref = C_BASE_COUNT + 5;
	uint8_t *c0 = with_call(ret, 1, C_BASE_COUNT + 6, mref);
	uint8_t *c4 = with_call(code_x, 2, C_BASE_COUNT + 7, mref);
	uint8_t *c5 = with_call(ret, 1, C_BASE_COUNT + 8, mref);
	struct method ems[6];
	memcpy(ems, ms, sizeof(ms));
	ems[0].code = c0;
	ems[0].code_len = 9;
	ems[0].max_stack = 1;	/* 0 -> 1: the call needs a slot */
	ems[4].code = c4;
	ems[4].code_len = 10;
	ems[5].code = c5;
	ems[5].code_len = 9;
	ems[5].max_stack = 1;
	const struct cls ec = { .cp_extra = extra.p, .cp_extra_len = extra.n, .cp_extra_slots = 9,
				.methods = ems, .nmethods = 6 };
	build_class(&exp, &ec);

	struct sel s = { .ids = ids, .nids = 4 };
	expect_rewrite(&in, &s, 3, &exp);
	assert_int_equal(s.calls, 4);
	assert_string_equal(s.name[0], "m");
	assert_string_equal(s.desc[0], "(I)V");
	assert_int_equal(s.access[0], 0x0001);
	assert_string_equal(s.name[1], "x");
	assert_string_equal(s.desc[1], "()V");
	assert_int_equal(s.access[1], 0x0002);
	assert_string_equal(s.name[2], "m");
	assert_string_equal(s.desc[2], "()V");
	assert_int_equal(s.access[2], 0x0012);
	assert_string_equal(s.name[3], "n");
	assert_string_equal(s.desc[3], "(I)V");
	assert_int_equal(s.access[3], 0x1008);
	free(c0);
	free(c4);
	free(c5);
	bb_free(&in);
	bb_free(&exp);
	bb_free(&extra);
}

/* SELECT says -1 to everything: 0, *out untouched; and a class without code. */
static void test_none_selected(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	/* an unknown attribute in code does not matter when the method is left */
	static const uint8_t foo[] = { 1, 2, 3 };
	const struct method ms[] = {
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 0, .max_locals = 2, .code = ret, .code_len = 1,
		  .extra_attr = C_FOO, .extra = foo, .extra_len = 3 },
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V },
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 1, .max_locals = 1, .code = ret, .code_len = 1 },
	};
	for (size_t n = 0; n <= 3; n++) {
		const struct cls c = { .methods = ms, .nmethods = n };
		struct bb in = { 0 };
		build_class(&in, &c);
		uint8_t sentinel;
		uint8_t *out = &sentinel;
		size_t out_len = 777;
		const char *why = "unset";
		int calls = 0;
		int r = classfile_inject_enter(in.p, in.n, select_none, &calls, &out, &out_len, &why);
		assert_int_equal(r, 0);
		assert_null(why);
		assert_ptr_equal(out, &sentinel);
		assert_int_equal(out_len, 777);
		assert_int_equal(calls, n == 0 ? 0 : n == 3 ? 2 : 1);
		bb_free(&in);
	}
}

/* A method left alone may hold what the rewriter cannot shift. */
static void test_unsupported_in_unchosen_method(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t ta[] = { 0, 0 };	/* num_annotations 0 */
	const struct method ms[] = {
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 1, .max_locals = 1, .code = ret, .code_len = 1,
		  .extra_attr = C_RVTA, .extra = ta, .extra_len = 2 },
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 2, .max_locals = 2, .code = ret, .code_len = 1 },
	};
	const struct cls c = { .methods = ms, .nmethods = 2 };
	static const int32_t ids[] = { -1, 9 };
	struct bb in = { 0 }, exp = { 0 }, extra = { 0 };
	build_class(&in, &c);
	put_probe_constants(&extra, C_BASE_COUNT, ids + 1, 1);
	uint8_t *code = with_call(ret, 1, C_BASE_COUNT + 6, C_BASE_COUNT + 5);
	struct method ems[2] = { ms[0], ms[1] };
	ems[1].code = code;
	ems[1].code_len = 9;
	const struct cls ec = { .cp_extra = extra.p, .cp_extra_len = extra.n, .cp_extra_slots = 7,
				.methods = ems, .nmethods = 2 };
	build_class(&exp, &ec);
	struct sel s = { .ids = ids, .nids = 2 };
	expect_rewrite(&in, &s, 1, &exp);
	free(code);
	bb_free(&in);
	bb_free(&exp);
	bb_free(&extra);
}

/* Long and Double take two slots, also as the pool's last constant: the
 * appended constants' indices count them. */
static void test_wide_constants_at_end(void **state)
{
	(void)state;
	struct bb cp = { 0 };
	bb_u1(&cp, 5); bb_u4(&cp, 0xffffffff); bb_u4(&cp, 0xfffffffe);	/* 39, 40 */
	cp_utf8(&cp, "pad");						/* 41 */
	bb_u1(&cp, 6); bb_u4(&cp, 0x7ff80000); bb_u4(&cp, 0);		/* 42, 43 */
	const uint16_t slots = 5, base = C_BASE_COUNT + 5;
	const struct method m = { .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 4, .max_locals = 2, .code = small_code,
				  .code_len = sizeof(small_code) };
	const struct cls c = { .cp_extra = cp.p, .cp_extra_len = cp.n, .cp_extra_slots = slots,
			       .methods = &m, .nmethods = 1 };
	static const int32_t ids[] = { 3 };
	struct bb in = { 0 }, exp = { 0 };
	build_class(&in, &c);
	struct bb cp2 = { 0 };
	bb_bytes(&cp2, cp.p, cp.n);
	put_probe_constants(&cp2, base, ids, 1);
	uint8_t *code = with_call(small_code, sizeof(small_code), base + 6, base + 5);
	assert_int_equal(base + 6, 50);
	struct method em = m;
	em.code = code;
	em.code_len += 8;
	const struct cls ec = { .cp_extra = cp2.p, .cp_extra_len = cp2.n, .cp_extra_slots = slots + 7,
				.methods = &em, .nmethods = 1 };
	build_class(&exp, &ec);
	struct sel s = { .ids = ids, .nids = 1 };
	expect_rewrite(&in, &s, 1, &exp);
	free(code);
	bb_free(&in);
	bb_free(&exp);
	bb_free(&cp);
	bb_free(&cp2);
}

/* tableswitch and lookupswitch are copied byte for byte: 8 keeps the padding. */
static void test_switch_verbatim(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x1a,				/* 0: iload_0 */
		0xaa, 0x00, 0x00,		/* 1: tableswitch, pad to 4 */
		0x00, 0x00, 0x00, 0x17,		/*    default +23 (-> 24) */
		0x00, 0x00, 0x00, 0x00,		/*    low 0 */
		0x00, 0x00, 0x00, 0x01,		/*    high 1 */
		0xff, 0xff, 0xff, 0xff,		/*    0 -> 0 */
		0x00, 0x00, 0x00, 0x17,		/*    1 -> 24 */
		0x1a,				/* 24: iload_0 */
		0xab, 0x00, 0x00,		/* 25: lookupswitch, pad to 28 */
		0x00, 0x00, 0x00, 0x0f,		/*    default +15 (-> 40) */
		0x00, 0x00, 0x00, 0x01,		/*    1 pair */
		0x00, 0x00, 0x00, 0x07, 0xff, 0xff, 0xff, 0xe7,	/* 7 -> 0 */
		0xb1,				/* 40: return */
	};
	static const uint8_t frames[] = { 0, 23, 15 };	/* at 0, 24, 40 */
	static const uint8_t eframes[] = { 8, 23, 15 };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 1, .code = code,
				  .code_len = sizeof(code), .frames = frames, .frames_len = 3,
				  .nframes = 3 };
	struct method em = m;
	em.frames = eframes;
	expect_one(&m, &em, 1, NULL);
}

/* code_length 65527 grows to 65535; 65528 cannot grow. */
static void test_code_length_limit(void **state)
{
	(void)state;
	uint8_t *code = calloc(65528, 1);
	assert_non_null(code);
	code[65526] = 0xb1;
	{
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1,
					  .code = code, .code_len = 65527 };
		expect_one(&m, &m, 0, NULL);   /* 65527 + 8 = 65535 */
	}
	{
		code[65527] = 0xb1;
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1,
					  .code = code, .code_len = 65528 };
		const struct cls c = { .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -ENOTSUP);
		bb_free(&in);
	}
	free(code);
}

/* The pool may reach 65535 constants, not more. */
static void test_constant_pool_limit(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 1, .code = ret, .code_len = 1 };
	/* count + 6 + 1 sites == 65535 is the largest that fits */
	for (uint32_t count = 65528; count <= 65529; count++) {
		struct bb cp = { 0 };
		for (uint32_t i = C_BASE_COUNT; i < count; i++) {
			bb_u1(&cp, 3);
			bb_u4(&cp, i);
		}
		const struct cls c = { .cp_extra = cp.p, .cp_extra_len = cp.n,
				       .cp_extra_slots = (uint16_t)(count - C_BASE_COUNT),
				       .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		if (count == 65529) {
			expect_error(in.p, in.n, -ENOTSUP);
		} else {
			uint8_t *out = NULL;
			size_t out_len = 0;
			const char *why = "unset";
			int calls = 0;
			int r = classfile_inject_enter(in.p, in.n, select_all, &calls, &out, &out_len,
						       &why);
			assert_int_equal(r, 1);
			assert_int_equal(out[8] << 8 | out[9], 65535);
			free(out);
		}
		bb_free(&cp);
		bb_free(&in);
	}
}

/* A class with every table, several methods, to cut and to corrupt. */
static void build_rich_class(struct bb *b)
{
	static const struct xentry ex[] = { { 2, 8, 11, C_OBJ }, { 0, 11, 11, 0 } };
	static const struct line lines[] = { { 0, 10 }, { 2, 11 }, { 11, 12 } };
	static const struct local lvt[] = { { 0, 12, C_X, C_I, 0 }, { 2, 9, C_N, C_I, 1 } };
	static const struct local lvtt[] = { { 0, 12, C_X, C_I, 0 } };
	static const uint8_t frames[] = { 252, 0, 2, 1, 250, 0, 8 };
	static const uint8_t ret[] = { 0xb1 };
	const struct method ms[] = {
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V, .pre_attr = true },
		{ .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .pre_attr = true, .max_stack = 2, .max_locals = 2, .code = loop_code,
		  .code_len = sizeof(loop_code), .ex = ex, .nex = 2, .lines = lines,
		  .nlines = 3, .lvt = lvt, .nlvt = 2, .lvtt = lvtt, .nlvtt = 1,
		  .frames = frames, .frames_len = sizeof(frames), .nframes = 2 },
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 0, .max_locals = 1, .code = ret, .code_len = 1 },
	};
	const struct cls c = { .methods = ms, .nmethods = 3 };
	build_class(b, &c);
}

static void test_bad_magic(void **state)
{
	(void)state;
	struct bb in = { 0 };
	build_rich_class(&in);
	in.p[3] = 0xbf;
	expect_error(in.p, in.n, -EINVAL);
	expect_error(in.p, 0, -EINVAL);
	bb_free(&in);
}

/* Every prefix of a good class is malformed, whatever SELECT says. */
static void test_truncated(void **state)
{
	(void)state;
	struct bb in = { 0 };
	build_rich_class(&in);
	for (size_t len = 0; len < in.n; len++) {
		/* a copy of exactly LEN bytes so that ASan sees any overread */
		uint8_t *cut = malloc(len ? len : 1);
		assert_non_null(cut);
		memcpy(cut, in.p, len);
		expect_error(cut, len, -EINVAL);
		/* nothing chosen: 0 or -EINVAL, never a crash, *out untouched */
		uint8_t sentinel;
		uint8_t *out = &sentinel;
		size_t out_len = 1;
		const char *why = NULL;
		int calls = 0;
		int r = classfile_inject_enter(cut, len, select_none, &calls, &out, &out_len, &why);
		assert_true(r == 0 || r == -EINVAL);
		assert_true(r == 0 ? why == NULL : why != NULL);
		assert_ptr_equal(out, &sentinel);
		free(cut);
	}
	/* the whole class is fine */
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = "unset";
	int calls = 0;
	assert_int_equal(classfile_inject_enter(in.p, in.n, select_all, &calls, &out, &out_len, &why), 2);
	assert_int_equal(calls, 2);
	free(out);
	bb_free(&in);
}

static void test_trailing_bytes(void **state)
{
	(void)state;
	struct bb in = { 0 };
	build_rich_class(&in);
	bb_u1(&in, 0);
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);
}

static void test_unknown_constant_tag(void **state)
{
	(void)state;
	static const uint8_t tags[] = { 0, 2, 13, 14, 21, 255 };
	for (size_t i = 0; i < sizeof(tags); i++) {
		uint8_t cp[] = { tags[i], 0, 1, 0, 1, 0, 1, 0, 1 };
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1,
					  .code = small_code, .code_len = sizeof(small_code) };
		const struct cls c = { .cp_extra = cp, .cp_extra_len = sizeof(cp),
				       .cp_extra_slots = 1, .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -EINVAL);
		bb_free(&in);
	}
	/* no constant pool at all */
	static const uint8_t empty[] = { 0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0, 0,
					 0, 0x21, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	expect_error(empty, sizeof(empty), -EINVAL);
}

/* Code attributes the rewriter cannot shift. */
static void test_unsupported_code_attributes(void **state)
{
	(void)state;
	static const uint8_t ta[] = { 0, 0 };
	static const uint16_t names[] = { C_RVTA, C_RITA, C_FOO };
	for (size_t i = 0; i < 3; i++) {
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1,
					  .code = small_code, .code_len = sizeof(small_code),
					  .lines = (const struct line[]){ { 0, 1 } }, .nlines = 1,
					  .extra_attr = names[i], .extra = ta, .extra_len = 2 };
		const struct cls c = { .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -ENOTSUP);
		bb_free(&in);
	}
}

static void test_malformed_code(void **state)
{
	(void)state;
	static const uint8_t reserved[] = { 128, 1 };
	static const uint8_t ok_frames[] = { 10 };
	struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
			    .max_stack = 1, .max_locals = 1, .code = small_code,
			    .code_len = sizeof(small_code) };
	const struct cls c = { .methods = &m, .nmethods = 1 };
	struct bb in = { 0 };

	/* a reserved frame type */
	m.frames = reserved;
	m.frames_len = sizeof(reserved);
	m.nframes = 1;
	build_class(&in, &c);
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);

	/* a Code attribute longer or shorter than what it holds */
	m.frames = ok_frames;
	m.frames_len = 1;
	for (int d = -3; d <= 3; d++) {
		if (d == 0)
			continue;
		m.code_len_delta = d;
		build_class(&in, &c);
		expect_error(in.p, in.n, -EINVAL);
		bb_free(&in);
	}
	m.code_len_delta = 0;

	/* a LineNumberTable whose length disagrees with its count */
	m.lines = (const struct line[]){ { 0, 1 }, { 1, 2 } };
	m.nlines = 2;
	build_class(&in, &c);
	size_t at = 0;	/* the LineNumberTable's u4 length: after its name C_LNT */
	for (size_t i = 0; i + 8 < in.n; i++)
		if (in.p[i] == 0 && in.p[i + 1] == C_LNT && in.p[i + 5] == 10 && in.p[i + 7] == 2)
			at = i + 2;
	assert_true(at != 0);
	in.p[at + 3] = 6;	/* says 6, holds 10 */
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);
	m.nlines = 0;

	/* a method name that is not a Utf8 constant */
	m.name = C_THIS;
	build_class(&in, &c);
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);
	m.name = 999;
	build_class(&in, &c);
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);
	m.name = C_M;

	/* code_length 0 is malformed (JVMS 4.7.3: it must be > 0) */
	m.code_len = 0;
	m.nframes = 0;
	build_class(&in, &c);
	expect_error(in.p, in.n, -EINVAL);
	bb_free(&in);
}

/* A Long or Double needs two slots: one in the last slot is malformed. */
static void test_wide_constant_in_last_slot(void **state)
{
	(void)state;
	static const uint8_t tags[] = { 5, 6 };
	for (size_t i = 0; i < sizeof(tags); i++) {
		uint8_t cp[] = { tags[i], 0, 0, 0, 0, 0, 0, 0, 1 };
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1,
					  .code = small_code, .code_len = sizeof(small_code) };
		const struct cls c = { .cp_extra = cp, .cp_extra_len = sizeof(cp),
				       .cp_extra_slots = 1, .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -EINVAL);
		bb_free(&in);
	}
}

/* The class the calls go to, byte for byte. */
static void test_probe_class(void **state)
{
	(void)state;
	static const uint8_t want[] = {
		0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52,    /* magic, version 52.0 */
		0, 7,                                   /* constant_pool_count: #1 to #6 */
		1, 0, 14, 's', 't', 'a', 'p', 'j', 'a', 'v', 'a', '/', 'P', 'r', 'o', 'b', 'e',
		7, 0, 1,                                /* #2 Class #1 (this) */
		1, 0, 16, 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't',
		7, 0, 3,                                /* #4 Class #3 (super) */
		1, 0, 5, 'e', 'n', 't', 'e', 'r',       /* #5 */
		1, 0, 4, '(', 'I', ')', 'V',            /* #6 */
		0, 0x31, 0, 2, 0, 4,                    /* public final super, this #2, super #4 */
		0, 0, 0, 0,                             /* no interfaces, no fields */
		0, 1, 0x01, 0x09, 0, 5, 0, 6, 0, 0,     /* public static native #5 #6, no attributes */
		0, 0,                                   /* no class attributes */
	};
	uint8_t *got = NULL;
	size_t len = 0;
	assert_int_equal(classfile_probe_class(&got, &len), 0);
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(got, want, len);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_method),
		cmocka_unit_test(test_tables_shifted),
		cmocka_unit_test(test_first_frame_forms),
		cmocka_unit_test(test_frame_uninitialized_offsets),
		cmocka_unit_test(test_several_methods),
		cmocka_unit_test(test_none_selected),
		cmocka_unit_test(test_unsupported_in_unchosen_method),
		cmocka_unit_test(test_wide_constants_at_end),
		cmocka_unit_test(test_switch_verbatim),
		cmocka_unit_test(test_code_length_limit),
		cmocka_unit_test(test_constant_pool_limit),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_unknown_constant_tag),
		cmocka_unit_test(test_unsupported_code_attributes),
		cmocka_unit_test(test_malformed_code),
		cmocka_unit_test(test_wide_constant_in_last_slot),
		cmocka_unit_test(test_probe_class),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
