/* fuzz_cfmethods.c: libFuzzer target for agent/cfmethods.c, which reads the
 * class files of a class path for stap-java -L (files of anyone's, so every
 * byte is untrusted).
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - the result is 0 with no reason, or -EINVAL (-ENOMEM) with a reason and
 *    the output cleared;
 *  - accepted: every name and descriptor lies inside the input, the class's
 *    name and each method's are not empty, each descriptor starts with '(';
 *    reading the same bytes again gives the same answer;
 *  - against the rewriter (classfile.h), which walks the same structure its
 *    own way: every method it offers SELECT is, in order, one of those read
 *    (the same pointers and flags); when it also accepts the class, the
 *    methods of what it writes read back as those of the input, by content;
 *    and a class it reads in full with nothing picked, this reads too unless
 *    the fault is one only this checks;
 *  - and ASan/UBSan: the input is an exact-size copy.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfmethods.h"
#include "classfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_cfmethods: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static void inside(const uint8_t *in, size_t len, const char *s, size_t n)
{
	if ((const uint8_t *)s < in || n > len || (const uint8_t *)s - in > (ptrdiff_t)(len - n))
		die("a name outside the input", NULL);
}

/* What the rewriter offers, checked against C's methods in order. */
struct walk {
	const struct cfmethods *c;
	size_t next;
	int picking;
};

static void on_select(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
		      uint16_t access, struct classfile_pick *pick)
{
	struct walk *w = ctx;
	/* methods without code are not offered: skip them */
	while (w->next < w->c->nmethods && (w->c->methods[w->next].name != name ||
					    w->c->methods[w->next].desc != desc))
		w->next++;
	if (w->next == w->c->nmethods)
		die("the rewriter offers a method not read, or out of order", NULL);
	const struct cfmethod *m = &w->c->methods[w->next++];
	if (m->name_len != nl || m->desc_len != dl || m->access != access)
		die("the rewriter sees a method otherwise", NULL);
	if (w->picking) {
		pick->site = (int32_t)w->next;
		pick->enter = pick->exit = 1;
	}
}

static void on_offer_nothing(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
			     uint16_t access, struct classfile_pick *pick)
{
	(void)ctx; (void)name; (void)nl; (void)desc; (void)dl; (void)access; (void)pick;
}

static void on_refused(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
		       const char *why)
{
	(void)ctx; (void)name; (void)nl; (void)desc; (void)dl; (void)why;
}

static int same_method(const struct cfmethod *a, const struct cfmethod *b)
{
	return a->access == b->access && a->name_len == b->name_len && a->desc_len == b->desc_len &&
	       memcmp(a->name, b->name, a->name_len) == 0 && memcmp(a->desc, b->desc, a->desc_len) == 0;
}

static void against_rewriter(const uint8_t *in, size_t len, const struct cfmethods *c)
{
	struct walk w = { c, 0, 1 };
	struct classfile_hooks h = { &w, on_select, on_refused, NULL, NULL };
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why;

	int rc = classfile_inject(in, len, &h, &out, &out_len, &why);
	if (rc <= 0)
		return;
	struct cfmethods back;
	if (cfmethods_read(out, out_len, &back, &why) != 0)
		die("the rewriter's output does not read", why);
	if (back.nmethods != c->nmethods || back.name_len != c->name_len ||
	    memcmp(back.name, c->name, c->name_len) != 0)
		die("the rewriter's output names other methods or another class", NULL);
	for (size_t i = 0; i < c->nmethods; i++)
		if (!same_method(&back.methods[i], &c->methods[i]))
			die("the rewriter's output has another method", NULL);
	cfmethods_free(&back);
	free(out);
}

/* Refused here: the rewriter, reading with nothing picked (so not the class's
 * attributes), reads it in full only when the fault is one it does not check. */
static void refused_by_both(const uint8_t *in, size_t len, const char *mine)
{
	static const char *const only_mine[] = {
		"this_class", "super_class", "empty name", "does not start with '('",
		"class attributes truncated or trailing bytes", "out of memory",
	};
	struct cfmethods none = { 0 };
	struct walk w = { &none, 0, 0 };
	struct classfile_hooks h = { &w, on_offer_nothing, on_refused, NULL, NULL };
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why;

	for (size_t i = 0; i < sizeof only_mine / sizeof only_mine[0]; i++)
		if (strstr(mine, only_mine[i]))
			return;
	if (classfile_inject(in, len, &h, &out, &out_len, &why) >= 0)
		die("refused here, read in full by the rewriter", mine);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *in = malloc(size ? size : 1);
	struct cfmethods c, again;
	const char *why = "unset", *why2;

	if (!in)
		return 0;
	memcpy(in, data, size);
	int rc = cfmethods_read(in, size, &c, &why);
	if (rc == 0) {
		if (why)
			die("accepted with a reason", why);
		inside(in, size, c.name, c.name_len);
		if (c.name_len == 0)
			die("a class without a name", NULL);
		if (c.super)
			inside(in, size, c.super, c.super_len);
		for (size_t i = 0; i < c.nmethods; i++) {
			const struct cfmethod *m = &c.methods[i];
			inside(in, size, m->name, m->name_len);
			inside(in, size, m->desc, m->desc_len);
			if (m->name_len == 0 || m->desc_len == 0 || m->desc[0] != '(')
				die("a method name or descriptor the contract excludes", NULL);
		}
		if (cfmethods_read(in, size, &again, &why2) != 0 || again.nmethods != c.nmethods ||
		    again.name != c.name || again.super != c.super)
			die("the same bytes read twice differ", NULL);
		for (size_t i = 0; i < c.nmethods; i++)
			if (memcmp(&again.methods[i], &c.methods[i], sizeof c.methods[i]) != 0)
				die("the same bytes read twice differ", NULL);
		cfmethods_free(&again);
		against_rewriter(in, size, &c);
		cfmethods_free(&c);
	} else {
		if (rc != -EINVAL && rc != -ENOMEM)
			die("an unexpected error", NULL);
		if (!why || !why[0])
			die("an error without a reason", NULL);
		if (c.methods || c.nmethods || c.name || c.super)
			die("refused, with something left in the output", why);
		refused_by_both(in, size, why);
	}
	free(in);
	return 0;
}
