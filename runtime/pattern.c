/* pattern.c — Java names on the wire, and the `*` patterns that select them.
 * The contract is in pattern.h; the user's view is in doc/patterns.md. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem */
#endif
#include "pattern.h"
#include "signature.h"
#include "errtext.h"
#include "mutf8.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- names seen in Java form ------------------------------------------------------ */

/* A name as the matcher sees it.  Class signatures are matched in Java form
 * ("java.lang.String[]") but read in place, through this mapping, so matching
 * neither copies nor limits the length of what the JVM hands us. */
struct subject {
	const char *elem;	/* the element type as stored: "java/lang/String", "int" */
	size_t elem_len;
	bool slash_to_dot;
	size_t dims;		/* number of "[]" after the element */
	size_t len;		/* length of the whole Java form */
};

static char subject_at(const struct subject *s, size_t i)
{
	if (i < s->elem_len) {
		char c = s->elem[i];
		return s->slash_to_dot && c == '/' ? '.' : c;
	}
	return (i - s->elem_len) % 2 ? ']' : '[';
}

static void subject_init_plain(struct subject *s, const char *name, size_t len)
{
	*s = (struct subject){ .elem = name, .elem_len = len, .len = len };
}

static const char *primitive_name(char code)
{
	switch (code) {
	case 'Z': return "boolean";
	case 'B': return "byte";
	case 'C': return "char";
	case 'S': return "short";
	case 'I': return "int";
	case 'J': return "long";
	case 'F': return "float";
	case 'D': return "double";
	case 'V': return "void";
	default:  return NULL;
	}
}

/* "Lpkg/Name;" or "[...[X": the signature grammar of JVMS 4.3.2, plus the bare
 * primitive codes JVMTI reports for int.class and friends.  A '*' inside "L...;"
 * is just a byte here, which lets array-signature patterns reuse this parser. */
static int subject_from_signature(struct subject *s, const char *sig, size_t len)
{
	size_t dims = 0;

	if (!sig)
		return -EINVAL;
	while (dims < len && sig[dims] == '[')
		dims++;
	const char *rest = sig + dims;
	size_t rest_len = len - dims;

	if (rest_len >= 3 && rest[0] == 'L' && rest[rest_len - 1] == ';') {
		const char *elem = rest + 1;
		size_t elem_len = rest_len - 2;

		/* a second ';' would mean two signatures; a NUL would cut the Java form short */
		if (memchr(elem, ';', elem_len) || memchr(elem, '[', elem_len) ||
		    memchr(elem, '\0', elem_len))
			return -EINVAL;
		*s = (struct subject){ .elem = elem, .elem_len = elem_len, .slash_to_dot = true,
				       .dims = dims, .len = elem_len + 2 * dims };
		return 0;
	}
	const char *prim = rest_len == 1 ? primitive_name(rest[0]) : NULL;

	if (!prim || (rest[0] == 'V' && dims > 0))
		return -EINVAL;
	size_t prim_len = strlen(prim);

	*s = (struct subject){ .elem = prim, .elem_len = prim_len, .dims = dims,
			       .len = prim_len + 2 * dims };
	return 0;
}

/* The class name forms a peer may send besides a JVMTI signature: the
 * seed's "Ljava/lang/Object" (no ';') and the Java form "java.lang.Object"
 * (a third-party agent echoing what it was registered with). */
static int subject_from_class_name(struct subject *s, const char *name, size_t len)
{
	if (subject_from_signature(s, name, len) == 0)
		return 0;
	if (!name || len == 0 || memchr(name, ';', len) || memchr(name, '[', len) || memchr(name, '\0', len))
		return -EINVAL;
	if (name[0] == 'L' && len >= 2 && memchr(name, '/', len)) {
		*s = (struct subject){ .elem = name + 1, .elem_len = len - 1, .slash_to_dot = true,
				       .len = len - 1 };
		return 0;
	}
	if (memchr(name, '/', len))
		return -EINVAL;
	*s = (struct subject){ .elem = name, .elem_len = len, .len = len };
	return 0;
}

/* Writes the Java form and a NUL; OUT must hold s->len + 1 bytes. */
static void subject_copy(const struct subject *s, char *out)
{
	for (size_t i = 0; i < s->len; i++)
		out[i] = subject_at(s, i);
	out[s->len] = '\0';
}

