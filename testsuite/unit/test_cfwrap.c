/* Unit tests of agent/cfwrap.c: natives wrapped, the output spelled out
 * byte by byte; what is asked, what is not; the result read back by
 * cfmethods.c and rewritten by classfile.c; every truncation and malformed
 * native, and a class cfmethods.c refuses, refused with its reason. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cfmethods.h"
#include "cfwrap.h"
#include "classfile.h"

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define U4(v) U2((v) >> 16), U2(v)
#define UTF8(n) 1, U2(n)

#define POOL \
	UTF8(1), 'T',						/* #1 */ \
	7, U2(1),						/* #2 Class T */ \
	UTF8(16), 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't', \
	7, U2(3),						/* #4 Class java/lang/Object */ \
	UTF8(3), 's', 'u', 'm',					/* #5 */ \
	UTF8(7), '(', 'I', 'J', 'J', 'F', ')', 'J',		/* #6 */ \
	UTF8(3), 's', 'a', 'y',					/* #7 */ \
	UTF8(24), '(', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'S', 't', 'r', \
	'i', 'n', 'g', ';', 'D', '[', 'I', ')', 'V',		/* #8 */ \
	UTF8(10), 'E', 'x', 'c', 'e', 'p', 't', 'i', 'o', 'n', 's', /* #9 */ \
	UTF8(19), 'j', 'a', 'v', 'a', '/', 'i', 'o', '/', 'I', 'O', 'E', 'x', 'c', 'e', 'p', \
	't', 'i', 'o', 'n',					/* #10 */ \
	7, U2(10),						/* #11 Class java/io/IOException */ \
	UTF8(4), 'k', 'e', 'e', 'p',				/* #12 */ \
	UTF8(3), '(', ')', 'Z'					/* #13 */

/* public class T { public static native long sum(int, long, long, float);
 * public synchronized native void say(String, double, int[]) throws
 * IOException; public native boolean keep(); } */
static const uint8_t t_pool[] = { POOL };
/* Offsets into t_class: the class's access (just after the pool), methods_count. */
#define AT_ACCESS (10 + sizeof t_pool)
#define AT_METHODS (AT_ACCESS + 10)

static const uint8_t t_class[] = {
	0xca, 0xfe, 0xba, 0xbe, U2(0), U2(52),
	U2(14), POOL,
	U2(0x0021), U2(2), U2(4), U2(0), U2(0),
	U2(3),
	U2(0x0109), U2(5), U2(6), U2(0),
	U2(0x0121), U2(7), U2(8), U2(1), U2(9), U4(4), U2(1), U2(11),
	U2(0x0101), U2(12), U2(13), U2(0),
	U2(0),
};

/* sum and say wrapped with the prefix "$w$": three constants each, "Code";
 * the natives renamed in place, private synthetic (sum still static), with
 * no attributes; the wrappers appended with the old access but native, their
 * code, then the native's Exceptions. */
static const uint8_t t_wrapped[] = {
	0xca, 0xfe, 0xba, 0xbe, U2(0), U2(52),
	U2(21), POOL,
	UTF8(6), '$', 'w', '$', 's', 'u', 'm',		/* #14 */
	12, U2(14), U2(6),				/* #15 NameAndType */
	10, U2(2), U2(15),				/* #16 Methodref T.$w$sum */
	UTF8(6), '$', 'w', '$', 's', 'a', 'y',		/* #17 */
	12, U2(17), U2(8),				/* #18 */
	10, U2(2), U2(18),				/* #19 */
	UTF8(4), 'C', 'o', 'd', 'e',			/* #20 */
	U2(0x0021), U2(2), U2(4), U2(0), U2(0),
	U2(5),
	U2(0x110a), U2(14), U2(6), U2(0),
	U2(0x1102), U2(17), U2(8), U2(0),
	U2(0x0101), U2(12), U2(13), U2(0),
	U2(0x0009), U2(5), U2(6), U2(1),
	U2(20), U4(12 + 9), U2(6), U2(6), U4(9),
	0x1a, 0x1f, 0x21, 0x17, 5, 0xb8, U2(16), 0xad,	/* iload_0 lload_1 lload_3 fload 5 invokestatic lreturn */
	U2(0), U2(0),
	U2(0x0021), U2(7), U2(8), U2(2),
	U2(20), U4(12 + 9), U2(5), U2(5), U4(9),
	0x2a, 0x2b, 0x28, 0x19, 4, 0xb7, U2(19), 0xb1,	/* aload_0 aload_1 dload_2 aload 4 invokespecial return */
	U2(0), U2(0),
	U2(9), U4(4), U2(1), U2(11),
	U2(0),
};

struct asked {
	char names[8][16];
	uint16_t access[8];
	size_t n;
	const char *pick;        /* names picked, space-separated, each followed by a space */
};

