/* Unit tests of agent/classfile.c (and through it codeattr.c and the modules
 * below it): whole class files rewritten with the calls classfile.h
 * describes, compared byte for byte.
 *
 * Class files are built by a small byte builder below; every expected output
 * is built with the same builder from the rewritten method spelled out by
 * hand: its new code (offsets in the comments), its exception table, its
 * tables with their moved offsets, its StackMapTable, and the constants
 * classfile.c appends (put_probe_constants). */
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

/* A u2 operand or offset as two bytes in an array initializer. */
#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define U4(v) (uint8_t)((uint32_t)(v) >> 24), (uint8_t)((uint32_t)(v) >> 16), \
	      (uint8_t)((uint32_t)(v) >> 8), (uint8_t)(v)

/* ------------------------------------------------------------ class files */

/* The constant pool every test class starts with: one constant of every tag,
 * and what the test methods name. */
enum {
	C_CODE = 1,
	C_LNT,
	C_LVT,
	C_SMT,		/* 4 "StackMapTable" ("Unused" in a class without it) */
	C_THIS_NAME,
	C_THIS,		/* 6 Class T */
	C_OBJ_NAME,
	C_OBJ,		/* 8 Class java/lang/Object */
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
	C_MREF,		/* 30 Methodref T.m(I)V */
	C_FREF,
	C_IMREF,
	C_MH,
	C_MT,
	C_DYN,
	C_INDY,
	C_MODULE,
	C_PACKAGE,
	C_INIT,		/* 39 "<init>" */
	C_OBJ_INIT_NAT,	/* 40 NameAndType <init> ()V */
	C_OBJ_INIT,	/* 41 Methodref java/lang/Object.<init>()V */
	C_THIS_INIT_NAT, /* 42 NameAndType <init> (I)V */
	C_THIS_INIT,	/* 43 Methodref T.<init>(I)V */
	C_DESC_ALL,	/* 44 every kind of parameter */
	C_DESC_I,	/* 45 "()I" */
	C_DESC_J,
	C_DESC_F,
	C_DESC_D,
	C_DESC_A,	/* 49 "()Ljava/lang/Object;" */
	C_DESC_II,	/* 50 "(I)I" */
	C_DESC_IA,	/* 51 "(I)Ljava/lang/Object;" */
	C_BASE_COUNT	/* 52: the constant_pool_count without extra constants */
};

static void put_base_pool(struct bb *b, bool with_smt)
{
	cp_utf8(b, "Code");
	cp_utf8(b, "LineNumberTable");
	cp_utf8(b, "LocalVariableTable");
	cp_utf8(b, with_smt ? "StackMapTable" : "Unused");
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
	cp_utf8(b, "<init>");
	bb_u1(b, 12); bb_u2(b, C_INIT); bb_u2(b, C_DESC_V);
	bb_u1(b, 10); bb_u2(b, C_OBJ); bb_u2(b, C_OBJ_INIT_NAT);
	bb_u1(b, 12); bb_u2(b, C_INIT); bb_u2(b, C_DESC_IV);
	bb_u1(b, 10); bb_u2(b, C_THIS); bb_u2(b, C_THIS_INIT_NAT);
	cp_utf8(b, "(ZBCSIJFDLjava/lang/String;[I)V");
	cp_utf8(b, "()I");
	cp_utf8(b, "()J");
	cp_utf8(b, "()F");
	cp_utf8(b, "()D");
	cp_utf8(b, "()Ljava/lang/Object;");
	cp_utf8(b, "(I)I");
	cp_utf8(b, "(I)Ljava/lang/Object;");
}

/* The static natives of stapjava.Probe, written out here independently of
 * classfile_probe_methods (test_probe_methods_table compares the two). */
static const struct { const char *name, *desc; } probe_fns[CF_NPROBE] = {
	{ "enter", "(I)V" }, { "enterArgs", "(I)Z" }, { "argI", "(I)V" }, { "argJ", "(J)V" },
	{ "argF", "(F)V" }, { "argD", "(D)V" }, { "argL", "(Ljava/lang/Object;)V" },
	{ "entered", "(I)V" }, { "retV", "(I)V" }, { "retI", "(II)V" }, { "retJ", "(JI)V" },
	{ "retF", "(FI)V" }, { "retD", "(DI)V" }, { "retL", "(Ljava/lang/Object;I)V" },
	{ "thrown", "(Ljava/lang/Throwable;I)V" }, { "notify", "(Ljava/lang/Object;I)V" },
};

/* Where the appended constants land in a class whose pool is the base pool
 * (BASE = its count): Utf8 "stapjava/Probe" at BASE, its Class at BASE+1;
 * per function i: name, descriptor, NameAndType, Methodref at BASE+2+4i..+5+4i;
 * "java/lang/Throwable" and its Class at BASE+62, BASE+63; the sites'
 * Integers from BASE+64 ("StackMapTable" is in the base pool). */
enum {
	BASE = C_BASE_COUNT,
	PROBE = BASE + 1,
	M_ENTER = BASE + 5,
	M_ENTER_ARGS = BASE + 9,
	M_ARG_I = BASE + 13,
	M_ARG_J = BASE + 17,
	M_ARG_F = BASE + 21,
	M_ARG_D = BASE + 25,
	M_ARG_L = BASE + 29,
	M_ENTERED = BASE + 33,
	M_RET_V = BASE + 37,
	M_RET_I = BASE + 41,
	M_RET_J = BASE + 45,
	M_RET_F = BASE + 49,
	M_RET_D = BASE + 53,
	M_RET_L = BASE + 57,
	M_THROWN = BASE + 61,
	THROWABLE = BASE + 63,
	SITE0 = BASE + 64,	/* the first picked method's Integer */
	APPENDED = 64,		/* constants appended before the Integers */
};

/* Probe function I's name, type, NameAndType, Methodref at AT..AT+3. */
static void put_probe_ref(struct bb *b, uint32_t count, uint32_t at, uint32_t i)
{
	cp_utf8(b, probe_fns[i].name);			/* at */
	cp_utf8(b, probe_fns[i].desc);			/* at+1 */
	bb_u1(b, 12); bb_u2(b, at); bb_u2(b, at + 1);
	bb_u1(b, 10); bb_u2(b, count + 1); bb_u2(b, at + 2);
}

/* The appended constants for a pool of COUNT entries (see the enum above);
 * with NOTIFY, Probe.notify's four after them, before the Integers. */
static void put_probe_constants(struct bb *b, uint32_t count, bool smt_utf8, bool notify,
				const int32_t *sites, size_t n, bool exits)
{
	cp_utf8(b, "stapjava/Probe");			/* count */
	bb_u1(b, 7); bb_u2(b, count);			/* count+1: Class */
	for (uint32_t i = 0; i < CF_NFIXED; i++)
		put_probe_ref(b, count, count + 2 + 4 * i, i);
	cp_utf8(b, "java/lang/Throwable");		/* count+62 */
	bb_u1(b, 7); bb_u2(b, count + 62);		/* count+63 */
	if (smt_utf8)
		cp_utf8(b, "StackMapTable");		/* count+64 */
	if (notify)
		put_probe_ref(b, count, count + 64 + smt_utf8, CF_NOTIFY);
	for (size_t i = 0; i < n; i++) {
		bb_u1(b, 3);
		bb_u4(b, (uint32_t)sites[i]);
	}
	if (exits) {
		/* after the Integers: Probe.lost [[I, Probe.overflows I (FIELDS) */
		uint32_t at = count + APPENDED + smt_utf8 + 4u * notify + (uint32_t)n;
		cp_utf8(b, "lost");
		cp_utf8(b, "[[I");
		bb_u1(b, 12); bb_u2(b, at); bb_u2(b, at + 1);
		bb_u1(b, 9); bb_u2(b, count + 1); bb_u2(b, at + 2);
		cp_utf8(b, "overflows");
		cp_utf8(b, "I");
		bb_u1(b, 12); bb_u2(b, at + 4); bb_u2(b, at + 5);
		bb_u1(b, 9); bb_u2(b, count + 1); bb_u2(b, at + 6);
	}
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
	uint16_t smt_name;		/* its name, 0: C_SMT */
	bool smt_first;			/* the StackMapTable before the other attributes */
	uint16_t extra_attr;		/* another Code attribute with this name, 0: none */
	const uint8_t *extra;
	size_t extra_len;
};

#define CODE(a) .code = (a), .code_len = sizeof(a)
#define EX(a) .ex = (a), .nex = sizeof(a) / sizeof((a)[0])
#define FRAMES(a, n) .frames = (a), .frames_len = sizeof(a), .nframes = (n)

struct cls {
	uint16_t major;			/* 0: 52 */
	bool no_smt_utf8;		/* the base pool without "StackMapTable" */
	const uint8_t *cp_extra;	/* constants after the base pool, raw */
	size_t cp_extra_len;
	uint16_t cp_extra_slots;
	const struct method *methods;
	size_t nmethods;
	/* an expected output: the appended constants, with these sites */
	bool probe;
	bool notify;			/* with Probe.notify's constants */
	bool exits;			/* with Probe's fields' (a method picked for exit) */
	const int32_t *sites;
	size_t nsites;
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

static void put_frames(struct bb *b, const struct method *m)
{
	bb_u2(b, m->smt_name ? m->smt_name : C_SMT);
	size_t len = bb_len_begin(b);
	bb_u2(b, m->nframes);
	bb_bytes(b, m->frames, m->frames_len);
	bb_len_end(b, len);
}

/* The Code attribute's attributes: LineNumberTable, LocalVariableTable,
 * LocalVariableTypeTable, the extra one, StackMapTable (the order the
 * rewriter writes them in: StackMapTable last). */
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
	if (m->nframes && m->smt_first)
		put_frames(b, m);
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
	if (m->extra_attr) {
		bb_u2(b, m->extra_attr);
		bb_u4(b, (uint32_t)m->extra_len);
		bb_bytes(b, m->extra, m->extra_len);
	}
	if (m->nframes && !m->smt_first)
		put_frames(b, m);
	bb_len_end(b, code);
}

static void build_class(struct bb *b, const struct cls *c)
{
	uint32_t count = C_BASE_COUNT + c->cp_extra_slots;

	bb_u4(b, 0xCAFEBABE);
	bb_u2(b, 0);
	bb_u2(b, c->major ? c->major : 52);
	bb_u2(b, count + (c->probe ? APPENDED + c->no_smt_utf8 + 4u * c->notify + (uint32_t)c->nsites +
				     8u * c->exits : 0));
	put_base_pool(b, !c->no_smt_utf8);
	bb_bytes(b, c->cp_extra, c->cp_extra_len);
	if (c->probe)
		put_probe_constants(b, count, c->no_smt_utf8, c->notify, c->sites, c->nsites, c->exits);
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

/* ------------------------------------------------------------ the hooks */

#define MAX_CALLS 16

struct sel {
	const struct classfile_pick *picks;	/* in call order; past the end: not picked */
	size_t npicks;
	size_t calls;
	char name[MAX_CALLS][32];
	char desc[MAX_CALLS][48];
	uint16_t access[MAX_CALLS];
	size_t refused;
	bool lone_return[MAX_CALLS];
	char rname[MAX_CALLS][32];
	char rdesc[MAX_CALLS][48];
	char rwhy[MAX_CALLS][128];
};

static void copy_str(char *to, size_t cap, const char *s, size_t n)
{
	assert_true(n < cap);
	memcpy(to, s, n);
	to[n] = 0;
}

static void select_seq(void *ctx, const char *name, size_t name_len, const char *desc,
		       size_t desc_len, uint16_t access, struct classfile_pick *pick)
{
	struct sel *s = ctx;
	size_t i = s->calls++;

	/* the rewriter offers each method not picked */
	assert_true(pick->site < 0);
	assert_false(pick->enter);
	assert_false(pick->exit);
	if (i < MAX_CALLS) {
		copy_str(s->name[i], sizeof(s->name[i]), name, name_len);
		copy_str(s->desc[i], sizeof(s->desc[i]), desc, desc_len);
		s->access[i] = access;
		s->lone_return[i] = pick->lone_return;
	}
	if (i < s->npicks)
		*pick = s->picks[i];
}

static void refused_rec(void *ctx, const char *name, size_t name_len, const char *desc,
			size_t desc_len, const char *why)
{
	struct sel *s = ctx;
	size_t i = s->refused++;

	assert_non_null(why);
	assert_true(why[0] != 0);
	if (i < MAX_CALLS) {
		copy_str(s->rname[i], sizeof(s->rname[i]), name, name_len);
		copy_str(s->rdesc[i], sizeof(s->rdesc[i]), desc, desc_len);
		snprintf(s->rwhy[i], sizeof(s->rwhy[i]), "%s", why);
	}
}

static int inject(const uint8_t *in, size_t len, struct sel *s, uint8_t **out, size_t *out_len,
		  const char **why)
{
	const struct classfile_hooks h = { s, select_seq, refused_rec, NULL, NULL };
	return classfile_inject(in, len, &h, out, out_len, why);
}

/* Picks every method, enter and exit, sites 0, 1, ... */
static void select_all(void *ctx, const char *name, size_t name_len, const char *desc,
		       size_t desc_len, uint16_t access, struct classfile_pick *pick)
{
	int *calls = ctx;
	(void)name; (void)name_len; (void)desc; (void)desc_len; (void)access;
	*pick = (struct classfile_pick){ .site = (*calls)++, .enter = true, .exit = true };
}

static void select_none(void *ctx, const char *name, size_t name_len, const char *desc,
			size_t desc_len, uint16_t access, struct classfile_pick *pick)
{
	int *calls = ctx;
	(void)name; (void)name_len; (void)desc; (void)desc_len; (void)access; (void)pick;
	(*calls)++;
}

static void refused_count(void *ctx, const char *name, size_t name_len, const char *desc,
			  size_t desc_len, const char *why)
{
	(void)ctx; (void)name; (void)name_len; (void)desc; (void)desc_len;
	assert_true(why && why[0]);
}

/* What the test is at, named when the output differs. */
static const char *g_case = "";

static void compare(const uint8_t *out, size_t out_len, const struct bb *expect)
{
	if (out_len != expect->n || memcmp(out, expect->p, out_len) != 0) {
		size_t i = 0;
		while (i < out_len && i < expect->n && out[i] == expect->p[i])
			i++;
		print_error("%soutput differs at byte %zu (lengths %zu, expected %zu)\n", g_case, i,
			    out_len, expect->n);
		for (size_t k = i > 8 ? i - 8 : 0; k < i + 24 && (k < out_len || k < expect->n); k++)
			print_error("  %5zu: got %02x want %02x%s\n", k, k < out_len ? out[k] : 0xff,
				    k < expect->n ? expect->p[k] : 0xff, k == i ? "  <--" : "");
	}
	assert_int_equal(out_len, expect->n);
	assert_memory_equal(out, expect->p, out_len);
}

/* Rewrites IN with SEL; expects RET (> 0) and output EXPECT. */
static void expect_rewrite(const struct bb *in, struct sel *sel, int ret, const struct bb *expect)
{
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = "unset";
	int r = inject(in->p, in->n, sel, &out, &out_len, &why);
	if (r != ret)
		print_error("%sreturned %d (%s), expected %d\n", g_case, r, why ? why : "no reason",
			    ret);
	assert_int_equal(r, ret);
	assert_null(why);
	assert_non_null(out);
	compare(out, out_len, expect);
	/* the output is a class file the rewriter reads again */
	int calls = 0;
	const struct classfile_hooks none = { &calls, select_none, refused_count, NULL, NULL };
	uint8_t sentinel, *out2 = &sentinel;
	size_t len2 = 0;
	assert_int_equal(classfile_inject(out, out_len, &none, &out2, &len2, &why), 0);
	assert_ptr_equal(out2, &sentinel);
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
	const struct classfile_hooks h = { &calls, select_all, refused_count, NULL, NULL };
	int r = classfile_inject(in, len, &h, &out, &out_len, &why);
	assert_int_equal(r, err);
	assert_non_null(why);
	assert_true(why[0] != 0);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 12345);
}

