/* classfile.c: see classfile.h. The class level: the pool, which methods,
 * the constants the calls need; codeattr.c rewrites each method's code. */
#include "classfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "cfbytes.h"
#include "cfpool.h"
#include "codeattr.h"

const struct classfile_probe_method classfile_probe_methods[CF_NPROBE] = {
	[CF_ENTER] = { "enter", "(I)V" },
	[CF_ENTER_ARGS] = { "enterArgs", "(I)Z" },
	[CF_ARG_I] = { "argI", "(I)V" },
	[CF_ARG_J] = { "argJ", "(J)V" },
	[CF_ARG_F] = { "argF", "(F)V" },
	[CF_ARG_D] = { "argD", "(D)V" },
	[CF_ARG_L] = { "argL", "(Ljava/lang/Object;)V" },
	[CF_ENTERED] = { "entered", "(I)V" },
	[CF_RET_V] = { "retV", "(I)V" },
	[CF_RET_I] = { "retI", "(II)V" },
	[CF_RET_J] = { "retJ", "(JI)V" },
	[CF_RET_F] = { "retF", "(FI)V" },
	[CF_RET_D] = { "retD", "(DI)V" },
	[CF_RET_L] = { "retL", "(Ljava/lang/Object;I)V" },
	[CF_THROWN] = { "thrown", "(Ljava/lang/Throwable;I)V" },
	[CF_NOTIFY] = { "notify", "(Ljava/lang/Object;I)V" },
};

/* Constants appended before the sites' Integers: the Probe class (2), per
 * method name, type, NameAndType, Methodref (4), java/lang/Throwable (2),
 * "StackMapTable" (1, appended only when the pool lacks it). */
#define FIXED_CONSTANTS (2u + 4u * CF_NFIXED + 2u)
/* Probe.notify's name, type, NameAndType, Methodref: only in a class with
 * notify calls, after "StackMapTable" and before the Integers, so a class
 * without them is rewritten as before there were any. */
#define NOTIFY_CONSTANTS 4u
/* Probe.lost's and Probe.overflows's name, type, NameAndType, Fieldref: only
 * in a class with exits, after the Integers, so that the constants before
 * them are where they were before there were any. */
#define FIELD_CONSTANTS 8u

struct pick {
	struct classfile_pick p;
	uint32_t access, name, desc;
	struct codeattr_line *lines;   /* the lines with a call, by pc; .site the line's site until the constants are written */
	uint32_t nlines;
	unsigned notify;         /* the kinds of notify it invokes (codeattr_notify_kind) that get calls */
};

/* Has the method calls of any kind? */
static bool touched(const struct pick *p)
{
	return p->p.site >= 0 || p->nlines || p->notify;
}

struct cf {
	struct cf_rd r;
	struct cfpool cp;
	uint16_t major;
	struct pick *picks;      /* per method */
	uint32_t nmethods, npicked;
	uint32_t nints;          /* Integer constants: the sites */
	uint32_t smt_name;       /* the pool's "StackMapTable", or 0 */
	int32_t notify_site[2];  /* the sites of the notify calls, < 0 for none */
	uint32_t nnotify;        /* how many of the two have one */
	bool exits;              /* a picked method gets exit calls */
	uint32_t next;           /* the next constant's index */
	struct codeattr_ctx code;
	const char *why;
};

static int fail(struct cf *c, int err, const char *why)
{
	if (!c->why)
		c->why = why;
	return err;
}

