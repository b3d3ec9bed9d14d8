/* recorder.c: see recorder.h. */
#include "recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdio.h"
#include "log.h"
#include "privsep.h"
#include "recchan.h"
#include "recfwd.h"
#include "record.h"

#define TICK_NS 1000000000ull
/* The channel's room: the workers' batches wait here while the recorder writes. */
#define CHANNEL_BYTES (4u << 20)
/* One message: a batch (RECFWD_BATCH and one record more at most). */
#define MESSAGE_MAX (RECFWD_BATCH + RECCHAN_MAX_RECORD)

/* The recorder's own state, in the recorder process. */
struct session {
	const struct bridge_options *o;
	const struct record_format *fmt;
	void *state;
	struct record_out out;
	int rd;
	uint64_t events, dropped, dropped_pending, dropped_ts;
	bool bad_said;           /* a malformed message was said (once) */
};

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int recorder_open_file(const struct bridge_options *o, int *fd)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (o->force ? O_TRUNC : O_EXCL);

	*fd = open(o->record, flags, 0644);
	if (*fd >= 0)
		return 0;
	int rc = -errno;
	if (rc == -EEXIST)
		sj_error("--record '%s': the file exists (give --force to overwrite it)", o->record);
	else
		sj_error("--record '%s': %s", o->record, strerror(-rc));
	return rc;
}

/* ------------------------------------------------------------ the recorder process */

/* Why the recording stopped early, said once; 0 for the cap, 1 otherwise. */
static int stopped(struct session *s, int rc)
{
	if (s->out.error == -EFBIG) {
		sj_warn("--record '%s': the file reached --record-max (%llu bytes): recording stopped",
			s->o->record, (unsigned long long)s->o->record_max);
		return 0;
	}
	sj_error("--record '%s': %s: recording stopped", s->o->record,
		 strerror(-(s->out.error ? s->out.error : rc)));
	return 1;
}

static int handle_message(struct session *s, const uint8_t *p, size_t n, struct wire_event *ev)
{
	while (n) {
		struct recchan_record r;
		char why[256];
		size_t used;
		int rc;

		if (recchan_decode(p, n, &r, ev, &used, why, sizeof why) < 0) {
			/* only a worker gone wrong sends this: its message is dropped */
			if (!s->bad_said)
				sj_warn("--record: %s (said once; the message is dropped)", why);
			s->bad_said = true;
			return 0;
		}
		if (r.kind == RECCHAN_DROPPED) {
			s->dropped_pending += r.count;
			s->dropped_ts = r.meta.ts_ns;
		} else if ((rc = s->fmt->event(s->state, &s->out, &r.meta, ev)) < 0)
			return rc;
		else
			s->events++;
		p += used;
		n -= used;
	}
	return 0;
}

/* About once a second: what the workers dropped, the format's chunk, and
 * the bytes to the file. */
static int tick(struct session *s, uint64_t now)
{
	int rc = 0;

	if (s->dropped_pending && s->fmt->lost)
		rc = s->fmt->lost(s->state, &s->out, s->dropped_ts, s->dropped_pending);
	s->dropped += s->dropped_pending;
	s->dropped_pending = 0;
	if (rc == 0 && s->fmt->tick)
		rc = s->fmt->tick(s->state, &s->out, now);
	if (rc == 0)
		rc = record_out_flush(&s->out);
	return rc;
}

