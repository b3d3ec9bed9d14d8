/* cfmethods.c: see cfmethods.h. */
#include "cfmethods.h"

#include <errno.h>
#include <stdlib.h>

#include "cfbytes.h"
#include "cfpool.h"

static int read_methods(struct cf_rd *r, const struct cfpool *cp, struct cfmethods *out,
			const char **why)
{
	out->methods_at = r->off;
	uint32_t n = rd_u2(r);

	if (r->err)
		return *why = "methods truncated", -EINVAL;
	/* each method takes 8 bytes at least: a count beyond what is left is a lie */
	if ((size_t)n * 8 > r->len - r->off)
		return *why = "methods truncated", -EINVAL;
	if (n && !(out->methods = calloc(n, sizeof *out->methods)))
		return *why = "out of memory", -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct cfmethod *m = &out->methods[i];
		m->start = r->off;
		m->access = (uint16_t)rd_u2(r);
		m->name_idx = rd_u2(r);
		m->desc_idx = rd_u2(r);
		m->attrs = r->off;
		rd_skip_attributes(r);
		m->end = r->off;
		if (r->err)
			return *why = "methods truncated", -EINVAL;
		if (cfpool_utf8(cp, m->name_idx, &m->name, &m->name_len) < 0 ||
		    cfpool_utf8(cp, m->desc_idx, &m->desc, &m->desc_len) < 0)
			return *why = "method name or descriptor is not a Utf8 constant", -EINVAL;
		if (m->name_len == 0)
			return *why = "a method with an empty name", -EINVAL;
		if (m->desc_len == 0 || m->desc[0] != '(')
			return *why = "a method descriptor that does not start with '('", -EINVAL;
		out->nmethods++;
	}
	out->methods_end = r->off;
	return 0;
}

static int read_class(struct cf_rd *r, struct cfpool *cp, struct cfmethods *out, const char **why)
{
	if (rd_u4(r) != 0xCAFEBABEu)
		return *why = "not a class file (bad magic)", -EINVAL;
	rd_skip(r, 4);	/* minor, major: any version is named the same way */
	if (r->err)
		return *why = "not a class file (truncated header)", -EINVAL;
	int rc = cfpool_parse(cp, r, why);
	if (rc < 0)
		return rc == -ENOMEM ? (*why = "out of memory", rc) : rc;
	out->access = (uint16_t)rd_u2(r);
	out->this_class = rd_u2(r);
	uint32_t super_class = rd_u2(r);
	if (r->err)
		return *why = "class header truncated", -EINVAL;
	if (cfpool_class(cp, out->this_class, &out->name, &out->name_len) < 0 || out->name_len == 0)
		return *why = "this_class is not a Class constant with a name", -EINVAL;
	if (super_class && cfpool_class(cp, super_class, &out->super, &out->super_len) < 0)
		return *why = "super_class is not a Class constant with a name", -EINVAL;
	rd_skip(r, 2 * (size_t)rd_u2(r));
	if (r->err)
		return *why = "interfaces truncated", -EINVAL;
	rd_skip_members(r);	/* fields */
	if (r->err)
		return *why = "fields truncated", -EINVAL;
	rc = read_methods(r, cp, out, why);
	if (rc < 0)
		return rc;
	rd_skip_attributes(r);
	if (r->err || r->off != r->len)
		return *why = "class attributes truncated or trailing bytes", -EINVAL;
	return 0;
}

int cfmethods_read(const uint8_t *in, size_t len, struct cfmethods *out, const char **why)
{
	struct cf_rd r = { .p = in, .len = len };

	*out = (struct cfmethods){ 0 };
	*why = NULL;
	int rc = read_class(&r, &out->pool, out, why);
	if (rc < 0)
		cfmethods_free(out);
	return rc;
}

void cfmethods_free(struct cfmethods *m)
{
	free(m->methods);
	cfpool_free(&m->pool);
	*m = (struct cfmethods){ 0 };
}