/* ---- matching ---------------------------------------------------------------------- */

static bool subject_is_plain_until(const struct subject *s, size_t end)
{
	return !s->slash_to_dot && end <= s->elem_len;
}

static bool subject_has_at(const struct subject *s, size_t at, const char *lit, size_t n)
{
	if (subject_is_plain_until(s, at + n))
		return memcmp(s->elem + at, lit, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (subject_at(s, at + i) != lit[i])
			return false;
	return true;
}

/* Earliest occurrence of SEG in S[*from, end); on success *from moves past it. */
static bool subject_find(const struct subject *s, size_t *from, size_t end,
			 const char *seg, size_t n)
{
	/* Method names, the hot path, are plain: glibc's memmem is linear there. */
	if (subject_is_plain_until(s, end)) {
		const char *hit = memmem(s->elem + *from, end - *from, seg, n);

		if (!hit)
			return false;
		*from = (size_t)(hit - s->elem) + n;
		return true;
	}
	for (size_t at = *from; at + n <= end; at++) {
		if (subject_has_at(s, at, seg, n)) {
			*from = at + n;
			return true;
		}
	}
	return false;
}

/* The literal prefix and suffix are anchored, so they are checked first and cut off.
 * What remains is "*seg*seg*...*": each segment floats, and taking its leftmost
 * occurrence never loses a match, so one forward pass decides and nothing backtracks. */
static bool glob_match_from(const struct pattern *p, size_t off, const struct subject *s)
{
	/* OFF: a root pattern's class is left out (its bytes hold no '*') */
	const char *text = p->text + off;
	size_t len = p->len - off, prefix_len = p->prefix_len - off, suffix_len = p->suffix_len;

	if (!p->has_star)
		return s->len == len && subject_has_at(s, 0, text, len);
	if (s->len < prefix_len + suffix_len)
		return false;
	if (!subject_has_at(s, 0, text, prefix_len))
		return false;
	size_t end = s->len - suffix_len;

	if (!subject_has_at(s, end, text + len - suffix_len, suffix_len))
		return false;

	size_t at = prefix_len;
	size_t pi = prefix_len;
	size_t pend = len - suffix_len;

	while (pi < pend) {
		if (text[pi] == '*') {
			pi++;
			continue;
		}
		const char *seg = text + pi;
		const char *star = memchr(seg, '*', pend - pi);
		size_t n = (size_t)(star - seg);	/* the last '*' is at pend - 1 */

		if (!subject_find(s, &at, end, seg, n))
			return false;
		pi += n;
	}
	return true;
}

static bool glob_match(const struct pattern *p, const struct subject *s)
{
	return glob_match_from(p, 0, s);
}

/* NAME's part from OFF against P's text from POFF, with the rules of
 * pattern_match_method() */
static bool method_match_from(const struct pattern *p, size_t poff, const char *name, size_t len, size_t off)
{
	struct subject s;

	/* a wire name never ends in a digit (a descriptor ends in a type):
	 * one that does is a line's site, for line patterns only */
	if ((len && name[len - 1] >= '0' && name[len - 1] <= '9') != (p->line != 0))
		return false;
	if (!p->has_descriptor) {
		const char *paren = memchr(name, '(', len);

		if (paren)
			len = (size_t)(paren - name);
	}
	if (off > len)
		return false;
	subject_init_plain(&s, name + off, len - off);
	return glob_match_from(p, poff, &s);
}

bool pattern_match_method(const struct pattern *p, const char *name, size_t len)
{
	if (!p || p->kind != PATTERN_METHOD || !name)
		return false;
	/* a root pattern's own class, without the '^' */
	return method_match_from(p, p->root_len ? 1 : 0, name, len, 0);
}

bool pattern_match_method_via(const struct pattern *p, const char *name, size_t len,
			      pattern_descends_fn descends, void *ctx)
{
	if (!p || p->kind != PATTERN_METHOD || !name)
		return false;
	if (!p->root_len)
		return pattern_match_method(p, name, len);
	const char *paren = memchr(name, '(', len);
	const char *end = paren ? paren : name + len;
	const char *dot = NULL;
	for (const char *c = name; c < end; c++)
		if (*c == '.')
			dot = c;
	if (!dot)
		return false;
	size_t clen = (size_t)(dot - name);
	const char *root = p->text + 1;
	/* the method part (from the '.') first: it is the cheap test */
	if (!method_match_from(p, 1 + p->root_len, name, len, clen))
		return false;
	if (clen == p->root_len && memcmp(name, root, clen) == 0)
		return true;
	return descends && descends(ctx, name, clen, root, p->root_len);
}

const char *pattern_root(const struct pattern *p, size_t *len)
{
	*len = p ? p->root_len : 0;
	return p && p->root_len ? p->text + 1 : NULL;
}

bool pattern_match_class(const struct pattern *p, const char *sig, size_t len)
{
	struct subject s;

	if (!p || p->kind != PATTERN_CLASS || subject_from_signature(&s, sig, len) < 0)
		return false;
	return glob_match(p, &s);
}

bool pattern_match_class_name(const struct pattern *p, const char *name, size_t len)
{
	struct subject s;

	if (!p || p->kind != PATTERN_CLASS || subject_from_class_name(&s, name, len) < 0)
		return false;
	return glob_match(p, &s);
}

bool pattern_method_may_select_class(const struct pattern *p, const char *dotted, size_t len)
{
	if (!p || p->kind != PATTERN_METHOD || !dotted)
		return false;
	/* every method name of the class starts with "<dotted>." */
	size_t lit = p->has_star ? p->prefix_len : p->len;
	size_t n = lit < len + 1 ? lit : len + 1;
	size_t k = n < len ? n : len;
	if (memcmp(p->text, dotted, k) != 0)
		return false;
	return n <= len || p->text[len] == '.';
}

enum pattern_kind pattern_kind_of(const struct pattern *p)
{
	return p->kind;
}

const char *pattern_prefix(const struct pattern *p, size_t *len)
{
	*len = p->has_star ? p->prefix_len : p->len;
	return p->text;
}

const char *pattern_suffix(const struct pattern *p, size_t *len)
{
	*len = p->has_star ? p->suffix_len : p->len;
	return p->text + p->len - *len;
}

bool pattern_has_descriptor(const struct pattern *p)
{
	return p->has_descriptor;
}

size_t pattern_size(const struct pattern *p)
{
	/* matching never reads text past its NUL (glob_match, note_stars) */
	return offsetof(struct pattern, text) + p->len + 1;
}

struct pattern *pattern_dup(const struct pattern *p)
{
	struct pattern *copy = malloc(pattern_size(p));

	if (copy)
		memcpy(copy, p, pattern_size(p));
	return copy;
}

const char *pattern_text(const struct pattern *p, size_t *len)
{
	if (len)
		*len = p->len;
	return p->text;
}

bool pattern_is_literal(const struct pattern *p)
{
	return !p->has_star;
}

/* ---- compiling --------------------------------------------------------------------- */

/* No Java name holds these, and each is far likelier a quoting slip than
 * intent (spaces: ALLOW_SPACE, inside a Java-source parameter list). */
static int check_bytes(const char *text, size_t len, bool allow_space, char *err, size_t errlen)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == ' ' && !allow_space)
			return errtext_fail(err, errlen, -EINVAL,
				    "space at offset %zu cannot occur in a Java name", i);
		if (c < 0x20 || c == 0x7f)
			return errtext_fail(err, errlen, -EINVAL,
				    "control character 0x%02x at offset %zu cannot occur in a Java name",
				    c, i);
	}
	return 0;
}

