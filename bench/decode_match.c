/* decode_match.c: bench-decode-match, the bridge's event path on one core.
 *
 *   bench-decode-match [--stream FILE | --events N] [--loops K] [--sync]
 *                      [--seed S] [-- BRIDGE-OPTION...]
 *   bench-decode-match --generate FILE [--events N] [--sync] [--seed S]
 *   bench-decode-match --record SOCKET --output FILE [--seconds S] [-- BRIDGE-OPTION...]
 *
 * Replays an agent stream (the bytes an agent sends: its Hello, then
 * events; PROTOCOL.md) from memory through the worker's own code: the
 * runtime decoder (wire_decode_event) and stpd-bridge/handler.c, the
 * per-event function the worker calls (the --print filter and line when
 * --print is given, slot matching with its cache, the markers' strings and
 * the SDT markers with --fire), plus the encoding of an Ack for a TF_SYNC
 * event (not its send). Only the socket read and the Ack's send are left
 * out. The stream is synthetic by default (evstream.c, made with the
 * runtime's encoder); --generate writes it to a file, --record records a
 * real agent's stream: it connects to the agent's SOCKET as the bridge
 * does, sends the bridge's Hello and the registrations of the bridge
 * options (conn_send_registrations, the bridge's own code), and writes
 * every byte the agent sends to FILE for S seconds (default 10) or until
 * the agent closes.
 *
 * BRIDGE-OPTIONs are stpd-bridge's (options_parse): --slot, -m, --fire,
 * --print ... Default: evstream_bridge_options (eight slots, --fire). With
 * --print the lines go to /dev/null. K passes (default 10) are timed as
 * one; stdout gets only RESULT lines, stderr a summary.
 *
 * With a uprobe on the markers. The markers are in this binary (markers.c
 * is linked in), so
 *   bpftrace -e 'usdt:PATH/bench-decode-match:stapjava:slot* { @c = count(); }
 *                BEGIN { printf("attached\n"); }'
 * (started first; wait for "attached", which bpftrace prints once every
 * probe is in) traps every slot marker fire; bench/local.mk has the
 * recipe. The bridge reads the markers' SDT semaphores (stpd-bridge/dispatch.c):
 * the twelve arguments, strings included, are formatted only for an event
 * one of whose markers a tracer is on, so the run with a probe does that
 * work and the trap, the run without neither. RESULT decode_match_fires is the number
 * of slot markers the timed passes fired; bpftrace's @c also counts the
 * untimed first pass: @c = fires * (K + 1) / K.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "connection.h"
#include "evstream.h"
#include "handler.h"
#include "log.h"
#include "markers.h"
#include "options.h"
#include "wire.h"
#include "monoclock.h"

static __attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench-decode-match: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;

			free(buf);
			close(fd);
			return rc;
		}
		got += (size_t)n;
	}
	close(fd);
	*out = buf;
	*len = got;
	return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc = 0;

	if (fd < 0)
		return -errno;
	while (len && rc == 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0)
			rc = -errno;
		else {
			data += n;
			len -= (size_t)n;
		}
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* Counts of one pass. */
struct tally {
	uint64_t events, syncs, fires;
};

/* Every slot marker an event fires: what a uprobe on slot* would count. */
static uint64_t slot_fires(struct handler *h, const struct wire_event *ev)
{
	struct slot_set hits;
	uint64_t n = 0;

	if (!h->disp_ready ||
	    !slots_match(&h->disp.matcher, ev->code, ev->name.ptr, ev->name.len, &hits))
		return 0;
	for (unsigned w = 0; w < SLOTS_WORDS; w++)
		n += (uint64_t)__builtin_popcountll(hits.w[w]);
	return n;
}

/* One pass over the stream, as the worker's read_events() and on_event()
 * do it with the bytes in its reader. COUNT_FIRES: also count the slot
 * markers (an untimed pass). */
static void replay(struct handler *h, const uint8_t *data, size_t len, struct wire_event *ev,
		   bool count_fires, struct tally *t)
{
	struct wire_peer peer;
	struct wire_error err;
	size_t off = 0, used;

	wire_peer_init(&peer);
	while (off < len) {
		int rc;

		err.text[0] = '\0';
		rc = wire_decode_event(&peer, data + off, len - off, ev, &used, &err);
		if (rc == -EAGAIN)
			die("the stream ends inside a message at byte %zu", off);
		if (rc < 0)
			die("malformed stream at byte %zu: %s", off, err.text);
		off += used;
		if (ev->code == WIRE_EV_HELLO) {
			if (peer.hello || wire_peer_accept_hello(&peer, &ev->hello, CONN_OUR_CAPS) < 0)
				die("a bad or second Hello at byte %zu", off - used);
			continue;
		}
		rc = handler_method_number(h, ev, err.text, sizeof err.text);
		if (rc < 0)
			die("at byte %zu: %s", off - used, err.text);
		if (rc > 0)
			continue;
		if (handler_event(h, ev) < 0)
			die("--print output: %s", strerror(errno));
		t->events++;
		if (count_fires)
			t->fires += slot_fires(h, ev);
		if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_SYNC)) {
			uint8_t ack[16];
			struct wire_buf b = { ack, sizeof ack, 0 };
			struct wire_command cmd = { .code = WIRE_CMD_ACK, .seq = ev->trailer.seq };

			if (wire_encode_command(&b, &cmd) == 0)
				t->syncs++;
		}
	}
	if (handler_flush(h) < 0)
		die("--print output: %s", strerror(errno));
}

