/* fakeagent.c: a stand-in for the JVMTI agent, for testsuite/bridge.bats.
 *
 *   fakeagent [--sockdir DIR | --path PATH] [--mode OCTAL] [--ready FILE]
 *             [--commands FILE] [--appendix] [--caps N] [--quiet-ms N]
 *             [--scenario all|some|classforms|garbage|notice|jfr|jfr-whole|partial|seq-gap|seq-repeat|after-death|
 *                         first-gap|seq-zero|late-hello|names-flood|stream|many|by-id|jfr|none] [--jfr-file FILE]
 *             [--then stay|exit]
 *             [--wait-file FILE] [--start-on COMMAND] [--no-accept]
 *             [--connections N] [--kill-peer] [NAME...]
 *
 * It listens where the real agent would (doc/agent-bridge.md: DIR defaults
 * to /tmp/stapjava-<uid>, the name is jvm-<pidns>-<pid>-<starttime>.sock), or
 * on PATH exactly (to squat a socket), writes the path to FILE once it
 * listens, accepts one connection, logs every command it decodes to the
 * commands file (one line each; " (ignored)" after those the real agent
 * ignores: the early-Appendix window, wire.h), answers the bridge's Hello
 * with caps N (default WIRE_CAP_ALL; not at all with --appendix), and after
 * the command that ends a registration (Start, which the bridge sends last;
 * --start-on names another, e.g. for an Appendix-only peer, which gets no
 * Start) sends the scenario's events (once FILE exists, with --wait-file;
 * with a TF_SYNC flag on each after DispatchMode 1). Then it stays until the
 * bridge hangs up (stay) or exits at once, mid-stream (exit). With
 * --quiet-ms, like a third-party agent that takes a quiet period as the end
 * of its registrations, it stops reading N ms after the last command it
 * got, runs the scenario then, and once the bridge hangs up logs what came
 * too late ("late ..."). Copied to a file named "java", it passes for a
 * JVM; a NAME argument is ignored and shows as its "main class".
 * --no-accept: it never accepts, and its backlog is full (it connects to
 * itself once, with a backlog of 0), so a peer's connect() waits.
 * --attach-quits N: it starts as a JVM without the agent (fakeattach.h):
 * the first N SIGQUITs start nothing, the next one its attach listener; once
 * the bridge's load request came, it listens as the agent would, in the
 * sockdir= of the request's options. --ready FILE says "attach" first.
 * --connections N: N connections one after the other (0: no end), each a
 * session of its own (its events numbered from 1). --kill-peer: each peer
 * is killed (SIGKILL, its pid from SO_PEERCRED) as soon as it connects, so
 * that a bridge's worker dies every time.
 * stream: a MethodEnter of Demo.tick()V every 5 ms until the bridge sends
 * a command or hangs up.
 * many: 20 000 MethodEnter of Demo.tick()V at once, then VmDeath.
 * by-id: method events by number (CAP_METHOD_IDS), a number named anew,
 * then one never named.
 * by-id-values: method events with values by number (CAP_METHOD_ID_VALUES):
 * an enter with two ints, its return, a pop by an exception, then an enter
 * of a number never named.
 * names-flood: 5000 ThreadName events of 60,000-byte names, each for a
 * thread of its own, then one MethodEnter of Demo.tick()V (its line says
 * the bridge has handled them all).
 * jfr: JfrData as the agent sends a JVM's chunks: a chunk whose header is
 * no JFR header ("NOPE"), then FILE (a .jfr of one chunk) whole, in pieces
 * of 4000 bytes, then FILE's bytes again but the last one, as a JVM that
 * ended mid-chunk (--then exit).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "fakeattach.h"
#include "jvmsock.h"
#include "wire.h"

static const char *commands_file, *scenario = "all", *then = "stay", *wait_file, *jfr_file;
static const char *start_on = "Start"; /* the command after which the scenario runs */
static bool sync_mode;         /* DispatchMode 1 received: every event asks for an Ack */
static uint32_t our_caps = WIRE_CAP_ALL;
static int appendix_only;
static unsigned quiet_ms;      /* --quiet-ms: stop reading this long after the last command */
static int no_accept;          /* --no-accept */
static int kill_peer;          /* --kill-peer */
static struct wire_peer peer;  /* the bridge, as we see it */
static struct wire_early_window early; /* what the real agent would ignore */
static uint64_t seq;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "fakeagent: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void note(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int fd, n;

	if (!commands_file)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	fd = open(commands_file, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) < 0)
			perror("fakeagent: commands file");
		close(fd);
	}
}