/* Finds the descriptor's '(' (*open = LEN if there is none) and checks that the
 * parentheses could belong to a JVM method descriptor. */
static int locate_descriptor(const char *text, size_t len, size_t *open,
			     char *err, size_t errlen)
{
	size_t op = len, cl = len;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '(') {
			if (op != len)
				return errtext_fail(err, errlen, -EINVAL,
					    "second '(' at offset %zu: a method has one descriptor", i);
			op = i;
		} else if (text[i] == ')') {
			if (op == len)
				return errtext_fail(err, errlen, -EINVAL,
					    "')' at offset %zu has no '(' before it", i);
			if (cl != len)
				return errtext_fail(err, errlen, -EINVAL,
					    "second ')' at offset %zu: a descriptor has one parameter list", i);
			cl = i;
		}
	}
	if (op != len && cl == len)
		return errtext_fail(err, errlen, -EINVAL, "'(' at offset %zu has no matching ')'", op);
	if (op == 0)
		return errtext_fail(err, errlen, -EINVAL, "no method name before '(' at offset 0");
	if (cl == len - 1)
		return errtext_fail(err, errlen, -EINVAL,
			    "no return type after ')' at offset %zu (write V, a type, or *)", cl);
	*open = op;
	return 0;
}

/* The part before '(' must say which class, or leave it to a '*'; otherwise the
 * pattern could only ever match a method of a class with an empty name. */
