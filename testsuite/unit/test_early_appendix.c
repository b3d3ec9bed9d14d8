/* Unit tests of the early-Appendix window (PROTOCOL.md, CAP_EARLY_APPENDIX),
 * both sides of it:
 *  - the agent's rule, wire_early_window_ignores() (runtime/wire_codes.c):
 *    which commands are ignored, and until when; and the negotiation of the
 *    bit (wire_peer_accept_hello);
 *  - the bridge's side (stpd-bridge/connection.c): the exact commands it
 *    writes with its Hello and once it knows what the agent is, for a new
 *    agent, an older one (caps 0x7f), an Appendix-only one, a late Hello,
 *    in-thread dispatch, read by a simulated agent that applies the rule,
 *    so that each list shows what an agent takes and what it ignores; the
 *    warnings said; and conn_next_step()'s table.
 */
#define _GNU_SOURCE /* pipe2 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "connection.h"
#include "log.h"
#include "slots.h"
#include "wire.h"

/* every bit but CAP_EARLY_APPENDIX: our agents before it */
#define OLD_AGENT_CAPS (WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_EARLY_APPENDIX)

/* ------------------------------------------------------------ the agent's rule */

static struct wire_peer negotiated(uint32_t caps)
{
	struct wire_peer p;
	struct wire_hello h;

	wire_peer_init(&p);
	wire_hello_init(&h, caps, "test");
	assert_int_equal(wire_peer_accept_hello(&p, &h, WIRE_CAP_ALL), 0);
	return p;
}

static bool appendix_b(unsigned code)
{
	return code >= WIRE_CMD_REGISTER_METHOD && code <= WIRE_CMD_OPTIONAL_DATA;
}

/* Each Appendix B command before the first extension command is ignored,
 * whichever extension command comes first; none after it; each counted. */
static void test_window_ignores_appendix_b_until_the_first_extension_command(void **state)
{
	(void)state;
	struct wire_peer p = negotiated(WIRE_CAP_ALL);

	assert_int_equal(p.caps, WIRE_CAP_ALL);
	for (unsigned ext = WIRE_CMD_REGISTER; ext <= WIRE_CMD_REGISTER_SLOT; ext++) {
		struct wire_early_window w = { 0 };
		uint32_t n = 0;

		for (unsigned code = WIRE_CMD_REGISTER_METHOD; code <= WIRE_CMD_OPTIONAL_DATA; code++) {
			assert_true(wire_early_window_ignores(&w, &p, code));
			assert_int_equal(w.ignored, ++n);
		}
		assert_false(wire_early_window_ignores(&w, &p, ext));
		assert_true(w.closed);
		for (unsigned code = WIRE_CMD_REGISTER_METHOD; code <= WIRE_CMD_OPTIONAL_DATA; code++)
			assert_false(wire_early_window_ignores(&w, &p, code));
		assert_int_equal(w.ignored, 7);
	}
}

/* The Hello (it travels as 0x40) neither is ignored nor ends the window. */
static void test_window_hello_is_not_a_command_of_the_window(void **state)
{
	(void)state;
	struct wire_peer p = negotiated(WIRE_CAP_ALL);
	struct wire_early_window w = { 0 };

	assert_false(wire_early_window_ignores(&w, &p, WIRE_CMD_HELLO));
	assert_false(w.closed);
	assert_true(wire_early_window_ignores(&w, &p, WIRE_CMD_REGISTER_METHOD));
	assert_int_equal(w.ignored, 1);
}

/* Without the bit negotiated (no Hello: an Appendix-only bridge; a bridge
 * or an agent without it), nothing is ignored, before or after. */
static void test_window_without_the_bit_ignores_nothing(void **state)
{
	(void)state;
	struct wire_peer none, old = negotiated(OLD_AGENT_CAPS);

	wire_peer_init(&none);
	for (int i = 0; i < 2; i++) {
		const struct wire_peer *p = i ? &old : &none;
		struct wire_early_window w = { 0 };

		for (unsigned code = 0; code <= WIRE_CMD_HELLO; code++)
			assert_false(wire_early_window_ignores(&w, p, code));
		assert_int_equal(w.ignored, 0);
	}
}