static void send_bytes(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);

		if (w < 0)
			die("send: %s", strerror(errno));
		b += w;
		n -= (size_t)w;
	}
}

static struct wire_str S(const char *s)
{
	return (struct wire_str){ s, (uint32_t)strlen(s) };
}

/* Send EV with a trailer: seq, ts = seq ms, the given OS tid. */
static void send_event(int fd, struct wire_event *ev, uint32_t tid)
{
	static uint8_t data[1 << 16];
	struct wire_buf b = { data, sizeof data, 0 };
	int rc;

	ev->has_trailer = true;
	if (sync_mode)
		ev->trailer.flags |= WIRE_TF_SYNC;
	ev->trailer.seq = ++seq;
	ev->trailer.timestamp_ns = seq * 1000000u;
	ev->trailer.os_tid = tid;
	rc = wire_encode_event(&b, &peer, ev);
	if (rc < 0)
		die("encode 0x%x: %s", ev->code, strerror(-rc));
	send_bytes(fd, b.data, b.len);
}

static struct wire_event *event(unsigned code, const char *name, uint64_t thread)
{
	static struct wire_event ev;

	memset(&ev, 0, sizeof ev);
	ev.code = code;
	ev.name = S(name ? name : "");
	ev.thread = thread;
	return &ev;
}

static bool ext(void)
{
	return (peer.caps & WIRE_CAP_EXT_EVENTS) != 0;
}

static void scenario_all(int fd)
{
	struct wire_event *ev;

	if (ext())
		send_event(fd, event(WIRE_EV_VM_INIT, NULL, 4250), 4250);
	if (ext()) {
		ev = event(WIRE_EV_THREAD_NAME, "worker-1", 4251);
		send_event(fd, ev, 4250);
	}
	send_event(fd, event(WIRE_EV_THREAD_START, NULL, 4251), 4251);
	ev = event(WIRE_EV_METHOD_ENTER, "Demo.add(II)I", 4250);
	ev->nvalues = 2;
	ev->values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 2 };
	ev->values[1] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 3 };
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_METHOD_EXIT, "Demo.add(II)I", 4250);
	ev->retval = (struct wire_value){ .type = WIRE_T_INT, .v.i = 5 };
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_METHOD_COMPILE, "Demo.add(II)I", 0);
	ev->u32 = 120;
	ev->nvalues = 1;
	ev->values[0] = (struct wire_value){ .type = WIRE_T_LONG, .v.i = 0x7f0012345678 };
	send_event(fd, ev, 4252);
	send_event(fd, event(WIRE_EV_CLASS_LOAD, "Ljava/lang/String;", 4250), 4250);
	send_event(fd, event(WIRE_EV_CLASS_PREPARE, "[I", 4250), 4250);
	if (ext())
		send_event(fd, event(WIRE_EV_CLASS_UNLOAD, "LDemo$Inner;", 0), 0);
	ev = event(WIRE_EV_EXCEPTION_THROWN, "Ljava/lang/IllegalStateException;", 4250);
	ev->method = S("Demo.fail()V");
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_EXCEPTION_CATCH, "Ljava/lang/IllegalStateException;", 4250);
	ev->method = S("Demo.main([Ljava/lang/String;)V");
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_MONITOR_ENTER, NULL, 4251);
	ev->object = 17;
	send_event(fd, ev, 4251);
	ev = event(WIRE_EV_MONITOR_ENTERED, NULL, 4251);
	ev->object = 17;
	send_event(fd, ev, 4251);
	ev = event(WIRE_EV_MONITOR_WAIT, NULL, 4251);
	ev->object = 17;
	ev->u32 = 500;
	send_event(fd, ev, 4251);
	ev = event(WIRE_EV_MONITOR_WAITED, NULL, 4251);
	ev->object = 17;
	ev->u32 = 500;
	ev->trailer.flags = WIRE_TF_TIMED_OUT;
	send_event(fd, ev, 4251);
	if (ext()) {
		send_event(fd, event(WIRE_EV_GC_START, NULL, 0), 0);
		send_event(fd, event(WIRE_EV_GC_FINISH, NULL, 0), 0);
	}
	ev = event(WIRE_EV_METHOD_ENTER, "Demo.greet(Ljava/lang/String;)V", 4250);
	ev->nvalues = 1;
	ev->values[0] = (struct wire_value){ .type = WIRE_T_STRING, .str = S("hi \"x\"\n") };
	if (peer.caps & WIRE_CAP_STACK) {
		ev->trailer.flags = WIRE_TF_STACK;
		ev->trailer.depth = 2;
		ev->trailer.frames[0] = (struct wire_frame){ S("Demo.greet(Ljava/lang/String;)V"), 12, S("Demo.java") };
		ev->trailer.frames[1] = (struct wire_frame){ S("Demo.main([Ljava/lang/String;)V"), 30, S("Demo.java") };
	}
	send_event(fd, ev, 4250);
	if (ext()) {
		ev = event(WIRE_EV_LOST, NULL, 0);
		ev->lost = 3;
		send_event(fd, ev, 0);
		send_event(fd, event(WIRE_EV_THREAD_NAME, "worker-1", 4251), 4251);
	}
	send_event(fd, event(WIRE_EV_THREAD_END, NULL, 4251), 4251);
	if (ext())
		send_event(fd, event(WIRE_EV_VM_DEATH, NULL, 0), 4250);
}

