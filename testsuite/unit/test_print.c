/* Unit tests for runtime/print.c: the exact --print text of every value
 * type and every event (doc/agent-bridge.md), escaping, and buffer bounds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"
#include "print.h"

static char buf[65536];
static struct wire_event ev; /* large: static */

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

static struct wire_str SN(const char *s, size_t n)
{
	return (struct wire_str){ s, (uint32_t)n };
}

static void assert_value(struct wire_value v, const char *want)
{
	ssize_t n = print_value(buf, sizeof buf, &v);

	if (n < 0)
		fail_msg("print_value type '%c' failed: %zd", v.type, n);
	assert_string_equal(buf, want);
	assert_int_equal((size_t)n, strlen(want));
}

static struct wire_value I(uint8_t type, int64_t i)
{
	return (struct wire_value){ .type = type, .v.i = i };
}

static void test_values_integers(void **state)
{
	(void)state;
	assert_value(I(WIRE_T_BOOLEAN, 1), "true");
	assert_value(I(WIRE_T_BOOLEAN, 0), "false");
	assert_value(I(WIRE_T_BYTE, -128), "-128");
	assert_value(I(WIRE_T_SHORT, -32768), "-32768");
	assert_value(I(WIRE_T_INT, 2147483647), "2147483647");
	assert_value(I(WIRE_T_INT, -7), "-7");
	assert_value(I(WIRE_T_LONG, INT64_MIN), "-9223372036854775808");
	assert_value(I(WIRE_T_LONG, 42), "42");
}

static void test_values_chars(void **state)
{
	(void)state;
	assert_value(I(WIRE_T_CHAR, 'a'), "'a'");
	assert_value(I(WIRE_T_CHAR, ' '), "' '");
	assert_value(I(WIRE_T_CHAR, '~'), "'~'");
	assert_value(I(WIRE_T_CHAR, '\''), "U+0027");
	assert_value(I(WIRE_T_CHAR, '\\'), "U+005C");
	assert_value(I(WIRE_T_CHAR, 0xE9), "U+00E9");
	assert_value(I(WIRE_T_CHAR, '\n'), "U+000A");
	assert_value(I(WIRE_T_CHAR, 0x7F), "U+007F");
	assert_value(I(WIRE_T_CHAR, 0xFFFF), "U+FFFF");
}

static void test_values_floats(void **state)
{
	(void)state;
	assert_value((struct wire_value){ .type = WIRE_T_FLOAT, .v.f = 1.5f }, "1.5");
	assert_value((struct wire_value){ .type = WIRE_T_FLOAT, .v.f = 0.1f }, "0.100000001");
	assert_value((struct wire_value){ .type = WIRE_T_FLOAT, .v.f = NAN }, "NaN");
	assert_value((struct wire_value){ .type = WIRE_T_FLOAT, .v.f = INFINITY }, "Infinity");
	assert_value((struct wire_value){ .type = WIRE_T_FLOAT, .v.f = -INFINITY }, "-Infinity");
	assert_value((struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = 0.1 }, "0.10000000000000001");
	assert_value((struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = -2.0 }, "-2");
	assert_value((struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = 1e300 }, "1.0000000000000001e+300");
	assert_value((struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = NAN }, "NaN");
	assert_value((struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = -INFINITY }, "-Infinity");
}

static void test_values_no_payload(void **state)
{
	(void)state;
	assert_value(I(WIRE_T_VOID, 0), "void");
	assert_value(I(WIRE_T_NULL, 0), "null");
	assert_value(I(WIRE_T_NONE, 0), "?");
}

static struct wire_value T(const char *s, size_t n, bool truncated)
{
	return (struct wire_value){ .type = WIRE_T_STRING, .str = SN(s, n), .truncated = truncated };
}

static void test_values_strings(void **state)
{
	(void)state;
	assert_value(T("hello", 5, false), "\"hello\"");
	assert_value(T("", 0, false), "\"\"");
	assert_value(T("a\"b\\c", 5, false), "\"a\\\"b\\\\c\"");
	assert_value(T("1\n2\t3\r", 6, false), "\"1\\n2\\t3\\r\"");
	assert_value(T("\x01\x1f\x7f", 3, false), "\"\\x01\\x1f\\x7f\"");
	assert_value(T("nul\0x", 5, false), "\"nul\\x00x\"");
	assert_value(T("caf\xc3\xa9 \xe2\x82\xac", 9, false), "\"caf\xc3\xa9 \xe2\x82\xac\"");
	/* not UTF-8: a lone continuation byte, a truncated sequence, a surrogate */
	assert_value(T("\x80x\xc3", 3, false), "\"\\x80x\\xc3\"");
	assert_value(T("\xed\xa0\x80", 3, false), "\"\\xed\\xa0\\x80\"");
	assert_value(T("abc", 3, true), "\"abc\"...");
}

