/* Unit tests for the JinsightLive recording format (formats/rec_trc*.c,
 * seed 000): the header and every record we write, byte for byte against
 * the seed's layouts (the expected bytes are spelled out here field by
 * field, not taken from the writer); the known stream of rec_samples.c
 * recorded and read back into the --print lines of the fields the format
 * keeps; a big-endian file; every truncation and each kind of bad input
 * refused with its offset. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_assert.h"
#include "rec_samples.h"
#include "record.h"

static struct rec_expect x;

/* ------------------------------------------------------------ the seed's layouts */
enum {
	CLASS_DEFINE = 0x04, THREAD_DEFINE = 0x0a, THREAD_START = 0x0b, THREAD_EXIT = 0x0c,
	METHOD_LEAVE = 0x1f, GC_START = 0x46, GC_STOP = 0x47, USER_EVENT = 0x4e,
	WIDE_METHOD_ENTER = 0x5b, EXTENDED_EXTENSIVE_CLASS_LOAD = 0x6e,
};

/* Figure 1, with our values: version 8, Linux x86 (44), 1000 ticks a
 * microsecond (ns), startTicks the recording's start, both start times the
 * wall clock's second then. */
static void header(uint32_t events, uint32_t max_threads, uint32_t max_classes, uint32_t ticks_per_us)
{
	rx_u8(&x, 'b');
	rx_u32(&x, 8);
	rx_u32(&x, 44);
	rx_u32(&x, events);
	rx_u32(&x, max_threads);
	rx_u32(&x, max_classes);
	rx_u32(&x, ticks_per_us);
	rx_u64(&x, REC_SAMPLE_START_NS);
	rx_u32(&x, 1700000000);
	rx_u32(&x, 1700000000);
	rx_u32(&x, 0);
}

/* Figures 5 and 6: METHODS holds name, signature pairs. */
static void class(uint64_t ticks, uint16_t id, const char *name, const char *const *methods, uint16_t n,
		  uint16_t super)
{
	rx_u8(&x, CLASS_DEFINE);
	rx_u64(&x, ticks);
	rx_u16(&x, id);
	rx_u32(&x, 0);
	rx_u8(&x, EXTENDED_EXTENSIVE_CLASS_LOAD);
	rx_u64(&x, ticks);
	rx_u16(&x, id);
	rx_u16(&x, 0);            /* size */
	rx_str16(&x, name);
	rx_u16(&x, n);
	for (uint16_t i = 0; i < n; i++) {
		rx_str16(&x, methods[2 * i]);
		rx_str16(&x, methods[2 * i + 1]);
		rx_u16(&x, 0);
	}
	rx_u16(&x, 0);            /* fields */
	rx_u16(&x, super);
	rx_u16(&x, 0);            /* interfaces */
}

static void predefined_classes(void)
{
	class(0, 0, "java/lang/Object", NULL, 0, 0xFFFF);
	class(0, 1, "java/lang/Thread", NULL, 0, 0);
}

static void user_event(uint64_t ticks, const char *text)
{
	rx_u8(&x, USER_EVENT);
	rx_u64(&x, ticks);
	rx_str16(&x, text);
}

static void thread_define(uint64_t ticks, uint32_t id, const char *name)
{
	rx_u8(&x, THREAD_DEFINE);
	rx_u64(&x, ticks);
	rx_u32(&x, id);
	rx_u32(&x, 0);            /* objectID */
	rx_u16(&x, 1);            /* java/lang/Thread */
	rx_str16(&x, name);
}

/* THREAD_DEFINE and our note of its OS tid. */
static void thread_defined(uint64_t ticks, uint32_t id, const char *name, uint64_t tid)
{
	char note[64];

	thread_define(ticks, id, name);
	snprintf(note, sizeof note, "stapjava thread=%u tid=%llu", id, (unsigned long long)tid);
	user_event(ticks, note);
}

/* THREAD_START, THREAD_EXIT (figures 15, 16) */
static void thread_record(uint8_t id, uint64_t ticks, uint32_t thread)
{
	rx_u8(&x, id);
	rx_u64(&x, ticks);
	rx_u32(&x, thread);
}

