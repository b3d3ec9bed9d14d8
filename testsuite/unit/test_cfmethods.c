/* Unit tests of agent/cfmethods.c: a class file's name, superclass and
 * methods, exactly; every truncation and each malformed part refused with
 * its reason. The class files are spelled out byte by byte. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cfmethods.h"

#define U2(v) (uint8_t)((v) >> 8), (uint8_t)(v)
#define UTF8(n) 1, U2(n)

/* "h\U0001D518llo" in modified UTF-8: the surrogate pair D835 DD18 */
#define HULLO "h\xed\xa0\xb5\xed\xb4\x98llo"

/* Offsets into shop[] of the parts the malformed cases change. */
enum {
	AT_THIS = 160,		/* this_class */
	AT_SUPER = 162,
	AT_METHODS = 186,	/* methods_count */
	AT_M2_DESC = 211,	/* the second method's descriptor index */
};

/* public class com.acme.Shop extends Object implements (Object, to be
 * skipped) { one field; <init>()V with a Code attribute; static buy(I)V;
 * abstract buy(String, int) boolean; native h𝔘llo()V } SourceFile "Shop.java" */
static const uint8_t shop[] = {
	0xca, 0xfe, 0xba, 0xbe, U2(0), U2(61),
	U2(16),				/* constant_pool_count */
	UTF8(4), 'C', 'o', 'd', 'e',			/* #1 */
	UTF8(13), 'c', 'o', 'm', '/', 'a', 'c', 'm', 'e', '/', 'S', 'h', 'o', 'p', /* #2 */
	7, U2(2),					/* #3 Class com/acme/Shop */
	UTF8(16), 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'O', 'b', 'j', 'e', 'c', 't',
	7, U2(4),					/* #5 Class java/lang/Object */
	UTF8(3), 'b', 'u', 'y',				/* #6 */
	UTF8(4), '(', 'I', ')', 'V',			/* #7 */
	UTF8(22), '(', 'L', 'j', 'a', 'v', 'a', '/', 'l', 'a', 'n', 'g', '/', 'S', 't', 'r',
	'i', 'n', 'g', ';', 'I', ')', 'Z',		/* #8 */
	UTF8(6), '<', 'i', 'n', 'i', 't', '>',		/* #9 */
	UTF8(3), '(', ')', 'V',				/* #10 */
	5, 0, 0, 0, 0, 0, 0, 0, 42,			/* #11 Long, two slots */
	UTF8(10), 'h', 0xed, 0xa0, 0xb5, 0xed, 0xb4, 0x98, 'l', 'l', 'o', /* #13 */
	UTF8(10), 'S', 'o', 'u', 'r', 'c', 'e', 'F', 'i', 'l', 'e', /* #14 */
	UTF8(9), 'S', 'h', 'o', 'p', '.', 'j', 'a', 'v', 'a', /* #15 */
	U2(0x0021), U2(3), U2(5),	/* 158: access, this_class, super_class */
	U2(1), U2(5),			/* 164: interfaces */
	U2(1),				/* 168: fields: private I buy, one attribute */
	U2(0x0002), U2(6), U2(7), U2(1), U2(1), 0, 0, 0, 2, 0, 0,
	U2(4),				/* 186: methods */
	U2(0x0001), U2(9), U2(10), U2(1), U2(1), 0, 0, 0, 5, 0, 1, 2, 3, 4,
	U2(0x0009), U2(6), U2(7), U2(0),
	U2(0x0401), U2(6), U2(8), U2(0),
	U2(0x0101), U2(13), U2(10), U2(0),
	U2(1), U2(14), 0, 0, 0, 2, U2(15),	/* 231: SourceFile */
};

static void expect_method(const struct cfmethod *m, const char *name, const char *desc,
			  uint16_t access)
{
	assert_int_equal(m->name_len, strlen(name));
	assert_memory_equal(m->name, name, m->name_len);
	assert_int_equal(m->desc_len, strlen(desc));
	assert_memory_equal(m->desc, desc, m->desc_len);
	assert_int_equal(m->access, access);
}

