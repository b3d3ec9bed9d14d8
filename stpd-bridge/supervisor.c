/* supervisor.c: see supervisor.h. */
#define _GNU_SOURCE /* pipe2 */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "discovery.h"
#include "jvmsel.h"
#include "jvmsets.h"
#include "fdio.h"
#include "log.h"
#include "monoclock.h"
#include "print.h"
#include "procfs.h"
#include "recorder.h"
#include "wire.h"
#include "worker.h"

#define STOP_GRACE_MS   3000  /* how long workers get to unregister */
#define RECORDER_GRACE_MS 30000 /* how long the recorder gets to end its file */
#define PARENT_POLL_MS  200   /* without a pidfd */
#define OUT_CHUNK       65536
/* A worker that dies (a signal: kill -9, a crash) is replaced after
 * RESTART_FIRST_MS, doubled at each death in a row, at most RESTART_MAX
 * times in a row; a worker that lived WORKER_STABLE_MS starts the count
 * again. Then the JVM is given up. */
#define RESTART_MAX      5
#define RESTART_FIRST_MS 100
#define WORKER_STABLE_MS 10000

struct child {
	pid_t pid;               /* the worker; 0 once reaped */
	bool attach;             /* it loads the agent first (worker.h) */
	uint64_t started_ms;
	struct jvm_id jvm;
	int rd;                  /* pipe from the worker; -1 at EOF */
	char *buf;               /* a partial line */
	size_t len, cap;
};

/* A JVM, not named, in which no agent socket was found (it runs without the
 * agent): looking for one takes /proc/PID/net/unix, which lists every unix
 * socket of its network namespace (thousands on a busy host), and its fds.
 * Once the JVM is older than QUIET_AFTER_MS (an agent loaded at start has
 * made its socket long before), it is looked at every QUIET_RECHECK_MS, not
 * at every scan: an agent loaded into it later (by another session's -x) is
 * found that much later. */
#define QUIET_AFTER_MS 30000
#define QUIET_RECHECK_MS 5000

struct supervisor {
	const struct bridge_options *o;
	int out_fd, log_fd, sigfd, parent_fd;
	uint64_t parent_start;   /* when polling the parent without a pidfd */
	struct child *kids;
	size_t nkids;
	struct jvm_list served;  /* JVMs that had a worker: never a second one */
	struct discovery *disc;
	struct jvm_list failed;  /* -x JVMs that cannot be served: not again */
	struct jvm_list told;    /* -x JVMs waited for (--no-attach; an agent not started yet), said once */
	struct jvm_list bad_socket; /* something unusable where the socket should be: said once */
	struct jvm_list unselected; /* JVMs --jvm does not select: their command line is read once */
	struct recorder rec;     /* --record */
	/* JVMs whose worker died, while they live: the next worker's start,
	 * count the deaths in a row (each worker dead within WORKER_STABLE_MS) */
	struct jvm_due_list restarts;
	/* JVMs without an agent socket, not named: their next look */
	struct jvm_due_list quiet;
	struct sj_log_repeat pipe_failures, fork_failures;
	bool stopping;
	bool output_failed;      /* exit status 1 */
	uint64_t stop_deadline;
};

static uint64_t now_ms(void)
{
	return monotonic_ns() / 1000000u;
}

/* ------------------------------------------------------------ workers' output */

static void begin_stop(struct supervisor *s, const char *why);

/* The lines cannot be written any more (a full disk, a closed pipe): said
 * once, the session ends in order (the workers unregister), status 1, and
 * what the workers still write is dropped. */
static void output_failed(struct supervisor *s, int err)
{
	s->output_failed = true;
	if (s->o->output)
		sj_error("output '%s': %s; stopping", s->o->output, strerror(err));
	else
		sj_error("standard output: %s; stopping", strerror(err));
	begin_stop(s, "the output failed");
}