static void enter(uint64_t ticks, uint32_t thread, uint16_t cls, uint16_t method)
{
	rx_u8(&x, WIDE_METHOD_ENTER);
	rx_u64(&x, ticks);
	rx_u32(&x, thread);
	rx_u16(&x, cls);
	rx_u16(&x, method);
	rx_u32(&x, 0xFFFFFFFF);   /* static: no object */
	rx_u16(&x, 0);            /* line */
}

static void leave(uint64_t ticks, uint32_t thread)
{
	rx_u8(&x, METHOD_LEAVE);
	rx_u64(&x, ticks);
	rx_u64(&x, 0);            /* overhead */
	rx_u32(&x, thread);
}

static void gc(uint8_t id, uint64_t ticks)
{
	rx_u8(&x, id);
	rx_u64(&x, ticks);
}

static void expect_start(void)
{
	memset(&x, 0, sizeof x);
	rec_script_reset();
}

/* The script recorded gives exactly X's bytes. */
static void assert_recorded(void)
{
	rec_assert_recorded(&record_format_trc, &x);
}

static struct wire_event *add(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts)
{
	return rec_script_add(code, pid, tid, ts, NULL);
}

/* ------------------------------------------------------------ the writer */
static void test_header_and_the_predefined_classes(void **state)
{
	(void)state;
	expect_start();
	header(4, 0, 2, 1000);
	assert_int_equal(x.n, 45);
	predefined_classes();
	assert_recorded();
}

static void test_thread_start(void **state)
{
	(void)state;
	expect_start();
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 2000, "main");
	header(8, 1, 2, 1000);
	predefined_classes();
	user_event(2000, "stapjava pid=4242");
	thread_defined(2000, 1, "main", 100);
	thread_record(THREAD_START, 2000, 1);
	assert_recorded();
}

static void test_methods_and_their_classes(void **state)
{
	static const char *const price[] = { "price", "(I)J" };
	static const char *const price_work[] = { "price", "(I)J", "work", "()V" };
	static const char *const init[] = { "<init>", "()V" };

	(void)state;
	expect_start();
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 3000, "com.acme.Shop.price(I)J");
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 4000, "com.acme.Shop.work()V");
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 5000, "com.acme.Shop.work()V");
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 6000, "java.lang.Object.<init>()V");
	/* returns from price() with <init> still on the stack: both leave */
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 7000, "com.acme.Shop.price(I)J");
	/* a return whose enter is not on the stack: nothing */
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 8000, "com.acme.Shop.price(I)J");
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 8500, "com.acme.Other.never()V");
	header(19, 1, 3, 1000);
	predefined_classes();
	user_event(3000, "stapjava pid=4242");
	thread_defined(3000, 1, "", 100);
	class(0, 2, "com/acme/Shop", price, 1, 0);
	enter(3000, 1, 2, 0);
	class(0, 2, "com/acme/Shop", price_work, 2, 0);   /* described again, one method more */
	enter(4000, 1, 2, 1);
	leave(5000, 1);
	class(0, 0, "java/lang/Object", init, 1, 0xFFFF);
	enter(6000, 1, 0, 0);
	leave(7000, 1);
	leave(7000, 1);
	assert_recorded();
}

static void test_class_load_gc_losses_thread_end(void **state)
{
	static const unsigned skipped[] = {
		WIRE_EV_VM_INIT, WIRE_EV_VM_DEATH, WIRE_EV_EXCEPTION_THROWN, WIRE_EV_EXCEPTION_CATCH,
		WIRE_EV_CLASS_PREPARE, WIRE_EV_CLASS_UNLOAD, WIRE_EV_METHOD_COMPILE, WIRE_EV_MONITOR_ENTER,
		WIRE_EV_MONITOR_ENTERED, WIRE_EV_MONITOR_WAIT, WIRE_EV_MONITOR_WAITED,
	};

	(void)state;
	expect_start();
	add(WIRE_EV_CLASS_LOAD, 4242, 100, 2000)->name = (struct wire_str){ "Lcom/acme/Shop$Cart;", 20 };
	add(WIRE_EV_GC_START, 4242, 7, 3000);
	add(WIRE_EV_GC_FINISH, 4242, 7, 4000);
	add(WIRE_EV_LOST, 4242, 100, 5000)->lost = 3;
	rec_script_add_loss(6000, 5);
	/* no place in the format: nothing at all, not even the pid they would need */
	for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
		add(skipped[i], 9999, 100, 6500)->name = (struct wire_str){ "Lx;", 3 };
	/* the end of a thread never seen: defined, then ended */
	rec_script_add_named(WIRE_EV_THREAD_END, 4343, 200, 7000, "main");
	header(15, 1, 3, 1000);
	predefined_classes();
	user_event(2000, "stapjava pid=4242");
	class(2000, 2, "com/acme/Shop$Cart", NULL, 0, 0);
	gc(GC_START, 3000);
	gc(GC_STOP, 4000);
	user_event(5000, "stapjava lost=3 pid=4242 tid=100");
	user_event(6000, "stapjava lost=5 pid=0 tid=0");
	user_event(7000, "stapjava pid=4343");
	thread_defined(7000, 1, "main", 200);
	thread_record(THREAD_EXIT, 7000, 1);
	assert_recorded();
}

