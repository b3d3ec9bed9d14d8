/* codeattr.c: see codeattr.h. */
#include "codeattr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "codeedit.h"
#include "descriptor.h"
#include "preinit.h"
#include "stackmap.h"

#define MAX_ATTRS 64u

enum attr_kind { A_LNT, A_LVT, A_LVTT, A_SMT, A_TYPE_ANNOTATIONS, A_UNKNOWN };

struct attr {
	uint32_t name, len;
	const uint8_t *body;
	uint8_t kind;
};

struct method {
	const struct codeattr_ctx *c;
	uint32_t max_stack, max_locals, code_len, nex, nattr;
	const uint8_t *code, *ex;
	struct attr attr[MAX_ATTRS];
	struct code_layout *layout;
	const char *why;
};

static int refuse(struct method *m, int err, const char *why)
{
	if (!m->why)
		m->why = why;
	return err;
}

static uint32_t get_u2(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint8_t attr_kind(const struct cfpool *cp, uint32_t name)
{
	if (cfpool_utf8_is(cp, name, "LineNumberTable"))
		return A_LNT;
	if (cfpool_utf8_is(cp, name, "LocalVariableTable"))
		return A_LVT;
	if (cfpool_utf8_is(cp, name, "LocalVariableTypeTable"))
		return A_LVTT;
	if (cfpool_utf8_is(cp, name, "StackMapTable"))
		return A_SMT;
	if (cfpool_utf8_is(cp, name, "RuntimeVisibleTypeAnnotations") ||
	    cfpool_utf8_is(cp, name, "RuntimeInvisibleTypeAnnotations"))
		return A_TYPE_ANNOTATIONS;
	return A_UNKNOWN;
}

static int parse(struct method *m, const uint8_t *body, uint32_t len)
{
	struct cf_rd r = { .p = body, .len = len };
	bool smt = false;

	m->max_stack = rd_u2(&r);
	m->max_locals = rd_u2(&r);
	m->code_len = rd_u4(&r);
	m->code = body + r.off;
	rd_skip(&r, m->code_len);
	m->nex = rd_u2(&r);
	m->ex = body + r.off;
	rd_skip(&r, (size_t)m->nex * 8);
	m->nattr = rd_u2(&r);
	if (r.err)
		return refuse(m, -EINVAL, "Code truncated");
	if (m->nattr > MAX_ATTRS)
		return refuse(m, -ENOTSUP, "too many attributes in code");
	for (uint32_t i = 0; i < m->nattr; i++) {
		struct attr *a = &m->attr[i];
		a->name = rd_u2(&r);
		a->len = rd_u4(&r);
		a->body = body + r.off;
		rd_skip(&r, a->len);
		if (r.err)
			return refuse(m, -EINVAL, "Code attribute truncated");
		a->kind = attr_kind(m->c->cp, a->name);
		if (a->kind == A_UNKNOWN)
			return refuse(m, -ENOTSUP, "an unknown attribute in code");
		if (a->kind == A_SMT && smt)
			return refuse(m, -EINVAL, "two StackMapTables");
		smt |= a->kind == A_SMT;
	}
	if (r.off != len)
		return refuse(m, -EINVAL, "Code length does not match its content");
	if (m->code_len == 0 || m->code_len > 65535)
		return refuse(m, -EINVAL, "code length out of range");
	return 0;
}

/* ---- the injected code */

static void put_call(struct cf_wr *w, const struct codeattr_ctx *c, enum classfile_probe_fn fn)
{
	wr_u1(w, OP_INVOKESTATIC);
	wr_u2(w, c->probe[fn]);
}

static void put_site(struct cf_wr *w, const struct codeattr_ctx *c)
{
	wr_u1(w, OP_LDC_W);
	wr_u2(w, c->site);
}

/* Parameters of the method, as (load opcode, slot, argX) triples, and the
 * slots they take with `this` in *SLOTS. Returns the count or -1. */
static int params(const struct codeattr_ctx *c, uint8_t *load, uint32_t *slot, uint8_t *fn,
		  uint32_t *slots)
{
	size_t pos = 1;
	uint32_t s = c->is_static ? 0 : 1;
	int n = 0;

	if (c->desc_len < 3 || c->desc[0] != '(')
		return -1;
	while (pos < c->desc_len && c->desc[pos] != ')') {
		char kind;
		int size = descriptor_next(c->desc, c->desc_len, &pos, &kind);
		if (size < 0 || n >= 255 || s > 255)
			return -1;
		switch (kind) {
		case 'J': load[n] = OP_LLOAD; fn[n] = CF_ARG_J; break;
		case 'F': load[n] = OP_FLOAD; fn[n] = CF_ARG_F; break;
		case 'D': load[n] = OP_DLOAD; fn[n] = CF_ARG_D; break;
		case 'L': case '[': load[n] = OP_ALOAD; fn[n] = CF_ARG_L; break;
		default: load[n] = OP_ILOAD; fn[n] = CF_ARG_I; break;
		}
		slot[n++] = s;
		s += (uint32_t)size;
	}
	*slots = s;
	return pos < c->desc_len ? n : -1;
}

/* enter, or enterArgs + argX... + entered behind an ifeq to the end. */
static int build_prologue(struct method *m, struct cf_wr *w, int *nparams)
{
	const struct codeattr_ctx *c = m->c;
	uint8_t load[256], fn[256];
	uint32_t slot[256], slots = 0;
	int n = params(c, load, slot, fn, &slots);

	if (n < 0)
		return refuse(m, -EINVAL, "a malformed method descriptor");
	/* the prologue loads each parameter: a class whose max_locals cannot hold
	 * them (JVMS 4.7.3) would get loads of locals that do not exist */
	if (slots > m->max_locals)
		return refuse(m, -EINVAL, "the parameters do not fit in max_locals");
	*nparams = n;
	put_site(w, c);
	if (n == 0) {
		put_call(w, c, CF_ENTER);
		return w->err ? -ENOMEM : 0;
	}
	put_call(w, c, CF_ENTER_ARGS);
	size_t ifeq_at = w->len;
	wr_u1(w, OP_IFEQ);
	wr_u2(w, 0);
	for (int i = 0; i < n; i++) {
		wr_u1(w, load[i]);
		wr_u1(w, slot[i]);
		put_call(w, c, fn[i]);
	}
	put_site(w, c);
	put_call(w, c, CF_ENTERED);
	if (w->err)
		return -ENOMEM;
	uint32_t off = (uint32_t)(w->len - ifeq_at);
	w->p[ifeq_at + 1] = (uint8_t)(off >> 8);
	w->p[ifeq_at + 2] = (uint8_t)off;
	return 0;
}

/* The code in front of a return: the value (if any) duplicated, the site, retX. */
static void build_exit(const struct codeattr_ctx *c, uint8_t op, struct cf_wr *w)
{
	static const struct { uint8_t dup; uint8_t fn; } by_op[] = {
		[OP_IRETURN - OP_IRETURN] = { OP_DUP, CF_RET_I },
		[OP_LRETURN - OP_IRETURN] = { OP_DUP2, CF_RET_J },
		[OP_FRETURN - OP_IRETURN] = { OP_DUP, CF_RET_F },
		[OP_DRETURN - OP_IRETURN] = { OP_DUP2, CF_RET_D },
		[OP_ARETURN - OP_IRETURN] = { OP_DUP, CF_RET_L },
		[OP_RETURN - OP_IRETURN] = { 0, CF_RET_V },
	};
	const typeof(by_op[0]) *e = &by_op[op - OP_IRETURN];

	if (e->dup)
		wr_u1(w, e->dup);
	put_site(w, c);
	put_call(w, c, e->fn);
}

/* One copy of the handler after the body, 0 where an operand goes: the
 * catch-all (8 bytes) and, right after it, the handler over its call of
 * Probe.thrown (CODEATTR_COUNT_AT): a report that failed there, with no
 * stack left for the call (a StackOverflowError), is counted without a
 * call, and what the call threw goes on. build_handler() writes it,
 * codeattr_is_handler() knows it again. */
static const uint8_t handler_code[CODEATTR_HANDLER_LEN] = {
	OP_DUP, OP_LDC_W, 0, 0, OP_INVOKESTATIC, 0, 0, OP_ATHROW,   /* thrown(t, site); rethrow */
	/* Probe.lost[row][col]++ */
	OP_GETSTATIC, 0, 0, OP_SIPUSH, 0, 0, OP_AALOAD, OP_SIPUSH, 0, 0, OP_DUP2, OP_IALOAD,
	OP_ICONST_1, OP_IADD, OP_IASTORE,
	/* Probe.overflows++: the agent looks at the rows when it changes */
	OP_GETSTATIC, 0, 0, OP_ICONST_1, OP_IADD, OP_PUTSTATIC, 0, 0, OP_ATHROW,
};
_Static_assert(sizeof(handler_code) == CODEATTR_HANDLER_LEN, "one copy of the handler");

static void build_handler(const struct codeattr_ctx *c, struct cf_wr *w)
{
	const uint32_t operand[][2] = {
		{ 2, c->site }, { 5, c->probe[CF_THROWN] }, { 9, c->lost_field },
		{ 12, (uint32_t)c->site_id / CLASSFILE_LOST_ROW }, { 16, (uint32_t)c->site_id % CLASSFILE_LOST_ROW },
		{ 24, c->overflows_field }, { 29, c->overflows_field },
	};
	uint8_t h[CODEATTR_HANDLER_LEN];

	memcpy(h, handler_code, sizeof h);
	for (size_t i = 0; i < sizeof operand / sizeof operand[0]; i++) {
		h[operand[i][0]] = (uint8_t)(operand[i][1] >> 8);
		h[operand[i][0] + 1] = (uint8_t)operand[i][1];
	}
	wr_bytes(w, h, sizeof h);
}

bool codeattr_is_handler(const uint8_t *p)
{
	for (size_t i = 0; i < CODEATTR_HANDLER_LEN; i++)
		if (handler_code[i] && p[i] != handler_code[i])
			return false;
	return true;
}

unsigned codeattr_notify_kind(const struct cfpool *cp, uint8_t op, uint32_t idx)
{
	const char *n, *d;
	size_t nl, dl;
	uint8_t tag;

	if (op != OP_INVOKEVIRTUAL && op != OP_INVOKESPECIAL && op != OP_INVOKEINTERFACE)
		return 0;
	tag = cfpool_tag(cp, idx);
	if ((tag != CP_METHODREF && tag != CP_IMETHODREF) || cfpool_ref(cp, idx, &n, &nl, &d, &dl) < 0 ||
	    dl != 3 || memcmp(d, "()V", 3) != 0)
		return 0;
	if (nl == 6 && memcmp(n, "notify", 6) == 0)
		return 1;
	return nl == 9 && memcmp(n, "notifyAll", 9) == 0 ? 2 : 0;
}

/* ---- the pool for preinit.h */

static const char *pool_ref_desc(void *ctx, uint32_t idx, size_t *len)
{
	const char *n, *d;
	size_t nl;

	return cfpool_ref(ctx, idx, &n, &nl, &d, len) == 0 ? d : NULL;
}

static bool pool_ref_is_init(void *ctx, uint32_t idx)
{
	const char *n, *d;
	size_t nl, dl;
	uint8_t tag = cfpool_tag(ctx, idx);

	return (tag == CP_METHODREF || tag == CP_IMETHODREF) &&
	       cfpool_ref(ctx, idx, &n, &nl, &d, &dl) == 0 && nl == 6 && memcmp(n, "<init>", 6) == 0;
}

/* PRE: the constructor's code before `this` is initialized (preinit.h). */
static int scan_preinit(struct method *m, uint8_t *pre)
{
	struct preinit_handler h[256];
	struct preinit_pool pool = { (void *)m->c->cp, pool_ref_desc, pool_ref_is_init };
	size_t nh = 0;

	for (uint32_t i = 0; i < m->nex; i++) {
		const uint8_t *e = m->ex + 8 * i;
		if (nh == sizeof(h) / sizeof(h[0]))
			return refuse(m, -ENOTSUP, "too many exception handlers in a constructor");
		h[nh++] = (struct preinit_handler){ get_u2(e), get_u2(e + 2), get_u2(e + 4) };
	}
	int rc = preinit_scan(m->code, m->code_len, m->max_stack, m->max_locals, h, nh, &pool, pre,
			      &m->why);
	return rc < 0 ? rc : 0;
}

/* ---- relocation of the tables */

static uint32_t map_pc(void *ctx, uint32_t pc)
{
	return codeedit_map(ctx, pc);
}

/* A range [START, START+LEN) in new offsets; a range from 0 still starts at 0,
 * so the prologue sees the method's parameters and has its first line. */
static int map_range(struct method *m, uint32_t start, uint32_t len, uint32_t *ns, uint32_t *nlen)
{
	uint32_t end = start + len;

	if (!codeedit_is_insn(m->layout, start) || !codeedit_is_insn(m->layout, end))
		return refuse(m, -ENOTSUP, "a local-variable range not at instruction boundaries");
	*ns = start ? codeedit_map(m->layout, start) : 0;
	*nlen = codeedit_map(m->layout, end) - *ns;
	return 0;
}

static int copy_lnt(struct method *m, struct cf_rd *r, struct cf_wr *w)
{
	uint32_t n = rd_u2(r);

	wr_u2(w, n);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		uint32_t pc = rd_u2(r);
		if (!codeedit_is_insn(m->layout, pc) || pc == m->code_len)
			return refuse(m, -ENOTSUP, "a line number not at an instruction");
		wr_u2(w, pc ? codeedit_map(m->layout, pc) : 0);
		wr_u2(w, rd_u2(r));
	}
	return 0;
}