/* Read what the worker wrote and pass on every complete line. */
static void drain_child(struct supervisor *s, struct child *k)
{
	for (;;) {
		ssize_t n;
		char *nl;

		if (k->cap - k->len < OUT_CHUNK) {
			size_t cap = k->cap ? 2 * k->cap : 2 * OUT_CHUNK;
			char *grown;

			if (cap > PRINT_LINE_MAX + 2 * OUT_CHUNK)
				cap = PRINT_LINE_MAX + 2 * OUT_CHUNK;
			if (cap <= k->cap || !(grown = realloc(k->buf, cap))) {
				/* cannot happen with our worker's bounded lines */
				sj_error("pid %d: worker output line too long; dropped", (int)k->jvm.pid);
				k->len = 0;
				continue;
			}
			k->buf = grown;
			k->cap = cap;
		}
		n = read(k->rd, k->buf + k->len, k->cap - k->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN) {
				close(k->rd);
				k->rd = -1;
			}
			return;
		}
		k->len += (size_t)n;
		nl = memrchr(k->buf, '\n', k->len);
		if (nl) {
			size_t whole = (size_t)(nl - k->buf) + 1;

			if (!s->output_failed && fd_write_all(s->out_fd, k->buf, whole) < 0)
				output_failed(s, errno);
			memmove(k->buf, k->buf + whole, k->len - whole);
			k->len -= whole;
		}
	}
}

/* ------------------------------------------------------------ spawning */

/* Is PID a JVM without an agent socket, not to be looked at yet? One read
 * (its start time: the pid may be another process's now) in place of all
 * of consider()'s. */
static bool quiet_now(struct supervisor *s, pid_t pid)
{
	const struct jvm_due *q = jvm_due_of_pid(&s->quiet, pid);
	uint64_t st;

	return q && now_ms() < q->due_ms && procfs_starttime(pid, &st) == 0 && st == q->jvm.starttime;
}

/* ID had no agent socket: once it is old enough, look again later. Out of
 * memory, it is simply looked at every scan. */
static void quiet_note(struct supervisor *s, const struct jvm_id *id)
{
	struct jvm_due *q;

	if (procfs_age_ms(id) < QUIET_AFTER_MS)
		return;
	q = jvm_due_of_pid(&s->quiet, id->pid);
	if (!q)
		q = jvm_due_add(&s->quiet, id);
	if (q)
		*q = (struct jvm_due){ .jvm = *id, .due_ms = now_ms() + QUIET_RECHECK_MS };
}

static void restart_forget(struct supervisor *s, const struct jvm_id *id)
{
	struct jvm_due *r = jvm_due_of(&s->restarts, id);

	if (r)
		jvm_due_remove(&s->restarts, r);
}

/* Is a worker of JVM (by pid) running? Such a JVM needs no look at /proc
 * at each scan: its worker ends when it does (the socket closes), and it is
 * looked at again once the worker is reaped. Those reads, at every scan of
 * -x, were most of the supervisor's CPU under a short --rescan-ms
 * (bench/profile-share). */
static bool has_running_worker(const struct supervisor *s, pid_t jvm)
{
	for (size_t i = 0; i < s->nkids; i++)
		if (s->kids[i].pid > 0 && s->kids[i].jvm.pid == jvm)
			return true;
	return false;
}

static void forget_dead(const struct supervisor *s, struct jvm_list *l)
{
	for (size_t i = 0; i < l->n;)
		if (!has_running_worker(s, l->v[i].pid) && !procfs_same_process(&l->v[i]))
			jvm_list_remove_at(l, i);
		else
			i++;
}

static void forget_dead_served(struct supervisor *s)
{
	forget_dead(s, &s->served);
	forget_dead(s, &s->bad_socket);
	forget_dead(s, &s->unselected);
	for (size_t i = 0; i < s->restarts.n;)
		if (!procfs_same_process(&s->restarts.v[i].jvm))
			jvm_due_remove(&s->restarts, &s->restarts.v[i]);
		else
			i++;
}

/* A JVM named with -x that cannot be served: said once, then the bridge
 * ends with status 1 when nothing else is left to serve. */
static void mark_failed(struct supervisor *s, const struct jvm_id *id)
{
	jvm_list_add(&s->failed, id);
}

