/* fuzz_classfile.c: libFuzzer target for the class-file rewriter
 * (agent/classfile.h and the modules under it).
 *
 * Input: a class file. It is rewritten twice by classfile_inject(): with
 * every method picked for enter and exit, then with every method picked
 * alternately enter only (even sites) and exit only (odd sites), each
 * picked method's first, third ... line with a call too (SELECT_LINES).
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - the result is > 0 with *out set, 0 with *out untouched and no reason,
 *    or -EINVAL, -ENOTSUP (-ENOMEM) with a reason and *out untouched;
 *  - every REFUSED call has a reason; when the class is fine, the methods
 *    rewritten plus the methods refused are the methods picked;
 *  - the same input and picks give the same bytes (no state, no
 *    uninitialized memory in the output);
 *  - the output is a class file the rewriter reads again: with nothing
 *    picked it is 0; picked as the first time it is not malformed (never
 *    -EINVAL), and a method refused then for a malformed reason (not for
 *    what the second rewrite adds: near 64 KiB, a conditional branch that
 *    no longer reaches, max_stack, the tables' limits) was refused the first
 *    time too, i.e. the first pass wrote no malformed code, frames or tables
 *    (the same picks: enter only, say, does not scan a constructor as exit
 *    does, so it may let through what exit would refuse);
 *  - natives wrapped (cfwrap.h), every one picked: > 0 with *out set and
 *    as many wrapped as picked, 0 with *out untouched, or an error with a
 *    reason; only an input that reads as a class file (cfmethods.h) is
 *    wrapped, the output reads too, with that many more methods, asks about
 *    none of its natives with the same prefix and about the same number
 *    (the renamed ones) with another, and the rewriter finds in it no malformed method that
 *    it did not find in the input (the wrappers' code is well formed);
 *  - and ASan/UBSan: the input is an exact-size copy.
 * fuzz_classfile_rewritten counts the inputs rewritten (> 0) for the replay
 * of the corpus (replay_corpus.c, REPLAY_ACCEPTED).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfmethods.h"
#include "cfwrap.h"
#include "classfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern size_t fuzz_classfile_rewritten;

size_t fuzz_classfile_rewritten;

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_classfile: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

enum mode { PICK_NONE, PICK_BOTH, PICK_ALTERNATE };

/* What one rewrite saw: the picks, and the methods refused (as hashes of
 * name and descriptor, with whether the reason is one the rewrite itself
 * can cause). */
struct run {
	enum mode mode;
	int32_t next_site;
	size_t picked, refused;
	bool cur_picked;             /* the method SELECT was last asked about */
	uint64_t *bad;               /* refused for a malformed reason */
	size_t nbad, capbad;
};

static uint64_t method_hash(const char *name, size_t nl, const char *desc, size_t dl)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < nl; i++)
		h = (h ^ (uint8_t)name[i]) * 1099511628211ull;
	h = (h ^ 0x100) * 1099511628211ull;
	for (size_t i = 0; i < dl; i++)
		h = (h ^ (uint8_t)desc[i]) * 1099511628211ull;
	return h;
}

static void on_select(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
		      uint16_t access, struct classfile_pick *pick)
{
	struct run *r = ctx;
	(void)name; (void)nl; (void)desc; (void)dl; (void)access;
	if (pick->site >= 0 || pick->enter || pick->exit)
		die("SELECT offered a method already picked", NULL);
	r->cur_picked = r->mode != PICK_NONE;
	if (r->mode == PICK_NONE)
		return;
	int32_t site = r->next_site++;
	pick->site = site;
	pick->enter = r->mode == PICK_BOTH || site % 2 == 0;
	pick->exit = r->mode == PICK_BOTH || site % 2 == 1;
	r->picked++;
}

/* Lines only of a picked method (asked right after SELECT), so the methods
 * changed are still the methods picked. */
static void on_lines(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
		     uint16_t access, const uint32_t *lines, size_t n, int32_t *sites)
{
	struct run *r = ctx;
	(void)name; (void)nl; (void)desc; (void)dl; (void)access; (void)lines;
	for (size_t k = 0; k < n; k++) {
		if (sites[k] != -1)
			die("SELECT_LINES offered a line already given a site", NULL);
		if (r->mode == PICK_ALTERNATE && r->cur_picked && k % 2 == 0)
			sites[k] = r->next_site++;
	}
}

