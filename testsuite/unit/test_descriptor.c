/* test_descriptor.c: agent/descriptor.c, the walk of field and method
 * descriptors: kinds and slots of each type, and the return type found by
 * walking the parameters, not by the first ')' (a class name may hold one:
 * JVMS 4.2.2 forbids only . ; [ / in it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "descriptor.h"

#define D(s) s, sizeof(s) - 1

static void test_next_kinds_and_slots(void **state)
{
	const char *d = "IJLjava/lang/String;[[D[LFoo;Z";
	size_t len = strlen(d), pos = 0;
	const char kinds[] = "IJL[[Z";
	const int slots[] = { 1, 2, 1, 1, 1, 1 };
	char kind;

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(descriptor_next(d, len, &pos, &kind), slots[i]);
		assert_int_equal(kind, kinds[i]);
	}
	assert_int_equal(pos, len);
	assert_int_equal(descriptor_next(d, len, &pos, &kind), -22);
}

static void test_malformed(void **state)
{
	size_t pos = 0;
	char kind;

	(void)state;
	assert_int_equal(descriptor_next(D("L;"), &pos, &kind), -22);        /* empty class name */
	assert_int_equal(descriptor_next(D("Ljava/lang/String"), &pos, &kind), -22); /* no ';' */
	assert_int_equal(descriptor_next(D("["), &pos, &kind), -22);
	assert_int_equal(descriptor_next(D("Q"), &pos, &kind), -22);
	assert_int_equal(pos, 0);
	assert_int_equal(descriptor_field_slots(D("II")), -1);
	assert_int_equal(descriptor_arg_slots(D("(I")), -1);
	assert_int_equal(descriptor_ret_kind(D("(I")), 0);
	assert_int_equal(descriptor_ret_kind(D("()")), 0);
	assert_int_equal(descriptor_ret_kind(D("(I)Q")), 0);
}

static void test_method_slots_and_return(void **state)
{
	(void)state;
	assert_int_equal(descriptor_arg_slots(D("(IJLjava/lang/Object;D)V")), 6);
	assert_int_equal(descriptor_ret_slots(D("(IJLjava/lang/Object;D)V")), 0);
	assert_int_equal(descriptor_ret_kind(D("(IJLjava/lang/Object;D)V")), 'V');
	assert_int_equal(descriptor_ret_slots(D("()J")), 2);
	assert_int_equal(descriptor_ret_kind(D("()J")), 'J');
	assert_int_equal(descriptor_ret_kind(D("([I)[Ljava/lang/String;")), '[');
	assert_int_equal(descriptor_ret_kind(D("(Z)Ljava/lang/String;")), 'L');
}

/* A parameter's class named "Odd)": the first ')' is inside it; the walk
 * finds the real end of the parameters (the agent's return values read
 * their type so: mcache.c, ret_kind) */
static void test_return_after_class_name_with_paren(void **state)
{
	(void)state;
	assert_int_equal(descriptor_ret_kind(D("(LOdd);)J")), 'J');
	assert_int_equal(descriptor_arg_slots(D("(LOdd);)J")), 1);
	assert_int_equal(descriptor_ret_kind(D("(Lp.Odd);I)D")), 'D');   /* a wire name's dotted form */
	assert_int_equal(descriptor_ret_kind(D("()LOdd);")), 'L');
	assert_int_equal(descriptor_ret_slots(D("()LOdd);")), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_kinds_and_slots),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_method_slots_and_return),
		cmocka_unit_test(test_return_after_class_name_with_paren),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