/* The methods IN alone in a class, picked as PICKS say: the output must be
 * the class with the methods EXPECTED and the constants for SITES appended.
 * *SEEN, when given, gets what the hooks were shown. */
static void expect_class(const struct cls *in_cls, const struct method *expected,
			 const struct classfile_pick *picks, size_t npicks, const int32_t *sites,
			 size_t nsites, int ret, struct sel *seen)
{
	struct cls ec = *in_cls;
	struct bb in = { 0 }, exp = { 0 };
	ec.methods = expected;
	ec.probe = true;
	ec.sites = sites;
	ec.nsites = nsites;
	for (size_t i = 0; i < npicks; i++)
		ec.exits |= picks[i].site >= 0 && picks[i].exit;
	build_class(&in, in_cls);
	build_class(&exp, &ec);
	struct sel s = { .picks = picks, .npicks = npicks };
	expect_rewrite(&in, &s, ret, &exp);
	if (seen)
		*seen = s;
	bb_free(&in);
	bb_free(&exp);
}

/* M alone in a class, picked as PICK says: the output is the class with EM. */
static void expect_one(const struct method *m, const struct method *em, struct classfile_pick pick)
{
	const struct cls c = { .methods = m, .nmethods = 1 };
	struct sel s;
	expect_class(&c, em, &pick, 1, &pick.site, 1, 1, &s);
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.refused, 0);
}

#define ENTER(s) ((struct classfile_pick){ .site = (s), .enter = true })
#define EXIT(s) ((struct classfile_pick){ .site = (s), .exit = true })
#define BOTH(s) ((struct classfile_pick){ .site = (s), .enter = true, .exit = true })

/* The handler appended after the body (32 bytes): the catch-all (SITE the
 * site's Integer), then from 8 the count of a report that found no stack,
 * Probe.lost[ID / 4096][ID % 4096]++ and Probe.overflows++ (ID the site's
 * value; FIELDS the first of Probe's field constants, after the Integers). */
#define COUNT_CODE(id, fields) \
	0xb2, U2((fields) + 3), 0x11, U2((id) / 4096), 0x32, 0x11, U2((id) % 4096), 0x5c, 0x2e, 0x04, \
	0x60, 0x4f, 0xb2, U2((fields) + 7), 0x04, 0x60, 0xb3, U2((fields) + 7), 0xbf
#define HANDLER_AT(site, id, fields) 0x59, 0x13, U2(site), 0xb8, U2(M_THROWN), 0xbf, \
	COUNT_CODE(id, fields)
/* the usual class: the base pool, one Integer */
#define HANDLER(site, id) HANDLER_AT(site, id, SITE0 + 1)
/* Its entry over the call of thrown, for a copy at H. */
#define COUNT_ENTRY(h) { (h) + 4, (h) + 7, (h) + 8, 0 }
/* Its two frames, the catch-all's DELTA after the frame before. */
#define HANDLER_FRAME(delta) 255, U2(delta), 0, 0, 0, 1, 7, U2(THROWABLE), \
	255, U2(7), 0, 0, 0, 1, 7, U2(THROWABLE)
/* A constructor's second copy, for code before super(): locals [uninitializedThis]. */
#define PRE_HANDLER_FRAME(delta) 255, U2(delta), 0, 1, 6, 0, 1, 7, U2(THROWABLE), \
	255, U2(7), 0, 1, 6, 0, 1, 7, U2(THROWABLE)

/* ------------------------------------------------------------ enter */

/* `Probe.enter(site)` in front of a method without parameters, static and
 * instance: 6 bytes, no frame needed (nothing branches), max_stack 2. */
static void test_enter_no_params(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0xb1 };		/* 0: return */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0),		/* 0: ldc_w site */
		0xb8, U2(M_ENTER),		/* 3: invokestatic enter */
		0xb1,				/* 6: return (was 0) */
	};
	for (int inst = 0; inst <= 1; inst++) {
		const struct method m = { .access = inst ? 0x0001 : 0x0009, .name = C_M,
					  .desc = C_DESC_V, .has_code = true, .max_stack = 0,
					  .max_locals = (uint16_t)inst, CODE(code) };
		struct method em = m;
		em.code = ecode;
		em.code_len = sizeof(ecode);
		em.max_stack = 2;
		const struct cls c = { .methods = &m, .nmethods = 1 };
		const struct classfile_pick pick = ENTER(1234);
		struct sel s;
		expect_class(&c, &em, &pick, 1, &pick.site, 1, 1, &s);
		assert_int_equal(s.calls, 1);
		assert_string_equal(s.name[0], "m");
		assert_string_equal(s.desc[0], "()V");
		assert_int_equal(s.access[0], inst ? 0x0001 : 0x0009);
	}
	/* a larger max_stack stays */
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 7, .max_locals = 0, CODE(code) };
	struct method em = m;
	em.code = ecode;
	em.code_len = sizeof(ecode);
	expect_one(&m, &em, ENTER(5));
}

/* The prologue for every kind of parameter, instance then static:
 * ldc_w site; invokestatic enterArgs; ifeq END; per parameter xload slot and
 * argX; ldc_w site; invokestatic entered; END. The ifeq needs a frame at END
 * (a same_frame, 65 > 63: same_frame_extended). */
static void test_enter_every_parameter_kind(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0xb1 };
	/* (ZBCSIJFDLjava/lang/String;[I)V, instance: this is slot 0 */
	static const uint8_t ecode_inst[] = {
		0x13, U2(SITE0),		/*  0: ldc_w site */
		0xb8, U2(M_ENTER_ARGS),		/*  3: invokestatic enterArgs */
		0x99, U2(59),			/*  6: ifeq +59 (-> 65 END) */
		0x15, 1, 0xb8, U2(M_ARG_I),	/*  9: iload 1 (Z); argI */
		0x15, 2, 0xb8, U2(M_ARG_I),	/* 14: iload 2 (B); argI */
		0x15, 3, 0xb8, U2(M_ARG_I),	/* 19: iload 3 (C); argI */
		0x15, 4, 0xb8, U2(M_ARG_I),	/* 24: iload 4 (S); argI */
		0x15, 5, 0xb8, U2(M_ARG_I),	/* 29: iload 5 (I); argI */
		0x16, 6, 0xb8, U2(M_ARG_J),	/* 34: lload 6 (J, 2 slots); argJ */
		0x17, 8, 0xb8, U2(M_ARG_F),	/* 39: fload 8 (F); argF */
		0x18, 9, 0xb8, U2(M_ARG_D),	/* 44: dload 9 (D, 2 slots); argD */
		0x19, 11, 0xb8, U2(M_ARG_L),	/* 49: aload 11 (String); argL */
		0x19, 12, 0xb8, U2(M_ARG_L),	/* 54: aload 12 ([I); argL */
		0x13, U2(SITE0),		/* 59: ldc_w site */
		0xb8, U2(M_ENTERED),		/* 62: invokestatic entered */
		0xb1,				/* 65: END: return (was 0) */
	};
	/* the same, static: the parameters start at slot 0 */
	static const uint8_t ecode_static[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS), 0x99, U2(59),
		0x15, 0, 0xb8, U2(M_ARG_I),
		0x15, 1, 0xb8, U2(M_ARG_I),
		0x15, 2, 0xb8, U2(M_ARG_I),
		0x15, 3, 0xb8, U2(M_ARG_I),
		0x15, 4, 0xb8, U2(M_ARG_I),
		0x16, 5, 0xb8, U2(M_ARG_J),
		0x17, 7, 0xb8, U2(M_ARG_F),
		0x18, 8, 0xb8, U2(M_ARG_D),
		0x19, 10, 0xb8, U2(M_ARG_L),
		0x19, 11, 0xb8, U2(M_ARG_L),
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),
		0xb1,
	};
	static const uint8_t eframes[] = { 251, U2(65) };	/* same_frame_extended at 65 */
	for (int inst = 0; inst <= 1; inst++) {
		const struct method m = { .access = inst ? 0x0001 : 0x0009, .name = C_M,
					  .desc = C_DESC_ALL, .has_code = true, .max_stack = 0,
					  .max_locals = inst ? 13 : 12, CODE(code) };
		struct method em = m;
		em.code = inst ? ecode_inst : ecode_static;
		em.code_len = inst ? sizeof(ecode_inst) : sizeof(ecode_static);
		em.max_stack = 2;	/* the long/double argument, or site and answer */
		em.frames = eframes;
		em.frames_len = sizeof(eframes);
		em.nframes = 1;
		g_case = inst ? "instance: " : "static: ";
		expect_one(&m, &em, ENTER(3));
		g_case = "";
	}
}

/* One int parameter: the prologue is 20 bytes, the same_frame at 20 short. */
static void test_enter_one_parameter(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0x1a, 0xac };		/* 0: iload_0  1: ireturn */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0),		/*  0: ldc_w site */
		0xb8, U2(M_ENTER_ARGS),		/*  3: invokestatic enterArgs */
		0x99, U2(14),			/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),	/*  9: iload 0; argI */
		0x13, U2(SITE0),		/* 14: ldc_w site */
		0xb8, U2(M_ENTERED),		/* 17: invokestatic entered */
		0x1a, 0xac,			/* 20: END: iload_0 ireturn (were 0, 1) */
	};
	static const uint8_t eframes[] = { 20 };		/* same_frame at 20 */
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_II, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code) };
	struct method em = m;
	em.code = ecode;
	em.code_len = sizeof(ecode);
	em.max_stack = 2;
	em.frames = eframes;
	em.frames_len = 1;
	em.nframes = 1;
	expect_one(&m, &em, ENTER(0));
}

/* A loop back to offset 0 with a frame there: the branch lands after the
 * prologue (the prologue runs once), and the frame at 0 moves to END where
 * the ifeq needs one: no frame is added. */
static void test_enter_loop_at_zero(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x84, 0, 0xff,			/* 0: iinc 0,-1 */
		0x1a,				/* 3: iload_0 */
		0x9d, U2(-4),			/* 4: ifgt -4 (-> 0) */
		0xb1,				/* 7: return */
	};
	static const uint8_t frames[] = { 0 };			/* same_frame at 0 */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0: prologue */
		0x99, U2(14),			/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),	/*  9 */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),	/* 14 */
		0x84, 0, 0xff,			/* 20: iinc (was 0) */
		0x1a,				/* 23: iload_0 (was 3) */
		0x9d, U2(-4),			/* 24: ifgt -4 (-> 20, after the prologue) */
		0xb1,				/* 27: return */
	};
	static const uint8_t eframes[] = { 20 };		/* the frame at 0, now at 20 */
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code), FRAMES(frames, 1) };
	struct method em = m;
	em.code = ecode;
	em.code_len = sizeof(ecode);
	em.max_stack = 2;
	em.frames = eframes;
	expect_one(&m, &em, ENTER(0));

	/* without parameters: the 6-byte prologue, the frame moves to 6 */
	static const uint8_t loop[] = { 0xa7, U2(0) };		/* 0: goto +0 (-> 0) */
	static const uint8_t eloop[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/* 0: ldc_w site; invokestatic enter */
		0xa7, U2(0),			/* 6: goto +0 (-> 6, not into the prologue) */
	};
	static const uint8_t eframes6[] = { 6 };
	const struct method m2 = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 0, .max_locals = 0, CODE(loop), FRAMES(frames, 1) };
	struct method em2 = m2;
	em2.code = eloop;
	em2.code_len = sizeof(eloop);
	em2.max_stack = 2;
	em2.frames = eframes6;
	expect_one(&m2, &em2, ENTER(0));
}

/* ------------------------------------------------------------ lines */

/* The lines SELECT_LINES was shown, and the sites it gives (line, site). */
static struct {
	uint32_t seen[8];
	size_t nseen;
	const int32_t (*give)[2];
	size_t ngive;
} g_lines;

static void lines_give(void *ctx, const char *name, size_t name_len, const char *desc, size_t desc_len,
		       uint16_t access, const uint32_t *lines, size_t n, int32_t *sites)
{
	(void)ctx; (void)name; (void)name_len; (void)desc; (void)desc_len; (void)access;
	for (size_t k = 0; k < n; k++) {
		assert_int_equal(sites[k], -1);
		if (g_lines.nseen < 8)
			g_lines.seen[g_lines.nseen++] = lines[k];
		for (size_t g = 0; g < g_lines.ngive; g++)
			if (g_lines.give[g][0] == (int32_t)lines[k])
				sites[k] = g_lines.give[g][1];
	}
}

/* M alone in a class, picked as PICKS say, its lines given sites as GIVE
 * says: the output is the class with EM and the Integers SITES appended. */
static void expect_lines(const struct method *m, const struct method *em, const struct classfile_pick *picks,
			 size_t npicks, const int32_t (*give)[2], size_t ngive, const int32_t *sites, size_t nsites)
{
	const struct cls c = { .methods = m, .nmethods = 1 };
	struct cls ec = c;
	struct bb in = { 0 }, exp = { 0 };
	ec.methods = em;
	ec.probe = true;
	ec.sites = sites;
	ec.nsites = nsites;
	build_class(&in, &c);
	build_class(&exp, &ec);
	memset(&g_lines, 0, sizeof g_lines);
	g_lines.give = give;
	g_lines.ngive = ngive;
	struct sel sel = { .picks = picks, .npicks = npicks };
	const struct classfile_hooks h = { &sel, select_seq, refused_rec, lines_give, NULL };
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = "unset";
	assert_int_equal(classfile_inject(in.p, in.n, &h, &out, &out_len, &why), 1);
	assert_null(why);
	compare(out, out_len, &exp);
	free(out);
	bb_free(&in);
	bb_free(&exp);
}

/* A line's call, `ldc_w site; invokestatic enter`, in front of its first
 * instruction, labelled: a line at a loop's branch target (11) runs it on
 * every turn, as the branch lands on the call; a line after the loop (12)
 * too. Line 10, with two entries, is shown once; not picked, it gets no
 * call. The method itself is not picked: only the lines' Integers. */