static void test_values_objects_arrays(void **state)
{
	struct wire_value v = { .type = WIRE_T_OBJECT, .str = S("Ljava/util/ArrayList;"),
				.object_id = 12, .aux = 0x1b6d3586 };

	(void)state;
	assert_value(v, "java.util.ArrayList@1b6d3586#12");
	v.str = S("LOuter$Inner;");
	v.aux = 0;
	assert_value(v, "Outer$Inner@0#12");
	v.str = S("Lbad"); /* malformed: shown as sent */
	assert_value(v, "Lbad@0#12");
	v.str = S("La b;"); /* a space would split the field */
	assert_value(v, "a\\x20b@0#12");

	v = (struct wire_value){ .type = WIRE_T_ARRAY, .str = S("[I"), .object_id = 7, .aux = 3 };
	assert_value(v, "int[3]#7");
	v.str = S("[Ljava/lang/String;");
	v.aux = 2;
	assert_value(v, "java.lang.String[2]#7");
	v.str = S("[[J");
	v.aux = 0;
	assert_value(v, "long[][0]#7");
}

/* -------------------------------------------------------------- events */

static void reset(unsigned code)
{
	memset(&ev, 0, sizeof ev);
	ev.code = code;
}

static void assert_line(const struct print_meta *m, const char *want)
{
	ssize_t n = print_event_line(buf, sizeof buf, m, &ev);

	if (n < 0)
		fail_msg("print_event_line 0x%x failed: %zd", ev.code, n);
	assert_string_equal(buf, want);
	assert_int_equal((size_t)n, strlen(want));
}

static const struct print_meta M = { .pid = 4242, .tid = 4250, .ts_ns = 81234567890 };

static void test_event_method_enter(void **state)
{
	(void)state;
	reset(WIRE_EV_METHOD_ENTER);
	ev.name = S("Demo.add(II)I");
	ev.nvalues = 2;
	ev.values[0] = I(WIRE_T_INT, 2);
	ev.values[1] = I(WIRE_T_INT, 3);
	assert_line(&M, "method.enter pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I args=2,3\n");
	ev.nvalues = 0;
	assert_line(&M, "method.enter pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I args=\n");
	ev.nvalues = 3;
	ev.values[0] = T("a,b", 3, false);
	ev.values[1] = I(WIRE_T_NULL, 0);
	ev.values[2] = I(WIRE_T_CHAR, 'x');
	assert_line(&M, "method.enter pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I"
			" args=\"a,b\",null,'x'\n");
}

static void test_event_method_return(void **state)
{
	(void)state;
	reset(WIRE_EV_METHOD_EXIT);
	ev.name = S("Demo.add(II)I");
	ev.retval = I(WIRE_T_INT, 5);
	assert_line(&M, "method.return pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I popped=0 ret=5\n");
	ev.popped = true;
	ev.retval = I(WIRE_T_NONE, 0);
	assert_line(&M, "method.return pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I popped=1 ret=?\n");
	ev.popped = false;
	ev.name = S("Demo.run()V");
	ev.retval = I(WIRE_T_VOID, 0);
	assert_line(&M, "method.return pid=4242 tid=4250 ts=81234567890 method=Demo.run()V popped=0 ret=void\n");
}

static void test_event_method_compile(void **state)
{
	(void)state;
	reset(WIRE_EV_METHOD_COMPILE);
	ev.name = S("Demo.add(II)I");
	ev.u32 = 120;
	ev.nvalues = 1;
	ev.values[0] = I(WIRE_T_LONG, 0x7f0012345678);
	assert_line(&M, "method.compile pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I"
			" code_size=120 code_addr=0x7f0012345678\n");
	ev.nvalues = 0;
	assert_line(&M, "method.compile pid=4242 tid=4250 ts=81234567890 method=Demo.add(II)I code_size=120\n");
}

