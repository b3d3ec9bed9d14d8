/* sjclient: a small test client for the agent's socket, for what stpd-bridge
 * cannot do on purpose: send raw bytes, connect as another uid, speak
 * Appendix B only, never acknowledge, or send arbitrary command sequences.
 * Connects, optionally says Hello, sends the commands named on the command
 * line, and prints every event with the bridge's own formatter
 * (runtime/print.c), so there is one --print format.
 *
 *   sjclient [OPTIONS] SOCKET [COMMAND...]
 *
 * Options:
 *   --no-hello          Appendix-only peer: no Hello, plain Appendix B only
 *   --pause-until FILE  after sending the commands, read nothing until FILE exists
 *   --count             print no events; at EOF print "events=N lost=L"
 *   --forms             at EOF print "by-name=N by-number=M last=name|number":
 *                       how the method events came (CAP_METHOD_IDS and
 *                       CAP_METHOD_ID_VALUES), and the last one
 *   --caps-off=MASK     leave the capabilities of MASK (hex) out of our Hello
 *   --raw HEX           send these bytes (after the Hello unless --no-hello), then read
 *   --uid UID           connect as UID (keeping only the capability to reach the socket)
 *   --timeout SEC       give up after SEC seconds (default 60): exit 3
 *   --ack-never         in sync mode, never send an Ack
 *   --end-ack-after FILE  acknowledge VmDeath (CAP_END_ACK) only once FILE
 *                       exists ("end-ack" on stderr then); by default at once
 *   --end-ack-never     never acknowledge VmDeath
 *   --gap-ms MS         wait MS ms between two commands (each then gets an update of its own)
 *   --quit              once the commands are sent, close and exit ("quit" on stderr)
 *   --read-delay-ms MS  wait MS ms before each read: a peer that cannot keep up
 *   --early-appendix    offer CAP_EARLY_APPENDIX (off by default: our Appendix B
 *                       commands are meant): the agent then ignores them until
 *                       the first extension command
 *   --flood N           after the commands, N distinct method registrations
 *                       (Register, enter and return, flood.C<i/16>.m<i%16>) in
 *                       one write
 * Commands:
 *   method:PAT class:PAT exception:PAT           Appendix B registrations
 *   reg:KIND:EVENTS:PAT  unreg:KIND:PAT          KIND = method|class|exception, EVENTS a number
 *   gc:0|1 threads:0|1 monitors:0|1 vm:0|1      switches
 *   opt:MASK  sync:TIMEOUT_US  async  reset
 * A Notice is printed as "notice: TEXT". At EOF it prints "eof" to stderr and exits 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#include "methodids.h"
#include "print.h"
#include "threadnames.h"
#include "wire.h"

static struct threadnames names;
static struct methodids ids;
static struct wire_event ev;
static char line[PRINT_LINE_MAX];

static __attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sjclient: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void on_alarm(int sig)
{
	static const char msg[] = "sjclient: timed out\n";
	ssize_t ignored = write(2, msg, sizeof(msg) - 1);
	(void)ignored;
	_exit(3);
}

static bool peer_closed;

/* A peer that closed (the agent refusing us) is not an error: reading then shows EOF. */
static void send_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n && !peer_closed) {
		ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET)) {
			peer_closed = true;
			return;
		}
		if (w <= 0)
			die("send: %s", strerror(errno));
		b += w;
		n -= (size_t)w;
	}
}

static void send_cmd(int fd, const struct wire_command *cmd)
{
	uint8_t buf[8192];
	struct wire_buf b = { buf, sizeof(buf), 0 };
	if (wire_encode_command(&b, cmd) < 0)
		die("cannot encode a command (%s)", wire_command_name(cmd->code));
	send_all(fd, buf, b.len);
}

/* N registrations in one buffer, one send: the agent gets them together. */
static void send_flood(int fd, unsigned long n)
{
	size_t cap = n * 48 + 64, len = 0;
	uint8_t *buf = malloc(cap);
	char pat[64];

	if (!buf)
		die("out of memory");
	for (unsigned long i = 0; i < n; i++) {
		struct wire_command cmd = { .code = WIRE_CMD_REGISTER, .kind = WIRE_KIND_METHOD,
					    .events = WIRE_METHOD_ENTER | WIRE_METHOD_RETURN };
		int k = snprintf(pat, sizeof(pat), "flood.C%lu.m%lu", i / 16, i % 16);
		cmd.pattern = (struct wire_str){ pat, (uint32_t)k };
		struct wire_buf b = { buf + len, cap - len, 0 };
		if (wire_encode_command(&b, &cmd) < 0)
			die("cannot encode the flood");
		len += b.len;
	}
	send_all(fd, buf, len);
	free(buf);
}

