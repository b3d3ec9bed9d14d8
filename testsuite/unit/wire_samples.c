/* wire_samples.c: one sample of every wire message (see wire_samples.h). */
#include "events.h"
#include "wire_bytes.h"
#include "wire_samples.h"

#include <stdio.h>
#include <string.h>

#define S(lit) ((struct wire_str){ .ptr = (lit), .len = sizeof(lit) - 1 })

/* ------------------------------------------------------------ values */
static const uint8_t value_types[] = {
	WIRE_T_BOOLEAN, WIRE_T_BYTE, WIRE_T_CHAR, WIRE_T_SHORT, WIRE_T_INT,
	WIRE_T_LONG, WIRE_T_FLOAT, WIRE_T_DOUBLE, WIRE_T_VOID, WIRE_T_NULL,
	WIRE_T_NONE, WIRE_T_STRING, WIRE_T_OBJECT, WIRE_T_ARRAY,
};
#define NTYPES (sizeof(value_types) / sizeof(value_types[0]))

static const char *const value_names[NTYPES] = {
	"boolean", "byte", "char", "short", "int", "long", "float", "double",
	"void", "null", "none", "string", "object", "array",
};

/* An edge value of type value_types[k]; `alt` picks a second one. */
static struct wire_value sample_value(size_t k, bool alt)
{
	struct wire_value v;

	memset(&v, 0, sizeof(v));
	v.type = value_types[k];
	switch (v.type) {
	case WIRE_T_BOOLEAN: v.v.i = alt ? 0 : 1; break;
	case WIRE_T_BYTE:    v.v.i = alt ? 127 : -128; break;
	case WIRE_T_CHAR:    v.v.i = alt ? 0x41 : 0xFFFF; break;
	case WIRE_T_SHORT:   v.v.i = alt ? 32767 : -32768; break;
	case WIRE_T_INT:     v.v.i = alt ? 0x11223344 : INT32_MIN; break;
	case WIRE_T_LONG:    v.v.i = alt ? INT64_MAX : INT64_MIN; break;
	case WIRE_T_FLOAT:   v.v.f = alt ? 0.0f : -1.5f; break;
	case WIRE_T_DOUBLE:  v.v.d = alt ? -0.0 : 3.141592653589793; break;
	case WIRE_T_STRING:
		v.str = alt ? S("") : S("h\303\251llo, world");
		v.truncated = !alt;
		break;
	case WIRE_T_OBJECT:
		v.str = S("Ljava/lang/String;");
		v.object_id = alt ? 0 : 0x1122334455667788ull;
		v.aux = alt ? 0 : 0xDEADBEEFu;
		break;
	case WIRE_T_ARRAY:
		v.str = alt ? S("[[Ljava/lang/Object;") : S("[I");
		v.object_id = alt ? UINT64_MAX : 0x42;
		v.aux = alt ? 0 : 1000;
		break;
	default: /* V N ?: no payload */
		break;
	}
	return v;
}

static void all_values(struct wire_event *ev, bool alt)
{
	ev->nvalues = NTYPES;
	for (size_t k = 0; k < NTYPES; k++)
		ev->values[k] = sample_value(k, alt);
}

/* ------------------------------------------------------------ events */
#define N_ENTER  (2 + NTYPES + 1)  /* none, each type, all types, empty name */
#define N_EXIT   NTYPES
#define N_OTHER  39
#define N_BASE   (N_ENTER + N_EXIT + N_OTHER)

