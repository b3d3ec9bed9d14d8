/* classfile.c: see classfile.h. */
#include "classfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SITES 65535u

/* A bounds-checked reader: any read past the end sets err and yields 0. */
struct rd {
	const uint8_t *p;
	size_t len, off;
	bool err;
};

static bool rd_has(struct rd *r, size_t n)
{
	if (r->err || n > r->len - r->off) {
		r->err = true;
		return false;
	}
	return true;
}

static uint32_t rd_u1(struct rd *r)
{
	return rd_has(r, 1) ? r->p[r->off++] : 0;
}

static uint32_t rd_u2(struct rd *r)
{
	if (!rd_has(r, 2))
		return 0;
	uint32_t v = (uint32_t)r->p[r->off] << 8 | r->p[r->off + 1];
	r->off += 2;
	return v;
}

static uint32_t rd_u4(struct rd *r)
{
	if (!rd_has(r, 4))
		return 0;
	const uint8_t *b = r->p + r->off;
	r->off += 4;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void rd_skip(struct rd *r, size_t n)
{
	if (rd_has(r, n))
		r->off += n;
}

/* A growing output buffer; a failed allocation sets err. */
struct wr {
	uint8_t *p;
	size_t len, cap;
	bool err;
};

static uint8_t *wr_room(struct wr *w, size_t n)
{
	if (w->err)
		return NULL;
	if (w->cap - w->len < n) {
		size_t cap = w->cap ? w->cap : 256;
		while (cap - w->len < n)
			cap *= 2;
		uint8_t *p = realloc(w->p, cap);
		if (!p) {
			w->err = true;
			return NULL;
		}
		w->p = p;
		w->cap = cap;
	}
	uint8_t *at = w->p + w->len;
	w->len += n;
	return at;
}

static void wr_bytes(struct wr *w, const void *b, size_t n)
{
	uint8_t *at = wr_room(w, n);
	if (at && n)
		memcpy(at, b, n);
}

static void wr_u1(struct wr *w, uint32_t v)
{
	uint8_t b = (uint8_t)v;
	wr_bytes(w, &b, 1);
}

static void wr_u2(struct wr *w, uint32_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };
	wr_bytes(w, b, 2);
}

static void wr_u4(struct wr *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	wr_bytes(w, b, 4);
}

static void wr_put_u4(struct wr *w, size_t at, uint32_t v)
{
	if (w->err)
		return;
	w->p[at] = (uint8_t)(v >> 24);
	w->p[at + 1] = (uint8_t)(v >> 16);
	w->p[at + 2] = (uint8_t)(v >> 8);
	w->p[at + 3] = (uint8_t)v;
}

struct cf {
	struct rd r;
	uint32_t cp_count;
	uint32_t *utf8_off;      /* per index: offset of a Utf8's length field, 0 if not Utf8 */
	size_t cp_end;           /* offset just after the constant pool */
	uint32_t probe_ref;      /* index of the appended Methodref */
	uint32_t first_int;      /* index of the first appended Integer */
	int32_t *site;           /* per method: its site id or -1 */
	uint32_t nsites;
	const char *why;
};

static int fail(struct cf *c, int err, const char *why)
{
	if (!c->why)
		c->why = why;
	return err;
}

/* Is constant IDX the Utf8 S? */
static bool utf8_is(const struct cf *c, uint32_t idx, const char *s)
{
	if (idx == 0 || idx >= c->cp_count || !c->utf8_off[idx])
		return false;
	const uint8_t *b = c->r.p + c->utf8_off[idx];
	size_t n = (size_t)b[0] << 8 | b[1];
	return n == strlen(s) && memcmp(b + 2, s, n) == 0;
}

static int utf8_get(const struct cf *c, uint32_t idx, const char **s, size_t *n)
{
	if (idx == 0 || idx >= c->cp_count || !c->utf8_off[idx])
		return -EINVAL;
	const uint8_t *b = c->r.p + c->utf8_off[idx];
	*n = (size_t)b[0] << 8 | b[1];
	*s = (const char *)b + 2;
	return 0;
}

