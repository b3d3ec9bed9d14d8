/* rec_jfr_value.c: see rec_jfr_value.h. The text is print.c's (doc/agent-bridge.md,
 * "Values"); this file reads it back. */
#include "rec_jfr_value.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

int jfr_values_format(struct jfr_buf *b, const struct wire_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		/* print.h: escaping makes a byte at most 4 */
		size_t cap = 4 * (size_t)v[i].str.len + 128;
		ssize_t len;

		if (i)
			jfr_put_bytes(b, JFR_VALUES_SEPARATOR, strlen(JFR_VALUES_SEPARATOR));
		if (!jfr_buf_reserve(b, cap))
			return b->error;
		len = print_value((char *)b->data + b->len, cap, &v[i]);
		if (len < 0)
			return -EINVAL;
		b->len += (size_t)len;
	}
	return b->error;
}

/* ---- parsing: a cursor over the text */
struct text {
	const char *p;
	size_t at, len;
};

static bool take(struct text *t, const char *word)
{
	size_t n = strlen(word);

	if (t->len - t->at < n || memcmp(t->p + t->at, word, n) != 0)
		return false;
	t->at += n;
	return true;
}

/* The end of this value's text: the next separator, or the end. Only
 * strings can hold ", " (a name shows a space as \x20). */
static size_t token_end(const struct text *t)
{
	for (size_t i = t->at; i + 1 < t->len; i++)
		if (t->p[i] == ',' && t->p[i + 1] == ' ')
			return i;
	return t->len;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool unsigned_number(const char *p, size_t n, unsigned base, uint64_t *v)
{
	*v = 0;
	if (n == 0 || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		int d = base == 16 ? hex(p[i]) : p[i] >= '0' && p[i] <= '9' ? p[i] - '0' : -1;

		if (d < 0 || *v > (UINT64_MAX - (unsigned)d) / base)
			return false;
		*v = *v * base + (unsigned)d;
	}
	return true;
}

static bool integer(struct text *t, uint8_t type, int64_t *out)
{
	static const struct { uint8_t type; int64_t min, max; } ranges[] = {
		{ WIRE_T_BYTE, INT8_MIN, INT8_MAX }, { WIRE_T_SHORT, INT16_MIN, INT16_MAX },
		{ WIRE_T_INT, INT32_MIN, INT32_MAX }, { WIRE_T_LONG, INT64_MIN, INT64_MAX },
	};
	size_t end = token_end(t);
	bool neg = t->at < end && t->p[t->at] == '-';
	uint64_t v;

	if (!unsigned_number(t->p + t->at + neg, end - t->at - neg, 10, &v) || v > (uint64_t)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		if (ranges[i].type == type && (*out < ranges[i].min || *out > ranges[i].max))
			return false;
	t->at = end;
	return true;
}

static bool character(struct text *t, int64_t *out)
{
	uint64_t v;

	if (t->len - t->at >= 3 && t->p[t->at] == '\'' && t->p[t->at + 2] == '\'') {
		*out = (uint8_t)t->p[t->at + 1];
		t->at += 3;
		return true;
	}
	if (t->len - t->at >= 6 && take(t, "U+") && unsigned_number(t->p + t->at, 4, 16, &v)) {
		*out = (int64_t)v;
		t->at += 4;
		return true;
	}
	return false;
}

static bool floating(struct text *t, struct wire_value *v)
{
	size_t end = token_end(t), n = end - t->at;
	char buf[64], *stop;
	double d;

	if (take(t, "NaN"))
		d = NAN;
	else if (take(t, "Infinity"))
		d = INFINITY;
	else if (take(t, "-Infinity"))
		d = -INFINITY;
	else {
		if (n == 0 || n >= sizeof buf)
			return false;
		memcpy(buf, t->p + t->at, n);
		buf[n] = '\0';
		if (strspn(buf, "0123456789+-.eE") < n)
			return false;
		if (v->type == WIRE_T_FLOAT)
			v->v.f = strtof(buf, &stop);
		else
			v->v.d = strtod(buf, &stop);
		if (stop != buf + n)
			return false;
		t->at = end;
		return true;
	}
	if (v->type == WIRE_T_FLOAT)
		v->v.f = (float)d;
	else
		v->v.d = d;
	return true;
}

/* "...": \" \\ \n \t \r \xHH escaped, every other byte itself. */
static bool quoted(struct text *t, char *out, uint32_t *n)
{
	*n = 0;
	if (!take(t, "\""))
		return false;
	while (t->at < t->len) {
		char c = t->p[t->at++];

		if (c == '"')
			return true;
		if (c != '\\') {
			out[(*n)++] = c;
			continue;
		}
		if (t->at >= t->len)
			return false;
		c = t->p[t->at++];
		if (c == 'x') {
			if (t->len - t->at < 2 || hex(t->p[t->at]) < 0 || hex(t->p[t->at + 1]) < 0)
				return false;
			out[(*n)++] = (char)(hex(t->p[t->at]) << 4 | hex(t->p[t->at + 1]));
			t->at += 2;
		} else if (c == 'n' || c == 't' || c == 'r' || c == '"' || c == '\\') {
			out[(*n)++] = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
		} else {
			return false;
		}
	}
	return false;
}

/* A name as out_name writes it: \xHH for what it escapes, the rest itself. */
static bool unescape_name(const char *p, size_t n, char *out, uint32_t *len)
{
	*len = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] != '\\') {
			out[(*len)++] = p[i];
			continue;
		}
		if (n - i < 4 || p[i + 1] != 'x' || hex(p[i + 2]) < 0 || hex(p[i + 3]) < 0)
			return false;
		out[(*len)++] = (char)(hex(p[i + 2]) << 4 | hex(p[i + 3]));
		i += 3;
	}
	return true;
}