static int check_method_name(const char *text, size_t name_len, char *err, size_t errlen)
{
	char last = text[name_len - 1];

	if (last == '.' || last == '/')
		return errtext_fail(err, errlen, -EINVAL,
			    "no method name after '%c' at offset %zu (write %c* for every method)",
			    last, name_len - 1, last);
	for (size_t i = 0; i < name_len; i++)
		if (text[i] == '.' || text[i] == '/' || text[i] == '*')
			return 0;
	return errtext_fail(err, errlen, -EINVAL,
		    "no class before the method name ending at offset %zu "
		    "(write Class.method, e.g. com.acme.Foo.bar, or *.method)", name_len);
}

static int compile_method(struct pattern *p, const char *text, size_t len,
			  char *err, size_t errlen)
{
	size_t open = len;
	int rc = locate_descriptor(text, len, &open, err, errlen);

	if (rc < 0)
		return rc;
	rc = check_method_name(text, open, err, errlen);
	if (rc < 0)
		return rc;
	/* Class names are dotted on the wire, types inside descriptors are not. */
	for (size_t i = 0; i < len; i++) {
		char c = text[i];

		if (i < open && c == '/')
			c = '.';
		else if (i > open && c == '.')
			c = '/';
		p->text[i] = c;
	}
	p->text[len] = '\0';
	p->len = len;
	p->has_descriptor = open < len;
	return 0;
}

/* A trailing ":LINE" off TEXT[0..*LEN) into *LINE. A ':' followed by
 * anything but a line number is left to the name (a JVM name may hold one). */
static int split_line(const char *text, size_t *len, uint32_t *line, char *err, size_t errlen)
{
	size_t n = *len, d = n;

	while (d && text[d - 1] >= '0' && text[d - 1] <= '9')
		d--;
	if (d == n || d == 0 || text[d - 1] != ':')
		return 0;
	if (text[d] == '0' || n - d > 9)
		return errtext_fail(err, errlen, -EINVAL,
			    "bad line number at offset %zu: a positive decimal number of at most 9 digits", d);
	if (d == 1)
		return errtext_fail(err, errlen, -EINVAL, "no method before the line at offset 0");
	uint32_t v = 0;
	for (size_t i = d; i < n; i++)
		v = v * 10 + (uint32_t)(text[i] - '0');
	*line = v;
	*len = d - 1;
	return 0;
}

/* P, a compiled method pattern, made to select line LINE of what it selects. */
static int append_line(struct pattern *p, uint32_t line, char *err, size_t errlen)
{
	char tail[24];
	int tn = snprintf(tail, sizeof tail, "%s:%" PRIu32, p->has_descriptor ? "" : "(*)*", line);

	if (p->len + (size_t)tn > PATTERN_MAX_LEN)
		return errtext_fail(err, errlen, -ENAMETOOLONG,
			    "pattern with its line is more than the limit of %d bytes", PATTERN_MAX_LEN);
	memcpy(p->text + p->len, tail, (size_t)tn + 1);
	p->len += (size_t)tn;
	p->has_descriptor = true;
	p->line = line;
	return 0;
}

/* "[I" and "[Lcom/acme/Foo;" are written in Java form, which is what class patterns match. */
static int compile_array_signature(struct pattern *p, const char *text, size_t len,
				   char *err, size_t errlen)
{
	struct subject s;

	if (subject_from_signature(&s, text, len) < 0)
		return errtext_fail(err, errlen, -EINVAL,
			    "'[' at offset 0 starts an array signature, but it is not one "
			    "(write e.g. [I, [Ljava/lang/String;, int[] or java.lang.String[])");
	if (s.len > PATTERN_MAX_LEN)
		return errtext_fail(err, errlen, -ENAMETOOLONG,
			    "pattern is %zu bytes long in Java form, more than the limit of %d",
			    s.len, PATTERN_MAX_LEN);
	subject_copy(&s, p->text);
	p->len = s.len;
	return 0;
}

