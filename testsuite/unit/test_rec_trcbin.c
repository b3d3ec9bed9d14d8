/* Unit tests for the TPTP binary recording format (formats/rec_trcbin*.c,
 * seed 001): the header, the system messages and every message we write,
 * byte for byte against the seed's tables (the expected bytes are spelled
 * out here attribute by attribute, not taken from the writer); the known
 * stream of rec_samples.c recorded and read back into the --print lines of
 * the fields the format keeps; a big-endian file; every truncation and
 * each kind of bad input refused with its offset. */
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

/* ------------------------------------------------------------ the seed's tables */
static void header(void)
{
	rx_raw(&x, "0TBF", 4);
	rx_u8(&x, 1);             /* version 1.0 */
	rx_u8(&x, 0);
	rx_u8(&x, 1);             /* 64-bit */
	rx_u8(&x, x.big ? 0 : 1);
	rx_u32(&x, 12);           /* the first message follows */
}

/* A message: its ID and size, then what the caller adds until msg_close. */
static size_t msg_open(uint16_t id)
{
	size_t at = x.n;

	rx_u16(&x, id);
	rx_u32(&x, 0);
	return at;
}

static void msg_close(size_t at)
{
	size_t end = x.n;

	x.n = at + 2;
	rx_u32(&x, (uint32_t)(end - at));
	x.n = end;
}

static void system_messages(uint64_t frequency)
{
	size_t m = msg_open(1);

	rx_cstr(&x, "UTF8");
	msg_close(m);
	m = msg_open(2);
	rx_u64(&x, frequency);
	msg_close(m);
}

static void node(void)
{
	size_t m = msg_open(1001);

	rx_cstr(&x, "stapjava-node");
	rx_cstr(&x, "");          /* hostname */
	rx_cstr(&x, "");          /* IP address */
	rx_u32(&x, 0);            /* time zone */
	rx_u64(&x, REC_SAMPLE_START_NS);
	msg_close(m);
}

static void start_of_file(void)
{
	memset(&x, 0, sizeof x);
	rec_script_reset();
	header();
	system_messages(1000000000);
	node();
}

/* processCreate, agentCreate, traceStart of PID */
static void trace_of(uint32_t pid, uint64_t ts)
{
	char process[32], agent[32], trace[32];
	size_t m;

	snprintf(process, sizeof process, "process-%u", pid);
	snprintf(agent, sizeof agent, "agent-%u", pid);
	snprintf(trace, sizeof trace, "trace-%u", pid);
	m = msg_open(1002);
	rx_cstr(&x, process);
	rx_cstr(&x, "");          /* name */
	rx_u32(&x, pid);
	rx_cstr(&x, "stapjava-node");
	rx_u64(&x, 0);
	rx_cstr(&x, "");          /* executable */
	msg_close(m);
	m = msg_open(1003);
	rx_cstr(&x, agent);
	rx_cstr(&x, process);
	rx_cstr(&x, "stapjava");
	rx_cstr(&x, "Profiler");
	rx_u64(&x, 0);
	rx_cstr(&x, "");          /* parameters */
	rx_cstr(&x, "");          /* version */
	msg_close(m);
	m = msg_open(1005);
	rx_cstr(&x, trace);
	rx_cstr(&x, agent);
	rx_u64(&x, ts);
	rx_cstr(&x, "");          /* collation value */
	msg_close(m);
}

static void trace_end(uint32_t pid, uint64_t ts)
{
	char trace[32];
	size_t m = msg_open(1006);

	snprintf(trace, sizeof trace, "trace-%u", pid);
	rx_cstr(&x, trace);
	rx_u64(&x, ts);
	rx_cstr(&x, "");
	msg_close(m);
}