/* Base event b (no trailer) into ev; returns its name. */
static const char *base_event(size_t b, struct wire_event *ev, char *name, size_t n)
{
	static const unsigned codes[N_OTHER] = {
		0x82, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A,
		0x8B, 0x8C, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
		0x99, 0x99, 0x9A, 0x9B, 0x9B, 0x9B, 0x9C, 0x9D, 0x9E, 0x9F, 0x9F,
		0xA0, 0xA0, 0xA1, 0xA0, 0xA1, 0xA1, 0xA0,
	};
	static const char *const names[N_OTHER] = {
		"compile", "compile-args", "class-load", "class-prepare",
		"exception-thrown", "exception-catch", "thread-start", "thread-end",
		"monitor-enter", "monitor-entered", "monitor-wait", "monitor-waited",
		"hello", "gc-start", "gc-finish", "vm-init", "vm-death",
		"class-unload", "thread-name", "lost", "notice",
		"match-method", "match-class", "match-end",
		"jfr-data-chunk-begin", "jfr-data-more", "jfr-data-none", "descends",
		"method-name", "method-enter-id", "method-exit-id-void", "method-exit-id-none",
		"method-enter-id-values-none", "method-enter-id-values-all", "method-exit-id-value-popped",
		"method-enter-id-values-primitive", "method-exit-id-value-int", "method-exit-id-value-void",
		"method-enter-id-values-many",
	};

	ev->thread = 0x0000000000012345ull;
	if (b < N_ENTER) {
		ev->code = WIRE_EV_METHOD_ENTER;
		ev->name = S("java.io.BufferedWriter.write(Ljava/lang/String;)V");
		if (b == 0) {
			snprintf(name, n, "ev80-enter");
		} else if (b <= NTYPES) {
			ev->nvalues = 1;
			ev->values[0] = sample_value(b - 1, false);
			snprintf(name, n, "ev80-enter-%s", value_names[b - 1]);
		} else if (b == NTYPES + 1) {
			all_values(ev, false);
			ev->thread = UINT64_MAX;
			snprintf(name, n, "ev80-enter-all");
		} else {
			ev->name = S("");
			all_values(ev, true);
			ev->thread = 0;
			snprintf(name, n, "ev80-enter-empty-alt");
		}
		return name;
	}
	b -= N_ENTER;
	if (b < N_EXIT) {
		ev->code = WIRE_EV_METHOD_EXIT;
		ev->name = S("a.B.c()V");
		ev->popped = b % 2 == 1;
		ev->retval = sample_value(b, b % 3 == 2);
		snprintf(name, n, "ev81-exit-%s", value_names[b]);
		return name;
	}
	b -= N_EXIT;
	ev->code = codes[b];
	snprintf(name, n, "ev%02x-%s", codes[b], names[b]);
	switch (ev->code) {
	case WIRE_EV_METHOD_COMPILE:
		ev->name = S("java.lang.String.hashCode()I");
		ev->u32 = b == 0 ? 0 : 0xFFFFFFFFu;
		if (b == 1)
			all_values(ev, false);
		break;
	case WIRE_EV_CLASS_LOAD:
		ev->name = S("Ljava/lang/Object;");
		ev->thread = 0x89ABCDEFu; /* u32 on the wire */
		break;
	case WIRE_EV_CLASS_PREPARE:
	case WIRE_EV_CLASS_UNLOAD:
		ev->name = S("Lcom/example/Main$Inner;");
		break;
	case WIRE_EV_EXCEPTION_THROWN:
	case WIRE_EV_EXCEPTION_CATCH:
		ev->name = S("Ljava/io/IOException;");
		ev->method = S("java.io.FileInputStream.open(Ljava/lang/String;)V");
		break;
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
		ev->object = 0xFEDCBA9876543210ull;
		break;
	case WIRE_EV_MONITOR_WAIT:
	case WIRE_EV_MONITOR_WAITED:
		ev->object = 7;
		ev->u32 = 1500;
		break;
	case WIRE_EV_HELLO:
		ev->hello.order = wire_host_order();
		ev->hello.version = WIRE_PROTOCOL_VERSION;
		ev->hello.pid = 31337;
		ev->hello.caps = WIRE_CAP_ALL;
		ev->hello.description = S("libstapjava 0.1.0 (OpenJDK 17)");
		break;
	case WIRE_EV_THREAD_NAME:
		ev->name = S("main");
		ev->java_tid = 0x0102030405060701ull;   /* on the wire with CAP_JAVA_THREAD_ID */
		break;
	case WIRE_EV_LOST:
		ev->lost = 0x0000000100000001ull;
		break;
	case WIRE_EV_NOTICE:
		ev->name = S("method.enter of java.lang.Thread.sleep(J)V cannot be reported (a native method)");
		ev->notice_scope = WIRE_NOTICE_METHOD;   /* on the wire with CAP_NOTICE_SUBJECT */
		ev->kind = WIRE_KIND_METHOD;
		ev->events = WIRE_METHOD_ENTER;
		ev->method = S("java.lang.Thread.sleep(J)V");
		break;
	case WIRE_EV_MATCH:
		ev->kind = names[b][6] == 'm' ? WIRE_KIND_METHOD : WIRE_KIND_CLASS;
		ev->name = ev->kind == WIRE_KIND_METHOD ? S("Shop.buy(I)V") : S("LShop$Item;");
		break;
	case WIRE_EV_MATCH_END:
		ev->kind = WIRE_KIND_EXCEPTION;
		ev->u32 = 0x80000001u;
		break;
	case WIRE_EV_JFR_DATA:
		/* a chunk's first bytes (its magic, a NUL among them), then bytes
		 * that go on with it: the agent never looks inside */
		ev->jfr_flags = names[b][9] == 'c' ? WIRE_JFR_CHUNK_BEGIN : names[b][9] == 'n' ? WIRE_JFR_NONE : 0;
		ev->name = ev->jfr_flags == WIRE_JFR_CHUNK_BEGIN ? S("FLR\0\0\2\0\1") : S("");
		break;
	case WIRE_EV_DESCENDS:
		ev->name = S("Lshop/Cart;");
		ev->method = S("Lshop/Base;");
		break;
	case WIRE_EV_METHOD_NAME:
		ev->method_id = 0x80000001u;
		ev->name = S("org.hsqldb.jdbc.JDBCConnection.commit()V");
		break;
	case WIRE_EV_METHOD_ENTER_ID:
		ev->method_id = 0;
		break;
	case WIRE_EV_METHOD_EXIT_ID:
		ev->method_id = 0xFFFFFFFFu;
		ev->retval.type = names[b][15] == 'v' ? WIRE_T_VOID : WIRE_T_NONE;
		break;
	case WIRE_EV_METHOD_ENTER_ID_VALUES:
		ev->method_id = 0x7FFFFFFFu;
		if (names[b][23] == 'a') {
			all_values(ev, true);
		} else if (names[b][23] == 'p') {
			/* what the fast reading takes: every type of a fixed size */
			all_values(ev, false);
			ev->nvalues = 11;
		} else if (names[b][23] == 'm') {
			/* as many as the count says: ints and longs in turn */
			ev->nvalues = WIRE_MAX_VALUES;
			for (size_t k = 0; k < WIRE_MAX_VALUES; k++)
				ev->values[k] = sample_value(k % 2 ? 5 : 4, k % 3 == 0);
		}
		break;
	case WIRE_EV_METHOD_EXIT_ID_VALUE:
		ev->method_id = 1;
		if (names[b][21] == 'p') {
			/* an exception's pop, as the agent sends it: the throwable */
			ev->popped = true;
			ev->retval = sample_value(12, false);
		} else {
			ev->retval = sample_value(names[b][21] == 'i' ? 4 : 8, true);
		}
		break;
	default: /* thread only, or nothing */
		break;
	}
	return name;
}

