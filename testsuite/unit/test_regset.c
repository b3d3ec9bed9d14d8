/* Unit tests for agent/regset.c: a connection's registrations, edited, then
 * published once as an indexed snapshot; matched through it; bounded in
 * number and in bytes, the refusal naming the bound (issue 16 §1, §5). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lineage.h"
#include "regset.h"
#include "wire.h"

/* inthread.c's fire ids, without a JVM: 256 of them, handed out in order. */
static bool taken[INTHREAD_MAX_IDS];
static char taken_what[INTHREAD_MAX_IDS][INTHREAD_WHAT_MAX];

int inthread_id_take(unsigned conn, unsigned slot, const char *what)
{
	(void)conn;
	(void)slot;
	for (unsigned i = 0; i < INTHREAD_MAX_IDS; i++)
		if (!taken[i]) {
			taken[i] = true;
			snprintf(taken_what[i], sizeof taken_what[i], "%s", what);
			return (int)i;
		}
	return -ENOSPC;
}

void inthread_id_give(int id)
{
	if (id >= 0)
		taken[id] = false;
}

static int add(struct regset *s, uint8_t kind, uint8_t events, int slot, const char *text)
{
	char err[200];

	return regset_add(s, 0, kind, events, slot, text, (uint32_t)strlen(text), err, sizeof err);
}

static uint8_t method(struct regset *s, const char *name)
{
	return regset_match_method(s, name, strlen(name), NULL);
}

/* Nothing is matched before it is published, and all of it after. */
static void test_published_in_batches(void **state)
{
	struct regset s;
	uint8_t bits[4];

	(void)state;
	regset_init(&s);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "com.acme.Foo.run"), 0);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_RETURN, -1, "com.acme.*"), 0);
	assert_int_equal(add(&s, WIRE_KIND_CLASS, WIRE_CLASS_LOAD, -1, "java.lang.String"), 0);
	assert_int_equal(method(&s, "com.acme.Foo.run()V"), 0);
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_int_equal(bits[WIRE_KIND_METHOD], WIRE_METHOD_ENTER | WIRE_METHOD_RETURN);
	assert_int_equal(bits[WIRE_KIND_CLASS], WIRE_CLASS_LOAD);
	assert_int_equal(method(&s, "com.acme.Foo.run()V"), WIRE_METHOD_ENTER | WIRE_METHOD_RETURN);
	assert_int_equal(method(&s, "com.acme.Bar.run()V"), WIRE_METHOD_RETURN);
	assert_int_equal(method(&s, "org.Foo.run()V"), 0);
	assert_int_equal(regset_match_class(&s, WIRE_KIND_CLASS, WIRE_CLASS_LOAD, "Ljava/lang/String;", 18, NULL),
			 WIRE_CLASS_LOAD);
	assert_true(regset_may_select_class(&s, WIRE_METHOD_ENTER, "com.acme.Foo", 12));
	assert_false(regset_may_select_class(&s, WIRE_METHOD_ENTER, "com.acme.Bar", 12));
	assert_true(regset_may_select_class(&s, WIRE_METHOD_RETURN, "com.acme.Bar", 12));
	/* removed: still matched until the next publish */
	assert_int_equal(regset_remove(&s, WIRE_KIND_METHOD, "com.acme.*", 10), 1);
	assert_int_equal(method(&s, "com.acme.Bar.run()V"), WIRE_METHOD_RETURN);
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_int_equal(method(&s, "com.acme.Bar.run()V"), 0);
	regset_clear(&s);
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_int_equal(bits[WIRE_KIND_METHOD] | bits[WIRE_KIND_CLASS], 0);
	assert_int_equal(method(&s, "com.acme.Foo.run()V"), 0);
	regset_free(&s);
}

/* Line registrations: a method's line selects only them; those that select
 * a line the method has no code on are told, each once. */
static void say_root(void *ctx, const char *root, size_t rlen)
{
	snprintf(ctx, 64, "%.*s", (int)rlen, root);
}

/* A root registration ("^p.A.m") selects the root's own m at once, and a
 * class's once lineage.h has it descending from the root (walked up by
 * name: D's superclass B, B's A); regset_may_select_class and
 * regset_roots_above say the same. */