static void thread_start(uint64_t tid, uint64_t id, uint64_t ts, const char *name, const char *trace)
{
	size_t m = msg_open(1009);

	rx_u64(&x, tid);
	rx_u64(&x, id);
	rx_u64(&x, ts);
	rx_cstr(&x, "");          /* group name */
	rx_cstr(&x, "");          /* parent group name */
	rx_u64(&x, 0);            /* transient object ID */
	rx_u64(&x, 0);            /* object ID */
	rx_cstr(&x, name);
	rx_cstr(&x, "");          /* collation value */
	rx_cstr(&x, trace);
	msg_close(m);
}

/* threadEnd, gcStart, gcFinish (with its three sizes), runtimeInitDone, runtimeShutdown */
static void thread_time(uint16_t id, uint64_t tid, uint64_t thread, uint64_t ts)
{
	size_t m = msg_open(id);

	rx_u64(&x, tid);
	rx_u64(&x, thread);
	rx_u64(&x, ts);
	if (id == 1027) {
		rx_u64(&x, 0);
		rx_u64(&x, 0);
		rx_u64(&x, 0);
	}
	rx_cstr(&x, "");
	rx_cstr(&x, "");
	msg_close(m);
}

static void class_def(uint64_t tid, uint64_t thread, uint64_t ts, uint64_t id, const char *name)
{
	size_t m = msg_open(1011);

	rx_u64(&x, tid);
	rx_u64(&x, thread);
	rx_u64(&x, ts);
	rx_u32(&x, 0);            /* number of interfaces */
	rx_cstr(&x, "");          /* interface names */
	rx_u64(&x, 0);            /* transient class ID */
	rx_u64(&x, id);
	rx_cstr(&x, "");          /* source name */
	rx_cstr(&x, "");          /* class loader */
	rx_cstr(&x, "");          /* super class */
	rx_u64(&x, 0);            /* transient object ID */
	rx_u64(&x, 0);            /* object ID */
	rx_cstr(&x, name);
	rx_cstr(&x, "");          /* access */
	rx_u32(&x, 0);
	rx_u32(&x, 0);
	rx_u32(&x, 0);
	rx_cstr(&x, "");
	rx_cstr(&x, "");
	msg_close(m);
}

static void method_def(const char *name, const char *sig, uint64_t cls, uint64_t id)
{
	size_t m = msg_open(1012);

	rx_cstr(&x, name);
	rx_cstr(&x, sig);
	rx_u32(&x, 0);            /* native, abstract, static, synchronized: a byte each */
	rx_cstr(&x, "");          /* exceptions */
	rx_u64(&x, 0);            /* start line */
	rx_u64(&x, 0);            /* end line */
	rx_cstr(&x, "");          /* signature notation */
	rx_u64(&x, 0);            /* transient class ID */
	rx_u64(&x, cls);
	rx_u64(&x, id);
	rx_cstr(&x, "");
	rx_cstr(&x, "");
	msg_close(m);
}

static void method_entry(uint64_t tid, uint64_t thread, uint64_t ts, uint64_t method, uint32_t ticket,
			 uint64_t cls, uint64_t seq, uint64_t depth)
{
	size_t m = msg_open(1015);

	rx_u64(&x, tid);
	rx_u64(&x, thread);
	rx_u64(&x, ts);
	rx_u64(&x, method);
	rx_u32(&x, ticket);
	rx_u64(&x, 0);            /* transient object ID */
	rx_u64(&x, cls);
	rx_u64(&x, 0);            /* thread CPU time */
	rx_u64(&x, seq);
	rx_u64(&x, depth);
	rx_cstr(&x, "");
	rx_cstr(&x, "");
	msg_close(m);
}

static void method_exit(uint64_t tid, uint64_t thread, uint64_t ts, uint32_t ticket, uint64_t method,
			uint64_t cls)
{
	size_t m = msg_open(1016);

	rx_u64(&x, tid);
	rx_u64(&x, thread);
	rx_u64(&x, ts);
	rx_u32(&x, ticket);
	rx_u64(&x, 0);            /* thread CPU time */
	rx_u64(&x, method);
	rx_u64(&x, 0);            /* transient object ID */
	rx_u64(&x, 0);            /* object ID */
	rx_u64(&x, 0);            /* transient class ID */
	rx_u64(&x, cls);
	rx_cstr(&x, "");          /* sequence counter: a string here */
	rx_cstr(&x, "");
	rx_cstr(&x, "");
	msg_close(m);
}