static void test_shop(void **state)
{
	(void)state;
	struct cfmethods c;
	const char *why = "unset";

	assert_int_equal(cfmethods_read(shop, sizeof shop, &c, &why), 0);
	assert_null(why);
	assert_int_equal(c.name_len, 13);
	assert_memory_equal(c.name, "com/acme/Shop", 13);
	assert_int_equal(c.super_len, 16);
	assert_memory_equal(c.super, "java/lang/Object", 16);
	assert_int_equal(c.access, 0x0021);
	assert_int_equal(c.nmethods, 4);
	expect_method(&c.methods[0], "<init>", "()V", 0x0001);
	expect_method(&c.methods[1], "buy", "(I)V", 0x0009);
	expect_method(&c.methods[2], "buy", "(Ljava/lang/String;I)Z", 0x0401);
	/* as the class file has it: converting is the caller's (mutf8.h) */
	expect_method(&c.methods[3], HULLO, "()V", 0x0101);
	/* the names point into the input */
	assert_ptr_equal(c.name, shop + 20);
	/* where each part is, for a writer that copies the class (cfwrap.h) */
	assert_int_equal(c.this_class, 3);
	assert_int_equal(c.methods_at, AT_METHODS);
	const size_t ends[4] = { AT_METHODS + 2 + 19, AT_METHODS + 2 + 27, AT_METHODS + 2 + 35, 231 };
	for (size_t i = 0; i < 4; i++) {
		const struct cfmethod *m = &c.methods[i];
		assert_int_equal(m->start, i ? ends[i - 1] : AT_METHODS + 2);
		assert_int_equal(m->end, ends[i]);
		/* its name and descriptor constants, its attributes_count */
		assert_int_equal(shop[m->start + 2] << 8 | shop[m->start + 3], m->name_idx);
		assert_int_equal(shop[m->start + 4] << 8 | shop[m->start + 5], m->desc_idx);
		assert_int_equal(m->attrs, m->start + 6);
	}
	assert_int_equal(c.methods[0].name_idx, 9);
	assert_int_equal(c.methods[2].desc_idx, 8);
	assert_int_equal(c.methods_end, 231);
	/* the pool, kept for that writer */
	assert_int_equal(c.pool.count, 16);
	assert_int_equal(c.pool.start, 10);
	assert_int_equal(c.pool.end, 158);
	assert_true(cfpool_utf8_is(&c.pool, 1, "Code"));
	cfmethods_free(&c);
	assert_null(c.methods);
	assert_null(c.pool.off);
	assert_int_equal(c.nmethods, 0);
}

/* A copy of shop[] with the u2 at AT set to V. */
static uint8_t *shop_with(size_t at, uint16_t v)
{
	uint8_t *b = malloc(sizeof shop);
	assert_non_null(b);
	memcpy(b, shop, sizeof shop);
	b[at] = (uint8_t)(v >> 8);
	b[at + 1] = (uint8_t)v;
	return b;
}

static void expect_refused(const uint8_t *in, size_t len, const char *reason)
{
	struct cfmethods c = { .nmethods = 99 };
	const char *why = NULL;

	assert_int_equal(cfmethods_read(in, len, &c, &why), -EINVAL);
	assert_non_null(why);
	assert_string_equal(why, reason);
	assert_null(c.methods);
	assert_int_equal(c.nmethods, 0);
	assert_null(c.name);
}

static void test_object_has_no_super(void **state)
{
	(void)state;
	uint8_t *b = shop_with(AT_SUPER, 0);
	struct cfmethods c;
	const char *why;

	assert_int_equal(cfmethods_read(b, sizeof shop, &c, &why), 0);
	assert_null(c.super);
	assert_int_equal(c.super_len, 0);
	assert_int_equal(c.nmethods, 4);
	cfmethods_free(&c);
	free(b);
}

