/* Unit tests for stpd-bridge/slots.c: slots_match() gives, with its cache
 * of (kind, name) results, exactly what matching every slot's pattern
 * directly gives: for names of every length (the cache hashes eight bytes
 * at a time), names longer than what the cache keeps, more names than it
 * holds (entries replaced), and each event type of a kind. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "descent.h"
#include "print.h"
#include "slots.h"

static struct registry reg;
static struct slot_table table;

static void add(const char *spec)
{
	char err[256];

	if (slots_add(&table, &reg, spec, err, sizeof err) < 0)
		fail_msg("--slot %s: %s", spec, err);
}

static int setup(void **state)
{
	(void)state;
	registry_init(&reg);
	slots_init(&table);
	add("0:method.enter:bench.Hot.add");
	add("1:method.return:bench.Hot.add");
	add("2:method.enter:java.util.*");
	add("3:method.return:*.get");
	add("7:method.enter:*(I)V");
	add("64:method.compile:*");
	add("130:class.load:com.acme.*");
	add("200:class.prepare:*[]");
	add("255:exception.thrown:java.lang.*Exception");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	registry_free(&reg);
	return 0;
}

/* What slots_match must say, from the patterns themselves. */
static bool direct(unsigned code, const char *name, size_t len, struct slot_set *out)
{
	uint8_t kind, bit;
	bool any = false;

	memset(out, 0, sizeof *out);
	if (!slots_event_type(code, &kind, &bit))
		return false;
	for (unsigned s = 0; s < MARKERS_SLOTS; s++) {
		const struct registry_entry *e;
		bool hit;

		if (table.entry[s] < 0)
			continue;
		e = &reg.entries[table.entry[s]];
		if (e->kind != kind || !(e->events & bit))
			continue;
		hit = kind == WIRE_KIND_METHOD ? pattern_match_method(&e->pat, name, len)
					       : pattern_match_class_name(&e->pat, name, len);
		if (hit) {
			out->w[s / 64] |= 1ull << (s % 64);
			any = true;
		}
	}
	return any;
}

/* NAME as the markers show it for CODE's kind: print_name or print_class. */
static ssize_t shown_form(unsigned code, const char *name, size_t len, char *buf, size_t cap)
{
	struct wire_str n = { name, (uint32_t)len };
	uint8_t kind, bit;

	assert_true(slots_event_type(code, &kind, &bit));
	return kind == WIRE_KIND_METHOD ? print_name(buf, cap, &n) : print_class(buf, cap, &n);
}

/* slots_match_shown's name, when it gives one, is exactly the formatted
 * name of this event (never a name the entry held before). */
static void check_shown(unsigned code, const char *name, size_t len, bool hit,
			const struct wire_str *shown)
{
	static char want[16384];
	ssize_t n;

	if (!shown->ptr)
		return;
	if (!hit)
		fail_msg("code 0x%x name '%.*s': a shown name without a match", code, (int)len, name);
	n = shown_form(code, name, len, want, sizeof want);
	assert_true(n >= 0);
	if ((size_t)n != shown->len || memcmp(want, shown->ptr, shown->len) != 0)
		fail_msg("code 0x%x name '%.*s': shown '%.*s', want '%s'", code, (int)len, name,
			 (int)shown->len, shown->ptr, want);
}

static void check(struct slot_matcher *m, unsigned code, const char *name, size_t len)
{
	struct slot_set want, got, got2;
	struct wire_str shown;
	bool w = direct(code, name, len, &want), g = slots_match(m, code, name, len, &got);
	bool g2 = slots_match_shown(m, code, name, len, &got2, &shown);

	if (w != g || (w && memcmp(&want, &got, sizeof want) != 0))
		fail_msg("code 0x%x name '%.*s': slots_match differs from the patterns", code,
			 (int)len, name);
	if (g2 != g || (g && memcmp(&got, &got2, sizeof got) != 0))
		fail_msg("code 0x%x name '%.*s': slots_match_shown differs from slots_match", code,
			 (int)len, name);
	check_shown(code, name, len, g2, &shown);
}

static const unsigned codes[] = {
	WIRE_EV_METHOD_ENTER, WIRE_EV_METHOD_EXIT, WIRE_EV_METHOD_COMPILE, WIRE_EV_CLASS_LOAD,
	WIRE_EV_CLASS_PREPARE, WIRE_EV_CLASS_UNLOAD, WIRE_EV_EXCEPTION_THROWN,
	WIRE_EV_EXCEPTION_CATCH, WIRE_EV_GC_START,
};