static void test_threads_and_reused_tids(void **state)
{
	static const char *const f[] = { "f", "()V" };

	(void)state;
	expect_start();
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 1000, "a");
	rec_script_add_named(WIRE_EV_THREAD_END, 4242, 100, 2000, "a");
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 3000, "b");   /* tid 100 again: a new thread */
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 101, 4000, "A.f()V");  /* a thread first seen in a call */
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 101, 5000, "c");   /* then its start: no new id */
	header(18, 3, 3, 1000);
	predefined_classes();
	user_event(1000, "stapjava pid=4242");
	thread_defined(1000, 1, "a", 100);
	thread_record(THREAD_START, 1000, 1);
	thread_record(THREAD_EXIT, 2000, 1);
	thread_defined(3000, 2, "b", 100);
	thread_record(THREAD_START, 3000, 2);
	thread_defined(4000, 3, "", 101);
	class(0, 2, "A", f, 1, 0);
	enter(4000, 3, 2, 0);
	thread_record(THREAD_START, 5000, 3);
	assert_recorded();
}

/* ------------------------------------------------------------ round trip */
static const char trc_lines[] =
	"thread.start pid=4242 tid=100 ts=1000002000 thread=\"main\"\n"
	"class.load pid=4242 tid=0 ts=1000003000 class=com.acme.Shop\n"
	"method.enter pid=4242 tid=100 ts=1000004000 method=com.acme.Shop.main([Ljava/lang/String;)V args=\n"
	"method.enter pid=4242 tid=100 ts=1000005000 method=java.lang.Object.<init>()V args=\n"
	"method.return pid=4242 tid=100 ts=1000006000 method=java.lang.Object.<init>()V popped=0 ret=?\n"
	"method.enter pid=4242 tid=100 ts=1000007000 method=com.acme.Shop.price(ILjava/lang/String;)J args=\n"
	"method.return pid=4242 tid=100 ts=1000008000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=?\n"
	"thread.start pid=4242 tid=101 ts=1000009000 thread=\"worker-1\"\n"
	"method.enter pid=4242 tid=101 ts=1000010000 method=com.acme.Shop.work()V args=\n"
	"gc.start pid=4242 tid=0 ts=1000013000\n"
	"gc.finish pid=4242 tid=0 ts=1000014000\n"
	"lost pid=0 tid=0 ts=1000014500 lost=5\n"
	"method.return pid=4242 tid=101 ts=1000016000 method=com.acme.Shop.work()V popped=0 ret=?\n"
	"lost pid=4242 tid=100 ts=1000019000 lost=3\n"
	"method.return pid=4242 tid=100 ts=1000020000 method=com.acme.Shop.main([Ljava/lang/String;)V "
	"popped=0 ret=?\n"
	"thread.end pid=4242 tid=101 ts=1000021000 thread=\"worker-1\"\n"
	"class.load pid=4242 tid=0 ts=1000023000 class=com.acme.Shop$Cart\n"
	"method.enter pid=4242 tid=102 ts=1000024000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z args=\n"
	"method.return pid=4242 tid=102 ts=1000025000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z "
	"popped=0 ret=?\n"
	"thread.start pid=4343 tid=200 ts=1000026000 thread=\"main\"\n"
	"method.enter pid=4343 tid=200 ts=1000027000 method=com.acme.Shop.price(ILjava/lang/String;)J args=\n"
	"method.return pid=4343 tid=200 ts=1000028000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=?\n"
	"gc.start pid=4242 tid=0 ts=1000029000\n";