static void test_lines(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xa7, U2(6),			/*  0: goto +6 (-> 6)	line 10 */
		0x84, 0, 0xff,			/*  3: iinc 0,-1	line 11 */
		0x1a,				/*  6: iload_0		line 10 */
		0x9d, U2(-4),			/*  7: ifgt -4 (-> 3) */
		0xb1,				/* 10: return		line 12 */
	};
	static const struct line lines[] = { { 0, 10 }, { 3, 11 }, { 6, 10 }, { 10, 12 } };
	static const uint8_t frames[] = { 3, 2 };		/* same_frame at 3, at 6 */
	static const uint8_t ecode[] = {
		0xa7, U2(12),			/*  0: goto +12 (-> 12, was 6) */
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  3: line 11's call */
		0x84, 0, 0xff,			/*  9: iinc (was 3) */
		0x1a,				/* 12: iload_0 (was 6) */
		0x9d, U2(-10),			/* 13: ifgt -10 (-> 3: the call) */
		0x13, U2(SITE0 + 1), 0xb8, U2(M_ENTER),	/* 16: line 12's call */
		0xb1,				/* 22: return */
	};
	static const struct line elines[] = { { 0, 10 }, { 3, 11 }, { 12, 10 }, { 16, 12 } };
	static const uint8_t eframes[] = { 3, 8 };		/* at 3 (the call), at 12 */
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code), FRAMES(frames, 2),
				  .lines = lines, .nlines = 4 };
	struct method em = m;
	em.code = ecode;
	em.code_len = sizeof(ecode);
	em.max_stack = 2;
	em.lines = elines;
	em.frames = eframes;
	static const int32_t give[][2] = { { 11, 7 }, { 12, 8 } };
	static const int32_t sites[] = { 7, 8 };
	expect_lines(&m, &em, NULL, 0, give, 2, sites, 2);
	assert_int_equal(g_lines.nseen, 3);
	assert_int_equal(g_lines.seen[0], 10);
	assert_int_equal(g_lines.seen[1], 11);
	assert_int_equal(g_lines.seen[2], 12);

	/* with the method's own prologue at 0, a line at 0 (a loop's target)
	 * goes after it: the loop reruns the line's call, never the prologue */
	static const uint8_t loop[] = { 0xa7, U2(0) };		/* 0: goto +0 (-> 0)	line 5 */
	static const struct line lines5[] = { { 0, 5 } };
	static const uint8_t f0[] = { 0 };
	static const uint8_t eloop[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  0: the method's enter */
		0x13, U2(SITE0 + 1), 0xb8, U2(M_ENTER),	/*  6: line 5's call */
		0xa7, U2(-6),			/* 12: goto -6 (-> 6: the line's call) */
	};
	static const struct line elines5[] = { { 0, 5 } };	/* a line at 0 keeps 0: the prologue has the first line */
	static const uint8_t ef6[] = { 6 };
	const struct method m2 = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 0, .max_locals = 0, CODE(loop), FRAMES(f0, 1),
				   .lines = lines5, .nlines = 1 };
	struct method em2 = m2;
	em2.code = eloop;
	em2.code_len = sizeof(eloop);
	em2.max_stack = 2;
	em2.lines = elines5;
	em2.frames = ef6;
	static const int32_t give5[][2] = { { 5, 4 } };
	static const int32_t sites2[] = { 3, 4 };
	static const struct classfile_pick pick = { .site = 3, .enter = true };
	expect_lines(&m2, &em2, &pick, 1, give5, 1, sites2, 2);
}

/* ------------------------------------------------------------ notify */

/* Constants after the base pool for the notify tests: notify()V by a
 * Methodref of T, notifyAll()V by an InterfaceMethodref (the class a
 * reference names does not matter), and notify(I)V, which is not
 * Object's. */
enum {
	N_NOTIFY = C_BASE_COUNT,	/* 52 "notify" */
	N_NOTIFY_NAT,			/* 53 NameAndType notify ()V */
	N_NOTIFY_REF,			/* 54 Methodref T.notify()V */
	N_ALL,				/* 55 "notifyAll" */
	N_ALL_NAT,			/* 56 NameAndType notifyAll ()V */
	N_ALL_REF,			/* 57 InterfaceMethodref T.notifyAll()V */
	N_OTHER_NAT,			/* 58 NameAndType notify (I)V */
	N_OTHER_REF,			/* 59 Methodref T.notify(I)V */
	N_COUNT,			/* 60 */
	N_M_NOTIFY = N_COUNT + 64 + 3,	/* Probe.notify's Methodref */
	N_SITE0 = N_COUNT + 68,		/* the first Integer */
};

static const uint8_t notify_pool[] = {
	1, U2(6), 'n', 'o', 't', 'i', 'f', 'y',
	12, U2(N_NOTIFY), U2(C_DESC_V),
	10, U2(C_THIS), U2(N_NOTIFY_NAT),
	1, U2(9), 'n', 'o', 't', 'i', 'f', 'y', 'A', 'l', 'l',
	12, U2(N_ALL), U2(C_DESC_V),
	11, U2(C_THIS), U2(N_ALL_NAT),
	12, U2(N_NOTIFY), U2(C_DESC_IV),
	10, U2(C_THIS), U2(N_OTHER_NAT),
};

/* The kinds SELECT_NOTIFY was asked about (bit 0 notify, 1 notifyAll, in
 * the order asked: seq), and the sites it gives (-1: none). */
static struct {
	unsigned asked, seq;
	int32_t give[2];
} g_notify;

static int32_t notify_give(void *ctx, bool all)
{
	(void)ctx;
	g_notify.seq = g_notify.seq * 4 + 1u + all;
	g_notify.asked |= 1u << all;
	return g_notify.give[all];
}

/* METHODS in a class with notify_pool, the notify sites GIVE: RET and,
 * when RET > 0, the class with EXPECTED and the Integers SITES. */
static void expect_notify(const struct method *methods, const struct method *expected, size_t n,
			  const int32_t give[2], int ret, const int32_t *sites, size_t nsites)
{
	const struct cls c = { .cp_extra = notify_pool, .cp_extra_len = sizeof notify_pool,
			       .cp_extra_slots = N_COUNT - C_BASE_COUNT, .methods = methods, .nmethods = n };
	struct cls ec = c;
	struct bb in = { 0 }, exp = { 0 };
	ec.methods = expected;
	ec.probe = ec.notify = true;
	ec.sites = sites;
	ec.nsites = nsites;
	build_class(&in, &c);
	build_class(&exp, &ec);
	memset(&g_notify, 0, sizeof g_notify);
	g_notify.give[0] = give[0];
	g_notify.give[1] = give[1];
	struct sel sel = { 0 };
	struct classfile_hooks h = { &sel, select_seq, refused_rec, NULL, NULL };
	h.select_notify = notify_give;
	uint8_t sentinel, *out = &sentinel;
	size_t out_len = 0;
	const char *why = "unset";
	assert_int_equal(classfile_inject(in.p, in.n, &h, &out, &out_len, &why), ret);
	assert_null(why);
	assert_int_equal(sel.refused, 0);
	if (ret > 0) {
		compare(out, out_len, &exp);
		free(out);
	} else {
		assert_ptr_equal(out, &sentinel);
	}
	bb_free(&in);
	bb_free(&exp);
}

/* In front of each invocation of notify()V / notifyAll()V, whichever class
 * its reference names and by invokevirtual or invokeinterface: `dup;
 * ldc_w site; invokestatic Probe.notify`, labelled. A branch over a call
 * site (1) moves with it; a branch to the invocation itself (2, the
 * receiver on the stack) lands on the call, and its frame
 * (same_locals_1_stack_item [T]) stays there. notify(I)V gets nothing;
 * max_stack grows by 2 (the receiver's dup and the site). The methods are
 * not picked: only the notify sites' Integers, notify's first. */
static void test_notify_call_sites(void **state)
{
	(void)state;
	static const uint8_t code1[] = {
		0x2a,				/*  0: aload_0 */
		0xc6, U2(7),			/*  1: ifnull +7 (-> 8) */
		0x2a,				/*  4: aload_0 */
		0xb6, U2(N_NOTIFY_REF),		/*  5: invokevirtual T.notify()V */
		0x2a,				/*  8: aload_0 */
		0xb9, U2(N_ALL_REF), 1, 0,	/*  9: invokeinterface T.notifyAll()V */
		0x2a, 0x04,			/* 14: aload_0; iconst_1 */
		0xb6, U2(N_OTHER_REF),		/* 16: invokevirtual T.notify(I)V */
		0xb1,				/* 19: return */
	};
	static const uint8_t frames1[] = { 8 };			/* same_frame at 8 */
	static const uint8_t ecode1[] = {
		0x2a,				/*  0: aload_0 */
		0xc6, U2(14),			/*  1: ifnull +14 (-> 15) */
		0x2a,				/*  4: aload_0 */
		0x59, 0x13, U2(N_SITE0), 0xb8, U2(N_M_NOTIFY),	/*  5: notify's call */
		0xb6, U2(N_NOTIFY_REF),		/* 12: invokevirtual T.notify()V */
		0x2a,				/* 15: aload_0 */
		0x59, 0x13, U2(N_SITE0 + 1), 0xb8, U2(N_M_NOTIFY),	/* 16: notifyAll's call */
		0xb9, U2(N_ALL_REF), 1, 0,	/* 23: invokeinterface */
		0x2a, 0x04,			/* 28: aload_0; iconst_1 */
		0xb6, U2(N_OTHER_REF),		/* 30: invokevirtual T.notify(I)V */
		0xb1,				/* 33: return */
	};
	static const uint8_t eframes1[] = { 15 };		/* same_frame at 15 */
	static const struct line lines1[] = { { 0, 3 }, { 8, 4 }, { 19, 5 } };
	static const struct line elines1[] = { { 0, 3 }, { 15, 4 }, { 33, 5 } };
	static const uint8_t code2[] = {
		0x2a, 0x2a,			/*  0: aload_0; aload_0 */
		0xc7, U2(3),			/*  2: ifnonnull +3 (-> 5, [T] on the stack) */
		0xb6, U2(N_NOTIFY_REF),		/*  5: invokevirtual T.notify()V */
		0xb1,				/*  8: return */
	};
	static const uint8_t frames2[] = { 64 + 5, 7, U2(C_THIS) };
	static const uint8_t ecode2[] = {
		0x2a, 0x2a,			/*  0: aload_0; aload_0 */
		0xc7, U2(3),			/*  2: ifnonnull +3 (-> 5: the call) */
		0x59, 0x13, U2(N_SITE0), 0xb8, U2(N_M_NOTIFY),	/*  5: notify's call */
		0xb6, U2(N_NOTIFY_REF),		/* 12: invokevirtual T.notify()V */
		0xb1,				/* 15: return */
	};
	const struct method m[] = {
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 2,
		  .max_locals = 1, CODE(code1), FRAMES(frames1, 1), .lines = lines1, .nlines = 3 },
		{ .access = 0x0001, .name = C_ABS, .desc = C_DESC_V, .has_code = true, .max_stack = 2,
		  .max_locals = 1, CODE(code2), FRAMES(frames2, 1) },
	};
	struct method em[2] = { m[0], m[1] };
	em[0].code = ecode1;
	em[0].code_len = sizeof ecode1;
	em[0].frames = eframes1;
	em[0].lines = elines1;
	em[0].max_stack = 4;
	em[1].code = ecode2;
	em[1].code_len = sizeof ecode2;
	em[1].max_stack = 4;
	static const int32_t give[2] = { 7, 9 }, sites[] = { 7, 9 };
	expect_notify(m, em, 2, give, 2, sites, 2);
	assert_int_equal(g_notify.seq, 1u * 4 + 2);		/* notify, then notifyAll */

	/* only notifyAll given a site: the notify calls stay as they were, the
	 * method without notifyAll is not rewritten */
	static const uint8_t ecode1b[] = {
		0x2a, 0xc6, U2(7), 0x2a,	/*  0: as before */
		0xb6, U2(N_NOTIFY_REF),		/*  5: invokevirtual T.notify()V */
		0x2a,				/*  8: aload_0 */
		0x59, 0x13, U2(N_SITE0), 0xb8, U2(N_M_NOTIFY),	/*  9: notifyAll's call */
		0xb9, U2(N_ALL_REF), 1, 0,	/* 16: invokeinterface */
		0x2a, 0x04, 0xb6, U2(N_OTHER_REF), 0xb1,	/* 21 */
	};
	static const struct line elines1b[] = { { 0, 3 }, { 8, 4 }, { 26, 5 } };
	em[0].code = ecode1b;
	em[0].code_len = sizeof ecode1b;
	em[0].frames = frames1;
	em[0].lines = elines1b;
	em[1] = m[1];
	static const int32_t give_all[2] = { -1, 9 }, sites_all[] = { 9 };
	expect_notify(m, em, 2, give_all, 1, sites_all, 1);

	/* no site for either: nothing changes */
	static const int32_t give_none[2] = { -1, -1 };
	expect_notify(m, m, 2, give_none, 0, NULL, 0);
	assert_int_equal(g_notify.asked, 3);

	/* a pool that names them, code that never calls them: not asked */
	static const uint8_t plain[] = { 0xb1 };
	const struct method p = { .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 0, .max_locals = 1, CODE(plain) };
	expect_notify(&p, &p, 1, give, 0, NULL, 0);
	assert_int_equal(g_notify.asked, 0);
}

/* ------------------------------------------------------------ exit */

/* Each return opcode gets the value duplicated (dup, dup2 for long and
 * double, nothing for void), the site and its retX in front; the handler
 * `dup; ldc_w site; invokestatic thrown; athrow` goes after the body, with a
 * catch-all entry over the body and a full_frame (no locals, stack
 * [Throwable]); max_stack grows by 3. Several methods in one class: the
 * sites' Integers in method order; a method without code is not offered,
 * one SELECT does not pick is left as it is. */
static void test_exit_each_return(void **state)
{
	(void)state;
	static const uint8_t c_i[] = { 0x04, 0xac };		/* iconst_1 ireturn */
	static const uint8_t c_j[] = { 0x0a, 0xad };		/* lconst_1 lreturn */
	static const uint8_t c_f[] = { 0x0c, 0xae };		/* fconst_1 freturn */
	static const uint8_t c_d[] = { 0x0f, 0xaf };		/* dconst_1 dreturn */
	static const uint8_t c_a[] = { 0x01, 0xb0 };		/* aconst_null areturn */
	static const uint8_t c_v[] = { 0xb1 };			/* return */
	/* 0: the value  1: dup  2: ldc_w site  5: invokestatic retX  8: xreturn
	 * 9: the handler (to 17); catch-all [0, 9) -> 9 */
	/* Probe's fields after the six Integers; the largest site a lost count
	 * has, row 1023 column 4095; 65536, row 16 column 0 */
	enum { F = SITE0 + 6, TOP = 4096 * 1024 - 1 };
	static const uint8_t e_i[] = { 0x04, 0x59, 0x13, U2(SITE0 + 0), 0xb8, U2(M_RET_I), 0xac,
				       HANDLER_AT(SITE0 + 0, 100, F) };
	static const uint8_t e_j[] = { 0x0a, 0x5c, 0x13, U2(SITE0 + 1), 0xb8, U2(M_RET_J), 0xad,
				       HANDLER_AT(SITE0 + 1, 101, F) };
	static const uint8_t e_f[] = { 0x0c, 0x59, 0x13, U2(SITE0 + 2), 0xb8, U2(M_RET_F), 0xae,
				       HANDLER_AT(SITE0 + 2, TOP, F) };
	static const uint8_t e_d[] = { 0x0f, 0x5c, 0x13, U2(SITE0 + 3), 0xb8, U2(M_RET_D), 0xaf,
				       HANDLER_AT(SITE0 + 3, 65536, F) };
	static const uint8_t e_a[] = { 0x01, 0x59, 0x13, U2(SITE0 + 4), 0xb8, U2(M_RET_L), 0xb0,
				       HANDLER_AT(SITE0 + 4, 0, F) };
	/* 0: ldc_w site  3: invokestatic retV  6: return  7: the handler (to 39) */
	static const uint8_t e_v[] = { 0x13, U2(SITE0 + 5), 0xb8, U2(M_RET_V), 0xb1,
				       HANDLER_AT(SITE0 + 5, 7, F) };
	static const struct xentry ex9[] = { { 0, 9, 9, 0 }, COUNT_ENTRY(9) };
	static const struct xentry ex7[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t fr9[] = { HANDLER_FRAME(9) };
	static const uint8_t fr7[] = { HANDLER_FRAME(7) };
	const struct method ms[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_I, .has_code = true, .max_stack = 1, CODE(c_i) },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_J, .has_code = true, .max_stack = 2, CODE(c_j) },
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V },			/* abstract */
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_F, .has_code = true, .max_stack = 1, CODE(c_f) },
		{ .access = 0x0109, .name = C_N, .desc = C_DESC_V, .pre_attr = true },	/* native */
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_D, .has_code = true, .max_stack = 2, CODE(c_d) },
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true, .max_stack = 0,
		  .max_locals = 1, CODE(c_v) },						/* not picked */
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_A, .has_code = true, .max_stack = 1, CODE(c_a) },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 0,
		  .pre_attr = true, CODE(c_v) },
	};
	const struct method ems[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_I, .has_code = true, .max_stack = 5,
		  CODE(e_i), EX(ex9), FRAMES(fr9, 2) },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_J, .has_code = true, .max_stack = 5,
		  CODE(e_j), EX(ex9), FRAMES(fr9, 2) },
		ms[2],
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_F, .has_code = true, .max_stack = 5,
		  CODE(e_f), EX(ex9), FRAMES(fr9, 2) },
		ms[4],
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_D, .has_code = true, .max_stack = 5,
		  CODE(e_d), EX(ex9), FRAMES(fr9, 2) },
		ms[6],
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_A, .has_code = true, .max_stack = 5,
		  CODE(e_a), EX(ex9), FRAMES(fr9, 2) },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 5,
		  .pre_attr = true, CODE(e_v), EX(ex7), FRAMES(fr7, 2) },
	};
	/* SELECT sees the 7 methods with code; the 5th says a site but neither
	 * enter nor exit: not picked, no Integer */
	static const struct classfile_pick picks[] = {
		EXIT(100), EXIT(101), EXIT(TOP), EXIT(65536),
		{ .site = 99 }, EXIT(0), EXIT(7),
	};
	static const int32_t sites[] = { 100, 101, TOP, 65536, 0, 7 };
	const struct cls c = { .methods = ms, .nmethods = 9 };
	struct sel s;
	expect_class(&c, ems, picks, 7, sites, 6, 6, &s);
	assert_int_equal(s.calls, 7);
	assert_int_equal(s.refused, 0);
	static const char *const descs[] = { "()I", "()J", "()F", "()D", "()V", "()Ljava/lang/Object;", "()V" };
	for (int i = 0; i < 7; i++) {
		assert_string_equal(s.name[i], i == 4 ? "x" : "m");
		assert_string_equal(s.desc[i], descs[i]);
		assert_int_equal(s.access[i], i == 4 ? 0x0001 : 0x0009);
	}
}