static int parse_constant_pool(struct cf *c)
{
	struct rd *r = &c->r;

	c->cp_count = rd_u2(r);
	if (r->err || c->cp_count == 0)
		return fail(c, -EINVAL, "no constant pool");
	c->utf8_off = calloc(c->cp_count, sizeof(*c->utf8_off));
	if (!c->utf8_off)
		return -ENOMEM;
	for (uint32_t i = 1; i < c->cp_count && !r->err; i++) {
		uint32_t tag = rd_u1(r);
		switch (tag) {
		case 1:  /* Utf8 */
			c->utf8_off[i] = (uint32_t)r->off;
			rd_skip(r, rd_u2(r));
			break;
		case 3: case 4:  /* Integer, Float */
		case 9: case 10: case 11: case 12: case 17: case 18:  /* refs, NameAndType, (Invoke)Dynamic */
			rd_skip(r, 4);
			break;
		case 5: case 6:  /* Long, Double: two slots */
			rd_skip(r, 8);
			if (++i >= c->cp_count)
				return fail(c, -EINVAL, "a Long or Double in the last constant-pool slot");
			break;
		case 7: case 8: case 16: case 19: case 20:  /* Class, String, MethodType, Module, Package */
			rd_skip(r, 2);
			break;
		case 15:  /* MethodHandle */
			rd_skip(r, 3);
			break;
		default:
			return fail(c, -EINVAL, "unknown constant-pool tag");
		}
	}
	if (r->err)
		return fail(c, -EINVAL, "constant pool truncated");
	c->cp_end = r->off;
	return 0;
}

/* Skip an attribute table (fields, methods, class). */
static void skip_attributes(struct rd *r)
{
	uint32_t n = rd_u2(r);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		rd_skip(r, 2);
		rd_skip(r, rd_u4(r));
	}
}

static void skip_members(struct rd *r)
{
	uint32_t n = rd_u2(r);
	for (uint32_t i = 0; i < n && !r->err; i++) {
		rd_skip(r, 6);
		skip_attributes(r);
	}
}

/* First pass over the methods: ask SELECT about each one with code. */
static int choose_methods(struct cf *c, classfile_select_fn select, void *ctx)
{
	struct rd r = c->r;
	uint32_t n = rd_u2(&r);

	c->site = malloc((n ? n : 1) * sizeof(*c->site));
	if (!c->site)
		return -ENOMEM;
	for (uint32_t m = 0; m < n && !r.err; m++) {
		uint32_t access = rd_u2(&r), name = rd_u2(&r), desc = rd_u2(&r);
		uint32_t na = rd_u2(&r);
		unsigned ncode = 0;
		for (uint32_t a = 0; a < na && !r.err; a++) {
			ncode += utf8_is(c, rd_u2(&r), "Code");
			rd_skip(&r, rd_u4(&r));
		}
		if (ncode > 1)
			return fail(c, -EINVAL, "a method with two Code attributes");
		bool has_code = ncode == 1;
		c->site[m] = -1;
		const char *ns, *ds;
		size_t nn, dn;
		if (r.err)
			break;
		if (utf8_get(c, name, &ns, &nn) < 0 || utf8_get(c, desc, &ds, &dn) < 0)
			return fail(c, -EINVAL, "method name or descriptor is not a Utf8 constant");
		if (has_code) {
			int32_t id = select(ctx, ns, nn, ds, dn, (uint16_t)access);
			c->site[m] = id < 0 ? -1 : id;
			c->nsites += id >= 0;
		}
	}
	if (r.err)
		return fail(c, -EINVAL, "methods truncated");
	if (c->nsites > MAX_SITES || c->cp_count + 6u + c->nsites > 65535u)
		return fail(c, -ENOTSUP, "constant pool would overflow");
	return 0;
}

static void write_utf8(struct wr *w, const char *s)
{
	wr_u1(w, 1);
	wr_u2(w, (uint32_t)strlen(s));
	wr_bytes(w, s, strlen(s));
}