static int compile_class(struct pattern *p, const char *text, size_t len,
			 char *err, size_t errlen)
{
	if (text[0] == '[')
		return compile_array_signature(p, text, len, err, errlen);

	size_t base = 0;	/* offset of the name in TEXT, for messages */

	if (text[0] == 'L' && text[len - 1] == ';') {
		if (len == 2)
			return errtext_fail(err, errlen, -EINVAL, "no class name between 'L' and ';'");
		base = 1;
		len -= 2;
	}
	const char *name = text + base;

	/* "L[I;" would read as an array signature once normalised */
	if (base && name[0] == '[')
		return errtext_fail(err, errlen, -EINVAL,
			    "'[' at offset 1 cannot start a class name (an array is [I or int[], not L[I;)");
	for (size_t i = 0; i < len; i++)
		if (name[i] == ';')
			return errtext_fail(err, errlen, -EINVAL,
				    "';' at offset %zu cannot occur in a class name "
				    "(write java.lang.String or Ljava/lang/String;)", base + i);
	if (name[len - 1] == '.' || name[len - 1] == '/')
		return errtext_fail(err, errlen, -EINVAL,
			    "no class name after '%c' at offset %zu (write %c* for a whole package)",
			    name[len - 1], base + len - 1, name[len - 1]);
	for (size_t i = 0; i < len; i++)
		p->text[i] = name[i] == '/' ? '.' : name[i];
	p->text[len] = '\0';
	p->len = len;
	return 0;
}

/* P, a compiled method pattern, made the root pattern "^" P: its class
 * (before the last '.' ahead of the '(') must be literal. */
static int make_root(struct pattern *p, char *err, size_t errlen)
{
	const char *open = memchr(p->text, '(', p->len);
	size_t end = open ? (size_t)(open - p->text) : p->len, dot = end;

	while (dot && p->text[dot - 1] != '.')
		dot--;
	if (dot < 2)
		return errtext_fail(err, errlen, -EINVAL, "no class between '^' and the method name");
	if (memchr(p->text, '*', dot - 1))
		return errtext_fail(err, errlen, -EINVAL,
			    "'*' in the class after '^' at offset %zu: '^' names one class (write ^com.acme.Base.run)",
			    1 + (size_t)((const char *)memchr(p->text, '*', dot - 1) - p->text));
	if (p->len + 1 > PATTERN_MAX_LEN)
		return errtext_fail(err, errlen, -ENAMETOOLONG,
			    "pattern is more than the limit of %d bytes", PATTERN_MAX_LEN);
	memmove(p->text + 1, p->text, p->len + 1);
	p->text[0] = '^';
	p->len++;
	p->root_len = dot - 1;
	return 0;
}

static void note_stars(struct pattern *p)
{
	const char *first = memchr(p->text, '*', p->len);

	p->has_star = first != NULL;
	if (!first) {
		p->prefix_len = p->suffix_len = p->len;
		return;
	}
	size_t last = p->len;

	while (p->text[last - 1] != '*')
		last--;
	p->prefix_len = (size_t)(first - p->text);
	p->suffix_len = p->len - last;
}

/* A pattern that failed to compile stays safe to match: it matches nothing. */
static void pattern_reset(struct pattern *p)
{
	p->kind = 0;
	p->has_descriptor = p->has_star = false;
	p->len = p->prefix_len = p->suffix_len = 0;
	p->line = 0;
	p->root_len = 0;
	p->text[0] = '\0';
}