/* A site past the lost count's rows (4096 x 1024 sites) cannot count a
 * report that found no stack: its exit is refused, the method left as it
 * was; its enter alone needs no count and is rewritten. */
static void test_exit_site_past_rows(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 0, CODE(ret) };
	const struct cls c = { .methods = &m, .nmethods = 1 };
	struct bb in = { 0 };
	build_class(&in, &c);
	for (int both = 0; both <= 1; both++) {
		const struct classfile_pick pick = { .site = 4096 * 1024, .enter = both, .exit = true };
		struct sel s = { .picks = &pick, .npicks = 1 };
		uint8_t sentinel, *out = &sentinel;
		size_t out_len = 99;
		const char *why = "unset";
		assert_int_equal(inject(in.p, in.n, &s, &out, &out_len, &why), 0);
		assert_ptr_equal(out, &sentinel);
		assert_int_equal(s.refused, 1);
		assert_string_equal(s.rname[0], "m");
		assert_string_equal(s.rwhy[0], "a site id past the lost count's rows");
	}
	bb_free(&in);
	static const uint8_t eenter[] = { 0x13, U2(SITE0), 0xb8, U2(M_ENTER), 0xb1 };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 2, CODE(eenter) };
	expect_one(&m, &em, ENTER(4096 * 1024));
}

/* enter and exit together: the catch-all starts at the end of the prologue,
 * not at 0 (the prologue is not covered). */
static void test_enter_exit_handler_range(void **state)
{
	(void)state;
	static const uint8_t code[] = { 0x1a, 0xac };		/* 0: iload_0  1: ireturn */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0: prologue */
		0x99, U2(14),					/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),			/*  9 */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),		/* 14 */
		0x1a,				/* 20: iload_0 (was 0) */
		0x59,				/* 21: dup */
		0x13, U2(SITE0),		/* 22: ldc_w site */
		0xb8, U2(M_RET_I),		/* 25: invokestatic retI */
		0xac,				/* 28: ireturn (was 1) */
		HANDLER(SITE0, 9),		/* 29: the handler */
	};
	static const struct xentry eex[] = { { 20, 29, 29, 0 }, COUNT_ENTRY(29) };
	/* same_frame at 20 (END), full_frame at 29 (delta 29 - 20 - 1 = 8) */
	static const uint8_t eframes[] = { 20, HANDLER_FRAME(8) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_II, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_II, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 3) };
	expect_one(&m, &em, BOTH(9));

	/* no parameters: the range starts after the 6-byte prologue */
	static const uint8_t code_v[] = { 0xb1 };
	static const uint8_t ecode_v[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),		/*  0: enter */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),		/*  6: retV */
		0xb1,						/* 12: return (was 0) */
		HANDLER(SITE0, 9),				/* 13 */
	};
	static const struct xentry eex_v[] = { { 6, 13, 13, 0 }, COUNT_ENTRY(13) };
	static const uint8_t eframes_v[] = { HANDLER_FRAME(13) };
	const struct method mv = { .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 0, .max_locals = 1, CODE(code_v) };
	const struct method emv = { .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true,
				    .max_stack = 5, .max_locals = 1, CODE(ecode_v), EX(eex_v),
				    FRAMES(eframes_v, 2) };
	expect_one(&mv, &emv, BOTH(9));
}

/* ------------------------------------------------------------ relocation */

/* Branches forward and backward across a return (whose new code sits in
 * between), a branch to a return (it lands on the code before it, so the
 * exit is reported), a loop back to 0 (it lands after the prologue). */
static void test_branches(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x1a,			/*  0: iload_0 */
		0x99, U2(15),		/*  1: ifeq +15 (-> 16, a return) */
		0x1a,			/*  4: iload_0 */
		0x9d, U2(4),		/*  5: ifgt +4 (-> 9, over the return at 8) */
		0xb1,			/*  8: return */
		0x84, 0, 0xff,		/*  9: iinc 0,-1 */
		0x1a,			/* 12: iload_0 */
		0x9a, U2(-13),		/* 13: ifne -13 (-> 0) */
		0xb1,			/* 16: return */
	};
	static const uint8_t frames[] = { 0, 8, 6 };		/* same_frames at 0, 9, 16 */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0: prologue */
		0x99, U2(14),					/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),			/*  9 */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),		/* 14 */
		0x1a,				/* 20: iload_0 (was 0) */
		0x99, U2(21),			/* 21: ifeq +21 (-> 42, the code before the return) */
		0x1a,				/* 24: iload_0 (was 4) */
		0x9d, U2(10),			/* 25: ifgt +10 (-> 35, was 9) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 28: before the return */
		0xb1,				/* 34: return (was 8) */
		0x84, 0, 0xff,			/* 35: iinc (was 9) */
		0x1a,				/* 38: iload_0 (was 12) */
		0x9a, U2(-19),			/* 39: ifne -19 (-> 20, after the prologue) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 42: before the return */
		0xb1,				/* 48: return (was 16) */
		HANDLER(SITE0, 1),		/* 49 */
	};
	static const struct xentry eex[] = { { 20, 49, 49, 0 }, COUNT_ENTRY(49) };
	/* the frames at 0, 9, 16 now at 20, 35, 42 (deltas 20, 14, 6); the handler's at 49 */
	static const uint8_t eframes[] = { 20, 14, 6, HANDLER_FRAME(6) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code), FRAMES(frames, 3) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 5) };
	expect_one(&m, &em, BOTH(1));
}

/* tableswitch and lookupswitch: the 6-byte prologue changes the alignment
 * (tableswitch padding 2 -> 0), the 6 bytes before the return at 24 again
 * (lookupswitch padding 1 -> 3); every target moves. */
static void test_switch_padding(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x04,				/*  0: iconst_1 */
		0xaa, 0, 0,			/*  1: tableswitch, padding 2 */
		U4(23),				/*  4: default +23 (-> 24, a return) */
		U4(0), U4(1),			/*  8: low 0, high 1 */
		U4(24),				/* 16: 0 -> 25 */
		U4(52),				/* 20: 1 -> 53 (a return) */
		0xb1,				/* 24: return */
		0x04,				/* 25: iconst_1 */
		0xab, 0,			/* 26: lookupswitch, padding 1 */
		U4(26),				/* 28: default +26 (-> 52) */
		U4(2),				/* 32: 2 pairs */
		U4(1), U4(27),			/* 36: 1 -> 53 */
		U4(5), U4(-1),			/* 44: 5 -> 25 */
		0x00,				/* 52: nop */
		0xb1,				/* 53: return */
	};
	static const uint8_t frames[] = { 24, 0, 26, 0 };	/* same_frames at 24, 25, 52, 53 */
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  0: enter */
		0x04,				/*  6: iconst_1 (was 0) */
		0xaa,				/*  7: tableswitch, padding 0 */
		U4(21),				/*  8: default -> 28 (the code before the return) */
		U4(0), U4(1),			/* 12 */
		U4(28),				/* 20: 0 -> 35 */
		U4(58),				/* 24: 1 -> 65 (the code before the return) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 28 */
		0xb1,				/* 34: return (was 24) */
		0x04,				/* 35: iconst_1 (was 25) */
		0xab, 0, 0, 0,			/* 36: lookupswitch, padding 3 */
		U4(28),				/* 40: default -> 64 */
		U4(2),				/* 44 */
		U4(1), U4(29),			/* 48: 1 -> 65 */
		U4(5), U4(-1),			/* 56: 5 -> 35 */
		0x00,				/* 64: nop (was 52) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 65 */
		0xb1,				/* 71: return (was 53) */
		HANDLER(SITE0, 2),		/* 72 */
	};
	static const struct xentry eex[] = { { 6, 72, 72, 0 }, COUNT_ENTRY(72) };
	/* frames at 28, 35, 64, 65, and the handler's at 72 */
	static const uint8_t eframes[] = { 28, 6, 28, 0, HANDLER_FRAME(6) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 0, CODE(code), FRAMES(frames, 4) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 0, CODE(ecode), EX(eex),
				   FRAMES(eframes, 6) };
	expect_one(&m, &em, BOTH(2));
}

/* LEN bytes of nop (0), calloc()ed. */
static uint8_t *code_buf(size_t len)
{
	uint8_t *p = calloc(len, 1);
	assert_non_null(p);
	return p;
}

static void put_exit_v(uint8_t *p, uint16_t site)
{
	const uint8_t e[] = { 0x13, U2(site), 0xb8, U2(M_RET_V) };
	memcpy(p, e, sizeof(e));
}

static void put_handler_at(uint8_t *p, uint16_t site, int32_t id, uint16_t fields)
{
	const uint8_t h[] = { HANDLER_AT(site, id, fields) };
	memcpy(p, h, sizeof(h));
}

static void put_handler(uint8_t *p, uint16_t site, int32_t id)
{
	put_handler_at(p, site, id, SITE0 + 1);
}

/* A goto that reached 32767 bytes ahead no longer fits 16 bits once 6 bytes
 * go in between: it becomes goto_w (2 bytes more). The same backwards. */
static void test_goto_widened(void **state)
{
	(void)state;
	/* 0: goto +32767 (-> 32767)  3: return  4..32766: nop  32767: return */
	uint8_t *code = code_buf(32768);
	code[0] = 0xa7; code[1] = 0x7f; code[2] = 0xff;
	code[3] = 0xb1;
	code[32767] = 0xb1;
	static const uint8_t frames[] = { 3, 251, U2(32763) };	/* same at 3, at 32767 */
	/* 0: goto_w +32775  5: retV code  11: return  12..32774: nop
	 * 32775: retV code  32781: return  32782: the handler (to 32814) */
	uint8_t *ecode = code_buf(32814);
	const uint8_t gw[] = { 0xc8, U4(32775) };
	memcpy(ecode, gw, 5);
	put_exit_v(ecode + 5, SITE0);
	ecode[11] = 0xb1;
	put_exit_v(ecode + 32775, SITE0);
	ecode[32781] = 0xb1;
	put_handler(ecode + 32782, SITE0, 4);
	static const struct xentry eex[] = { { 0, 32782, 32782, 0 }, COUNT_ENTRY(32782) };
	/* same at 5, at 32775 (delta 32769), the handler's at 32782 */
	static const uint8_t eframes[] = { 5, 251, U2(32769), HANDLER_FRAME(6) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 0, .max_locals = 0, .code = code, .code_len = 32768,
				  FRAMES(frames, 2) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 0, .code = ecode, .code_len = 32814,
				   EX(eex), FRAMES(eframes, 4) };
	expect_one(&m, &em, EXIT(4));
	free(code);
	free(ecode);

	/* 0: nop  1: return  2..32767: nop  32768: goto -32768 (-> 0) */
	code = code_buf(32771);
	code[1] = 0xb1;
	code[32768] = 0xa7; code[32769] = 0x80; code[32770] = 0x00;
	static const uint8_t bframes[] = { 0, 0 };		/* same at 0 and 1 */
	/* 0: nop  1: retV code  7: return  8..32773: nop  32774: goto_w -32774
	 * 32779: the handler */
	ecode = code_buf(32811);
	put_exit_v(ecode + 1, SITE0);
	ecode[7] = 0xb1;
	const uint8_t gb[] = { 0xc8, U4(-32774) };
	memcpy(ecode + 32774, gb, 5);
	put_handler(ecode + 32779, SITE0, 4);
	static const struct xentry bex[] = { { 0, 32779, 32779, 0 }, COUNT_ENTRY(32779) };
	/* same at 0, at 1 (the code before the return: delta 0), the handler's two */
	static const uint8_t ebframes[] = { 0, 0, 255, U2(32777), 0, 0, 0, 1, 7, U2(THROWABLE),
					    255, U2(7), 0, 0, 0, 1, 7, U2(THROWABLE) };
	const struct method mb = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 0, .max_locals = 0, .code = code, .code_len = 32771,
				   FRAMES(bframes, 2) };
	const struct method emb = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				    .max_stack = 5, .max_locals = 0, .code = ecode, .code_len = 32811,
				    EX(bex), FRAMES(ebframes, 4) };
	expect_one(&mb, &emb, EXIT(4));
	free(code);
	free(ecode);
}

/* A conditional branch has no wide form: one that would no longer reach
 * makes its method refused (unchanged, REFUSED names it); the other method
 * of the class is still rewritten; with no other, the result is 0. */
static void test_conditional_branch_refused(void **state)
{
	(void)state;
	/* 0: iload_0  1: ifeq +32767 (-> 32768)  4: return  5..32767: nop  32768: return */
	uint8_t *code = code_buf(32769);
	code[0] = 0x1a;
	code[1] = 0x99; code[2] = 0x7f; code[3] = 0xff;
	code[4] = 0xb1;
	code[32768] = 0xb1;
	static const uint8_t small[] = { 0xb1 };
	static const uint8_t esmall[] = { 0x13, U2(SITE0 + 1), 0xb8, U2(M_RET_V), 0xb1,
					  HANDLER_AT(SITE0 + 1, 41, SITE0 + 2) };
	static const struct xentry eex[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes[] = { HANDLER_FRAME(7) };
	const struct method ms[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true, .max_stack = 1,
		  .max_locals = 1, .code = code, .code_len = 32769 },
		{ .access = 0x0009, .name = C_X, .desc = C_DESC_V, .has_code = true, .max_stack = 0,
		  CODE(small) },
	};
	const struct method ems[] = {
		ms[0],
		{ .access = 0x0009, .name = C_X, .desc = C_DESC_V, .has_code = true, .max_stack = 5,
		  CODE(esmall), EX(eex), FRAMES(eframes, 2) },
	};
	static const struct classfile_pick picks[] = { EXIT(40), EXIT(41) };
	static const int32_t sites[] = { 40, 41 };	/* the refused method's stays unused */
	const struct cls c = { .methods = ms, .nmethods = 2 };
	struct sel s;
	expect_class(&c, ems, picks, 2, sites, 2, 1, &s);
	assert_int_equal(s.refused, 1);
	assert_string_equal(s.rname[0], "m");
	assert_string_equal(s.rdesc[0], "(I)V");
	assert_non_null(strstr(s.rwhy[0], "conditional branch"));

	/* alone: 0, *out untouched, no reason for the class */
	const struct cls alone = { .methods = ms, .nmethods = 1 };
	struct bb in = { 0 };
	build_class(&in, &alone);
	struct sel s2 = { .picks = picks, .npicks = 1 };
	uint8_t sentinel, *out = &sentinel;
	size_t out_len = 99;
	const char *why = "unset";
	assert_int_equal(inject(in.p, in.n, &s2, &out, &out_len, &why), 0);
	assert_null(why);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 99);
	assert_int_equal(s2.refused, 1);
	bb_free(&in);
	free(code);
}