/* Codes that are no command at all are not the window's business. */
static void test_window_only_appendix_b_codes(void **state)
{
	(void)state;
	struct wire_peer p = negotiated(WIRE_CAP_ALL);
	struct wire_early_window w = { 0 };
	unsigned n = 0;

	for (unsigned code = 0; code < WIRE_CMD_REGISTER; code++) {
		assert_int_equal(wire_early_window_ignores(&w, &p, code), appendix_b(code));
		n += appendix_b(code);
	}
	assert_int_equal(w.ignored, n);
	assert_false(w.closed);
}

/* The bit is negotiated like any (both Hellos), and never without
 * CAP_EXT_CMDS: nothing could close the window. */
static void test_negotiation_of_the_bit(void **state)
{
	(void)state;
	struct wire_peer p;
	struct wire_hello h;

	assert_int_equal(WIRE_CAP_EARLY_APPENDIX, 0x80);
	assert_int_equal(WIRE_CAP_ALL, 0x1FFFFF);
	assert_int_equal(negotiated(OLD_AGENT_CAPS).caps, OLD_AGENT_CAPS);
	assert_int_equal(negotiated(0x7F).caps, 0x7F);
	assert_int_equal(negotiated(WIRE_CAP_EARLY_APPENDIX | WIRE_CAP_EXT_CMDS).caps,
			 WIRE_CAP_EARLY_APPENDIX | WIRE_CAP_EXT_CMDS);
	assert_int_equal(negotiated(WIRE_CAP_EARLY_APPENDIX | WIRE_CAP_TRAILER).caps, WIRE_CAP_TRAILER);
	wire_peer_init(&p);
	wire_hello_init(&h, WIRE_CAP_ALL, "test");
	assert_int_equal(wire_peer_accept_hello(&p, &h, OLD_AGENT_CAPS), 0);
	assert_int_equal(p.caps, OLD_AGENT_CAPS);
}

/* ------------------------------------------------------------ the bridge's side */

static struct registry reg;
static struct slot_table slots;
static struct agent_conn conn;
static int agent_fd = -1, log_fd = -1, log_wfd = -1;

/* The agent at the other end of the socket: it answers the Hello (with
 * CAPS) or not (an Appendix-only agent), and applies the window's rule. */
static struct {
	bool answers;
	uint32_t caps;
	struct wire_peer peer;
	struct wire_early_window window;
	uint8_t buf[1 << 16];
	size_t len;
} agent;

static int setup(void **state)
{
	char err[256];
	int sv[2], lp[2];

	(void)state;
	registry_init(&reg);
	slots_init(&slots);
	/* -m Demo.add:enter -e '*:catch' --threads --vm --args --stack --sync=5000 */
	assert_int_equal(registry_add(&reg, WIRE_KIND_METHOD, WIRE_METHOD_ENTER, "Demo.add", err, sizeof err), 0);
	assert_int_equal(registry_add(&reg, WIRE_KIND_EXCEPTION, WIRE_EXCEPTION_CATCH, "*", err, sizeof err), 0);
	reg.families = EVENT_FAMILY_BIT(EVENT_FAMILY_THREADS) | EVENT_FAMILY_BIT(EVENT_FAMILY_VM);
	reg.opt_mask = WIRE_OPT_ARGUMENTS | WIRE_OPT_STACK;
	reg.sync = true;
	reg.sync_timeout_us = 5000;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe2(lp, O_NONBLOCK), 0);
	memset(&conn, 0, sizeof conn);
	conn.fd = sv[0];
	conn.jvm.pid = 4242;
	wire_peer_init(&conn.peer);
	agent_fd = sv[1];
	memset(&agent, 0, sizeof agent);
	wire_peer_init(&agent.peer);
	sj_log_open("t", lp[1], SJ_LOG_WARN);
	log_fd = lp[0];
	log_wfd = lp[1];
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	registry_free(&reg);
	close(conn.fd);
	close(agent_fd);
	sj_log_open("t", -1, SJ_LOG_WARN);
	close(log_fd);
	close(log_wfd);
	return 0;
}

