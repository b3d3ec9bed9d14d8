/* cfwrap.c: see cfwrap.h. */
#include "cfwrap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfbytes.h"
#include "cfpool.h"
#include "descriptor.h"

#define ACC_PRIVATE 0x0002u
#define ACC_STATIC 0x0008u
#define ACC_NATIVE 0x0100u
#define ACC_INTERFACE 0x0200u
#define ACC_ABSTRACT 0x0400u
#define ACC_SYNTHETIC 0x1000u

enum {
	OP_ILOAD = 0x15, OP_ILOAD_0 = 0x1a, OP_IRETURN = 0xac, OP_RETURN = 0xb1,
	OP_INVOKESPECIAL = 0xb7, OP_INVOKESTATIC = 0xb8,
};

/* A method of the class file, where it is in IN. */
struct member {
	size_t start, attrs, end;        /* its access; its attributes_count; past it */
	uint16_t access;
	uint32_t name, desc;             /* Utf8 constants */
	bool wrap;
};

struct wrap {
	const uint8_t *in;
	size_t len;
	struct cfpool cp;
	uint32_t this_class;
	size_t methods_at, methods_end;  /* methods_count; the class's attributes */
	struct member *m;
	uint32_t nmethods, nwrap;
	const char *why;
};

static int fail(struct wrap *w, int err, const char *why)
{
	w->why = why;
	return err;
}

static int read_methods(struct wrap *w, struct cf_rd *r)
{
	w->methods_at = r->off;
	w->nmethods = rd_u2(r);
	if (r->err || (size_t)w->nmethods * 8 > r->len - r->off)
		return fail(w, -EINVAL, "methods truncated");
	if (w->nmethods && !(w->m = calloc(w->nmethods, sizeof(*w->m))))
		return fail(w, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < w->nmethods; i++) {
		struct member *m = &w->m[i];
		m->start = r->off;
		m->access = (uint16_t)rd_u2(r);
		m->name = rd_u2(r);
		m->desc = rd_u2(r);
		m->attrs = r->off;
		rd_skip_attributes(r);
		m->end = r->off;
		if (r->err)
			return fail(w, -EINVAL, "methods truncated");
		if (cfpool_tag(&w->cp, m->name) != CP_UTF8 || cfpool_tag(&w->cp, m->desc) != CP_UTF8)
			return fail(w, -EINVAL, "method name or descriptor is not a Utf8 constant");
	}
	w->methods_end = r->off;
	return 0;
}

static int read_class(struct wrap *w)
{
	struct cf_rd r = { .p = w->in, .len = w->len };
	const char *name;
	size_t nl;

	if (rd_u4(&r) != 0xCAFEBABEu)
		return fail(w, -EINVAL, "not a class file (bad magic)");
	rd_skip(&r, 4);
	if (r.err)
		return fail(w, -EINVAL, "not a class file (truncated header)");
	int rc = cfpool_parse(&w->cp, &r, &w->why);
	if (rc < 0)
		return rc == -ENOMEM ? fail(w, rc, "out of memory") : rc;
	uint32_t access = rd_u2(&r);
	w->this_class = rd_u2(&r);
	rd_skip(&r, 2);
	if (r.err)
		return fail(w, -EINVAL, "class header truncated");
	if (cfpool_class(&w->cp, w->this_class, &name, &nl) < 0 || nl == 0)
		return fail(w, -EINVAL, "this_class is not a Class constant with a name");
	rd_skip(&r, 2 * (size_t)rd_u2(&r));
	if (r.err)
		return fail(w, -EINVAL, "interfaces truncated");
	rd_skip_members(&r);
	if (r.err)
		return fail(w, -EINVAL, "fields truncated");
	if ((rc = read_methods(w, &r)) < 0)
		return rc;
	rd_skip_attributes(&r);
	if (r.err || r.off != r.len)
		return fail(w, -EINVAL, "class attributes truncated or trailing bytes");
	/* an interface has no native method (JVMS 4.6): nothing is asked */
	return access & ACC_INTERFACE ? 1 : 0;
}