/* monWait, monWaited (EXTRA: the timeout), monContendedEnter (EXTRA: the
 * owner), monContendedEntered (no EXTRA: HAS_EXTRA false). */
static void monitor(uint16_t id, uint64_t thread, uint64_t ts, uint64_t object, bool has_extra, uint64_t extra,
		    uint32_t depth, const char *const *methods, const int64_t *lines)
{
	size_t m = msg_open(id);

	rx_u64(&x, thread);
	rx_u64(&x, ts);
	rx_u64(&x, object);
	if (has_extra)
		rx_u64(&x, extra);
	rx_u32(&x, depth);
	for (uint32_t i = 0; i < depth; i++)
		rx_cstr(&x, methods[i]);
	for (uint32_t i = 0; i < depth; i++)
		rx_u64(&x, (uint64_t)lines[i]);
	msg_close(m);
}

static void custom(const char *body)
{
	size_t m = msg_open(1041);

	rx_cstr(&x, body);
	msg_close(m);
}

/* The script recorded gives exactly X's bytes. */
static void assert_recorded(void)
{
	rec_assert_recorded(&record_format_trcbin, &x);
}

static struct wire_event *add(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts)
{
	return rec_script_add(code, pid, tid, ts, NULL);
}

/* ------------------------------------------------------------ the writer */
static void test_header_system_messages_and_node(void **state)
{
	(void)state;
	start_of_file();
	assert_int_equal(x.n, 12 + 11 + 14 + 34);
	assert_recorded();
}

static void test_thread_start(void **state)
{
	(void)state;
	start_of_file();
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 2000, "main");
	trace_of(4242, 2000);
	thread_start(100, 1, 2000, "main", "trace-4242");
	trace_end(4242, 2000);
	assert_recorded();
}

static void test_methods_and_their_classes(void **state)
{
	(void)state;
	start_of_file();
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 3000, "com.acme.Shop.price(I)J");
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 4000, "com.acme.Shop.work()V");
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 5000, "com.acme.Shop.work()V");
	rec_script_add_method(WIRE_EV_METHOD_ENTER, 100, 6000, "java.lang.Object.<init>()V");
	/* returns from price() with <init> still on the stack: its exit, with its ticket */
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 7000, "com.acme.Shop.price(I)J");
	/* returns whose enter is not on the stack: nothing */
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 8000, "com.acme.Shop.price(I)J");
	rec_script_add_method(WIRE_EV_METHOD_EXIT, 100, 8500, "com.acme.Other.never()V");
	trace_of(4242, 3000);
	thread_start(100, 1, 0, "", "trace-4242");   /* its start not seen: time 0 */
	class_def(100, 1, 0, 1, "com.acme.Shop");     /* its load not seen: time 0 */
	method_def("price", "(I)J", 1, 1);
	method_entry(100, 1, 3000, 1, 1, 1, 1, 1);
	method_def("work", "()V", 1, 2);
	method_entry(100, 1, 4000, 2, 2, 1, 2, 2);
	method_exit(100, 1, 5000, 2, 2, 1);
	class_def(100, 1, 0, 2, "java.lang.Object");
	method_def("<init>", "()V", 2, 3);
	method_entry(100, 1, 6000, 3, 3, 2, 4, 2);
	method_exit(100, 1, 7000, 1, 1, 1);
	trace_end(4242, 8500);
	assert_recorded();
}