static void describe(char *out, size_t cap, const struct wire_command *c)
{
	const char *name = wire_command_name(c->code);

	switch (c->code) {
	case WIRE_CMD_HELLO:
		snprintf(out, cap, "Hello caps=0x%02x", c->hello.caps);
		break;
	case WIRE_CMD_REGISTER_METHOD:
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION:
		snprintf(out, cap, "%s %.*s", name, (int)c->pattern.len, c->pattern.ptr);
		break;
	case WIRE_CMD_REGISTER:
		snprintf(out, cap, "%s %u 0x%x %.*s", name, c->kind, c->events, (int)c->pattern.len,
			 c->pattern.ptr);
		break;
	case WIRE_CMD_REGISTER_SLOT:
		snprintf(out, cap, "%s %u %u 0x%x %.*s", name, c->slot, c->kind, c->events,
			 (int)c->pattern.len, c->pattern.ptr);
		break;
	case WIRE_CMD_GC_EVENTS:
	case WIRE_CMD_THREAD_EVENTS:
	case WIRE_CMD_MONITOR_EVENTS:
	case WIRE_CMD_VM_EVENTS:
		snprintf(out, cap, "%s %s", name, c->enable ? "on" : "off");
		break;
	case WIRE_CMD_OPTIONAL_DATA:
		snprintf(out, cap, "%s 0x%x", name, c->mask);
		break;
	case WIRE_CMD_DISPATCH_MODE:
		snprintf(out, cap, "%s %u %u", name, c->mode, c->timeout_us);
		break;
	case WIRE_CMD_FIRE_IN_THREAD:
		snprintf(out, cap, "%s %u", name, c->session);
		break;
	default:
		snprintf(out, cap, "%s", name);
	}
}

/* What the agent has received since the last call, one line per command,
 * " (ignored)" after those it ignores. */
static const char *received(void)
{
	static char out[8192];
	size_t at = 0, used;
	ssize_t n;

	out[0] = '\0';
	while ((n = recv(agent_fd, agent.buf + agent.len, sizeof agent.buf - agent.len, MSG_DONTWAIT)) > 0)
		agent.len += (size_t)n;
	for (size_t off = 0; off < agent.len; off += used) {
		struct wire_command cmd;
		struct wire_error err;
		char line[512];
		bool ignored = false;

		assert_int_equal(wire_decode_command(&agent.peer, agent.buf + off, agent.len - off, &cmd,
						     &used, &err), 0);
		if (cmd.code == WIRE_CMD_HELLO && agent.answers)
			assert_int_equal(wire_peer_accept_hello(&agent.peer, &cmd.hello, agent.caps), 0);
		else
			ignored = wire_early_window_ignores(&agent.window, &agent.peer, cmd.code);
		describe(line, sizeof line, &cmd);
		at += (size_t)snprintf(out + at, sizeof out - at, "%s%s\n", line, ignored ? " (ignored)" : "");
	}
	agent.len = 0;
	return out;
}

/* The agent's Hello reaches the bridge. */
static void agent_hello(void)
{
	struct wire_hello h;

	wire_hello_init(&h, agent.caps, "test agent");
	assert_int_equal(wire_peer_accept_hello(&conn.peer, &h, CONN_OUR_CAPS), 0);
}

/* The warnings said since the last call, without "t[PID]: ". */
static const char *warnings(void)
{
	static char out[4096];
	char raw[4096], prefix[32];
	ssize_t n = read(log_fd, raw, sizeof raw - 1);
	size_t at = 0, plen = (size_t)snprintf(prefix, sizeof prefix, "t[%ld]: ", (long)getpid());

	raw[n > 0 ? n : 0] = '\0';
	out[0] = '\0';
	for (char *line = raw, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		assert_memory_equal(line, prefix, plen);
		at += (size_t)snprintf(out + at, sizeof out - at, "%.*s", (int)(nl + 1 - line - plen), line + plen);
	}
	return out;
}

static const char *const EARLY_FOR_NEW =
	"Hello caps=0x1fffff\n"
	"RequestForOptionalData 0x1 (ignored)\n"
	"RegisterMethod Demo.add (ignored)\n"
	"RegisterException * (ignored)\n"
	"ThreadEvents on (ignored)\n";

static const char *const EARLY_APPLIED =
	"Hello caps=0x1fffff\n"
	"RequestForOptionalData 0x1\n"
	"RegisterMethod Demo.add\n"
	"RegisterException *\n"
	"ThreadEvents on\n";

static const char *const EXTENSION_REGISTRATION =
	"VmEvents on\n"
	"RequestForOptionalData 0x5\n"
	"DispatchMode 1 5000\n"
	"Register 1 0x1 Demo.add\n"
	"Register 3 0x2 *\n"
	"ThreadEvents on\n"
	"Start\n";

static const char *const APPENDIX_ONLY_WARNINGS =
	"warn: pid 4242: the agent cannot send stack traces\n"
	"warn: pid 4242: the agent cannot dispatch synchronously: events stay asynchronous\n"
	"warn: pid 4242: the agent has no VM events (no extension commands)\n";

