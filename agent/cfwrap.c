/* cfwrap.c: see cfwrap.h. */
#include "cfwrap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfbytes.h"
#include "cfmethods.h"
#include "cfpool.h"
#include "descriptor.h"

#define ACC_PRIVATE 0x0002u
#define ACC_STATIC 0x0008u
#define ACC_NATIVE CFM_ACC_NATIVE
#define ACC_ABSTRACT CFM_ACC_ABSTRACT
#define ACC_SYNTHETIC 0x1000u

enum {
	OP_ILOAD = 0x15, OP_ILOAD_0 = 0x1a, OP_IRETURN = 0xac, OP_RETURN = 0xb1,
	OP_INVOKESPECIAL = 0xb7, OP_INVOKESTATIC = 0xb8,
};

struct wrap {
	const uint8_t *in;
	size_t len;
	struct cfmethods cm;            /* the class as read; its pool */
	bool *wrap;                     /* per method: wrapped */
	uint32_t nwrap;
	const char *why;
};

static int fail(struct wrap *w, int err, const char *why)
{
	w->why = why;
	return err;
}

/* A native's attributes, which its wrapper gets after its own Code: each
 * named by a Utf8 constant of the input (an index past the pool would name
 * one of those appended), none a Code (JVMS 4.7.3: a native has none). */