static void test_class_load_gc_vm_losses_thread_end(void **state)
{
	static const unsigned skipped[] = {
		WIRE_EV_EXCEPTION_THROWN, WIRE_EV_EXCEPTION_CATCH, WIRE_EV_CLASS_PREPARE,
		WIRE_EV_CLASS_UNLOAD, WIRE_EV_METHOD_COMPILE,
	};

	(void)state;
	start_of_file();
	add(WIRE_EV_CLASS_LOAD, 4242, 100, 2000)->name = (struct wire_str){ "Lcom/acme/Shop$Cart;", 20 };
	add(WIRE_EV_GC_START, 4242, 7, 3000);
	add(WIRE_EV_GC_FINISH, 4242, 7, 4000);
	add(WIRE_EV_VM_INIT, 4242, 100, 4500);
	add(WIRE_EV_VM_DEATH, 4242, 100, 4600);
	add(WIRE_EV_LOST, 4242, 100, 5000)->lost = 3;
	rec_script_add_loss(6000, 5);
	/* no place in the format: nothing, not even their JVM's trace */
	for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
		add(skipped[i], 9999, 100, 6500)->name = (struct wire_str){ "Lx;", 3 };
	rec_script_add_named(WIRE_EV_THREAD_END, 4343, 200, 7000, "main");
	trace_of(4242, 2000);
	thread_start(100, 1, 0, "", "trace-4242");
	class_def(100, 1, 2000, 1, "com.acme.Shop$Cart");
	thread_start(7, 2, 0, "", "trace-4242");
	thread_time(1023, 7, 2, 3000);
	thread_time(1027, 7, 2, 4000);
	thread_time(1030, 100, 1, 4500);
	thread_time(1031, 100, 1, 4600);
	custom("stapjava lost=3 pid=4242 tid=100 ts=5000");
	custom("stapjava lost=5 pid=0 tid=0 ts=6000");
	trace_of(4343, 7000);
	thread_start(200, 3, 0, "main", "trace-4343");
	thread_time(1010, 200, 3, 7000);
	trace_end(4242, 7000);
	trace_end(4343, 7000);
	assert_recorded();
}

static void test_monitors(void **state)
{
	static const char *const work_run[] = { "com.acme.Shop.work()V", "com.acme.Shop.run()V" };
	static const int64_t lines[] = { 12, 30 };
	static const char *const wait[] = { "java.lang.Object.wait(J)V" };
	static const int64_t native[] = { -2 };
	struct print_meta *m;
	struct wire_event *ev;

	(void)state;
	start_of_file();
	ev = rec_script_add(WIRE_EV_MONITOR_ENTER, 4242, 101, 2000, &m);
	ev->object = 77;
	ev->trailer.flags = WIRE_TF_STACK | WIRE_TF_MONITOR;
	ev->trailer.depth = 2;
	ev->trailer.frames[0] = (struct wire_frame){ { work_run[0], 21 }, 12, { "", 0 } };
	ev->trailer.frames[1] = (struct wire_frame){ { work_run[1], 20 }, 30, { "", 0 } };
	ev->trailer.monitor_class = (struct wire_str){ "Ljava/lang/Object;", 18 };
	ev->trailer.owner_tid = 100;
	ev->trailer.owner_name = (struct wire_str){ "main", 4 };
	m->owner_tid = 100;
	add(WIRE_EV_MONITOR_ENTERED, 4242, 101, 3000)->object = 77;
	ev = add(WIRE_EV_MONITOR_WAIT, 4242, 100, 4000);
	ev->object = 78;
	ev->u32 = 500;
	ev->trailer.flags = WIRE_TF_STACK;
	ev->trailer.depth = 1;
	ev->trailer.frames[0] = (struct wire_frame){ { wait[0], 25 }, -2, { "", 0 } };
	ev = add(WIRE_EV_MONITOR_WAITED, 4242, 100, 5000);
	ev->object = 78;
	ev->u32 = 500;
	ev->trailer.flags = WIRE_TF_TIMED_OUT;
	trace_of(4242, 2000);
	thread_start(101, 1, 0, "", "trace-4242");
	thread_start(100, 2, 0, "main", "trace-4242");   /* the owner, named by the trailer */
	monitor(1034, 1, 2000, 77, true, 2, 2, work_run, lines);
	monitor(1035, 1, 3000, 77, false, 0, 0, NULL, NULL);
	monitor(1032, 2, 4000, 78, true, 500, 1, wait, native);
	monitor(1033, 2, 5000, 78, true, 500, 0, NULL, NULL);
	trace_end(4242, 5000);
	assert_recorded();
}