/* K died of signal SIG while the bridge runs and its JVM lives: another
 * worker registers from scratch (the agent ended the dead one's
 * registrations when its socket closed), after a backoff; after
 * RESTART_MAX in a row the JVM is given up (with -x, a failure). */
static void worker_died(struct supervisor *s, const struct child *k, pid_t pid, int sig)
{
	struct jvm_due *r = jvm_due_of(&s->restarts, &k->jvm);
	uint64_t now = now_ms();
	unsigned delay;

	if (!r)
		r = jvm_due_add(&s->restarts, &k->jvm);
	if (r && now - k->started_ms >= WORKER_STABLE_MS)
		r->count = 0;
	if (!r || ++r->count > RESTART_MAX) {
		if (r)
			sj_error("pid %d: worker %d died of signal %d (%s); %u workers in a row died within "
				 "%u ms of their start: giving up on this JVM, its events are not traced any "
				 "more", (int)k->jvm.pid, (int)pid, sig, strsignal(sig), r->count,
				 WORKER_STABLE_MS);
		else
			sj_error("pid %d: worker %d died of signal %d (%s); no memory to start another: "
				 "giving up on this JVM", (int)k->jvm.pid, (int)pid, sig, strsignal(sig));
		restart_forget(s, &k->jvm);
		/* it stays served: no worker again while it lives */
		if (s->o->npids)
			mark_failed(s, &k->jvm);
		return;
	}
	delay = RESTART_FIRST_MS << (r->count - 1);
	r->due_ms = now + delay;
	jvm_list_remove(&s->served, &k->jvm);
	sj_warn("pid %d: worker %d died of signal %d (%s); another starts in %u ms (restart %u of "
		"%u): the JVM's events until it has registered again are lost", (int)k->jvm.pid,
		(int)pid, sig, strsignal(sig), delay, r->count, RESTART_MAX);
}

/* Is this the first time ID is told it is waited for? (A bridge that only
 * waits would look like one that hangs: it says so, once.) */
static bool first_told(struct supervisor *s, const struct jvm_id *id)
{
	if (jvm_list_has(&s->told, id))
		return false;
	jvm_list_add(&s->told, id);
	return true;
}

/* A named JVM whose agent has not started (no I/O thread: the VM is still
 * starting). */
static void tell_agent_not_started(struct supervisor *s, const struct jvm_id *id, int64_t age)
{
	if (first_told(s, id))
		sj_warn("pid %d: runs with the stapjava agent, whose I/O thread has not started %lld ms "
			"after the JVM did (the VM has not finished starting, or the agent failed: its log "
			"says); waiting for its socket", (int)id->pid, (long long)age);
}

/* --no-attach: a named JVM without a socket. */
static void tell_no_socket_yet(struct supervisor *s, const struct jvm_id *id, const char *why)
{
	if (first_told(s, id))
		sj_warn("pid %d: no agent socket yet: %s; waiting for it (--no-attach: the agent is not "
			"loaded into a running JVM)", (int)id->pid, why);
}

/* DIR: with a socket's DIRFD, that directory as the JVM sees it. */
static void spawn(struct supervisor *s, const struct jvm_id *id, int dirfd, const char *dir, bool attach)
{
	struct child *grown, *k;
	pid_t pid, self = getpid();
	int p[2];

	grown = realloc(s->kids, (s->nkids + 1) * sizeof *grown);
	if (!grown)
		return;
	s->kids = grown;
	/* out of descriptors or processes, every scan tries again: said once
	 * while it lasts, then counted */
	if (pipe2(p, O_CLOEXEC) < 0) {
		sj_log_repeat(&s->pipe_failures, SJ_LOG_ERROR, errno, "starting a worker: pipe");
		return;
	}
	sj_log_repeat_end(&s->pipe_failures);
	pid = fork();
	if (pid < 0) {
		sj_log_repeat(&s->fork_failures, SJ_LOG_ERROR, errno, "starting a worker: fork");
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		struct worker_config cfg = { .jvm = *id, .opts = s->o, .out_fd = p[1], .rec_fd = s->rec.wr,
					     .sockdir_fd = dirfd, .attach = attach, .supervisor = self };

		snprintf(cfg.sockdir, sizeof cfg.sockdir, "%s", dir);
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) { /* the worker never reads stdin or writes stdout */
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		/* nothing of the other workers (their pipes must see EOF when
		 * they die) or of the supervisor */
		fd_close_all_but((int[]){ p[1], s->log_fd, dirfd, s->rec.wr }, 4);
		_exit(worker_main(&cfg));
	}
	sj_log_repeat_end(&s->fork_failures);
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	k = &s->kids[s->nkids++];
	memset(k, 0, sizeof *k);
	k->pid = pid;
	k->attach = attach;
	k->started_ms = now_ms();
	k->jvm = *id;
	k->rd = p[0];
	struct jvm_due *r = jvm_due_of(&s->restarts, id);
	if (r)
		r->due_ms = 0; /* started: only its count of deaths is kept */
	sj_info("pid %d: worker %d started (uid %u gid %u)", (int)id->pid, (int)pid,
		(unsigned)id->uid, (unsigned)id->gid);
	jvm_list_add(&s->served, id);
}