/* jsr becomes jsr_w like goto; a version-49 class gets no StackMapTable
 * (not for the handler, not for the end of a prologue). */
static void test_jsr_widened_version_49(void **state)
{
	(void)state;
	/* 0: jsr +32767 (-> 32767)  3: return  4..32766: nop  32767: astore_0  32768: ret 0 */
	uint8_t *code = code_buf(32770);
	code[0] = 0xa8; code[1] = 0x7f; code[2] = 0xff;
	code[3] = 0xb1;
	code[32767] = 0x4b;
	code[32768] = 0xa9;
	/* 0: jsr_w +32775  5: retV code  11: return  12..32774: nop  32775: astore_0
	 * 32776: ret 0  32778: the handler (to 32810) */
	uint8_t *ecode = code_buf(32810);
	const uint8_t jw[] = { 0xc9, U4(32775) };
	memcpy(ecode, jw, 5);
	put_exit_v(ecode + 5, SITE0);
	ecode[11] = 0xb1;
	ecode[32775] = 0x4b;
	ecode[32776] = 0xa9;
	put_handler_at(ecode + 32778, SITE0, 1, SITE0 + 2);
	static const struct xentry eex[] = { { 0, 32778, 32778, 0 }, COUNT_ENTRY(32778) };
	static const uint8_t small[] = { 0x1a, 0x3b, 0xb1 };	/* iload_0 istore_0 return */
	static const uint8_t esmall[] = {
		0x13, U2(SITE0 + 1), 0xb8, U2(M_ENTER_ARGS),	/*  0 */
		0x99, U2(14),					/*  6: ifeq -> 20, no frame */
		0x15, 0, 0xb8, U2(M_ARG_I),			/*  9 */
		0x13, U2(SITE0 + 1), 0xb8, U2(M_ENTERED),	/* 14 */
		0x1a, 0x3b, 0xb1,				/* 20 */
	};
	const struct method ms[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 1,
		  .max_locals = 1, .code = code, .code_len = 32770 },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true, .max_stack = 1,
		  .max_locals = 1, CODE(small) },
	};
	const struct method ems[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 5,
		  .max_locals = 1, .code = ecode, .code_len = 32810, EX(eex) },
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_IV, .has_code = true, .max_stack = 2,
		  .max_locals = 1, CODE(esmall) },
	};
	static const struct classfile_pick picks[] = { EXIT(1), ENTER(2) };
	static const int32_t sites[] = { 1, 2 };
	const struct cls c = { .major = 49, .methods = ms, .nmethods = 2 };
	expect_class(&c, ems, picks, 2, sites, 2, 2, NULL);
	free(code);
	free(ecode);
}

/* New code of 65535 bytes is the most: 65497 + 6 + 32 fits, 65498 does not
 * (the method is refused). max_stack 65532 + 3 fits, 65533 does not. */
static void test_code_and_stack_limits(void **state)
{
	(void)state;
	uint8_t *code = code_buf(65498), *ecode = code_buf(65535);
	code[65496] = 0xb1;
	put_exit_v(ecode + 65496, SITE0);
	ecode[65502] = 0xb1;
	put_handler(ecode + 65503, SITE0, 0);
	static const struct xentry eex[] = { { 0, 65503, 65503, 0 }, COUNT_ENTRY(65503) };
	static const uint8_t eframes[] = { HANDLER_FRAME(65503) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 0, .code = code, .code_len = 65497 };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .code = ecode, .code_len = 65535, EX(eex),
				   FRAMES(eframes, 2) };
	expect_one(&m, &em, EXIT(0));

	code[65496] = 0;
	code[65497] = 0xb1;
	static const uint8_t ret[] = { 0xb1 };
	const struct method ms[] = {
		{ .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true, .max_stack = 0,
		  .code = code, .code_len = 65498 },
		{ .access = 0x0009, .name = C_X, .desc = C_DESC_V, .has_code = true, .max_stack = 65533,
		  CODE(ret) },
		{ .access = 0x0009, .name = C_N, .desc = C_DESC_V, .has_code = true, .max_stack = 65532,
		  CODE(ret) },
	};
	static const uint8_t eret[] = { 0x13, U2(SITE0 + 2), 0xb8, U2(M_RET_V), 0xb1,
					HANDLER_AT(SITE0 + 2, 2, SITE0 + 3) };
	static const struct xentry eex7[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes7[] = { HANDLER_FRAME(7) };
	const struct method ems[] = {
		ms[0], ms[1],
		{ .access = 0x0009, .name = C_N, .desc = C_DESC_V, .has_code = true, .max_stack = 65535,
		  CODE(eret), EX(eex7), FRAMES(eframes7, 2) },
	};
	static const struct classfile_pick picks[] = { EXIT(0), EXIT(1), EXIT(2) };
	static const int32_t sites[] = { 0, 1, 2 };
	const struct cls c = { .methods = ms, .nmethods = 3 };
	struct sel s;
	expect_class(&c, ems, picks, 3, sites, 3, 1, &s);
	assert_int_equal(s.refused, 2);
	assert_string_equal(s.rname[0], "m");
	assert_non_null(strstr(s.rwhy[0], "64 KiB"));
	assert_string_equal(s.rname[1], "x");
	assert_non_null(strstr(s.rwhy[1], "max_stack"));
	free(code);
	free(ecode);
}

/* ------------------------------------------------------------ tables */

/* A loop with a try range, a LineNumberTable, a LocalVariable(Type)Table and
 * type annotations, with enter and exit: entries at 0 of the line table and
 * ranges from 0 stay at 0 (the prologue has the first line and sees the
 * parameters); a range to the code's end ends where the old code ends,
 * before the handler; everything else moves. */
static const uint8_t loop_code[] = {
	0x03,			/*  0: iconst_0 */
	0x3c,			/*  1: istore_1 */
	0x84, 0x01, 0x01,	/*  2: iinc 1,1 */
	0x1b,			/*  5: iload_1 */
	0x10, 0x0a,		/*  6: bipush 10 */
	0xa1, U2(-6),		/*  8: if_icmplt -6 (-> 2) */
	0xb1,			/* 11: return */
};

/* Runtime type annotations: one of each kind of target code can have. */
static const uint8_t type_annotations[] = {
	U2(5),				/* num_annotations */
	0x40, U2(2),			/* localvar_target, 2 ranges: */
	U2(0), U2(12), U2(0),		/*   [0, 12) slot 0 */
	U2(5), U2(3), U2(1),		/*   [5, 8) slot 1 */
	0,				/*   type_path: empty */
	U2(C_X), U2(1), U2(C_N), 'I', U2(C_INT),	/* @x(n = 42) */
	0x43, U2(8),			/* offset_target (instanceof) at 8 */
	1, 3, 0,			/*   type_path: 1 entry */
	U2(C_X), U2(0),
	0x47, U2(6), 0,			/* type_argument_target (cast) at 6, argument 0 */
	0,
	U2(C_X), U2(1), U2(C_N), '[', U2(2), 'I', U2(C_INT), '@', U2(C_X), U2(0),
	0x42, U2(1),			/* catch_target: exception table entry 1 */
	0,
	U2(C_X), U2(0),
	0x44, U2(0),			/* offset_target (new) at 0 */
	0,
	U2(C_X), U2(0),
};

static const uint8_t type_annotations_moved[] = {
	U2(5),
	0x40, U2(2),
	U2(0), U2(38), U2(0),		/* from 0: stays at 0, to the end of the old code */
	U2(25), U2(3), U2(1),		/* [5, 8) -> [25, 28) */
	0,
	U2(C_X), U2(1), U2(C_N), 'I', U2(C_INT),
	0x43, U2(28),			/* 8 -> 28 */
	1, 3, 0,
	U2(C_X), U2(0),
	0x47, U2(26), 0,		/* 6 -> 26 */
	0,
	U2(C_X), U2(1), U2(C_N), '[', U2(2), 'I', U2(C_INT), '@', U2(C_X), U2(0),
	0x42, U2(1),			/* the table keeps its order: still entry 1 */
	0,
	U2(C_X), U2(0),
	0x44, U2(20),			/* the instruction at 0 is at 20 now */
	0,
	U2(C_X), U2(0),
};

static void test_tables_moved(void **state)
{
	(void)state;
	static const struct xentry ex[] = { { 2, 8, 11, C_OBJ }, { 0, 11, 11, 0 } };
	static const struct line lines[] = { { 0, 10 }, { 2, 11 }, { 11, 12 } };
	static const struct local lvt[] = { { 0, 12, C_X, C_I, 0 }, { 2, 9, C_N, C_I, 1 } };
	static const struct local lvtt[] = { { 5, 3, C_N, C_I, 1 }, { 0, 12, C_X, C_I, 0 } };
	/* at 2: append_frame [int] (delta 2); at 11: chop_frame 1 (delta 8) */
	static const uint8_t frames[] = { 252, U2(2), 1, 250, U2(8) };
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0: prologue */
		0x99, U2(14),					/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),			/*  9 */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),		/* 14 */
		0x03,				/* 20: iconst_0 (was 0) */
		0x3c,				/* 21: istore_1 (was 1) */
		0x84, 0x01, 0x01,		/* 22: iinc (was 2) */
		0x1b,				/* 25: iload_1 (was 5) */
		0x10, 0x0a,			/* 26: bipush (was 6) */
		0xa1, U2(-6),			/* 28: if_icmplt -6 (-> 22) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 31: before the return */
		0xb1,				/* 37: return (was 11) */
		HANDLER(SITE0, 3),		/* 38 */
	};
	/* [2, 8) -> 11 is [22, 28) -> 31; [0, 11) -> 11 is [20, 31) -> 31 (the
	 * prologue is not covered); then the catch-all [20, 38) -> 38, and the
	 * count's entry */
	static const struct xentry eex[] = { { 22, 28, 31, C_OBJ }, { 20, 31, 31, 0 },
					     { 20, 38, 38, 0 }, COUNT_ENTRY(38) };
	static const struct line elines[] = { { 0, 10 }, { 22, 11 }, { 31, 12 } };
	/* [0, 12) -> [0, 38): to the end of the old code, not over the handler */
	static const struct local elvt[] = { { 0, 38, C_X, C_I, 0 }, { 22, 9, C_N, C_I, 1 } };
	static const struct local elvtt[] = { { 25, 3, C_N, C_I, 1 }, { 0, 38, C_X, C_I, 0 } };
	/* a same_frame at 20 for the ifeq (delta 20); the append at 22 (delta 1),
	 * the chop at 31 (delta 8), the handler's at 38 (delta 6) */
	static const uint8_t eframes[] = { 20, 252, U2(1), 1, 250, U2(8), HANDLER_FRAME(6) };
	const struct method m = { .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 2, .max_locals = 2, CODE(loop_code), EX(ex),
				  .lines = lines, .nlines = 3, .lvt = lvt, .nlvt = 2,
				  .lvtt = lvtt, .nlvtt = 2, FRAMES(frames, 2), .smt_first = true,
				  .extra_attr = C_RVTA, .extra = type_annotations,
				  .extra_len = sizeof(type_annotations) };
	const struct method em = { .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
				   .max_stack = 5, .max_locals = 2, CODE(ecode), EX(eex),
				   .lines = elines, .nlines = 3, .lvt = elvt, .nlvt = 2,
				   .lvtt = elvtt, .nlvtt = 2, FRAMES(eframes, 5),
				   .extra_attr = C_RVTA, .extra = type_annotations_moved,
				   .extra_len = sizeof(type_annotations_moved) };
	expect_one(&m, &em, BOTH(3));

	/* RuntimeInvisibleTypeAnnotations the same way */
	struct method mi = m, emi = em;
	mi.extra_attr = emi.extra_attr = C_RITA;
	expect_one(&mi, &emi, BOTH(3));
}

/* ------------------------------------------------------------ StackMapTable */

/* The first frame in every form, the code moved by a 6-byte prologue: the
 * frame moves by 6, and takes the short or extended form its new delta
 * needs; the second frame (relative) stays as it is. Uninitialized(0) moves
 * to 6. */
static void test_frame_forms(void **state)
{
	(void)state;
	static const struct {
		uint8_t in[16], out[16];
		size_t in_len, out_len;
	} cases[] = {
		{ { 0 }, { 6 }, 1, 1 },					/* same_frame */
		{ { 10 }, { 16 }, 1, 1 },
		{ { 57 }, { 63 }, 1, 1 },				/* the largest that stays */
		{ { 58 }, { 251, U2(64) }, 1, 3 },			/* -> same_frame_extended */
		{ { 63 }, { 251, U2(69) }, 1, 3 },
		{ { 64 + 3, 1 }, { 64 + 9, 1 }, 2, 2 },			/* same_locals_1_stack_item */
		{ { 64 + 57, 2 }, { 127, 2 }, 2, 2 },
		{ { 64 + 58, 7, U2(C_OBJ) }, { 247, U2(64), 7, U2(C_OBJ) }, 4, 6 },
		{ { 127, 4 }, { 247, U2(69), 4 }, 2, 4 },
		{ { 247, U2(3), 1 }, { 64 + 9, 1 }, 4, 2 },		/* ..._extended, short again */
		{ { 247, U2(300), 8, U2(0) }, { 247, U2(306), 8, U2(6) }, 6, 6 },
		{ { 248, U2(2) }, { 248, U2(8) }, 3, 3 },		/* chop 3 */
		{ { 249, U2(2) }, { 249, U2(8) }, 3, 3 },		/* chop 2 */
		{ { 250, U2(9) }, { 250, U2(15) }, 3, 3 },		/* chop 1 */
		{ { 251, U2(0) }, { 6 }, 3, 1 },			/* same_frame_extended, short */
		{ { 251, U2(500) }, { 251, U2(506) }, 3, 3 },
		{ { 252, U2(7), 1 }, { 252, U2(13), 1 }, 4, 4 },	/* append 1 */
		{ { 253, U2(7), 2, 3 }, { 253, U2(13), 2, 3 }, 5, 5 },	/* append 2 */
		{ { 254, U2(4), 1, 2, 4 }, { 254, U2(10), 1, 2, 4 }, 6, 6 },
		/* append [uninitialized(0), null, uninitializedThis] */
		{ { 254, U2(4), 8, U2(0), 5, 6 }, { 254, U2(10), 8, U2(6), 5, 6 }, 8, 8 },
		/* full_frame: locals [int, T], stack [float] */
		{ { 255, U2(5), U2(2), 1, 7, U2(C_THIS), U2(1), 2 },
		  { 255, U2(11), U2(2), 1, 7, U2(C_THIS), U2(1), 2 }, 12, 12 },
		/* full_frame: locals [double, long, uninitialized(16)], stack [top, uninitialized(16)] */
		{ { 255, U2(5), U2(3), 3, 4, 8, U2(16), U2(2), 0, 8, U2(16) },
		  { 255, U2(11), U2(3), 3, 4, 8, U2(22), U2(2), 0, 8, U2(22) }, 16, 16 },
	};
	/* 0..510: nop, 511: return */
	uint8_t *code = code_buf(512);
	code[511] = 0xb1;
	uint8_t *ecode = code_buf(518);
	const uint8_t enter[] = { 0x13, U2(SITE0), 0xb8, U2(M_ENTER) };
	memcpy(ecode, enter, 6);
	ecode[517] = 0xb1;
	static const uint8_t second[] = { 64 + 5, 1 };
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		uint8_t frames[32], eframes[32];
		memcpy(frames, cases[k].in, cases[k].in_len);
		memcpy(frames + cases[k].in_len, second, sizeof(second));
		memcpy(eframes, cases[k].out, cases[k].out_len);
		memcpy(eframes + cases[k].out_len, second, sizeof(second));
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V,
					  .has_code = true, .max_stack = 1, .max_locals = 3,
					  .code = code, .code_len = 512, .frames = frames,
					  .frames_len = cases[k].in_len + sizeof(second), .nframes = 2 };
		struct method em = m;
		em.code = ecode;
		em.code_len = 518;
		em.max_stack = 2;
		em.frames = eframes;
		em.frames_len = cases[k].out_len + sizeof(second);
		char label[64];
		snprintf(label, sizeof(label), "case %zu, frame type %u: ", k, cases[k].in[0]);
		g_case = label;
		expect_one(&m, &em, ENTER(77));
		g_case = "";
	}
	free(code);
	free(ecode);
}

