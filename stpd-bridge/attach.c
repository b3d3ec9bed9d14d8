/* attach.c: see attach.h. HotSpot's attach protocol (Linux): a trigger file
 * and SIGQUIT start the listener, a Unix socket .java_pid<pid> in the VM's
 * temporary directory (always /tmp on Linux); a request is "1" then the
 * command and three arguments, each NUL-terminated; the answer is the
 * command's status on a line, then its output ("return code: N" for load
 * since JDK 9). */
#define _GNU_SOURCE
#include "attach.h"

#include <errno.h>
#include <fcntl.h>
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

#include "discovery.h"
#include "fdio.h"
#include "hsperf.h"

#define POLL_MS 20
#define ANSWER_MS 10000
/* HotSpot removes a .java_pid file it finds as the VM starts
 * (AttachListener::vm_start, for a stale one): a SIGQUIT handled just before
 * leaves a listener whose socket is gone, and only another SIGQUIT restarts
 * it (AttachListener::check_socket_file). Sent halfway through the wait, as
 * the JDK's own client does; not sooner, since a second SIGQUIT that reaches
 * a listener with its socket prints a thread dump on the JVM's stdout. */
#define RESEND_QUIT_MS (ATTACH_LISTENER_MS / 2)
_Static_assert(RESEND_QUIT_MS % POLL_MS == 0, "the wait passes RESEND_QUIT_MS exactly");

static int fail(char *why, size_t cap, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *why, size_t cap, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return err;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int open_tmp(int rootfd)
{
	int fd, rc = discovery_open_in_root(rootfd, "/tmp", &fd);

	return rc < 0 ? rc : fd;
}

static bool is_socket(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode);
}

bool attach_listener_running(const struct jvm_id *id, int rootfd)
{
	char sock[64];
	int tmpfd = open_tmp(rootfd);

	if (tmpfd < 0)
		return false;
	snprintf(sock, sizeof sock, ".java_pid%d", (int)id->nspid);
	bool there = is_socket(tmpfd, sock);
	close(tmpfd);
	return there;
}

/* Was the worker told to stop (its signals are blocked, read later from a
 * signalfd)? The waits below end then, and clean up what they made in the
 * JVM's /tmp, before the supervisor's SIGKILL. */
static bool stop_pending(void)
{
	sigset_t p;

	return sigpending(&p) == 0 &&
	       (sigismember(&p, SIGTERM) == 1 || sigismember(&p, SIGINT) == 1 || sigismember(&p, SIGHUP) == 1);
}

/* Between two polls of a wait: the JVM still the one being attached, the
 * bridge not told to stop (WHILE: what it was waiting for). 0: wait on. */
static int still_waiting(const struct jvm_id *id, const char *while_, char *why, size_t cap)
{
	if (!procfs_same_process(id))
		return fail(why, cap, -ESRCH, "the JVM exited while it was being attached");
	if (stop_pending())
		return fail(why, cap, -EINTR, "the bridge was stopped while %s", while_);
	return 0;
}

