/* Unit tests for stpd-bridge/jfrfeed.c's hand-on of a parsed JFR event: the
 * JfrEvent text (what an in-thread agent fires) and the bridge's own jfr
 * marker made from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "jfrfeed.h"

static const struct jfr_live_field fields[] = {
	{ "name", { .kind = JFR_LIVE_STRING, .s = "G1Old" } },
	{ "sumOfPauses", { .kind = JFR_LIVE_LONG, .l = -2500000 } },
	{ "ratio", { .kind = JFR_LIVE_DOUBLE, .d = 0.5 } },
	{ "previousOwner", { .kind = JFR_LIVE_NULL } },
};

static const struct jfr_live_frame frames[] = {
	{ "java.lang.System.gc", "()V", 1, "Interpreted" },
	{ "Demo.main", "([Ljava/lang/String;)V", -1, "Interpreted" },
};

static const struct jfr_live_event event = {
	.type = "jdk.GarbageCollection", .start_ns = 1764150000123456789, .duration_ns = 2500000,
	.os_tid = 99, .thread_name = "VM Thread", .frames = frames, .nframes = 2, .fields = fields, .nfields = 4,
};

static void assert_text(struct wire_str s, const char *want, size_t n)
{
	assert_int_equal(s.len, n);
	assert_memory_equal(s.ptr, want, n);
}

/* Fields "PATH\0VALUE\0" (numbers in decimal, null ""), frames
 * "Class.method:LINE\0" (no line: none), the rest as given. */
static void test_event_text(void **state)
{
	static char buf[4096];
	/* the literal's own NUL ends previousOwner's empty value */
	static const char want_fields[] = "name\0G1Old\0sumOfPauses\0-2500000\0ratio\0000.5\0previousOwner\0";
	static const char want_stack[] = "java.lang.System.gc:1\0Demo.main\0";
	struct wire_jfr_event e;

	(void)state;
	jfrfeed_event_text(buf, sizeof buf, 4321, 0x6, &event, &e);
	assert_int_equal(e.slots, 0x6);
	assert_int_equal(e.tid, 4321);
	assert_int_equal(e.start_ns, 1764150000123456789);
	assert_int_equal(e.duration_ns, 2500000);
	assert_text(e.type, "jdk.GarbageCollection", 21);
	assert_text(e.thread_name, "VM Thread", 9);
	assert_int_equal(e.nfields, 4);
	assert_text(e.fields, want_fields, sizeof want_fields);
	assert_int_equal(e.depth, 2);
	assert_text(e.stack, want_stack, sizeof want_stack - 1);
	/* room for the fields only: no stack; for neither: nothing */
	jfrfeed_event_text(buf, sizeof want_fields + 4, 4321, 0x6, &event, &e);
	assert_int_equal(e.nfields, 4);
	assert_int_equal(e.depth, 0);
	assert_int_equal(e.stack.len, 0);
	jfrfeed_event_text(buf, 8, 4321, 0x6, &event, &e);
	assert_int_equal(e.nfields, 0);
	assert_int_equal(e.fields.len, 0);
	assert_int_equal(e.depth, 0);
}

/* The bridge's marker: its strings from that text, session 0. */
static void test_marker_args(void **state)
{
	static char buf[8192];
	struct marker_args a;
	uint32_t n;

	(void)state;
	jfrfeed_marker_args(buf, sizeof buf, 4242, 4321, 0x6, &event, &a);
	assert_int_equal(a.event, WIRE_EV_JFR_DATA | WIRE_TF_STACK << MARKERS_FLAGS_SHIFT);
	assert_int_equal(a.pid, 4242);
	assert_int_equal(a.tid, 4321);
	assert_string_equal(a.name, "jdk.GarbageCollection");
	memcpy(&n, a.method - 4, 4);
	assert_int_equal(n, 4);
	assert_string_equal(a.method, "name");
	assert_string_equal(a.thread_name, "VM Thread");
	assert_string_equal(a.stack, "java.lang.System.gc:1|Demo.main");
	assert_int_equal(a.num1, 2500000);
	assert_int_equal(a.num2, 0x6);
	assert_int_equal((int64_t)(uintptr_t)a.args, 1764150000123456789);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_text),
		cmocka_unit_test(test_marker_args),
	};

	return cmocka_run_group_tests_name("jfrfeed", tests, NULL, NULL);
}