/* A (start_pc, length) pair, as the LVT and localvar_target have it, moved
 * with the code. */
static int copy_code_range(struct method *m, struct cf_rd *r, struct cf_wr *w)
{
	uint32_t start = rd_u2(r), len = rd_u2(r), ns, nl;

	if (map_range(m, start, len, &ns, &nl) < 0)
		return -ENOTSUP;
	wr_u2(w, ns);
	wr_u2(w, nl);
	return 0;
}

static int copy_lvt(struct method *m, struct cf_rd *r, struct cf_wr *w)
{
	uint32_t n = rd_u2(r);

	wr_u2(w, n);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		if (copy_code_range(m, r, w) < 0)
			return -ENOTSUP;
		wr_u2(w, rd_u2(r));
		wr_u2(w, rd_u2(r));
		wr_u2(w, rd_u2(r));
	}
	return 0;
}

/* element_value (JVMS 4.7.16.1), copied unchanged; DEPTH bounds nesting. */
static int skip_element_value(struct cf_rd *r, unsigned depth);

static int skip_annotation(struct cf_rd *r, unsigned depth)
{
	rd_skip(r, 2);
	uint32_t n = rd_u2(r);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		rd_skip(r, 2);
		if (skip_element_value(r, depth) < 0)
			return -EINVAL;
	}
	return r->err ? -EINVAL : 0;
}