static void test_event_classes(void **state)
{
	(void)state;
	reset(WIRE_EV_CLASS_LOAD);
	ev.name = S("Ljava/lang/String;");
	assert_line(&M, "class.load pid=4242 tid=4250 ts=81234567890 class=java.lang.String\n");
	reset(WIRE_EV_CLASS_PREPARE);
	ev.name = S("[I");
	assert_line(&M, "class.prepare pid=4242 tid=4250 ts=81234567890 class=int[]\n");
	reset(WIRE_EV_CLASS_UNLOAD);
	ev.name = S("LDemo$Inner;");
	assert_line(&M, "class.unload pid=4242 tid=4250 ts=81234567890 class=Demo$Inner\n");
}

static void test_event_exceptions(void **state)
{
	(void)state;
	reset(WIRE_EV_EXCEPTION_THROWN);
	ev.name = S("Ljava/lang/IllegalStateException;");
	ev.method = S("Demo.fail()V");
	assert_line(&M, "exception.thrown pid=4242 tid=4250 ts=81234567890"
			" exception=java.lang.IllegalStateException method=Demo.fail()V\n");
	ev.code = WIRE_EV_EXCEPTION_CATCH;
	ev.method = S("Demo.main([Ljava/lang/String;)V");
	assert_line(&M, "exception.catch pid=4242 tid=4250 ts=81234567890"
			" exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V\n");
}

static void test_event_threads(void **state)
{
	struct print_meta m = M;

	(void)state;
	m.tid = 4251;
	m.thread_name = "worker-1";
	m.thread_name_len = 8;
	reset(WIRE_EV_THREAD_START);
	assert_line(&m, "thread.start pid=4242 tid=4251 ts=81234567890 thread=\"worker-1\"\n");
	reset(WIRE_EV_THREAD_END);
	m.thread_name = "a \"b\"\n";
	m.thread_name_len = 6;
	assert_line(&m, "thread.end pid=4242 tid=4251 ts=81234567890 thread=\"a \\\"b\\\"\\n\"\n");
	m.thread_name = NULL; /* name unknown: no field */
	assert_line(&m, "thread.end pid=4242 tid=4251 ts=81234567890\n");
}

static void test_event_vm_gc_lost(void **state)
{
	(void)state;
	reset(WIRE_EV_VM_INIT);
	assert_line(&M, "vm.init pid=4242 tid=4250 ts=81234567890\n");
	reset(WIRE_EV_VM_DEATH);
	assert_line(&M, "vm.death pid=4242 tid=4250 ts=81234567890\n");
	reset(WIRE_EV_GC_START);
	assert_line(&M, "gc.start pid=4242 tid=4250 ts=81234567890\n");
	reset(WIRE_EV_GC_FINISH);
	assert_line(&M, "gc.finish pid=4242 tid=4250 ts=81234567890\n");
	reset(WIRE_EV_LOST);
	ev.lost = 18446744073709551615u;
	assert_line(&M, "lost pid=4242 tid=4250 ts=81234567890 lost=18446744073709551615\n");
}

static void test_event_monitors(void **state)
{
	(void)state;
	reset(WIRE_EV_MONITOR_ENTER);
	ev.object = 17;
	assert_line(&M, "monitor.contended_enter pid=4242 tid=4250 ts=81234567890 object=17\n");
	ev.code = WIRE_EV_MONITOR_ENTERED;
	assert_line(&M, "monitor.contended_entered pid=4242 tid=4250 ts=81234567890 object=17\n");
	ev.code = WIRE_EV_MONITOR_WAIT;
	ev.u32 = 500;
	assert_line(&M, "monitor.wait pid=4242 tid=4250 ts=81234567890 object=17 timeout_ms=500\n");
	ev.code = WIRE_EV_MONITOR_WAITED;
	assert_line(&M, "monitor.waited pid=4242 tid=4250 ts=81234567890 object=17 timeout_ms=500\n");
	ev.has_trailer = true;
	assert_line(&M, "monitor.waited pid=4242 tid=4250 ts=81234567890 object=17 timeout_ms=500 timed_out=0\n");
	ev.trailer.flags = WIRE_TF_TIMED_OUT;
	assert_line(&M, "monitor.waited pid=4242 tid=4250 ts=81234567890 object=17 timeout_ms=500 timed_out=1\n");
}