static uint8_t kind_of(const char *s, size_t n)
{
	if (n == 6 && !strncmp(s, "method", 6)) return WIRE_KIND_METHOD;
	if (n == 5 && !strncmp(s, "class", 5)) return WIRE_KIND_CLASS;
	if (n == 9 && !strncmp(s, "exception", 9)) return WIRE_KIND_EXCEPTION;
	die("unknown kind in '%s'", s);
}

static void parse_command(const char *arg, struct wire_command *cmd)
{
	const char *colon = strchr(arg, ':');
	size_t klen = colon ? (size_t)(colon - arg) : strlen(arg);
	const char *v = colon ? colon + 1 : "";

	memset(cmd, 0, sizeof(*cmd));
	cmd->pattern.ptr = v;
	cmd->pattern.len = (uint32_t)strlen(v);
#define IS(s) (klen == sizeof(s) - 1 && !strncmp(arg, s, klen))
	if (IS("method")) cmd->code = WIRE_CMD_REGISTER_METHOD;
	else if (IS("class")) cmd->code = WIRE_CMD_REGISTER_CLASS;
	else if (IS("exception")) cmd->code = WIRE_CMD_REGISTER_EXCEPTION;
	else if (IS("gc")) { cmd->code = WIRE_CMD_GC_EVENTS; cmd->enable = atoi(v); }
	else if (IS("threads")) { cmd->code = WIRE_CMD_THREAD_EVENTS; cmd->enable = atoi(v); }
	else if (IS("monitors")) { cmd->code = WIRE_CMD_MONITOR_EVENTS; cmd->enable = atoi(v); }
	else if (IS("vm")) { cmd->code = WIRE_CMD_VM_EVENTS; cmd->enable = atoi(v); }
	else if (IS("opt")) { cmd->code = WIRE_CMD_OPTIONAL_DATA; cmd->mask = (uint32_t)strtoul(v, NULL, 0); }
	else if (IS("sync")) { cmd->code = WIRE_CMD_DISPATCH_MODE; cmd->mode = 1; cmd->timeout_us = (uint32_t)strtoul(v, NULL, 0); }
	else if (IS("async")) { cmd->code = WIRE_CMD_DISPATCH_MODE; cmd->mode = 0; }
	else if (IS("reset")) cmd->code = WIRE_CMD_RESET;
	else if (IS("reg") || IS("unreg")) {
		const char *c2 = strchr(v, ':');
		if (!c2)
			die("'%s': want reg:KIND:EVENTS:PAT or unreg:KIND:PAT", arg);
		cmd->kind = kind_of(v, (size_t)(c2 - v));
		const char *pat = c2 + 1;
		if (IS("reg")) {
			cmd->code = WIRE_CMD_REGISTER;
			cmd->events = (uint8_t)strtoul(pat, (char **)&pat, 0);
			if (*pat != ':')
				die("'%s': want reg:KIND:EVENTS:PAT", arg);
			pat++;
		} else {
			cmd->code = WIRE_CMD_UNREGISTER;
		}
		cmd->pattern.ptr = pat;
		cmd->pattern.len = (uint32_t)strlen(pat);
	} else
		die("unknown command '%s'", arg);
#undef IS
}