static int by_pc(const void *a, const void *b)
{
	const struct codeattr_line *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* A line table entry (pc, line) in the .pc and .site of a codeattr_line. */
static int by_line_then_pc(const void *a, const void *b)
{
	const struct codeattr_line *x = a, *y = b;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return by_pc(a, b);
}

/* The entries of the LineNumberTables of the Code attribute BODY[0..LEN)
 * into *OUT (malloc()ed, .site the line), *N of them. 0 or -ENOMEM. */
static int line_entries(const struct cf *c, const uint8_t *body, uint32_t len, struct codeattr_line **out,
			size_t *n)
{
	struct cf_rd r = { .p = body, .len = len };
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	rd_skip(&r, 4);
	rd_skip(&r, rd_u4(&r));
	rd_skip(&r, 8 * (size_t)rd_u2(&r));
	uint32_t na = rd_u2(&r);
	for (uint32_t a = 0; a < na && !r.err; a++) {
		bool lnt = cfpool_utf8_is(&c->cp, rd_u2(&r), "LineNumberTable");
		uint32_t alen = rd_u4(&r);
		if (!rd_has(&r, alen))
			break;
		struct cf_rd t = { .p = r.p + r.off, .len = alen };
		rd_skip(&r, alen);
		uint32_t ne = lnt ? rd_u2(&t) : 0;
		for (uint32_t e = 0; e < ne && !t.err; e++) {
			uint32_t at = rd_u2(&t), ln = rd_u2(&t);
			if (t.err)
				break;
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				struct codeattr_line *v = realloc(*out, cap * sizeof *v);
				if (!v)
					return -ENOMEM;
				*out = v;
			}
			(*out)[(*n)++] = (struct codeattr_line){ at, ln };
		}
	}
	return 0;
}

/* The Code attribute BODY[0..LEN)'s lines, each once at its lowest pc, to
 * SELECT_LINES; those given a site into P->lines, by pc. */
static int choose_lines(struct cf *c, const struct classfile_hooks *h, struct pick *p, const uint8_t *body,
			uint32_t len, const char *ns, size_t nn, const char *ds, size_t dn)
{
	struct codeattr_line *e = NULL;
	size_t ne = 0, n = 0;
	int rc = line_entries(c, body, len, &e, &ne);
	uint32_t *line = rc == 0 && ne ? malloc(ne * sizeof *line) : NULL;
	int32_t *sites = line ? malloc(ne * sizeof *sites) : NULL;

	if (rc == 0 && ne && !sites)
		rc = -ENOMEM;
	if (rc == 0 && ne) {
		/* sorted, each line's first entry has its lowest pc; a table of
		 * thousands costs a sort, not a search per entry */
		qsort(e, ne, sizeof *e, by_line_then_pc);
		for (size_t k = 0; k < ne; k++)
			if (k == 0 || e[k].site != e[k - 1].site)
				e[n++] = e[k];
		for (size_t k = 0; k < n; k++) {
			line[k] = e[k].site;
			sites[k] = -1;
		}
		h->select_lines(h->ctx, ns, nn, ds, dn, (uint16_t)p->access, line, n, sites);
		size_t kept = 0;
		for (size_t k = 0; k < n; k++)
			kept += sites[k] >= 0;
		p->lines = kept ? malloc(kept * sizeof *p->lines) : NULL;
		if (kept && !p->lines)
			rc = -ENOMEM;
		for (size_t k = 0; k < n && p->lines; k++)
			if (sites[k] >= 0)
				p->lines[p->nlines++] = (struct codeattr_line){ e[k].pc, (uint32_t)sites[k] };
		if (p->nlines)
			qsort(p->lines, p->nlines, sizeof *p->lines, by_pc);
	}
	free(sites);
	free(line);
	free(e);
	return rc;
}

/* The kinds of notify the code of the Code attribute BODY[0..LEN)
 * invokes; 0 for code this cannot walk (codeattr.c refuses it then). */
static unsigned notify_calls(const struct cf *c, const uint8_t *body, uint32_t len)
{
	struct cf_rd r = { .p = body, .len = len };
	unsigned kinds = 0;

	rd_skip(&r, 4);
	uint32_t code_len = rd_u4(&r);
	if (r.err || !rd_has(&r, code_len))
		return 0;
	const uint8_t *code = body + r.off;
	for (uint32_t pc = 0; pc < code_len;) {
		struct bc_insn in;
		if (bytecode_decode(code, code_len, pc, &in) < 0)
			return 0;
		if (in.len >= 3)
			kinds |= codeattr_notify_kind(&c->cp, in.op, (uint32_t)code[pc + 1] << 8 | code[pc + 2]);
		pc += in.len;
	}
	return kinds;
}

