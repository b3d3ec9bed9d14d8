/* jfrspec.c: see jfrspec.h. */
#include "jfrspec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static bool pattern_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
	       c == '_' || c == '$' || c == '*';
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

/* ERR: WHAT, AT, and the entry with its bytes outside printable ASCII as
 * \xHH (it came from a peer: one line, whatever it holds). */
static int fail(char *err, size_t errlen, const char *s, size_t len, size_t at, const char *what)
{
	size_t n = (size_t)snprintf(err, errlen, "%s at byte %zu of '", what, at);

	for (size_t i = 0; i < len && i < 300 && n + 6 < errlen; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '\\')
			n += (size_t)snprintf(err + n, errlen - n, "\\x%02x", c);
		else
			err[n++] = (char)c;
	}
	if (n + 2 <= errlen) {
		err[n++] = '\'';
		err[n] = '\0';
	} else if (errlen) {
		err[errlen - 1] = '\0';
	}
	return -EINVAL;
}

/* One NAME=VALUE of S[0..LEN) at S[*AT], up to ';' or the end. */
static int parse_setting(const char *s, size_t len, size_t *at, struct jfrspec_entry *e, char *err,
			 size_t errlen)
{
	size_t i = *at, start = i;

	if (e->nsettings == JFRSPEC_MAX_SETTINGS)
		return fail(err, errlen, s, len, i, "more than 8 settings");
	while (i < len && name_char(s[i]))
		i++;
	if (i == start || i - start > JFRSPEC_MAX_NAME)
		return fail(err, errlen, s, len, start, "a setting's name (1 to 32 letters, digits or '-') is expected");
	if (i == len || s[i] != '=')
		return fail(err, errlen, s, len, i, "'=' is expected after a setting's name");
	e->name[e->nsettings] = (struct jfrspec_text){ s + start, i - start };
	start = ++i;
	while (i < len && s[i] != ';') {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f || c == '#' || c == ',')
			return fail(err, errlen, s, len, i, "a setting's value holds a control character, '#' or ','");
		i++;
	}
	if (i == start || i - start > JFRSPEC_MAX_VALUE)
		return fail(err, errlen, s, len, start, "a setting's value must be 1 to 64 bytes");
	e->value[e->nsettings++] = (struct jfrspec_text){ s + start, i - start };
	*at = i < len ? i + 1 : i;
	if (i < len && *at == len)
		return fail(err, errlen, s, len, i, "a setting is expected after ';'");
	return 0;
}

int jfrspec_parse(const char *s, size_t len, struct jfrspec_entry *e, char *err, size_t errlen)
{
	size_t i = 0;

	memset(e, 0, sizeof *e);
	while (i < len && s[i] != '#') {
		if (!pattern_char(s[i]))
			return fail(err, errlen, s, len, i,
				    "an event type holds only letters, digits, '.', '_', '$' and the wildcard '*'");
		i++;
	}
	if (i == 0)
		return fail(err, errlen, s, len, 0, "an event type name is expected");
	if (i > JFRSPEC_MAX_PATTERN)
		return fail(err, errlen, s, len, 0, "an event type of more than 256 bytes");
	e->pattern = (struct jfrspec_text){ s, i };
	if (i == len)
		return 0;
	i++;
	if (i == len)
		return fail(err, errlen, s, len, i, "a setting is expected after '#'");
	while (i < len) {
		int rc = parse_setting(s, len, &i, e, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* P[0..PN) against N: '*' any run, backtracking to the last star only. */
bool jfrspec_match(const struct jfrspec_text *pattern, const char *name)
{
	const char *p = pattern->p, *pend = p + pattern->n, *n = name;
	const char *star = NULL, *resume = NULL;

	while (*n) {
		if (p < pend && *p == '*') {
			star = ++p;
			resume = n;
		} else if (p < pend && *p == *n) {
			p++;
			n++;
		} else if (star) {
			p = star;
			n = ++resume;
		} else {
			return false;
		}
	}
	while (p < pend && *p == '*')
		p++;
	return p == pend;
}

const struct jfrspec_text *jfrspec_setting(const struct jfrspec_entry *e, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < e->nsettings; i++)
		if (e->name[i].n == n && memcmp(e->name[i].p, name, n) == 0)
			return &e->value[i];
	return NULL;
}

int jfrspec_duration_ns(const struct jfrspec_text *v, int64_t *ns)
{
	static const struct { const char *unit; int64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
		{ "m", 60LL * 1000000000 }, { "h", 3600LL * 1000000000 }, { "d", 86400LL * 1000000000 },
	};
	size_t i = 0;
	int64_t n = 0;

	while (i < v->n && v->p[i] >= '0' && v->p[i] <= '9') {
		if (n > (INT64_MAX - 9) / 10)
			return -EINVAL;
		n = n * 10 + (v->p[i++] - '0');
	}
	if (i == 0)
		return -EINVAL;
	while (i < v->n && v->p[i] == ' ')
		i++;
	if (i == v->n) {
		if (n != 0)
			return -EINVAL;   /* JFR takes a bare number only for 0 */
		*ns = 0;
		return 0;
	}
	for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
		size_t ul = strlen(units[u].unit);
		if (v->n - i == ul && memcmp(v->p + i, units[u].unit, ul) == 0) {
			if (n > INT64_MAX / units[u].ns)
				return -EINVAL;
			*ns = n * units[u].ns;
			return 0;
		}
	}
	return -EINVAL;
}
