/* roguebridge.c: a hostile bridge, for testsuite/agent.bats (issue 16 §9).
 *
 *   roguebridge SOCKET CASE...   each CASE on a connection of its own
 *   roguebridge --list           the catalogue, one case a line
 *
 * It connects to a real agent's socket and sends what a broken or hostile
 * bridge would: bad lengths, unknown codes, messages cut short, no Hello or
 * a second one, floods of registrations and Acks, Resets in a loop, bytes
 * one at a time, garbage after a Reset and writes after the agent closed.
 * A case that begins with a well-formed Hello sends the rest once the
 * agent's Hello has come (the agent may close at once after the rest, its
 * answer unsent). A case the agent must refuse then waits (15 s at most)
 * for the agent to close the connection; a case it must take ends our side
 * (shutdown) and waits for the agent's close. For each case one line on
 * stdout:
 *
 *   CASE: [hello, ][notice "TEXT", ][N events, ]closed by the agent|closed after our end
 *
 * then, for garbage-after-close, what writing after the close gave. Any
 * other outcome ("still open after 15000 ms") makes the exit status 1. The
 * test compares these lines and the agent's log with what they must be.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"
#include "wire_bytes.h"

#define CLOSE_WAIT_MS 15000
#define FLOOD_REGS    20000   /* past the agent's 16384 a connection */
#define ACK_FLOOD     200000  /* 1.8 MB of Acks for events never sent */
#define RESET_ROUNDS  1000

/* What is being sent: grown as needed. HELLO_END: where a well-formed Hello
 * that begins it ends (0: none); the rest waits for the agent's answer, so
 * that what the agent does next cannot drop it. */
static uint8_t *out;
static size_t out_len, out_cap, hello_end;