/* Has M a Code attribute? A native has none (JVMS 4.7.3); its wrapper gets one. */
static bool has_code(const struct wrap *w, const struct member *m)
{
	struct cf_rd r = { .p = w->in, .len = m->end, .off = m->attrs };
	uint32_t n = rd_u2(&r);

	for (uint32_t i = 0; i < n && !r.err; i++) {
		if (cfpool_utf8_is(&w->cp, rd_u2(&r), "Code"))
			return true;
		rd_skip(&r, rd_u4(&r));
	}
	return false;
}

static uint8_t load_op(char kind, unsigned slot)
{
	/* iload, lload, fload, dload, aload; their _0 forms are 4 apart */
	unsigned k = kind == 'J' ? 1 : kind == 'F' ? 2 : kind == 'D' ? 3 : kind == 'L' || kind == '[' ? 4 : 0;
	return (uint8_t)(slot <= 3 ? OP_ILOAD_0 + 4 * k + slot : OP_ILOAD + k);
}

static uint8_t return_op(char kind)
{
	switch (kind) {
	case 'V': return OP_RETURN;
	case 'J': return OP_IRETURN + 1;
	case 'F': return OP_IRETURN + 2;
	case 'D': return OP_IRETURN + 3;
	case 'L': case '[': return OP_IRETURN + 4;
	default: return OP_IRETURN;
	}
}

/* The Code attribute (its name's constant CODE) of the wrapper of M, which
 * calls constant REF. */
static int write_code(struct wrap *w, struct cf_wr *o, const struct member *m, uint32_t code,
		      uint32_t ref)
{
	const char *d;
	size_t dl, pos = 1;
	bool is_static = m->access & ACC_STATIC;
	unsigned slot = is_static ? 0 : 1;
	uint8_t body[3 * 256 + 4];
	size_t n = 0;

	cfpool_utf8(&w->cp, m->desc, &d, &dl);
	int args = descriptor_arg_slots(d, dl), ret = descriptor_ret_slots(d, dl);
	char ret_kind = descriptor_ret_kind(d, dl);
	if (args < 0 || ret < 0 || !ret_kind || (unsigned)args + slot > 255)
		return fail(w, -EINVAL, "a native method's descriptor is malformed");
	if (!is_static)
		body[n++] = load_op('L', 0);
	while (d[pos] != ')') {
		char kind;
		int s = descriptor_next(d, dl, &pos, &kind);
		body[n++] = load_op(kind, slot);
		if (slot > 3)
			body[n++] = (uint8_t)slot;
		slot += (unsigned)s;
	}
	body[n++] = is_static ? OP_INVOKESTATIC : OP_INVOKESPECIAL;
	body[n++] = (uint8_t)(ref >> 8);
	body[n++] = (uint8_t)ref;
	body[n++] = return_op(ret_kind);
	wr_u2(o, code);
	wr_u4(o, 12 + (uint32_t)n);
	wr_u2(o, slot > (unsigned)ret ? slot : (unsigned)ret);     /* max_stack */
	wr_u2(o, slot);                                              /* max_locals */
	wr_u4(o, (uint32_t)n);
	wr_bytes(o, body, n);
	wr_u2(o, 0);            /* exception_table_length */
	wr_u2(o, 0);            /* attributes_count */
	return 0;
}

