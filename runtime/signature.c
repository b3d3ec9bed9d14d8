/* signature.c: see signature.h. */
#include "signature.h"
#include "errtext.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static const struct {
	const char *name;
	char code;
} primitives[] = {
	{ "int", 'I' }, { "long", 'J' }, { "boolean", 'Z' }, { "byte", 'B' },
	{ "char", 'C' }, { "short", 'S' }, { "float", 'F' }, { "double", 'D' },
};

struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap)
		memcpy(o->buf + o->len, s, n <= o->cap - o->len ? n : o->cap - o->len);
	o->len += n;
}

/* Does S[0..N) read as a descriptor's parameters ("ILjava/lang/String;[B")? */
static bool descriptor_like(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		while (i < n && s[i] == '[')
			i++;
		if (i == n)
			return false;
		if (strchr("BCDFIJSZ*", s[i])) {
			i++;
		} else if (s[i] == 'L') {
			const char *semi = memchr(s + i, ';', n - i);
			if (!semi)
				return false;
			i = (size_t)(semi - s) + 1;
		} else {
			return false;
		}
	}
	return true;
}

static bool name_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || c == '.' || c == '/' || c == '*' || c >= 0x80;
}

/* One Java type, TEXT[a..b) (no spaces around it), into O. */
static ssize_t one_type(const char *text, size_t a, size_t b, struct out *o, char *err, size_t errlen)
{
	char base[1024];
	size_t n = 0, dims = 0, depth = 0;

	/* generic arguments are erased: List<Map<K,V>> is List */
	for (size_t i = a; i < b; i++) {
		if (text[i] == '<')
			depth++;
		else if (text[i] == '>' && depth)
			depth--;
		else if (text[i] == '>')
			return errtext_fail(err, errlen, -EINVAL, "'>' at offset %zu closes no '<'", i);
		else if (!depth && n < sizeof base)
			base[n++] = text[i];
	}
	if (depth)
		return errtext_fail(err, errlen, -EINVAL, "'<' in the parameter at offset %zu is not closed", a);
	if (n >= 3 && memcmp(base + n - 3, "...", 3) == 0) {
		dims++;
		n -= 3;
	}
	while (n >= 2 && base[n - 2] == '[' && base[n - 1] == ']') {
		dims++;
		n -= 2;
	}
	if (n == 0 || n >= sizeof base)
		return errtext_fail(err, errlen, -EINVAL, "no type in the parameter at offset %zu", a);
	for (size_t i = 0; i < n; i++)
		if (!name_byte((unsigned char)base[i]))
			return errtext_fail(err, errlen, -EINVAL,
				    "'%.*s' at offset %zu is not a Java type (write int, String, "
				    "java.util.List, byte[] ...)", (int)(b - a), text + a, a);
	for (size_t d = 0; d < dims; d++)
		put(o, "[", 1);
	for (size_t k = 0; k < sizeof primitives / sizeof primitives[0]; k++)
		if (strlen(primitives[k].name) == n && memcmp(base, primitives[k].name, n) == 0) {
			put(o, &primitives[k].code, 1);
			return 0;
		}
	if (n == 4 && memcmp(base, "void", 4) == 0)
		return errtext_fail(err, errlen, -EINVAL, "void at offset %zu is no parameter type", a);
	bool qualified = memchr(base, '.', n) || memchr(base, '/', n);
	/* a simple name is that class in any package (and any name ending so) */
	put(o, qualified ? "L" : "L*", qualified ? 1 : 2);
	for (size_t i = 0; i < n; i++)
		put(o, base[i] == '.' ? "/" : base + i, 1);
	put(o, ";", 1);
	return 0;
}

ssize_t signature_source_to_descriptor(const char *text, size_t len, size_t open, char *out,
				       size_t outlen, char *err, size_t errlen)
{
	struct out o = { out, outlen ? outlen - 1 : 0, 0 };
	size_t close = len - 1, a = open + 1;

	if (descriptor_like(text + a, close - a) && close > a)
		return errtext_fail(err, errlen, -EINVAL,
			    "'%.*s' has no return type after ')' at offset %zu: write %.*sV (or another "
			    "type, or * for any), or the parameters as Java types, e.g. (int, String)",
			    (int)len, text, close, (int)len, text);
	put(&o, text, open + 1);
	while (a < close) {
		size_t b = a, depth = 0;

		while (b < close && (text[b] != ',' || depth)) {
			depth += text[b] == '<';
			depth -= text[b] == '>' && depth;
			b++;
		}
		size_t s = a, e = b;
		while (s < e && text[s] == ' ')
			s++;
		while (e > s && text[e - 1] == ' ')
			e--;
		if (s == e)
			return errtext_fail(err, errlen, -EINVAL, "no type before the ',' or ')' at offset %zu", b);
		ssize_t rc = one_type(text, s, e, &o, err, errlen);
		if (rc < 0)
			return rc;
		if (b < close && b + 1 == close)
			return errtext_fail(err, errlen, -EINVAL, "no type after the ',' at offset %zu", b);
		a = b + 1;
	}
	put(&o, ")*", 2);
	if (o.len > o.cap)
		return errtext_fail(err, errlen, -ENAMETOOLONG,
			    "the pattern as a descriptor is %zu bytes long, more than the limit of %zu",
			    o.len, o.cap);
	out[o.len] = '\0';
	return (ssize_t)o.len;
}