/* An array's element type in Java form ("int", "java.lang.String[]") as the
 * array's signature ("[I", "[[Ljava/lang/String;"). */
static uint32_t array_signature(const char *java, uint32_t n, char *out)
{
	static const char *const prims[] = { "boolean", "byte", "char", "short", "int", "long", "float",
					     "double" };
	static const char letters[] = "ZBCSIJFD";
	uint32_t dims = 1, len = 0;

	while (n >= 2 && java[n - 2] == '[' && java[n - 1] == ']') {
		dims++;
		n -= 2;
	}
	while (len < dims)
		out[len++] = '[';
	for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
		if (strlen(prims[i]) == n && memcmp(prims[i], java, n) == 0) {
			out[len++] = letters[i];
			return len;
		}
	out[len++] = 'L';
	for (uint32_t i = 0; i < n; i++)
		out[len++] = java[i] == '.' ? '/' : java[i];
	out[len++] = ';';
	return len;
}

/* L: NAME@HASH#ID; [: NAME[LENGTH]#ID, NAME the Java form less a "[]". */
static bool object(struct text *t, struct wire_value *v, char *arena, size_t *used)
{
	size_t end = token_end(t), hash_at, id_at;
	const char *p = t->p;
	uint64_t id, aux;
	char *name = arena + *used;
	uint32_t n;

	for (id_at = end; id_at > t->at && p[id_at - 1] != '#'; id_at--)
		;
	if (id_at == t->at || !unsigned_number(p + id_at, end - id_at, 10, &id))
		return false;
	hash_at = id_at - 1;
	if (v->type == WIRE_T_OBJECT) {
		while (hash_at > t->at && p[hash_at - 1] != '@')
			hash_at--;
		if (hash_at == t->at || !unsigned_number(p + hash_at, id_at - 1 - hash_at, 16, &aux) || aux > UINT32_MAX)
			return false;
	} else {
		if (hash_at == t->at || p[hash_at - 1] != ']')
			return false;
		for (hash_at--; hash_at > t->at && p[hash_at - 1] != '['; hash_at--)
			;
		if (hash_at == t->at || !unsigned_number(p + hash_at, id_at - 2 - hash_at, 10, &aux) ||
		    aux > UINT32_MAX)
			return false;
	}
	if (!unescape_name(p + t->at, hash_at - 1 - t->at, name, &n))
		return false;
	if (v->type == WIRE_T_ARRAY) {
		/* the signature goes after the name, then replaces it */
		char *sig = name + n;
		uint32_t sn = array_signature(name, n, sig);

		memmove(name, sig, sn);
		n = sn;
	}
	v->str.ptr = name;
	v->str.len = n;
	*used += n;
	v->object_id = id;
	v->aux = (uint32_t)aux;
	t->at = end;
	return true;
}

int jfr_values_parse(const char *text, size_t len, const char *types, size_t n, struct wire_value *out,
		     char *arena, size_t *bad_at)
{
	struct text t = { text, 0, len };
	size_t used = 0;

	for (size_t i = 0; i < n; i++) {
		struct wire_value *v = &out[i];
		bool ok;

		memset(v, 0, sizeof *v);
		v->type = (uint8_t)types[i];
		v->str.ptr = "";
		if (i && !take(&t, JFR_VALUES_SEPARATOR))
			goto bad;
		switch (v->type) {
		case WIRE_T_BOOLEAN:
			ok = take(&t, "true") ? (v->v.i = 1) : take(&t, "false");
			break;
		case WIRE_T_BYTE: case WIRE_T_SHORT: case WIRE_T_INT: case WIRE_T_LONG:
			ok = integer(&t, v->type, &v->v.i);
			break;
		case WIRE_T_CHAR:
			ok = character(&t, &v->v.i);
			break;
		case WIRE_T_FLOAT: case WIRE_T_DOUBLE:
			ok = floating(&t, v);
			break;
		case WIRE_T_VOID:
			ok = take(&t, "void");
			break;
		case WIRE_T_NULL:
			ok = take(&t, "null");
			break;
		case WIRE_T_NONE:
			ok = take(&t, "?");
			break;
		case WIRE_T_STRING:
			ok = quoted(&t, arena + used, &v->str.len);
			v->str.ptr = arena + used;
			used += v->str.len;
			v->truncated = ok && take(&t, "...");
			break;
		case WIRE_T_OBJECT: case WIRE_T_ARRAY:
			ok = object(&t, v, arena, &used);
			break;
		default:
			ok = false;
		}
		if (!ok)
			goto bad;
	}
	if (t.at == len)
		return 0;
bad:
	*bad_at = t.at;
	return -EINVAL;
}