/* A process just started (`java ... & stpd-bridge -x $!`) may not have
 * exec'd java yet: it gets this long to become a JVM. */
#define BECOME_JVM_MS 5000
/* A named JVM younger than this may not have made its agent socket or set
 * up its signals yet: what it lacks is said only after. */
#define SETTLE_MS 10000

static void say_not_a_jvm(pid_t pid)
{
	sj_error("-x %d: not a JVM (no java executable, no libjvm.so mapped)", (int)pid);
}

/* True (and said once, the pid given up) when a named PID is not a JVM. */
static bool not_a_jvm(struct supervisor *s, const struct jvm_id *id)
{
	if (procfs_is_jvm(id->pid) == 1)
		return false;
	int64_t age = procfs_age_ms(id);
	if (age >= 0 && age < BECOME_JVM_MS)
		return true;       /* look again next scan */
	say_not_a_jvm(id->pid);
	mark_failed(s, id);
	return true;
}

/* Does PID run an agent of ours already? Another copy loaded beside it
 * would take over the injected calls' natives and silence the first. The
 * agent's I/O thread names it from VMInit on (a copy made for another root
 * included); before that, the library's name. */
static bool has_agent(const struct supervisor *s, pid_t pid)
{
	const char *base = s->o->agent ? strrchr(s->o->agent, '/') : NULL;

	return procfs_has_thread(pid, WIRE_AGENT_IO_THREAD) || procfs_maps_file(pid, "libstapjava.so") ||
	       (base && base[1] && procfs_maps_file(pid, base + 1)) ||
	       procfs_jvm_mentions(pid, "libstapjava");
}

/* Serve PID if it is a JVM we may serve, with an agent socket, and no worker
 * yet. A JVM NAMED with -x that runs without the agent gets it loaded
 * (attach.h) once it handles SIGQUIT (HotSpot's handler is installed while
 * the VM starts: before that the signal would kill it). */