static void test_threads_and_reused_tids(void **state)
{
	(void)state;
	start_of_file();
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 1000, "a");
	rec_script_add_named(WIRE_EV_THREAD_END, 4242, 100, 2000, "a");
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 100, 3000, "b");   /* tid 100 again: a new thread */
	add(WIRE_EV_GC_START, 4242, 101, 4000);                  /* a thread first seen in an event */
	rec_script_add_named(WIRE_EV_THREAD_START, 4242, 101, 5000, "c");   /* then its start: the same id */
	trace_of(4242, 1000);
	thread_start(100, 1, 1000, "a", "trace-4242");
	thread_time(1010, 100, 1, 2000);
	thread_start(100, 2, 3000, "b", "trace-4242");
	thread_start(101, 3, 0, "", "trace-4242");
	thread_time(1023, 101, 3, 4000);
	thread_start(101, 3, 5000, "c", "trace-4242");
	trace_end(4242, 5000);
	assert_recorded();
}

/* ------------------------------------------------------------ round trip */
static const char trcbin_lines[] =
	"vm.init pid=4242 tid=100 ts=1000001000\n"
	"thread.start pid=4242 tid=100 ts=1000002000 thread=\"main\"\n"
	"class.load pid=4242 tid=100 ts=1000003000 class=com.acme.Shop\n"
	"method.enter pid=4242 tid=100 ts=1000004000 method=com.acme.Shop.main([Ljava/lang/String;)V args=\n"
	"method.enter pid=4242 tid=100 ts=1000005000 method=java.lang.Object.<init>()V args=\n"
	"method.return pid=4242 tid=100 ts=1000006000 method=java.lang.Object.<init>()V popped=0 ret=?\n"
	"method.enter pid=4242 tid=100 ts=1000007000 method=com.acme.Shop.price(ILjava/lang/String;)J args=\n"
	"method.return pid=4242 tid=100 ts=1000008000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=?\n"
	"thread.start pid=4242 tid=101 ts=1000009000 thread=\"worker-1\"\n"
	"method.enter pid=4242 tid=101 ts=1000010000 method=com.acme.Shop.work()V args=\n"
	"monitor.contended_enter pid=4242 tid=101 ts=1000011000 object=77 "
	"stack=com.acme.Shop.work()V:12|com.acme.Shop.run()V:30\n"
	"monitor.contended_entered pid=4242 tid=101 ts=1000012000 object=77 "
	"stack=com.acme.Shop.work()V:12|com.acme.Shop.run()V:30\n"
	"gc.start pid=4242 tid=7 ts=1000013000\n"
	"gc.finish pid=4242 tid=7 ts=1000014000\n"
	"lost pid=0 tid=0 ts=1000014500 lost=5\n"
	"method.return pid=4242 tid=101 ts=1000016000 method=com.acme.Shop.work()V popped=0 ret=?\n"
	"monitor.wait pid=4242 tid=100 ts=1000017000 object=78 timeout_ms=500 stack=java.lang.Object.wait(J)V:-2\n"
	"monitor.waited pid=4242 tid=100 ts=1000018000 object=78 timeout_ms=500\n"
	"lost pid=4242 tid=100 ts=1000019000 lost=3\n"
	"method.return pid=4242 tid=100 ts=1000020000 method=com.acme.Shop.main([Ljava/lang/String;)V "
	"popped=0 ret=?\n"
	"thread.end pid=4242 tid=101 ts=1000021000 thread=\"worker-1\"\n"
	"class.load pid=4242 tid=100 ts=1000023000 class=com.acme.Shop$Cart\n"
	"method.enter pid=4242 tid=102 ts=1000024000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z args=\n"
	"method.return pid=4242 tid=102 ts=1000025000 method=com.acme.Shop$Cart.add(Ljava/lang/Object;)Z "
	"popped=0 ret=?\n"
	"thread.start pid=4343 tid=200 ts=1000026000 thread=\"main\"\n"
	"method.enter pid=4343 tid=200 ts=1000027000 method=com.acme.Shop.price(ILjava/lang/String;)J args=\n"
	"method.return pid=4343 tid=200 ts=1000028000 method=com.acme.Shop.price(ILjava/lang/String;)J "
	"popped=0 ret=?\n"
	"gc.start pid=4242 tid=7 ts=1000029000\n"
	"vm.death pid=4242 tid=100 ts=1000030000\n";