static void test_roots(void **state)
{
	struct regset s;
	uint8_t bits[4];
	char root[64] = "";

	(void)state;
	regset_init(&s);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "^p.A.m"), 0);
	assert_false(regset_has_roots(&s));	/* not published yet */
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_true(regset_has_roots(&s));
	assert_int_equal(method(&s, "p.A.m()V"), WIRE_METHOD_ENTER);
	assert_int_equal(method(&s, "p.D.m()V"), 0);
	assert_true(regset_may_select_class(&s, WIRE_METHOD_ENTER, "p.A", 3));
	assert_false(regset_may_select_class(&s, WIRE_METHOD_ENTER, "p.D", 3));
	assert_int_equal(lineage_note("p.D", 3, "p.B", 3), 0);
	assert_int_equal(method(&s, "p.D.m()V"), 0);	/* B's superclass not known yet */
	assert_int_equal(lineage_note("p.B", 3, "p.A", 3), 0);
	assert_int_equal(lineage_note("p.B", 3, "p.X", 3), 1);	/* the first record stays */
	assert_int_equal(method(&s, "p.D.m()V"), WIRE_METHOD_ENTER);
	assert_int_equal(method(&s, "p.D.n()V"), 0);
	assert_true(regset_may_select_class(&s, WIRE_METHOD_ENTER, "p.D", 3));
	assert_false(regset_may_select_class(&s, WIRE_METHOD_RETURN, "p.D", 3));
	assert_int_equal(regset_roots_above(&s, "p.D", 3, say_root, root), 1);
	assert_string_equal(root, "p.A");
	assert_int_equal(regset_roots_above(&s, "p.A", 3, say_root, root), 0);
	lineage_clear();
	assert_int_equal(method(&s, "p.D.m()V"), 0);
	regset_free(&s);
}

/* More roots above a class than one batch of regset_roots_above: each
 * distinct root given once (a root two registrations share, once). */
static char roots_said[512];

static void add_root(void *ctx, const char *root, size_t rlen)
{
	(void)ctx;
	size_t at = strlen(roots_said);
	snprintf(roots_said + at, sizeof roots_said - at, "%s%.*s", at ? "," : "", (int)rlen, root);
}

/* S: root registrations ^p.C1.m .. ^p.C6.m (enter; C3's return too, a
 * root two registrations share), published, and the chain p.C0 < p.C1 <
 * ... < p.C6 noted (lineage.h). */
static void six_roots(struct regset *s)
{
	uint8_t bits[4];
	static const char *const chain[] = { "p.C6", "p.C5", "p.C4", "p.C3", "p.C2", "p.C1", "p.C0" };

	regset_init(s);
	for (int i = 1; i <= 6; i++) {
		char pat[32];
		snprintf(pat, sizeof pat, "^p.C%d.m", i);
		assert_int_equal(add(s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, pat), 0);
	}
	assert_int_equal(add(s, WIRE_KIND_METHOD, WIRE_METHOD_RETURN, -1, "^p.C3.m"), 0);
	assert_int_equal(regset_publish(s, bits), 0);
	for (int i = 0; i + 1 < 7; i++)
		assert_int_equal(lineage_note(chain[i + 1], 4, chain[i], 4), 0);
}

static void test_roots_many(void **state)
{
	struct regset s;

	(void)state;
	six_roots(&s);
	/* p.C0's ancestors: C1 .. C6, every one a root */
	roots_said[0] = '\0';
	assert_int_equal(regset_roots_above(&s, "p.C0", 4, add_root, NULL), 6);
	assert_string_equal(roots_said, "p.C1,p.C2,p.C3,p.C4,p.C5,p.C6");
	lineage_clear();
	regset_free(&s);
}

/* The registrations change while the roots are being given (FN, which
 * emits, runs without the lock; the I/O thread may publish meanwhile):
 * every root of the registrations as they stood at the call is given once,
 * none twice, none skipped. (Taken up again by position after a batch of
 * four, the scan gave p.C1..p.C4 and skipped p.C5 and p.C6 here.) */
static struct regset *changing;

static void add_root_and_change(void *ctx, const char *root, size_t rlen)
{
	uint8_t bits[4];

	add_root(ctx, root, rlen);
	if (changing) {
		assert_int_equal(regset_remove(changing, WIRE_KIND_METHOD, "^p.C1.m", 7), 1);
		assert_int_equal(regset_remove(changing, WIRE_KIND_METHOD, "^p.C2.m", 7), 1);
		assert_int_equal(regset_publish(changing, bits), 0);
		changing = NULL;
	}
}

static void test_roots_while_registrations_change(void **state)
{
	struct regset s;

	(void)state;
	six_roots(&s);
	roots_said[0] = '\0';
	changing = &s;
	assert_int_equal(regset_roots_above(&s, "p.C0", 4, add_root_and_change, NULL), 6);
	assert_string_equal(roots_said, "p.C1,p.C2,p.C3,p.C4,p.C5,p.C6");
	/* and the next call sees the change */
	roots_said[0] = '\0';
	assert_int_equal(regset_roots_above(&s, "p.C0", 4, add_root, NULL), 4);
	assert_string_equal(roots_said, "p.C3,p.C4,p.C5,p.C6");
	lineage_clear();
	regset_free(&s);
}

static char said[4][64];
static size_t nsaid;

static void note_said(void *ctx, const char *text, uint32_t line)
{
	(void)ctx;
	assert_true(nsaid < 4);
	snprintf(said[nsaid++], sizeof said[0], "%s@%u", text, (unsigned)line);
}