/* The appended constants: the Methodref of Probe.enter, then one Integer per site. */
static void write_constants(struct cf *c, struct wr *w, uint32_t nmethods)
{
	uint32_t base = c->cp_count;

	write_utf8(w, CLASSFILE_PROBE_CLASS);                     /* base */
	wr_u1(w, 7); wr_u2(w, base);                              /* base+1 Class */
	write_utf8(w, CLASSFILE_PROBE_METHOD);                    /* base+2 */
	write_utf8(w, CLASSFILE_PROBE_DESC);                      /* base+3 */
	wr_u1(w, 12); wr_u2(w, base + 2); wr_u2(w, base + 3);     /* base+4 NameAndType */
	wr_u1(w, 10); wr_u2(w, base + 1); wr_u2(w, base + 4);     /* base+5 Methodref */
	c->probe_ref = base + 5;
	c->first_int = base + 6;
	for (uint32_t m = 0; m < nmethods; m++)
		if (c->site[m] >= 0) {
			wr_u1(w, 3);
			wr_u4(w, (uint32_t)c->site[m]);
		}
}

int classfile_probe_class(uint8_t **out, size_t *out_len)
{
	struct wr w = { 0 };

	wr_u4(&w, 0xCAFEBABEu);
	wr_u2(&w, 0);
	wr_u2(&w, 52);
	wr_u2(&w, 7);                               /* constant_pool_count: #1 to #6 */
	write_utf8(&w, CLASSFILE_PROBE_CLASS);      /* #1 */
	wr_u1(&w, 7); wr_u2(&w, 1);                 /* #2 Class #1: this */
	write_utf8(&w, "java/lang/Object");         /* #3 */
	wr_u1(&w, 7); wr_u2(&w, 3);                 /* #4 Class #3: super */
	write_utf8(&w, CLASSFILE_PROBE_METHOD);     /* #5 */
	write_utf8(&w, CLASSFILE_PROBE_DESC);       /* #6 */
	wr_u2(&w, 0x0031);                          /* public final super */
	wr_u2(&w, 2);
	wr_u2(&w, 4);
	wr_u2(&w, 0);                               /* interfaces */
	wr_u2(&w, 0);                               /* fields */
	wr_u2(&w, 1);                               /* methods: */
	wr_u2(&w, 0x0109);                          /* public static native */
	wr_u2(&w, 5);
	wr_u2(&w, 6);
	wr_u2(&w, 0);                               /* no attributes */
	wr_u2(&w, 0);                               /* no class attributes */
	if (w.err) {
		free(w.p);
		return -ENOMEM;
	}
	*out = w.p;
	*out_len = w.len;
	return 0;
}

/* u2 offsets move by the injected length; those at 0 stay (see classfile.h). */
static uint32_t shifted(uint32_t pc)
{
	return pc + CLASSFILE_INJECT_LEN;
}

/* Copy N verification_type_info items: Uninitialized(offset) names the
 * offset of its `new`, which moved. */
static void copy_types(struct rd *r, struct wr *w, uint32_t n)
{
	for (uint32_t i = 0; i < n && !r->err; i++) {
		uint32_t tag = rd_u1(r);
		wr_u1(w, tag);
		if (tag == 7)          /* Object: a constant-pool index */
			wr_u2(w, rd_u2(r));
		else if (tag == 8)     /* Uninitialized: a code offset */
			wr_u2(w, shifted(rd_u2(r)));
		else if (tag > 8)
			r->err = true;
	}
}

/* Copy one stack map frame. Only the FIRST one's offset is absolute (the
 * others are deltas from it); a short form that would overflow gets the
 * extended form. */
static int copy_frame(struct cf *c, struct rd *r, struct wr *w, bool first)
{
	uint32_t t = rd_u1(r), add = first ? CLASSFILE_INJECT_LEN : 0, delta;

	if (t <= 127) {
		bool item = t >= 64;
		delta = (item ? t - 64 : t) + add;
		if (delta <= 63) {
			wr_u1(w, (item ? 64 : 0) + delta);
		} else {
			wr_u1(w, item ? 247 : 251);
			wr_u2(w, delta);
		}
		copy_types(r, w, item);
	} else if (t >= 247) {
		wr_u1(w, t);
		wr_u2(w, rd_u2(r) + add);
		if (t == 247) {
			copy_types(r, w, 1);
		} else if (t >= 252 && t <= 254) {
			copy_types(r, w, t - 251);
		} else if (t == 255) {
			uint32_t nl = rd_u2(r);
			wr_u2(w, nl);
			copy_types(r, w, nl);
			uint32_t ns = rd_u2(r);
			wr_u2(w, ns);
			copy_types(r, w, ns);
		}
	} else {
		return fail(c, -EINVAL, "reserved StackMapTable frame type");
	}
	return r->err ? fail(c, -EINVAL, "StackMapTable malformed") : 0;
}