static void test_event_stack(void **state)
{
	(void)state;
	reset(WIRE_EV_METHOD_ENTER);
	ev.name = S("Demo.greet(Ljava/lang/String;)V");
	ev.nvalues = 1;
	ev.values[0] = T("hi", 2, false);
	ev.has_trailer = true;
	ev.trailer.flags = WIRE_TF_STACK;
	ev.trailer.depth = 3;
	ev.trailer.frames[0] = (struct wire_frame){ S("Demo.greet(Ljava/lang/String;)V"), 12, S("Demo.java") };
	ev.trailer.frames[1] = (struct wire_frame){ S("java.lang.Object.wait(J)V"), -2, S("Object.java") };
	ev.trailer.frames[2] = (struct wire_frame){ S("Demo.main([Ljava/lang/String;)V"), -1, S("Demo.java") };
	assert_line(&M, "method.enter pid=4242 tid=4250 ts=81234567890 method=Demo.greet(Ljava/lang/String;)V"
			" args=\"hi\" stack=Demo.greet(Ljava/lang/String;)V:12|java.lang.Object.wait(J)V:-2"
			"|Demo.main([Ljava/lang/String;)V:-1\n");
}

/* The markers' form: java.lang.StackTraceElement.toString()'s, without the
 * module, for every case it has. */
static void test_java_stack(void **state)
{
	struct wire_trailer *t = &ev.trailer;

	(void)state;
	reset(WIRE_EV_METHOD_ENTER);
	t->depth = 5;
	t->frames[0] = (struct wire_frame){ S("Demo.greet(Ljava/lang/String;)V"), 12, S("Demo.java") };
	t->frames[1] = (struct wire_frame){ S("java.lang.Object.wait(J)V"), -2, S("Object.java") };
	t->frames[2] = (struct wire_frame){ S("Demo.main([Ljava/lang/String;)V"), -1, S("Demo.java") };
	t->frames[3] = (struct wire_frame){ S("Gen$$Lambda.run()V"), 7, S("") };
	t->frames[4] = (struct wire_frame){ S("Odd name.x|y()V"), 3, S("a|b.kt") };
	assert_int_equal(print_java_stack(buf, sizeof buf, t, NULL), 146);
	assert_string_equal(buf, "Demo.greet(Demo.java:12)|java.lang.Object.wait(Native Method)"
				 "|Demo.main(Demo.java)|Gen$$Lambda.run(Unknown Source)"
				 "|Odd\\x20name.x\\x7cy(a\\x7cb.kt:3)");
	t->depth = 0;
	assert_int_equal(print_java_stack(buf, sizeof buf, t, NULL), 0);
	assert_string_equal(buf, "");
}

/* Monitor detail (TF_MONITOR): the class on every monitor event, the owner
 * (its host tid from the meta) on a contended enter only. */
static void test_event_monitor_detail(void **state)
{
	const struct print_meta with_owner = { .pid = 4242, .tid = 4250, .ts_ns = 81234567890,
					       .owner_tid = 4251 };

	(void)state;
	reset(WIRE_EV_MONITOR_ENTER);
	ev.object = 17;
	ev.has_trailer = true;
	ev.trailer.flags = WIRE_TF_MONITOR;
	ev.trailer.monitor_class = S("LShop$Stock;");
	ev.trailer.owner_tid = 99; /* the JVM's own tid: the meta's is shown */
	ev.trailer.owner_name = S("pool-1 \"w\"");
	assert_line(&with_owner, "monitor.contended_enter pid=4242 tid=4250 ts=81234567890 object=17"
				 " class=Shop$Stock owner=4251 owner_thread=\"pool-1 \\\"w\\\"\"\n");
	ev.trailer.owner_name = S("");
	assert_line(&M, "monitor.contended_enter pid=4242 tid=4250 ts=81234567890 object=17"
			" class=Shop$Stock owner=0 owner_thread=\"\"\n");
	ev.code = WIRE_EV_MONITOR_ENTERED;
	assert_line(&with_owner, "monitor.contended_entered pid=4242 tid=4250 ts=81234567890 object=17"
				 " class=Shop$Stock\n");
	ev.code = WIRE_EV_MONITOR_WAITED;
	ev.u32 = 5;
	ev.trailer.flags = WIRE_TF_MONITOR | WIRE_TF_TIMED_OUT;
	ev.trailer.monitor_class = S("[I");
	assert_line(&M, "monitor.waited pid=4242 tid=4250 ts=81234567890 object=17 timeout_ms=5"
			" timed_out=1 class=int[]\n");
	/* elsewhere the flag's fields are read but not shown */
	ev.code = WIRE_EV_GC_START;
	assert_line(&M, "gc.start pid=4242 tid=4250 ts=81234567890\n");
}

