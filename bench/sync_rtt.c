/* sync_rtt.c: bench-sync-rtt, the synchronous round trip through a real
 * stpd-bridge.
 *
 *   bench-sync-rtt [--count N] [--warmup W] [--bridge PATH] [-- BRIDGE-OPTION...]
 *   bench-sync-rtt --flood N [--bridge PATH] [-- BRIDGE-OPTION...]
 *   bench-sync-rtt --socket-floor [--count N] [--warmup W]
 *
 * It plays the agent: it listens where a JVM's agent would, starts the
 * bridge (default: build/stpd-bridge/stpd-bridge next to this program's
 * build directory) with `-x <our pid> --sockdir <a private directory>` and
 * the BRIDGE-OPTIONs (default: --fire --sync and two slots on the event's
 * method; `--print -o /dev/null --sync -m bench.Hot.add` measures --print;
 * --sync is added when missing), answers its Hello, waits for Start, then
 * sends N + W synchronous events (TF_SYNC; MethodEnter and MethodExit of
 * bench.Hot.add in turn, with arguments / return value if the bridge asked
 * for them), one at a time, each after the Ack of the one before. The time
 * from just before the send to the Ack's arrival is one sample; the first W
 * (default 1000) are not counted. stdout gets only RESULT lines.
 *
 * Included: the agent's send and the Ack's receive on a Unix socket, two
 * wake-ups (the bridge worker's and ours), the bridge's read, decode,
 * match, marker strings and markers (or --print line and its write to the
 * supervisor's pipe) and its Ack. Not included: JVMTI, the agent's capture
 * and encoding of the event, the Java thread's own wait machinery. No
 * thread is pinned.
 *
 * RESULT sync_rtt_same_cpu_pct says how often (sampled, untimed) the
 * bridge's worker had last run on this program's CPU. Nothing is pinned,
 * so the scheduler decides; on a VM whose idle vCPUs halt, a wake-up across
 * CPUs costs tens of microseconds, and the figures follow the placement.
 * --socket-floor measures the same exchange with a forked echo process
 * instead of the bridge (RESULT socket_rtt_*): the floor.
 *
 * --flood N: instead, the bridge's throughput over its socket. The agent
 * sends N asynchronous events of the synthetic stream (evstream.h; the
 * default BRIDGE-OPTIONs are then evstream_bridge_options: eight slots,
 * --fire) as fast as the socket takes them, then one synchronous event, and
 * the time from the first byte to that event's Ack gives
 * RESULT flood_events_per_s: the worker's whole loop (poll, read sizes,
 * decode, match, markers or --print lines through the supervisor, Acks).
 *
 * The bridge knows a JVM by its executable's name: this program copies
 * itself to <private directory>/java and runs the copy, which removes the
 * directory when it ends.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "evstream.h"
#include "jvmsock.h"
#include "wire.h"
#include "monoclock.h"

#define ENV_DIR    "BENCH_SYNC_RTT_DIR"
#define ENV_BRIDGE "BENCH_SYNC_RTT_BRIDGE"
#define HOT        "bench.Hot.add(II)I"
#define TIMEOUT_MS 10000

static char *private_dir;
static char sock_path[sizeof ((struct sockaddr_un *)0)->sun_path];
static pid_t bridge_pid;

static void cleanup(void)
{
	char path[PATH_MAX];

	if (bridge_pid > 0) {
		kill(bridge_pid, SIGTERM);
		waitpid(bridge_pid, NULL, 0);
		bridge_pid = 0;
	}
	if (sock_path[0])
		unlink(sock_path);
	if (private_dir) {
		snprintf(path, sizeof path, "%s/java", private_dir);
		unlink(path);
		snprintf(path, sizeof path, "%s/sock", private_dir);
		rmdir(path);
		rmdir(private_dir);
		free(private_dir);
		private_dir = NULL;
	}
}

static __attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bench-sync-rtt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cleanup();
	exit(1);
}

static int copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, rc = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -EIO;
			break;
		}
	if (n < 0)
		rc = -errno;
	close(in);
	if (close(out) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* Run again as DIR/java (see the header), telling the copy where the
 * bridge is. Returns only when already running as the copy. */