static void die(const char *what)
{
	fprintf(stderr, "roguebridge: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void put(const void *p, size_t n)
{
	if (out_len + n > out_cap) {
		out_cap = (out_len + n) * 2;
		if (!(out = realloc(out, out_cap)))
			die("realloc");
	}
	memcpy(out + out_len, p, n);
	out_len += n;
}

static void put_command(const struct wire_command *c)
{
	uint8_t data[WIRE_MAX_STRING + 64];
	struct wire_buf b = { data, sizeof data, 0 };

	if (wire_encode_command(&b, c) < 0) {
		errno = EINVAL;
		die("encode");
	}
	put(b.data, b.len);
}

static void put_hello(void)
{
	struct wire_command c = { .code = WIRE_CMD_HELLO };

	wire_hello_init(&c.hello, WIRE_CAP_ALL, "roguebridge");
	c.hello.pid = (uint32_t)getpid();
	bool first = out_len == 0;

	put_command(&c);
	if (first)
		hello_end = out_len;
}

static void put_code(unsigned code)
{
	put_command(&(struct wire_command){ .code = code });
}

static void put_register(const char *pattern, size_t len)
{
	struct wire_command c = { .code = WIRE_CMD_REGISTER, .kind = WIRE_KIND_METHOD,
				  .events = WIRE_METHOD_ENTER };

	c.pattern = (struct wire_str){ pattern, (uint32_t)len };
	put_command(&c);
}

static void put_bytes(const char *hex)
{
	for (; hex[0] && hex[1]; hex += 2) {
		unsigned v;
		sscanf(hex, "%2x", &v);
		uint8_t byte = (uint8_t)v;
		put(&byte, 1);
	}
}

/* ------------------------------------------------------------ the catalogue */

static void case_unknown_code(void) { put_hello(); put_bytes("7e000000"); }
/* a RegisterMethod whose pattern claims 4 GiB */
static void case_bad_length(void) { put_hello(); put_bytes("40ffffffff41"); }
static void case_long_pattern(void)
{
	static char pattern[5000];

	memset(pattern, 'p', sizeof pattern);
	put_hello();
	put_register(pattern, sizeof pattern);
}
/* a Register's code and kind, then our end */
static void case_truncated(void) { put_hello(); put_bytes("5001"); }
static void case_no_hello_extension(void) { put_register("Demo.*", 6); }
static void case_second_hello(void) { put_hello(); put_hello(); }
/* the version, after the code, the length, the prefix and the order: 0 is
 * malformed (any later one is taken: PROTOCOL.md, Versions) */
static void case_hello_version_0(void)
{
	size_t at = 1 + 4 + WIRE_BRIDGE_HELLO_PREFIX_LEN + 1;

	put_hello();
	out[at] = 0;
	out[at + 1] = 0;
	hello_end = 0;
}
static void case_hello_bad_order(void)
{
	put_hello();
	out[1 + 4 + WIRE_BRIDGE_HELLO_PREFIX_LEN] = 0x07;
	hello_end = 0;
}
static void case_bad_kind(void) { put_hello(); put_bytes("5009010100000041"); }
static void case_flood(void)
{
	char pattern[64];

	put_hello();
	for (int i = 0; i < FLOOD_REGS; i++)
		put_register(pattern, (size_t)snprintf(pattern, sizeof pattern, "rogue.C%d.m%d", i / 16, i % 16));
}
static void case_reset_churn(void)
{
	put_hello();
	for (int i = 0; i < RESET_ROUNDS; i++) {
		put_register("Rounds.tick", 11);
		put_code(WIRE_CMD_START);
		put_code(WIRE_CMD_RESET);
	}
}
static void case_ack_flood(void)
{
	put_hello();
	for (uint64_t i = 0; i < ACK_FLOOD; i++)
		put_command(&(struct wire_command){ .code = WIRE_CMD_ACK, .seq = 1000000 + i });
}
static void case_garbage_after_reset(void)
{
	put_hello();
	put_register("Rounds.tick", 11);
	put_code(WIRE_CMD_RESET);
	put_bytes("ffffffff");
}
/* well-formed, one byte per write */
static void case_dribble(void)
{
	put_hello();
	put_register("Rounds.tick", 11);
	put_code(WIRE_CMD_START);
}
static void case_bad_dispatch(void) { put_hello(); put_bytes("540700000000"); }
static void case_bad_slot(void) { put_hello(); put_bytes("580101ffff0100000041"); }
/* a JfrEvent announcing 1 field whose text "ab" holds no NUL */
static void case_bad_jfr_event(void)
{
	put_hello();
	put_bytes("5b" "0000000000000000" "0000000000000000" "0000000000000000" "0000000000000000"
		  "00000000" "00000000" "0100" "02000000" "6162");
}

struct rogue_case {
	const char *name;
	void (*build)(void);
	bool refused;       /* the agent must close the connection */
	bool dribble;       /* one byte per write */
	bool write_after;   /* write again once the agent has closed */
};

static const struct rogue_case cases[] = {
	{ "unknown-code", case_unknown_code, true, false, false },
	{ "bad-length", case_bad_length, true, false, false },
	{ "long-pattern", case_long_pattern, true, false, false },
	{ "truncated", case_truncated, false, false, false },
	{ "no-hello-extension", case_no_hello_extension, true, false, false },
	{ "second-hello", case_second_hello, true, false, false },
	{ "hello-version-0", case_hello_version_0, true, false, false },
	{ "hello-bad-order", case_hello_bad_order, true, false, false },
	{ "bad-kind", case_bad_kind, true, false, false },
	{ "bad-dispatch", case_bad_dispatch, true, false, false },
	{ "bad-slot", case_bad_slot, true, false, false },
	{ "bad-jfr-event", case_bad_jfr_event, true, false, false },
	{ "flood", case_flood, true, false, false },
	{ "reset-churn", case_reset_churn, false, false, false },
	{ "ack-flood", case_ack_flood, false, false, false },
	{ "garbage-after-reset", case_garbage_after_reset, true, false, true },
	{ "dribble", case_dribble, false, true, false },
};

/* ------------------------------------------------------------ running a case */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof a.sun_path)
		die("socket");
	memcpy(a.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0)
		die(path);
	return fd;
}

enum outcome { CLOSED, GOT_HELLO, TIMED_OUT };

/* What the agent sends, decoded, until it closes, or with UNTIL_HELLO until
 * its Hello has come, or time is up. */