static uint32_t word_before(const char *text, size_t words_back)
{
	uint32_t w;

	memcpy(&w, text - 4 * words_back, 4);
	return w;
}

/* $arg12's head (doc/markers.md, "Stacks"): the frame count in the word
 * before the text, then each frame's offset going down; 0 frames when the
 * text does not fit, and for an event without a stack. */
static void test_markers_stack_head(void **state)
{
	static char strings[4096];
	const struct marker_meta mm = { .pid = 4242, .tid = 4250, .ts_ns = 81234567890 };
	struct marker_args a;

	(void)state;
	reset(WIRE_EV_METHOD_ENTER);
	ev.name = S("Shop.buy(I)V");
	ev.has_trailer = true;
	ev.trailer.flags = WIRE_TF_STACK;
	ev.trailer.depth = 3;
	ev.trailer.frames[0] = (struct wire_frame){ S("Shop.buy(I)V"), 42, S("Shop.java") };
	ev.trailer.frames[1] = (struct wire_frame){ S("Shop.run()V"), -1, S("") };
	ev.trailer.frames[2] = (struct wire_frame){ S("Shop.main([Ljava/lang/String;)V"), 7, S("Shop.java") };
	markers_fill_args(strings, sizeof strings, &mm, &ev, &a);
	assert_string_equal(a.stack, "Shop.buy(Shop.java:42)|Shop.run(Unknown Source)|Shop.main(Shop.java:7)");
	assert_int_equal((uintptr_t)a.stack % 4, 0);
	assert_int_equal(word_before(a.stack, 1), 3);
	assert_int_equal(word_before(a.stack, 2), 0);
	assert_int_equal(word_before(a.stack, 3), 23);
	assert_int_equal(word_before(a.stack, 4), 48);
	/* no room for the text: no frames, "" */
	markers_fill_args(strings, 100, &mm, &ev, &a);
	assert_string_equal(a.stack, "");
	assert_int_equal(word_before(a.stack, 1), 0);
	/* no stack */
	ev.trailer.flags = 0;
	memset(strings, 0x55, sizeof strings);
	markers_fill_args(strings, sizeof strings, &mm, &ev, &a);
	assert_string_equal(a.stack, "");
	assert_int_equal(word_before(a.stack, 1), 0);
}

/* The markers' arguments of a monitor event with detail and a stack: the
 * class in $arg5, the owner's name in $arg6 and tid in $arg10 (contended
 * enter only), the stack in Java's form in $arg12. */
static void test_markers_monitor_detail(void **state)
{
	static char strings[4096];
	const struct marker_meta mm = { .pid = 4242, .tid = 4250, .ts_ns = 81234567890, .owner_tid = 4251 };
	struct marker_args a;

	(void)state;
	reset(WIRE_EV_MONITOR_ENTER);
	ev.object = 17;
	ev.has_trailer = true;
	ev.trailer.flags = WIRE_TF_MONITOR | WIRE_TF_STACK;
	ev.trailer.monitor_class = S("Ljava/lang/Object;");
	ev.trailer.owner_name = S("holder");
	ev.trailer.depth = 1;
	ev.trailer.frames[0] = (struct wire_frame){ S("Shop.buy(I)V"), 42, S("Shop.java") };
	markers_fill_args(strings, sizeof strings, &mm, &ev, &a);
	assert_int_equal(a.event, WIRE_EV_MONITOR_ENTER | (WIRE_TF_MONITOR | WIRE_TF_STACK) << 8);
	assert_string_equal(a.name, "java.lang.Object");
	assert_string_equal(a.method, "holder");
	assert_int_equal(a.num1, 17);
	assert_int_equal(a.num2, 4251);
	assert_string_equal(a.stack, "Shop.buy(Shop.java:42)");
	assert_string_equal(a.thread_name, "");
	ev.code = WIRE_EV_MONITOR_ENTERED;
	markers_fill_args(strings, sizeof strings, &mm, &ev, &a);
	assert_string_equal(a.name, "java.lang.Object");
	assert_string_equal(a.method, "");
	assert_int_equal(a.num2, 0);
	/* without the flag: nothing of the detail, as before */
	ev.code = WIRE_EV_MONITOR_ENTER;
	ev.trailer.flags = 0;
	markers_fill_args(strings, sizeof strings, &mm, &ev, &a);
	assert_string_equal(a.name, "");
	assert_string_equal(a.method, "");
	assert_int_equal(a.num2, 0);
}

