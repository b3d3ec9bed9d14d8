/* test_methodids.c: runtime/methodids.c, a receiver's method numbers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "methodids.h"

static struct wire_event ev;
static char why[160];

static int name(struct methodids *t, uint32_t id, const char *text, size_t len)
{
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_NAME;
	ev.method_id = id;
	ev.name = (struct wire_str){ text, (uint32_t)len };
	why[0] = '\0';
	return methodids_name(t, &ev, why, sizeof why);
}

static int by_id(const struct methodids *t, unsigned code, uint32_t id, uint8_t type)
{
	memset(&ev, 0, sizeof ev);
	ev.code = code;
	ev.method_id = id;
	ev.thread = 4242;
	ev.retval.type = type;
	why[0] = '\0';
	return methodids_resolve(t, &ev, why, sizeof why);
}

/* Named once, then each event by number is the event it stands for. */
static void test_named_then_resolved(void **state)
{
	struct methodids t = { 0 };

	(void)state;
	assert_int_equal(name(&t, 7, "a.B.c()V", 8), 0);
	assert_int_equal(name(&t, 100000, "a.B.d(I)I", 9), 0);
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_ENTER_ID, 7, 0), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_ENTER);
	assert_int_equal(ev.name.len, 8);
	assert_memory_equal(ev.name.ptr, "a.B.c()V", 8);
	assert_int_equal(ev.thread, 4242);
	assert_int_equal(ev.nvalues, 0);
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_EXIT_ID, 100000, WIRE_T_VOID), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_EXIT);
	assert_memory_equal(ev.name.ptr, "a.B.d(I)I", 9);
	assert_false(ev.popped);
	assert_int_equal(ev.retval.type, WIRE_T_VOID);
	/* named again: the new name */
	assert_int_equal(name(&t, 7, "x.Y.z()V", 8), 0);
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_ENTER_ID, 7, 0), 0);
	assert_memory_equal(ev.name.ptr, "x.Y.z()V", 8);
	assert_int_equal(t.bytes, 17);
	/* other events are left as they are */
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_ENTER;
	assert_int_equal(methodids_resolve(&t, &ev, why, sizeof why), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_ENTER);
	methodids_free(&t);
	assert_null(t.ids);
}

/* Events with values by number (CAP_METHOD_ID_VALUES): named, their values
 * and the exit's popped flag as decoded. */
static void test_values_by_number(void **state)
{
	struct methodids t = { 0 };

	(void)state;
	assert_int_equal(name(&t, 3, "a.B.c(I)J", 9), 0);
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_ENTER_ID_VALUES;
	ev.method_id = 3;
	ev.nvalues = 1;
	ev.values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 41 };
	assert_int_equal(methodids_resolve(&t, &ev, why, sizeof why), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_ENTER);
	assert_true(ev.by_id);
	assert_memory_equal(ev.name.ptr, "a.B.c(I)J", 9);
	assert_int_equal(ev.nvalues, 1);
	assert_int_equal(ev.values[0].v.i, 41);
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_EXIT_ID_VALUE;
	ev.method_id = 3;
	ev.popped = true;
	ev.retval = (struct wire_value){ .type = WIRE_T_OBJECT, .object_id = 5 };
	assert_int_equal(methodids_resolve(&t, &ev, why, sizeof why), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_EXIT);
	assert_true(ev.popped);
	assert_int_equal(ev.retval.type, WIRE_T_OBJECT);
	assert_int_equal(ev.retval.object_id, 5);
	ev.code = WIRE_EV_METHOD_EXIT_ID_VALUE;
	ev.method_id = 4;
	assert_int_equal(methodids_resolve(&t, &ev, why, sizeof why), -ENOENT);
	assert_string_equal(why, "MethodExitIdValue of method number 4, which no MethodName gave");
	methodids_free(&t);
}

/* As a receiver takes each event: a MethodName kept (1), an event by number
 * resolved (0), another left alone (0), a number never named refused. */
static void test_take(void **state)
{
	struct methodids t = { 0 };

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_NAME;
	ev.method_id = 5;
	ev.name = (struct wire_str){ "a.B.c()V", 8 };
	assert_int_equal(methodids_take(&t, &ev, why, sizeof why), 1);
	assert_int_equal(ev.code, WIRE_EV_METHOD_NAME);
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_ENTER_ID;
	ev.method_id = 5;
	assert_int_equal(methodids_take(&t, &ev, why, sizeof why), 0);
	assert_int_equal(ev.code, WIRE_EV_METHOD_ENTER);
	assert_memory_equal(ev.name.ptr, "a.B.c()V", 8);
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_GC_START;
	assert_int_equal(methodids_take(&t, &ev, why, sizeof why), 0);
	assert_int_equal(ev.code, WIRE_EV_GC_START);
	ev.code = WIRE_EV_METHOD_EXIT_ID;
	ev.method_id = 6;
	assert_int_equal(methodids_take(&t, &ev, why, sizeof why), -ENOENT);
	assert_string_equal(why, "MethodExitId of method number 6, which no MethodName gave");
	memset(&ev, 0, sizeof ev);
	ev.code = WIRE_EV_METHOD_NAME;
	ev.method_id = METHODIDS_MAX_ID;
	ev.name = (struct wire_str){ "a.B.c()V", 8 };
	assert_int_equal(methodids_take(&t, &ev, why, sizeof why), -E2BIG);
	methodids_free(&t);
}

/* A number no MethodName gave, and the bounds, are refused and said. */
static void test_unknown_and_bounds(void **state)
{
	static char big[WIRE_MAX_STRING];
	struct methodids t = { 0 };
	uint32_t id;

	(void)state;
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_ENTER_ID, 3, 0), -ENOENT);
	assert_string_equal(why, "MethodEnterId of method number 3, which no MethodName gave");
	assert_int_equal(name(&t, 2, "a.B.c()V", 8), 0);
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_EXIT_ID, 3, WIRE_T_NONE), -ENOENT);
	assert_string_equal(why, "MethodExitId of method number 3, which no MethodName gave");
	assert_int_equal(by_id(&t, WIRE_EV_METHOD_EXIT_ID, 0xFFFFFFFFu, WIRE_T_NONE), -ENOENT);
	assert_int_equal(name(&t, METHODIDS_MAX_ID, "a.B.c()V", 8), -E2BIG);
	assert_string_equal(why, "method number 4194304 past the bound of 4194304");
	assert_int_equal(name(&t, METHODIDS_MAX_ID - 1, "a.B.c()V", 8), 0);
	/* names up to the bound of bytes, then one more refused */
	memset(big, 'm', sizeof big);
	for (id = 10; t.bytes + sizeof big <= METHODIDS_MAX_BYTES; id++)
		assert_int_equal(name(&t, id, big, sizeof big), 0);
	assert_int_equal(name(&t, id, big, sizeof big), -E2BIG);
	assert_string_equal(why, "method names past the bound of 67108864 bytes");
	/* a name given again in place of a long one fits */
	assert_int_equal(name(&t, 10, big, sizeof big), 0);
	methodids_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_then_resolved),
		cmocka_unit_test(test_values_by_number),
		cmocka_unit_test(test_take),
		cmocka_unit_test(test_unknown_and_bounds),
	};

	return cmocka_run_group_tests_name("methodids", tests, NULL, NULL);
}