/* Trailer variants: none; TRAILER with flags 0; TRAILER with TIMED_OUT;
 * the first seven caps with SYNC|STACK|TIMED_OUT and a 3-frame stack; every
 * cap with STACK|MONITOR, frames with their source files. */
#define N_VARIANTS 5
#define CAPS_BEFORE_DETAIL 0x7Fu   /* the caps of peers before monitor detail and frame sources */

static void add_trailer(struct wire_event *ev, struct wire_peer *peer, size_t variant,
			char *name, size_t n)
{
	static const char *const suffix[N_VARIANTS] = { "", "+tr", "+tr-timed", "+tr-stack",
							 "+tr-detail" };
	size_t len = strlen(name);

	snprintf(name + len, n - len, "%s", suffix[variant]);
	if (variant == 0)
		return;
	peer->caps |= variant == 4 ? WIRE_CAP_ALL : variant == 3 ? CAPS_BEFORE_DETAIL : WIRE_CAP_TRAILER;
	if (ev->code == WIRE_EV_HELLO)
		return;
	ev->has_trailer = true;
	ev->trailer.seq = 0x0102030405060708ull + variant;
	ev->trailer.timestamp_ns = 1234567890123456789ull;
	ev->trailer.os_tid = 4321;
	ev->trailer.flags = variant == 2 ? WIRE_TF_TIMED_OUT : 0;
	if (variant == 3) {
		ev->trailer.flags = WIRE_TF_SYNC | WIRE_TF_STACK | WIRE_TF_TIMED_OUT;
		ev->trailer.depth = 3;
		ev->trailer.frames[0] = (struct wire_frame){ S("java.lang.Thread.run()V"), -1, S("") };
		ev->trailer.frames[1] = (struct wire_frame){ S("Foo.bar(I)V"), 42, S("") };
		ev->trailer.frames[2] = (struct wire_frame){ S(""), -2, S("") };
	}
	if (variant == 4) {
		ev->trailer.flags = WIRE_TF_STACK | WIRE_TF_MONITOR;
		ev->trailer.depth = 2;
		ev->trailer.frames[0] = (struct wire_frame){ S("Foo.bar(I)V"), 42, S("Foo.java") };
		ev->trailer.frames[1] = (struct wire_frame){ S("Foo.main([Ljava/lang/String;)V"), -1, S("") };
		ev->trailer.monitor_class = S("Ljava/lang/Object;");
		ev->trailer.owner_tid = 4322;
		ev->trailer.owner_name = S("worker-1");
	}
}