/* The jfr marker's arguments from a JfrEvent (what the agent fires, and
 * the bridge from its parse): the field block and the stack after their
 * heads, the session in $arg1, $arg7 the start as a number, the slots in
 * $arg10; a block that does not fit says 0 and is "". */
static void test_markers_jfr(void **state)
{
	static char strings[4096];
	const struct wire_jfr_event e = {
		.slots = 0x5, .tid = 4321, .start_ns = 1764150000123456789, .duration_ns = 2500000,
		.type = S("jdk.GarbageCollection"), .thread_name = S("VM Thread"),
		.nfields = 2, .fields = SN("name\0G1Old\0sumOfPauses\0002500000\0", 32),
		.depth = 2, .stack = SN("java.lang.System.gc:1\0Demo.main:7\0", 34),
	};
	struct marker_args a;

	(void)state;
	markers_fill_jfr(strings, sizeof strings, 4242, 77, &e, &a);
	assert_int_equal(a.event, WIRE_EV_JFR_DATA | WIRE_TF_STACK << 8 | 77 << 16);
	assert_int_equal(a.pid, 4242);
	assert_int_equal(a.tid, 4321);
	assert_string_equal(a.name, "jdk.GarbageCollection");
	assert_int_equal((uintptr_t)a.method % 4, 0);
	assert_int_equal(word_before(a.method, 1), 2);
	assert_int_equal(word_before(a.method, 2), 0);
	assert_int_equal(word_before(a.method, 3), 11);
	assert_string_equal(a.method, "name");
	assert_string_equal(a.method + 5, "G1Old");
	assert_string_equal(a.method + 11, "sumOfPauses");
	assert_string_equal(a.method + 23, "2500000");
	assert_int_equal((int64_t)(uintptr_t)a.args, 1764150000123456789);
	assert_string_equal(a.ret, "");
	assert_int_equal(a.num1, 2500000);
	assert_int_equal(a.num2, 0x5);
	assert_string_equal(a.thread_name, "VM Thread");
	assert_string_equal(a.stack, "java.lang.System.gc:1|Demo.main:7");
	assert_int_equal((uintptr_t)a.stack % 4, 0);
	assert_int_equal(word_before(a.stack, 1), 2);
	assert_int_equal(word_before(a.stack, 2), 0);
	assert_int_equal(word_before(a.stack, 3), 22);
	/* room for the type and the field heads only: blocks say 0 */
	markers_fill_jfr(strings, 40, 4242, 0, &e, &a);
	assert_string_equal(a.name, "jdk.GarbageCollection");
	assert_string_equal(a.method, "");
	assert_int_equal(word_before(a.method, 1), 0);
	assert_string_equal(a.stack, "");
	assert_int_equal(a.event, WIRE_EV_JFR_DATA | WIRE_TF_STACK << 8);
}

static void test_event_hostile_names(void **state)
{
	(void)state;
	reset(WIRE_EV_METHOD_ENTER);
	ev.name = SN("a b\nc\\d\xff", 8);
	assert_line(&M, "method.enter pid=4242 tid=4250 ts=81234567890 method=a\\x20b\\x0ac\\x5cd\\xff args=\n");
}

static void test_events_without_line(void **state)
{
	(void)state;
	reset(WIRE_EV_HELLO);
	assert_int_equal(print_event_line(buf, sizeof buf, &M, &ev), 0);
	reset(WIRE_EV_THREAD_NAME);
	assert_int_equal(print_event_line(buf, sizeof buf, &M, &ev), 0);
	assert_null(print_event_label(WIRE_EV_HELLO));
	assert_string_equal(print_event_label(WIRE_EV_MONITOR_ENTERED), "monitor.contended_entered");
}

static void test_buffer_bounds(void **state)
{
	const char *want = "class.load pid=4242 tid=4250 ts=81234567890 class=java.lang.String\n";
	size_t len = strlen(want);

	(void)state;
	reset(WIRE_EV_CLASS_LOAD);
	ev.name = S("Ljava/lang/String;");
	for (size_t cap = 0; cap <= len; cap++)
		assert_int_equal(print_event_line(buf, cap, &M, &ev), -ENOSPC);
	assert_int_equal(print_event_line(buf, len + 1, &M, &ev), (ssize_t)len);
	assert_string_equal(buf, want);
}

