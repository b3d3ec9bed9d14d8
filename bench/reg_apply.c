/* reg_apply.c: bench-reg-apply, what a burst of registrations from one
 * session costs an agent, its JVM and another session (issue 16 §1).
 *
 *   bench-reg-apply --socket PATH [--count N[,N...]] [--shape literal|wildcard]
 *                   [--rate-method M] [--probe-method M] [--before-ms MS]
 *                   [--window-ms MS]
 *
 * It is two peers of a real agent (PATH: its socket). Session A registers
 * method.enter of --rate-method (default Workload.cold, once per 1000
 * iterations of bench/java/Workload) and counts its events by the JVM's own
 * timestamps (the trailer's): the workload's rate. After --before-ms
 * (default 2000) of A's events, for each N of --count (default 10000),
 * session B connects, says Hello, and sends in one write N distinct
 * registrations (--shape literal: method patterns naming methods of
 * classes that are not loaded, bench.flood.C<i/16>.m<i%16>(I)V; wildcard:
 * bench.flood.C<i>.*), then method.enter of --probe-method (default
 * Workload.cold) and Start. B's first event is the probe's: its timestamp
 * is when the last registration was live. (The probe is what A has
 * already: a registration that needs new calls in the workload's class
 * retransforms it, and the recompilation that follows would be counted
 * against the registrations.) An agent that refuses B (a
 * limit) sends a Notice and closes: that time is taken instead.
 *
 * RESULT lines per N (stdout; notes on stderr start with "#"):
 *   reg_apply_ms_N        write of B's burst -> probe live (or B closed)
 *   reg_refused_N         1 when the agent refused B (its Notice on stderr)
 *   reg_done_N            0 when B was neither live nor refused after 600 s
 *   reg_rate_ratio_N      A's events per second while B's burst is applied
 *                         (from the write to the probe's first event, at
 *                         least --window-ms, default 1000) over the rate in
 *                         the --before-ms before the write: the workload's
 *                         rate, as the JVM's timestamps count it
 *   reg_a_max_gap_ms_N    the longest time A waited between two reads that
 *                         brought events, from the write until B is done
 *                         (B's events never delay A's)
 *   reg_a_lost_N          A's Lost total at the end (events it never got)
 * B says Reset and closes before the next N; A stays.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"
#include "monoclock.h"

struct peer {
	int fd;
	struct wire_peer wp;
	struct wire_reader rd;
	bool hello, closed;
	uint8_t *out;          /* bytes still to send */
	size_t out_len, out_off, out_cap;
};

static const char *sock_path;
static struct wire_event ev;
/* A's event timestamps (JVM clock, ns), in arrival order */
static uint64_t *a_ts;
static size_t a_n, a_cap;
static uint64_t a_lost, a_last_read_ns, a_max_gap_ns;
static bool a_gap_on;

static __attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench-reg-apply: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Append CMD to P's pending output (sent from the poll loop). */
static void queue_cmd(struct peer *p, const struct wire_command *cmd)
{
	uint8_t one[8192];
	struct wire_buf b = { one, sizeof one, 0 };

	if (wire_encode_command(&b, cmd) < 0)
		die("cannot encode %s", wire_command_name(cmd->code));
	if (p->out_len + b.len > p->out_cap) {
		p->out_cap = (p->out_len + b.len) * 2 + 4096;
		p->out = realloc(p->out, p->out_cap);
		if (!p->out)
			die("out of memory");
	}
	memcpy(p->out + p->out_len, one, b.len);
	p->out_len += b.len;
}

static void peer_open(struct peer *p)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct wire_command h;

	memset(p, 0, sizeof *p);
	if (strlen(sock_path) >= sizeof sa.sun_path)
		die("socket path too long");
	strcpy(sa.sun_path, sock_path);
	p->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (p->fd < 0 || connect(p->fd, (struct sockaddr *)&sa, sizeof sa) < 0)
		die("connect %s: %s", sock_path, strerror(errno));
	wire_peer_init(&p->wp);
	if (wire_reader_init(&p->rd, WIRE_MAX_MESSAGE + 4096) < 0)
		die("out of memory");
	memset(&h, 0, sizeof h);
	h.code = WIRE_CMD_HELLO;
	wire_hello_init(&h.hello, WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_EARLY_APPENDIX, "bench-reg-apply");
	queue_cmd(p, &h);
}

static void peer_close(struct peer *p)
{
	close(p->fd);
	wire_reader_free(&p->rd);
	free(p->out);
	memset(p, 0, sizeof *p);
	p->fd = -1;
}