static void test_the_sample_stream_prints_as_expected(void **state)
{
	static struct wire_event ev;
	char *all = calloc(1, 65536), line[4096];
	struct print_meta m;

	(void)state;
	for (size_t i = 0; i < REC_SAMPLE_EVENTS; i++) {
		rec_sample_event(i, &m, &ev);
		assert_true(print_event_line(line, sizeof line, &m, &ev) > 0);
		strcat(all, line);
	}
	assert_string_equal(all, rec_sample_lines);
	free(all);
}

static void test_round_trip(void **state)
{
	(void)state;
	rec_assert_round_trip(&record_format_trc, trc_lines);
}

/* ------------------------------------------------------------ bad input */
static void assert_refused(size_t offset, const char *text)
{
	rec_assert_refused(&record_format_trc, x.b, x.n, offset, text);
}

static void test_every_truncation_is_refused(void **state)
{
	struct record_error err;
	uint8_t *data;
	size_t len;
	char *lines;

	(void)state;
	assert_int_equal(rec_sample_record(&record_format_trc, REC_SAMPLE_EVENTS, &data, &len), 0);
	for (size_t cut = 0; cut < len; cut++) {
		if (rec_sample_read(&record_format_trc, data, cut, &lines, &err) != -EINVAL)
			fail_msg("the file cut at %zu was not refused", cut);
		if (err.offset > cut || !err.text[0])
			fail_msg("cut at %zu: offset %llu, \"%s\"", cut, (unsigned long long)err.offset, err.text);
		free(lines);
	}
	/* a file cut at a record's end still has the count of the whole */
	memset(&x, 0, sizeof x);
	rx_raw(&x, data, 45 + 2 * 54);
	assert_refused(9, "header (at 0): numberOfEvents is 50 but the file holds 4 records");
	/* and one cut inside a field */
	x.n = 44;
	assert_refused(41, "header (at 0): overhead runs past the end of the file (44 bytes)");
	free(data);
}

/* A header (count 0: not known) and the two predefined classes. */
static void base(void)
{
	memset(&x, 0, sizeof x);
	header(0, 0, 2, 1000);
	predefined_classes();
}

/* A header field (AT, SIZE bytes) set to VALUE, and what the reader says. */
static const struct {
	size_t at, size;
	uint32_t value;
	const char *text;
} bad_headers[] = {
	{ 0, 1, 'B', "header (at 0): the first byte is not 'b' (a binary trace)" },
	{ 1, 4, 7, "header (at 0): version 7, not 8" },
	{ 5, 4, 45, "header (at 0): unknown platform 45" },
	{ 21, 4, 0, "header (at 0): ticksPerMicrosecond is 0" },
	{ 9, 4, 3, "header (at 0): numberOfEvents is 3 but the file holds 4 records" },
};

static void test_bad_headers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_headers / sizeof bad_headers[0]; i++) {
		base();
		for (size_t k = 0; k < bad_headers[i].size; k++)
			x.b[bad_headers[i].at + k] = (uint8_t)(bad_headers[i].value >> (8 * k));
		assert_refused(bad_headers[i].at, bad_headers[i].text);
	}
}