static void test_known_names(void **state)
{
	static const char *const names[] = {
		"bench.Hot.add(II)I", "bench.Hot.addAll(II)I", "java.util.HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;",
		"java.util.List.size()I", "com.acme.X.run(I)V", "Lcom/acme/Foo;", "[I", "[[Ljava/lang/String;",
		"Ljava/lang/IllegalStateException;", "Ljava/lang/Exception;", "", "a",
	};
	struct slot_matcher m;

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 3; round++) /* the second and third from the cache */
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++)
				check(&m, codes[c], names[i], strlen(names[i]));
	slots_matcher_free(&m);
}

/* Names differing only in their last byte, of every length up to 40, and
 * again past the cache's name limit. */
static void test_every_length(void **state)
{
	char name[2100];
	struct slot_matcher m;

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 2; round++)
		for (size_t len = 1; len <= 40; len++)
			for (char last = 'a'; last <= 'c'; last++) {
				memset(name, 'x', len);
				memcpy(name, "java.util.", len < 10 ? len : 10);
				name[len - 1] = last;
				check(&m, WIRE_EV_METHOD_ENTER, name, len);
				check(&m, WIRE_EV_METHOD_EXIT, name, len);
			}
	memset(name, 'z', sizeof name);
	memcpy(name, "java.util.Long", 14);
	memcpy(name + sizeof name - 7, "(I)V", 4);
	check(&m, WIRE_EV_METHOD_ENTER, name, sizeof name - 3);
	check(&m, WIRE_EV_METHOD_ENTER, name, sizeof name - 3);
	slots_matcher_free(&m);
}

/* The I-th of many distinct method names, into BUF; its length. */
static size_t many_name(unsigned i, char *buf, size_t cap)
{
	return (size_t)snprintf(buf, cap, "%s.C%u.m%u(%s)V", i % 3 ? "java.util" : "com.acme", i / 7,
				i % 7, i % 2 ? "I" : "J");
}

/* Far more distinct names than the cache holds: entries are replaced and
 * every answer stays right, the first time and the next. */
static void test_more_names_than_the_cache(void **state)
{
	struct slot_matcher m;
	char name[96];

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 2; round++)
		for (unsigned i = 0; i < 20000; i++) {
			size_t n = many_name(i, name, sizeof name);

			check(&m, codes[i % 3], name, n);
		}
	slots_matcher_free(&m);
}

/* check() by method number: the answer of the name the number stands for. */
static void check_id(struct slot_matcher *m, unsigned code, uint32_t id, const char *name, size_t len)
{
	struct slot_set want, got;
	struct wire_str shown;
	bool w = direct(code, name, len, &want);
	bool g = slots_match_method_id(m, code, id, name, len, &got, &shown);

	if (w != g || (w && memcmp(&want, &got, sizeof want) != 0))
		fail_msg("code 0x%x id %u name '%.*s': slots_match_method_id differs from the patterns",
			 code, id, (int)len, name);
	check_shown(code, name, len, g, &shown);
}

/* By number (CAP_METHOD_IDS): more numbers than the cache holds, so the
 * entries a number found are replaced under it, twice over; a number
 * named anew (forgotten, then another name); numbers past the hints; and
 * the whole cache emptied (a root pattern's new lineage). */
static void test_by_method_number(void **state)
{
	struct slot_matcher m;
	char name[96];

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 2; round++)
		for (unsigned i = 0; i < 20000; i++) {
			size_t n = many_name(i, name, sizeof name);

			check_id(&m, i % 2 ? WIRE_EV_METHOD_ENTER : WIRE_EV_METHOD_EXIT, i, name, n);
			check_id(&m, WIRE_EV_METHOD_ENTER, i, name, n);
		}
	check_id(&m, WIRE_EV_METHOD_ENTER, 5, "bench.Hot.add(II)I", 18);
	slots_forget_method_id(&m, 5);
	check_id(&m, WIRE_EV_METHOD_ENTER, 5, "java.util.List.get(I)Ljava/lang/Object;", 40);
	check_id(&m, WIRE_EV_METHOD_EXIT, 5, "java.util.List.get(I)Ljava/lang/Object;", 40);
	check_id(&m, WIRE_EV_METHOD_ENTER, SLOTS_ID_HINTS, "bench.Hot.add(II)I", 18);
	check_id(&m, WIRE_EV_METHOD_ENTER, 0xFFFFFFFFu, "x.Y.z(I)V", 9);
	check_id(&m, WIRE_EV_METHOD_ENTER, 7, "bench.Hot.add(II)I", 18);
	slots_matcher_forget(&m);
	slots_forget_method_id(&m, 7);
	check_id(&m, WIRE_EV_METHOD_ENTER, 7, "com.acme.X.y(I)V", 16);
	/* an event of another kind than a method's goes by its name */
	check_id(&m, WIRE_EV_CLASS_LOAD, 9, "com.acme.Widget", 15);
	slots_matcher_free(&m);
	assert_null(m.by_id);
}