static int write_class(struct wrap *w, const char *prefix, struct cf_wr *o)
{
	size_t plen = strlen(prefix);
	uint32_t code = cfpool_find_utf8(&w->cp, "Code");
	uint32_t added = 3 * w->nwrap + (code ? 0 : 1);

	if (w->cp.count + added > 0xffff)
		return fail(w, -ENOTSUP, "the constant pool would overflow");
	if (w->nmethods + w->nwrap > 0xffff)
		return fail(w, -ENOTSUP, "too many methods");
	wr_bytes(o, w->in, 8);
	wr_u2(o, w->cp.count + added);
	wr_bytes(o, w->in + w->cp.start, w->cp.end - w->cp.start);
	/* per wrapped native, from NEXT: its new name, NameAndType, Methodref */
	uint32_t next = w->cp.count;
	for (uint32_t i = 0; i < w->nmethods; i++) {
		const struct member *m = &w->m[i];
		const char *name;
		size_t nl;
		if (!m->wrap)
			continue;
		cfpool_utf8(&w->cp, m->name, &name, &nl);
		if (plen + nl > 0xffff)
			return fail(w, -ENOTSUP, "a wrapped native's name would be too long");
		wr_u1(o, CP_UTF8);
		wr_u2(o, (uint32_t)(plen + nl));
		wr_bytes(o, prefix, plen);
		wr_bytes(o, name, nl);
		wr_u1(o, CP_NAME_AND_TYPE);
		wr_u2(o, next);
		wr_u2(o, m->desc);
		wr_u1(o, CP_METHODREF);
		wr_u2(o, w->this_class);
		wr_u2(o, next + 1);
		next += 3;
	}
	if (!code) {
		code = next;
		wr_u1(o, CP_UTF8);
		wr_u2(o, 4);
		wr_bytes(o, "Code", 4);
	}
	/* access ... fields as they were; the methods, the natives renamed */
	wr_bytes(o, w->in + w->cp.end, w->methods_at - w->cp.end);
	wr_u2(o, w->nmethods + w->nwrap);
	next = w->cp.count;
	for (uint32_t i = 0; i < w->nmethods; i++) {
		const struct member *m = &w->m[i];
		if (!m->wrap) {
			wr_bytes(o, w->in + m->start, m->end - m->start);
			continue;
		}
		wr_u2(o, ACC_PRIVATE | ACC_NATIVE | ACC_SYNTHETIC | (m->access & ACC_STATIC));
		wr_u2(o, next);
		wr_u2(o, m->desc);
		wr_u2(o, 0);
		next += 3;
	}
	/* the wrappers: Code, then the native's own attributes */
	next = w->cp.count;
	for (uint32_t i = 0; i < w->nmethods; i++) {
		const struct member *m = &w->m[i];
		if (!m->wrap)
			continue;
		uint32_t nattrs = (uint32_t)w->in[m->attrs] << 8 | w->in[m->attrs + 1];
		if (nattrs == 0xffff)
			return fail(w, -ENOTSUP, "a native with too many attributes");
		wr_u2(o, m->access & ~ACC_NATIVE);
		wr_u2(o, m->name);
		wr_u2(o, m->desc);
		wr_u2(o, nattrs + 1);
		int rc = write_code(w, o, m, code, next + 2);
		if (rc < 0)
			return rc;
		wr_bytes(o, w->in + m->attrs + 2, m->end - m->attrs - 2);
		next += 3;
	}
	wr_bytes(o, w->in + w->methods_end, w->len - w->methods_end);
	return o->err ? fail(w, -ENOMEM, "out of memory") : 0;
}

int cfwrap_natives(const uint8_t *in, size_t len, const char *prefix, cfwrap_select_fn select,
		   void *ctx, uint8_t **out, size_t *out_len, const char **why)
{
	struct wrap w = { .in = in, .len = len };
	struct cf_wr o = { 0 };

	*why = NULL;
	int rc = read_class(&w);
	for (uint32_t i = 0; rc == 0 && i < w.nmethods; i++) {
		struct member *m = &w.m[i];
		const char *name, *desc;
		size_t nl, dl;
		if ((m->access & (ACC_NATIVE | ACC_ABSTRACT)) != ACC_NATIVE)
			continue;
		cfpool_utf8(&w.cp, m->name, &name, &nl);
		cfpool_utf8(&w.cp, m->desc, &desc, &dl);
		if (descriptor_arg_slots(desc, dl) < 0 || !descriptor_ret_kind(desc, dl))
			rc = fail(&w, -EINVAL, "a native method's descriptor is malformed");
		else if (nl == 0 || name[0] == '<')
			rc = fail(&w, -EINVAL, "a native method with an initializer's name");
		else if (has_code(&w, m))
			rc = fail(&w, -EINVAL, "a native method with code");
		else if (select(ctx, name, nl, desc, dl, m->access)) {
			m->wrap = true;
			w.nwrap++;
		}
	}
	if (rc == 1)
		rc = 0;
	if (rc == 0 && w.nwrap) {
		rc = write_class(&w, prefix, &o);
		if (rc == 0) {
			*out = o.p;
			*out_len = o.len;
			o.p = NULL;
			rc = (int)w.nwrap;
		}
	}
	free(o.p);
	free(w.m);
	cfpool_free(&w.cp);
	*why = rc < 0 ? w.why : NULL;
	return rc;
}