/* A frame's delta grows past 63 because of code inserted between it and the
 * frame before it (not only the first frame): same_frame and
 * same_locals_1_stack_item take their extended forms. */
static void test_frame_delta_grows(void **state)
{
	(void)state;
	/* 200 bytes of nop with returns at 10..19 and 21..30 and 199 */
	uint8_t *code = code_buf(200);
	for (int pc = 10; pc < 20; pc++)
		code[pc] = 0xb1;
	for (int pc = 21; pc < 31; pc++)
		code[pc] = 0xb1;
	code[199] = 0xb1;
	/* same at 0; same at 20 (delta 19); same_locals_1 [int] at 40 (delta 19);
	 * same at 41 (delta 0) */
	static const uint8_t frames[] = { 0, 19, 64 + 19, 1, 0 };
	/* each return gets the 6 bytes of retV in front: 21 of them */
	uint8_t *ecode = code_buf(200 + 21 * 6 + 32);
	size_t n = 0;
	for (int pc = 0; pc < 200; pc++) {
		if (code[pc] == 0xb1) {
			put_exit_v(ecode + n, SITE0);
			n += 6;
		}
		ecode[n++] = code[pc];
	}
	assert_int_equal(n, 326);
	put_handler(ecode + n, SITE0, 8);
	static const struct xentry eex[] = { { 0, 326, 326, 0 }, COUNT_ENTRY(326) };
	/* 0 stays; 20 -> 80 (delta 79: extended); 40 -> 160 (delta 79: extended);
	 * 41 -> 161 (delta 0); the handler's at 326 (delta 164) */
	static const uint8_t eframes[] = { 0, 251, U2(79), 247, U2(79), 1, 0, HANDLER_FRAME(164) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .code = code, .code_len = 200, FRAMES(frames, 4) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .code = ecode, .code_len = 358, EX(eex),
				   FRAMES(eframes, 6) };
	expect_one(&m, &em, EXIT(8));
	free(code);
	free(ecode);
}

/* Uninitialized(offset) names the offset of a `new`: it moves with it (here
 * from 0 to 20, after the prologue). */
static void test_frame_uninitialized_offsets(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xbb, U2(C_THIS),	/*  0: new T */
		0x59,			/*  3: dup */
		0x1a,			/*  4: iload_0 */
		0x99, U2(7),		/*  5: ifeq +7 (-> 12) */
		0x04,			/*  8: iconst_1 */
		0xa7, U2(4),		/*  9: goto +4 (-> 13) */
		0x03,			/* 12: iconst_0 */
		0xb7, U2(C_THIS_INIT),	/* 13: invokespecial T.<init>(I)V */
		0xb0,			/* 16: areturn */
	};
	/* at 12: full_frame locals [int], stack [uninit(0), uninit(0)];
	 * at 13: full_frame locals [int], stack [uninit(0), uninit(0), int] */
	static const uint8_t frames[] = { 255, U2(12), U2(1), 1, U2(2), 8, U2(0), 8, U2(0),
					  255, U2(0), U2(1), 1, U2(3), 8, U2(0), 8, U2(0), 1 };
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0: prologue */
		0x99, U2(14),					/*  6: ifeq +14 (-> 20) */
		0x15, 0, 0xb8, U2(M_ARG_I),			/*  9 */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),		/* 14 */
		0xbb, U2(C_THIS),		/* 20: new T (was 0) */
		0x59, 0x1a,			/* 23 */
		0x99, U2(7),			/* 25: ifeq +7 (-> 32) */
		0x04,				/* 28 */
		0xa7, U2(4),			/* 29: goto +4 (-> 33) */
		0x03,				/* 32 */
		0xb7, U2(C_THIS_INIT),		/* 33 */
		0x59, 0x13, U2(SITE0), 0xb8, U2(M_RET_L),	/* 36: dup; ldc_w; retL */
		0xb0,				/* 43: areturn (was 16) */
		HANDLER(SITE0, 5),		/* 44 */
	};
	static const struct xentry eex[] = { { 20, 44, 44, 0 }, COUNT_ENTRY(44) };
	/* same at 20; the frames at 32 (delta 11) and 33 with uninit(20); the handler's at 44 */
	static const uint8_t eframes[] = { 20,
					   255, U2(11), U2(1), 1, U2(2), 8, U2(20), 8, U2(20),
					   255, U2(0), U2(1), 1, U2(3), 8, U2(20), 8, U2(20), 1,
					   HANDLER_FRAME(10) };
	const struct method m = { .access = 0x0008, .name = C_M, .desc = C_DESC_IA, .has_code = true,
				  .max_stack = 3, .max_locals = 1, CODE(code), FRAMES(frames, 2) };
	const struct method em = { .access = 0x0008, .name = C_M, .desc = C_DESC_IA, .has_code = true,
				   .max_stack = 6, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 5) };
	expect_one(&m, &em, BOTH(5));
}

/* A synchronized method (the VM releases its monitor on either exit, so
 * nothing more is needed) with a synchronized block: javac's handler that
 * releases the block's monitor keeps its range and frame, moved; the
 * catch-all after the body covers it too. */
static void test_synchronized(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a, 0x59, 0x4c,	/*  0: aload_0; dup; astore_1 */
		0xc2,			/*  3: monitorenter */
		0x2b, 0xc3,		/*  4: aload_1; monitorexit */
		0xa7, U2(8),		/*  6: goto +8 (-> 14) */
		0x4d, 0x2b, 0xc3,	/*  9: astore_2; aload_1; monitorexit */
		0x2c, 0xbf,		/* 12: aload_2; athrow */
		0xb1,			/* 14: return */
	};
	static const struct xentry ex[] = { { 4, 6, 9, 0 }, { 9, 12, 9, 0 } };
	/* at 9: full_frame locals [T, Object], stack [Throwable]; at 14: chop 1 */
	static const uint8_t frames[] = { 255, U2(9), U2(2), 7, U2(C_THIS), 7, U2(C_OBJ),
					  U2(1), 7, U2(THROWABLE), 250, U2(4) };
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  0: prologue */
		0x2a, 0x59, 0x4c, 0xc2, 0x2b, 0xc3,	/*  6 (was 0) */
		0xa7, U2(8),				/* 12: goto +8 (-> 20, the exit's code) */
		0x4d, 0x2b, 0xc3, 0x2c, 0xbf,		/* 15 (was 9) */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 20 */
		0xb1,					/* 26: return (was 14) */
		HANDLER(SITE0, 0),			/* 27 */
	};
	static const struct xentry eex[] = { { 10, 12, 15, 0 }, { 15, 18, 15, 0 }, { 6, 27, 27, 0 },
					     COUNT_ENTRY(27) };
	static const uint8_t eframes[] = { 255, U2(15), U2(2), 7, U2(C_THIS), 7, U2(C_OBJ),
					   U2(1), 7, U2(THROWABLE), 250, U2(4), HANDLER_FRAME(6) };
	const struct method m = { .access = 0x0021, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 2, .max_locals = 3, CODE(code), EX(ex), FRAMES(frames, 2) };
	const struct method em = { .access = 0x0021, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 3, CODE(ecode), EX(eex),
				   FRAMES(eframes, 4) };
	expect_one(&m, &em, BOTH(0));
}

/* ------------------------------------------------------------ constructors */

/* super() first: the catch-all covers what follows the invokespecial; a
 * second copy, whose frame holds uninitializedThis, covers the code before
 * it (the verifier lets such a handler only throw), and none the call
 * (HotSpot checks a handler there against the frame after it too). */
static void test_constructor_plain(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/* 0: aload_0 */
		0xb7, U2(C_OBJ_INIT),	/* 1: invokespecial Object.<init>()V */
		0xb1,			/* 4: return */
	};
	static const uint8_t ecode[] = {
		0x2a, 0xb7, U2(C_OBJ_INIT),		/*  0 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/*  4 */
		0xb1,					/* 10: return (was 4) */
		HANDLER(SITE0, 0),			/* 11 */
		HANDLER(SITE0, 0),			/* 43: before super() */
	};
	/* the body's entries, then each copy's count entry */
	static const struct xentry eex[] = { { 0, 1, 43, 0 }, { 4, 11, 11, 0 }, COUNT_ENTRY(11),
					     COUNT_ENTRY(43) };
	static const uint8_t eframes[] = { HANDLER_FRAME(11), PRE_HANDLER_FRAME(23) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 4) };
	expect_one(&m, &em, EXIT(0));

	/* with enter: the prologue (before super(), static calls only) */
	static const uint8_t ecode2[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  0 */
		0x2a, 0xb7, U2(C_OBJ_INIT),		/*  6 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 10 */
		0xb1,					/* 16 */
		HANDLER(SITE0, 0),			/* 17 */
		HANDLER(SITE0, 0),			/* 49 */
	};
	/* not the prologue: an exception in it reports no enter either */
	static const struct xentry eex2[] = { { 6, 7, 49, 0 }, { 10, 17, 17, 0 }, COUNT_ENTRY(17),
					      COUNT_ENTRY(49) };
	static const uint8_t eframes2[] = { HANDLER_FRAME(17), PRE_HANDLER_FRAME(23) };
	const struct method em2 = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V,
				    .has_code = true, .max_stack = 5, .max_locals = 1, CODE(ecode2),
				    EX(eex2), FRAMES(eframes2, 4) };
	expect_one(&m, &em2, BOTH(0));
}

/* A branch before this(...) (a ternary in the argument), with a parameter:
 * the prologue and its frame, the frames with uninitializedThis moved, the
 * catch-all over the return, its second copy over the code before. */
static void test_constructor_branch_before_init(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/*  0: aload_0 */
		0x1b,			/*  1: iload_1 */
		0x99, U2(7),		/*  2: ifeq +7 (-> 9) */
		0x04,			/*  5: iconst_1 */
		0xa7, U2(4),		/*  6: goto +4 (-> 10) */
		0x05,			/*  9: iconst_2 */
		0xb7, U2(C_THIS_INIT),	/* 10: invokespecial T.<init>(I)V */
		0xb1,			/* 13: return */
	};
	/* at 9: locals [uninitThis, int], stack [uninitThis];
	 * at 10: locals [uninitThis, int], stack [uninitThis, int] */
	static const uint8_t frames[] = { 255, U2(9), U2(2), 6, 1, U2(1), 6,
					  255, U2(0), U2(2), 6, 1, U2(2), 6, 1 };
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER_ARGS),	/*  0 */
		0x99, U2(14),					/*  6: ifeq -> 20 */
		0x15, 1, 0xb8, U2(M_ARG_I),			/*  9: iload 1 (after this) */
		0x13, U2(SITE0), 0xb8, U2(M_ENTERED),		/* 14 */
		0x2a, 0x1b,				/* 20 (was 0) */
		0x99, U2(7),				/* 22: ifeq +7 (-> 29) */
		0x04,					/* 25 */
		0xa7, U2(4),				/* 26: goto +4 (-> 30) */
		0x05,					/* 29 */
		0xb7, U2(C_THIS_INIT),			/* 30 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 33 */
		0xb1,					/* 39: return (was 13) */
		HANDLER(SITE0, 0),			/* 40 */
		HANDLER(SITE0, 0),			/* 72 */
	};
	static const struct xentry eex[] = { { 20, 30, 72, 0 }, { 33, 40, 40, 0 }, COUNT_ENTRY(40),
					     COUNT_ENTRY(72) };
	static const uint8_t eframes[] = { 20,
					   255, U2(8), U2(2), 6, 1, U2(1), 6,
					   255, U2(0), U2(2), 6, 1, U2(2), 6, 1,
					   HANDLER_FRAME(9), PRE_HANDLER_FRAME(23) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_IV, .has_code = true,
				  .max_stack = 2, .max_locals = 2, CODE(code), FRAMES(frames, 2) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_IV,
				   .has_code = true, .max_stack = 5, .max_locals = 2, CODE(ecode),
				   EX(eex), FRAMES(eframes, 7) };
	expect_one(&m, &em, BOTH(0));
}

/* `new T; dup; iconst_5; invokespecial T.<init>` before super(): that
 * invokespecial initializes the new object, not `this`. */
static void test_constructor_new_before_init(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xbb, U2(C_THIS),	/*  0: new T */
		0x59,			/*  3: dup */
		0x08,			/*  4: iconst_5 */
		0xb7, U2(C_THIS_INIT),	/*  5: invokespecial T.<init>(I)V: the new T */
		0x57,			/*  8: pop */
		0x2a,			/*  9: aload_0 */
		0xb7, U2(C_OBJ_INIT),	/* 10: invokespecial Object.<init>()V: this */
		0xb1,			/* 13: return */
	};
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/*  0 */
		0xbb, U2(C_THIS), 0x59, 0x08,		/*  6 */
		0xb7, U2(C_THIS_INIT), 0x57, 0x2a,	/* 11 */
		0xb7, U2(C_OBJ_INIT),			/* 16 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/* 19 */
		0xb1,					/* 25 */
		HANDLER(SITE0, 0),			/* 26 */
		HANDLER(SITE0, 0),			/* 58 */
	};
	static const struct xentry eex[] = { { 6, 16, 58, 0 }, { 19, 26, 26, 0 }, COUNT_ENTRY(26),
					     COUNT_ENTRY(58) };
	static const uint8_t eframes[] = { HANDLER_FRAME(26), PRE_HANDLER_FRAME(23) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 3, .max_locals = 1, CODE(code) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 6, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 4) };
	expect_one(&m, &em, BOTH(0));
}

/* Code after super() laid out before it: two covered ranges. */
static void test_constructor_two_ranges(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/* 0: aload_0 */
		0xa7, U2(4),		/* 1: goto +4 (-> 5) */
		0xb1,			/* 4: return (after super()) */
		0xb7, U2(C_OBJ_INIT),	/* 5: invokespecial Object.<init>()V */
		0xa7, U2(-4),		/* 8: goto -4 (-> 4) */
	};
	/* at 4: locals [T], stack []; at 5: locals [uninitThis], stack [uninitThis] */
	static const uint8_t frames[] = { 255, U2(4), U2(1), 7, U2(C_THIS), U2(0),
					  255, U2(0), U2(1), 6, U2(1), 6 };
	static const uint8_t ecode[] = {
		0x2a,					/*  0 */
		0xa7, U2(10),				/*  1: goto -> 11 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/*  4 */
		0xb1,					/* 10: return (was 4) */
		0xb7, U2(C_OBJ_INIT),			/* 11 (was 5) */
		0xa7, U2(-10),				/* 14: goto -> 4 */
		HANDLER(SITE0, 0),			/* 17 */
		HANDLER(SITE0, 0),			/* 49 */
	};
	/* after super(): the return and its code [4, 11), the goto [14, 17);
	 * before: [0, 4); the call [11, 14) by none */
	static const struct xentry eex[] = { { 0, 4, 49, 0 }, { 4, 11, 17, 0 }, { 14, 17, 17, 0 },
					     COUNT_ENTRY(17), COUNT_ENTRY(49) };
	static const uint8_t eframes[] = { 255, U2(4), U2(1), 7, U2(C_THIS), U2(0),
					   255, U2(6), U2(1), 6, U2(1), 6,
					   HANDLER_FRAME(5), PRE_HANDLER_FRAME(23) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code), FRAMES(frames, 2) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 6) };
	expect_one(&m, &em, EXIT(0));
}