static void test_round_trip(void **state)
{
	(void)state;
	rec_assert_round_trip(&record_format_trcbin, trcbin_lines);
}

/* ------------------------------------------------------------ bad input */
static void assert_refused(size_t offset, const char *text)
{
	rec_assert_refused(&record_format_trcbin, x.b, x.n, offset, text);
}

/* A file cut at a message's end is a whole file (the format has no count):
 * it reads as the lines before the cut. Cut anywhere else, it is refused. */
static void test_every_truncation(void **state)
{
	struct record_error err;
	uint8_t *data;
	size_t len, next = 12;
	char *lines, *all;

	(void)state;
	assert_int_equal(rec_sample_record(&record_format_trcbin, REC_SAMPLE_EVENTS, &data, &len), 0);
	assert_int_equal(rec_sample_read(&record_format_trcbin, data, len, &all, &err), 0);
	for (size_t cut = 0; cut < len; cut++) {
		int rc = rec_sample_read(&record_format_trcbin, data, cut, &lines, &err);

		if (cut == next) {
			if (rc != 0)
				fail_msg("cut at the message boundary %zu: %s", cut, err.text);
			if (strncmp(lines, all, strlen(lines)) != 0)
				fail_msg("cut at %zu: the lines are not the whole file's first ones", cut);
			next += (uint32_t)data[next + 2] | (uint32_t)data[next + 3] << 8 |
				(uint32_t)data[next + 4] << 16 | (uint32_t)data[next + 5] << 24;
		} else if (rc != -EINVAL || err.offset > cut || !err.text[0]) {
			fail_msg("cut at %zu: %d, offset %llu, \"%s\"", cut, rc, (unsigned long long)err.offset, err.text);
		}
		free(lines);
	}
	assert_int_equal(next, len);
	rec_assert_refused(&record_format_trcbin, data, 11, 8, "header (at 0): offset to data runs past the end of the file (11 bytes)");
	rec_assert_refused(&record_format_trcbin, data, 14, 14, "message (at 12): message size runs past the end of the file (14 bytes)");
	rec_assert_refused(&record_format_trcbin, data, 20, 14, "encoding (at 12): size 11 runs past the end of the file (20 bytes)");
	free(all);
	free(data);
}

/* A byte of the first 37 (header, encoding, frequency) set to VALUE
 * (the frequency's eight: all of them), and what the reader says at AT. */
static const struct {
	size_t byte;
	uint8_t value;
	size_t at;
	const char *text;
} bad_headers[] = {
	{ 3, 'G', 0, "header (at 0): the magic is not \"0TBF\"" },
	{ 4, 2, 4, "header (at 0): major version 2, not 1" },
	{ 6, 2, 6, "header (at 0): platform 2 (0: 32-bit, 1: 64-bit)" },
	{ 7, 2, 7, "header (at 0): endianness 2 (0: big, 1: little)" },
	{ 8, 5, 8, "header (at 0): offset to data 5 is not between 12 and the file's end (71)" },
	{ 14, 5, 14, "encoding (at 12): size 5 is less than the message's own 6-byte header" },
	{ 29, 0, 29, "frequency (at 23): the frequency is 0" },
};