/* The worst case the decoder admits fits in PRINT_LINE_MAX: 255 strings of
 * control bytes (4x when escaped) filling a whole message. */
static void test_worst_case_fits(void **state)
{
	size_t each = (WIRE_MAX_MESSAGE - 64) / WIRE_MAX_VALUES - 6;
	char *payload = malloc(each), *line = malloc(PRINT_LINE_MAX);
	ssize_t n;

	(void)state;
	assert_non_null(payload);
	assert_non_null(line);
	memset(payload, 1, each);
	reset(WIRE_EV_METHOD_ENTER);
	ev.name = S("Demo.x()V");
	ev.nvalues = WIRE_MAX_VALUES;
	for (unsigned i = 0; i < WIRE_MAX_VALUES; i++)
		ev.values[i] = T(payload, each, true);
	n = print_event_line(line, PRINT_LINE_MAX, &M, &ev);
	assert_true(n > (ssize_t)(4 * each * WIRE_MAX_VALUES));
	free(payload);
	free(line);
}

/* ---- the escaping copies runs of plain bytes eight at a time: compare it,
 * at every alignment, with the byte-by-byte rules of doc/agent-bridge.md */

static size_t ref_utf8(const uint8_t *p, size_t n)
{
	uint8_t c = p[0], lo = 0x80, hi = 0xBF;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

/* MODE 'n' a name, 't' free text, 'q' a quoted string value. */
static void ref_escape(char mode, const uint8_t *p, size_t n, char *out)
{
	size_t o = 0;

	if (mode == 'q')
		out[o++] = '"';
	for (size_t i = 0; i < n;) {
		size_t len = ref_utf8(p + i, n - i);
		uint8_t c = p[i];

		if (mode == 'q' && (c == '"' || c == '\\'))
			o += (size_t)sprintf(out + o, "\\%c", c);
		else if (mode == 'q' && (c == '\n' || c == '\t' || c == '\r'))
			o += (size_t)sprintf(out + o, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else if (len == 0 || c < 0x20 || c == 0x7F || c == '\\' || (mode == 'n' && c == ' '))
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		else {
			memcpy(out + o, p + i, len);
			o += len;
			i += len;
			continue;
		}
		i++;
	}
	if (mode == 'q')
		out[o++] = '"';
	out[o] = '\0';
}

static void check_escape(const uint8_t *p, size_t n)
{
	static char want[4 * 256 + 8];
	struct wire_str str = SN((const char *)p, n);
	struct wire_value v = { .type = WIRE_T_STRING, .str = str };

	ref_escape('n', p, n, want);
	assert_int_equal(print_name(buf, sizeof buf, &str), (ssize_t)strlen(want));
	assert_string_equal(buf, want);
	ref_escape('t', p, n, want);
	assert_int_equal(print_text(buf, sizeof buf, (const char *)p, n), (ssize_t)strlen(want));
	assert_string_equal(buf, want);
	ref_escape('q', p, n, want);
	assert_int_equal(print_value(buf, sizeof buf, &v), (ssize_t)strlen(want));
	assert_string_equal(buf, want);
}

static void test_escaping_every_alignment(void **state)
{
	static const uint8_t specials[] = { 0x00, 0x1F, ' ', '!', '"', '\\', '~', 0x7F, 0x80,
					    0xC3, 0xE2, 0xFF };
	static const char utf8[] = "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
	uint8_t name[64];
	uint64_t rng = 88172645463325252ull;

	(void)state;
	/* one special byte (or a UTF-8 sequence) at each offset of a plain name */
	for (size_t len = 0; len <= 40; len++)
		for (size_t at = 0; at <= len; at++) {
			memset(name, 'a', sizeof name);
			for (size_t k = 0; k < sizeof specials; k++) {
				if (at < len) {
					name[at] = specials[k];
					check_escape(name, len);
				}
			}
			if (at + sizeof utf8 - 1 <= sizeof name) {
				memcpy(name + at, utf8, sizeof utf8 - 1);
				check_escape(name, at + sizeof utf8 - 1 > len ? at + sizeof utf8 - 1 : len);
			}
		}
	/* random bytes, mostly plain, of every length up to 64 */
	for (int round = 0; round < 20000; round++) {
		size_t len = (size_t)(rng % 65);

		for (size_t i = 0; i < len; i++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			name[i] = (rng % 8) ? (uint8_t)(0x21 + rng % 94) : (uint8_t)(rng >> 8);
		}
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		check_escape(name, len);
	}
}

/* Numbers are written without printf: every digit count. */
static void test_numbers_every_width(void **state)
{
	char want[128];
	uint64_t v = 0;

	(void)state;
	for (int digits = 1; digits <= 20; digits++) {
		uint64_t tries[] = { v, v + 1, v * 10 + 9 };

		for (size_t i = 0; i < 3; i++) {
			if (digits == 20 && i == 2)
				tries[i] = UINT64_MAX;
			reset(WIRE_EV_LOST);
			ev.lost = tries[i];
			snprintf(want, sizeof want, "lost pid=4242 tid=%llu ts=%llu lost=%llu\n",
				 (unsigned long long)tries[i] / 7, (unsigned long long)tries[i],
				 (unsigned long long)tries[i]);
			struct print_meta m = { .pid = 4242, .tid = tries[i] / 7, .ts_ns = tries[i] };

			assert_int_equal(print_event_line(buf, sizeof buf, &m, &ev), (ssize_t)strlen(want));
			assert_string_equal(buf, want);
			snprintf(want, sizeof want, "%lld", (long long)(int64_t)tries[i]);
			assert_value(I(WIRE_T_LONG, (int64_t)tries[i]), want);
			snprintf(want, sizeof want, "%lld", -(long long)(tries[i] >> 1));
			assert_value(I(WIRE_T_LONG, -(int64_t)(tries[i] >> 1)), want);
		}
		v = v * 10 + 9;
	}
}

/* out_u64 divides in 64 bits above 2^32 and in 32 below, and writes the
 * digits in place: the values either side of the switch, and many values
 * of every bit width, against printf. */
static void test_numbers_random(void **state)
{
	uint64_t x = 0x9E3779B97F4A7C15ull, edges[] = { UINT32_MAX - 1, UINT32_MAX,
							(uint64_t)UINT32_MAX + 1, 4294967396ull,
							99999999999ull, 100000000000ull };
	char want[32];

	(void)state;
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
		snprintf(want, sizeof want, "%lld", (long long)edges[i]);
		assert_value(I(WIRE_T_LONG, (int64_t)edges[i]), want);
	}
	for (int i = 0; i < 200000; i++) {
		int64_t v;

		x ^= x >> 12; /* xorshift64 */
		x ^= x << 25;
		x ^= x >> 27;
		v = (int64_t)(x >> (x % 64)); /* every width */
		if (i & 1)
			v = -v;
		snprintf(want, sizeof want, "%lld", (long long)v);
		assert_value(I(WIRE_T_LONG, v), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_integers),
		cmocka_unit_test(test_values_chars),
		cmocka_unit_test(test_values_floats),
		cmocka_unit_test(test_values_no_payload),
		cmocka_unit_test(test_values_strings),
		cmocka_unit_test(test_values_objects_arrays),
		cmocka_unit_test(test_event_method_enter),
		cmocka_unit_test(test_event_method_return),
		cmocka_unit_test(test_event_method_compile),
		cmocka_unit_test(test_event_classes),
		cmocka_unit_test(test_event_exceptions),
		cmocka_unit_test(test_event_threads),
		cmocka_unit_test(test_event_vm_gc_lost),
		cmocka_unit_test(test_event_monitors),
		cmocka_unit_test(test_event_stack),
		cmocka_unit_test(test_java_stack),
		cmocka_unit_test(test_event_monitor_detail),
		cmocka_unit_test(test_markers_monitor_detail),
		cmocka_unit_test(test_markers_stack_head),
		cmocka_unit_test(test_markers_jfr),
		cmocka_unit_test(test_event_hostile_names),
		cmocka_unit_test(test_events_without_line),
		cmocka_unit_test(test_buffer_bounds),
		cmocka_unit_test(test_worst_case_fits),
		cmocka_unit_test(test_escaping_every_alignment),
		cmocka_unit_test(test_numbers_every_width),
		cmocka_unit_test(test_numbers_random),
	};

	return cmocka_run_group_tests_name("print", tests, NULL, NULL);
}
