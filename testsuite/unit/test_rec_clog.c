/* Unit tests for the concurrency log (formats/rec_clog.c, rec_clog_read.c,
 * clog_text.c): the exact text the writer makes of known events (the
 * seed's lines, definitions before use, the meta part), what it leaves
 * out (Thread.join's own waits, inner calls), the reader giving back the
 * --print lines of what a line keeps, and every fault the reader names
 * with its offset. */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "print.h"
#include "record.h"

static struct wire_event ev; /* large: static */
static char text[1 << 16];

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

/* ------------------------------------------------------------ writing */

struct run {
	int fd;
	struct record_out out;
	void *state;
};

static void run_begin(struct run *r, uint64_t max)
{
	struct record_info info = { .start_ns = 1000000000ull, .start_wall_ns = 1700000000123456789ull };

	r->fd = memfd_create("clog", 0);
	assert_true(r->fd >= 0);
	r->out = (struct record_out){ .fd = r->fd, .max = max };
	r->state = calloc(1, record_format_clog.state_size);
	assert_non_null(r->state);
	assert_int_equal(record_format_clog.begin(r->state, &r->out, &info), 0);
}

static int run_event(struct run *r, uint32_t pid, uint64_t tid, uint64_t ts, const struct wire_event *e)
{
	struct print_meta m = { .pid = pid, .tid = tid, .ts_ns = ts };

	if (e->code == WIRE_EV_THREAD_START && e->name.len) {
		m.thread_name = e->name.ptr;
		m.thread_name_len = e->name.len;
	}
	if (e->code == WIRE_EV_MONITOR_ENTER && (e->trailer.flags & WIRE_TF_MONITOR))
		m.owner_tid = e->trailer.owner_tid;
	return record_format_clog.event(r->state, &r->out, &m, e);
}

/* The file's text after END (or without it). */
static const char *run_end(struct run *r, bool end)
{
	if (end)
		assert_int_equal(record_format_clog.end(r->state, &r->out), 0);
	record_out_flush(&r->out);
	record_out_release(&r->out);
	ssize_t n = pread(r->fd, text, sizeof text - 1, 0);
	assert_true(n >= 0);
	text[n] = '\0';
	close(r->fd);
	if (!end)
		record_format_clog.end(r->state, &(struct record_out){ .fd = -1, .error = -EBADF });
	free(r->state);
	return text;
}

static const struct wire_event *E(unsigned code, uint64_t object)
{
	memset(&ev, 0, offsetof(struct wire_event, values));
	ev.code = code;
	ev.object = object;
	ev.retval.type = WIRE_T_NONE;
	ev.has_trailer = true;
	ev.trailer.flags = WIRE_TF_STACK;
	ev.trailer.depth = 0;
	return &ev;
}

static void frame(const char *method, int32_t line, const char *source)
{
	ev.trailer.frames[ev.trailer.depth++] = (struct wire_frame){ S(method), line, S(source) };
}

static const struct wire_event *M(unsigned code, const char *method)
{
	E(code, 0);
	ev.name = S(method);
	frame(method, 100, "Thread.java");
	frame("Work.run()V", 7, "Work.java");
	return &ev;
}

static const char header[] = "#clog,1\n#clock,1.000000000,1700000000.123456789\n";