static void test_bad_headers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bad_headers / sizeof bad_headers[0]; i++) {
		start_of_file();
		memset(x.b + bad_headers[i].byte, bad_headers[i].value, bad_headers[i].byte == 29 ? 8 : 1);
		assert_refused(bad_headers[i].at, bad_headers[i].text);
	}
}

static void test_bad_messages(void **state)
{
	char text[200];
	size_t at, m;

	(void)state;
	start_of_file();
	at = msg_open(1041);
	rx_raw(&x, "abc", 3);
	msg_close(at);
	snprintf(text, sizeof text, "custom (at %zu): custom body has no NUL before the message's end at %zu", at,
		 x.n);
	assert_refused(at + 6, text);

	start_of_file();
	at = msg_open(1041);
	rx_cstr(&x, "x");
	rx_raw(&x, "abc", 3);
	msg_close(at);
	snprintf(text, sizeof text, "custom (at %zu): 3 bytes follow its last attribute", at);
	assert_refused(at + 8, text);

	start_of_file();
	at = x.n;
	method_entry(1, 5, 1, 1, 1, 1, 0, 1);
	snprintf(text, sizeof text, "methodEntry (at %zu): thread 5 is not defined", at);
	assert_refused(at + 14, text);

	start_of_file();
	thread_start(1, 1, 0, "", "");
	at = x.n;
	method_entry(1, 1, 1, 9, 1, 1, 0, 1);
	snprintf(text, sizeof text, "methodEntry (at %zu): method 9 is not defined", at);
	assert_refused(at + 30, text);

	start_of_file();
	at = x.n;
	method_def("f", "()V", 4, 1);
	snprintf(text, sizeof text, "methodDef (at %zu): class 4 is not defined", at);
	assert_refused(x.n - 2 - 16, text);

	start_of_file();
	at = x.n;
	thread_start(1, 0, 0, "", "");
	snprintf(text, sizeof text, "threadStart (at %zu): thread ID 0", at);
	assert_refused(at + 14, text);

	start_of_file();
	at = x.n;
	thread_start(1, 1, 0, "", "trace-1");
	snprintf(text, sizeof text, "threadStart (at %zu): its trace is not defined", at);
	assert_refused(x.n - 8, text);

	start_of_file();
	m = msg_open(1003);
	rx_cstr(&x, "agent-1");
	at = x.n;
	rx_cstr(&x, "process-1");
	for (int i = 0; i < 2; i++)
		rx_cstr(&x, "");
	rx_u64(&x, 0);
	for (int i = 0; i < 2; i++)
		rx_cstr(&x, "");
	msg_close(m);
	snprintf(text, sizeof text, "agentCreate (at %zu): its process is not defined", m);
	assert_refused(at, text);
}

static void test_bad_monitors(void **state)
{
	static const char *const one[] = { "f" };
	static const int64_t big_line[] = { (int64_t)1 << 40 };
	char text[200];
	size_t at;

	(void)state;
	start_of_file();
	thread_start(1, 1, 0, "", "");
	at = x.n;
	monitor(1032, 1, 1, 1, true, (uint64_t)1 << 32, 0, NULL, NULL);
	snprintf(text, sizeof text, "monWait (at %zu): timeout 4294967296 does not fit 32 bits", at);
	assert_refused(at + 30, text);

	start_of_file();
	thread_start(1, 1, 0, "", "");
	at = x.n;
	monitor(1035, 1, 1, 1, false, 0, 0, NULL, NULL);
	x.b[at + 30] = 0x2c;      /* depth 300 */
	x.b[at + 31] = 0x01;
	snprintf(text, sizeof text, "monContendedEntered (at %zu): stack depth 300 is more than 256", at);
	assert_refused(at + 30, text);

	start_of_file();
	thread_start(1, 1, 0, "", "");
	at = x.n;
	monitor(1035, 1, 1, 1, false, 0, 1, one, big_line);
	snprintf(text, sizeof text, "monContendedEntered (at %zu): line 1099511627776 does not fit 32 bits", at);
	assert_refused(at + 36, text);

	start_of_file();
	at = x.n;
	monitor(1034, 1, 1, 1, true, 0, 0, NULL, NULL);
	snprintf(text, sizeof text, "monContendedEnter (at %zu): thread 1 is not defined", at);
	assert_refused(at + 6, text);
}