static void send_some(struct peer *p)
{
	while (p->out_off < p->out_len) {
		ssize_t w = send(p->fd, p->out + p->out_off, p->out_len - p->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p->out_off += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		p->closed = true;   /* the agent hung up on us: reading says why */
		return;
	}
	p->out_off = p->out_len = 0;
}

static void registration(struct peer *p, uint8_t events, const char *pattern)
{
	struct wire_command c;

	memset(&c, 0, sizeof c);
	c.code = WIRE_CMD_REGISTER;
	c.kind = WIRE_KIND_METHOD;
	c.events = events;
	c.pattern = (struct wire_str){ pattern, (uint32_t)strlen(pattern) };
	queue_cmd(p, &c);
}

static void simple(struct peer *p, unsigned code)
{
	struct wire_command c;

	memset(&c, 0, sizeof c);
	c.code = code;
	queue_cmd(p, &c);
}

/* What one event of P means; B_FIRST: B's first event's timestamp. */
static void on_event(struct peer *p, bool is_a, uint64_t *b_first)
{
	if (ev.code == WIRE_EV_HELLO) {
		if (wire_peer_accept_hello(&p->wp, &ev.hello, WIRE_CAP_ALL) < 0)
			die("bad Hello from the agent");
		p->hello = true;
		return;
	}
	if (ev.code == WIRE_EV_NOTICE) {
		fprintf(stderr, "# notice to session %s: %.*s\n", is_a ? "A" : "B", (int)ev.name.len,
			ev.name.ptr);
		return;
	}
	if (ev.code == WIRE_EV_LOST) {
		if (is_a)
			a_lost = ev.lost;
		return;
	}
	if (!is_a) {
		if (!*b_first && ev.code == WIRE_EV_METHOD_ENTER)
			*b_first = ev.trailer.timestamp_ns;
		return;
	}
	if (ev.code != WIRE_EV_METHOD_ENTER)
		return;
	if (a_n == a_cap) {
		a_cap = a_cap ? 2 * a_cap : 65536;
		a_ts = realloc(a_ts, a_cap * sizeof *a_ts);
		if (!a_ts)
			die("out of memory");
	}
	a_ts[a_n++] = ev.trailer.timestamp_ns;
}

/* Read what P has; false once it is closed. */
static bool read_peer(struct peer *p, bool is_a, uint64_t *b_first)
{
	for (;;) {
		long n = wire_reader_fill(&p->rd, p->fd);
		if (n == -EAGAIN)
			return true;
		if (n <= 0)
			return false;
		size_t before = a_n;
		for (;;) {
			size_t len, used;
			const uint8_t *d = wire_reader_data(&p->rd, &len);
			struct wire_error err;
			int rc = len ? wire_decode_event(&p->wp, d, len, &ev, &used, &err) : -EAGAIN;
			if (rc == -EAGAIN)
				break;
			if (rc < 0)
				die("malformed event: %s", err.text);
			on_event(p, is_a, b_first);
			wire_reader_consume(&p->rd, used);
		}
		if (is_a && a_n > before) {
			uint64_t t = monotonic_ns();
			if (a_gap_on && a_last_read_ns && t - a_last_read_ns > a_max_gap_ns)
				a_max_gap_ns = t - a_last_read_ns;
			a_last_read_ns = t;
		}
	}
}

/* Serve A and B (B may be NULL) until DONE(ctx) or DEADLINE. */
static void pump(struct peer *a, struct peer *b, uint64_t *b_first, uint64_t deadline,
		 bool (*done)(struct peer *b, uint64_t b_first))
{
	while (monotonic_ns() < deadline && !(done && done(b, *b_first))) {
		struct pollfd fds[2] = { { .fd = a->fd, .events = POLLIN } };
		nfds_t n = 1;

		if (a->out_len)
			fds[0].events |= POLLOUT;
		if (b && !b->closed) {
			fds[1] = (struct pollfd){ .fd = b->fd, .events = POLLIN | (b->out_len ? POLLOUT : 0) };
			n = 2;
		}
		poll(fds, n, 20);
		if (a->out_len)
			send_some(a);
		if (!read_peer(a, true, b_first))
			die("the agent closed session A");
		if (b && !b->closed) {
			if (b->out_len)
				send_some(b);
			if (!read_peer(b, false, b_first))
				b->closed = true;
		}
	}
}

static bool hello_came(struct peer *b, uint64_t unused)
{
	(void)unused;
	return b->hello;
}

static bool b_done(struct peer *b, uint64_t b_first)
{
	return b_first || b->closed;
}

static size_t count_between(uint64_t from, uint64_t to)
{
	size_t n = 0;

	for (size_t i = 0; i < a_n; i++)
		n += a_ts[i] >= from && a_ts[i] < to;
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' }, { "count", required_argument, NULL, 'n' },
		{ "shape", required_argument, NULL, 'S' }, { "rate-method", required_argument, NULL, 'r' },
		{ "probe-method", required_argument, NULL, 'p' },
		{ "before-ms", required_argument, NULL, 'b' }, { "window-ms", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	const char *counts = "10000", *shape = "literal", *rate_method = "Workload.cold",
		   *probe_method = "Workload.cold";
	unsigned before_ms = 2000, window_ms = 1000;
	struct peer a, b;
	uint64_t none = 0;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': sock_path = optarg; break;
		case 'n': counts = optarg; break;
		case 'S': shape = optarg; break;
		case 'r': rate_method = optarg; break;
		case 'p': probe_method = optarg; break;
		case 'b': before_ms = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'w': window_ms = (unsigned)strtoul(optarg, NULL, 0); break;
		default: die("usage: bench-reg-apply --socket PATH [--count N[,N...]] [--shape literal|wildcard] ...");
		}
	}
	if (!sock_path)
		die("--socket PATH is required");
	if (strcmp(shape, "literal") != 0 && strcmp(shape, "wildcard") != 0)
		die("--shape: literal or wildcard, not '%s'", shape);
	setvbuf(stdout, NULL, _IOLBF, 0);
	peer_open(&a);
	pump(&a, NULL, &none, monotonic_ns() + 10000000000ull, NULL);   /* its Hello */
	if (!a.hello)
		die("no Hello from the agent on session A");
	registration(&a, WIRE_METHOD_ENTER, rate_method);
	simple(&a, WIRE_CMD_START);
	/* A's rate settles (the registration's own update) before it is the baseline */
	pump(&a, NULL, &none, monotonic_ns() + 1000000000ull + (uint64_t)before_ms * 1000000u, NULL);
	if (!a_n)
		die("no event of %s on session A: is the workload running?", rate_method);
	for (const char *p = counts; *p;) {
		unsigned long n = strtoul(p, (char **)&p, 10);
		uint64_t b_first = 0, t_write, t_end;
		char pat[128];

		if (*p == ',')
			p++;
		peer_open(&b);
		pump(&a, &b, &b_first, monotonic_ns() + 10000000000ull, hello_came);
		if (!b.hello)
			die("no Hello from the agent on session B");
		for (unsigned long i = 0; i < n; i++) {
			if (shape[0] == 'l')
				snprintf(pat, sizeof pat, "bench.flood.C%lu.m%lu(I)V", i / 16, i % 16);
			else
				snprintf(pat, sizeof pat, "bench.flood.C%lu.*", i);
			registration(&b, WIRE_METHOD_ENTER, pat);
		}
		registration(&b, WIRE_METHOD_ENTER, probe_method);
		simple(&b, WIRE_CMD_START);
		a_max_gap_ns = 0;
		a_gap_on = true;
		t_write = monotonic_ns();
		send_some(&b);
		pump(&a, &b, &b_first, t_write + 600000000000ull, b_done);
		t_end = b_first ? b_first : monotonic_ns();
		a_gap_on = false;
		/* the rest of the window: A's rate after the burst too */
		uint64_t w_end = t_end > t_write + (uint64_t)window_ms * 1000000u
				 ? t_end : t_write + (uint64_t)window_ms * 1000000u;
		bool refused = !b_first && b.closed, done = b_first || b.closed;
		simple(&b, WIRE_CMD_RESET);
		send_some(&b);
		peer_close(&b);
		pump(&a, NULL, &none, w_end + 200000000ull, NULL);
		double before = (double)count_between(t_write - (uint64_t)before_ms * 1000000u, t_write) /
				((double)before_ms / 1000.0);
		double during = (double)count_between(t_write, w_end) / ((double)(w_end - t_write) / 1e9);
		printf("RESULT reg_apply_ms_%lu %.1f ms\n", n, (double)(t_end - t_write) / 1e6);
		printf("RESULT reg_refused_%lu %d\n", n, refused);
		printf("RESULT reg_done_%lu %d\n", n, done);
		printf("RESULT reg_rate_ratio_%lu %.3f\n", n, before > 0 ? during / before : 0.0);
		printf("RESULT reg_a_max_gap_ms_%lu %.1f ms\n", n, (double)a_max_gap_ns / 1e6);
		printf("RESULT reg_a_lost_%lu %" PRIu64 "\n", n, a_lost);
		fprintf(stderr, "# N=%lu: A %.0f events/s before, %.0f during\n", n, before, during);
		/* the next burst starts from a rate that is A's alone again */
		pump(&a, NULL, &none, monotonic_ns() + (uint64_t)before_ms * 1000000u, NULL);
	}
	peer_close(&a);
	return 0;
}