static int check_attributes(struct wrap *w, const struct cfmethod *m)
{
	struct cf_rd r = { .p = w->in, .len = m->end, .off = m->attrs };
	uint32_t n = rd_u2(&r);

	for (uint32_t i = 0; i < n && !r.err; i++) {
		uint32_t name = rd_u2(&r);
		if (cfpool_tag(&w->cm.pool, name) != CP_UTF8)
			return fail(w, -EINVAL, "a native method's attribute is not named by a Utf8 constant");
		if (cfpool_utf8_is(&w->cm.pool, name, "Code"))
			return fail(w, -EINVAL, "a native method with code");
		rd_skip(&r, rd_u4(&r));
	}
	return 0;
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
static int write_code(struct wrap *w, struct cf_wr *o, const struct cfmethod *m, uint32_t code,
		      uint32_t ref)
{
	const char *d = m->desc;
	size_t dl = m->desc_len, pos = 1;
	bool is_static = m->access & ACC_STATIC;
	unsigned slot = is_static ? 0 : 1;
	uint8_t body[3 * 256 + 4];
	size_t n = 0;

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
	const struct cfmethods *cm = &w->cm;
	const struct cfpool *cp = &cm->pool;
	size_t plen = strlen(prefix);
	uint32_t code = cfpool_find_utf8(cp, "Code");
	uint32_t added = 3 * w->nwrap + (code ? 0 : 1);

	if (cp->count + added > 0xffff)
		return fail(w, -ENOTSUP, "the constant pool would overflow");
	if (cm->nmethods + w->nwrap > 0xffff)
		return fail(w, -ENOTSUP, "too many methods");
	wr_bytes(o, w->in, 8);
	wr_u2(o, cp->count + added);
	wr_bytes(o, w->in + cp->start, cp->end - cp->start);
	/* per wrapped native, from NEXT: its new name, NameAndType, Methodref */
	uint32_t next = cp->count;
	for (size_t i = 0; i < cm->nmethods; i++) {
		const struct cfmethod *m = &cm->methods[i];
		if (!w->wrap[i])
			continue;
		if (plen + m->name_len > 0xffff)
			return fail(w, -ENOTSUP, "a wrapped native's name would be too long");
		wr_u1(o, CP_UTF8);
		wr_u2(o, (uint32_t)(plen + m->name_len));
		wr_bytes(o, prefix, plen);
		wr_bytes(o, m->name, m->name_len);
		wr_u1(o, CP_NAME_AND_TYPE);
		wr_u2(o, next);
		wr_u2(o, m->desc_idx);
		wr_u1(o, CP_METHODREF);
		wr_u2(o, cm->this_class);
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
	wr_bytes(o, w->in + cp->end, cm->methods_at - cp->end);
	wr_u2(o, (uint32_t)cm->nmethods + w->nwrap);
	next = cp->count;
	for (size_t i = 0; i < cm->nmethods; i++) {
		const struct cfmethod *m = &cm->methods[i];
		if (!w->wrap[i]) {
			wr_bytes(o, w->in + m->start, m->end - m->start);
			continue;
		}
		wr_u2(o, ACC_PRIVATE | ACC_NATIVE | ACC_SYNTHETIC | (m->access & ACC_STATIC));
		wr_u2(o, next);
		wr_u2(o, m->desc_idx);
		wr_u2(o, 0);
		next += 3;
	}
	/* the wrappers: Code, then the native's own attributes */
	next = cp->count;
	for (size_t i = 0; i < cm->nmethods; i++) {
		const struct cfmethod *m = &cm->methods[i];
		if (!w->wrap[i])
			continue;
		uint32_t nattrs = (uint32_t)w->in[m->attrs] << 8 | w->in[m->attrs + 1];
		if (nattrs == 0xffff)
			return fail(w, -ENOTSUP, "a native with too many attributes");
		wr_u2(o, m->access & ~ACC_NATIVE);
		wr_u2(o, m->name_idx);
		wr_u2(o, m->desc_idx);
		wr_u2(o, nattrs + 1);
		int rc = write_code(w, o, m, code, next + 2);
		if (rc < 0)
			return rc;
		wr_bytes(o, w->in + m->attrs + 2, m->end - m->attrs - 2);
		next += 3;
	}
	wr_bytes(o, w->in + cm->methods_end, w->len - cm->methods_end);
	return o->err ? fail(w, -ENOMEM, "out of memory") : 0;
}

/* Which natives SELECT picks, into W->wrap; 0 or a malformed native's error. */
static int pick_natives(struct wrap *w, const char *prefix, cfwrap_select_fn select, void *ctx)
{
	const struct cfmethods *cm = &w->cm;
	const size_t plen = strlen(prefix);

	/* an interface has no native method (JVMS 4.6): nothing is asked */
	if (cm->access & CFM_ACC_INTERFACE)
		return 0;
	if (cm->nmethods && !(w->wrap = calloc(cm->nmethods, sizeof(*w->wrap))))
		return fail(w, -ENOMEM, "out of memory");
	for (size_t i = 0; i < cm->nmethods; i++) {
		const struct cfmethod *m = &cm->methods[i];
		/* not a native: an initializer, whose flags but static and
		 * strict the VM ignores (a native <init> it refuses); nor one
		 * that has the prefix already (bytes saved from a JVM of ours) */
		if ((m->access & (ACC_NATIVE | ACC_ABSTRACT)) != ACC_NATIVE || m->name[0] == '<' ||
		    (m->name_len >= plen && memcmp(m->name, prefix, plen) == 0))
			continue;
		if (descriptor_arg_slots(m->desc, m->desc_len) < 0 || !descriptor_ret_kind(m->desc, m->desc_len))
			return fail(w, -EINVAL, "a native method's descriptor is malformed");
		int rc = check_attributes(w, m);
		if (rc < 0)
			return rc;
		if (select(ctx, m->name, m->name_len, m->desc, m->desc_len, m->access)) {
			w->wrap[i] = true;
			w->nwrap++;
		}
	}
	return 0;
}

int cfwrap_natives(const uint8_t *in, size_t len, const char *prefix, cfwrap_select_fn select,
		   void *ctx, uint8_t **out, size_t *out_len, const char **why)
{
	struct wrap w = { .in = in, .len = len };
	struct cf_wr o = { 0 };

	*why = NULL;
	int rc = cfmethods_read(in, len, &w.cm, &w.why);
	if (rc == 0)
		rc = pick_natives(&w, prefix, select, ctx);
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
	free(w.wrap);
	cfmethods_free(&w.cm);
	*why = rc < 0 ? w.why : NULL;
	return rc;
}