static bool select_named(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
			 uint16_t access)
{
	struct asked *a = ctx;
	char key[18];

	(void)desc; (void)dl;
	assert_true(a->n < 8 && nl < 16);
	memcpy(a->names[a->n], name, nl);
	a->names[a->n][nl] = '\0';
	a->access[a->n++] = access;
	memcpy(key, name, nl);
	key[nl] = ' ';
	key[nl + 1] = '\0';
	return strstr(a->pick, key) != NULL;
}

static void test_wrapped_exactly(void **state)
{
	(void)state;
	struct asked a = { .pick = "sum say " };
	uint8_t *out = NULL;
	size_t len = 0;
	const char *why = "unset";

	assert_int_equal(cfwrap_natives(t_class, sizeof t_class, "$w$", select_named, &a, &out, &len, &why), 2);
	assert_null(why);
	assert_int_equal(a.n, 3);
	assert_string_equal(a.names[0], "sum");
	assert_string_equal(a.names[1], "say");
	assert_string_equal(a.names[2], "keep");
	assert_int_equal(a.access[1], 0x0121);
	assert_int_equal(len, sizeof t_wrapped);
	assert_memory_equal(out, t_wrapped, sizeof t_wrapped);
	free(out);
}

/* The output reads as a class file, and the wrappers take injected calls. */
static void pick_wrappers(void *ctx, const char *name, size_t nl, const char *desc, size_t dl,
			  uint16_t access, struct classfile_pick *pick)
{
	int *site = ctx;
	(void)name; (void)nl; (void)desc; (void)dl;
	assert_int_equal(access & 0x0100, 0);
	pick->site = (*site)++;
	pick->enter = pick->exit = true;
}

static void no_refusal(void *ctx, const char *name, size_t nl, const char *desc, size_t dl, const char *why)
{
	(void)ctx; (void)name; (void)nl; (void)desc; (void)dl;
	fail_msg("refused: %s", why);
}

static void test_output_reads_and_rewrites(void **state)
{
	(void)state;
	struct cfmethods c;
	const char *why;
	int site = 0;
	struct classfile_hooks h = { &site, pick_wrappers, no_refusal, NULL, NULL };
	uint8_t *out = NULL;
	size_t len = 0;

	assert_int_equal(cfmethods_read(t_wrapped, sizeof t_wrapped, &c, &why), 0);
	assert_int_equal(c.nmethods, 5);
	assert_int_equal(c.methods[0].name_len, 6);
	assert_memory_equal(c.methods[0].name, "$w$sum", 6);
	assert_int_equal(c.methods[3].access, 0x0009);
	assert_memory_equal(c.methods[3].name, "sum", 3);
	cfmethods_free(&c);
	/* the two wrappers (the natives are never offered) */
	assert_int_equal(classfile_inject(t_wrapped, sizeof t_wrapped, &h, &out, &len, &why), 2);
	assert_int_equal(site, 2);
	free(out);
}

static void test_nothing_picked(void **state)
{
	(void)state;
	struct asked a = { .pick = "" };
	uint8_t sentinel, *out = &sentinel;
	size_t len = 7;
	const char *why = "unset";

	assert_int_equal(cfwrap_natives(t_class, sizeof t_class, "$w$", select_named, &a, &out, &len, &why), 0);
	assert_null(why);
	assert_int_equal(a.n, 3);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(len, 7);
}

/* An interface has no native methods: nothing is asked, nothing changed;
 * an abstract method is never asked either. */
static void test_interface_and_abstract_not_asked(void **state)
{
	(void)state;
	uint8_t b[sizeof t_class];
	struct asked a = { .pick = "sum say keep " };
	uint8_t *out = NULL;
	size_t len = 0;
	const char *why;

	memcpy(b, t_class, sizeof b);
	const size_t at = AT_ACCESS;
	assert_int_equal(b[at], 0x00);
	assert_int_equal(b[at + 1], 0x21);
	b[at] = 0x06;          /* interface abstract */
	assert_int_equal(cfwrap_natives(b, sizeof b, "$w$", select_named, &a, &out, &len, &why), 0);
	assert_int_equal(a.n, 0);
	memcpy(b, t_class, sizeof b);
	b[AT_METHODS + 2] = 0x05;     /* sum: abstract too (0x0509) */
	assert_int_equal(b[AT_METHODS + 3], 0x09);
	assert_int_equal(cfwrap_natives(b, sizeof b, "$w$", select_named, &a, &out, &len, &why), 2);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.names[0], "say");
	free(out);
}

static void expect_refused(const uint8_t *in, size_t len, int err, const char *reason)
{
	struct asked a = { .pick = "sum say keep " };
	uint8_t sentinel, *out = &sentinel;
	size_t out_len = 7;
	const char *why = NULL;

	assert_int_equal(cfwrap_natives(in, len, "$w$", select_named, &a, &out, &out_len, &why), err);
	assert_non_null(why);
	assert_string_equal(why, reason);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 7);
}