int pattern_compile(struct pattern *p, enum pattern_kind kind, const char *text,
		    size_t len, char *err, size_t errlen)
{
	int rc;

	if (err && errlen)
		err[0] = '\0';
	if (!p)
		return errtext_fail(err, errlen, -EINVAL, "no pattern object given");
	pattern_reset(p);
	if (!text || len == 0)
		return errtext_fail(err, errlen, -EINVAL, "empty pattern");
	if (len > PATTERN_MAX_LEN)
		return errtext_fail(err, errlen, -ENAMETOOLONG,
			    "pattern is %zu bytes long, more than the limit of %d",
			    len, PATTERN_MAX_LEN);
	uint32_t line = 0;
	bool root = kind == PATTERN_METHOD && text[0] == '^';
	if (root) {
		text++;
		len--;
		if (len == 0)
			return errtext_fail(err, errlen, -EINVAL, "no class after '^' at offset 0");
	}
	if (kind == PATTERN_METHOD) {
		rc = split_line(text, &len, &line, err, errlen);
		if (rc < 0)
			return rc;
	}
	/* no return type: the parameters are Java source (signature.h) */
	char source[PATTERN_MAX_LEN + 1];
	const char *open = kind == PATTERN_METHOD ? memchr(text, '(', len) : NULL;
	if (open && open != text && text[len - 1] == ')') {
		/* the source's messages quote it: no control byte in them */
		rc = check_bytes(text, len, true, err, errlen);
		if (rc < 0)
			return rc;
		ssize_t n = signature_source_to_descriptor(text, len, (size_t)(open - text), source,
							   sizeof source, err, errlen);
		if (n < 0)
			return (int)n;
		text = source;
		len = (size_t)n;
	}
	rc = check_bytes(text, len, false, err, errlen);
	if (rc < 0)
		return rc;
	if (kind == PATTERN_METHOD)
		rc = compile_method(p, text, len, err, errlen);
	else if (kind == PATTERN_CLASS)
		rc = compile_class(p, text, len, err, errlen);
	else
		rc = errtext_fail(err, errlen, -EINVAL, "unknown pattern kind %d", (int)kind);
	if (rc < 0) {
		pattern_reset(p);
		return rc;
	}
	if (line) {
		rc = append_line(p, line, err, errlen);
		if (rc < 0) {
			pattern_reset(p);
			return rc;
		}
	}
	if (root) {
		rc = make_root(p, err, errlen);
		if (rc < 0) {
			pattern_reset(p);
			return rc;
		}
	}
	p->kind = kind;
	note_stars(p);
	return 0;
}

uint32_t pattern_line(const struct pattern *p)
{
	return p ? p->line : 0;
}

/* ---- building names ---------------------------------------------------------------- */

/* S's Java form into OUT, for the name_class_*_to_dotted() functions: RC is
 * how S was made from the caller's name. */
static ssize_t subject_to_dotted(int rc, const struct subject *s, char *out, size_t outlen)
{
	if (rc < 0)
		return -EINVAL;
	if (!out || s->len >= outlen)
		return -ENAMETOOLONG;
	subject_copy(s, out);
	return (ssize_t)s->len;
}

ssize_t name_class_signature_to_dotted(const char *sig, size_t len, char *out, size_t outlen)
{
	struct subject s;
	int rc = subject_from_signature(&s, sig, len);

	return subject_to_dotted(rc, &s, out, outlen);
}

ssize_t name_class_any_to_dotted(const char *name, size_t len, char *out, size_t outlen)
{
	struct subject s;
	int rc = subject_from_class_name(&s, name, len);

	return subject_to_dotted(rc, &s, out, outlen);
}

ssize_t name_method_wire_n(char *out, size_t outlen, const char *class_sig, const char *method,
			   size_t mlen, const char *descriptor, size_t dlen)
{
	struct subject s;

	if (!class_sig || !method || !descriptor || !mlen || !dlen || descriptor[0] != '(')
		return -EINVAL;
	if (subject_from_signature(&s, class_sig, strlen(class_sig)) < 0)
		return -EINVAL;
	size_t total = s.len + 1 + mlen + dlen;

	if (!out || total >= outlen || total > SSIZE_MAX)
		return -ENAMETOOLONG;
	subject_copy(&s, out);
	out[s.len] = '.';
	memcpy(out + s.len + 1, method, mlen);
	memcpy(out + s.len + 1 + mlen, descriptor, dlen);
	total = mutf8_to_utf8(out, total, MUTF8_NAME);
	out[total] = '\0';
	return (ssize_t)total;
}

ssize_t name_method_wire(char *out, size_t outlen, const char *class_sig,
			 const char *method, const char *descriptor)
{
	if (!method || !descriptor)
		return -EINVAL;
	return name_method_wire_n(out, outlen, class_sig, method, strlen(method), descriptor,
				  strlen(descriptor));
}