/* The listener's socket, started with the trigger file and SIGQUIT if needed. */
static int start_listener(const struct jvm_id *id, int tmpfd, const char *sock, char *why, size_t cap)
{
	char trigger[64];

	if (is_socket(tmpfd, sock))
		return 0;
	/* SIGQUIT would only make it print a thread dump: the supervisor saw
	 * no such flag on its command line, the JVM's own word is here */
	char perf[300];
	int off = hsperf_attach_disabled(tmpfd, id->uid, id->nspid, perf, sizeof perf);
	for (unsigned waited = 0; off == -EAGAIN && waited < ATTACH_LISTENER_MS; waited += POLL_MS) {
		int rc = still_waiting(id, "the JVM started", why, cap);
		if (rc < 0)
			return rc;
		sleep_ms(POLL_MS);
		off = hsperf_attach_disabled(tmpfd, id->uid, id->nspid, perf, sizeof perf);
	}
	if (off == 1)
		return fail(why, cap, -EPERM, "the JVM runs with its attach mechanism disabled "
			    "(-XX:+DisableAttachMechanism where its command line does not show it, "
			    "such as an @argfile; its %s says so): start it with -agentpath, see "
			    "stap-java(1)", perf);
	snprintf(trigger, sizeof trigger, ".attach_pid%d", (int)id->nspid);
	int fd = openat(tmpfd, trigger, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return fail(why, cap, -errno, "cannot create the attach trigger /tmp/%s in the JVM's "
			    "root: %s", trigger, strerror(errno));
	close(fd);
	if (kill(id->pid, SIGQUIT) < 0) {
		int err = -errno;
		unlinkat(tmpfd, trigger, 0);
		return fail(why, cap, err, "cannot signal the JVM: %s", strerror(-err));
	}
	for (unsigned waited = 0; !is_socket(tmpfd, sock); waited += POLL_MS) {
		int rc = still_waiting(id, "the JVM started its attach listener", why, cap);
		if (rc < 0) {
			unlinkat(tmpfd, trigger, 0);
			return rc;
		}
		if (waited >= ATTACH_LISTENER_MS) {
			unlinkat(tmpfd, trigger, 0);
			return fail(why, cap, -ETIMEDOUT, "the JVM did not start its attach listener within "
				    "%u ms, though sent SIGQUIT twice (attach disabled with "
				    "-XX:+DisableAttachMechanism, or not HotSpot?)", ATTACH_LISTENER_MS);
		}
		if (waited == RESEND_QUIT_MS)
			kill(id->pid, SIGQUIT);   /* gone meanwhile: said at the next round */
		sleep_ms(POLL_MS);
	}
	unlinkat(tmpfd, trigger, 0);
	return 0;
}

/* Does ROOTFD lead to our own root (the JVM sees our file system)? */
/* Does the JVM see the bridge's AGENT file at the same path? Not only a
 * container's other root: a mount namespace of its own (a private /tmp)
 * shares the root and still hides files. */
static bool agent_visible(int rootfd, const char *agent)
{
	struct stat mine, theirs;
	int fd;

	if (discovery_open_path_in_root(rootfd, agent, 0, &fd) < 0)
		return false;
	bool same = fstat(fd, &theirs) == 0 && stat(agent, &mine) == 0 &&
		    mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
	close(fd);
	return same;
}

/* AGENT copied into the JVM's /tmp; its name there in NAME. */
static int copy_agent(int tmpfd, const char *agent, char *name, size_t namecap, char *why, size_t cap)
{
	int in = open(agent, O_RDONLY | O_CLOEXEC), out = -1, rc = 0;
	char buf[65536];

	if (in < 0)
		return fail(why, cap, -errno, "cannot read the agent %s: %s", agent, strerror(errno));
	for (int tries = 0; out < 0 && tries < 16; tries++) {
		snprintf(name, namecap, "stapjava-agent-%d-%d.so", (int)getpid(), tries);
		out = openat(tmpfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (out < 0 && errno != EEXIST)
			break;
	}
	if (out < 0) {
		rc = fail(why, cap, -errno, "cannot copy the agent into the JVM's /tmp: %s", strerror(errno));
		name[0] = '\0';   /* none of ours: the caller must not remove it */
		close(in);
		return rc;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			break;
		if (n < 0 || fd_write_all(out, buf, (size_t)n) < 0) {
			rc = fail(why, cap, -errno, "cannot copy the agent into the JVM's /tmp: %s",
				  strerror(errno));
			break;
		}
	}
	close(in);
	if (close(out) < 0 && rc == 0)
		rc = fail(why, cap, -errno, "cannot copy the agent into the JVM's /tmp: %s", strerror(errno));
	if (rc < 0) {
		unlinkat(tmpfd, name, 0);
		name[0] = '\0';
	}
	return rc;
}

/* The listener must be the JVM itself, as the JDK's own client checks: in a
 * /tmp shared with other users, someone else's socket at that name would get
 * our load command and could answer it. */
static int connect_listener(const struct jvm_id *id, int tmpfd, const char *sock, char *why,
			    size_t cap)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return fail(why, cap, -errno, "socket: %s", strerror(errno));
	snprintf(sa.sun_path, sizeof sa.sun_path, "/proc/self/fd/%d/%s", tmpfd, sock);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		int err = -errno;
		close(fd);
		return fail(why, cap, err, "cannot connect to the JVM's attach listener: %s", strerror(-err));
	}
	struct ucred cred;
	socklen_t len = sizeof cred;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid != id->pid ||
	    cred.uid != id->uid) {
		int err = -EPERM;
		long lpid = len == sizeof cred ? (long)cred.pid : -1, luid = len == sizeof cred ? (long)cred.uid : -1;
		close(fd);
		return fail(why, cap, err, "the attach listener /tmp/%s is pid %ld uid %ld, not the JVM "
			    "(pid %d uid %d): not used", sock, lpid, luid, (int)id->pid, (int)id->uid);
	}
	return fd;
}

