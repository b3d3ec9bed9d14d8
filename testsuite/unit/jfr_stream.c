/* jfr_stream.c: see jfr_stream.h. */
#include "jfr_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PID 4242u
#define PID2 5000u
#define MAIN 4243u
#define WORKER 4244u
#define POOL 4245u
#define VM 4250u
#define COMPILER 4251u
#define OTHER 5001u

#define HANDLE "Shop.handle(ILjava/lang/String;)J"
#define MAIN_M "Shop.main([Ljava/lang/String;)V"
#define WORK "Shop$Worker.work(ZBCSFJ[ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V"
#define RUN "Shop$Worker.run()V"

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

static void event(struct jfr_step *s, unsigned code, uint32_t pid, uint64_t tid, uint64_t dt)
{
	s->kind = JFR_STEP_EVENT;
	s->meta.pid = pid;
	s->meta.tid = tid;
	s->meta.ts_ns = JFR_STREAM_T0 + dt;
	s->ev.code = code;
	s->ev.thread = tid;
	s->ev.has_trailer = true;
	s->ev.trailer.timestamp_ns = s->meta.ts_ns;
	s->ev.trailer.os_tid = (uint32_t)tid;
}

/* N frames: method, line, method, line ... */
static void stack(struct jfr_step *s, unsigned n, ...)
{
	va_list ap;

	s->ev.trailer.flags |= WIRE_TF_STACK;
	s->ev.trailer.depth = (uint16_t)n;
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++) {
		s->ev.trailer.frames[i].method = S(va_arg(ap, const char *));
		s->ev.trailer.frames[i].line = va_arg(ap, int);
		s->ev.trailer.frames[i].source = S("Shop.java");
	}
	va_end(ap);
}

static void monitor(struct jfr_step *s, uint64_t object, const char *class)
{
	s->ev.object = object;
	s->ev.trailer.flags |= WIRE_TF_MONITOR;
	s->ev.trailer.monitor_class = S(class);
	s->ev.trailer.owner_name = S("");
}

static struct wire_value I(uint8_t type, int64_t v)
{
	return (struct wire_value){ .type = type, .v.i = v };
}

static struct wire_value T(uint8_t type, const char *text, uint64_t id, uint32_t aux)
{
	return (struct wire_value){ .type = type, .str = S(text), .object_id = id, .aux = aux };
}

static void enter(struct jfr_step *s, uint32_t pid, uint64_t tid, uint64_t dt, const char *method)
{
	event(s, WIRE_EV_METHOD_ENTER, pid, tid, dt);
	s->ev.name = S(method);
}

static void ret(struct jfr_step *s, uint32_t pid, uint64_t tid, uint64_t dt, const char *method,
		struct wire_value v)
{
	event(s, WIRE_EV_METHOD_EXIT, pid, tid, dt);
	s->ev.name = S(method);
	s->ev.retval = v;
}

static void named(struct jfr_step *s, const char *name)
{
	s->meta.thread_name = name;
	s->meta.thread_name_len = strlen(name);
}