/* The timed passes, apart so that a profiler can collect just them
 * (valgrind --tool=callgrind --toggle-collect=timed_passes). */
static __attribute__((noinline)) void timed_passes(struct handler *h, const uint8_t *data,
						    size_t len, struct wire_event *ev,
						    unsigned long loops, struct tally *t)
{
	for (unsigned long i = 0; i < loops; i++)
		replay(h, data, len, ev, false, t);
}

/* --record: be the bridge towards one agent and keep its bytes. */
static int record(const char *sock, const char *file, unsigned seconds,
		  const struct bridge_options *o)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct agent_conn c;
	struct wire_event *ev = malloc(sizeof *ev);
	uint8_t *buf = malloc(1 << 16);
	uint64_t end = monotonic_ns() + (uint64_t)seconds * 1000000000u, total = 0;
	int out, rc;

	memset(&c, 0, sizeof c);
	wire_peer_init(&c.peer);
	if (!ev || !buf || wire_reader_init(&c.rd, 2 * WIRE_MAX_MESSAGE) < 0)
		die("out of memory");
	if (strlen(sock) >= sizeof addr.sun_path)
		die("%s: path too long", sock);
	memcpy(addr.sun_path, sock, strlen(sock) + 1);
	c.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c.fd < 0 || connect(c.fd, (struct sockaddr *)&addr, sizeof addr) < 0)
		die("connect %s: %s", sock, strerror(errno));
	out = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		die("%s: %s", file, strerror(errno));
	rc = conn_send_hello(&c, &o->reg);
	if (rc < 0)
		die("sending Hello: %s", strerror(-rc));
	for (;;) {
		struct pollfd p = { .fd = c.fd, .events = POLLIN };
		uint64_t now = monotonic_ns();
		ssize_t n;

		if (now >= end)
			break;
		if (poll(&p, 1, (int)((end - now) / 1000000u) + 1) <= 0)
			continue;
		n = read(c.fd, buf, 1 << 16);
		if (n <= 0)
			break;
		if (write(out, buf, (size_t)n) != n)
			die("%s: %s", file, strerror(errno));
		total += (uint64_t)n;
		/* the stream is read as the bridge reads it: its Hello, then its
		 * VmDeath, acknowledged as the bridge does (CAP_END_ACK), or the
		 * JVM would wait 5 s for it and say so */
		if (wire_reader_push(&c.rd, buf, (size_t)n) < 0)
			die("a message longer than any the agent sends");
		for (;;) {
			struct wire_error err;
			size_t len, used;
			const uint8_t *d = wire_reader_data(&c.rd, &len);

			rc = len ? wire_decode_event(&c.peer, d, len, ev, &used, &err) : -EAGAIN;
			if (rc == -EAGAIN)
				break;
			if (rc < 0)
				die("a malformed event from the agent: %s", err.text);
			wire_reader_consume(&c.rd, used);
			if (!c.hello_done) { /* the first message is the agent's Hello */
				if (ev->code != WIRE_EV_HELLO ||
				    wire_peer_accept_hello(&c.peer, &ev->hello, CONN_OUR_CAPS) < 0)
					die("the agent did not answer with a Hello");
				c.hello_done = true;
				rc = conn_send_registrations(&c, &o->reg, NULL);
				if (rc < 0)
					die("sending the registrations: %s", strerror(-rc));
			} else if (ev->code == WIRE_EV_VM_DEATH && ev->has_trailer && conn_acks_end(&c)) {
				conn_send_ack(&c, ev->trailer.seq);
			}
		}
	}
	conn_send_reset(&c);
	close(out);
	conn_close(&c);
	free(ev);
	free(buf);
	fprintf(stderr, "# recorded %" PRIu64 " bytes from %s into %s\n", total, sock, file);
	return 0;
}

static void usage(void)
{
	fputs("usage: bench-decode-match [--stream FILE | --events N] [--loops K] [--sync] [--seed S]\n"
	      "                          [-- BRIDGE-OPTION...]\n"
	      "       bench-decode-match --generate FILE [--events N] [--sync] [--seed S]\n"
	      "       bench-decode-match --record SOCKET --output FILE [--seconds S]\n"
	      "                          [-- BRIDGE-OPTION...]\n",
	      stderr);
	exit(2);
}