static void scenario_some(int fd)
{
	for (int i = 0; i < 2; i++) {
		struct wire_event *ev = event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250);

		send_event(fd, ev, 4250);
	}
}

/* A class name in each form the seed and JVMTI use (a third-party agent may
 * echo the dotted text it was registered with). */
static void scenario_classforms(int fd)
{
	send_event(fd, event(WIRE_EV_CLASS_LOAD, "Ljava/util/List;", 4250), 4250);
	send_event(fd, event(WIRE_EV_CLASS_LOAD, "Ljava/util/Map", 4250), 4250);
	/* before the last: once its line is out, this one was handled */
	send_event(fd, event(WIRE_EV_CLASS_LOAD, "java.lang.String", 4250), 4250);
	send_event(fd, event(WIRE_EV_CLASS_LOAD, "java.util.Set", 4250), 4250);
}

/* What PROTOCOL.md says cannot happen: a number given twice, a gap, an
 * event after VmDeath (the bridge must say so; the first two disconnect);
 * a first event numbered 3, then another gap (said once, both); a first
 * event numbered 0; a Hello after the first event. */
static void scenario_broken(int fd)
{
	if (strcmp(scenario, "first-gap") == 0)
		seq += 2;
	else if (strcmp(scenario, "seq-zero") == 0)
		seq = UINT64_MAX;   /* the next is 0 */
	send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	if (strcmp(scenario, "first-gap") == 0) {
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
		seq += 2;
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
		return;
	}
	if (strcmp(scenario, "seq-zero") == 0)
		return;
	if (strcmp(scenario, "late-hello") == 0) {
		static uint8_t data[256];
		struct wire_buf b = { data, sizeof data, 0 };
		struct wire_event h = { .code = WIRE_EV_HELLO };

		wire_hello_init(&h.hello, our_caps, "fakeagent 1");
		if (wire_encode_event(&b, &peer, &h) < 0)
			die("encode Hello");
		send_bytes(fd, b.data, b.len);
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
		return;
	}
	if (strcmp(scenario, "seq-gap") == 0) {
		seq += 2;
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	} else if (strcmp(scenario, "seq-repeat") == 0) {
		seq--;
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	} else {
		send_event(fd, event(WIRE_EV_VM_DEATH, NULL, 0), 4250);
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	}
}

/* More thread names than a worker may keep (issue 16 §5). */
static void scenario_names_flood(int fd)
{
	static char name[60000];

	memset(name, 'n', sizeof name);
	for (uint64_t tid = 1; tid <= 5000; tid++) {
		struct wire_event *ev = event(WIRE_EV_THREAD_NAME, NULL, 100000 + tid);

		ev->name = (struct wire_str){ name, sizeof name };
		send_event(fd, ev, 4250);
	}
	send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
}

/* many: MANY_EVENTS MethodEnter of Demo.tick()V at once, then VmDeath. */
#define MANY_EVENTS 20000

static void scenario_many(int fd)
{
	for (int i = 0; i < MANY_EVENTS; i++)
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	send_event(fd, event(WIRE_EV_VM_DEATH, NULL, 0), 4250);
}

/* by-id: plain method events by number (CAP_METHOD_IDS): a number named,
 * its enter and exit, the number named anew and its enter, then an exit of
 * a number never named (the bridge must disconnect). */