static void become_java(char **argv, const char *bridge_opt)
{
	char self[PATH_MAX], bridge[PATH_MAX + 64], copy[PATH_MAX], tmpl[] = "/tmp/bench-sync-rtt.XXXXXX";
	ssize_t n;
	int rc;

	if (getenv(ENV_DIR)) {
		private_dir = strdup(getenv(ENV_DIR));
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		die("/proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	if (bridge_opt)
		snprintf(bridge, sizeof bridge, "%s", bridge_opt);
	else
		snprintf(bridge, sizeof bridge, "%s/../stpd-bridge/stpd-bridge", dirname(strdup(self)));
	if (access(bridge, X_OK) != 0)
		die("no bridge at %s (give --bridge PATH)", bridge);
	if (!realpath(bridge, copy))
		die("%s: %s", bridge, strerror(errno));
	if (!mkdtemp(tmpl))
		die("mkdtemp: %s", strerror(errno));
	private_dir = strdup(tmpl); /* for die() until the exec */
	setenv(ENV_BRIDGE, copy, 1);
	setenv(ENV_DIR, tmpl, 1);
	snprintf(copy, sizeof copy, "%s/java", tmpl);
	rc = copy_file(self, copy);
	if (rc < 0)
		die("copying %s to %s: %s", self, copy, strerror(-rc));
	execv(copy, argv);
	die("exec %s: %s", copy, strerror(errno));
}

/* Listen at DIR/sock/jvm-<pidns>-<pid>-<starttime>.sock, as the agent does
 * (doc/agent-bridge.md). */
static int listen_as_agent(char *sockdir, size_t cap)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char name[JVMSOCK_NAME_MAX];
	int fd, rc = jvmsock_self_name(name, sizeof name);

	if (rc < 0)
		die("socket name from /proc/self: %s", strerror(-rc));
	snprintf(sockdir, cap, "%s/sock", private_dir);
	if (mkdir(sockdir, 0700) < 0 && errno != EEXIST)
		die("mkdir %s: %s", sockdir, strerror(errno));
	if ((size_t)snprintf(addr.sun_path, sizeof addr.sun_path, "%s/%s", sockdir, name) >= sizeof addr.sun_path)
		die("socket path too long");
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
		die("listen on %s: %s", addr.sun_path, strerror(errno));
	memcpy(sock_path, addr.sun_path, sizeof sock_path);
	if (listen(fd, 1) < 0)
		die("listen on %s: %s", addr.sun_path, strerror(errno));
	return fd;
}

static void start_bridge(const char *sockdir, char **opts, int nopts, bool need_sync)
{
	const char *bridge = getenv(ENV_BRIDGE);
	char pid[32];
	const char **args = calloc((size_t)nopts + 8, sizeof *args);
	bool has_sync = false;
	int n = 0;

	if (!bridge || !args)
		die("no bridge");
	snprintf(pid, sizeof pid, "%d", (int)getpid());
	args[n++] = bridge;
	args[n++] = "-x";
	args[n++] = pid;
	args[n++] = "--sockdir";
	args[n++] = sockdir;
	for (int i = 0; i < nopts; i++) {
		has_sync |= strncmp(opts[i], "--sync", 6) == 0;
		args[n++] = opts[i];
	}
	if (need_sync && !has_sync)
		args[n++] = "--sync";
	args[n] = NULL;
	bridge_pid = fork();
	if (bridge_pid < 0)
		die("fork: %s", strerror(errno));
	if (bridge_pid == 0) {
		execv(bridge, (char **)args);
		fprintf(stderr, "bench-sync-rtt: exec %s: %s\n", bridge, strerror(errno));
		_exit(127);
	}
	free(args);
}

struct agent {
	int fd;
	struct wire_peer peer;
	struct wire_reader rd;
	uint32_t opt_mask;
	bool sync, started;
	uint64_t acked;
};

static void send_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die("send: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
}

static void on_command(struct agent *a, const struct wire_command *cmd)
{
	uint8_t data[256];
	struct wire_buf b = { data, sizeof data, 0 };
	struct wire_event ev = { .code = WIRE_EV_HELLO };

	switch (cmd->code) {
	case WIRE_CMD_HELLO:
		if (wire_peer_accept_hello(&a->peer, &cmd->hello, WIRE_CAP_ALL) < 0)
			die("the bridge's Hello is not acceptable");
		wire_hello_init(&ev.hello, WIRE_CAP_ALL, "bench-sync-rtt");
		if (wire_encode_event(&b, &a->peer, &ev) < 0)
			die("encoding Hello");
		send_all(a->fd, b.data, b.len);
		break;
	case WIRE_CMD_OPTIONAL_DATA:
		a->opt_mask = cmd->mask;
		break;
	case WIRE_CMD_DISPATCH_MODE:
		a->sync = cmd->mode == WIRE_DISPATCH_SYNC;
		break;
	case WIRE_CMD_START:
		a->started = true;
		break;
	case WIRE_CMD_ACK:
		if (cmd->seq > a->acked)
			a->acked = cmd->seq;
		break;
	default:
		break;
	}
}

/* Read and handle commands until COND holds (one read at a time). */
static void read_until(struct agent *a, const bool *flag, uint64_t ack)
{
	for (;;) {
		struct wire_command cmd;
		struct wire_error err;
		size_t len, used;
		const uint8_t *d = wire_reader_data(&a->rd, &len);
		int rc = len ? wire_decode_command(&a->peer, d, len, &cmd, &used, &err) : -EAGAIN;

		if (rc == 0) {
			on_command(a, &cmd);
			wire_reader_consume(&a->rd, used);
			continue;
		}
		if (rc != -EAGAIN)
			die("malformed command from the bridge: %s", err.text);
		if ((flag && *flag) || (!flag && a->acked >= ack))
			return;
		long n = wire_reader_fill(&a->rd, a->fd);

		if (n == 0)
			die("the bridge closed the connection");
		if (n < 0 && n != -EINTR)
			die("read: %s", strerror((int)-n));
	}
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static double pct(const uint64_t *v, size_t n, double p)
{
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);

	return (double)v[i < n ? i : n - 1] / 1000.0;
}

static void print_stats(const char *prefix, uint64_t *samples, unsigned long count)
{
	uint64_t sum = 0;

	qsort(samples, count, sizeof *samples, cmp_u64);
	for (unsigned long i = 0; i < count; i++)
		sum += samples[i];
	printf("RESULT %s_p50_us %.1f us\n", prefix, pct(samples, count, 0.50));
	printf("RESULT %s_p90_us %.1f us\n", prefix, pct(samples, count, 0.90));
	printf("RESULT %s_p99_us %.1f us\n", prefix, pct(samples, count, 0.99));
	printf("RESULT %s_max_us %.1f us\n", prefix, (double)samples[count - 1] / 1000.0);
	printf("RESULT %s_mean_us %.1f us\n", prefix, (double)sum / (double)count / 1000.0);
	printf("RESULT %s_count %lu events\n", prefix, count);
}

/* The bridge's worker: the supervisor's child. 0 if not found. */
static pid_t find_worker(void)
{
	char path[64];
	int w = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)bridge_pid, (int)bridge_pid);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%d", &w) != 1)
		w = 0;
	if (f)
		fclose(f);
	return (pid_t)w;
}