static void test_bad_records(void **state)
{
	static const char *const f[] = { "f", "()V" };
	char text[200];
	size_t at;

	(void)state;
	base();
	at = x.n;
	rx_u8(&x, 0x99);
	snprintf(text, sizeof text, "record (at %zu): unknown record id 0x99", at);
	assert_refused(at, text);

	base();
	at = x.n;
	enter(1, 1, 0, 0);
	snprintf(text, sizeof text, "WIDE_METHOD_ENTER (at %zu): thread 1 is not defined", at);
	assert_refused(at + 9, text);

	base();
	thread_define(1, 1, "t");
	at = x.n;
	enter(1, 1, 5, 0);
	snprintf(text, sizeof text, "WIDE_METHOD_ENTER (at %zu): class 5 is not defined", at);
	assert_refused(at + 13, text);

	base();
	thread_define(1, 1, "t");
	class(0, 2, "A", f, 1, 0);
	at = x.n;
	enter(1, 1, 2, 1);
	snprintf(text, sizeof text, "WIDE_METHOD_ENTER (at %zu): class 2 has no method 1", at);
	assert_refused(at + 15, text);

	base();
	thread_define(1, 1, "t");
	at = x.n;
	leave(1, 1);
	snprintf(text, sizeof text, "METHOD_LEAVE (at %zu): thread 1 has entered no method", at);
	assert_refused(at + 17, text);

	base();
	at = x.n;
	thread_define(1, 2, "t");
	snprintf(text, sizeof text, "THREAD_DEFINE (at %zu): thread id 2 is not the next one (1)", at);
	assert_refused(at + 9, text);

	base();
	at = x.n;
	thread_record(THREAD_START, 1, 1);
	snprintf(text, sizeof text, "THREAD_START (at %zu): thread 1 is not defined", at);
	assert_refused(at + 9, text);
}

static void test_bad_class_definitions(void **state)
{
	char text[200];
	size_t at;

	(void)state;
	base();
	at = x.n;
	class(0, 5, "A", NULL, 0, 0);
	snprintf(text, sizeof text, "CLASS_DEFINE (at %zu): class id 5 is not the next one (2)", at);
	assert_refused(at + 9, text);

	/* a CLASS_DEFINE, then something else */
	base();
	rx_u8(&x, CLASS_DEFINE);
	rx_u64(&x, 0);
	rx_u16(&x, 2);
	rx_u32(&x, 0);
	at = x.n;
	thread_define(1, 1, "t");
	snprintf(text, sizeof text, "THREAD_DEFINE (at %zu): class 2's CLASS_DEFINE is not followed by its "
		 "EXTENDED_EXTENSIVE_CLASS_LOAD", at);
	assert_refused(at, text);
	/* ... or the file's end */
	x.n = at;
	snprintf(text, sizeof text, "CLASS_DEFINE (at %zu): the file ends before its "
		 "EXTENDED_EXTENSIVE_CLASS_LOAD", at - 15);
	assert_refused(at, text);

	/* a _CLASS_LOAD alone */
	base();
	at = x.n;
	class(0, 2, "A", NULL, 0, 0);
	memmove(x.b + at, x.b + at + 15, x.n - at - 15);
	x.n -= 15;
	snprintf(text, sizeof text, "EXTENDED_EXTENSIVE_CLASS_LOAD (at %zu): no CLASS_DEFINE of class 2 "
		 "right before it", at);
	assert_refused(at + 9, text);

	/* a super class not defined */
	base();
	at = x.n;
	class(0, 2, "A", NULL, 0, 7);
	snprintf(text, sizeof text, "EXTENDED_EXTENSIVE_CLASS_LOAD (at %zu): class 7 is not defined", at + 15);
	assert_refused(x.n - 4, text);

	/* more methods than the bytes left could hold */
	base();
	at = x.n;
	class(0, 2, "A", NULL, 0, 0);
	x.b[at + 15 + 16] = 3;    /* numberOfMethods: 3, in 6 bytes */
	snprintf(text, sizeof text, "EXTENDED_EXTENSIVE_CLASS_LOAD (at %zu): 3 methods cannot fit in the "
		 "6 bytes left", at + 15);
	assert_refused(at + 15 + 16, text);
}

static void test_bad_strings_and_notes(void **state)
{
	char text[200];
	size_t at;

	(void)state;
	base();
	at = x.n;
	thread_define(1, 1, "0123456789");
	x.n -= 7;
	snprintf(text, sizeof text, "THREAD_DEFINE (at %zu): threadName runs past the end of the file (%zu bytes)",
		 at, x.n);
	assert_refused(at + 21, text);

	base();
	at = x.n;
	user_event(1, "stapjava pid");
	snprintf(text, sizeof text, "USER_EVENT (at %zu): a \"stapjava \" message that is no note of ours", at);
	assert_refused(at + 11, text);

	base();
	at = x.n;
	user_event(1, "stapjava thread=9 tid=1");
	snprintf(text, sizeof text, "USER_EVENT (at %zu): a note of thread 9, which is not defined", at);
	assert_refused(at + 11, text);

	base();
	at = x.n;
	user_event(1, "stapjava pid=4294967296");
	snprintf(text, sizeof text, "USER_EVENT (at %zu): pid 4294967296 does not fit 32 bits", at);
	assert_refused(at + 11, text);
}

