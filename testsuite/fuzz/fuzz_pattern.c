/* fuzz_pattern.c: libFuzzer target for the probe-point patterns
 * (runtime/pattern.c and runtime/signature.c): what a bridge sends an agent
 * is compiled there, so every byte of it is untrusted.
 *
 * Input: one selector byte (bit 0: a class pattern, else a method one), the
 * pattern, a NUL, then a name to match (a wire method name, or a class
 * signature for class patterns).
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - compiling returns 0, -EINVAL or -ENAMETOOLONG; a refusal comes with a
 *    one-line message, and the refused pattern matches nothing;
 *  - a compiled pattern's text compiles again to itself (what the bridge
 *    sends on is what it read);
 *  - a method pattern that selects a name may select that name's class
 *    (pattern_method_may_select_class never rules out a real match);
 *  - a copy of the pattern to its text's length (pattern_dup) matches as
 *    the pattern does, and an index of it (runtime/patindex.c, what an
 *    agent matches a connection's registrations through) gives the same
 *    answers: whether it selects the name, and may select its class;
 *  - and ASan/UBSan.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patindex.h"
#include "pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pattern pat, again;
static char err[512];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_pattern: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static bool found(void *ctx, size_t i)
{
	(void)i;
	*(bool *)ctx = true;
	return true;
}

/* The index of a copy of PAT answers as PAT does, for NAME and its class. */
static void check_index(enum pattern_kind kind, const char *name, size_t nlen, const char *norm)
{
	struct pattern *copy = pattern_dup(&pat);
	const struct pattern *one[1] = { copy };
	struct patindex *ix = NULL;
	bool want, got = false;

	if (!copy || patindex_build(&ix, kind, one, 1) != 0)
		die("no index of one pattern", norm);
	if (kind == PATTERN_METHOD) {
		want = pattern_match_method(&pat, name, nlen);
		if (pattern_match_method(copy, name, nlen) != want)
			die("a copy matches otherwise", norm);
		patindex_match_method(ix, name, nlen, found, &got);
		if (got != want)
			die("the index matches otherwise", norm);
		for (size_t cl = 0; cl <= nlen; cl++) {
			got = false;
			patindex_method_classes(ix, name, cl, found, &got);
			if (got != pattern_method_may_select_class(&pat, name, cl))
				die("the index may select a class otherwise", norm);
		}
	} else {
		want = pattern_match_class(&pat, name, nlen);
		if (pattern_match_class(copy, name, nlen) != want)
			die("a copy matches otherwise", norm);
		patindex_match_class(ix, name, nlen, found, &got);
		if (got != want)
			die("the index matches otherwise", norm);
	}
	patindex_free(ix);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum pattern_kind kind = (data[0] & 1) ? PATTERN_CLASS : PATTERN_METHOD;
	const char *text = (const char *)data + 1;
	size_t rest = size - 1;
	const char *nul = memchr(text, '\0', rest);
	size_t len = nul ? (size_t)(nul - text) : rest;
	const char *name = nul ? nul + 1 : "";
	size_t nlen = nul ? rest - len - 1 : 0;

	memset(err, 'x', sizeof err);
	err[sizeof err - 1] = '\0';
	int rc = pattern_compile(&pat, kind, text, len, err, sizeof err);
	if (rc != 0) {
		if (rc != -EINVAL && rc != -ENAMETOOLONG)
			die("unexpected return code", NULL);
		if (!err[0] || strchr(err, '\n'))
			die("a refusal without a one-line message", err);
		if (pattern_match_method(&pat, name, nlen) || pattern_match_class(&pat, name, nlen))
			die("a refused pattern matches", err);
		return 0;
	}
	size_t tlen = 0;
	const char *norm = pattern_text(&pat, &tlen);
	if (tlen != strlen(norm))
		die("the text's length is wrong", norm);
	if (pattern_compile(&again, kind, norm, tlen, err, sizeof err) != 0)
		die("the normalised text does not compile", err);
	if (again.len != tlen || memcmp(again.text, norm, tlen) != 0)
		die("compiling the normalised text changes it", norm);
	if (kind == PATTERN_METHOD && pattern_match_method(&pat, name, nlen)) {
		/* the class of a wire name: up to the last '.' before '(' */
		const char *open = memchr(name, '(', nlen);
		size_t upto = open ? (size_t)(open - name) : nlen, dot = upto;
		while (dot > 0 && name[dot - 1] != '.')
			dot--;
		if (dot > 1 && !pattern_method_may_select_class(&pat, name, dot - 1))
			die("a match whose class was ruled out", norm);
	}
	if (kind == PATTERN_CLASS)
		(void)pattern_match_class_name(&pat, name, nlen);
	check_index(kind, name, nlen, norm);
	return 0;
}