static void send_by_id(int fd, unsigned code, uint32_t id, const char *name, uint8_t type)
{
	struct wire_event *ev = event(code, name, code == WIRE_EV_METHOD_NAME ? 0 : 4250);

	ev->method_id = id;
	ev->retval.type = type;
	send_event(fd, ev, 4250);
}

static void scenario_by_id(int fd)
{
	send_by_id(fd, WIRE_EV_METHOD_NAME, 7, "Demo.add(II)I", 0);
	send_by_id(fd, WIRE_EV_METHOD_ENTER_ID, 7, NULL, 0);
	send_by_id(fd, WIRE_EV_METHOD_EXIT_ID, 7, NULL, WIRE_T_NONE);
	send_by_id(fd, WIRE_EV_METHOD_NAME, 7, "Demo.tick()V", 0);
	send_by_id(fd, WIRE_EV_METHOD_EXIT_ID, 7, NULL, WIRE_T_VOID);
	send_by_id(fd, WIRE_EV_METHOD_EXIT_ID, 9, NULL, WIRE_T_NONE);
}

static void scenario_by_id_values(int fd)
{
	struct wire_event *ev;

	send_by_id(fd, WIRE_EV_METHOD_NAME, 3, "Demo.add(II)I", 0);
	ev = event(WIRE_EV_METHOD_ENTER_ID_VALUES, NULL, 4250);
	ev->method_id = 3;
	ev->nvalues = 2;
	ev->values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 2 };
	ev->values[1] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 3 };
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_METHOD_EXIT_ID_VALUE, NULL, 4250);
	ev->method_id = 3;
	ev->retval = (struct wire_value){ .type = WIRE_T_INT, .v.i = 5 };
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_METHOD_EXIT_ID_VALUE, NULL, 4250);
	ev->method_id = 3;
	ev->popped = true;
	ev->retval = (struct wire_value){ .type = WIRE_T_OBJECT, .str = { "Ljava/lang/IllegalStateException;", 33 },
					  .object_id = 11, .aux = 0x2a };
	send_event(fd, ev, 4250);
	ev = event(WIRE_EV_METHOD_ENTER_ID_VALUES, NULL, 4250);
	ev->method_id = 4;
	send_event(fd, ev, 4250);
}

/* A MethodEnter every 5 ms until the bridge sends something (its Reset at
 * the end) or hangs up; then what it sent is read as usual. */
static void scenario_stream(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	do
		send_event(fd, event(WIRE_EV_METHOD_ENTER, "Demo.tick()V", 4250), 4250);
	while (poll(&p, 1, 5) == 0);
	note("stream ended after %" PRIu64 " events", seq);
}

/* BYTES[0..LEN) of one chunk as JfrData of at most 4000 bytes. */
static void send_chunk(int fd, const uint8_t *bytes, size_t len)
{
	for (size_t at = 0; at < len; at += 4000) {
		struct wire_event *ev = event(WIRE_EV_JFR_DATA, NULL, 0);
		ev->jfr_flags = at == 0 ? WIRE_JFR_CHUNK_BEGIN : 0;
		ev->name = (struct wire_str){ (const char *)bytes + at, (uint32_t)(len - at < 4000 ? len - at : 4000) };
		send_event(fd, ev, 0);
	}
}

static void scenario_jfr(int fd)
{
	static const uint8_t nope[68] = "NOPE";
	static uint8_t chunk[1 << 22];
	FILE *f = jfr_file ? fopen(jfr_file, "rb") : NULL;
	size_t len = f ? fread(chunk, 1, sizeof chunk, f) : 0;

	if (!f || len < 68)
		die("--jfr-file: a .jfr file is needed");
	fclose(f);
	if (strcmp(scenario, "jfr-whole") == 0) {
		send_chunk(fd, chunk, len);   /* alone: the stream ends with it */
		return;
	}
	send_chunk(fd, nope, sizeof nope);
	send_chunk(fd, chunk, len);
	send_chunk(fd, chunk, len - 1);
}

/* A Notice with control bytes, a NUL, bytes that are not UTF-8 and
 * UTF-8 that is: the bridge's log shows each byte once, escaped once. */
static void scenario_notice(int fd)
{
	static const char text[] = "bad\x1b[31m\nline\0nul \xff caf\xc3\xa9";
	struct wire_event *ev = event(WIRE_EV_NOTICE, NULL, 4250);

	ev->name = (struct wire_str){ text, sizeof text - 1 };
	send_event(fd, ev, 4250);
}

