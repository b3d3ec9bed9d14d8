/* Unit tests for the table of the variables the Java probe points' aliases
 * set (translator-patches/sj_emit.c): the slots' and the tapset's family
 * aliases, written from it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "events.h"
#include "sj_buf.h"
#include "sj_emit.h"

/* LABEL's variables as stap -L lists them: " NAME:TYPE" each. */
static const char *vars_text(const char *label)
{
	static char text[1024];
	const struct sj_alias_var *vars[SJ_MAX_ALIAS_VARS];
	size_t n = sj_alias_vars(label, vars, SJ_MAX_ALIAS_VARS), len = 0;

	assert_true(n <= SJ_MAX_ALIAS_VARS);
	text[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, " %s:%s", vars[i]->name, vars[i]->type);
	return text;
}

#define EVERY " java_event_name:string java_event:long"
#define COMMON " java_pid:long java_tid:long java_timestamp:long"
#define STACK " java_thread_name:string java_stack:string java_stack_depth:long"
#define PATTERN_ONLY " java_flags:long java_sync:long"
#define PATTERN_STRINGS " java_name:string java_method:string java_args:string java_return:string"
#define SLOT EVERY PATTERN_ONLY COMMON PATTERN_STRINGS STACK
#define FAMILY EVERY COMMON STACK

static void test_each_alias_sets_its_own(void **state)
{
	(void)state;
	assert_string_equal(vars_text("method.enter"), SLOT " method_name:string");
	assert_string_equal(vars_text("method.return"), SLOT " method_name:string java_popped:long");
	assert_string_equal(vars_text("method.compile"),
			    SLOT " method_name:string java_code_size:long java_code_addr:long");
	assert_string_equal(vars_text("class.unload"), SLOT " class_name:string");
	assert_string_equal(vars_text("exception.catch"), SLOT " exception_name:string");
	assert_string_equal(vars_text("gc.start"), FAMILY);
	assert_string_equal(vars_text("thread.end"), FAMILY);
	assert_string_equal(vars_text("monitor.contended_enter"),
			    FAMILY " java_object:long java_monitor_class:string java_monitor_owner_tid:long"
				   " java_monitor_owner_name:string");
	/* a label is whole: monitor.contended_enter's are not monitor.contended_entered's */
	assert_string_equal(vars_text("monitor.contended_entered"),
			    FAMILY " java_object:long java_monitor_class:string");
	assert_string_equal(vars_text("monitor.wait"),
			    FAMILY " java_object:long java_monitor_class:string java_timeout_ms:long");
	assert_string_equal(vars_text("monitor.waited"),
			    FAMILY " java_object:long java_monitor_class:string java_timeout_ms:long"
				   " java_timed_out:long");
	assert_string_equal(vars_text("lost"), FAMILY " java_lost:long");
}

static void test_no_variables_without_an_event(void **state)
{
	const struct sj_alias_var *vars[1];

	(void)state;
	assert_int_equal(sj_alias_vars("monitor", vars, 1), 0);
	assert_int_equal(sj_alias_vars("method.", vars, 1), 0);
	assert_int_equal(sj_alias_vars("monitor.waite", vars, 1), 0);
	assert_int_equal(sj_alias_vars("", vars, 1), 0);
	/* bookkeeping has no label, so no alias */
	assert_int_equal(sj_alias_vars("Hello", vars, 1), 0);
}

/* Every event with a label has an alias whose variables are each set once;
 * the slot's lookup is the label's. */
static void test_every_event(void **state)
{
	(void)state;
	for (unsigned code = 0; code < 0x100; code++) {
		const struct event_desc *d = events_get(code);
		const struct sj_alias_var *vars[SJ_MAX_ALIAS_VARS];

		if (!d || !d->label)
			continue;
		size_t n = sj_alias_vars(d->label, vars, SJ_MAX_ALIAS_VARS);
		assert_true(n >= 8 && n <= SJ_MAX_ALIAS_VARS);
		assert_string_equal(vars[0]->name, "java_event_name");
		assert_null(vars[0]->expr);
		for (size_t i = 1; i < n; i++) {
			assert_non_null(vars[i]->expr);
			for (size_t k = 0; k < i; k++)
				assert_string_not_equal(vars[i]->name, vars[k]->name);
		}
	}
	const struct sj_alias_var *a[SJ_MAX_ALIAS_VARS], *b[SJ_MAX_ALIAS_VARS];
	size_t n = sj_slot_vars(SJ_KIND_METHOD, "return", a, SJ_MAX_ALIAS_VARS);
	assert_int_equal(sj_alias_vars("method.return", b, SJ_MAX_ALIAS_VARS), n);
	assert_memory_equal(a, b, n * sizeof a[0]);
	/* MAX bounds what is written, not the count */
	assert_int_equal(sj_alias_vars("method.return", a, 2), n);
}

/* The tapset's alias of CODE, in OUT (emptied first). */
static const char *family_alias(struct sj_buf *out, unsigned code)
{
	sj_buf_free(out);
	assert_int_equal(sj_emit_family_alias(events_get(code), out), 0);
	return sj_buf_str(out);
}

#define ALIAS_COMMON                                                  \
	"\tjava_event = $arg1 & 0xff\n"                               \
	"\tjava_pid = $arg2\n"                                        \
	"\tjava_tid = $arg3\n"                                        \
	"\tjava_timestamp = $arg4\n"                                  \
	"\tjava_thread_name = user_string($arg11)\n"                  \
	"\tjava_stack = __stapjava_stack($arg12)\n"                   \
	"\tjava_stack_depth = __stapjava_stack_depth($arg12)\n"

static void test_family_aliases(void **state)
{
	struct sj_buf out = { 0 };

	(void)state;
	assert_string_equal(family_alias(&out, WIRE_EV_MONITOR_WAITED),
			    "probe java.monitor.waited = process(@__stapjava_bridge).mark(\"monitor_waited\"),\n"
			    "\tprocess(@__stapjava_agent).mark(\"monitor_waited\")\n"
			    "{\n"
			    "\tif (($arg1 >> 16) && ($arg1 >> 16) != stp_pid()) next\n"
			    "\tjava_event_name = \"monitor.waited\"\n" ALIAS_COMMON
			    "\tjava_object = $arg9\n"
			    "\tjava_monitor_class = user_string($arg5)\n"
			    "\tjava_timeout_ms = $arg10\n"
			    "\tjava_timed_out = ($arg1 >> 10) & 1\n"
			    "}\n");
	/* the agent does not fire Lost: the bridge's marker only */
	assert_string_equal(family_alias(&out, WIRE_EV_LOST),
			    "probe java.lost = process(@__stapjava_bridge).mark(\"lost\")\n"
			    "{\n"
			    "\tif (($arg1 >> 16) && ($arg1 >> 16) != stp_pid()) next\n"
			    "\tjava_event_name = \"lost\"\n" ALIAS_COMMON
			    "\tjava_lost = $arg9\n"
			    "}\n");
	/* an event with no family marker has no alias of the tapset */
	sj_buf_free(&out);
	assert_int_equal(sj_emit_family_alias(events_get(WIRE_EV_METHOD_ENTER), &out), -EINVAL);
	assert_int_equal(out.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_alias_sets_its_own),
		cmocka_unit_test(test_no_variables_without_an_event),
		cmocka_unit_test(test_every_event),
		cmocka_unit_test(test_family_aliases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