static void consider(struct supervisor *s, pid_t pid, bool named)
{
	struct jvm_id id;
	int dirfd, rc;

	if (has_running_worker(s, pid) || (!named && quiet_now(s, pid)))
		return;
	rc = procfs_read_jvm(pid, &id);
	if (rc < 0) {
		if (named)
			sj_debug("pid %d: cannot read /proc: %s", (int)pid, strerror(-rc));
		return;
	}
	if (jvm_list_has(&s->served, &id) || jvm_list_has_pid(&s->failed, pid))
		return;
	const struct jvm_due *r = jvm_due_of(&s->restarts, &id);
	if (r && now_ms() < r->due_ms)
		return;
	/* a bridge that is not root can only become its own uid */
	if (geteuid() != 0 && id.uid != geteuid()) {
		if (named) {
			sj_error("pid %d: owned by uid %u; only root may serve other users' JVMs",
				 (int)pid, (unsigned)id.uid);
			mark_failed(s, &id);
		}
		return;
	}
	struct agent_socket sock;
	char why[1024];
	rc = discovery_find_socket(&id, -1, s->o->sockdir, &sock, why, sizeof why);
	if (rc == 0) {
		spawn(s, &id, sock.dirfd, sock.dir, false);
		close(sock.dirfd);
		return;
	}
	/* a symlink or a stranger's file where the socket should be */
	if (rc != -ENOENT && !jvm_list_has(&s->bad_socket, &id) && (named || has_agent(s, pid))) {
		jvm_list_add(&s->bad_socket, &id);
		sj_warn("pid %d: %s: not used (said once)", (int)pid, why);
	}
	/* no agent socket (yet): a JVM given the agent at start (or loaded
	 * with it) makes one at VMInit; only a JVM without it is attached */
	if (!named) {
		if (rc == -ENOENT)
			quiet_note(s, &id);
		return;
	}
	if (not_a_jvm(s, &id))
		return;
	/* what it could not do yet is said once the JVM has had time to start */
	int64_t age = procfs_age_ms(&id);
	bool settled = age < 0 || age >= SETTLE_MS;
	if (s->o->no_attach) {
		if (settled)
			tell_no_socket_yet(s, &id, why);
		return;
	}
	if (has_agent(s, pid)) {
		/* the agent makes its socket as its I/O thread starts, once the VM
		 * has started (VMInit): a JVM that starts slowly is waited for, as
		 * long as it takes, and said to once; an I/O thread that ran
		 * SETTLE_MS without a socket is a failure */
		int64_t io_age = procfs_thread_age_ms(pid, WIRE_AGENT_IO_THREAD);
		if (io_age < 0) {
			if (settled)
				tell_agent_not_started(s, &id, age);
			return;
		}
		if (io_age < SETTLE_MS)
			return;
		sj_error("pid %d: runs with the stapjava agent, but its socket cannot be found: %s: the "
			 "agent did not start (the JVM's stderr or the agent's log says why), or was given "
			 "another sockdir= (give the bridge the same with --sockdir)", (int)pid, why);
		mark_failed(s, &id);
		return;
	}
	/* SIGQUIT would only make it print a thread dump */
	if (procfs_jvm_flag(pid, "DisableAttachMechanism") == 1) {
		sj_error("pid %d: started with -XX:+DisableAttachMechanism: the agent cannot be loaded "
			 "into it (start it with -agentpath, see stap-java(1))", (int)pid);
		mark_failed(s, &id);
		return;
	}
	if (discovery_open_root(&id, &dirfd) < 0) {
		sj_error("pid %d: cannot open its root directory to attach the agent: %s", (int)pid,
			 strerror(errno));
		mark_failed(s, &id);
		return;
	}
	/* HotSpot handles SIGQUIT once the VM runs (before, the signal would
	 * kill it); with -Xrs it handles none but starts its listener at once */
	if (procfs_catches_signal(pid, SIGQUIT) || attach_listener_running(&id, dirfd)) {
		spawn(s, &id, dirfd, "", true);
	} else if (settled) {
		sj_error("pid %d: the JVM handles no SIGQUIT and has no attach listener (started with "
			 "-Xrs, or not HotSpot?): the agent cannot be loaded into it (start it with "
			 "-agentpath, see stap-java(1))", (int)pid);
		mark_failed(s, &id);
	}
	close(dirfd);
}

/* Without -x: every JVM, or with --jvm those it selects, as named ones
 * (they get the agent loaded). */
static void consider_selected(struct supervisor *s, pid_t pid)
{
	struct jvm_id id;

	if (!s->o->njvms) {
		consider(s, pid, false);
		return;
	}
	/* a JVM's command line does not change once it is a JVM (exec keeps
	 * the pid, but discovery calls it a JVM only after the exec): read it
	 * once, not at every scan */
	if (procfs_read_jvm(pid, &id) < 0 || jvm_list_has(&s->unselected, &id))
		return;
	if (jvm_list_has(&s->served, &id) || jvmsel_matches(pid, s->o->jvms, s->o->njvms))
		consider(s, pid, true);
	else
		jvm_list_add(&s->unselected, &id);
}