/* Every notify call site gets a call: the rewriter walks each method's code
 * for them whenever the pool names notify()V or notifyAll()V. */
static int32_t on_notify(void *ctx, bool all)
{
	struct run *r = ctx;
	(void)all;
	return r->mode == PICK_NONE ? -1 : r->next_site++;
}

/* Reasons a method may get on its second rewrite only: the first one made it
 * bigger (codeattr.c, codeedit.c). */
static int grown(const char *why)
{
	static const char *const parts[] = { "no longer reach", "64 KiB", "max_stack would overflow",
					     "would overflow", "too many" };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(why, parts[i]))
			return 1;
	return 0;
}

static void on_refused(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
		       const char *why)
{
	struct run *r = ctx;
	if (!why || !why[0])
		die("REFUSED without a reason", NULL);
	r->refused++;
	if (grown(why))
		return;
	if (r->nbad == r->capbad) {
		r->capbad = r->capbad ? 2 * r->capbad : 16;
		r->bad = realloc(r->bad, r->capbad * sizeof(*r->bad));
		if (!r->bad)
			abort();
	}
	r->bad[r->nbad++] = method_hash(name, nl, desc, dl);
}

/* Rewrite IN with MODE; checks the result's form. Returns it, *OUT malloc()ed if > 0. */
static int rewrite(const uint8_t *in, size_t len, enum mode mode, struct run *r, uint8_t **out,
		   size_t *out_len)
{
	struct classfile_hooks h = { r, on_select, on_refused, on_lines, on_notify };
	uint8_t sentinel;
	const char *why = "unset";

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	*out = &sentinel;
	*out_len = 7;
	int rc = classfile_inject(in, len, &h, out, out_len, &why);
	if (rc > 0) {
		if (*out == &sentinel || !*out)
			die("rewritten without an output", NULL);
		if (why)
			die("rewritten with a reason", why);
		if (r->picked != (size_t)rc + r->refused)
			die("rewritten + refused != picked", NULL);
		return rc;
	}
	if (*out != &sentinel || *out_len != 7)
		die("*out changed without a rewrite", why);
	*out = NULL;
	if (rc == 0) {
		if (why)
			die("0 with a reason", why);
		if (r->picked != r->refused)
			die("nothing rewritten, yet not every pick refused", NULL);
		return 0;
	}
	if (rc != -EINVAL && rc != -ENOTSUP && rc != -ENOMEM)
		die("an unexpected error", NULL);
	if (!why || !why[0])
		die("an error without a reason", NULL);
	return rc;
}

static int was_bad(const struct run *r, uint64_t h)
{
	for (size_t i = 0; i < r->nbad; i++)
		if (r->bad[i] == h)
			return 1;
	return 0;
}

static void check_output(const uint8_t *out, size_t len, enum mode mode, const struct run *first)
{
	struct run again;
	uint8_t *out2;
	size_t len2;

	if (rewrite(out, len, PICK_NONE, &again, &out2, &len2) != 0)
		die("the output does not read again with nothing picked", NULL);
	free(again.bad);
	int rc = rewrite(out, len, mode, &again, &out2, &len2);
	if (rc == -EINVAL)
		die("the output is a malformed class file", NULL);
	for (size_t i = 0; i < again.nbad; i++)
		if (!was_bad(first, again.bad[i]))
			die("a method rewritten the first time is malformed the second time", NULL);
	free(again.bad);
	free(out2);
}

static void one_mode(const uint8_t *in, size_t len, enum mode mode)
{
	struct run r, r2;
	uint8_t *out, *out2;
	size_t out_len, len2;

	int rc = rewrite(in, len, mode, &r, &out, &out_len);
	int rc2 = rewrite(in, len, mode, &r2, &out2, &len2);
	if (rc != rc2 || (rc > 0 && (out_len != len2 || memcmp(out, out2, out_len) != 0)))
		die("the same input rewritten twice differs", NULL);
	free(out2);
	free(r2.bad);
	if (rc > 0) {
		if (mode == PICK_BOTH)
			fuzz_classfile_rewritten++;
		check_output(out, out_len, mode, &r);
		free(out);
	}
	free(r.bad);
}