/* Another platform's file: big-endian after the header, a slower clock,
 * someone else's user event, object and burst records passed over. */
static void test_a_big_endian_file(void **state)
{
	static const char *const run[] = { "run", "()V" };
	struct record_error err;
	char *lines;

	(void)state;
	memset(&x, 0, sizeof x);
	header(0, 0, 0, 500);
	x.b[5] = 33;              /* OS/390 */
	x.big = true;
	predefined_classes();
	class(4000, 2, "com/acme/Job", run, 1, 0);
	rx_u8(&x, 0x65);          /* BEGIN_BURST */
	rx_u64(&x, 4500);
	thread_define(5000, 1, "batch");
	user_event(5000, "stapjava thread=1 tid=77");
	user_event(5500, "someone else's note");
	thread_record(THREAD_START, 6000, 1);
	rx_u8(&x, 0x14);          /* OBJECT_DEFINED */
	rx_u64(&x, 6500);
	rx_u32(&x, 1);
	rx_u16(&x, 2);
	enter(7000, 1, 2, 0);
	leave(8000, 1);
	gc(GC_START, 9000);
	thread_record(THREAD_EXIT, 10000, 1);
	rx_u8(&x, 0x66);          /* END_BURST */
	rx_u64(&x, 10500);
	assert_int_equal(rec_sample_read(&record_format_trc, x.b, x.n, &lines, &err), 0);
	assert_string_equal(lines,
		"class.load pid=0 tid=0 ts=8000 class=com.acme.Job\n"
		"thread.start pid=0 tid=77 ts=12000 thread=\"batch\"\n"
		"method.enter pid=0 tid=77 ts=14000 method=com.acme.Job.run()V args=\n"
		"method.return pid=0 tid=77 ts=16000 method=com.acme.Job.run()V popped=0 ret=?\n"
		"gc.start pid=0 tid=0 ts=18000\n"
		"thread.end pid=0 tid=77 ts=20000 thread=\"batch\"\n");
	free(lines);
}

/* Ticks 0 mean "load not seen": a class loaded at a known time must not
 * round down to them with a fast clock (and so lose its load). */
static void test_a_known_time_never_reads_as_0(void **state)
{
	struct record_error err;
	char *lines;

	(void)state;
	memset(&x, 0, sizeof x);
	header(0, 0, 0, 4000);    /* 4 ticks a ns */
	predefined_classes();
	class(3, 2, "A", NULL, 0, 0);
	gc(GC_START, 4);
	assert_int_equal(rec_sample_read(&record_format_trc, x.b, x.n, &lines, &err), 0);
	assert_string_equal(lines, "class.load pid=0 tid=0 ts=1 class=A\ngc.start pid=0 tid=0 ts=1\n");
	free(lines);
}

static void test_the_table_of_formats(void **state)
{
	(void)state;
	assert_ptr_equal(record_format_by_name("trc"), &record_format_trc);
	assert_ptr_equal(record_format_for_path("/tmp/run.trc"), &record_format_trc);
	assert_ptr_equal(record_format_for_path("run.trcbin"), &record_format_trcbin);
	assert_null(record_format_for_path("run.trc.gz"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_and_the_predefined_classes),
		cmocka_unit_test(test_thread_start),
		cmocka_unit_test(test_methods_and_their_classes),
		cmocka_unit_test(test_class_load_gc_losses_thread_end),
		cmocka_unit_test(test_threads_and_reused_tids),
		cmocka_unit_test(test_the_sample_stream_prints_as_expected),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_truncation_is_refused),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_bad_class_definitions),
		cmocka_unit_test(test_bad_strings_and_notes),
		cmocka_unit_test(test_a_big_endian_file),
		cmocka_unit_test(test_a_known_time_never_reads_as_0),
		cmocka_unit_test(test_the_table_of_formats),
	};

	return cmocka_run_group_tests_name("rec_trc", tests, NULL, NULL);
}