/* The CPU PID last ran on (field 39 of /proc/PID/stat), -1 if unknown. */
static int cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	int cpu = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')'))) {
		for (int field = 2; p && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p, " %d", &cpu) != 1)
			cpu = -1;
	}
	fclose(f);
	return cpu;
}

/* --socket-floor: the same exchange (an event's bytes out, an Ack's 9 bytes
 * back) with a forked child that only echoes, no bridge: what the Unix
 * socket and two wake-ups cost on this machine, the floor under
 * sync_rtt_*. */
static void socket_floor(unsigned long count, unsigned long warmup)
{
	uint64_t *samples = calloc(count, sizeof *samples);
	uint8_t msg[64] = { 0x80 }, buf[256];
	int sv[2];
	pid_t child;

	if (!samples || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		die("socketpair: %s", strerror(errno));
	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		close(sv[0]);
		while (read(sv[1], buf, sizeof buf) > 0)
			if (send(sv[1], buf, 9, MSG_NOSIGNAL) != 9)
				_exit(1);
		_exit(0);
	}
	close(sv[1]);
	for (unsigned long i = 0; i < warmup + count; i++) {
		uint64_t t0 = monotonic_ns(), t1;
		size_t got = 0;

		send_all(sv[0], msg, 50);
		while (got < 9) {
			ssize_t n = read(sv[0], buf, sizeof buf);

			if (n <= 0)
				die("the echo child went away");
			got += (size_t)n;
		}
		t1 = monotonic_ns();
		if (i >= warmup)
			samples[i - warmup] = t1 - t0;
	}
	close(sv[0]);
	waitpid(child, NULL, 0);
	print_stats("socket_rtt", samples, count);
	fprintf(stderr, "# bare Unix socket round trip with an echoing child, no bridge\n");
	free(samples);
}