static int skip_element_value(struct cf_rd *r, unsigned depth)
{
	if (depth > 32)
		return -EINVAL;
	switch (rd_u1(r)) {
	case 'B': case 'C': case 'D': case 'F': case 'I': case 'J': case 'S': case 'Z':
	case 's': case 'c':
		rd_skip(r, 2);
		break;
	case 'e':
		rd_skip(r, 4);
		break;
	case '@':
		return skip_annotation(r, depth + 1);
	case '[': {
		uint32_t n = rd_u2(r);
		for (uint32_t i = 0; i < n && !r->err; i++)
			if (skip_element_value(r, depth + 1) < 0)
				return -EINVAL;
		break;
	}
	default:
		return -EINVAL;
	}
	return r->err ? -EINVAL : 0;
}

/* Runtime(In)VisibleTypeAnnotations of code: their offsets and ranges move. */
static int copy_type_annotations(struct method *m, struct cf_rd *r, struct cf_wr *w)
{
	uint32_t n = rd_u2(r);

	wr_u2(w, n);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		uint32_t target = rd_u1(r);
		wr_u1(w, target);
		if (target == 0x40 || target == 0x41) {          /* localvar_target */
			uint32_t k = rd_u2(r);
			wr_u2(w, k);
			for (uint32_t j = 0; j < k && !r->err; j++) {
				if (copy_code_range(m, r, w) < 0)
					return -ENOTSUP;
				wr_u2(w, rd_u2(r));
			}
		} else if (target == 0x42) {                     /* catch_target: the table keeps its order */
			wr_u2(w, rd_u2(r));
		} else if (target >= 0x43 && target <= 0x4b) {   /* offset_target, type_argument_target */
			uint32_t pc = rd_u2(r);
			if (!codeedit_is_insn(m->layout, pc) || pc == m->code_len)
				return refuse(m, -EINVAL, "a type annotation not at an instruction");
			wr_u2(w, codeedit_map(m->layout, pc));
			if (target >= 0x47)
				wr_u1(w, rd_u1(r));
		} else {
			return refuse(m, -EINVAL, "a type annotation target that cannot be in code");
		}
		size_t path_at = r->off;
		uint32_t path = rd_u1(r);
		rd_skip(r, 2 * (size_t)path);
		if (r->err || skip_annotation(r, 0) < 0)
			return refuse(m, -EINVAL, "a type annotation malformed");
		wr_bytes(w, r->p + path_at, r->off - path_at);
	}
	return r->err ? refuse(m, -EINVAL, "type annotations truncated") : 0;
}

