/* Unit tests for runtime/mutf8.c: modified UTF-8 (JVMTI names, class-file
 * constant pools, thread names) to standard UTF-8, byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mutf8.h"

/* IN (N bytes) converted in MODE must be exactly WANT (WN bytes); the
 * bytes after the new length are the input's (nothing written past it). */
static void check(const char *in, size_t n, enum mutf8_mode mode, const char *want, size_t wn)
{
	char buf[128], guard[128];

	assert_true(n <= sizeof buf);
	memcpy(buf, in, n);
	memset(buf + n, 0x5A, sizeof buf - n);
	memcpy(guard, buf, sizeof buf);
	size_t got = mutf8_to_utf8(buf, n, mode);
	assert_int_equal(got, wn);
	assert_memory_equal(buf, want, wn);
	assert_memory_equal(buf + n, guard + n, sizeof buf - n);
}

#define CHECK(in, mode, want) check(in, sizeof(in) - 1, mode, want, sizeof(want) - 1)
#define BOTH(in, want) do { CHECK(in, MUTF8_NAME, want); CHECK(in, MUTF8_TEXT, want); } while (0)

/* U+1D518 MATHEMATICAL FRAKTUR CAPITAL U: D835 DD18 in UTF-16 */
#define FRAKTUR_U_M "\xed\xa0\xb5\xed\xb4\x98"
#define FRAKTUR_U "\xf0\x9d\x94\x98"

static void test_ascii_and_bmp_unchanged(void **state)
{
	(void)state;
	BOTH("", "");
	BOTH("Demo.run()V", "Demo.run()V");
	BOTH("Ljava/lang/String;", "Ljava/lang/String;");
	/* longer than a word, so the word-at-a-time scan runs */
	BOTH("java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
	     "java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V");
	/* 2- and 3-byte characters are the same in both encodings */
	BOTH("h\xc3\xa9llo \xe2\x82\xac", "h\xc3\xa9llo \xe2\x82\xac");
	/* U+D7FF and U+E000, either side of the surrogates: no surrogates */
	BOTH("\xed\x9f\xbf\xee\x80\x80", "\xed\x9f\xbf\xee\x80\x80");
	/* standard UTF-8 of a supplementary character (a class file may hold it) */
	BOTH(FRAKTUR_U, FRAKTUR_U);
}

static void test_surrogate_pairs(void **state)
{
	(void)state;
	BOTH(FRAKTUR_U_M, FRAKTUR_U);
	BOTH("Unicode.h" FRAKTUR_U_M "llo(Ljava/lang/String;)V", "Unicode.h" FRAKTUR_U "llo(Ljava/lang/String;)V");
	/* the first and the last supplementary characters: U+10000 (D800 DC00), U+10FFFF (DBFF DFFF) */
	BOTH("\xed\xa0\x80\xed\xb0\x80", "\xf0\x90\x80\x80");
	BOTH("\xed\xaf\xbf\xed\xbf\xbf", "\xf4\x8f\xbf\xbf");
	/* U+1F600 (D83D DE00), twice in a row, after ASCII and after a 2-byte character */
	BOTH("ab\xed\xa0\xbd\xed\xb8\x80\xed\xa0\xbd\xed\xb8\x80\xc3\xa9\xed\xa0\xbd\xed\xb8\x80",
	     "ab\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xc3\xa9\xf0\x9f\x98\x80");
	/* a long ASCII tail after a shrink is moved whole */
	BOTH(FRAKTUR_U_M "0123456789abcdefghijklmnopqrstuvwxyz",
	     FRAKTUR_U "0123456789abcdefghijklmnopqrstuvwxyz");
}

static void test_nul(void **state)
{
	(void)state;
	/* a String's U+0000: a 0 byte; a name's stays C0 80 (names are C strings) */
	CHECK("a\xc0\x80" "b", MUTF8_TEXT, "a\0b");
	CHECK("a\xc0\x80" "b", MUTF8_NAME, "a\xc0\x80" "b");
	CHECK("\xc0\x80\xc0\x80", MUTF8_TEXT, "\0\0");
	/* C0 not followed by 80 is not a NUL: kept */
	CHECK("\xc0\x81", MUTF8_TEXT, "\xc0\x81");
	CHECK("a\xc0", MUTF8_TEXT, "a\xc0");
}

static void test_lone_surrogates(void **state)
{
	(void)state;
	/* a high one at the end, a low one alone, a low one before a high one */
	CHECK("x\xed\xa0\xb5", MUTF8_TEXT, "x\xef\xbf\xbd");
	CHECK("x\xed\xa0\xb5", MUTF8_NAME, "x\xed\xa0\xb5");
	CHECK("\xed\xb4\x98y", MUTF8_TEXT, "\xef\xbf\xbdy");
	CHECK("\xed\xb4\x98y", MUTF8_NAME, "\xed\xb4\x98y");
	CHECK("\xed\xb4\x98\xed\xa0\xb5", MUTF8_TEXT, "\xef\xbf\xbd\xef\xbf\xbd");
	CHECK("\xed\xb4\x98\xed\xa0\xb5", MUTF8_NAME, "\xed\xb4\x98\xed\xa0\xb5");
	/* two high ones, then a low one: the second pairs */
	CHECK("\xed\xa0\xb5" FRAKTUR_U_M, MUTF8_TEXT, "\xef\xbf\xbd" FRAKTUR_U);
	CHECK("\xed\xa0\xb5" FRAKTUR_U_M, MUTF8_NAME, "\xed\xa0\xb5" FRAKTUR_U);
	/* a high one, something else, a low one: no pair */
	CHECK("\xed\xa0\xb5-\xed\xb4\x98", MUTF8_TEXT, "\xef\xbf\xbd-\xef\xbf\xbd");
}

static void test_malformed_kept(void **state)
{
	(void)state;
	/* cut short: the pair's second half incomplete, a surrogate's own bytes incomplete */
	CHECK("\xed\xa0\xb5\xed\xb4", MUTF8_NAME, "\xed\xa0\xb5\xed\xb4");
	CHECK("\xed\xa0\xb5\xed\xb4", MUTF8_TEXT, "\xef\xbf\xbd\xed\xb4");
	BOTH("\xed\xa0", "\xed\xa0");
	BOTH("\xed", "\xed");
	/* ED A0 not followed by a continuation byte */
	BOTH("\xed\xa0z", "\xed\xa0z");
	/* stray continuation bytes, bytes no UTF-8 has */
	BOTH("\x80\xbf\xfe\xff", "\x80\xbf\xfe\xff");
}

static void test_length_bounds_reads(void **state)
{
	char buf[8] = "\xed\xa0\xb5\xed\xb4\x98zz";

	(void)state;
	/* N ends inside the pair: nothing past N is read as its rest */
	assert_int_equal(mutf8_to_utf8(buf, 5, MUTF8_TEXT), 5);
	assert_memory_equal(buf, "\xef\xbf\xbd\xed\xb4", 5);
	assert_int_equal(mutf8_to_utf8(buf, 0, MUTF8_TEXT), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_and_bmp_unchanged),
		cmocka_unit_test(test_surrogate_pairs),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_lone_surrogates),
		cmocka_unit_test(test_malformed_kept),
		cmocka_unit_test(test_length_bounds_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