/* Every path throws before super(): the handler for that code only. */
static void test_constructor_always_throws(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xbb, U2(C_THIS),	/* 0: new T */
		0x59,			/* 3: dup */
		0x08,			/* 4: iconst_5 */
		0xb7, U2(C_THIS_INIT),	/* 5: invokespecial T.<init>(I)V */
		0xbf,			/* 8: athrow */
	};
	static const uint8_t ecode[] = {
		0x13, U2(SITE0), 0xb8, U2(M_ENTER),	/* 0 */
		0xbb, U2(C_THIS), 0x59, 0x08,		/* 6 */
		0xb7, U2(C_THIS_INIT), 0xbf,		/* 11 */
		HANDLER(SITE0, 0),			/* 15 */
	};
	static const struct xentry eex[] = { { 6, 15, 15, 0 }, COUNT_ENTRY(15) };
	static const uint8_t eframes[] = { PRE_HANDLER_FRAME(15) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 3, .max_locals = 1, CODE(code) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 6, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 2) };
	expect_one(&m, &em, BOTH(0));
}

/* Local 0 written before super() (javac never does): the verifier might
 * not see `this` there, so only the code after super() is covered. */
static void test_constructor_store_to_this_slot(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/* 0: aload_0 */
		0x4b,			/* 1: astore_0 */
		0x2a,			/* 2: aload_0 */
		0xb7, U2(C_OBJ_INIT),	/* 3: invokespecial Object.<init>()V */
		0xb1,			/* 6: return */
	};
	static const uint8_t ecode[] = {
		0x2a, 0x4b, 0x2a, 0xb7, U2(C_OBJ_INIT),	/*  0 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),	/*  6 */
		0xb1,					/* 12 */
		HANDLER(SITE0, 0),			/* 13 */
	};
	static const struct xentry eex[] = { { 6, 13, 13, 0 }, COUNT_ENTRY(13) };
	static const uint8_t eframes[] = { HANDLER_FRAME(13) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 2) };
	expect_one(&m, &em, EXIT(0));
}

/* A frame before super() whose locals forget `this` (it is on the stack):
 * the handler's frame would not match there; the code stays uncovered. */
static void test_constructor_frame_without_this(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x2a,			/* 0: aload_0 */
		0xa7, U2(3),		/* 1: goto +3 (-> 4) */
		0xb7, U2(C_OBJ_INIT),	/* 4: invokespecial Object.<init>()V */
		0xb1,			/* 7: return */
	};
	/* at 4: full_frame locals [], stack [uninitThis] */
	static const uint8_t frames[] = { 255, U2(4), U2(0), U2(1), 6 };
	static const uint8_t ecode[] = {
		0x2a, 0xa7, U2(3), 0xb7, U2(C_OBJ_INIT),	/*  0 */
		0x13, U2(SITE0), 0xb8, U2(M_RET_V),		/*  7 */
		0xb1,						/* 13 */
		HANDLER(SITE0, 0),				/* 14 */
	};
	static const struct xentry eex[] = { { 7, 14, 14, 0 }, COUNT_ENTRY(14) };
	static const uint8_t eframes[] = { 255, U2(4), U2(0), U2(1), 6, HANDLER_FRAME(9) };
	const struct method m = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(code), FRAMES(frames, 1) };
	const struct method em = { .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, .max_locals = 1, CODE(ecode), EX(eex),
				   FRAMES(eframes, 3) };
	expect_one(&m, &em, EXIT(0));
}

/* ------------------------------------------------------------ the class */

/* SELECT picks nothing: 0, *out untouched, no reason; methods without code
 * are not offered. */
static void test_none_picked(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t foo[] = { 1, 2, 3 };
	const struct method ms[] = {
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 0, .max_locals = 2, CODE(ret),
		  .extra_attr = C_FOO, .extra = foo, .extra_len = 3 },
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V },
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 1, .max_locals = 1, CODE(ret) },
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
		const struct classfile_hooks h = { &calls, select_none, refused_count, NULL, NULL };
		assert_int_equal(classfile_inject(in.p, in.n, &h, &out, &out_len, &why), 0);
		assert_null(why);
		assert_ptr_equal(out, &sentinel);
		assert_int_equal(out_len, 777);
		assert_int_equal(calls, n == 0 ? 0 : n == 3 ? 2 : 1);
		/* a site with neither enter nor exit is no pick either */
		struct sel s = { .picks = (const struct classfile_pick[]){ { .site = 1 },
									   { .site = 2 } },
				 .npicks = 2 };
		assert_int_equal(inject(in.p, in.n, &s, &out, &out_len, &why), 0);
		assert_ptr_equal(out, &sentinel);
		bb_free(&in);
	}
}

/* SELECT hears whether a method's code is a lone `return` (an empty
 * finalize() is one, which HotSpot takes for no finalizer at all). */
static void test_lone_return_told(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t iret[] = { 0xac };
	static const uint8_t body[] = { 0x00, 0xb1 };	/* nop; return */
	const struct method ms[] = {
		{ .access = 0x0004, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 0, .max_locals = 1, CODE(ret) },
		{ .access = 0x0004, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 0, .max_locals = 1, CODE(body) },
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .max_stack = 1, .max_locals = 2, CODE(iret) },
	};
	const struct cls c = { .methods = ms, .nmethods = 3 };
	struct bb in = { 0 };
	build_class(&in, &c);
	struct sel s = { 0 };
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = NULL;
	assert_int_equal(inject(in.p, in.n, &s, &out, &out_len, &why), 0);
	assert_int_equal(s.calls, 3);
	assert_true(s.lone_return[0]);
	assert_false(s.lone_return[1]);
	assert_false(s.lone_return[2]);
	bb_free(&in);
}

/* A method left alone may hold what the rewriter cannot handle. */
static void test_unpicked_method_untouched(void **state)
{
	(void)state;
	static const uint8_t bad[] = { 0xca, 0xfe };	/* not even code */
	static const uint8_t foo[] = { 9 };
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t eret[] = { 0x13, U2(SITE0), 0xb8, U2(M_RET_V), 0xb1, HANDLER(SITE0, 9) };
	static const struct xentry eex[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes[] = { HANDLER_FRAME(7) };
	const struct method ms[] = {
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true, .max_stack = 1,
		  .max_locals = 1, CODE(bad), .extra_attr = C_FOO, .extra = foo, .extra_len = 1 },
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true, .max_stack = 2,
		  .max_locals = 2, CODE(ret) },
	};
	const struct method ems[] = {
		ms[0],
		{ .access = 0x0001, .name = C_M, .desc = C_DESC_IV, .has_code = true, .max_stack = 5,
		  .max_locals = 2, CODE(eret), EX(eex), FRAMES(eframes, 2) },
	};
	static const struct classfile_pick picks[] = { { .site = -1, .enter = true, .exit = true }, EXIT(9) };
	static const int32_t sites[] = { 9 };
	const struct cls c = { .methods = ms, .nmethods = 2 };
	expect_class(&c, ems, picks, 2, sites, 1, 1, NULL);
}

/* The pool may reach 65535 constants, not more: with "StackMapTable" in it,
 * count + 64 + 1 site + Probe's two fields' 8 (the method has exits);
 * without, one more for the Utf8. */
static void test_constant_pool_limit(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 1, .max_locals = 1, CODE(ret) };
	for (int no_smt = 0; no_smt <= 1; no_smt++) {
		uint32_t largest = 65535 - APPENDED - 1 - 8 - (uint32_t)no_smt;
		for (uint32_t count = largest; count <= largest + 1; count++) {
			struct bb cp = { 0 };
			for (uint32_t i = C_BASE_COUNT; i < count; i++) {
				bb_u1(&cp, 3);
				bb_u4(&cp, i);
			}
			const struct cls c = { .no_smt_utf8 = no_smt, .cp_extra = cp.p,
					       .cp_extra_len = cp.n,
					       .cp_extra_slots = (uint16_t)(count - C_BASE_COUNT),
					       .methods = &m, .nmethods = 1 };
			struct bb in = { 0 };
			build_class(&in, &c);
			if (count > largest) {
				expect_error(in.p, in.n, -ENOTSUP);
			} else {
				uint8_t *out = NULL;
				size_t out_len = 0;
				const char *why = "unset";
				int calls = 0;
				const struct classfile_hooks h = { &calls, select_all, refused_count, NULL, NULL };
				assert_int_equal(classfile_inject(in.p, in.n, &h, &out, &out_len, &why), 1);
				assert_int_equal(out[8] << 8 | out[9], 65535);
				free(out);
			}
			bb_free(&cp);
			bb_free(&in);
		}
	}
}

/* A pool without "StackMapTable": the Utf8 is appended (at BASE+64, the
 * sites after it) and names the new attribute; only then. */
static void test_stackmaptable_name_appended(void **state)
{
	(void)state;
	enum { SMT_NAME = BASE + 64, SITE = BASE + 65 };
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t eret[] = { 0x13, U2(SITE), 0xb8, U2(M_RET_V), 0xb1,
					HANDLER_AT(SITE, 3, SITE + 1) };
	static const struct xentry eex[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes[] = { HANDLER_FRAME(7) };
	const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 0, CODE(ret) };
	const struct method em = { .access = 0x0009, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 5, CODE(eret), EX(eex), FRAMES(eframes, 2),
				   .smt_name = SMT_NAME };
	const struct classfile_pick pick = EXIT(3);
	const struct cls c = { .no_smt_utf8 = true, .methods = &m, .nmethods = 1 };
	expect_class(&c, &em, &pick, 1, &pick.site, 1, 1, NULL);

	/* no frame needed: the Utf8 is appended all the same (the constants are fixed) */
	static const uint8_t eenter[] = { 0x13, U2(SITE), 0xb8, U2(M_ENTER), 0xb1 };
	const struct method em2 = { .access = 0x0009, .name = C_M, .desc = C_DESC_V,
				    .has_code = true, .max_stack = 2, CODE(eenter) };
	const struct classfile_pick pick2 = ENTER(3);
	expect_class(&c, &em2, &pick2, 1, &pick2.site, 1, 1, NULL);
}

/* Long and Double take two slots, also as the pool's last constant: the
 * appended constants' indices count them. */