/* One session with REG: an agent that ANSWERS our Hello (with CAPS) or not
 * receives EARLY with it; once the bridge knows what the agent is,
 * conn_next_step() says NEXT, the agent receives AFTER and the bridge has
 * warned WARNED. */
static void session(bool answers, uint32_t caps, const char *early, enum conn_next next,
		    const char *after, const char *warned)
{
	agent.answers = answers;
	agent.caps = caps;
	assert_int_equal(conn_send_hello(&conn, &reg), 0);
	assert_true(conn.appendix_sent);
	assert_string_equal(received(), early);
	assert_string_equal(warnings(), "");
	if (answers)
		agent_hello();
	assert_int_equal(conn_next_step(&conn), next);
	assert_int_equal(conn_send_registrations(&conn, &reg, NULL), 0);
	assert_string_equal(received(), after);
	assert_string_equal(warnings(), warned);
}

/* Our agent: it ignores what went with our Hello, and gets its extension
 * registration once, without a Reset; nothing to warn about. */
static void test_bridge_new_agent(void **state)
{
	(void)state;
	session(true, WIRE_CAP_ALL, EARLY_FOR_NEW, CONN_NEXT_REGISTER, EXTENSION_REGISTRATION, "");
}

/* An agent before the bit applied the Appendix B registration: Reset
 * first, so that nothing stays registered twice. */
static void test_bridge_old_agent_gets_reset_first(void **state)
{
	(void)state;
	char want[2048];

	snprintf(want, sizeof want, "Reset\n%s", EXTENSION_REGISTRATION);
	session(true, OLD_AGENT_CAPS, EARLY_APPLIED, CONN_NEXT_RESET_REGISTER, want, "");
}

/* An Appendix-only agent has everything with our Hello: when the bridge
 * finds out (the timeout, or its first event) nothing more is sent, and
 * the warnings are those of an agent without capabilities. */
static void test_bridge_appendix_only_gets_nothing_more(void **state)
{
	(void)state;
	session(false, 0, EARLY_APPLIED, CONN_NEXT_NOTHING, "", APPENDIX_ONLY_WARNINGS);
}

/* An agent that says Hello but has no extension commands applied the
 * Appendix B registration and cannot be told to drop it: it stays. */
static void test_bridge_hello_without_extension_commands(void **state)
{
	(void)state;
	session(true, WIRE_CAP_TRAILER | WIRE_CAP_EXT_EVENTS, EARLY_APPLIED, CONN_NEXT_NOTHING, "",
		APPENDIX_ONLY_WARNINGS);
}

/* Our agent, slow to answer: the bridge gave up waiting, then its Hello
 * came. It ignored the Appendix B registration, so it gets its own then. */
static void test_bridge_late_hello_of_a_new_agent(void **state)
{
	(void)state;
	agent.answers = true;
	agent.caps = WIRE_CAP_ALL;
	assert_int_equal(conn_send_hello(&conn, &reg), 0);
	assert_string_equal(received(), EARLY_FOR_NEW);
	assert_int_equal(conn_send_registrations(&conn, &reg, NULL), 0); /* the timeout */
	assert_string_equal(received(), "");
	assert_string_equal(warnings(), APPENDIX_ONLY_WARNINGS);
	agent_hello();
	assert_int_equal(conn_send_registrations(&conn, &reg, NULL), 0);
	assert_string_equal(received(), EXTENSION_REGISTRATION);
	assert_string_equal(warnings(), "");
}

/* In-thread dispatch: nothing goes with the Hello (an Appendix-only agent
 * cannot do it), so there is nothing to ignore or reset. */
static void test_bridge_in_thread(void **state)
{
	(void)state;
	char err[256];
	struct registry r;
	const struct conn_in_thread it = { &slots, 7 };

	registry_init(&r);
	assert_int_equal(slots_add(&slots, &r, "3:method.enter:Demo.add", err, sizeof err), 0);
	r.families = EVENT_FAMILY_BIT(EVENT_FAMILY_GC);
	agent.answers = true;
	agent.caps = OLD_AGENT_CAPS;
	assert_int_equal(conn_send_hello(&conn, NULL), 0);
	assert_false(conn.appendix_sent);
	assert_string_equal(received(), "Hello caps=0x1fffff\n");
	agent_hello();
	assert_int_equal(conn_next_step(&conn), CONN_NEXT_REGISTER);
	assert_int_equal(conn_send_registrations(&conn, &r, &it), 0);
	assert_string_equal(received(), "FireInThread 7\n"
					"VmEvents on\n"
					"RegisterSlot 3 1 0x1 Demo.add\n"
					"GcEvents on\n"
					"Start\n");
	registry_free(&r);
}