static void test_lines(void **state)
{
	struct regset s;
	uint8_t bits[4];
	static const uint32_t lines[] = { 5, 6, 9 };

	(void)state;
	regset_init(&s);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "C.m(I)V:5"), 0);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "*C.m(*)*:7"), 0);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "C.x()V:3"), 0);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_RETURN, -1, "C.*"), 0);
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_int_equal(method(&s, "C.m(I)V:5"), WIRE_METHOD_ENTER);
	assert_int_equal(method(&s, "C.m(I)V:7"), WIRE_METHOD_ENTER);
	assert_int_equal(method(&s, "C.m(I)V:6"), 0);
	assert_int_equal(method(&s, "C.m(I)V"), WIRE_METHOD_RETURN);
	nsaid = 0;
	regset_lines_without_code(&s, "C.m(I)V", 7, lines, 3, note_said, NULL);
	assert_int_equal(nsaid, 1);
	assert_string_equal(said[0], "*C.m(*)*:7@7");
	regset_lines_without_code(&s, "C.m(I)V", 7, lines, 3, note_said, NULL);
	assert_int_equal(nsaid, 1);	/* once */
	regset_free(&s);
}

/* A slot's fire id is collected per event, and given back once no snapshot shows it. */
static void test_fire_ids(void **state)
{
	struct regset s;
	struct fire_set fire[3];
	uint8_t bits[4];

	(void)state;
	regset_init(&s);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, 3, "A.m"), 0);
	assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_RETURN, 4, "A.*"), 0);
	assert_int_equal(regset_publish(&s, bits), 0);
	/* what the Notice of an event no tracer saw names (inthread.h) */
	assert_string_equal(taken_what[0], "method 0x1 \"A.m\"");
	assert_string_equal(taken_what[1], "method 0x2 \"A.*\"");
	memset(fire, 0, sizeof fire);
	assert_int_equal(regset_match_method(&s, "A.m()V", 6, fire), WIRE_METHOD_ENTER | WIRE_METHOD_RETURN);
	assert_int_equal(fire[0].w[0], 1u << 0);
	assert_int_equal(fire[1].w[0], 1u << 1);
	assert_int_equal(fire[2].w[0], 0);
	regset_remove(&s, WIRE_KIND_METHOD, "A.m", 3);
	assert_true(taken[0]);   /* the live snapshot still shows it */
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_false(taken[0]);
	regset_free(&s);
	assert_false(taken[1]);
}

/* REGSET_MAX_REGS registrations, then a refusal naming the bound. */
static void test_count_bound(void **state)
{
	struct regset s;
	char text[64], err[200];
	uint8_t bits[4];

	(void)state;
	regset_init(&s);
	for (unsigned i = 0; i < REGSET_MAX_REGS; i++) {
		snprintf(text, sizeof text, "flood.C%u.m%u", i / 16, i % 16);
		assert_int_equal(add(&s, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, text), 0);
	}
	assert_int_equal(regset_add(&s, 0, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, "a.B.c", 5, err, sizeof err),
			 -E2BIG);
	assert_string_equal(err, "this connection has 16384 registrations, the most the agent takes from one "
				 "connection");
	assert_int_equal(regset_publish(&s, bits), 0);
	assert_int_equal(method(&s, "flood.C1023.m15()V"), WIRE_METHOD_ENTER);
	assert_int_equal(method(&s, "flood.C1024.m0()V"), 0);
	regset_free(&s);
}

/* Long patterns reach REGSET_MAX_BYTES first. */
static void test_byte_bound(void **state)
{
	static char text[PATTERN_MAX_LEN + 1];
	struct regset s;
	char err[200];
	unsigned n = 0;
	int rc;

	(void)state;
	regset_init(&s);
	memset(text, 'x', PATTERN_MAX_LEN);
	memcpy(text, "p.", 2);
	do {
		snprintf(text + 2, 12, "%010u", n);
		text[12] = 'x';
		rc = regset_add(&s, 0, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, -1, text, PATTERN_MAX_LEN, err,
				sizeof err);
		n += rc == 0;
	} while (rc == 0);
	assert_int_equal(rc, -E2BIG);
	assert_string_equal(err, "this connection's registrations would take more than 8388608 bytes, the most "
				 "the agent keeps for one connection");
	assert_true(n > 900 && n < REGSET_MAX_REGS);
	assert_true(s.bytes <= REGSET_MAX_BYTES);
	regset_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_published_in_batches),
		cmocka_unit_test(test_fire_ids),
		cmocka_unit_test(test_roots),
		cmocka_unit_test(test_roots_many),
		cmocka_unit_test(test_roots_while_registrations_change),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_count_bound),
		cmocka_unit_test(test_byte_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