/* Does a method reference of the pool name notify()V or notifyAll()V?
 * Most classes' do not: their code is never walked for it. */
static bool pool_names_notify(const struct cf *c)
{
	for (uint32_t i = 1; i < c->cp.count; i++)
		if (codeattr_notify_kind(&c->cp, OP_INVOKEVIRTUAL, i))
			return true;
	return false;
}

/* Ask SELECT_NOTIFY about the kinds some method invokes; a method keeps
 * the kinds that got a site. */
static void choose_notify(struct cf *c, const struct classfile_hooks *h)
{
	unsigned kinds = 0, given = 0;

	for (uint32_t m = 0; m < c->nmethods; m++)
		kinds |= c->picks[m].notify;
	for (int k = 0; k < 2; k++) {
		c->notify_site[k] = kinds & (1u << k) ? h->select_notify(h->ctx, k == 1) : -1;
		if (c->notify_site[k] >= 0)
			given |= 1u << k;
	}
	c->nnotify = (uint32_t)__builtin_popcount(given);
	for (uint32_t m = 0; m < c->nmethods; m++)
		c->picks[m].notify &= given;
}

static uint64_t total_constants(const struct cf *c)
{
	return (uint64_t)c->cp.count + FIXED_CONSTANTS + !c->smt_name + c->nints +
	       (c->nnotify ? NOTIFY_CONSTANTS : 0) + (c->exits ? FIELD_CONSTANTS : 0);
}

/* First pass over the methods: ask SELECT about each one with code. */
static int choose_methods(struct cf *c, const struct classfile_hooks *h)
{
	struct cf_rd r = c->r;
	bool notify = h->select_notify && pool_names_notify(c);

	c->nmethods = rd_u2(&r);
	c->picks = calloc(c->nmethods ? c->nmethods : 1, sizeof(*c->picks));
	if (!c->picks)
		return -ENOMEM;
	for (uint32_t m = 0; m < c->nmethods && !r.err; m++) {
		struct pick *p = &c->picks[m];
		p->access = rd_u2(&r);
		p->name = rd_u2(&r);
		p->desc = rd_u2(&r);
		p->p.site = -1;
		uint32_t na = rd_u2(&r);
		unsigned ncode = 0;
		bool lone_return = false;
		const uint8_t *code_body = NULL;
		uint32_t code_len = 0;
		for (uint32_t a = 0; a < na && !r.err; a++) {
			bool code = cfpool_utf8_is(&c->cp, rd_u2(&r), "Code");
			uint32_t alen = rd_u4(&r);
			if (code && alen >= 9) {   /* max_stack, max_locals, code_length, code[0] */
				struct cf_rd cr = r;
				rd_skip(&cr, 4);
				lone_return = rd_u4(&cr) == 1 && rd_u1(&cr) == 0xb1 && !cr.err;
			}
			if (code && rd_has(&r, alen)) {
				code_body = r.p + r.off;
				code_len = alen;
			}
			ncode += code;
			rd_skip(&r, alen);
		}
		if (ncode > 1)
			return fail(c, -EINVAL, "a method with two Code attributes");
		const char *ns, *ds;
		size_t nn, dn;
		if (r.err)
			break;
		if (cfpool_utf8(&c->cp, p->name, &ns, &nn) < 0 || cfpool_utf8(&c->cp, p->desc, &ds, &dn) < 0)
			return fail(c, -EINVAL, "method name or descriptor is not a Utf8 constant");
		if (ncode == 1) {
			p->p.lone_return = lone_return;
			h->select(h->ctx, ns, nn, ds, dn, (uint16_t)p->access, &p->p);
			if (p->p.site < 0 || !(p->p.enter || p->p.exit))
				p->p.site = -1;
			if (h->select_lines && code_body &&
			    choose_lines(c, h, p, code_body, code_len, ns, nn, ds, dn) < 0)
				return -ENOMEM;
			if (notify && code_body)
				p->notify = notify_calls(c, code_body, code_len);
			c->nints += (p->p.site >= 0) + p->nlines;
			c->exits |= p->p.site >= 0 && p->p.exit;
		}
	}
	if (r.err)
		return fail(c, -EINVAL, "methods truncated");
	c->notify_site[0] = c->notify_site[1] = -1;
	if (notify)
		choose_notify(c, h);
	c->nints += c->nnotify;
	for (uint32_t m = 0; m < c->nmethods; m++)
		c->npicked += touched(&c->picks[m]);
	c->smt_name = cfpool_find_utf8(&c->cp, "StackMapTable");
	if (total_constants(c) > 65535)
		return fail(c, -ENOTSUP, "constant pool would overflow");
	return 0;
}