/* ---- the new attribute */

struct built {
	uint8_t *prologue;
	size_t prologue_len;
	uint8_t exits[6][8];
	size_t exit_len[6];
	uint8_t handler[2 * CODEATTR_HANDLER_LEN];   /* the catch-all; in constructors, a second copy for before super() */
	uint32_t handler_len;    /* of one copy */
	bool post_handler;       /* the first copy, for code where `this` is initialized */
	bool pre_handler;        /* the copy after it, for code before this()/super() returns */
	uint8_t (*line)[6];      /* per line: ldc_w site; invokestatic enter */
	uint8_t notify[2][7];    /* per kind: dup; ldc_w site; invokestatic notify */
	bool has_notify;
	struct code_insert *ins;
	size_t nins;
	int nparams;
	bool has_handler;
	size_t handler_k;
	uint8_t *pre;            /* constructors: per old pc, 1 before `this` is initialized */
};

/* May the constructor's code before this()/super() be covered by a handler
 * whose frame says local 0 is uninitializedThis? The verifier checks each
 * covered instruction's locals against that frame, so local 0 must hold
 * `this` there: no store to it (javac never makes one) and no original
 * frame in that code that says otherwise (a tool may forget it). If not, the
 * code before super() stays uncovered, as in JDKs' own rewriters. */