/* The whole answer (until EOF, at most CAP-1 bytes), NUL-terminated. */
static ssize_t read_answer(int fd, char *buf, size_t cap)
{
	size_t len = 0;

	for (unsigned waited = 0; len + 1 < cap;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, POLL_MS * 10);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0) {
			waited += POLL_MS * 10;
			if (waited >= ANSWER_MS)
				return -ETIMEDOUT;
			if (stop_pending())
				return -EINTR;
			continue;
		}
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Flatten the JVM's answer for a one-line message. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

static int load(int fd, const char *path, const char *options, char *why, size_t cap)
{
	char req[8192], answer[4096];
	int n = snprintf(req, sizeof req, "1%cload%c%s%ctrue%c%s%c", 0, 0, path, 0, 0, options, 0);

	if (n < 0 || (size_t)n >= sizeof req)
		return fail(why, cap, -ENAMETOOLONG, "the agent's path or options are too long");
	int sent = fd_send_all(fd, req, (size_t)n);
	if (sent < 0)
		return fail(why, cap, sent, "cannot send the load command: %s", strerror(-sent));
	ssize_t len = read_answer(fd, answer, sizeof answer);
	if (len < 0)
		return fail(why, cap, (int)len, "no answer from the JVM's attach listener: %s",
			    strerror((int)-len));
	char *end;
	long status = strtol(answer, &end, 10);
	if (end == answer)
		return fail(why, cap, -EPROTO, "the JVM's attach listener answered nothing");
	char *rest = end + strspn(end, "\n");
	one_line(rest);
	if (status != 0)
		return fail(why, cap, -EPERM, "the JVM refused to load the agent: %.300s", rest);
	if (strncmp(rest, "return code: ", 13) == 0)
		rest += 13;
	long rc = strtol(rest, &end, 10);
	if (end != rest && rc == 0)
		return 0;
	/* JDK 25 answers so itself, before the agent runs, while the VM starts */
	if ((end != rest && rc == ATTACH_TOO_EARLY) || strstr(rest, "only permitted in the live phase"))
		return fail(why, cap, -EAGAIN, "the JVM was still starting");
	if (end != rest && rc == ATTACH_TOO_OLD)
		return fail(why, cap, -ENOTSUP, "the JVM is too old: the agent needs JVMTI 11 (JDK 11 "
			    "or later)");
	/* a JVM that will not start it says why itself (JDK 21+ with
	 * -XX:-EnableDynamicAgentLoading): that is the reason, nothing is on its
	 * stderr; a return code alone is the agent's, which says why there */
	size_t said = strlen(rest);
	while (said && rest[said - 1] == ' ')
		said--;
	if (end == rest && said)
		return fail(why, cap, -EPERM, "the JVM did not start the agent: %.*s",
			    (int)(said < 300 ? said : 300), rest);
	return fail(why, cap, -EPERM, "the agent failed to start in the JVM (%.300s): the JVM's "
		    "stderr says why", rest);
}

int attach_agent(const struct jvm_id *id, int rootfd, const char *agent, const char *options,
		 char *why, size_t whycap)
{
	char sock[64], copied[128] = "", path[4096];
	int tmpfd = open_tmp(rootfd), fd = -1, rc;

	if (tmpfd < 0)
		return fail(why, whycap, tmpfd, "cannot open the JVM's /tmp: %s", strerror(-tmpfd));
	snprintf(sock, sizeof sock, ".java_pid%d", (int)id->nspid);
	rc = start_listener(id, tmpfd, sock, why, whycap);
	if (rc == 0 && !agent_visible(rootfd, agent)) {
		rc = copy_agent(tmpfd, agent, copied, sizeof copied, why, whycap);
		snprintf(path, sizeof path, "/tmp/%s", copied);
	} else {
		snprintf(path, sizeof path, "%s", agent);
	}
	/* a VM still starting unloads the agent and is asked again (attach.h) */
	for (unsigned waited = 0; rc == 0; waited += POLL_MS * 5) {
		fd = connect_listener(id, tmpfd, sock, why, whycap);
		rc = fd < 0 ? fd : load(fd, path, options, why, whycap);
		if (fd >= 0)
			close(fd);
		if (rc != -EAGAIN || waited >= ATTACH_LISTENER_MS)
			break;
		if ((rc = still_waiting(id, "the JVM was starting", why, whycap)) < 0)
			break;
		sleep_ms(POLL_MS * 5);
	}
	/* loaded (or not), the copy is no longer needed: the VM keeps its mapping */
	if (copied[0])
		unlinkat(tmpfd, copied, 0);
	close(tmpfd);
	return rc;
}