static unsigned long number(const char *opt, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (end == arg || *end)
		die("%s '%s': not a number", opt, arg);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stream", required_argument, NULL, 's' }, { "events", required_argument, NULL, 'n' },
		{ "loops", required_argument, NULL, 'k' }, { "sync", no_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'r' }, { "generate", required_argument, NULL, 'g' },
		{ "record", required_argument, NULL, 'R' }, { "seconds", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *stream = NULL, *generate = NULL, *record_sock = NULL, *output = NULL;
	unsigned long nevents = 200000, loops = 10, seed = 1, seconds = 10;
	bool sync = false;
	struct bridge_options o;
	struct jvm_id jvm;
	struct handler h;
	struct wire_event *ev;
	struct tally t = { 0 }, check = { 0 };
	uint8_t *data;
	size_t len;
	uint64_t t0, t1;
	struct stat self;
	const char *bargv[128];
	int bargc = 0, c, rc;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 's': stream = optarg; break;
		case 'n': nevents = number("--events", optarg); break;
		case 'k': loops = number("--loops", optarg); break;
		case 'S': sync = true; break;
		case 'r': seed = number("--seed", optarg); break;
		case 'g': generate = optarg; break;
		case 'R': record_sock = optarg; break;
		case 't': seconds = number("--seconds", optarg); break;
		case 'o': output = optarg; break;
		default: usage();
		}
	}
	/* what follows "--" is the bridge's command line */
	bargv[bargc++] = "stpd-bridge";
	if (optind < argc) {
		for (int i = optind; i < argc && bargc < 127; i++)
			bargv[bargc++] = argv[i];
	} else {
		for (const char *const *p = evstream_bridge_options; *p && bargc < 127; p++)
			bargv[bargc++] = *p;
	}
	bargv[bargc] = NULL;

	sj_log_open("bench-decode-match", -1, SJ_LOG_WARN);
	if (generate) {
		rc = evstream_generate(nevents, sync, seed, &data, &len);
		if (rc == 0)
			rc = write_file(generate, data, len);
		if (rc < 0)
			die("%s: %s", generate, strerror(-rc));
		fprintf(stderr, "# wrote %lu events (%zu bytes) to %s\n", nevents, len, generate);
		free(data);
		return 0;
	}
	if (options_parse(bargc, (char **)bargv, &o) != 0)
		die("bad bridge options");
	if (record_sock) {
		if (!output)
			usage();
		return record(record_sock, output, (unsigned)seconds, &o);
	}
	if (stream)
		rc = read_file(stream, &data, &len);
	else
		rc = evstream_generate(nevents, sync, seed, &data, &len);
	if (rc < 0)
		die("%s: %s", stream ? stream : "generating the stream", strerror(-rc));

	/* a JVM in our own pid namespace: thread ids need no translation */
	memset(&jvm, 0, sizeof jvm);
	jvm.pid = getpid();
	jvm.nspid = jvm.pid;
	jvm.uid = getuid();
	jvm.gid = getgid();
	if (stat("/proc/self/ns/pid", &self) == 0)
		jvm.pidns = (uint64_t)self.st_ino;
	ev = malloc(sizeof *ev);
	if (!ev)
		die("out of memory");
	rc = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (rc < 0 || handler_init(&h, &o, &jvm, rc) < 0)
		die("setting up the handler failed");

	/* one untimed pass: counts, a warm cache (as in a long-running bridge) */
	replay(&h, data, len, ev, true, &check);
	t0 = monotonic_ns();
	timed_passes(&h, data, len, ev, loops, &t);
	t1 = monotonic_ns();
	if (t.events == 0)
		die("no events in the stream");

	double secs = (double)(t1 - t0) / 1e9;

	printf("RESULT decode_match_events_per_s %.0f events/s\n", (double)t.events / secs);
	printf("RESULT decode_match_ns_per_event %.1f ns\n", (double)(t1 - t0) / (double)t.events);
	printf("RESULT decode_match_events %" PRIu64 " events\n", t.events);
	printf("RESULT decode_match_fires %" PRIu64 " fires\n", check.fires * loops);
	fprintf(stderr,
		"# %" PRIu64 " events per pass (%zu bytes, %.1f bytes/event), %lu timed passes in "
		"%.3f s; %.2f slot markers fired per event, %" PRIu64 " sync events per pass\n"
		"# included: decode, --print filter and line (if --print), slot match with its cache, "
		"marker strings and SDT markers (--fire), Ack encoding; not: socket read, Ack send\n",
		check.events, len, (double)len / (double)check.events, loops, secs,
		(double)check.fires / (double)check.events, check.syncs);
	handler_free(&h);
	options_free(&o);
	free(ev);
	free(data);
	return 0;
}