/* --flood: N events of the synthetic stream, then a synchronous one. */
static void flood(struct agent *a, unsigned long nevents)
{
	static uint8_t last[4096];
	struct wire_buf b = { last, sizeof last, 0 };
	struct wire_event *ev = calloc(1, sizeof *ev);
	struct wire_error err;
	uint8_t *data;
	size_t len, hello;
	uint64_t t0, t1;
	int rc = evstream_generate(nevents, false, 1, &data, &len);

	if (rc < 0 || !ev)
		die("generating the stream: %s", strerror(rc < 0 ? -rc : ENOMEM));
	/* the stream's own Hello is not sent: ours was */
	if (wire_decode_event(&a->peer, data, len, ev, &hello, &err) < 0 || ev->code != WIRE_EV_HELLO)
		die("the generated stream does not start with a Hello");
	memset(ev, 0, sizeof *ev);
	ev->code = WIRE_EV_GC_FINISH;
	ev->has_trailer = true;
	ev->trailer.seq = nevents + 1;
	ev->trailer.os_tid = (uint32_t)getpid();
	ev->trailer.flags = WIRE_TF_SYNC;
	if (wire_encode_event(&b, &a->peer, ev) < 0)
		die("encoding an event");
	t0 = monotonic_ns();
	send_all(a->fd, data + hello, len - hello);
	send_all(a->fd, b.data, b.len);
	read_until(a, NULL, nevents + 1);
	t1 = monotonic_ns();
	printf("RESULT flood_events_per_s %.0f events/s\n", (double)(nevents + 1) * 1e9 / (double)(t1 - t0));
	printf("RESULT flood_ns_per_event %.1f ns\n", (double)(t1 - t0) / (double)(nevents + 1));
	fprintf(stderr, "# %lu asynchronous events (%zu bytes) and one synchronous one through the "
		"bridge's socket, first byte to the last Ack\n", nevents, len - hello);
	free(data);
	free(ev);
}