static int loop(struct session *s)
{
	uint8_t *buf = malloc(MESSAGE_MAX);
	struct wire_event *ev = malloc(sizeof *ev);
	uint64_t next_tick = clock_ns(CLOCK_MONOTONIC) + TICK_NS;
	int rc = buf && ev ? 0 : -ENOMEM;

	while (rc == 0) {
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		struct pollfd p = { .fd = s->rd, .events = POLLIN };

		if (now >= next_tick) {
			rc = tick(s, now);
			next_tick = now + TICK_NS;
			continue;
		}
		if (poll(&p, 1, (int)((next_tick - now) / 1000000u) + 1) <= 0)
			continue;
		ssize_t n = recv(s->rd, buf, MESSAGE_MAX, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;       /* EOF: every worker and the supervisor are done */
		if ((size_t)n > MESSAGE_MAX) {
			if (!s->bad_said)
				sj_warn("--record: a message of %zd bytes on the record channel (said once; dropped)", n);
			s->bad_said = true;
			continue;
		}
		rc = handle_message(s, buf, (size_t)n, ev);
		if (rc == 0 && s->out.error) /* a format that went on past a failed write */
			rc = s->out.error;
	}
	free(buf);
	free(ev);
	return rc;
}

static int record(struct session *s, int file_fd)
{
	struct record_info info = { .start_ns = clock_ns(CLOCK_MONOTONIC),
				    .start_wall_ns = clock_ns(CLOCK_REALTIME) };
	int rc;

	s->out = (struct record_out){ .fd = file_fd, .max = s->o->record_max };
	s->state = calloc(1, s->fmt->state_size ? s->fmt->state_size : 1);
	if (!s->state)
		return stopped(s, -ENOMEM);
	rc = s->fmt->begin(s->state, &s->out, &info);
	if (rc == 0)
		rc = loop(s);
	if (rc == 0)
		rc = tick(s, clock_ns(CLOCK_MONOTONIC)); /* the last drops go into the file */
	int end = s->fmt->end(s->state, &s->out); /* frees the format's memory in any case */
	if (rc == 0)
		rc = end;
	if (rc == 0)
		rc = record_out_flush(&s->out);
	record_out_release(&s->out);
	free(s->state);
	if (s->dropped)
		sj_warn("--record '%s': %llu events could not be recorded (the recorder fell behind); the "
			"file counts them", s->o->record, (unsigned long long)s->dropped);
	if (rc < 0)
		return stopped(s, rc);
	sj_info("--record '%s': %llu events recorded in %llu bytes (%s)", s->o->record,
		(unsigned long long)s->events, (unsigned long long)s->out.offset, s->fmt->name);
	return 0;
}

/* nobody, when the bridge is root: the recorder needs nothing but its descriptors */
static int drop(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	const char *what = "";

	if (geteuid() == 0) {
		struct passwd *pw = getpwnam("nobody");
		uid = pw ? pw->pw_uid : 65534;
		gid = pw ? pw->pw_gid : 65534;
	}
	int rc = privsep_drop(uid, gid, &what);
	if (rc < 0)
		sj_error("--record: the recorder cannot drop privileges to uid %u gid %u: %s: %s",
			 (unsigned)uid, (unsigned)gid, what, strerror(-rc));
	return rc;
}

int recorder_spawn(struct recorder *r, const struct bridge_options *o, int file_fd, int log_fd)
{
	int sv[2], size = CHANNEL_BYTES;

	r->pid = 0;
	r->wr = -1;
	r->status = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		sj_error("--record: socketpair: %s", strerror(errno));
		close(file_fd);
		return -errno;
	}
	/* the workers' sends wait for room here, not in the JVM: as much as root may have */
	if (setsockopt(sv[1], SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) < 0)
		setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	pid_t pid = fork();
	if (pid < 0) {
		sj_error("--record: fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		close(file_fd);
		return -errno;
	}
	if (pid == 0) {
		struct session s = { .o = o, .fmt = o->record_fmt, .rd = sv[0] };
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		fd_close_all_but((int[]){ file_fd, sv[0], log_fd }, 3);
		_exit(drop() < 0 ? 1 : record(&s, file_fd));
	}
	close(sv[0]);
	close(file_fd);
	r->pid = pid;
	r->wr = sv[1];
	sj_info("--record '%s': recorder %d started (format %s)", o->record, (int)pid, o->record_fmt->name);
	return 0;
}

bool recorder_reaped(struct recorder *r, pid_t pid, int status)
{
	if (r->pid <= 0 || pid != r->pid)
		return false;
	r->pid = 0;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	if (WIFSIGNALED(status))
		sj_warn("--record: the recorder died of signal %d", WTERMSIG(status));
	recorder_stop_input(r);
	return true;
}

void recorder_stop_input(struct recorder *r)
{
	if (r->wr >= 0)
		close(r->wr);
	r->wr = -1;
}

int recorder_wait(struct recorder *r, int timeout_ms)
{
	if (r->pid > 0) {
		int status, pfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		pid_t got = 0;

		if (pfd >= 0) {
			poll(&p, 1, timeout_ms);
			close(pfd);
			got = waitpid(r->pid, &status, WNOHANG);
		} else /* no pidfd (a kernel before 5.3): look every 10 ms */
			for (int waited = 0; (got = waitpid(r->pid, &status, WNOHANG)) == 0 && waited < timeout_ms;
			     waited += 10)
				usleep(10000);
		if (got != r->pid) {
			sj_warn("--record: the recorder did not finish within %d ms; killed (the file may "
				"lack its end)", timeout_ms);
			kill(r->pid, SIGKILL);
			waitpid(r->pid, &status, 0);
		}
		recorder_reaped(r, r->pid, status);
	}
	return r->status;
}
