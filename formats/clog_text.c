/* clog_text.c: see clog_text.h. */
#include "clog_text.h"

#include <errno.h>
#include <string.h>

#include "utf8.h"

static const char hexdigits[] = "0123456789ABCDEF";

size_t clog_put_hex(char *p, uint64_t v)
{
	char tmp[CLOG_HEX_MAX];
	size_t n = 0;

	do {
		tmp[n++] = hexdigits[v & 15];
		v >>= 4;
	} while (v || n < 8);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

static size_t put_dec(char *p, uint64_t v, size_t min_digits)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < min_digits);
	for (size_t i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

size_t clog_put_time(char *p, uint64_t ns)
{
	size_t n = put_dec(p, ns / 1000000000u, 1);

	p[n++] = '.';
	return n + put_dec(p + n, ns % 1000000000u, 9);
}

static size_t put_escaped(char *p, uint8_t c)
{
	p[0] = '\\';
	p[1] = 'x';
	p[2] = hexdigits[c >> 4];
	p[3] = hexdigits[c & 15];
	return 4;
}

size_t clog_put_text(char *p, const char *s, size_t n)
{
	const uint8_t *u = (const uint8_t *)s;
	size_t out = 0;

	for (size_t i = 0; i < n;) {
		uint8_t c = u[i];
		size_t seq = c < 0x80 ? 1 : utf8_sequence(u + i, n - i);

		if (seq == 0 || c < 0x20 || c == 0x7f || c == '\\' || c == ',') {
			out += put_escaped(p + out, c);
			i++;
		} else {
			memcpy(p + out, u + i, seq);
			out += seq;
			i += seq;
		}
	}
	return out;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int clog_parse_hex(const char *f, size_t n, uint64_t *v)
{
	if (n == 0 || n > CLOG_HEX_MAX)
		return -EINVAL;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		int d = hexval(f[i]);
		if (d < 0)
			return -EINVAL;
		*v = *v << 4 | (uint64_t)d;
	}
	return 0;
}

int clog_parse_dec(const char *f, size_t n, uint64_t *v)
{
	if (n == 0 || n > 20 || (n > 1 && f[0] == '0'))
		return -EINVAL;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (f[i] < '0' || f[i] > '9')
			return -EINVAL;
		uint64_t d = (uint64_t)(f[i] - '0');
		if (*v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		*v = *v * 10 + d;
	}
	return 0;
}

int clog_parse_count(const char *f, size_t n, int64_t *v)
{
	uint64_t u;

	if (n == 2 && f[0] == '-' && f[1] == '1') {
		*v = -1;
		return 0;
	}
	if (clog_parse_dec(f, n, &u) < 0 || u > INT64_MAX)
		return -EINVAL;
	*v = (int64_t)u;
	return 0;
}

int clog_parse_time(const char *f, size_t n, uint64_t *ns)
{
	const char *dot = memchr(f, '.', n);
	uint64_t s, frac;

	if (!dot || (size_t)(f + n - dot - 1) != 9 || clog_parse_dec(f, (size_t)(dot - f), &s) < 0)
		return -EINVAL;
	/* nine digits, leading zeros included */
	frac = 0;
	for (const char *d = dot + 1; d < f + n; d++) {
		if (*d < '0' || *d > '9')
			return -EINVAL;
		frac = frac * 10 + (uint64_t)(*d - '0');
	}
	if (s > (UINT64_MAX - frac) / 1000000000u)
		return -EINVAL;
	*ns = s * 1000000000u + frac;
	return 0;
}

long clog_unescape(const char *f, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (f[i] == '\\') {
			int hi, lo;
			if (i + 3 >= n || f[i + 1] != 'x' || (hi = hexval(f[i + 2])) < 0 ||
			    (lo = hexval(f[i + 3])) < 0)
				return -EINVAL;
			out[o++] = (char)(hi << 4 | lo);
			i += 3;
		} else
			out[o++] = f[i];
	}
	return (long)o;
}

bool clog_next(struct clog_cursor *c, const char **f, size_t *n)
{
	const char *comma;

	if (c->done)
		return false;
	comma = memchr(c->p, ',', (size_t)(c->end - c->p));
	*f = c->p;
	*n = (size_t)((comma ? comma : c->end) - c->p);
	if (comma)
		c->p = comma + 1;
	else
		c->done = true;
	return true;
}