static enum outcome read_events(int fd, struct wire_peer *peer, struct wire_reader *r, bool until_hello,
				char *said, size_t cap, unsigned long *events)
{
	uint64_t until = now_ms() + CLOSE_WAIT_MS;
	size_t used_said = strlen(said);

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ms();

		if (now >= until || poll(&p, 1, (int)(until - now)) == 0)
			return TIMED_OUT;
		long n = wire_reader_fill(r, fd);
		if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR))
			return CLOSED;
		for (;;) {
			static struct wire_event ev;
			struct wire_error err;
			size_t len, used;
			const uint8_t *d = wire_reader_data(r, &len);
			int rc;

			if (!len)
				break;
			rc = wire_decode_event(peer, d, len, &ev, &used, &err);
			if (rc == -EAGAIN)
				break;
			if (rc < 0) {
				used_said += (size_t)snprintf(said + used_said, cap - used_said,
							     "undecodable: %s, ", err.text);
				wire_reader_consume(r, len);
				break;
			}
			if (ev.code == WIRE_EV_HELLO) {
				wire_peer_accept_hello(peer, &ev.hello, WIRE_CAP_ALL);
				used_said += (size_t)snprintf(said + used_said, cap - used_said, "hello, ");
			} else if (ev.code == WIRE_EV_NOTICE) {
				used_said += (size_t)snprintf(said + used_said, cap - used_said,
							     "notice \"%.*s\", ", (int)ev.name.len,
							     ev.name.ptr);
			} else
				(*events)++;
			if (used_said >= cap)
				used_said = cap - 1;
			wire_reader_consume(r, used);
			if (until_hello && ev.code == WIRE_EV_HELLO)
				return GOT_HELLO;
		}
	}
}

/* Send OUT[FROM, TO), one byte per send with DRIBBLE: false when the agent
 * has closed the connection already. */
static bool send_out(int fd, size_t from, size_t to, bool dribble)
{
	for (size_t off = from; off < to;) {
		ssize_t w = send(fd, out + off, dribble ? 1 : to - off, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EPIPE || errno == ECONNRESET)
				return false;
			die("send");
		}
		off += (size_t)w;
	}
	return true;
}

static int run_case(const char *sock, const struct rogue_case *c)
{
	static struct wire_reader r;
	struct wire_peer peer;
	char said[2048] = "";
	unsigned long events = 0;
	enum outcome got = GOT_HELLO; /* without a Hello, nothing to wait for */
	int fd = connect_to(sock);

	if (!r.cap && wire_reader_init(&r, 2 * WIRE_MAX_MESSAGE) < 0)
		die("reader");
	r.start = r.end = 0;
	wire_peer_init(&peer);
	out_len = hello_end = 0;
	c->build();
	/* a well-formed Hello first, the rest once the agent has answered: what
	 * the agent does with the rest cannot drop its answer */
	if (hello_end)
		got = send_out(fd, 0, hello_end, c->dribble)
			      ? read_events(fd, &peer, &r, true, said, sizeof said, &events) : CLOSED;
	if (got == GOT_HELLO) {
		if (send_out(fd, hello_end, out_len, c->dribble) && !c->refused)
			shutdown(fd, SHUT_WR);
		got = read_events(fd, &peer, &r, false, said, sizeof said, &events);
	}
	if (events)
		snprintf(said + strlen(said), sizeof said - strlen(said), "%lu events, ", events);
	if (got != CLOSED) {
		printf("%s: %sstill open after %u ms\n", c->name, said, CLOSE_WAIT_MS);
		close(fd);
		return 1;
	}
	printf("%s: %s%s\n", c->name, said, c->refused ? "closed by the agent" : "closed after our end");
	if (c->write_after) {
		ssize_t w = send(fd, "\xff\xff\xff\xff", 4, MSG_NOSIGNAL);

		printf("%s: a write after the close: %s\n", c->name, w < 0 ? strerror(errno) : "taken");
	}
	fflush(stdout);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	size_t ncases = sizeof cases / sizeof cases[0];
	int bad = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < ncases; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: roguebridge SOCKET CASE... | --list\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int a = 2; a < argc; a++) {
		size_t i;

		for (i = 0; i < ncases && strcmp(cases[i].name, argv[a]) != 0; i++)
			;
		if (i == ncases) {
			fprintf(stderr, "roguebridge: no case '%s' (--list)\n", argv[a]);
			return 2;
		}
		bad |= run_case(argv[1], &cases[i]);
	}
	return bad;
}