/* A big-endian file from elsewhere: a 500 MHz clock, a thread with no
 * trace, a method's class defined by another thread, messages we do not
 * know (agMethodEntry, a system message) passed over. */
static void test_a_big_endian_file(void **state)
{
	struct record_error err;
	char *lines;
	size_t m;

	(void)state;
	memset(&x, 0, sizeof x);
	x.big = true;
	header();
	system_messages(500000000);
	m = msg_open(7);
	rx_raw(&x, "??", 2);
	msg_close(m);
	thread_start(77, 5, 1000, "batch", "");
	class_def(77, 5, 1500, 10, "com.acme.Job");
	method_def("run", "()V", 10, 20);
	m = msg_open(1036);
	rx_u64(&x, 5);
	msg_close(m);
	method_entry(77, 5, 2000, 20, 1, 10, 0, 1);
	method_exit(77, 5, 3000, 1, 20, 10);
	thread_time(1027, 0, 0, 4000);
	thread_time(1010, 77, 5, 5000);
	assert_int_equal(rec_sample_read(&record_format_trcbin, x.b, x.n, &lines, &err), 0);
	assert_string_equal(lines,
		"thread.start pid=0 tid=77 ts=2000 thread=\"batch\"\n"
		"class.load pid=0 tid=77 ts=3000 class=com.acme.Job\n"
		"method.enter pid=0 tid=77 ts=4000 method=com.acme.Job.run()V args=\n"
		"method.return pid=0 tid=77 ts=6000 method=com.acme.Job.run()V popped=0 ret=?\n"
		"gc.finish pid=0 tid=0 ts=8000\n"
		"thread.end pid=0 tid=77 ts=10000 thread=\"batch\"\n");
	free(lines);
}

/* Time 0 means "not known" (a start the writer did not see): a time that
 * was known must not round down to it with a fast clock. */
static void test_a_known_time_never_reads_as_0(void **state)
{
	struct record_error err;
	char *lines;

	(void)state;
	memset(&x, 0, sizeof x);
	header();
	system_messages(4000000000ull);   /* 4 GHz: a tick is a quarter of a ns */
	thread_start(77, 5, 3, "fast", "");
	class_def(77, 5, 2, 10, "A");
	thread_time(1023, 77, 5, 4);
	assert_int_equal(rec_sample_read(&record_format_trcbin, x.b, x.n, &lines, &err), 0);
	assert_string_equal(lines,
		"thread.start pid=0 tid=77 ts=1 thread=\"fast\"\n"
		"class.load pid=0 tid=77 ts=1 class=A\n"
		"gc.start pid=0 tid=77 ts=1\n");
	free(lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_system_messages_and_node),
		cmocka_unit_test(test_thread_start),
		cmocka_unit_test(test_methods_and_their_classes),
		cmocka_unit_test(test_class_load_gc_vm_losses_thread_end),
		cmocka_unit_test(test_monitors),
		cmocka_unit_test(test_threads_and_reused_tids),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_bad_messages),
		cmocka_unit_test(test_bad_monitors),
		cmocka_unit_test(test_a_big_endian_file),
		cmocka_unit_test(test_a_known_time_never_reads_as_0),
	};

	return cmocka_run_group_tests_name("rec_trcbin", tests, NULL, NULL);
}