/* Copy one of Code's attributes, shifting what it holds. */
static int copy_code_attribute(struct cf *c, struct rd *r, struct wr *w)
{
	uint32_t name = rd_u2(r), len = rd_u4(r);
	size_t end = r->off + len;

	if (!rd_has(r, len))
		return fail(c, -EINVAL, "Code attribute truncated");
	wr_u2(w, name);
	size_t len_at = w->len;
	wr_u4(w, len);
	if (utf8_is(c, name, "LineNumberTable")) {
		uint32_t n = rd_u2(r);
		wr_u2(w, n);
		for (uint32_t i = 0; i < n && !r->err; i++) {
			uint32_t pc = rd_u2(r);
			wr_u2(w, pc ? shifted(pc) : 0);
			wr_u2(w, rd_u2(r));
		}
	} else if (utf8_is(c, name, "LocalVariableTable") || utf8_is(c, name, "LocalVariableTypeTable")) {
		uint32_t n = rd_u2(r);
		wr_u2(w, n);
		for (uint32_t i = 0; i < n && !r->err; i++) {
			uint32_t pc = rd_u2(r), span = rd_u2(r);
			wr_u2(w, pc ? shifted(pc) : 0);
			wr_u2(w, pc ? span : span + CLASSFILE_INJECT_LEN);
			wr_u2(w, rd_u2(r));
			wr_u2(w, rd_u2(r));
			wr_u2(w, rd_u2(r));
		}
	} else if (utf8_is(c, name, "StackMapTable")) {
		uint32_t n = rd_u2(r);
		wr_u2(w, n);
		for (uint32_t i = 0; i < n && !r->err; i++) {
			int err = copy_frame(c, r, w, i == 0);
			if (err < 0)
				return err;
		}
	} else if (utf8_is(c, name, "RuntimeVisibleTypeAnnotations") ||
		   utf8_is(c, name, "RuntimeInvisibleTypeAnnotations")) {
		return fail(c, -ENOTSUP, "type annotations in code");
	} else {
		return fail(c, -ENOTSUP, "an unknown attribute in code");
	}
	if (r->err || r->off != end)
		return fail(c, -EINVAL, "Code attribute length does not match its content");
	wr_put_u4(w, len_at, (uint32_t)(w->len - len_at - 4));
	return 0;
}

static int copy_code(struct cf *c, struct rd *r, struct wr *w, uint32_t name, uint32_t int_index)
{
	uint32_t len = rd_u4(r);
	size_t end = r->off + len;

	if (!rd_has(r, len))
		return fail(c, -EINVAL, "Code truncated");
	wr_u2(w, name);
	size_t len_at = w->len;
	wr_u4(w, 0);
	uint32_t max_stack = rd_u2(r), max_locals = rd_u2(r), code_len = rd_u4(r);
	if (!rd_has(r, code_len))
		return fail(c, -EINVAL, "code truncated");
	if (code_len == 0)
		return fail(c, -EINVAL, "empty code");
	if (code_len + CLASSFILE_INJECT_LEN > 65535u)
		return fail(c, -ENOTSUP, "code too long to grow");
	wr_u2(w, max_stack ? max_stack : 1);
	wr_u2(w, max_locals);
	wr_u4(w, code_len + CLASSFILE_INJECT_LEN);
	wr_u1(w, 0x13);  /* ldc_w */
	wr_u2(w, int_index);
	wr_u1(w, 0xb8);  /* invokestatic */
	wr_u2(w, c->probe_ref);
	wr_u1(w, 0x00);  /* nop: keeps the length a multiple of 4 */
	wr_u1(w, 0x00);
	wr_bytes(w, r->p + r->off, code_len);
	r->off += code_len;
	uint32_t nex = rd_u2(r);
	wr_u2(w, nex);
	for (uint32_t i = 0; i < nex && !r->err; i++) {
		wr_u2(w, shifted(rd_u2(r)));
		wr_u2(w, shifted(rd_u2(r)));
		wr_u2(w, shifted(rd_u2(r)));
		wr_u2(w, rd_u2(r));
	}
	uint32_t na = rd_u2(r);
	wr_u2(w, na);
	for (uint32_t i = 0; i < na && !r->err; i++) {
		int err = copy_code_attribute(c, r, w);
		if (err < 0)
			return err;
	}
	if (r->err || r->off != end)
		return fail(c, -EINVAL, "Code length does not match its content");
	wr_put_u4(w, len_at, (uint32_t)(w->len - len_at - 4));
	return 0;
}