static bool only(const struct slot_set *s, unsigned a, unsigned b)
{
	struct slot_set want = { { 0 } };

	want.w[a / 64] |= 1ull << (a % 64);
	want.w[b / 64] |= 1ull << (b % 64);
	return memcmp(s, &want, sizeof want) == 0;
}

/* The matcher's per-code table (kind and type with slots, taken at init):
 * exact answers for each event type, codes that are no event or have no
 * slot of their type, and codes past one byte. */
static void test_codes(void **state)
{
	static const char hot[] = "bench.Hot.add(II)I", get[] = "java.util.Map.get(I)V";
	static const unsigned none[] = { 0, 0x7f, 0x8d, WIRE_EV_GC_START, WIRE_EV_THREAD_START,
					 WIRE_EV_LOST, WIRE_EV_CLASS_UNLOAD, WIRE_EV_EXCEPTION_CATCH,
					 0xff, 0x100, 0x180, 0xffffffffu };
	struct slot_matcher m;
	struct slot_set got;

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 2; round++) {
		assert_true(slots_match(&m, WIRE_EV_METHOD_ENTER, hot, strlen(hot), &got));
		assert_true(only(&got, 0, 0));
		assert_true(slots_match(&m, WIRE_EV_METHOD_EXIT, hot, strlen(hot), &got));
		assert_true(only(&got, 1, 1));
		assert_true(slots_match(&m, WIRE_EV_METHOD_COMPILE, hot, strlen(hot), &got));
		assert_true(only(&got, 64, 64));
		assert_true(slots_match(&m, WIRE_EV_METHOD_ENTER, get, strlen(get), &got));
		assert_true(only(&got, 2, 7));
		assert_true(slots_match(&m, WIRE_EV_METHOD_EXIT, get, strlen(get), &got));
		assert_true(only(&got, 3, 3));
		assert_true(slots_match(&m, WIRE_EV_CLASS_LOAD, "Lcom/acme/A;", 12, &got));
		assert_true(only(&got, 130, 130));
		assert_false(slots_match(&m, WIRE_EV_CLASS_PREPARE, "Lcom/acme/A;", 12, &got));
		assert_true(slots_match(&m, WIRE_EV_CLASS_PREPARE, "[I", 2, &got));
		assert_true(only(&got, 200, 200));
		assert_true(slots_match(&m, WIRE_EV_EXCEPTION_THROWN, "Ljava/lang/IllegalStateException;",
					33, &got));
		assert_true(only(&got, 255, 255));
		for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
			assert_false(slots_match(&m, none[i], hot, strlen(hot), &got));
			assert_false(slots_match(&m, none[i], "Lcom/acme/A;", 12, &got));
			assert_false(slots_match(&m, none[i], "Ljava/lang/IllegalStateException;", 33,
						 &got));
		}
	}
	slots_matcher_free(&m);
}

/* The shown name kept with a cached result: exact for plain method names
 * (the name's own bytes), class signatures (Java form) and names that need
 * escaping; right again after the entry was replaced by other names (the
 * cache holds 4096), and absent for a name too long to cache. */