static bool preinit_keeps_this(const struct method *m, const uint8_t *pre)
{
	for (uint32_t pc = 0; pc < m->code_len;) {
		struct bc_insn in;
		if (bytecode_decode(m->code, m->code_len, pc, &in) < 0)
			return false;
		const uint8_t *p = m->code + pc;
		bool stores = (in.op >= 0x36 && in.op <= 0x3a) || in.op == 0x84;
		bool store0 = in.op == 0x3b || in.op == 0x3f || in.op == 0x43 || in.op == 0x47 ||
			      in.op == 0x4b;
		if (pre[pc] && (store0 || (stores && (in.wide ? (uint32_t)p[2] << 8 | p[3] : p[1]) == 0)))
			return false;
		pc += in.len;
	}
	const struct attr *smt = NULL;
	for (uint32_t i = 0; i < m->nattr; i++)
		if (m->attr[i].kind == A_SMT)
			smt = &m->attr[i];
	if (!smt)
		return true;
	struct stackmap sm = { 0 };
	const char *why = NULL;
	if (stackmap_decode(smt->body, smt->len, &sm, &why) < 0) {
		stackmap_free(&sm);
		return false;
	}
	/* replay the frames' locals: how many, and whether the first is `this` */
	size_t pos = 1;
	uint32_t count = 1;
	char kind;
	while (pos < m->c->desc_len && m->c->desc[pos] != ')' &&
	       descriptor_next(m->c->desc, m->c->desc_len, &pos, &kind) >= 0)
		count++;
	bool first_this = true, ok = true;
	for (size_t i = 0; i < sm.n && ok; i++) {
		const struct sm_frame *f = &sm.f[i];
		if (f->form == SM_CHOP) {
			count = f->chop >= count ? 0 : count - f->chop;
			first_this &= count > 0;
		} else if (f->form == SM_APPEND) {
			if (count == 0)
				first_this = sm.pool[f->locals].tag == SM_T_UNINIT_THIS;
			count += f->nlocals;
		} else if (f->form == SM_FULL) {
			count = f->nlocals;
			first_this = count > 0 && sm.pool[f->locals].tag == SM_T_UNINIT_THIS;
		}
		ok = f->pc >= m->code_len || !pre[f->pc] || first_this;
	}
	stackmap_free(&sm);
	return ok;
}