static void run_scenario(int fd)
{
	/* MethodEnter whose name claims 70000 bytes: over WIRE_MAX_STRING */
	static const uint8_t garbage[] = { 0x80, 0x70, 0x11, 0x01, 0x00, 'x', 'y' };

	while (wait_file && access(wait_file, F_OK) != 0)
		usleep(10000); /* the test says when */
	note("scenario %s", scenario);
	if (strcmp(scenario, "all") == 0)
		scenario_all(fd);
	else if (strcmp(scenario, "some") == 0)
		scenario_some(fd);
	else if (strcmp(scenario, "classforms") == 0)
		scenario_classforms(fd);
	else if (strcmp(scenario, "garbage") == 0)
		send_bytes(fd, garbage, sizeof garbage);
	else if (strcmp(scenario, "names-flood") == 0)
		scenario_names_flood(fd);
	else if (strcmp(scenario, "jfr") == 0 || strcmp(scenario, "jfr-whole") == 0)
		scenario_jfr(fd);
	else if (strcmp(scenario, "stream") == 0)
		scenario_stream(fd);
	else if (strcmp(scenario, "many") == 0)
		scenario_many(fd);
	else if (strcmp(scenario, "by-id") == 0)
		scenario_by_id(fd);
	else if (strcmp(scenario, "by-id-values") == 0)
		scenario_by_id_values(fd);
	else if (strcmp(scenario, "notice") == 0)
		scenario_notice(fd);
	else if (strcmp(scenario, "partial") == 0)
		send_bytes(fd, garbage, 3); /* a MethodEnter's code and half its name's length */
	else if (strcmp(scenario, "seq-gap") == 0 || strcmp(scenario, "seq-repeat") == 0 ||
		 strcmp(scenario, "after-death") == 0 || strcmp(scenario, "first-gap") == 0 ||
		 strcmp(scenario, "seq-zero") == 0 || strcmp(scenario, "late-hello") == 0)
		scenario_broken(fd);
	if (strcmp(then, "exit") == 0) {
		note("exit");
		_exit(0);
	}
}

static void answer_hello(int fd, const struct wire_hello *h)
{
	static uint8_t data[256];
	struct wire_buf b = { data, sizeof data, 0 };
	struct wire_event ev = { .code = WIRE_EV_HELLO };

	if (appendix_only)
		return;
	wire_peer_accept_hello(&peer, h, our_caps);
	wire_hello_init(&ev.hello, our_caps, "fakeagent 1");
	if (wire_encode_event(&b, &peer, &ev) < 0)
		die("encode Hello");
	send_bytes(fd, b.data, b.len);
}

/* PREFIX before the command, " (ignored)" after it when the real agent
 * would ignore it. */