bool jfr_stream_step(size_t i, struct jfr_step *s)
{
	memset(s, 0, sizeof *s);
	switch (i) {
	case 0:   /* bookkeeping: no line, but the thread's name */
		event(s, WIRE_EV_THREAD_NAME, PID, MAIN, 100);
		s->ev.name = S("main");
		return true;
	case 1:
		event(s, WIRE_EV_VM_INIT, PID, MAIN, 500);
		return true;
	case 2:
		event(s, WIRE_EV_THREAD_START, PID, WORKER, 1000);
		named(s, "worker-1");
		stack(s, 1, "java.lang.Thread.run()V", 829);
		return true;
	case 3:
		enter(s, PID, MAIN, 2000, HANDLE);
		s->ev.nvalues = 2;
		s->ev.values[0] = I(WIRE_T_INT, 42);
		s->ev.values[1] = T(WIRE_T_STRING, "hi", 0, 0);
		stack(s, 2, HANDLE, 10, MAIN_M, 5);
		return true;
	case 4:
		enter(s, PID, MAIN, 3000, "Shop.price(D)D");
		s->ev.nvalues = 1;
		s->ev.values[0] = (struct wire_value){ .type = WIRE_T_DOUBLE, .v.d = 2.5 };
		return true;
	case 5:
		event(s, WIRE_EV_EXCEPTION_THROWN, PID, MAIN, 3500);
		s->ev.name = S("Ljava/lang/IllegalStateException;");
		s->ev.method = S("Shop.price(D)D");
		stack(s, 3, "Shop.price(D)D", 20, HANDLE, 11, MAIN_M, 5);
		return true;
	case 6:
		ret(s, PID, MAIN, 4000, "Shop.price(D)D", I(WIRE_T_NONE, 0));
		s->ev.popped = true;
		return true;
	case 7:
		event(s, WIRE_EV_EXCEPTION_CATCH, PID, MAIN, 4500);
		s->ev.name = S("Ljava/lang/IllegalStateException;");
		s->ev.method = S(HANDLE);
		return true;
	case 8:   /* no stack: the writer keeps the method as a lone truncated frame */
		event(s, WIRE_EV_EXCEPTION_THROWN, PID, MAIN, 4600);
		s->ev.name = S("Ljava/lang/Error;");
		s->ev.method = S("Shop.check()V");
		return true;
	case 9:
		ret(s, PID, MAIN, 6000, HANDLE, I(WIRE_T_LONG, 84));
		stack(s, 2, HANDLE, 12, MAIN_M, 5);
		return true;
	case 10:
		event(s, WIRE_EV_GC_START, PID, VM, 7000);
		return true;
	case 11:
		s->kind = JFR_STEP_TICK;
		s->meta.ts_ns = JFR_STREAM_T0 + 7500;
		return true;
	case 12:
		event(s, WIRE_EV_GC_FINISH, PID, VM, 9000);
		return true;
	case 13:
		event(s, WIRE_EV_CLASS_LOAD, PID, WORKER, 10000);
		s->ev.name = S("LShop$Item;");
		stack(s, 1, RUN, 31);
		return true;
	case 14:
		event(s, WIRE_EV_CLASS_PREPARE, PID, WORKER, 10100);
		s->ev.name = S("LShop$Item;");
		return true;
	case 15:
		event(s, WIRE_EV_CLASS_UNLOAD, PID, VM, 10200);
		s->ev.name = S("LOld;");
		return true;
	case 16:
		event(s, WIRE_EV_MONITOR_ENTER, PID, WORKER, 11000);
		monitor(s, 77, "Ljava/lang/Object;");
		s->ev.trailer.owner_tid = MAIN;
		s->ev.trailer.owner_name = S("main");
		s->meta.owner_tid = MAIN;
		stack(s, 1, RUN, 30);
		return true;
	case 17:
		event(s, WIRE_EV_MONITOR_ENTERED, PID, WORKER, 15000);
		monitor(s, 77, "Ljava/lang/Object;");
		return true;
	case 18:
		event(s, WIRE_EV_MONITOR_WAIT, PID, MAIN, 16000);
		monitor(s, 78, "LShop;");
		s->ev.u32 = 10;
		stack(s, 2, "java.lang.Object.wait(J)V", -2, MAIN_M, 7);
		return true;
	case 19:
		event(s, WIRE_EV_THREAD_START, PID, POOL, 20000);
		named(s, "pool-1");
		return true;
	case 20:
		event(s, WIRE_EV_THREAD_END, PID, POOL, 21000);
		named(s, "pool-1-renamed");
		return true;
	case 21:
		event(s, WIRE_EV_MONITOR_WAITED, PID, MAIN, 26000);
		monitor(s, 78, "LShop;");
		s->ev.u32 = 10;
		s->ev.trailer.flags |= WIRE_TF_TIMED_OUT;
		return true;
	case 22:
		enter(s, PID, WORKER, 27000, WORK);
		s->ev.nvalues = 11;
		s->ev.values[0] = I(WIRE_T_BOOLEAN, 1);
		s->ev.values[1] = I(WIRE_T_BYTE, -5);
		s->ev.values[2] = I(WIRE_T_CHAR, 'x');
		s->ev.values[3] = I(WIRE_T_SHORT, -300);
		s->ev.values[4] = (struct wire_value){ .type = WIRE_T_FLOAT, .v.f = 1.5f };
		s->ev.values[5] = I(WIRE_T_LONG, -9000000000);
		s->ev.values[6] = T(WIRE_T_ARRAY, "[I", 5, 3);
		s->ev.values[7] = T(WIRE_T_OBJECT, "Ljava/lang/Object;", 6, 0xbeef);
		s->ev.values[8] = I(WIRE_T_NULL, 0);
		s->ev.values[9] = I(WIRE_T_NONE, 0);
		s->ev.values[10] = T(WIRE_T_STRING, "h\xc3\xa9llo", 0, 0);
		s->ev.values[10].truncated = true;
		stack(s, 2, WORK, 40, RUN, 32);
		return true;
	case 23:
		ret(s, PID, WORKER, 28000, WORK, I(WIRE_T_VOID, 0));
		return true;
	case 24:
		event(s, WIRE_EV_LOST, PID, MAIN, 29000);
		s->ev.lost = 3;
		return true;
	case 25:
		s->kind = JFR_STEP_LOST;
		s->meta.ts_ns = JFR_STREAM_T0 + 29500;
		s->count = 5;
		return true;
	case 26:   /* never returns */
		enter(s, PID, MAIN, 30000, "Shop.loop()V");
		return true;
	case 27:   /* its enter was before the recording */
		ret(s, PID, WORKER, 31000, "Shop$Worker.stray()I", I(WIRE_T_INT, -1));
		return true;
	case 28:
		event(s, WIRE_EV_METHOD_COMPILE, PID, COMPILER, 32000);
		s->ev.name = S(HANDLE);
		s->ev.u32 = 120;
		s->ev.nvalues = 1;
		s->ev.values[0] = I(WIRE_T_LONG, 0x7f0000001000);
		return true;
	case 29:
		s->kind = JFR_STEP_TICK;
		s->meta.ts_ns = JFR_STREAM_T0 + 32500;
		return true;
	case 30:
		enter(s, PID2, OTHER, 33000, "Other.run()V");
		return true;
	case 31:
		ret(s, PID2, OTHER, 34000, "Other.run()V", I(WIRE_T_VOID, 0));
		return true;
	case 32:
		event(s, WIRE_EV_THREAD_END, PID, WORKER, 35000);
		named(s, "worker-1");
		return true;
	case 33:   /* a hidden class, as JVMTI names it */
		enter(s, PID, MAIN, 36000, "Shop$$Lambda$14.0x0000000800c01000.run()V");
		return true;
	case 34:
		ret(s, PID, MAIN, 36500, "Shop$$Lambda$14.0x0000000800c01000.run()V", I(WIRE_T_VOID, 0));
		return true;
	case 35:
		event(s, WIRE_EV_VM_DEATH, PID, 0, 40000);
		return true;
	case 36:   /* no finish: the recording ends first */
		event(s, WIRE_EV_GC_START, PID, VM, 41000);
		return true;
	case 37:   /* no waited */
		event(s, WIRE_EV_MONITOR_WAIT, PID, MAIN, 42000);
		monitor(s, 79, "Ljava/lang/Object;");
		return true;
	case 38:   /* no enter */
		event(s, WIRE_EV_MONITOR_ENTERED, PID, MAIN, 43000);
		monitor(s, 80, "Ljava/lang/Object;");
		return true;
	case 39:   /* no name an agent sends, but a name the file must keep */
		enter(s, PID, MAIN, 44000, "odd/name(L");
		s->ev.nvalues = 2;
		s->ev.values[0] = T(WIRE_T_STRING, "a, \"b\"\n\\", 0, 0);
		s->ev.values[1] = T(WIRE_T_OBJECT, "Lp/Odd, name;", 9, 1);
		return true;
	case 40:
		ret(s, PID, MAIN, 44500, "odd/name(L", (struct wire_value){ .type = WIRE_T_FLOAT, .v.f = 0.1f });
		return true;
	default:
		return false;
	}
}