/* Past the base x variant grid: the limits (255 values, 256 frames). */
#define N_EXTRA 2

static const char *extra_event(size_t x, struct wire_event *ev, struct wire_peer *peer)
{
	static const char method[] = "java.lang.Object.wait(J)V";

	ev->thread = 99;
	if (x == 0) {
		ev->code = WIRE_EV_METHOD_ENTER;
		ev->name = S("Many.args(IIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIIII...)V");
		ev->nvalues = WIRE_MAX_VALUES;
		for (unsigned k = 0; k < WIRE_MAX_VALUES; k++)
			ev->values[k] = sample_value(k % NTYPES, k % 3 == 0);
		return "ev80-enter-max-values";
	}
	ev->code = WIRE_EV_THREAD_START;
	peer->caps = WIRE_CAP_ALL;
	peer->hello = true;
	ev->has_trailer = true;
	ev->trailer.seq = 1;
	ev->trailer.flags = WIRE_TF_STACK;
	ev->trailer.depth = WIRE_MAX_STACK_DEPTH;
	for (unsigned k = 0; k < WIRE_MAX_STACK_DEPTH; k++) {
		ev->trailer.frames[k].method = (struct wire_str){ method, k % sizeof(method) };
		ev->trailer.frames[k].line = (int32_t)k - 2;
		ev->trailer.frames[k].source = S("");
	}
	return "ev87-thread-start+tr-max-depth";
}

size_t wire_sample_event_count(void)
{
	return N_BASE * N_VARIANTS + N_EXTRA;
}

const char *wire_sample_event(size_t i, struct wire_event *ev, struct wire_peer *peer)
{
	static char name[96];

	memset(ev, 0, sizeof(*ev));
	wire_peer_init(peer);
	if (i >= wire_sample_event_count())
		return NULL;
	if (i >= N_BASE * N_VARIANTS)
		return extra_event(i - N_BASE * N_VARIANTS, ev, peer);
	base_event(i / N_VARIANTS, ev, name, sizeof(name));
	if (ev->code >= WIRE_EV_HELLO) {
		peer->hello = true;
		peer->caps |= events_get(ev->code)->caps;
	}
	add_trailer(ev, peer, i % N_VARIANTS, name, sizeof(name));
	if (!(peer->caps & WIRE_CAP_JAVA_THREAD_ID))
		ev->java_tid = 0;   /* not on the wire: what the decoder gives back */
	if (ev->code == WIRE_EV_NOTICE && !(peer->caps & WIRE_CAP_NOTICE_SUBJECT)) {
		ev->notice_scope = ev->kind = ev->events = 0;
		ev->method = (struct wire_str){ 0 };
	}
	if (peer->caps)
		peer->hello = true;
	return name;
}