/* Room for two more inserts. */
static int ins_room(struct built *b, size_t *cap)
{
	if (b->nins + 2 <= *cap)
		return 0;
	*cap *= 2;
	struct code_insert *n = realloc(b->ins, *cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	b->ins = n;
	return 0;
}

/* The inserts: prologue at 0, each line's call, code before each return,
 * the handler at the end. A line's call goes first at its pc, labelled:
 * a branch there runs it, then what the method's own calls put there. */
static int plan(struct method *m, struct built *b)
{
	const struct codeattr_ctx *c = m->c;
	struct cf_wr w = { 0 };
	size_t cap = 16, nl = 0;

	b->ins = malloc(cap * sizeof(*b->ins));
	if (!b->ins)
		return -ENOMEM;
	if (c->nlines) {
		b->line = malloc(c->nlines * sizeof *b->line);
		if (!b->line)
			return -ENOMEM;
		for (size_t k = 0; k < c->nlines; k++) {
			uint8_t *l = b->line[k];
			l[0] = OP_LDC_W;
			l[1] = (uint8_t)(c->lines[k].site >> 8);
			l[2] = (uint8_t)c->lines[k].site;
			l[3] = OP_INVOKESTATIC;
			l[4] = (uint8_t)(c->probe[CF_ENTER] >> 8);
			l[5] = (uint8_t)c->probe[CF_ENTER];
		}
	}
	if (c->enter) {
		int rc = build_prologue(m, &w, &b->nparams);
		if (rc < 0) {
			free(w.p);
			return rc;
		}
		b->prologue = w.p;
		b->prologue_len = w.len;
		b->ins[b->nins++] = (struct code_insert){ 0, b->prologue, (uint32_t)w.len, false };
	}
	for (int k = 0; k < 2; k++) {
		uint8_t *n = b->notify[k];
		n[0] = OP_DUP;
		n[1] = OP_LDC_W;
		n[2] = (uint8_t)(c->notify_site[k] >> 8);
		n[3] = (uint8_t)c->notify_site[k];
		n[4] = OP_INVOKESTATIC;
		n[5] = (uint8_t)(c->probe[CF_NOTIFY] >> 8);
		n[6] = (uint8_t)c->probe[CF_NOTIFY];
	}
	if (!c->exit && !c->nlines && !c->notify_site[0] && !c->notify_site[1])
		return 0;
	for (uint8_t op = OP_IRETURN; c->exit && op <= OP_RETURN; op++) {
		struct cf_wr e = { 0 };
		build_exit(c, op, &e);
		if (e.err)
			return -ENOMEM;
		memcpy(b->exits[op - OP_IRETURN], e.p, e.len);
		b->exit_len[op - OP_IRETURN] = e.len;
		free(e.p);
	}
	bool post_init = true;
	if (c->exit && c->name_len == 6 && memcmp(c->name, "<init>", 6) == 0) {
		b->pre = malloc(m->code_len);
		if (!b->pre)
			return -ENOMEM;
		int rc = scan_preinit(m, b->pre);
		if (rc < 0)
			return rc;
		post_init = false;
	}
	for (uint32_t pc = 0; pc < m->code_len;) {
		struct bc_insn in;
		if (bytecode_decode(m->code, m->code_len, pc, &in) < 0)
			return refuse(m, -EINVAL, "unknown or truncated instruction");
		if (!b->pre || !b->pre[pc])
			post_init = true;
		for (; nl < c->nlines && c->lines[nl].pc == pc; nl++) {
			if (ins_room(b, &cap) < 0)
				return -ENOMEM;
			b->ins[b->nins++] = (struct code_insert){ pc, b->line[nl], 6, true };
		}
		if (nl < c->nlines && c->lines[nl].pc < pc)
			return refuse(m, -EINVAL, "a LineNumberTable entry not at an instruction");
		/* after a line's call at the same pc: a branch lands on the line's */
		unsigned kind = in.len >= 3 ? codeattr_notify_kind(c->cp, in.op, get_u2(m->code + pc + 1)) : 0;
		if (kind && c->notify_site[kind - 1]) {
			if (ins_room(b, &cap) < 0)
				return -ENOMEM;
			b->ins[b->nins++] = (struct code_insert){ pc, b->notify[kind - 1], 7, true };
			b->has_notify = true;
		}
		if (c->exit && in.kind == BC_RETURN) {
			if (ins_room(b, &cap) < 0)
				return -ENOMEM;
			uint8_t k = in.op - OP_IRETURN;
			b->ins[b->nins++] = (struct code_insert){ pc, b->exits[k], (uint32_t)b->exit_len[k], true };
		}
		pc += in.len;
	}
	if (nl < c->nlines)
		return refuse(m, -EINVAL, "a LineNumberTable entry not at an instruction");
	if (!c->exit)
		return 0;
	b->post_handler = post_init;
	b->pre_handler = b->pre && preinit_keeps_this(m, b->pre);
	if (!b->post_handler && !b->pre_handler)
		return 0;   /* every path throws before `this` is initialized, out of reach */
	if (c->site_id < 0 || (uint32_t)c->site_id >= CLASSFILE_SITES_MAX)
		return refuse(m, -ENOTSUP, "a site id past the lost count's rows");
	struct cf_wr h = { 0 };
	build_handler(c, &h);
	if (h.err)
		return -ENOMEM;
	b->handler_len = (uint32_t)h.len;
	memcpy(b->handler, h.p, h.len);
	if (b->post_handler && b->pre_handler)
		memcpy(b->handler + h.len, h.p, h.len);
	uint32_t all = b->handler_len * (b->post_handler + b->pre_handler);
	b->handler_k = b->nins;
	b->ins[b->nins++] = (struct code_insert){ m->code_len, b->handler, all, false };
	b->has_handler = true;
	free(h.p);
	return 0;
}

/* Catch-all entries over the body. In constructors, code where `this` is
 * initialized goes to the first copy of the handler, code before the
 * this()/super() call to the second, whose frame holds uninitializedThis
 * (the verifier lets such a handler only throw, which it does); the call
 * itself to none (preinit.h says why). */
static void write_body_entries(struct method *m, const struct built *b, struct cf_wr *w,
			       uint32_t *count)
{
	uint32_t handler = codeedit_insert_at(m->layout, b->handler_k);
	uint32_t body = b->prologue ? codeedit_insert_at(m->layout, 0) + (uint32_t)b->prologue_len : 0;

	if (!b->pre) {
		wr_u2(w, body);
		wr_u2(w, handler);
		wr_u2(w, handler);
		wr_u2(w, 0);
		(*count)++;
		return;
	}
	/* by kind: after, before, the call that initializes `this` (never covered) */
	uint32_t target[3] = { handler, handler + (b->post_handler ? b->handler_len : 0), 0 };
	bool wanted[3] = { b->post_handler, b->pre_handler, false };
	int64_t run = -1;
	int run_kind = 0;
	for (uint32_t pc = 0; pc <= m->code_len; pc++) {
		if (pc < m->code_len && !codeedit_is_insn(m->layout, pc))
			continue;
		int kind = pc >= m->code_len ? -1 : !b->pre[pc] ? 0 : b->pre[pc] == PREINIT_BEFORE ? 1 : 2;
		if (run >= 0 && kind != run_kind) {
			uint32_t end = pc < m->code_len ? codeedit_map(m->layout, pc) : handler;
			wr_u2(w, (uint32_t)run);
			wr_u2(w, end);
			wr_u2(w, target[run_kind]);
			wr_u2(w, 0);
			(*count)++;
			run = -1;
		}
		if (kind >= 0 && run < 0 && wanted[kind]) {
			run = pc == 0 ? body : codeedit_map(m->layout, pc);
			run_kind = kind;
		}
	}
}

/* The entries over the body, then each copy's entry over its call of
 * Probe.thrown, to the count after it (build_handler). */
static void write_handler_entries(struct method *m, const struct built *b, struct cf_wr *w,
				  uint32_t *count)
{
	uint32_t copy = codeedit_insert_at(m->layout, b->handler_k);

	write_body_entries(m, b, w, count);
	for (int k = 0; k < b->post_handler + b->pre_handler; k++, copy += b->handler_len) {
		wr_u2(w, copy + CODEATTR_THROWN_CALL_AT);
		wr_u2(w, copy + CODEATTR_THROWN_CALL_AT + 3);
		wr_u2(w, copy + CODEATTR_COUNT_AT);
		wr_u2(w, 0);
		(*count)++;
	}
}

static uint32_t new_max_stack(const struct method *m, const struct built *b)
{
	uint32_t s = m->max_stack;

	if (m->c->exit)
		s += 3;                  /* dup2 of the value, the site */
	if (b->has_handler && s < 5)
		s = 5;                   /* the throwable, then a row, its index, their dup2 */
	if (m->c->enter && s < 2)
		s = 2;                   /* a long argument, or the site and enterArgs's answer */
	if (m->c->nlines && s < m->max_stack + 1)
		s = m->max_stack + 1;    /* a line's site, over what the line finds on the stack */
	if (b->has_notify && s < m->max_stack + 2)
		s = m->max_stack + 2;    /* the receiver's dup and the site, over the invoke's operands */
	return s;
}

/* codeedit_map() knows only instruction starts: a decoded frame, or an
 * Uninitialized(offset), anywhere else would silently move to 0. */
static int check_frames(struct method *m, const struct stackmap *sm)
{
	for (size_t i = 0; i < sm->n; i++)
		if (!sm->f[i].added &&
		    (sm->f[i].pc >= m->code_len || !codeedit_is_insn(m->layout, sm->f[i].pc)))
			return refuse(m, -EINVAL, "a StackMapTable frame not at an instruction");
	for (size_t i = 0; i < sm->npool; i++)
		if (sm->pool[i].tag == SM_T_UNINIT &&
		    (sm->pool[i].data >= m->code_len || !codeedit_is_insn(m->layout, sm->pool[i].data)))
			return refuse(m, -EINVAL, "a StackMapTable Uninitialized offset not at an instruction");
	return 0;
}

static int write_frames(struct method *m, const struct built *b, const struct attr *smt,
			struct cf_wr *w)
{
	const struct codeattr_ctx *c = m->c;
	struct stackmap sm = { 0 };
	uint8_t *body = NULL;
	size_t blen = 0;
	int rc = 0;

	if (smt)
		rc = stackmap_decode(smt->body, smt->len, &sm, &m->why);
	if (rc == 0)
		rc = check_frames(m, &sm);
	if (rc == 0 && b->nparams > 0 && !stackmap_has(&sm, 0))
		rc = stackmap_add(&sm, codeedit_insert_at(m->layout, 0) + (uint32_t)b->prologue_len,
				  SM_SAME, NULL, 0, NULL, 0);
	uint32_t handler = b->has_handler ? codeedit_insert_at(m->layout, b->handler_k) : 0;
	struct sm_type thrown = { SM_T_OBJECT, (uint16_t)c->throwable };
	struct sm_type uninit_this = { SM_T_UNINIT_THIS, 0 };
	/* each copy and the count after its call have the same frame */
	uint32_t pre = handler + (b->post_handler ? b->handler_len : 0);
	static const uint32_t entry[2] = { 0, CODEATTR_COUNT_AT };
	for (int k = 0; k < 2; k++) {
		if (rc == 0 && b->post_handler)
			rc = stackmap_add(&sm, handler + entry[k], SM_FULL, NULL, 0, &thrown, 1);
		if (rc == 0 && b->pre_handler)
			rc = stackmap_add(&sm, pre + entry[k], SM_FULL, &uninit_this, 1, &thrown, 1);
	}
	if (rc == 0 && sm.n)
		rc = stackmap_encode(&sm, map_pc, m->layout, &body, &blen);
	if (rc == 0 && sm.n) {
		wr_u2(w, smt ? smt->name : c->smt_name);
		wr_u4(w, (uint32_t)blen);
		wr_bytes(w, body, blen);
	}
	free(body);
	stackmap_free(&sm);
	if (rc == -EINVAL)
		return refuse(m, rc, "StackMapTable malformed");
	return rc;
}

static int write_attributes(struct method *m, const struct built *b, struct cf_wr *w)
{
	const struct attr *smt = NULL;
	size_t count_at = w->len;
	uint32_t count = 0;
	int rc = 0;

	wr_u2(w, 0);
	for (uint32_t i = 0; i < m->nattr && rc == 0; i++) {
		const struct attr *a = &m->attr[i];
		struct cf_rd r = { .p = a->body, .len = a->len };
		if (a->kind == A_SMT) {
			smt = a;
			continue;
		}
		wr_u2(w, a->name);
		size_t len_at = w->len;
		wr_u4(w, 0);
		if (a->kind == A_LNT)
			rc = copy_lnt(m, &r, w);
		else if (a->kind == A_LVT || a->kind == A_LVTT)
			rc = copy_lvt(m, &r, w);
		else
			rc = copy_type_annotations(m, &r, w);
		if (rc == 0 && (r.err || r.off != r.len))
			rc = refuse(m, -EINVAL, "a code attribute's length does not match its content");
		wr_put_u4(w, len_at, (uint32_t)(w->len - len_at - 4));
		count++;
	}
	bool frames = m->c->major >= 50 || smt;
	if (rc == 0 && frames) {
		size_t before = w->len;
		rc = write_frames(m, b, smt, w);
		count += w->len != before;
	}
	if (!w->err) {
		w->p[count_at] = (uint8_t)(count >> 8);
		w->p[count_at + 1] = (uint8_t)count;
	}
	return rc;
}

int codeattr_rewrite(const struct codeattr_ctx *c, const uint8_t *body, uint32_t len,
		     struct cf_wr *w, const char **why)
{
	struct method m = { .c = c };
	struct built b = { 0 };
	size_t start = w->len;
	uint8_t *code = NULL;
	int rc = parse(&m, body, len);

	if (rc == 0)
		rc = plan(&m, &b);
	if (rc == 0)
		rc = codeedit_layout(m.code, m.code_len, b.ins, b.nins, &m.layout, &m.why);
	if (rc == 0) {
		uint32_t max_stack = new_max_stack(&m, &b), nlen = codeedit_new_len(m.layout);
		code = malloc(nlen);
		if (!code)
			rc = -ENOMEM;
		else if (max_stack > 65535)
			rc = refuse(&m, -ENOTSUP, "max_stack would overflow");
		if (rc == 0) {
			codeedit_emit(m.layout, code);
			wr_u2(w, max_stack);
			wr_u2(w, m.max_locals);
			wr_u4(w, nlen);
			wr_bytes(w, code, nlen);
			size_t count_at = w->len;
			uint32_t nex = m.nex;
			wr_u2(w, 0);
			for (uint32_t i = 0; i < m.nex && rc == 0; i++) {
				const uint8_t *e = m.ex + 8 * i;
				uint32_t s = get_u2(e), en = get_u2(e + 2), h = get_u2(e + 4);
				if (!codeedit_is_insn(m.layout, s) || !codeedit_is_insn(m.layout, en) ||
				    !codeedit_is_insn(m.layout, h) || h == m.code_len || s >= en) {
					rc = refuse(&m, -EINVAL, "an exception-table entry not at instructions");
					break;
				}
				wr_u2(w, codeedit_map(m.layout, s));
				wr_u2(w, codeedit_map(m.layout, en));
				wr_u2(w, codeedit_map(m.layout, h));
				wr_bytes(w, e + 6, 2);
			}
			if (rc == 0 && b.has_handler)
				write_handler_entries(&m, &b, w, &nex);
			if (nex > 65535)
				rc = refuse(&m, -ENOTSUP, "the exception table would overflow");
			if (!w->err) {
				w->p[count_at] = (uint8_t)(nex >> 8);
				w->p[count_at + 1] = (uint8_t)nex;
			}
			if (rc == 0)
				rc = write_attributes(&m, &b, w);
		}
	}
	if (rc == 0 && w->err)
		rc = -ENOMEM;
	if (rc < 0)
		w->len = start;     /* the method stays as it was */
	*why = rc == -ENOMEM ? "out of memory" : m.why;
	free(code);
	free(b.prologue);
	free(b.line);
	free(b.ins);
	free(b.pre);
	codeedit_free(m.layout);
	return rc;
}