static void log_command(const char *prefix, const struct wire_command *c, bool ignored)
{
	const char *name = wire_command_name(c->code);
	char what[400];

	switch (c->code) {
	case WIRE_CMD_REGISTER:
		snprintf(what, sizeof what, "%s kind=%u events=0x%x pattern=%.*s", name, c->kind,
			 c->events, (int)c->pattern.len, c->pattern.ptr);
		break;
	case WIRE_CMD_UNREGISTER:
		snprintf(what, sizeof what, "%s kind=%u pattern=%.*s", name, c->kind,
			 (int)c->pattern.len, c->pattern.ptr);
		break;
	case WIRE_CMD_REGISTER_METHOD:
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION:
		snprintf(what, sizeof what, "%s pattern=%.*s", name, (int)c->pattern.len, c->pattern.ptr);
		break;
	case WIRE_CMD_GC_EVENTS:
	case WIRE_CMD_THREAD_EVENTS:
	case WIRE_CMD_MONITOR_EVENTS:
	case WIRE_CMD_VM_EVENTS:
		snprintf(what, sizeof what, "%s enable=%d", name, c->enable);
		break;
	case WIRE_CMD_OPTIONAL_DATA:
		snprintf(what, sizeof what, "%s mask=0x%x", name, c->mask);
		break;
	case WIRE_CMD_DISPATCH_MODE:
		snprintf(what, sizeof what, "%s mode=%u timeout_us=%u", name, c->mode, c->timeout_us);
		break;
	case WIRE_CMD_ACK:
		snprintf(what, sizeof what, "%s seq=%" PRIu64, name, c->seq);
		break;
	case WIRE_CMD_HELLO:
		snprintf(what, sizeof what, "Hello version=%u caps=0x%02x", c->hello.version, c->hello.caps);
		break;
	default:
		snprintf(what, sizeof what, "%s", name ? name : "?");
	}
	note("%s%s%s", prefix, what, ignored ? " (ignored)" : "");
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Decode and act on every whole command in R; LATE: only log them, with
 * that word (they came after we stopped reading). Returns the commands
 * decoded, -1 on a malformed one. */
static int handle_commands(int fd, struct wire_reader *r, bool late)
{
	int got = 0;

	for (;;) {
		struct wire_command cmd;
		struct wire_error err;
		size_t len, used;
		const uint8_t *d = wire_reader_data(r, &len);
		int rc;

		if (!len)
			return got;
		rc = wire_decode_command(&peer, d, len, &cmd, &used, &err);
		if (rc == -EAGAIN)
			return got;
		if (rc < 0) {
			note("malformed: %s", err.text);
			return -1;
		}
		got++;
		if (late) {
			log_command("late ", &cmd, false);
		} else if (cmd.code == WIRE_CMD_HELLO) {
			log_command("", &cmd, false);
			answer_hello(fd, &cmd.hello);
		} else {
			bool ignored = wire_early_window_ignores(&early, &peer, cmd.code);

			log_command("", &cmd, ignored);
			if (cmd.code == WIRE_CMD_DISPATCH_MODE)
				sync_mode = cmd.mode == WIRE_DISPATCH_SYNC;
			if (!ignored && start_on && wire_command_name(cmd.code) &&
			    strcmp(wire_command_name(cmd.code), start_on) == 0)
				run_scenario(fd);
		}
		wire_reader_consume(r, used);
	}
}

/* --quiet-ms: read no more; the scenario; once the bridge hangs up, what it
 * sent meanwhile. */
static void stop_reading(int fd, struct wire_reader *r)
{
	struct pollfd p = { .fd = fd, .events = 0 };

	note("stopped reading: %u ms without a command", quiet_ms);
	run_scenario(fd);
	while (poll(&p, 1, -1) < 0 || !(p.revents & (POLLHUP | POLLERR)))
		;
	while (wire_reader_fill(r, fd) > 0)
		if (handle_commands(fd, r, true) < 0)
			break;
	note("closed");
}

static void serve(int fd)
{
	static struct wire_reader r;
	uint64_t last_command_ms = 0;

	if (!r.cap && wire_reader_init(&r, 2 * WIRE_MAX_MESSAGE) < 0)
		die("reader");
	r.start = r.end = 0; /* what the last peer left unread */
	wire_peer_init(&peer);
	memset(&early, 0, sizeof early);
	sync_mode = false;
	seq = 0;
	for (;;) {
		if (quiet_ms && last_command_ms) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			uint64_t quiet_until = last_command_ms + quiet_ms, now = now_ms();

			if (now >= quiet_until ||
			    poll(&p, 1, (int)(quiet_until - now)) == 0) {
				stop_reading(fd, &r);
				return;
			}
		}
		long n = wire_reader_fill(&r, fd);
		int got;

		if (n <= 0) {
			note("closed");
			return;
		}
		got = handle_commands(fd, &r, false);
		if (got < 0)
			return;
		if (got > 0)
			last_command_ms = now_ms();
	}
}

static void own_path(const char *sockdir, char *path, size_t cap)
{
	char dir[4096], name[JVMSOCK_NAME_MAX];
	int rc = jvmsock_self_name(name, sizeof name);

	if (rc < 0)
		die("socket name from /proc/self: %s", strerror(-rc));
	if (sockdir)
		snprintf(dir, sizeof dir, "%s", sockdir);
	else
		snprintf(dir, sizeof dir, "/tmp/stapjava-%u", (unsigned)getuid());
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		die("mkdir %s: %s", dir, strerror(errno));
	snprintf(path, cap, "%s/%s", dir, name);
}