static void write_utf8(struct cf_wr *w, const char *s)
{
	wr_u1(w, CP_UTF8);
	wr_u2(w, (uint32_t)strlen(s));
	wr_bytes(w, s, strlen(s));
}

/* Append a Class constant (and its name); returns the Class's index. */
static uint32_t append_class(struct cf *c, struct cf_wr *w, const char *name)
{
	write_utf8(w, name);
	wr_u1(w, CP_CLASS);
	wr_u2(w, c->next);
	c->next += 2;
	return c->next - 1;
}

/* A member of Probe: its name, type, NameAndType and Methodref or
 * Fieldref (TAG) at NEXT..NEXT+3; returns the ref's index. */
static uint32_t write_member_ref(uint32_t *next, struct cf_wr *w, uint32_t probe, uint8_t tag,
				 const char *name, const char *desc)
{
	uint32_t at = *next;

	write_utf8(w, name);                                             /* at */
	write_utf8(w, desc);                                             /* at+1 */
	wr_u1(w, CP_NAME_AND_TYPE); wr_u2(w, at); wr_u2(w, at + 1);      /* at+2 */
	wr_u1(w, tag); wr_u2(w, probe); wr_u2(w, at + 2);                /* at+3 */
	*next += 4;
	return at + 3;
}

/* Probe.CALL's constants, into c->code.probe. */
static void write_probe_ref(struct cf *c, struct cf_wr *w, uint32_t probe, enum classfile_probe_fn fn)
{
	c->code.probe[fn] = write_member_ref(&c->next, w, probe, CP_METHODREF,
					     classfile_probe_methods[fn].name, classfile_probe_methods[fn].desc);
}

/* The fixed constants (see FIXED_CONSTANTS), Probe.notify's (see
 * NOTIFY_CONSTANTS), then one Integer per site: a method's, then its
 * lines' (each line's .site becomes its constant), then the notify sites;
 * then Probe's fields (FIELD_CONSTANTS). */
static void write_constants(struct cf *c, struct cf_wr *w)
{
	c->next = c->cp.count;
	uint32_t probe = append_class(c, w, CLASSFILE_PROBE_CLASS);
	for (int i = 0; i < CF_NFIXED; i++)
		write_probe_ref(c, w, probe, (enum classfile_probe_fn)i);
	c->code.throwable = append_class(c, w, "java/lang/Throwable");
	c->code.smt_name = c->smt_name;
	if (!c->smt_name) {
		write_utf8(w, "StackMapTable");
		c->code.smt_name = c->next++;
	}
	if (c->nnotify)
		write_probe_ref(c, w, probe, CF_NOTIFY);
	uint32_t next = c->next;
	for (uint32_t m = 0; m < c->nmethods; m++) {
		struct pick *p = &c->picks[m];
		if (p->p.site >= 0) {
			wr_u1(w, CP_INTEGER);
			wr_u4(w, (uint32_t)p->p.site);
			next++;
		}
		for (uint32_t k = 0; k < p->nlines; k++) {
			wr_u1(w, CP_INTEGER);
			wr_u4(w, p->lines[k].site);
			p->lines[k].site = next++;
		}
	}
	for (int k = 0; k < 2; k++) {
		c->code.notify_site[k] = 0;
		if (c->notify_site[k] >= 0) {
			wr_u1(w, CP_INTEGER);
			wr_u4(w, (uint32_t)c->notify_site[k]);
			c->code.notify_site[k] = next++;
		}
	}
	c->code.lost_field = c->code.overflows_field = 0;
	if (c->exits) {
		c->code.lost_field = write_member_ref(&next, w, probe, CP_FIELDREF, CLASSFILE_LOST_NAME,
						      CLASSFILE_LOST_DESC);
		c->code.overflows_field = write_member_ref(&next, w, probe, CP_FIELDREF,
							   CLASSFILE_OVERFLOWS_NAME, CLASSFILE_OVERFLOWS_DESC);
	}
}