static void scan(struct supervisor *s)
{
	pid_t *pids;
	size_t n;

	forget_dead_served(s);
	if (s->o->npids) {
		for (size_t i = 0; i < s->o->npids; i++)
			consider(s, s->o->pids[i], true);
		return;
	}
	if (discovery_scan(s->disc, &pids, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		consider_selected(s, pids[i]);
	jvm_due_keep_pids(&s->quiet, pids, n);  /* the others are gone */
	free(pids);
}

/* --matches: has every named JVM had its worker, or failed? */
static bool named_all_listed(const struct supervisor *s)
{
	for (size_t i = 0; i < s->o->npids; i++)
		if (!jvm_list_has_pid(&s->served, s->o->pids[i]) && !jvm_list_has_pid(&s->failed, s->o->pids[i]))
			return false;
	return true;
}

/* With -x: is every named process gone, or one that cannot be served? */
static bool named_all_gone(const struct supervisor *s)
{
	for (size_t i = 0; i < s->o->npids; i++)
		if (!jvm_list_has_pid(&s->failed, s->o->pids[i]) && (kill(s->o->pids[i], 0) == 0 || errno == EPERM))
			return false;
	return s->o->npids > 0;
}

/* A named PID must exist and be this bridge's to serve: 0, or a negative
 * errno after one line naming what is wrong. */
static int named_pid_readable(pid_t pid, struct jvm_id *id)
{
	int rc = procfs_read_jvm(pid, id);

	if (rc == -EACCES || rc == -EPERM) {
		struct stat st;
		char path[32];
		snprintf(path, sizeof path, "/proc/%d", (int)pid);
		if (stat(path, &st) == 0)
			sj_error("-x %d: owned by uid %u; only root may serve other users' JVMs",
				 (int)pid, (unsigned)st.st_uid);
		else
			sj_error("-x %d: %s", (int)pid, strerror(-rc));
	} else if (rc < 0) {
		sj_error("-x %d: %s", (int)pid, rc == -ENOENT || rc == -ESRCH ? "no such process"
									       : strerror(-rc));
	} else if (id->tgid != pid) {
		/* /proc/TID exists too, though no listing shows it: serving it
		 * would signal the process for a thread's sake */
		sj_error("-x %d: a thread of process %d, not a process (-x %d names the process)", (int)pid,
			 (int)id->tgid, (int)id->tgid);
		rc = -ESRCH;
	}
	return rc;
}

/* With -x: each named pid must exist and be this bridge's to serve (whether
 * it is a JVM is known once it has had time to exec one: consider()). */
static int check_named(struct supervisor *s)
{
	for (size_t i = 0; i < s->o->npids; i++) {
		struct jvm_id id;

		if (named_pid_readable(s->o->pids[i], &id) < 0) {
			id.pid = s->o->pids[i];
			mark_failed(s, &id);
		}
	}
	return s->o->npids && s->failed.n == s->o->npids ? -ESRCH : 0;
}

int supervisor_check_named(const struct bridge_options *o)
{
	int bad = 0;

	for (size_t i = 0; i < o->npids; i++) {
		struct jvm_id id;

		if (named_pid_readable(o->pids[i], &id) < 0) {
			bad++;
			continue;
		}
		/* a process just started may not have exec'd java yet */
		for (int64_t age = procfs_age_ms(&id); procfs_is_jvm(id.pid) != 1; age = procfs_age_ms(&id)) {
			if (age < 0 || age >= BECOME_JVM_MS) {
				say_not_a_jvm(id.pid);
				bad++;
				break;
			}
			usleep(50000);
		}
	}
	return bad ? -ESRCH : 0;
}

/* The recorder ended before the session (--record-max, a write error):
 * with nothing else to do with the events, the session ends too. */
static void recorder_ended(struct supervisor *s)
{
	if (!s->stopping && !s->o->print && !s->o->fire)
		begin_stop(s, "the recording stopped, and nothing else is done with the events");
}

static void reap(struct supervisor *s)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (recorder_reaped(&s->rec, pid, status)) {
			recorder_ended(s);
			continue;
		}
		for (size_t i = 0; i < s->nkids; i++) {
			struct child *k = &s->kids[i];

			if (k->pid != pid)
				continue;
			k->pid = 0;
			if (k->attach && WIFEXITED(status) && WEXITSTATUS(status) == WORKER_NO_AGENT)
				mark_failed(s, &k->jvm);
			/* --matches: a JVM that did not answer fails the run */
			else if (s->o->matches && !(WIFEXITED(status) && WEXITSTATUS(status) == WORKER_DONE))
				mark_failed(s, &k->jvm);
			else if (WIFSIGNALED(status) && !s->stopping && procfs_same_process(&k->jvm)) {
				worker_died(s, k, pid, WTERMSIG(status));
				break;
			}
			restart_forget(s, &k->jvm);
			if (WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM)
				sj_warn("pid %d: worker %d died of signal %d", (int)k->jvm.pid, (int)pid,
					WTERMSIG(status));
			else
				sj_debug("pid %d: worker %d exited with status %d", (int)k->jvm.pid, (int)pid,
					 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		}
	}
}

/* Drop the children that have exited and whose output is all read. */
static void forget_finished(struct supervisor *s)
{
	for (size_t i = 0; i < s->nkids;) {
		struct child *k = &s->kids[i];

		if (k->pid == 0 && k->rd < 0) {
			free(k->buf);
			s->kids[i] = s->kids[--s->nkids];
		} else
			i++;
	}
}

static void begin_stop(struct supervisor *s, const char *why)
{
	if (s->stopping)
		return;
	sj_info("stopping: %s", why);
	s->stopping = true;
	s->stop_deadline = now_ms() + STOP_GRACE_MS;
	for (size_t i = 0; i < s->nkids; i++)
		if (s->kids[i].pid > 0)
			kill(s->kids[i].pid, SIGTERM);
}

static void kill_remaining(struct supervisor *s)
{
	for (size_t i = 0; i < s->nkids; i++)
		if (s->kids[i].pid > 0) {
			sj_warn("pid %d: worker %d did not stop in time; killed", (int)s->kids[i].jvm.pid,
				(int)s->kids[i].pid);
			kill(s->kids[i].pid, SIGKILL);
			waitpid(s->kids[i].pid, NULL, 0);
			s->kids[i].pid = 0;
		}
}

static bool parent_alive(const struct supervisor *s)
{
	uint64_t st;

	return procfs_starttime(s->o->parent, &st) == 0 && st == s->parent_start;
}

static int watch_parent(struct supervisor *s)
{
	pid_t parent = s->o->parent;

	s->parent_fd = -1;
	if (!parent)
		return 0;
	if (procfs_starttime(parent, &s->parent_start) < 0) {
		sj_error("--parent %d: no such process", (int)parent);
		return -ESRCH;
	}
	s->parent_fd = -1;
	if (parent == getppid()) /* the kernel tells us at once */
		prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	s->parent_fd = (int)syscall(SYS_pidfd_open, parent, 0);
	if (s->parent_fd < 0)
		sj_debug("--parent %d: no pidfd (%s); polling every %d ms", (int)parent,
			 strerror(errno), PARENT_POLL_MS);
	/* it may have died between the two looks */
	if (!parent_alive(s)) {
		sj_error("--parent %d: exited while the bridge started", (int)parent);
		return -ESRCH;
	}
	return 0;
}

static int setup_signals(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void on_signals(struct supervisor *s)
{
	struct signalfd_siginfo si;

	while (read(s->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGCHLD)
			reap(s);
		else
			begin_stop(s, strsignal((int)si.ssi_signo));
	}
}

static int poll_once(struct supervisor *s, int timeout)
{
	size_t nfds = 2 + s->nkids;
	struct pollfd *fds = calloc(nfds, sizeof *fds);
	int n;

	if (!fds)
		return -ENOMEM;
	fds[0] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = s->stopping ? -1 : s->parent_fd, .events = POLLIN };
	for (size_t i = 0; i < s->nkids; i++)
		fds[2 + i] = (struct pollfd){ .fd = s->kids[i].rd, .events = POLLIN };
	n = poll(fds, (nfds_t)nfds, timeout);
	if (n > 0) {
		/* output first: a worker's last lines come before its end */
		for (size_t i = 0; i < s->nkids; i++)
			if (fds[2 + i].revents)
				drain_child(s, &s->kids[i]);
		if (fds[0].revents)
			on_signals(s);
		if (fds[1].revents)
			begin_stop(s, "the --parent process exited");
	}
	free(fds);
	return n < 0 && errno != EINTR ? -errno : 0;
}

static int loop(struct supervisor *s)
{
	uint64_t next_scan = 0, next_parent_check = 0;

	for (;;) {
		uint64_t now = now_ms();
		int timeout;

		if (!s->stopping) {
			if (s->o->parent && s->parent_fd < 0 && now >= next_parent_check) {
				next_parent_check = now + PARENT_POLL_MS;
				if (!parent_alive(s))
					begin_stop(s, "the --parent process exited");
			}
			if (!s->stopping && now >= next_scan) {
				scan(s);
				next_scan = now + s->o->rescan_ms;
			}
			uint64_t restart = jvm_due_next(&s->restarts, now);
			if (restart && restart < next_scan)
				next_scan = restart;
			if (!s->stopping && s->nkids == 0 && named_all_gone(s))
				begin_stop(s, "every JVM named with -x is gone or cannot be served");
			if (!s->stopping && s->nkids == 0 && s->o->matches && named_all_listed(s))
				begin_stop(s, "every JVM named with -x has answered");
		}
		forget_finished(s);
		if (s->stopping && s->nkids == 0)
			return 0;
		if (s->stopping && now >= s->stop_deadline) {
			kill_remaining(s);
			for (size_t i = 0; i < s->nkids; i++)
				if (s->kids[i].rd >= 0)
					drain_child(s, &s->kids[i]);
			return 0;
		}
		timeout = (int)(s->stopping ? s->stop_deadline - now
				: next_scan > now ? next_scan - now : 0);
		if (s->o->parent && s->parent_fd < 0 && timeout > PARENT_POLL_MS)
			timeout = PARENT_POLL_MS;
		if (poll_once(s, timeout) < 0)
			return 1;
	}
}

int supervisor_run(const struct bridge_options *o, int out_fd, int log_fd, int record_fd)
{
	struct supervisor s = { .o = o, .out_fd = out_fd, .log_fd = log_fd, .parent_fd = -1,
				.rec = { .wr = -1, .status = -1 } };
	int rc;

	s.sigfd = setup_signals();
	s.disc = discovery_new();
	if (s.sigfd < 0 || !s.disc) {
		sj_error("setup: %s", strerror(errno));
		if (record_fd >= 0)
			close(record_fd);
		return 1;
	}
	/* before any worker: each gets the record channel */
	if (record_fd >= 0 && recorder_spawn(&s.rec, o, record_fd, log_fd) < 0)
		rc = 1;
	else if (watch_parent(&s) < 0 || check_named(&s) < 0)
		rc = 1;
	else {
		sj_info("serving %s; looking for agents every %u ms",
			o->npids ? "the JVMs named with -x" : o->njvms ? "the JVMs named with --jvm" : "every JVM", o->rescan_ms);
		rc = loop(&s);
		/* a JVM named with -x that could not be served fails the run */
		if (rc == 0 && (s.failed.n || s.output_failed))
			rc = 1;
	}
	/* the workers are gone: the recorder sees the end of its input */
	recorder_stop_input(&s.rec);
	if (recorder_wait(&s.rec, RECORDER_GRACE_MS) > 0)
		rc = 1;
	for (size_t i = 0; i < s.nkids; i++) {
		free(s.kids[i].buf);
		if (s.kids[i].rd >= 0)
			close(s.kids[i].rd);
	}
	free(s.kids);
	jvm_due_free(&s.restarts);
	jvm_list_free(&s.served);
	jvm_list_free(&s.failed);
	jvm_list_free(&s.told);
	jvm_list_free(&s.bad_socket);
	jvm_list_free(&s.unselected);
	jvm_due_free(&s.quiet);
	discovery_free(s.disc);
	if (s.parent_fd >= 0)
		close(s.parent_fd);
	close(s.sigfd);
	return rc;
}