/* --ready FILE (none: NULL) says TEXT, a line. */
static void write_ready(const char *ready, const char *text)
{
	if (!ready)
		return;
	FILE *f = fopen(ready, "w");

	if (!f)
		die("%s: %s", ready, strerror(errno));
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void attach_note(const char *line)
{
	note("%s", line);
}

/* --attach-quits: wait to be loaded (fakeattach.h); the sockdir= of the
 * load's options (kept in OPTIONS), or NULL. */
static const char *attach_then_sockdir(unsigned quits, const char *ready, char *options, size_t cap)
{
	int rc = fakeattach_catch_quits();

	if (rc < 0)
		die("SIGQUIT handler: %s", strerror(-rc));
	write_ready(ready, "attach");
	rc = fakeattach_wait_load(quits, options, cap, attach_note);
	if (rc < 0)
		die("attach listener: %s", strerror(-rc));
	char *save = NULL;
	for (char *o = strtok_r(options, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (strncmp(o, "sockdir=", 8) == 0)
			return o + 8;
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sockdir", required_argument, NULL, 'd' }, { "path", required_argument, NULL, 'P' },
		{ "mode", required_argument, NULL, 'M' }, { "ready", required_argument, NULL, 'r' },
		{ "commands", required_argument, NULL, 'c' }, { "appendix", no_argument, NULL, 'a' },
		{ "caps", required_argument, NULL, 'C' }, { "scenario", required_argument, NULL, 's' },
		{ "then", required_argument, NULL, 't' }, { "wait-file", required_argument, NULL, 'w' },
		{ "start-on", required_argument, NULL, 'S' }, { "quiet-ms", required_argument, NULL, 'q' },
		{ "no-accept", no_argument, NULL, 'N' },
		{ "connections", required_argument, NULL, 'n' }, { "kill-peer", no_argument, NULL, 'K' },
		{ "jfr-file", required_argument, NULL, 'J' },
		{ "attach-quits", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sockdir = NULL, *fixed = NULL, *ready = NULL;
	unsigned mode = 0600;
	char path[4400], tmp[4500];
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int c, lfd, cfd;
	unsigned long connections = 1;
	long attach_quits = -1;
	static char load_options[4096];

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': sockdir = optarg; break;
		case 'P': fixed = optarg; break;
		case 'M': mode = (unsigned)strtoul(optarg, NULL, 8); break;
		case 'r': ready = optarg; break;
		case 'c': commands_file = optarg; break;
		case 'a': appendix_only = 1; break;
		case 'C': our_caps = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 's': scenario = optarg; break;
		case 't': then = optarg; break;
		case 'w': wait_file = optarg; break;
		case 'S': start_on = optarg; break;
		case 'q': quiet_ms = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'N': no_accept = 1; break;
		case 'J': jfr_file = optarg; break;
		case 'n': connections = strtoul(optarg, NULL, 0); break;
		case 'K': kill_peer = 1; break;
		case 'A': attach_quits = strtol(optarg, NULL, 0); break;
		default: die("bad option");
		}
	}
	if (attach_quits >= 0)
		sockdir = attach_then_sockdir((unsigned)attach_quits, ready, load_options, sizeof load_options);
	if (quiet_ms)
		start_on = NULL; /* the quiet period ends its registration */
	if (fixed)
		snprintf(path, sizeof path, "%s", fixed);
	else
		own_path(sockdir, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (strlen(tmp) >= sizeof addr.sun_path)
		die("path too long: %s", tmp);
	memcpy(addr.sun_path, tmp, strlen(tmp) + 1);
	unlink(tmp);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
	    chmod(tmp, mode) < 0 || listen(lfd, no_accept ? 0 : 4) < 0 || rename(tmp, path) < 0)
		die("listen on %s: %s", path, strerror(errno));
	if (no_accept) {
		int self = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);

		memcpy(addr.sun_path, path, strlen(path) + 1);
		if (self < 0 || connect(self, (struct sockaddr *)&addr, sizeof addr) < 0)
			die("connect to itself: %s", strerror(errno));
	}
	write_ready(ready, path);
	if (no_accept) {
		note("not accepting");
		for (;;)
			pause();
	}
	for (unsigned long n = 0; connections == 0 || n < connections; n++) {
		cfd = accept(lfd, NULL, NULL);
		if (cfd < 0)
			die("accept: %s", strerror(errno));
		note("accepted");
		if (kill_peer) {
			struct ucred cred;
			socklen_t len = sizeof cred;

			if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
			    kill(cred.pid, SIGKILL) < 0)
				die("killing the peer: %s", strerror(errno));
			note("killed the peer");
		} else
			serve(cfd);
		close(cfd);
	}
	unlink(path);
	return 0;
}