static void test_shown_names(void **state)
{
	static const struct {
		unsigned code;
		const char *name, *shown;
	} cases[] = {
		{ WIRE_EV_METHOD_ENTER, "bench.Hot.add(II)I", "bench.Hot.add(II)I" },
		{ WIRE_EV_METHOD_EXIT, "bench.Hot.add(II)I", "bench.Hot.add(II)I" },
		{ WIRE_EV_METHOD_ENTER, "java.util.a b(I)V", "java.util.a\\x20b(I)V" },
		{ WIRE_EV_METHOD_ENTER, "java.util.\\x(I)V", "java.util.\\x5cx(I)V" },
		{ WIRE_EV_CLASS_LOAD, "Lcom/acme/A;", "com.acme.A" },
		{ WIRE_EV_CLASS_LOAD, "com.acme.A", "com.acme.A" },
		{ WIRE_EV_CLASS_PREPARE, "[[I", "int[][]" },
		{ WIRE_EV_EXCEPTION_THROWN, "Ljava/lang/IllegalStateException;",
		  "java.lang.IllegalStateException" },
	};
	struct slot_matcher m;
	struct slot_set got;
	struct wire_str shown;
	char name[2100];

	(void)state;
	assert_int_equal(slots_matcher_init(&m, &table, &reg), 0);
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			const char *n = cases[i].name;

			assert_true(slots_match_shown(&m, cases[i].code, n, strlen(n), &got, &shown));
			assert_non_null(shown.ptr);
			assert_int_equal(shown.len, strlen(cases[i].shown));
			assert_memory_equal(shown.ptr, cases[i].shown, shown.len);
		}
		/* no slot: no shown name */
		assert_false(slots_match_shown(&m, WIRE_EV_METHOD_ENTER, "a.B.c()V", 8, &got, &shown));
		assert_null(shown.ptr);
		assert_false(slots_match_shown(&m, WIRE_EV_GC_START, "", 0, &got, &shown));
		assert_null(shown.ptr);
		/* replace every entry with other names that match, then again */
		for (unsigned k = 0; k < 20000; k++) {
			int len = snprintf(name, sizeof name, "java.util.C%u.m%u(I)V", k, round);

			check(&m, WIRE_EV_METHOD_ENTER, name, (size_t)len);
		}
	}
	memset(name, 'z', sizeof name);
	memcpy(name, "java.util.Long", 14);
	memcpy(name + sizeof name - 4, "(I)V", 4);
	assert_true(slots_match_shown(&m, WIRE_EV_METHOD_ENTER, name, sizeof name, &got, &shown));
	assert_null(shown.ptr);
	slots_matcher_free(&m);
}

/* Root patterns: '^p.A.m' selects p.A.m, and p.B.m once the set of
 * Descends says B descends from A; the cache forgets what it said before
 * (slots_matcher_forget). The registry's filter goes the same way. */
static void test_roots(void **state)
{
	static struct registry r;
	static struct slot_table t;
	static struct wire_event ev;
	struct slot_matcher m;
	struct slot_set got;
	struct descent *d = NULL;
	char err[256];

	(void)state;
	registry_init(&r);
	slots_init(&t);
	assert_int_equal(slots_add(&t, &r, "5:method.enter:^p.A.m", err, sizeof err), 0);
	assert_int_equal(slots_matcher_init(&m, &t, &r), 0);
	m.descends = descent_has;
	assert_true(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.A.m()V", 8, &got));
	assert_false(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.B.m()V", 8, &got));
	assert_int_equal(descent_add(&d, "Lp/B;", 5, "Lp/A;", 5), 1);
	assert_int_equal(descent_add(&d, "p.B", 3, "Lp/A;", 5), 0);	/* known, in any class form */
	assert_int_equal(descent_add(&d, "Lp/B", 4, "", 0), -EINVAL);
	{
		/* the names' bytes are bounded: pairs of 1000 + 1 + 3 bytes, as
		 * many as DESCENT_BYTES_MAX holds */
		struct descent *big = NULL;
		char name[1001];
		size_t added = 0;
		int rc;

		memset(name, 'c', 1000);
		name[1000] = '\0';
		do {
			snprintf(name, sizeof name, "%08zx", added);
			name[8] = 'c';
			rc = descent_add(&big, name, 1000, "p.A", 3);
			added += rc == 1;
		} while (rc == 1);
		assert_int_equal(rc, -E2BIG);
		assert_int_equal(added, DESCENT_BYTES_MAX / 1004);
		descent_free(big);
	}
	m.descends_ctx = d;
	assert_false(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.B.m()V", 8, &got));	/* cached */
	slots_matcher_forget(&m);
	assert_true(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.B.m()V", 8, &got));
	assert_true(got.w[0] == 1u << 5);
	assert_false(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.C.m()V", 8, &got));
	assert_false(slots_match(&m, WIRE_EV_METHOD_ENTER, "p.B.n()V", 8, &got));
	ev.code = WIRE_EV_METHOD_ENTER;
	ev.name = (struct wire_str){ "p.B.m()V", 8 };
	assert_true(registry_wants_via(&r, &ev, NULL, descent_has, d));
	assert_false(registry_wants(&r, &ev));
	descent_free(d);
	slots_matcher_free(&m);
	registry_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_names),
		cmocka_unit_test(test_every_length),
		cmocka_unit_test(test_more_names_than_the_cache),
		cmocka_unit_test(test_by_method_number),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_shown_names),
		cmocka_unit_test(test_roots),
	};

	return cmocka_run_group_tests_name("slots", tests, setup, teardown);
}