/* ------------------------------------------------------------ commands */
#define N_COMMANDS 36

size_t wire_sample_command_count(void)
{
	return N_COMMANDS * 2;
}

static const char *base_command(size_t i, struct wire_command *c, struct wire_peer *peer)
{
	switch (i) {
	case 0: c->code = 0x40; c->pattern = S("java.io.BufferedWriter.write(Ljava/lang/String;)V");
		return "cmd40-register-method";
	case 1: c->code = 0x40; c->pattern = S("");
		return "cmd40-register-method-empty";
	case 2: c->code = 0x41; c->pattern = S("java.util.*");
		return "cmd41-register-class";
	case 3: c->code = 0x42; c->pattern = S("*Exception");
		return "cmd42-register-exception";
	case 4: c->code = 0x43; c->enable = true;
		return "cmd43-gc-on";
	case 5: c->code = 0x43; c->enable = false;
		return "cmd43-gc-off";
	case 6: c->code = 0x44; c->enable = true;
		return "cmd44-thread-on";
	case 7: c->code = 0x45; c->enable = false;
		return "cmd45-monitor-off";
	case 8: c->code = 0x46; c->mask = WIRE_OPT_ARGUMENTS | WIRE_OPT_RETURN_VALUE;
		return "cmd46-optional-data";
	case 9: c->code = 0x46; c->mask = 0xFFFFFFFFu;
		return "cmd46-optional-data-all";
	case 10: c->code = 0x50; c->kind = WIRE_KIND_METHOD; c->events = 0x7;
		c->pattern = S("a.B.*");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd50-register-method";
	case 11: c->code = 0x50; c->kind = WIRE_KIND_CLASS; c->events = WIRE_CLASS_UNLOAD;
		c->pattern = S("*");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd50-register-class";
	case 12: c->code = 0x50; c->kind = WIRE_KIND_EXCEPTION; c->events = 0x3;
		c->pattern = S("");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd50-register-exception";
	case 13: c->code = 0x51; c->kind = WIRE_KIND_METHOD; c->pattern = S("a.B.*");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd51-unregister-method";
	case 14: c->code = 0x51; c->kind = WIRE_KIND_CLASS; c->pattern = S("java.*");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd51-unregister-class";
	case 15: c->code = 0x51; c->kind = WIRE_KIND_EXCEPTION; c->pattern = S("");
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd51-unregister-exception";
	case 16: c->code = 0x52;
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd52-reset";
	case 17: c->code = 0x53; c->enable = true;
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd53-vm-on";
	case 18: c->code = 0x53; c->enable = false;
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd53-vm-off";
	case 19: c->code = 0x54; c->mode = WIRE_DISPATCH_ASYNC; c->timeout_us = 0;
		peer->caps = WIRE_CAP_SYNC;
		return "cmd54-dispatch-async";
	case 20: c->code = 0x54; c->mode = WIRE_DISPATCH_SYNC; c->timeout_us = 500000;
		peer->caps = WIRE_CAP_SYNC;
		return "cmd54-dispatch-sync";
	case 21: c->code = 0x55; c->seq = 0xFEDCBA9876543210ull;
		peer->caps = WIRE_CAP_SYNC;
		return "cmd55-ack";
	case 22: c->code = 0x55; c->seq = 0;
		peer->caps = WIRE_CAP_SYNC;
		return "cmd55-ack-0";
	case 23: c->code = WIRE_CMD_HELLO;
		c->hello.order = wire_host_order();
		c->hello.version = WIRE_PROTOCOL_VERSION;
		c->hello.pid = 4242;
		c->hello.caps = WIRE_CAP_ALL;
		c->hello.description = S("stpd-bridge 0.1.0");
		return "cmd140-hello";
	case 24: c->code = WIRE_CMD_HELLO;
		c->hello.order = wire_host_order();
		c->hello.version = 0xFFFF;
		c->hello.pid = 0xFFFFFFFFu;
		c->hello.caps = 0;
		c->hello.description = S("");
		return "cmd140-hello-min";
	case 26: c->code = 0x56;
		peer->caps = WIRE_CAP_EXT_CMDS;
		return "cmd56-start";
	case 27: c->code = 0x57; c->session = 0xFEDCBA98u;
		peer->caps = WIRE_CAP_IN_THREAD;
		return "cmd57-fire-in-thread";
	case 28: c->code = 0x58; c->kind = WIRE_KIND_METHOD; c->events = WIRE_METHOD_RETURN;
		c->slot = 255; c->pattern = S("java.io.BufferedWriter.*");
		peer->caps = WIRE_CAP_IN_THREAD;
		return "cmd58-register-slot-255";
	case 30: c->code = 0x59; c->kind = WIRE_KIND_METHOD; c->pattern = S("Shop.*");
		peer->caps = WIRE_CAP_LIST;
		return "cmd59-list-matches";
	case 31: c->code = 0x59; c->kind = WIRE_KIND_EXCEPTION; c->pattern = S("");
		peer->caps = WIRE_CAP_LIST;
		return "cmd59-list-matches-empty";
	case 29: c->code = 0x58; c->kind = WIRE_KIND_EXCEPTION; c->events = 0x3;
		c->slot = 0; c->pattern = S("");
		peer->caps = WIRE_CAP_IN_THREAD;
		return "cmd58-register-slot-0";
	case 32: c->code = 0x5A; c->pattern = S("jdk.GarbageCollection\njdk.JavaMonitorEnter#threshold=1ms;stackTrace=true");
		peer->caps = WIRE_CAP_JFR;
		return "cmd5a-jfr-settings";
	case 33: c->code = 0x5A; c->pattern = S("");
		peer->caps = WIRE_CAP_JFR;
		return "cmd5a-jfr-settings-none";
	case 34: c->code = 0x5B;
		c->jfr = (struct wire_jfr_event){
			.slots = 0x8000000000000001ull, .tid = 4321, .start_ns = 1764150000123456789,
			.duration_ns = 2500000, .type = S("jdk.GarbageCollection"), .thread_name = S("VM Thread"),
			.nfields = 2, .fields = S("name\0G1Old\0sumOfPauses\0002500000\0"),
			.depth = 2, .stack = S("java.lang.System.gc:1\0Demo.main:7\0"),
		};
		peer->caps = WIRE_CAP_JFR_FIRE;
		return "cmd5b-jfr-event";
	case 35: c->code = 0x5B;
		c->jfr = (struct wire_jfr_event){ .start_ns = -1, .duration_ns = INT64_MIN, .type = S(""),
						  .thread_name = S(""), .fields = S(""), .stack = S("") };
		peer->caps = WIRE_CAP_JFR_FIRE;
		return "cmd5b-jfr-event-empty";
	default: c->code = 0x40; c->pattern = S("\0STP not a hello");
		return "cmd40-register-method-nul";
	}
}

const char *wire_sample_command(size_t i, struct wire_command *cmd, struct wire_peer *peer)
{
	static char name[96];
	const char *base;

	memset(cmd, 0, sizeof(*cmd));
	wire_peer_init(peer);
	if (i >= wire_sample_command_count())
		return NULL;
	base = base_command(i / 2, cmd, peer);
	if (peer->caps)
		peer->hello = true;
	if (i % 2 == 1) {
		peer->caps = WIRE_CAP_ALL;
		peer->hello = true;
		snprintf(name, sizeof(name), "%s+all", base);
	} else {
		snprintf(name, sizeof(name), "%s", base);
	}
	return name;
}