int jfr_stream_write(const struct record_format *format, struct record_out *out, size_t last, bool end)
{
	struct record_info info = { JFR_STREAM_T0, JFR_STREAM_WALL };
	struct jfr_step *s = malloc(sizeof *s);
	void *state = calloc(1, format->state_size);
	int rc = s && state ? format->begin(state, out, &info) : -ENOMEM;

	for (size_t i = 0; rc == 0 && i < last && jfr_stream_step(i, s); i++) {
		if (s->kind == JFR_STEP_EVENT)
			rc = format->event(state, out, &s->meta, &s->ev);
		else if (s->kind == JFR_STEP_TICK)
			rc = format->tick(state, out, s->meta.ts_ns);
		else
			rc = format->lost(state, out, s->meta.ts_ns, s->count);
	}
	if (rc == 0 && state && !end) {
		/* as if the bridge were killed here: what end() writes goes nowhere */
		int fd = out->fd;

		rc = record_out_flush(out);
		out->fd = open("/dev/null", O_WRONLY);
		if (rc == 0 && out->fd < 0)
			rc = -errno;
		if (rc == 0)
			rc = format->end(state, out);
		if (out->fd >= 0)
			close(out->fd);
		out->fd = fd;
		out->len = 0;
	} else if (state) {
		int erc = format->end(state, out);

		if (rc == 0)
			rc = erc;
	}
	if (rc == 0)
		rc = record_out_flush(out);
	free(state);
	free(s);
	return rc;
}