static void test_every_event_line(void **state)
{
	(void)state;
	struct run r;

	run_begin(&r, 0);
	E(WIRE_EV_THREAD_START, 0);
	ev.name = S("pool,1\\ \n\xff");
	assert_int_equal(run_event(&r, 42, 0x1234, 1500000000ull, &ev), 0);
	E(WIRE_EV_MONITOR_ENTER, 0xBEEF);
	ev.trailer.flags |= WIRE_TF_MONITOR;
	ev.trailer.owner_tid = 0x1233;
	frame("Work.take(I)V", 12, "Work.java");
	frame("Work.run()V", 7, "Work.java");
	assert_int_equal(run_event(&r, 42, 0x1234, 1500000001ull, &ev), 0);
	E(WIRE_EV_MONITOR_ENTERED, 0xBEEF);
	frame("Work.take(I)V", 12, "Work.java");
	frame("Work.run()V", 7, "Work.java");
	assert_int_equal(run_event(&r, 42, 0x1234, 1500000002ull, &ev), 0);
	E(WIRE_EV_MONITOR_WAIT, 0x10);
	frame("java.lang.Object.wait(J)V", -2, "Object.java");
	frame("Work.run()V", 8, "Work.java");
	assert_int_equal(run_event(&r, 42, 0x1234, 1500000003ull, &ev), 0);
	E(WIRE_EV_MONITOR_WAITED, 0x10);
	assert_int_equal(run_event(&r, 42, 0x1234, 1500000004ull, &ev), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 5, M(WIRE_EV_METHOD_ENTER, "java.lang.Object.notify()V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 6, M(WIRE_EV_METHOD_ENTER, "java.lang.Object.notifyAll()V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 7, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.start()V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 8, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.sleep(J)V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 9, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.sleep(J)V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 10, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.join()V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 11, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.join()V")), 0);
	/* no line of its own: another method, a class event, a return of notify */
	assert_int_equal(run_event(&r, 42, 0x1234, 12, M(WIRE_EV_METHOD_ENTER, "Work.run()V")), 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 12, M(WIRE_EV_METHOD_EXIT, "java.lang.Object.notify()V")), 0);
	E(WIRE_EV_CLASS_LOAD, 0);
	ev.name = S("LWork;");
	assert_int_equal(run_event(&r, 42, 0x1234, 12, &ev), 0);
	E(WIRE_EV_LOST, 0);
	ev.lost = 77;
	assert_int_equal(run_event(&r, 42, 0, 13, &ev), 0);
	assert_int_equal(record_format_clog.lost(r.state, &r.out, 14, 5), 0);
	assert_int_equal(record_format_clog.lost(r.state, &r.out, 15, 2), 0);
	E(WIRE_EV_THREAD_END, 0);
	assert_int_equal(run_event(&r, 42, 0x1234, 2000000000ull, &ev), 0);
	assert_string_equal(run_end(&r, true),
		"#clog,1\n#clock,1.000000000,1700000000.123456789\n"
		"#pid,42\n"
		"1.500000000,ThreadStarted,00001234,pool\\x2C1\\x5C \\x0A\\xFF\n"
		"#class,LWork;,Work.java\n"
		"#method,00000001,take,(I)V,LWork;\n"
		"#method,00000002,run,()V,LWork;\n"
		"1.500000001,MonitorContendedEnter,00001234,0000BEEF,00001233,2,00000001,0000000C,00000002,00000007\n"
		"1.500000002,MonitorContendedEntered,00001234,0000BEEF,2,00000001,0000000C,00000002,00000007\n"
		"#class,Ljava/lang/Object;,Object.java\n"
		"#method,00000003,wait,(J)V,Ljava/lang/Object;\n"
		"1.500000003,ObjectWait,00001234,00000010,2,00000003,FFFFFFFE,00000002,00000008\n"
		"1.500000004,ObjectWaited,00001234,00000010,0\n"
		"#method,00000004,notify,()V,Ljava/lang/Object;\n"
		"0.000000005,ObjectNotify,00001234,00000000,2,00000004,00000064,00000002,00000007\n"
		"#method,00000005,notifyAll,()V,Ljava/lang/Object;\n"
		"0.000000006,ObjectNotifyAll,00001234,00000000,2,00000005,00000064,00000002,00000007\n"
		"#class,Ljava/lang/Thread;,Thread.java\n"
		"#method,00000006,start,()V,Ljava/lang/Thread;\n"
		"0.000000007,ThreadStart,00001234,00000000,2,00000006,00000064,00000002,00000007\n"
		"#method,00000007,sleep,(J)V,Ljava/lang/Thread;\n"
		"0.000000008,ThreadSleep,00001234,2,00000007,00000064,00000002,00000007\n"
		"0.000000009,ThreadSlept,00001234,2,00000007,00000064,00000002,00000007\n"
		"#method,00000008,join,()V,Ljava/lang/Thread;\n"
		"0.000000010,ThreadJoin,00001234,00000000,2,00000008,00000064,00000002,00000007\n"
		"0.000000011,ThreadJoined,00001234,00000000,2,00000008,00000064,00000002,00000007\n"
		"#lost,0.000000013,77\n"
		"#dropped,0.000000014,5\n"
		"#dropped,0.000000015,7\n"
		"2.000000000,ThreadEnded,00001234\n"
		"#classes\n"
		"LWork;,Work.java\n"
		"Ljava/lang/Object;,Object.java\n"
		"Ljava/lang/Thread;,Thread.java\n"
		"#methods\n"
		"00000001,take,(I)V,LWork;,1,0000000C,12\n"
		"00000002,run,()V,LWork;,2,00000007,7,00000008,8\n"
		"00000003,wait,(J)V,Ljava/lang/Object;,-1\n"
		"00000004,notify,()V,Ljava/lang/Object;,1,00000064,100\n"
		"00000005,notifyAll,()V,Ljava/lang/Object;,1,00000064,100\n"
		"00000006,start,()V,Ljava/lang/Thread;,1,00000064,100\n"
		"00000007,sleep,(J)V,Ljava/lang/Thread;,1,00000064,100\n"
		"00000008,join,()V,Ljava/lang/Thread;,1,00000064,100\n"
		"#end\n");
}

/* Inside Thread.join (the outer call to its return) the thread's own waits
 * and contention are join's business: not written. Inner calls of join and
 * sleep are not written; a return whose call began before the recording is
 * not either. A thread's end forgets its calls (its tid may come back). */
static void test_join_and_nesting(void **state)
{
	(void)state;
	struct run r;

	run_begin(&r, 0);
	assert_int_equal(run_event(&r, 1, 5, 1, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.sleep(J)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 2, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.join()V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 3, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.join(J)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 4, E(WIRE_EV_MONITOR_WAIT, 9)), 0);
	assert_int_equal(run_event(&r, 1, 6, 4, E(WIRE_EV_MONITOR_WAIT, 9)), 0); /* another thread */
	assert_int_equal(run_event(&r, 1, 5, 5, E(WIRE_EV_MONITOR_WAITED, 9)), 0);
	assert_int_equal(run_event(&r, 1, 5, 6, E(WIRE_EV_MONITOR_ENTER, 9)), 0);
	assert_int_equal(run_event(&r, 1, 5, 7, E(WIRE_EV_MONITOR_ENTERED, 9)), 0);
	assert_int_equal(run_event(&r, 1, 5, 8, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.join(J)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 9, E(WIRE_EV_MONITOR_WAIT, 9)), 0); /* still in join() */
	assert_int_equal(run_event(&r, 1, 5, 10, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.join()V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 11, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.sleep(JI)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 12, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.sleep(J)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 13, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.sleep(J)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 14, M(WIRE_EV_METHOD_EXIT, "java.lang.Thread.sleep(JI)V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 15, M(WIRE_EV_METHOD_ENTER, "java.lang.Thread.join()V")), 0);
	assert_int_equal(run_event(&r, 1, 5, 16, E(WIRE_EV_THREAD_END, 0)), 0);
	assert_int_equal(run_event(&r, 1, 5, 17, E(WIRE_EV_MONITOR_WAIT, 3)), 0);
	assert_string_equal(run_end(&r, false),
		"#clog,1\n#clock,1.000000000,1700000000.123456789\n"
		"#pid,1\n"
		"#class,Ljava/lang/Thread;,Thread.java\n"
		"#method,00000001,join,()V,Ljava/lang/Thread;\n"
		"#class,LWork;,Work.java\n"
		"#method,00000002,run,()V,LWork;\n"
		"0.000000002,ThreadJoin,00000005,00000000,2,00000001,00000064,00000002,00000007\n"
		"0.000000004,ObjectWait,00000006,00000009,0\n"
		"0.000000010,ThreadJoined,00000005,00000000,2,00000001,00000064,00000002,00000007\n"
		"#method,00000003,sleep,(JI)V,Ljava/lang/Thread;\n"
		"0.000000011,ThreadSleep,00000005,2,00000003,00000064,00000002,00000007\n"
		"0.000000014,ThreadSlept,00000005,2,00000003,00000064,00000002,00000007\n"
		"0.000000015,ThreadJoin,00000005,00000000,2,00000001,00000064,00000002,00000007\n"
		"0.000000016,ThreadEnded,00000005\n"
		"0.000000017,ObjectWait,00000005,00000003,0\n");
}

/* Events of several JVMs: a #pid line wherever the JVM changes. Names of
 * every shape: a class in no package, a method with no class, a hidden
 * class (a '.' before its address), a frame without a source file. */
static void test_pids_and_names(void **state)
{
	(void)state;
	struct run r;

	run_begin(&r, 0);
	E(WIRE_EV_MONITOR_WAIT, 1);
	frame("Main.main([Ljava/lang/String;)V", 3, "Main.java");
	assert_int_equal(run_event(&r, 7, 70, 1, &ev), 0);
	E(WIRE_EV_MONITOR_WAIT, 2);
	frame("run()V", -1, "");
	frame("p.Hid$$Lambda.0x1.call()V", 4, "");
	assert_int_equal(run_event(&r, 8, 80, 2, &ev), 0);
	E(WIRE_EV_MONITOR_WAITED, 2);
	assert_int_equal(run_event(&r, 8, 80, 3, &ev), 0);
	E(WIRE_EV_MONITOR_WAITED, 1);
	assert_int_equal(run_event(&r, 7, 70, 4, &ev), 0);
	assert_string_equal(run_end(&r, true),
		"#clog,1\n#clock,1.000000000,1700000000.123456789\n"
		"#pid,7\n"
		"#class,LMain;,Main.java\n"
		"#method,00000001,main,([Ljava/lang/String;)V,LMain;\n"
		"0.000000001,ObjectWait,00000046,00000001,1,00000001,00000003\n"
		"#pid,8\n"
		"#method,00000002,run,()V,\n"
		"#class,Lp/Hid$$Lambda/0x1;,\n"
		"#method,00000003,call,()V,Lp/Hid$$Lambda/0x1;\n"
		"0.000000002,ObjectWait,00000050,00000002,2,00000002,FFFFFFFF,00000003,00000004\n"
		"0.000000003,ObjectWaited,00000050,00000002,0\n"
		"#pid,7\n"
		"0.000000004,ObjectWaited,00000046,00000001,0\n"
		"#classes\n"
		"LMain;,Main.java\n"
		"Lp/Hid$$Lambda/0x1;,\n"
		"#methods\n"
		"00000001,main,([Ljava/lang/String;)V,LMain;,1,00000003,3\n"
		"00000002,run,()V,,-1\n"
		"00000003,call,()V,Lp/Hid$$Lambda/0x1;,1,00000004,4\n"
		"#end\n");
}

/* --record-max: a line that would pass the cap is not written, what came
 * before is, so the file ends on a whole line. */
static void test_cap_ends_on_a_whole_line(void **state)
{
	(void)state;
	struct run r;
	size_t first = strlen(header) + strlen("#pid,1\n0.000000001,ThreadEnded,00000005\n");

	run_begin(&r, first + 10);
	assert_int_equal(run_event(&r, 1, 5, 1, E(WIRE_EV_THREAD_END, 0)), 0);
	assert_int_equal(run_event(&r, 1, 5, 2, E(WIRE_EV_THREAD_END, 0)), -EFBIG);
	assert_int_equal(r.out.error, -EFBIG);
	assert_string_equal(run_end(&r, false),
		"#clog,1\n#clock,1.000000000,1700000000.123456789\n#pid,1\n0.000000001,ThreadEnded,00000005\n");
}

/* ------------------------------------------------------------ reading */

static char lines[1 << 16];
static size_t nlines_len;

static int collect(void *ctx, const struct print_meta *meta, const struct wire_event *e)
{
	(void)ctx;
	ssize_t n = print_event_line(lines + nlines_len, sizeof lines - nlines_len, meta, e);
	assert_true(n >= 0);
	nlines_len += (size_t)n;
	return 0;
}

static int read_text(const char *file, struct record_error *err)
{
	nlines_len = 0;
	lines[0] = '\0';
	memset(err, 0, sizeof *err);
	int rc = record_format_clog.read((const uint8_t *)file, strlen(file), collect, NULL, err);
	lines[nlines_len] = '\0';
	return rc;
}

/* What the writer made of test_every_event_line's events comes back as the
 * --print lines of what each line keeps. */
static void test_read_back(void **state)
{
	struct record_error err;
	char *file;

	test_every_event_line(state);
	file = strdup(text);
	assert_int_equal(read_text(file, &err), 0);
	assert_string_equal(lines,
		"thread.start pid=42 tid=4660 ts=1500000000 thread=\"pool,1\\\\ \\n\\xff\"\n"
		"monitor.contended_enter pid=42 tid=4660 ts=1500000001 object=48879 class= owner=4659 owner_thread=\"\" stack=Work.take(I)V:12|Work.run()V:7\n"
		"monitor.contended_entered pid=42 tid=4660 ts=1500000002 object=48879 stack=Work.take(I)V:12|Work.run()V:7\n"
		"monitor.wait pid=42 tid=4660 ts=1500000003 object=16 timeout_ms=0 stack=java.lang.Object.wait(J)V:-2|Work.run()V:8\n"
		"monitor.waited pid=42 tid=4660 ts=1500000004 object=16 timeout_ms=0 timed_out=0 stack=\n"
		"method.enter pid=42 tid=4660 ts=5 method=java.lang.Object.notify()V args= stack=java.lang.Object.notify()V:100|Work.run()V:7\n"
		"method.enter pid=42 tid=4660 ts=6 method=java.lang.Object.notifyAll()V args= stack=java.lang.Object.notifyAll()V:100|Work.run()V:7\n"
		"method.enter pid=42 tid=4660 ts=7 method=java.lang.Thread.start()V args= stack=java.lang.Thread.start()V:100|Work.run()V:7\n"
		"method.enter pid=42 tid=4660 ts=8 method=java.lang.Thread.sleep(J)V args= stack=java.lang.Thread.sleep(J)V:100|Work.run()V:7\n"
		"method.return pid=42 tid=4660 ts=9 method=java.lang.Thread.sleep(J)V popped=0 ret=? stack=java.lang.Thread.sleep(J)V:100|Work.run()V:7\n"
		"method.enter pid=42 tid=4660 ts=10 method=java.lang.Thread.join()V args= stack=java.lang.Thread.join()V:100|Work.run()V:7\n"
		"method.return pid=42 tid=4660 ts=11 method=java.lang.Thread.join()V popped=0 ret=? stack=java.lang.Thread.join()V:100|Work.run()V:7\n"
		"lost pid=42 tid=0 ts=13 lost=77\n"
		"lost pid=0 tid=0 ts=14 lost=5\n"
		"lost pid=0 tid=0 ts=15 lost=7\n"
		"thread.end pid=42 tid=4660 ts=2000000000\n");
	free(file);
}

/* Names come back byte for byte (a hidden class, no class, no source),
 * and a method event whose stack does not start at the method is named by
 * the seed's event. */
static void test_read_names(void **state)
{
	struct record_error err;

	test_pids_and_names(state);
	char *file = strdup(text);
	assert_int_equal(read_text(file, &err), 0);
	assert_string_equal(lines,
		"monitor.wait pid=7 tid=70 ts=1 object=1 timeout_ms=0 stack=Main.main([Ljava/lang/String;)V:3\n"
		"monitor.wait pid=8 tid=80 ts=2 object=2 timeout_ms=0 stack=run()V:-1|p.Hid$$Lambda.0x1.call()V:4\n"
		"monitor.waited pid=8 tid=80 ts=3 object=2 timeout_ms=0 timed_out=0 stack=\n"
		"monitor.waited pid=7 tid=70 ts=4 object=1 timeout_ms=0 timed_out=0 stack=\n");
	free(file);
	assert_int_equal(read_text("#clog,1\n#pid,3\n#class,LA;,A.java\n#method,00000001,f,()V,LA;\n"
				   "0.000000001,ThreadSleep,00000002,1,00000001,00000005\n"
				   "0.000000002,ThreadJoin,00000002,00000000,0\n", &err), 0);
	assert_string_equal(lines,
		"method.enter pid=3 tid=2 ts=1 method=java.lang.Thread.sleep(J)V args= stack=A.f()V:5\n"
		"method.enter pid=3 tid=2 ts=2 method=java.lang.Thread.join()V args= stack=\n");
	/* cut short on a whole line: read up to there, no fault */
	assert_int_equal(read_text("#clog,1\n#pid,3\n0.000000001,ThreadEnded,00000002\n#classes\n", &err), 0);
	assert_string_equal(lines, "thread.end pid=3 tid=2 ts=1\n");
}

struct bad {
	const char *file;
	uint64_t offset;
	const char *text;
};

#define H "#clog,1\n#pid,1\n"   /* 15 bytes */

static const struct bad bads[] = {
	{ "", 0, "not a concurrency log: it does not begin with the line \"#clog,1\"" },
	{ "#clog,2\n", 0, "not a concurrency log: it does not begin with the line \"#clog,1\"" },
	{ "#clog,1\n0.000000001,ThreadEnded,00000001\n", 8, "an event before the first #pid line" },
	{ H "0.000000001,ThreadEnded,00000001", 15, "the last line has no end (a recording cut short)" },
	{ H "\n", 15, "an empty line" },
	{ H "1.5,ThreadEnded,00000001\n", 15, "the timestamp '1.5' is not seconds with nine decimals" },
	{ H "0.000000001,Nap,00000001\n", 27, "unknown event 'Nap'" },
	{ H "0.000000001,ThreadEnded\n", 38, "the thread is missing" },
	{ H "0.000000001,ThreadEnded,0000000g\n", 39, "the thread '0000000g' is not 1 to 16 upper-case hex digits" },
	{ H "0.000000001,ThreadEnded,00000001,2\n", 48, "a field too many" },
	{ H "0.000000001,ObjectWait,00000001,00000002,257\n", 56,
	  "the stack depth '257' is not a number from 0 to 256" },
	{ H "0.000000001,ObjectWait,00000001,00000002,1,00000001,00000000\n", 58,
	  "method 1 is not defined (by a #method line before)" },
	{ H "0.000000001,ObjectWait,00000001,00000002,1\n", 57, "a frame's method is missing" },
	{ H "0.000000001,ThreadStarted,00000001,a\\x4\n", 50, "the thread name has a '\\' that starts no \\xHH" },
	{ H "#method,00000002,f,()V,\n", 23, "method id 2: ids are defined in order from 1, and the next is 1" },
	{ H "#method,00000001,f,()V,LA;\n", 38, "class 'LA;' is not defined (by a #class line before)" },
	{ H "#class,A,\n", 22, "the class signature is not of the form Lname;" },
	{ H "#class,LA;,\n#class,LA;,x\n", 34, "class 'LA;' is defined twice" },
	{ H "#pid,x\n", 20, "the pid 'x' is not a number" },
	{ H "#nap\n", 15, "unknown line '#nap'" },
	{ H "#lost,0.000000001,-1\n", 33, "the count '-1' is not a number" },
	{ H "#classes\n#pid,2\n", 24, "'#pid' after the meta part began" },
	{ H "#classes\nLA;,\n", 24, "class 'LA;' of the meta part was never defined" },
	{ H "#classes\n#methods\n00000001,f,()V,,-1\n", 33, "method 1 of the meta part was never defined" },
	{ H "#class,LA;,\n#method,00000001,f,()V,LA;\n#classes\n#methods\n00000001,f,()V,LA;,1,00000005\n", 101,
	  "a line table's line is missing" },
	{ H "#classes\n#methods\n#end\n0.000000001,ThreadEnded,00000001\n", 38, "a line after #end" },
};

static void test_read_faults(void **state)
{
	(void)state;
	struct record_error err;

	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		if (read_text(bads[i].file, &err) != -EINVAL)
			fail_msg("input %zu was read without a fault", i);
		if (err.offset != bads[i].offset || strcmp(err.text, bads[i].text) != 0)
			fail_msg("input %zu: offset %llu '%s', expected offset %llu '%s'", i,
				 (unsigned long long)err.offset, err.text, (unsigned long long)bads[i].offset,
				 bads[i].text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_event_line),
		cmocka_unit_test(test_join_and_nesting),
		cmocka_unit_test(test_pids_and_names),
		cmocka_unit_test(test_cap_ends_on_a_whole_line),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_read_names),
		cmocka_unit_test(test_read_faults),
	};
	return cmocka_run_group_tests_name("rec_clog", tests, NULL, NULL);
}