static void become(uid_t uid)
{
	/* keep only what is needed to reach a 0700 directory of another user */
	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0 || setresuid(uid, uid, uid) < 0)
		die("cannot switch user: %s", strerror(errno));
	cap_t caps = cap_from_text("cap_dac_override,cap_dac_read_search=ep");
	if (!caps || cap_set_proc(caps) < 0)
		die("cannot keep cap_dac_override: %s", strerror(errno));
	cap_free(caps);
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (strlen(path) >= sizeof(sa.sun_path))
		die("socket path too long: %s", path);
	strcpy(sa.sun_path, path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("connect: %s", strerror(errno));
	return fd;
}

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;
	while (hex[0] && hex[1] && n < cap) {
		unsigned v;
		if (sscanf(hex, "%2x", &v) != 1)
			die("bad hex '%s'", hex);
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

static uint64_t now_ns(void);

/* One line, as stpd-bridge's worker prints it: trailer tid and time when
 * there is one, else the body's thread and our clock. */
static void print_one(const struct wire_event *e, uint32_t pid)
{
	struct print_meta m = { .pid = pid };
	const struct threadname *tn = NULL;
	ssize_t n;

	if (e->has_trailer) {
		m.tid = e->trailer.os_tid;
		m.ts_ns = e->trailer.timestamp_ns;
	} else {
		m.tid = e->thread;
		m.ts_ns = now_ns();
	}
	if (e->code == WIRE_EV_THREAD_START || e->code == WIRE_EV_THREAD_END)
		tn = threadnames_get(&names, e->thread);
	if (tn) {
		m.thread_name = tn->name;
		m.thread_name_len = tn->len;
	}
	n = print_event_line(line, sizeof(line), &m, e);
	if (n < 0)
		die("an event line does not fit");
	fwrite(line, 1, (size_t)n, stdout);
	if (e->code == WIRE_EV_THREAD_END)
		threadnames_forget(&names, e->thread);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	bool hello = true, count = false, ack = true, forms = false, last_by_number = false;
	unsigned gap_ms = 0, read_delay_ms = 0;
	bool quit = false;
	unsigned long flood = 0;
	uint32_t our_caps = WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_EARLY_APPENDIX;
	const char *pause_file = NULL, *raw = NULL, *end_ack_file = NULL;
	bool end_ack = true;
	long uid = -1;
	unsigned timeout = 60;
	int i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--no-hello")) hello = false;
		else if (!strcmp(argv[i], "--count")) count = true;
		else if (!strcmp(argv[i], "--ack-never")) ack = false;
		else if (!strcmp(argv[i], "--end-ack-never")) end_ack = false;
		else if (!strcmp(argv[i], "--end-ack-after") && i + 1 < argc) end_ack_file = argv[++i];
		else if (!strcmp(argv[i], "--pause-until") && i + 1 < argc) pause_file = argv[++i];
		else if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = argv[++i];
		else if (!strcmp(argv[i], "--forms")) forms = true;
		else if (!strcmp(argv[i], "--uid") && i + 1 < argc) uid = atol(argv[++i]);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeout = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--gap-ms") && i + 1 < argc) gap_ms = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--quit")) quit = true;
		else if (!strcmp(argv[i], "--early-appendix")) our_caps |= WIRE_CAP_EARLY_APPENDIX;
		else if (!strncmp(argv[i], "--caps-off=", 11))
			our_caps &= ~(uint32_t)strtoul(argv[i] + 11, NULL, 16);
		else if (!strcmp(argv[i], "--read-delay-ms") && i + 1 < argc) read_delay_ms = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--flood") && i + 1 < argc) flood = strtoul(argv[++i], NULL, 10);
		else die("unknown option %s", argv[i]);
	}
	if (i >= argc)
		die("usage: sjclient [OPTIONS] SOCKET [COMMAND...]");
	signal(SIGALRM, on_alarm);
	alarm(timeout);
	setvbuf(stdout, NULL, _IOLBF, 0);
	threadnames_init(&names);
	if (uid >= 0)
		become((uid_t)uid);
	int fd = connect_to(argv[i++]);
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0)
		die("SO_PEERCRED: %s", strerror(errno));

	struct wire_peer peer;
	wire_peer_init(&peer);
	struct wire_reader rd;
	if (wire_reader_init(&rd, WIRE_MAX_MESSAGE + 4096) < 0)
		die("out of memory");
	if (hello) {
		struct wire_command h;
		memset(&h, 0, sizeof(h));
		h.code = WIRE_CMD_HELLO;
		wire_hello_init(&h.hello, our_caps, "sjclient");
		send_cmd(fd, &h);
	}
	if (raw) {
		static uint8_t bytes[65536];
		send_all(fd, bytes, unhex(raw, bytes, sizeof(bytes)));
	}
	/* extension commands only after the agent's Hello: read it first */
	bool got_hello = !hello;
	unsigned long long events = 0, lost = 0, by_name = 0, by_number = 0;
	for (;;) {
		if (got_hello && (i < argc || flood)) {
			for (; i < argc; i++) {
				struct wire_command cmd;
				parse_command(argv[i], &cmd);
				send_cmd(fd, &cmd);
				if (gap_ms)
					usleep(gap_ms * 1000);
			}
			if (flood)
				send_flood(fd, flood);
			flood = 0;
			if (quit) {
				close(fd);
				fprintf(stderr, "quit\n");
				return 0;
			}
			if (pause_file) {
				struct stat st;
				while (stat(pause_file, &st) < 0)
					usleep(5000);
			}
		}
		size_t len, used;
		const uint8_t *data = wire_reader_data(&rd, &len);
		struct wire_error err;
		int rc = len ? wire_decode_event(&peer, data, len, &ev, &used, &err) : -EAGAIN;
		if (rc == -EAGAIN) {
			if (read_delay_ms && got_hello)  /* a bridge that cannot keep up */
				usleep(read_delay_ms * 1000);
			long n = wire_reader_fill(&rd, fd);
			if (n == 0 || n == -ECONNRESET)
				break;
			if (n < 0 && n != -EAGAIN && n != -EINTR)
				die("read: %s", strerror((int)-n));
			continue;
		}
		if (rc < 0) {
			fprintf(stderr, "sjclient: malformed event: %s\n", err.text);
			return 1;
		}
		if (ev.code == WIRE_EV_METHOD_ENTER || ev.code == WIRE_EV_METHOD_EXIT) {
			by_name++;
			last_by_number = false;
		} else if (ev.code == WIRE_EV_METHOD_ENTER_ID || ev.code == WIRE_EV_METHOD_EXIT_ID ||
			   ev.code == WIRE_EV_METHOD_ENTER_ID_VALUES || ev.code == WIRE_EV_METHOD_EXIT_ID_VALUE) {
			by_number++;
			last_by_number = true;
		}
		/* CAP_METHOD_IDS: named once, then by number (methodids.h) */
		if (methodids_take(&ids, &ev, err.text, sizeof err.text) < 0) {
			fprintf(stderr, "sjclient: %s\n", err.text);
			return 1;
		}
		if (ev.code == WIRE_EV_HELLO) {
			if (wire_peer_accept_hello(&peer, &ev.hello, our_caps) < 0)
				die("bad agent Hello");
			got_hello = true;
			if (!count)
				printf("hello pid=%u caps=0x%02x\n", ev.hello.pid, peer.caps);
		} else if (ev.code == WIRE_EV_METHOD_NAME) {
			/* kept above; no line */
		} else if (ev.code == WIRE_EV_NOTICE) {
			printf("notice: %.*s\n", (int)ev.name.len, ev.name.ptr);
		} else if (ev.code == WIRE_EV_THREAD_NAME) {
			threadnames_set(&names, ev.thread, ev.name.ptr, ev.name.len, ev.java_tid);
		} else if (ev.code == WIRE_EV_LOST) {
			lost = ev.lost;
			if (!count)
				print_one(&ev, (uint32_t)cred.pid);
		} else {
			events++;
			if (!count)
				print_one(&ev, (uint32_t)cred.pid);
		}
		/* a bridge that acknowledges the VM's end has handled every event before it */
		bool end = ev.code == WIRE_EV_VM_DEATH && ev.has_trailer && end_ack &&
			   (peer.caps & WIRE_CAP_END_ACK);
		if (end && end_ack_file) {
			struct stat st;
			while (stat(end_ack_file, &st) < 0)
				usleep(5000);
			fprintf(stderr, "end-ack\n");
		}
		if ((ack && ev.has_trailer && (ev.trailer.flags & WIRE_TF_SYNC)) || end) {
			struct wire_command a;
			memset(&a, 0, sizeof(a));
			a.code = WIRE_CMD_ACK;
			a.seq = ev.trailer.seq;
			send_cmd(fd, &a);
		}
		wire_reader_consume(&rd, used);
	}
	if (count)
		printf("events=%llu lost=%llu\n", events, lost);
	if (forms)
		printf("by-name=%llu by-number=%llu last=%s\n", by_name, by_number,
		       last_by_number ? "number" : "name");
	fprintf(stderr, "eof\n");
	return 0;
}