/* Every prefix is refused, each with the reason of the part it cuts. */
static void test_every_truncation(void **state)
{
	(void)state;
	for (size_t len = 0; len < sizeof shop; len++) {
		const char *reason =
			len < 4 ? "not a class file (bad magic)" :
			len < 8 ? "not a class file (truncated header)" :
			len < 10 ? "no constant pool" :
			len < 158 ? "constant pool truncated" :
			len < 164 ? "class header truncated" :
			len < 168 ? "interfaces truncated" :
			len < 186 ? "fields truncated" :
			len < 231 ? "methods truncated" :
			"class attributes truncated or trailing bytes";
		expect_refused(shop, len, reason);
	}
	uint8_t longer[sizeof shop + 1];
	memcpy(longer, shop, sizeof shop);
	longer[sizeof shop] = 0;
	expect_refused(longer, sizeof longer, "class attributes truncated or trailing bytes");
}

static void test_malformed_parts(void **state)
{
	(void)state;
	static const struct {
		size_t at;
		uint16_t v;
		const char *reason;
	} cases[] = {
		{ 0, 0xcafe + 1, "not a class file (bad magic)" },
		{ 8, 0, "no constant pool" },
		{ AT_THIS, 2, "this_class is not a Class constant with a name" },	/* a Utf8 */
		{ AT_THIS, 0, "this_class is not a Class constant with a name" },
		{ AT_THIS, 12, "this_class is not a Class constant with a name" },	/* a Long's second slot */
		{ AT_THIS, 99, "this_class is not a Class constant with a name" },
		{ AT_SUPER, 6, "super_class is not a Class constant with a name" },
		{ AT_METHODS, 5, "methods truncated" },
		{ AT_METHODS, 0xffff, "methods truncated" },
		{ AT_METHODS, 3, "class attributes truncated or trailing bytes" },
		{ AT_M2_DESC, 6, "a method descriptor that does not start with '('" },
		{ AT_M2_DESC, 3, "method name or descriptor is not a Utf8 constant" },
		{ AT_M2_DESC - 2, 0, "method name or descriptor is not a Utf8 constant" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t *b = shop_with(cases[i].at, cases[i].v);
		expect_refused(b, sizeof shop, cases[i].reason);
		free(b);
	}
}

/* A Class whose name is an empty Utf8, and a method named "". */
static void test_empty_names(void **state)
{
	(void)state;
	static const uint8_t empty[] = {
		0xca, 0xfe, 0xba, 0xbe, U2(0), U2(52), U2(5),
		UTF8(0),				/* #1 "" */
		7, U2(1),				/* #2 Class "": byte 15 names #1 */
		UTF8(3), '(', ')', 'V',			/* #3 */
		UTF8(1), 'm',				/* #4 */
		U2(0x0001), U2(2), U2(0), U2(0), U2(0),	/* Object's super_class is 0 */
		U2(1), U2(0x0001), U2(4), U2(3), U2(0),	/* m()V: byte 41 names #4 */
		U2(0),
	};
	uint8_t b[sizeof empty];
	struct cfmethods c;
	const char *why;

	expect_refused(empty, sizeof empty, "this_class is not a Class constant with a name");
	memcpy(b, empty, sizeof b);
	b[15] = 4;	/* the class is "m" */
	assert_int_equal(cfmethods_read(b, sizeof b, &c, &why), 0);
	assert_int_equal(c.name_len, 1);
	assert_null(c.super);
	assert_int_equal(c.nmethods, 1);
	expect_method(&c.methods[0], "m", "()V", 0x0001);
	cfmethods_free(&c);
	b[41] = 1;	/* the method is "" */
	expect_refused(b, sizeof b, "a method with an empty name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shop),
		cmocka_unit_test(test_object_has_no_super),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_malformed_parts),
		cmocka_unit_test(test_empty_names),
	};
	return cmocka_run_group_tests_name("cfmethods", tests, NULL, NULL);
}