static void report_refused(struct cf *c, const struct classfile_hooks *h, const struct pick *p,
			   const char *why)
{
	const char *ns, *ds;
	size_t nn, dn;

	if (h->refused && cfpool_utf8(&c->cp, p->name, &ns, &nn) == 0 &&
	    cfpool_utf8(&c->cp, p->desc, &ds, &dn) == 0)
		h->refused(h->ctx, ns, nn, ds, dn, why ? why : "cannot be rewritten");
}

static int copy_methods(struct cf *c, const struct classfile_hooks *h, struct cf_wr *w, int *done)
{
	struct cf_rd *r = &c->r;
	uint32_t n = rd_u2(r), next_int = c->next;

	wr_u2(w, n);
	for (uint32_t m = 0; m < n && !r->err; m++) {
		const struct pick *p = &c->picks[m];
		size_t start = r->off;
		rd_skip(r, 6);
		uint32_t na = rd_u2(r);
		wr_bytes(w, r->p + start, r->off - start);
		uint32_t site = p->p.site >= 0 ? next_int++ : 0;
		next_int += p->nlines;
		for (uint32_t a = 0; a < na && !r->err; a++) {
			size_t at = r->off;
			uint32_t name = rd_u2(r), len = rd_u4(r);
			if (!rd_has(r, len))
				break;
			const uint8_t *body = r->p + r->off;
			r->off += len;
			if (!touched(p) || !cfpool_utf8_is(&c->cp, name, "Code")) {
				wr_bytes(w, r->p + at, r->off - at);
				continue;
			}
			struct codeattr_ctx cc = c->code;
			cfpool_utf8(&c->cp, p->name, &cc.name, &cc.name_len);
			cfpool_utf8(&c->cp, p->desc, &cc.desc, &cc.desc_len);
			cc.is_static = p->access & 0x0008;
			cc.enter = p->p.enter;
			cc.exit = p->p.exit;
			cc.site = site;
			cc.site_id = p->p.site;
			cc.lines = p->lines;
			cc.nlines = p->nlines;
			wr_u2(w, name);
			size_t len_at = w->len;
			wr_u4(w, 0);
			const char *why = NULL;
			int rc = codeattr_rewrite(&cc, body, len, w, &why);
			if (rc == -ENOMEM)
				return rc;
			if (rc < 0) {
				/* the method keeps its code; its site's constant stays unused */
				wr_bytes(w, body, len);
				report_refused(c, h, p, why);
			} else {
				(*done)++;
			}
			wr_put_u4(w, len_at, (uint32_t)(w->len - len_at - 4));
		}
	}
	return r->err ? fail(c, -EINVAL, "methods truncated") : 0;
}