static int copy_methods(struct cf *c, struct rd *r, struct wr *w)
{
	uint32_t n = rd_u2(r), next_int = c->first_int;

	wr_u2(w, n);
	for (uint32_t m = 0; m < n && !r->err; m++) {
		size_t start = r->off;
		rd_skip(r, 6);
		uint32_t na = rd_u2(r);
		wr_bytes(w, r->p + start, r->off - start);
		for (uint32_t a = 0; a < na && !r->err; a++) {
			size_t at = r->off;
			uint32_t name = rd_u2(r);
			if (c->site[m] >= 0 && utf8_is(c, name, "Code")) {
				int err = copy_code(c, r, w, name, next_int++);
				if (err < 0)
					return err;
			} else {
				rd_skip(r, rd_u4(r));
				wr_bytes(w, r->p + at, r->off - at);
			}
		}
	}
	return r->err ? fail(c, -EINVAL, "methods truncated") : 0;
}

int classfile_inject_enter(const uint8_t *in, size_t len, classfile_select_fn select, void *ctx,
			   uint8_t **out, size_t *out_len, const char **why)
{
	struct cf c = { .r = { .p = in, .len = len } };
	struct wr w = { 0 };
	int err;

	*why = NULL;
	if (rd_u4(&c.r) != 0xCAFEBABEu)
		return *why = "not a class file (bad magic)", -EINVAL;
	rd_skip(&c.r, 4);  /* minor, major */
	err = parse_constant_pool(&c);
	if (err == 0) {
		rd_skip(&c.r, 6);  /* access, this, super */
		rd_skip(&c.r, 2 * (size_t)rd_u2(&c.r));  /* interfaces */
		skip_members(&c.r);  /* fields */
		err = c.r.err ? fail(&c, -EINVAL, "fields truncated") : choose_methods(&c, select, ctx);
	}
	if (err == 0 && c.nsites) {
		size_t methods_at = c.r.off;
		wr_bytes(&w, in, 8);
		wr_u2(&w, c.cp_count + 6 + c.nsites);
		wr_bytes(&w, in + 10, c.cp_end - 10);
		/* re-read the method count for write_constants */
		struct rd mr = { .p = in, .len = len, .off = methods_at };
		write_constants(&c, &w, rd_u2(&mr));
		wr_bytes(&w, in + c.cp_end, methods_at - c.cp_end);
		err = copy_methods(&c, &c.r, &w);
		if (err == 0) {
			size_t tail = c.r.off;
			skip_attributes(&c.r);
			if (c.r.err || c.r.off != len)
				err = fail(&c, -EINVAL, "class attributes truncated or trailing bytes");
			else
				wr_bytes(&w, in + tail, len - tail);
		}
		if (err == 0 && w.err)
			err = -ENOMEM;
	}
	free(c.utf8_off);
	free(c.site);
	*why = err == -ENOMEM ? "out of memory" : c.why;
	if (err < 0 || c.nsites == 0) {
		free(w.p);
		return err;
	}
	*out = w.p;
	*out_len = w.len;
	return (int)c.nsites;
}