/* What the JFR reader gives back: the --print lines of the stream's events
 * in time order, and a line for the bridge's loss ("lost pid=0 tid=0 ..."),
 * which --print has none of. */
const char *const jfr_stream_expected[] = {
	"vm.init pid=4242 tid=4243 ts=1000000000500",
	"thread.start pid=4242 tid=4244 ts=1000000001000 thread=\"worker-1\" stack=java.lang.Thread"
	".run()V:829",
	"method.enter pid=4242 tid=4243 ts=1000000002000 method=Shop.handle(ILjava/lang/String;)J a"
	"rgs=42,\"hi\" stack=Shop.handle(ILjava/lang/String;)J:10|Shop.main([Ljava/lang/String;)V:5",
	"method.enter pid=4242 tid=4243 ts=1000000003000 method=Shop.price(D)D args=2.5",
	"exception.thrown pid=4242 tid=4243 ts=1000000003500 exception=java.lang.IllegalStateExcept"
	"ion method=Shop.price(D)D stack=Shop.price(D)D:20|Shop.handle(ILjava/lang/String;)J:11|Sho"
	"p.main([Ljava/lang/String;)V:5",
	"method.return pid=4242 tid=4243 ts=1000000004000 method=Shop.price(D)D popped=1 ret=?",
	"exception.catch pid=4242 tid=4243 ts=1000000004500 exception=java.lang.IllegalStateExcepti"
	"on method=Shop.handle(ILjava/lang/String;)J",
	"exception.thrown pid=4242 tid=4243 ts=1000000004600 exception=java.lang.Error method=Shop."
	"check()V",
	"method.return pid=4242 tid=4243 ts=1000000006000 method=Shop.handle(ILjava/lang/String;)J "
	"popped=0 ret=84 stack=Shop.handle(ILjava/lang/String;)J:12|Shop.main([Ljava/lang/String;)V"
	":5",
	"gc.start pid=4242 tid=4250 ts=1000000007000",
	"gc.finish pid=4242 tid=4250 ts=1000000009000",
	"class.load pid=4242 tid=4244 ts=1000000010000 class=Shop$Item stack=Shop$Worker.run()V:31",
	"class.prepare pid=4242 tid=4244 ts=1000000010100 class=Shop$Item",
	"class.unload pid=4242 tid=4250 ts=1000000010200 class=Old",
	"monitor.contended_enter pid=4242 tid=4244 ts=1000000011000 object=77 class=java.lang.Objec"
	"t owner=4243 owner_thread=\"main\" stack=Shop$Worker.run()V:30",
	"monitor.contended_entered pid=4242 tid=4244 ts=1000000015000 object=77 class=java.lang.Obj"
	"ect",
	"monitor.wait pid=4242 tid=4243 ts=1000000016000 object=78 timeout_ms=10 class=Shop stack=j"
	"ava.lang.Object.wait(J)V:-2|Shop.main([Ljava/lang/String;)V:7",
	"thread.start pid=4242 tid=4245 ts=1000000020000 thread=\"pool-1\"",
	"thread.end pid=4242 tid=4245 ts=1000000021000 thread=\"pool-1-renamed\"",
	"monitor.waited pid=4242 tid=4243 ts=1000000026000 object=78 timeout_ms=10 timed_out=1 clas"
	"s=Shop",
	"method.enter pid=4242 tid=4244 ts=1000000027000 method=Shop$Worker.work(ZBCSFJ[ILjava/lang"
	"/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V args=true,-5,'x',-300,1.5"
	",-9000000000,int[3]#5,java.lang.Object@beef#6,null,?,\"h\xc3\xa9llo\"... stack=Shop$Worker"
	".work(ZBCSFJ[ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V:4"
	"0|Shop$Worker.run()V:32",
	"method.return pid=4242 tid=4244 ts=1000000028000 method=Shop$Worker.work(ZBCSFJ[ILjava/lan"
	"g/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V popped=0 ret=void",
	"lost pid=4242 tid=4243 ts=1000000029000 lost=3",
	"lost pid=0 tid=0 ts=1000000029500 lost=5",
	"method.enter pid=4242 tid=4243 ts=1000000030000 method=Shop.loop()V args=",
	"method.return pid=4242 tid=4244 ts=1000000031000 method=Shop$Worker.stray()I popped=0 ret="
	"-1",
	"method.compile pid=4242 tid=4251 ts=1000000032000 method=Shop.handle(ILjava/lang/String;)J"
	" code_size=120 code_addr=0x7f0000001000",
	"method.enter pid=5000 tid=5001 ts=1000000033000 method=Other.run()V args=",
	"method.return pid=5000 tid=5001 ts=1000000034000 method=Other.run()V popped=0 ret=void",
	"thread.end pid=4242 tid=4244 ts=1000000035000 thread=\"worker-1\"",
	"method.enter pid=4242 tid=4243 ts=1000000036000 method=Shop$$Lambda$14.0x0000000800c01000."
	"run()V args=",
	"method.return pid=4242 tid=4243 ts=1000000036500 method=Shop$$Lambda$14.0x0000000800c01000"
	".run()V popped=0 ret=void",
	"vm.death pid=4242 tid=0 ts=1000000040000",
	"gc.start pid=4242 tid=4250 ts=1000000041000",
	"monitor.wait pid=4242 tid=4243 ts=1000000042000 object=79 timeout_ms=0 class=java.lang.Obj"
	"ect",
	"monitor.contended_entered pid=4242 tid=4243 ts=1000000043000 object=80 class=java.lang.Obj"
	"ect",
	"method.enter pid=4242 tid=4243 ts=1000000044000 method=odd/name(L args=\"a, \\\"b"
	"\\\"\\n\\\\\",p.Odd,\\x20name@1#9",
	"method.return pid=4242 tid=4243 ts=1000000044500 method=odd/name(L popped=0 ret=0.10000000"
	"1",
};
const size_t jfr_stream_expected_count = sizeof jfr_stream_expected / sizeof jfr_stream_expected[0];