int classfile_inject(const uint8_t *in, size_t len, const struct classfile_hooks *hooks,
		     uint8_t **out, size_t *out_len, const char **why)
{
	struct cf c = { .r = { .p = in, .len = len } };
	struct cf_wr w = { 0 };
	int err, done = 0;

	*why = NULL;
	if (rd_u4(&c.r) != 0xCAFEBABEu)
		return *why = "not a class file (bad magic)", -EINVAL;
	rd_skip(&c.r, 2);  /* minor */
	c.major = (uint16_t)rd_u2(&c.r);
	err = cfpool_parse(&c.cp, &c.r, &c.why);
	c.code.cp = &c.cp;
	c.code.major = c.major;
	if (err == 0) {
		rd_skip(&c.r, 6);  /* access, this, super */
		rd_skip(&c.r, 2 * (size_t)rd_u2(&c.r));  /* interfaces */
		rd_skip_members(&c.r);  /* fields */
		err = c.r.err ? fail(&c, -EINVAL, "fields truncated") : choose_methods(&c, hooks);
	}
	if (err == 0 && c.npicked) {
		size_t methods_at = c.r.off;
		wr_bytes(&w, in, 8);
		wr_u2(&w, (uint32_t)total_constants(&c));
		wr_bytes(&w, in + c.cp.start, c.cp.end - c.cp.start);
		write_constants(&c, &w);
		wr_bytes(&w, in + c.cp.end, methods_at - c.cp.end);
		err = copy_methods(&c, hooks, &w, &done);
		if (err == 0) {
			size_t tail = c.r.off;
			rd_skip_attributes(&c.r);
			if (c.r.err || c.r.off != len)
				err = fail(&c, -EINVAL, "class attributes truncated or trailing bytes");
			else
				wr_bytes(&w, in + tail, len - tail);
		}
		if (err == 0 && w.err)
			err = -ENOMEM;
	}
	cfpool_free(&c.cp);
	for (uint32_t m = 0; c.picks && m < c.nmethods; m++)
		free(c.picks[m].lines);
	free(c.picks);
	*why = err == -ENOMEM ? "out of memory" : c.why;
	if (err < 0 || done == 0) {
		free(w.p);
		return err;
	}
	*out = w.p;
	*out_len = w.len;
	return done;
}

int classfile_probe_class(uint8_t **out, size_t *out_len)
{
	struct cf_wr w = { 0 };

	wr_u4(&w, 0xCAFEBABEu);
	wr_u2(&w, 0);
	wr_u2(&w, 52);
	wr_u2(&w, 9 + 2 * CF_NPROBE);               /* constant_pool_count */
	write_utf8(&w, CLASSFILE_PROBE_CLASS);      /* #1 */
	wr_u1(&w, CP_CLASS); wr_u2(&w, 1);          /* #2 Class #1: this */
	write_utf8(&w, "java/lang/Object");         /* #3 */
	wr_u1(&w, CP_CLASS); wr_u2(&w, 3);          /* #4 Class #3: super */
	for (int i = 0; i < CF_NPROBE; i++) {       /* #5 + 2i name, #6 + 2i descriptor */
		write_utf8(&w, classfile_probe_methods[i].name);
		write_utf8(&w, classfile_probe_methods[i].desc);
	}
	const uint32_t fields = 5 + 2 * CF_NPROBE;  /* name, descriptor of lost, then overflows's */
	write_utf8(&w, CLASSFILE_LOST_NAME);
	write_utf8(&w, CLASSFILE_LOST_DESC);
	write_utf8(&w, CLASSFILE_OVERFLOWS_NAME);
	write_utf8(&w, CLASSFILE_OVERFLOWS_DESC);
	wr_u2(&w, 0x0031);                          /* public final super */
	wr_u2(&w, 2);
	wr_u2(&w, 4);
	wr_u2(&w, 0);                               /* interfaces */
	wr_u2(&w, 2);                               /* fields, each public static */
	for (uint32_t i = 0; i < 2; i++) {
		wr_u2(&w, 0x0009);
		wr_u2(&w, fields + 2 * i);
		wr_u2(&w, fields + 2 * i + 1);
		wr_u2(&w, 0);
	}
	wr_u2(&w, CF_NPROBE);                       /* methods, each: */
	for (int i = 0; i < CF_NPROBE; i++) {
		wr_u2(&w, 0x0109);                  /* public static native */
		wr_u2(&w, 5 + 2 * (uint32_t)i);
		wr_u2(&w, 6 + 2 * (uint32_t)i);
		wr_u2(&w, 0);                       /* no attributes */
	}
	wr_u2(&w, 0);                               /* no class attributes */
	if (w.err) {
		free(w.p);
		return -ENOMEM;
	}
	*out = w.p;
	*out_len = w.len;
	return 0;
}