static bool pick_every_native(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
			      uint16_t access)
{
	(void)name; (void)nl; (void)desc; (void)dl;
	if (!(access & 0x0100) || (access & 0x0400))
		die("SELECT offered a method that is not native, or abstract", NULL);
	++*(size_t *)ctx;
	return true;
}

/* In the output, with another prefix: every native asked is a renamed one. */
static bool pick_prefixed_native(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
				 uint16_t access)
{
	if (nl < 3 || memcmp(name, "$w$", 3) != 0)
		die("wrap: a native of the output that is not a renamed one", NULL);
	return pick_every_native(ctx, name, nl, desc, dl, access);
}

/* The natives of C that have our prefix already: cfwrap.h leaves them. */
static size_t prefixed_natives(const struct cfmethods *c)
{
	size_t n = 0;

	for (size_t i = 0; !(c->access & CFM_ACC_INTERFACE) && i < c->nmethods; i++)
		n += (c->methods[i].access & (CFM_ACC_NATIVE | CFM_ACC_ABSTRACT)) == CFM_ACC_NATIVE &&
		     c->methods[i].name_len >= 3 && memcmp(c->methods[i].name, "$w$", 3) == 0;
	return n;
}

static void wrap_mode(const uint8_t *in, size_t len)
{
	size_t asked = 0, again = 0;
	uint8_t sentinel, *out = &sentinel, *out2 = &sentinel;
	size_t out_len = 7, len2 = 7;
	const char *why = "unset";
	struct cfmethods before, after;

	int rc = cfwrap_natives(in, len, "$w$", pick_every_native, &asked, &out, &out_len, &why);
	if (rc <= 0) {
		if (out != &sentinel || out_len != 7)
			die("wrap: *out changed without a change", why);
		if (rc == 0 && why)
			die("wrap: 0 with a reason", why);
		if (rc < 0 && (!why || !why[0] || (rc != -EINVAL && rc != -ENOTSUP && rc != -ENOMEM)))
			die("wrap: an error without a reason, or an unexpected one", why);
		return;
	}
	if (why || !out || out == &sentinel || (size_t)rc != asked)
		die("wrap: wrapped is not what was picked, or a reason", why);
	/* the wrapper reads with cfmethods.h: it wraps only what that reads */
	if (cfmethods_read(in, len, &before, &why) != 0)
		die("wrap: a class cfmethods_read() refuses was wrapped", why);
	if (cfmethods_read(out, out_len, &after, &why) != 0 || after.nmethods != before.nmethods + (size_t)rc)
		die("wrap: the output does not read as the input with its wrappers", why);
	const size_t left = prefixed_natives(&before);
	cfmethods_free(&after);
	cfmethods_free(&before);
	/* its natives are the renamed ones (and those the input had with our
	 * prefix): never wrapped twice with one prefix, all there for another */
	if (cfwrap_natives(out, out_len, "$w$", pick_every_native, &again, &out2, &len2, &why) != 0 || again)
		die("wrap: the output's natives are wrapped again", why);
	/* (natives the input had with our prefix were never checked: they may
	 * be malformed) */
	if (!left && (cfwrap_natives(out, out_len, "$v$", pick_prefixed_native, &again, &out2, &len2, &why) !=
		      (int)asked || again != asked))
		die("wrap: the output's natives are not the renamed ones", why);
	if (out2 != &sentinel)
		free(out2);
	struct run r1, r2;
	uint8_t *o1, *o2;
	size_t l1, l2;
	int rc1 = rewrite(in, len, PICK_BOTH, &r1, &o1, &l1);
	int rc2 = rewrite(out, out_len, PICK_BOTH, &r2, &o2, &l2);
	if (rc1 != -EINVAL && rc2 == -EINVAL)
		die("wrap: the rewriter finds the output malformed, not the input", NULL);
	for (size_t i = 0; rc1 != -EINVAL && i < r2.nbad; i++)
		if (!was_bad(&r1, r2.bad[i]))
			die("wrap: a wrapper's code is malformed", NULL);
	free(o1);
	free(o2);
	free(r1.bad);
	free(r2.bad);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so that ASan sees any read past the end */
	uint8_t *in = malloc(size ? size : 1);
	if (!in)
		abort();
	memcpy(in, data, size);
	one_mode(in, size, PICK_BOTH);
	one_mode(in, size, PICK_ALTERNATE);
	wrap_mode(in, size);
	free(in);
	return 0;
}
