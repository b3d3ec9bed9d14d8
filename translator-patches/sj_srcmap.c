/* sj_srcmap.c: see sj_srcmap.h. */
#define _GNU_SOURCE /* memmem */
#include "sj_srcmap.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sj_translate.h"

void sj_srcmap_init(struct sj_srcmap *m, const struct sj_srcmap_file *files, size_t nfiles)
{
	memset(m, 0, sizeof *m);
	m->files = files;
	m->nfiles = nfiles;
}

static bool ends_with(const char *s, size_t n, const char *tail, size_t tn)
{
	return n >= tn && memcmp(s + n - tn, tail, tn) == 0;
}

/* Digits ending at S[N-1], as a number; *N moves before them.  False: none. */
static bool number_before(const char *s, size_t *n, unsigned *value)
{
	size_t end = *n, i = end;
	unsigned long v = 0, scale = 1;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' && end - i < 9)
		i--;
	if (i == end)
		return false;
	for (size_t k = end; k > i; k--, scale *= 10)
		v += (unsigned long)(s[k - 1] - '0') * scale;
	*n = i;
	*value = (unsigned)v;
	return true;
}

/* A line ending in "at FILE:LINE:COL": note where the next source line is from. */
static void note_location(struct sj_srcmap *m, const char *s, size_t n)
{
	unsigned line, col;

	if (!number_before(s, &n, &col) || n == 0 || s[n - 1] != ':')
		return;
	n--;
	if (!number_before(s, &n, &line) || n == 0 || s[n - 1] != ':')
		return;
	n--;
	if (!memmem(s, n, " at ", 4))
		return;	/* not a location after all */
	if (!ends_with(s, n, " at ", 4)) {	/* else: the file of the token before */
		m->last = NULL;
		for (size_t i = 0; i < m->nfiles && !m->last; i++) {
			size_t fn = strlen(m->files[i].stap_name);
			if (ends_with(s, n, m->files[i].stap_name, fn) &&
			    ends_with(s, n - fn, " at ", 4))
				m->last = &m->files[i];
		}
	}
	m->at = m->last;
	m->line = line;
	m->col = col;
}

/* Line LINE (1-based) of F's text, if the text has it. */
static const char *user_line(const struct sj_srcmap_file *f, unsigned line, size_t *len)
{
	const char *p = f->text, *end = f->text + f->len;

	for (unsigned l = 1; l < line; l++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	if (p >= end || line == 0)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	return p;
}

/* "<blanks>source: ": the length of that prefix, or 0. */
static size_t source_prefix(const char *s, size_t n)
{
	size_t i = strspn(s, " \t");
	return i < n && n - i >= 8 && memcmp(s + i, "source: ", 8) == 0 ? i + 8 : 0;
}

static bool is_caret_line(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i + 1 == n && s[i] == '^';
}

/* S[0..N) with each temporary path replaced by the user's file name. */
static int put_paths(const struct sj_srcmap *m, const char *s, size_t n, struct sj_buf *out)
{
	int rc = 0;

	while (n > 0) {
		const char *hit = NULL;
		const struct sj_srcmap_file *f = NULL;
		for (size_t i = 0; i < m->nfiles; i++) {
			const struct sj_srcmap_file *g = &m->files[i];
			const char *h = g->user_name ? memmem(s, n, g->stap_name, strlen(g->stap_name)) : NULL;
			if (h && (!hit || h < hit)) {
				hit = h;
				f = g;
			}
		}
		size_t keep = hit ? (size_t)(hit - s) : n;
		rc |= sj_buf_add(out, s, keep);
		if (!hit)
			break;
		rc |= sj_buf_puts(out, f->user_name);
		s += keep + strlen(f->stap_name);
		n -= keep + strlen(f->stap_name);
	}
	return rc ? -ENOMEM : 0;
}

/* LINE[0..N) with each '__stapjava_sN' of a known slot as its probe point, into
 * OUT; false (OUT untouched) when there is none. */
static bool name_slots(const struct sj_srcmap *m, const char *line, size_t n, struct sj_buf *out)
{
	static const char pfx[] = "'" SJ_SLOT_PREFIX;
	const char *p = line, *end = line + n;
	bool any = false;
	int rc = 0;

	for (const char *h; (h = memmem(p, (size_t)(end - p), pfx, sizeof pfx - 1));) {
		const char *d = h + sizeof pfx - 1, *q = d;
		while (q < end && *q >= '0' && *q <= '9')
			q++;
		unsigned long slot = q > d ? strtoul(d, NULL, 10) : ULONG_MAX;
		if (q == end || *q != '\'' || slot >= m->nslots) {
			rc |= sj_buf_add(out, p, (size_t)(d - p));
			p = d;
			continue;
		}
		/* stap names the probe by its first component, the alias's process(...) */
		const char *probe = "Probe 'process'";
		const char *pp = !any ? memmem(p, (size_t)(h - p), probe, strlen(probe)) : NULL;
		if (pp) {
			rc |= sj_buf_add(out, p, (size_t)(pp - p));
			rc |= sj_buf_puts(out, "Probe 'java'");
			p = pp + strlen(probe);
		}
		rc |= sj_buf_add(out, p, (size_t)(h - p) + 1);
		rc |= sj_buf_puts(out, m->slot_points[slot]);
		p = q;
		any = true;
	}
	if (!any)
		return false;
	rc |= sj_buf_add(out, p, (size_t)(end - p));
	return rc == 0;
}

int sj_srcmap_line(struct sj_srcmap *m, const char *line, size_t len, struct sj_buf *out)
{
	size_t n = len > 0 && line[len - 1] == '\n' ? len - 1 : len;
	const char *caret_src = m->caret_src;
	int rc = 0;

	m->caret_src = NULL;
	if (memchr(line, '\033', n))
		m->colour = true;
	if (m->colour)
		return put_paths(m, line, len, out);

	size_t prefix = source_prefix(line, n), ulen = 0;
	const char *u = prefix && m->at ? user_line(m->at, m->line, &ulen) : NULL;
	if (u) {
		rc |= sj_buf_add(out, line, prefix);
		rc |= sj_buf_add(out, u, ulen);
		rc |= sj_buf_add(out, line + n, len - n);
		m->caret_src = u;
		m->caret_len = ulen;
		m->caret_indent = prefix;
	} else if (caret_src && is_caret_line(line, n)) {
		/* as stap draws it: the blanks of the line kept, anything else a space */
		for (size_t i = 0; i < m->caret_indent; i++)
			rc |= sj_buf_add(out, " ", 1);
		for (size_t i = 0; i + 1 < m->col; i++) {
			char c = i < m->caret_len && isspace((unsigned char)caret_src[i]) ? caret_src[i] : ' ';
			rc |= sj_buf_add(out, &c, 1);
		}
		rc |= sj_buf_add(out, "^", 1);
		rc |= sj_buf_add(out, line + n, len - n);
	} else {
		struct sj_buf named = { 0 };
		if (m->nslots && name_slots(m, line, len, &named))
			rc |= put_paths(m, sj_buf_str(&named), named.len, out);
		else
			rc |= put_paths(m, line, len, out);
		sj_buf_free(&named);
	}
	if (prefix)
		m->at = NULL;	/* each location is for one source line */
	else
		note_location(m, line, n);
	return rc ? -ENOMEM : 0;
}