/* The round trips themselves: COUNT samples after WARMUP. */
static void round_trips(struct agent *a, uint64_t *samples, unsigned long count,
			unsigned long warmup)
{
	unsigned long same = 0, looked = 0;
	pid_t worker;

	if (!a->sync)
		die("the bridge did not ask for synchronous dispatch");
	worker = find_worker();

	for (unsigned long i = 0; i < warmup + count; i++) {
		static struct wire_event ev;
		static uint8_t data[4096];
		struct wire_buf b = { data, sizeof data, 0 };
		bool enter = (i & 1) == 0;
		uint64_t t0, t1;

		memset(&ev, 0, sizeof ev);
		ev.code = enter ? WIRE_EV_METHOD_ENTER : WIRE_EV_METHOD_EXIT;
		ev.name = (struct wire_str){ HOT, sizeof HOT - 1 };
		ev.thread = (uint64_t)getpid();
		if (enter && (a->opt_mask & WIRE_OPT_ARGUMENTS)) {
			ev.nvalues = 2;
			ev.values[0] = (struct wire_value){ .type = WIRE_T_INT, .v.i = (int64_t)i };
			ev.values[1] = (struct wire_value){ .type = WIRE_T_INT, .v.i = 3 };
		}
		ev.retval = (struct wire_value){
			.type = (a->opt_mask & WIRE_OPT_RETURN_VALUE) ? WIRE_T_INT : WIRE_T_NONE,
			.v.i = (int64_t)i + 2 };
		ev.has_trailer = true;
		ev.trailer.seq = i + 1;
		ev.trailer.os_tid = (uint32_t)getpid();
		ev.trailer.flags = WIRE_TF_SYNC;
		ev.trailer.timestamp_ns = monotonic_ns();
		if (wire_encode_event(&b, &a->peer, &ev) < 0)
			die("encoding an event");
		t0 = monotonic_ns();
		send_all(a->fd, b.data, b.len);
		read_until(a, NULL, i + 1);
		t1 = monotonic_ns();
		if (i >= warmup)
			samples[i - warmup] = t1 - t0;
		/* now and then, untimed: did the worker run where we run? */
		if (worker > 0 && i >= warmup && i % 97 == 0) {
			int theirs = cpu_of(worker), ours = sched_getcpu();

			if (theirs >= 0 && ours >= 0) {
				looked++;
				same += theirs == ours;
			}
		}
	}
	print_stats("sync_rtt", samples, count);
	if (looked)
		printf("RESULT sync_rtt_same_cpu_pct %.0f %%\n", 100.0 * (double)same / (double)looked);
	fprintf(stderr, "# sync round trip, agent send -> Ack received, %lu events after %lu warm-up; "
		"included: Unix socket both ways, two wake-ups, the bridge's read, decode, match, "
		"markers or --print line, Ack; not JVMTI nor the agent's capture. The worker "
		"ran on this program's CPU at %lu of %lu looks: a wake-up across CPUs costs "
		"far more in a VM (compare bench-sync-rtt --socket-floor)\n",
		count, warmup, same, looked);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' }, { "warmup", required_argument, NULL, 'w' },
		{ "bridge", required_argument, NULL, 'b' }, { "flood", required_argument, NULL, 'f' },
		{ "socket-floor", no_argument, NULL, 'F' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static char *default_opts[] = {
		"--fire", "--sync", "--args", "--return",
		"--slot", "0:method.enter:bench.Hot.add", "--slot", "1:method.return:bench.Hot.add",
		NULL,
	};
	const char *bridge = NULL;
	unsigned long count = 20000, warmup = 1000, nflood = 0;
	char sockdir[PATH_MAX];
	struct agent a = { .fd = -1 };
	struct pollfd p;
	uint64_t *samples;
	bool floor_only = false;
	char **bopts = default_opts;
	int nbopts = 8, lfd, c;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': count = strtoul(optarg, NULL, 10); break;
		case 'w': warmup = strtoul(optarg, NULL, 10); break;
		case 'b': bridge = optarg; break;
		case 'f': nflood = strtoul(optarg, NULL, 10); break;
		case 'F': floor_only = true; break;
		default:
			fputs("usage: bench-sync-rtt [--count N] [--warmup W] [--bridge PATH] "
			      "[-- BRIDGE-OPTION...]\n"
			      "       bench-sync-rtt --flood N [--bridge PATH] [-- BRIDGE-OPTION...]\n"
			      "       bench-sync-rtt --socket-floor [--count N] [--warmup W]\n",
			      stderr);
			return 2;
		}
	}
	if (optind < argc) {
		bopts = argv + optind;
		nbopts = argc - optind;
	} else if (nflood) {
		bopts = (char **)evstream_bridge_options;
		for (nbopts = 0; bopts[nbopts]; nbopts++)
			;
	}
	if (count == 0)
		die("--count must be at least 1");
	if (floor_only) {
		socket_floor(count, warmup);
		return 0;
	}
	become_java(argv, bridge);
	atexit(cleanup);
	signal(SIGPIPE, SIG_IGN);
	samples = calloc(count, sizeof *samples);
	if (!samples || wire_reader_init(&a.rd, 2 * WIRE_MAX_MESSAGE) < 0)
		die("out of memory");
	wire_peer_init(&a.peer);
	lfd = listen_as_agent(sockdir, sizeof sockdir);
	start_bridge(sockdir, bopts, nbopts, nflood == 0);
	p = (struct pollfd){ .fd = lfd, .events = POLLIN };
	if (poll(&p, 1, TIMEOUT_MS) != 1)
		die("the bridge did not connect within %d ms", TIMEOUT_MS);
	a.fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (a.fd < 0)
		die("accept: %s", strerror(errno));
	read_until(&a, &a.started, 0);
	if (nflood)
		flood(&a, nflood);
	else
		round_trips(&a, samples, count, warmup);
	cleanup(); /* the bridge first: a worker that sees EOF from a live agent warns */
	close(a.fd);
	close(lfd);
	wire_reader_free(&a.rd);
	free(samples);
	return 0;
}
