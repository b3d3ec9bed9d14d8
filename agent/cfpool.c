/* cfpool.c: see cfpool.h. */
#include "cfpool.h"

#include <errno.h>

int cfpool_parse(struct cfpool *cp, struct cf_rd *r, const char **why)
{
	cp->bytes = r->p;
	cp->count = rd_u2(r);
	cp->off = NULL;
	if (r->err || cp->count == 0)
		return *why = "no constant pool", -EINVAL;
	cp->off = calloc(cp->count, sizeof(*cp->off));
	if (!cp->off)
		return -ENOMEM;
	cp->start = r->off;
	for (uint32_t i = 1; i < cp->count && !r->err; i++) {
		cp->off[i] = (uint32_t)r->off;
		uint32_t tag = rd_u1(r);
		if (r->err)
			break;	/* cut before a tag: truncated, not an unknown tag */
		switch (tag) {
		case CP_UTF8:
			rd_skip(r, rd_u2(r));
			break;
		case CP_INTEGER: case CP_FLOAT: case CP_FIELDREF: case CP_METHODREF: case CP_IMETHODREF:
		case CP_NAME_AND_TYPE: case CP_DYNAMIC: case CP_INVOKE_DYNAMIC:
			rd_skip(r, 4);
			break;
		case CP_LONG: case CP_DOUBLE:  /* two slots */
			rd_skip(r, 8);
			if (++i >= cp->count)
				return *why = "a Long or Double in the last constant-pool slot", -EINVAL;
			break;
		case CP_CLASS: case CP_STRING: case CP_METHOD_TYPE: case CP_MODULE: case CP_PACKAGE:
			rd_skip(r, 2);
			break;
		case CP_METHOD_HANDLE:
			rd_skip(r, 3);
			break;
		default:
			return *why = "unknown constant-pool tag", -EINVAL;
		}
	}
	if (r->err)
		return *why = "constant pool truncated", -EINVAL;
	cp->end = r->off;
	return 0;
}

void cfpool_free(struct cfpool *cp)
{
	free(cp->off);
	cp->off = NULL;
}

uint8_t cfpool_tag(const struct cfpool *cp, uint32_t idx)
{
	if (idx == 0 || idx >= cp->count || !cp->off[idx])
		return 0;
	return cp->bytes[cp->off[idx]];
}

static uint32_t u2(const struct cfpool *cp, uint32_t idx, uint32_t at)
{
	const uint8_t *b = cp->bytes + cp->off[idx] + 1 + at;
	return (uint32_t)b[0] << 8 | b[1];
}

int cfpool_utf8(const struct cfpool *cp, uint32_t idx, const char **s, size_t *len)
{
	if (cfpool_tag(cp, idx) != CP_UTF8)
		return -EINVAL;
	*len = u2(cp, idx, 0);
	*s = (const char *)cp->bytes + cp->off[idx] + 3;
	return 0;
}

int cfpool_class(const struct cfpool *cp, uint32_t idx, const char **s, size_t *len)
{
	if (cfpool_tag(cp, idx) != CP_CLASS)
		return -EINVAL;
	return cfpool_utf8(cp, u2(cp, idx, 0), s, len);
}

bool cfpool_utf8_is(const struct cfpool *cp, uint32_t idx, const char *s)
{
	const char *u;
	size_t n;

	return cfpool_utf8(cp, idx, &u, &n) == 0 && n == strlen(s) && memcmp(u, s, n) == 0;
}

uint32_t cfpool_find_utf8(const struct cfpool *cp, const char *s)
{
	for (uint32_t i = 1; i < cp->count; i++)
		if (cfpool_utf8_is(cp, i, s))
			return i;
	return 0;
}

int cfpool_ref(const struct cfpool *cp, uint32_t idx, const char **name, size_t *name_len,
	       const char **desc, size_t *desc_len)
{
	uint8_t tag = cfpool_tag(cp, idx);

	if (tag != CP_FIELDREF && tag != CP_METHODREF && tag != CP_IMETHODREF &&
	    tag != CP_INVOKE_DYNAMIC && tag != CP_DYNAMIC)
		return -EINVAL;
	uint32_t nat = u2(cp, idx, 2);
	if (cfpool_tag(cp, nat) != CP_NAME_AND_TYPE)
		return -EINVAL;
	if (cfpool_utf8(cp, u2(cp, nat, 0), name, name_len) < 0 ||
	    cfpool_utf8(cp, u2(cp, nat, 2), desc, desc_len) < 0)
		return -EINVAL;
	return 0;
}