/* Every prefix is refused, each with the reason of the part it cuts. */
static void test_every_truncation(void **state)
{
	(void)state;
	const size_t pool_end = AT_ACCESS, methods_at = AT_METHODS;
	for (size_t len = 0; len < sizeof t_class; len++) {
		const char *reason =
			len < 4 ? "not a class file (bad magic)" :
			len < 8 ? "not a class file (truncated header)" :
			len < 10 ? "no constant pool" :
			len < pool_end ? "constant pool truncated" :
			len < pool_end + 6 ? "class header truncated" :
			len < pool_end + 8 ? "interfaces truncated" :
			len < methods_at ? "fields truncated" :
			len < sizeof t_class - 2 ? "methods truncated" :
			"class attributes truncated or trailing bytes";
		expect_refused(t_class, len, -EINVAL, reason);
	}
}

/* Not asked: a native named as an initializer (the VM ignores a
 * <clinit>'s flags but static, and refuses a native <init>), and one with
 * the prefix already (the bytes of a class from a JVM of ours). */
static void test_initializer_and_prefixed_not_asked(void **state)
{
	(void)state;
	uint8_t b[sizeof t_class];
	const size_t methods_at = AT_METHODS;
	struct asked a = { .pick = "$w$y keep " };
	uint8_t *out = NULL;
	size_t len = 0;
	const char *why = "unset";

	memcpy(b, t_class, sizeof b);
	b[10 + 3] = '<';              /* #1 is "<" (the class's name too) */
	b[methods_at + 5] = 1;        /* sum is named by #1 */
	uint8_t *say = memmem(b, sizeof b, "\x01\x00\x03say", 6);
	assert_non_null(say);
	memcpy(say + 3, "$w$", 3);    /* say is "$w$" */
	assert_int_equal(cfwrap_natives(b, sizeof b, "$w$", select_named, &a, &out, &len, &why), 1);
	assert_null(why);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.names[0], "keep");
	free(out);
}

static void test_malformed_natives(void **state)
{
	(void)state;
	uint8_t b[sizeof t_class];
	const size_t methods_at = AT_METHODS;

	memcpy(b, t_class, sizeof b);
	uint8_t *keep_desc = memmem(b, sizeof b, "()Z", 3);
	assert_non_null(keep_desc);
	memcpy(keep_desc, "(Z)", 3);  /* keep's descriptor has no return type */
	expect_refused(b, sizeof b, -EINVAL, "a native method's descriptor is malformed");
	/* a class cfmethods_read() refuses, the natives well formed: keep is
	 * no longer native, its descriptor is "keep" (the VM's format check
	 * refuses such a class as well) */
	memcpy(b, t_class, sizeof b);
	const size_t keep_at = methods_at + 2 + 8 + 18;
	assert_int_equal(b[keep_at], 0x01);
	b[keep_at] = 0x00;
	assert_int_equal(b[keep_at + 5], 13);
	b[keep_at + 5] = 12;
	expect_refused(b, sizeof b, -EINVAL, "a method descriptor that does not start with '('");
	memcpy(b, t_class, sizeof b);
	b[methods_at + 7] = 2;        /* a Class, not a Utf8 */
	expect_refused(b, sizeof b, -EINVAL, "method name or descriptor is not a Utf8 constant");
	/* a native with a Code attribute (found by fuzz_classfile: its wrapper
	 * had two): #12 "keep" becomes "Code", and names say's attribute */
	memcpy(b, t_class, sizeof b);
	uint8_t *keep = memmem(b, sizeof b, "keep", 4);
	assert_non_null(keep);
	memcpy(keep, "Code", 4);
	assert_int_equal(b[methods_at + 2 + 8 + 9], 9);
	b[methods_at + 2 + 8 + 9] = 12;
	expect_refused(b, sizeof b, -EINVAL, "a native method with code");
	/* say's Exceptions named by #20, past the pool: the first constant the
	 * wrapper appends is "$w$sum", the last "Code", which would make two
	 * Code attributes (found by fuzz_classfile) */
	memcpy(b, t_class, sizeof b);
	b[methods_at + 2 + 8 + 9] = 20;
	expect_refused(b, sizeof b, -EINVAL, "a native method's attribute is not named by a Utf8 constant");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrapped_exactly),
		cmocka_unit_test(test_output_reads_and_rewrites),
		cmocka_unit_test(test_nothing_picked),
		cmocka_unit_test(test_interface_and_abstract_not_asked),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_malformed_natives),
		cmocka_unit_test(test_initializer_and_prefixed_not_asked),
	};
	return cmocka_run_group_tests_name("cfwrap", tests, NULL, NULL);
}