static void test_wide_constants_at_end(void **state)
{
	(void)state;
	struct bb cp = { 0 };
	bb_u1(&cp, 5); bb_u4(&cp, 0xffffffff); bb_u4(&cp, 0xfffffffe);	/* 52, 53 */
	cp_utf8(&cp, "pad");						/* 54 */
	bb_u1(&cp, 6); bb_u4(&cp, 0x7ff80000); bb_u4(&cp, 0);		/* 55, 56 */
	enum { B = C_BASE_COUNT + 5, SITE = B + 64 };			/* appended from 57 */
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t eret[] = {
		0x13, U2(SITE), 0xb8, U2(B + 37),		/* ldc_w site; retV */
		0xb1,
		0x59, 0x13, U2(SITE), 0xb8, U2(B + 61), 0xbf,	/* dup; ldc_w site; thrown; athrow */
		COUNT_CODE(3, SITE + 1),			/* Probe's fields after the site */
	};
	static const struct xentry eex[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes[] = { 255, U2(7), U2(0), U2(1), 7, U2(B + 63),
					   255, U2(7), U2(0), U2(1), 7, U2(B + 63) };
	const struct method m = { .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true,
				  .max_stack = 4, .max_locals = 1, CODE(ret) };
	const struct method em = { .access = 0x0001, .name = C_M, .desc = C_DESC_V, .has_code = true,
				   .max_stack = 7, .max_locals = 1, CODE(eret), EX(eex),
				   FRAMES(eframes, 2) };
	const struct classfile_pick pick = EXIT(3);
	const struct cls c = { .cp_extra = cp.p, .cp_extra_len = cp.n, .cp_extra_slots = 5,
			       .methods = &m, .nmethods = 1 };
	expect_class(&c, &em, &pick, 1, &pick.site, 1, 1, NULL);
	bb_free(&cp);
}

/* ------------------------------------------------------------ malformed input */

/* A class with every table and several kinds of method, to cut and to corrupt. */
static void build_rich_class(struct bb *b)
{
	static const struct xentry ex[] = { { 2, 8, 11, C_OBJ }, { 0, 11, 11, 0 } };
	static const struct line lines[] = { { 0, 10 }, { 2, 11 }, { 11, 12 } };
	static const struct local lvt[] = { { 0, 12, C_X, C_I, 0 }, { 2, 9, C_N, C_I, 1 } };
	static const struct local lvtt[] = { { 0, 12, C_X, C_I, 0 } };
	static const uint8_t frames[] = { 252, U2(2), 1, 250, U2(8) };
	static const uint8_t ctor[] = { 0x2a, 0xb7, U2(C_OBJ_INIT), 0xb1 };
	static const uint8_t ret[] = { 0xb1 };
	const struct method ms[] = {
		{ .access = 0x0401, .name = C_ABS, .desc = C_DESC_V, .pre_attr = true },
		{ .access = 0x0008, .name = C_M, .desc = C_DESC_IV, .has_code = true,
		  .pre_attr = true, .max_stack = 2, .max_locals = 2, CODE(loop_code), EX(ex),
		  .lines = lines, .nlines = 3, .lvt = lvt, .nlvt = 2, .lvtt = lvtt, .nlvtt = 1,
		  FRAMES(frames, 2), .extra_attr = C_RVTA, .extra = type_annotations,
		  .extra_len = sizeof(type_annotations) },
		{ .access = 0x0001, .name = C_INIT, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 1, .max_locals = 1, CODE(ctor) },
		{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
		  .max_stack = 0, .max_locals = 1, CODE(ret) },
	};
	const struct cls c = { .methods = ms, .nmethods = 4 };
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

/* Every prefix of a good class is malformed (with methods picked); with
 * nothing picked 0 or -EINVAL; never a crash, *out untouched. */
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
		uint8_t sentinel;
		uint8_t *out = &sentinel;
		size_t out_len = 1;
		const char *why = NULL;
		int calls = 0;
		const struct classfile_hooks h = { &calls, select_none, refused_count, NULL, NULL };
		int r = classfile_inject(cut, len, &h, &out, &out_len, &why);
		assert_true(r == 0 || r == -EINVAL);
		assert_true(r == 0 ? why == NULL : why != NULL);
		assert_ptr_equal(out, &sentinel);
		free(cut);
	}
	/* the whole class is fine: its three methods with code are rewritten */
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = "unset";
	int calls = 0;
	const struct classfile_hooks h = { &calls, select_all, refused_count, NULL, NULL };
	assert_int_equal(classfile_inject(in.p, in.n, &h, &out, &out_len, &why), 3);
	assert_int_equal(calls, 3);
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
	static const uint8_t ret[] = { 0xb1 };
	for (size_t i = 0; i < sizeof(tags); i++) {
		uint8_t cp[] = { tags[i], 0, 1, 0, 1, 0, 1, 0, 1 };
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1, CODE(ret) };
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

/* A Long or Double needs two slots: one in the last slot is malformed. */
static void test_wide_constant_in_last_slot(void **state)
{
	(void)state;
	static const uint8_t tags[] = { 5, 6 };
	static const uint8_t ret[] = { 0xb1 };
	for (size_t i = 0; i < sizeof(tags); i++) {
		uint8_t cp[] = { tags[i], 0, 0, 0, 0, 0, 0, 0, 1 };
		const struct method m = { .access = 0x0009, .name = C_M, .desc = C_DESC_IV,
					  .has_code = true, .max_stack = 1, .max_locals = 1, CODE(ret) };
		const struct cls c = { .cp_extra = cp, .cp_extra_len = sizeof(cp),
				       .cp_extra_slots = 1, .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -EINVAL);
		bb_free(&in);
	}
}

/* A method name or descriptor that is not a Utf8 constant: the class is malformed. */
static void test_method_name_not_utf8(void **state)
{
	(void)state;
	static const uint8_t ret[] = { 0xb1 };
	static const uint16_t names[] = { C_THIS, 999, 0 };
	for (size_t i = 0; i < 3; i++) {
		const struct method m = { .access = 0x0009, .name = names[i], .desc = C_DESC_V,
					  .has_code = true, CODE(ret) };
		const struct cls c = { .methods = &m, .nmethods = 1 };
		struct bb in = { 0 };
		build_class(&in, &c);
		expect_error(in.p, in.n, -EINVAL);
		bb_free(&in);
	}
}

/* Code this cannot reason about: the method is refused with a reason (and
 * left as it was), the other method of the class is rewritten. */
static void test_malformed_code_refused(void **state)
{
	(void)state;
	static const uint8_t unknown_op[] = { 0x00, 0xcb, 0xb1 };
	static const uint8_t truncated[] = { 0x00, 0x11, 0x00 };		/* sipush cut */
	static const uint8_t into_middle[] = { 0x11, 0, 1, 0xa7, U2(-2), 0xb1 };	/* goto -> 1 */
	static const uint8_t out_fwd[] = { 0xa7, U2(100), 0xb1 };
	static const uint8_t out_back[] = { 0x00, 0xa7, U2(-2), 0xb1 };
	static const uint8_t out_goto_w[] = { 0xc8, U4(1000), 0xb1 };
	static const uint8_t switch_cut[] = { 0x04, 0xaa, 0, 0, U4(0), U4(0), U4(5), U4(0) };
	/* lookupswitch at 1: default +9 and 0 -> +12, both inside its own operands (4..19) */
	static const uint8_t switch_middle[] = { 0x04, 0xab, 0, 0, U4(9), U4(1), U4(0), U4(12),
						 0xb1, 0xb1 };
	static const uint8_t bad_wide[] = { 0xc4, 0x10, 0, 0, 0xb1 };
	static const uint8_t wide_cut[] = { 0x00, 0xc4, 0x84, 0, 1 };
	static const uint8_t ok[] = { 0x11, 0, 1, 0x57, 0xb1 };		/* sipush 1; pop; return */
	static const uint8_t reserved_frame[] = { 128 };
	static const uint8_t frame_in_middle[] = { 1 };			/* same at 1: inside sipush */
	static const uint8_t frame_past_end[] = { 251, U2(200) };	/* same at 200 */
	static const uint8_t uninit_in_middle[] = { 64, 8, U2(2) };		/* uninitialized(2) */
	static const uint8_t foo[] = { 1 };
	static const struct xentry ex_middle[] = { { 1, 3, 3, 0 } };
	static const struct xentry ex_at_end[] = { { 0, 3, 5, 0 } };	/* handler == code length */
	static const struct xentry ex_empty[] = { { 3, 3, 4, 0 } };	/* start == end */
	static const struct line line_middle[] = { { 2, 1 } };
	static const struct line line_at_end[] = { { 5, 1 } };
	static const struct local lvt_middle[] = { { 1, 2, C_X, C_I, 0 } };
	static const struct local lvt_past_end[] = { { 0, 9, C_X, C_I, 0 } };
	static const uint8_t ta_middle[] = { U2(1), 0x43, U2(2), 0, U2(C_X), U2(0) };
	static const uint8_t ta_bad_target[] = { U2(1), 0x13, 0, U2(C_X), U2(0) };
	static const uint8_t ta_bad_value[] = { U2(1), 0x43, U2(0), 0, U2(C_X), U2(1), U2(C_N), 'Q', U2(0) };
	static const uint8_t ctor_underflow[] = { 0x57, 0x2a, 0xb7, U2(C_OBJ_INIT), 0xb1 };
	static const uint8_t ctor_overflow[] = { 0x2a, 0x2a, 0xb7, U2(C_OBJ_INIT), 0x57, 0xb1 };
	static const uint8_t ctor_ok[] = { 0x2a, 0xb7, U2(C_OBJ_INIT), 0xb1 };
	static const struct {
		const char *what;
		struct method m;
		struct classfile_pick pick;
		const char *why;	/* a part of the reason */
	} cases[] = {
		{ "unknown opcode", { .code = unknown_op, .code_len = 3 }, EXIT(1), "instruction" },
		{ "unknown opcode, enter only", { .code = unknown_op, .code_len = 3 }, ENTER(1), "instruction" },
		{ "truncated", { .code = truncated, .code_len = 3 }, BOTH(1), "instruction" },
		{ "into the middle", { CODE(into_middle) }, EXIT(1), "no instruction" },
		{ "out forward", { CODE(out_fwd) }, ENTER(1), "no instruction" },
		{ "out backward", { CODE(out_back) }, EXIT(1), "no instruction" },
		{ "goto_w out", { CODE(out_goto_w) }, EXIT(1), "no instruction" },
		{ "switch past the end", { CODE(switch_cut) }, EXIT(1), "instruction" },
		{ "switch into the middle", { CODE(switch_middle) }, ENTER(1), "no instruction" },
		{ "wide bipush", { CODE(bad_wide) }, EXIT(1), "instruction" },
		{ "wide cut", { CODE(wide_cut) }, ENTER(1), "instruction" },
		{ "reserved frame type", { CODE(ok), FRAMES(reserved_frame, 1) }, EXIT(1), "StackMapTable" },
		{ "frame inside an instruction", { CODE(ok), FRAMES(frame_in_middle, 1) }, EXIT(1), "frame not at an instruction" },
		{ "frame past the end", { CODE(ok), FRAMES(frame_past_end, 1) }, ENTER(1), "frame not at an instruction" },
		{ "uninitialized inside an instruction", { CODE(ok), FRAMES(uninit_in_middle, 1) }, ENTER(1), "Uninitialized offset" },
		{ "exception range inside", { CODE(ok), EX(ex_middle) }, EXIT(1), "exception-table" },
		{ "handler at the end", { CODE(ok), EX(ex_at_end) }, ENTER(1), "exception-table" },
		{ "empty range", { CODE(ok), EX(ex_empty) }, EXIT(1), "exception-table" },
		{ "line inside", { CODE(ok), .lines = line_middle, .nlines = 1 }, EXIT(1), "line" },
		{ "line at the end", { CODE(ok), .lines = line_at_end, .nlines = 1 }, EXIT(1), "line" },
		{ "local inside", { CODE(ok), .lvt = lvt_middle, .nlvt = 1 }, EXIT(1), "local-variable" },
		{ "local past the end", { CODE(ok), .lvtt = lvt_past_end, .nlvtt = 1 }, ENTER(1), "local-variable" },
		{ "type annotation inside", { CODE(ok), .extra_attr = C_RVTA, .extra = ta_middle,
					      .extra_len = sizeof(ta_middle) }, EXIT(1), "annotation" },
		{ "type annotation target", { CODE(ok), .extra_attr = C_RITA, .extra = ta_bad_target,
					      .extra_len = sizeof(ta_bad_target) }, EXIT(1), "annotation" },
		{ "type annotation value", { CODE(ok), .extra_attr = C_RVTA, .extra = ta_bad_value,
					     .extra_len = sizeof(ta_bad_value) }, EXIT(1), "annotation" },
		{ "unknown attribute", { CODE(ok), .extra_attr = C_FOO, .extra = foo, .extra_len = 1 },
		  ENTER(1), "unknown attribute" },
		{ "bad descriptor", { .desc = C_X, CODE(ok) }, ENTER(1), "descriptor" },
		/* (I)V on an instance method takes slots 0 and 1: max_locals 1 cannot
		 * hold them, and the prologue would load slot 1 (found by fuzz_classfile) */
		{ "parameters past max_locals", { .desc = C_DESC_IV, CODE(ok) }, ENTER(1), "max_locals" },
		{ "code length 0", { .code = ok, .code_len = 0 }, EXIT(1), "code length" },
		{ "constructor underflow", { .name = C_INIT, CODE(ctor_underflow) }, EXIT(1), "underflow" },
		{ "constructor overflow", { .name = C_INIT, CODE(ctor_overflow) }, EXIT(1), "overflow" },
		/* its frames are read for the code before super() first (a leak
		 * there found by fuzz_classfile under ASan) */
		{ "constructor, reserved frame type", { .name = C_INIT, CODE(ctor_ok),
		  FRAMES(reserved_frame, 1) }, EXIT(1), "StackMapTable" },
	};
	static const uint8_t ret[] = { 0xb1 };
	static const uint8_t eret[] = { 0x13, U2(SITE0 + 1), 0xb8, U2(M_RET_V), 0xb1,
					HANDLER_AT(SITE0 + 1, 2, SITE0 + 2) };
	static const struct xentry eex[] = { { 0, 7, 7, 0 }, COUNT_ENTRY(7) };
	static const uint8_t eframes[] = { HANDLER_FRAME(7) };
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct method bad = cases[k].m;
		bad.access = 0x0001;
		bad.name = bad.name ? bad.name : C_M;
		bad.desc = bad.desc ? bad.desc : C_DESC_V;
		bad.has_code = true;
		bad.max_stack = 1;
		bad.max_locals = 1;
		const struct method ms[] = {
			bad,
			{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
			  .max_stack = 0, .max_locals = 1, CODE(ret) },
		};
		const struct method ems[] = {
			bad,
			{ .access = 0x0001, .name = C_X, .desc = C_DESC_V, .has_code = true,
			  .max_stack = 5, .max_locals = 1, CODE(eret), EX(eex), FRAMES(eframes, 2) },
		};
		const struct classfile_pick picks[] = { cases[k].pick, EXIT(2) };
		static const int32_t sites[] = { 1, 2 };
		const struct cls c = { .methods = ms, .nmethods = 2 };
		char label[96];
		snprintf(label, sizeof(label), "%s: ", cases[k].what);
		g_case = label;
		struct sel s;
		expect_class(&c, ems, picks, 2, sites, 2, 1, &s);
		if (s.refused != 1 || !strstr(s.rwhy[0], cases[k].why))
			print_error("%srefused %zu times, reason '%s', expected '%s'\n", label,
				    s.refused, s.refused ? s.rwhy[0] : "", cases[k].why);
		assert_int_equal(s.refused, 1);
		assert_string_equal(s.rname[0], bad.name == C_INIT ? "<init>" : "m");
		assert_non_null(strstr(s.rwhy[0], cases[k].why));
		g_case = "";
	}
}

/* ------------------------------------------------------------ stapjava.Probe */

static void test_probe_methods_table(void **state)
{
	(void)state;
	for (int i = 0; i < CF_NPROBE; i++) {
		assert_string_equal(classfile_probe_methods[i].name, probe_fns[i].name);
		assert_string_equal(classfile_probe_methods[i].desc, probe_fns[i].desc);
	}
}

/* The class the calls go to, byte for byte. */
static void test_probe_class(void **state)
{
	(void)state;
	struct bb want = { 0 };
	bb_u4(&want, 0xCAFEBABE);
	bb_u2(&want, 0);
	bb_u2(&want, 52);			/* version 52.0 */
	bb_u2(&want, 41);			/* constant_pool_count: #1 to #40 */
	cp_utf8(&want, "stapjava/Probe");	/* #1 */
	bb_u1(&want, 7); bb_u2(&want, 1);	/* #2 Class #1 (this) */
	cp_utf8(&want, "java/lang/Object");	/* #3 */
	bb_u1(&want, 7); bb_u2(&want, 3);	/* #4 Class #3 (super) */
	for (int i = 0; i < CF_NPROBE; i++) {	/* #5 + 2i name, #6 + 2i descriptor */
		cp_utf8(&want, probe_fns[i].name);
		cp_utf8(&want, probe_fns[i].desc);
	}
	cp_utf8(&want, "lost");			/* #37 */
	cp_utf8(&want, "[[I");			/* #38 */
	cp_utf8(&want, "overflows");		/* #39 */
	cp_utf8(&want, "I");			/* #40 */
	bb_u2(&want, 0x0031);			/* public final super */
	bb_u2(&want, 2);			/* this */
	bb_u2(&want, 4);			/* super */
	bb_u2(&want, 0);			/* interfaces */
	bb_u2(&want, 2);			/* fields, public static: lost [[I, overflows I */
	bb_u2(&want, 0x0009); bb_u2(&want, 37); bb_u2(&want, 38); bb_u2(&want, 0);
	bb_u2(&want, 0x0009); bb_u2(&want, 39); bb_u2(&want, 40); bb_u2(&want, 0);
	bb_u2(&want, 16);			/* methods: */
	for (int i = 0; i < 16; i++) {
		bb_u2(&want, 0x0109);		/* public static native */
		bb_u2(&want, 5 + 2 * (uint32_t)i);
		bb_u2(&want, 6 + 2 * (uint32_t)i);
		bb_u2(&want, 0);		/* no attributes */
	}
	bb_u2(&want, 0);			/* no class attributes */
	uint8_t *got = NULL;
	size_t len = 0;
	assert_int_equal(classfile_probe_class(&got, &len), 0);
	compare(got, len, &want);
	free(got);
	bb_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enter_no_params),
		cmocka_unit_test(test_enter_every_parameter_kind),
		cmocka_unit_test(test_enter_one_parameter),
		cmocka_unit_test(test_enter_loop_at_zero),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_exit_each_return),
		cmocka_unit_test(test_exit_site_past_rows),
		cmocka_unit_test(test_enter_exit_handler_range),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_switch_padding),
		cmocka_unit_test(test_goto_widened),
		cmocka_unit_test(test_conditional_branch_refused),
		cmocka_unit_test(test_jsr_widened_version_49),
		cmocka_unit_test(test_code_and_stack_limits),
		cmocka_unit_test(test_tables_moved),
		cmocka_unit_test(test_frame_forms),
		cmocka_unit_test(test_frame_delta_grows),
		cmocka_unit_test(test_frame_uninitialized_offsets),
		cmocka_unit_test(test_synchronized),
		cmocka_unit_test(test_constructor_plain),
		cmocka_unit_test(test_constructor_branch_before_init),
		cmocka_unit_test(test_constructor_new_before_init),
		cmocka_unit_test(test_constructor_two_ranges),
		cmocka_unit_test(test_constructor_always_throws),
		cmocka_unit_test(test_constructor_store_to_this_slot),
		cmocka_unit_test(test_constructor_frame_without_this),
		cmocka_unit_test(test_none_picked),
		cmocka_unit_test(test_lone_return_told),
		cmocka_unit_test(test_unpicked_method_untouched),
		cmocka_unit_test(test_constant_pool_limit),
		cmocka_unit_test(test_stackmaptable_name_appended),
		cmocka_unit_test(test_wide_constants_at_end),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_unknown_constant_tag),
		cmocka_unit_test(test_wide_constant_in_last_slot),
		cmocka_unit_test(test_method_name_not_utf8),
		cmocka_unit_test(test_malformed_code_refused),
		cmocka_unit_test(test_notify_call_sites),
		cmocka_unit_test(test_probe_methods_table),
		cmocka_unit_test(test_probe_class),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