static void test_bridge_in_thread_appendix_only_is_refused(void **state)
{
	(void)state;
	const struct conn_in_thread it = { &slots, 7 };

	assert_int_equal(conn_send_hello(&conn, NULL), 0);
	assert_int_equal(conn_next_step(&conn), CONN_NEXT_REGISTER);
	assert_int_equal(conn_send_registrations(&conn, &reg, &it), -EPROTONOSUPPORT);
	assert_string_equal(received(), "Hello caps=0x1fffff\n");
	assert_string_equal(warnings(), "warn: pid 4242: the agent cannot fire markers in the Java thread "
					"(an Appendix-only agent): no event of this JVM reaches the script; "
					"update its agent, or run stap-java with --java-async\n");
}

/* Only --vm: an Appendix-only agent can take nothing of it, so nothing
 * goes with the Hello, and an older agent needs no Reset. */
static void test_bridge_nothing_for_appendix_only(void **state)
{
	(void)state;
	struct registry r;

	registry_init(&r);
	r.families = EVENT_FAMILY_BIT(EVENT_FAMILY_VM);
	agent.answers = true;
	agent.caps = OLD_AGENT_CAPS;
	assert_int_equal(conn_send_hello(&conn, &r), 0);
	assert_false(conn.appendix_sent);
	assert_string_equal(received(), "Hello caps=0x1fffff\n");
	agent_hello();
	assert_int_equal(conn_send_registrations(&conn, &r, NULL), 0);
	assert_string_equal(received(), "VmEvents on\nStart\n");
}

/* conn_next_step's whole table. */
static void test_next_step_table(void **state)
{
	(void)state;
	static const struct {
		bool hello, appendix_sent;
		uint32_t caps;
		enum conn_next want;
	} rows[] = {
		{ false, false, 0, CONN_NEXT_REGISTER },
		{ false, true, 0, CONN_NEXT_NOTHING },
		{ true, false, WIRE_CAP_ALL, CONN_NEXT_REGISTER },
		{ true, false, OLD_AGENT_CAPS, CONN_NEXT_REGISTER },
		{ true, false, WIRE_CAP_TRAILER, CONN_NEXT_REGISTER },
		{ true, true, WIRE_CAP_ALL, CONN_NEXT_REGISTER },
		{ true, true, WIRE_CAP_EARLY_APPENDIX | WIRE_CAP_EXT_CMDS, CONN_NEXT_REGISTER },
		{ true, true, OLD_AGENT_CAPS, CONN_NEXT_RESET_REGISTER },
		{ true, true, WIRE_CAP_EXT_CMDS, CONN_NEXT_RESET_REGISTER },
		{ true, true, WIRE_CAP_TRAILER, CONN_NEXT_NOTHING },
	};

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct agent_conn c = { .appendix_sent = rows[i].appendix_sent };

		wire_peer_init(&c.peer);
		if (rows[i].hello) {
			struct wire_hello h;

			wire_hello_init(&h, rows[i].caps, "row");
			assert_int_equal(wire_peer_accept_hello(&c.peer, &h, CONN_OUR_CAPS), 0);
		}
		if (conn_next_step(&c) != rows[i].want)
			fail_msg("row %zu: %d, want %d", i, conn_next_step(&c), rows[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_ignores_appendix_b_until_the_first_extension_command),
		cmocka_unit_test(test_window_hello_is_not_a_command_of_the_window),
		cmocka_unit_test(test_window_without_the_bit_ignores_nothing),
		cmocka_unit_test(test_window_only_appendix_b_codes),
		cmocka_unit_test(test_negotiation_of_the_bit),
		cmocka_unit_test_setup_teardown(test_bridge_new_agent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_old_agent_gets_reset_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_appendix_only_gets_nothing_more, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_late_hello_of_a_new_agent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_in_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_in_thread_appendix_only_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_nothing_for_appendix_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bridge_hello_without_extension_commands, setup, teardown),
		cmocka_unit_test(test_next_step_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
