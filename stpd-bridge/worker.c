/* worker.c: see worker.h. */
#include "worker.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "connection.h"
#include "discovery.h"
#include "handler.h"
#include "log.h"
#include "monoclock.h"
#include "privsep.h"

/* After Reset, how long the agent has to close its side (it does as soon as
 * its I/O thread reads our end: a few ms) before we close regardless. */
#define WORKER_END_MS 1000u
#define SUPERVISOR_CHECK_MS 1000
#define MESSAGE_STALL_MS 10000   /* part of a message, then silence: the agent is stuck or hostile */
#define AGENT_SOCKET_MS 10000  /* from the agent loaded to its socket */

struct worker {
	const struct worker_config *cfg;
	struct agent_conn conn;
	struct handler h;        /* thread names, --print, --fire */
	struct wire_event *ev;   /* large: one, reused */
	int sigfd;
	pid_t pid;               /* the JVM's, for log lines */
	uint64_t partial_since_ns; /* the last read left a message unfinished (0: none) */
	size_t lists_answered;   /* --matches: MatchEnds received */
	unsigned handled;        /* events handled, counted for ack_progress */
	uint64_t progress_acked_ns; /* when ack_progress last sent an Ack */
	bool progress_acks_off;  /* sending one failed: the agent is gone */
};

/* How a step ended: go on, stop quietly, or stop because the peer failed. */
enum step { STEP_OK, STEP_STOP, STEP_REFUSE };

static int send_jfr(void *ctx, const struct wire_jfr_event *e)
{
	struct worker *w = ctx;
	int rc = conn_send_jfr_event(&w->conn, e);

	if (rc < 0)
		sj_warn("pid %d: sending a JFR event to the agent failed: %s", w->pid, strerror(-rc));
	return rc;
}

static enum step registrations(struct worker *w)
{
	int rc;

	w->conn.hello_done = true;
	const struct bridge_options *o = w->cfg->opts;
	const struct conn_in_thread it = { &o->slots, o->session };

	if (o->matches && !o->jfr_types) {
		rc = conn_send_list(&w->conn, &o->reg);
		if (rc < 0 && rc != -EPROTONOSUPPORT)
			sj_warn("pid %d: asking for the matches failed: %s", w->pid, strerror(-rc));
		return rc < 0 ? STEP_STOP : STEP_OK;
	}
	rc = conn_send_registrations(&w->conn, &o->reg, o->in_thread ? &it : NULL);
	if (rc == -EPROTONOSUPPORT)
		return STEP_STOP;
	if (o->in_thread && (w->conn.peer.caps & WIRE_CAP_JFR_FIRE))
		handler_send_jfr_to(&w->h, send_jfr, w);
	if (rc < 0) {
		sj_warn("pid %d: sending the registrations failed: %s", w->pid, strerror(-rc));
		return STEP_STOP;
	}
	return STEP_OK;
}

/* Only as the agent's first message (conn_check_order). */
static enum step on_hello(struct worker *w, const struct wire_hello *h)
{
	if (wire_peer_accept_hello(&w->conn.peer, h, CONN_OUR_CAPS) < 0) {
		sj_warn("pid %d: disconnecting: Hello with byte order 0x%02x, version %u", w->pid,
			h->order, h->version);
		return STEP_REFUSE;
	}
	if (h->pid != (uint32_t)w->cfg->jvm.nspid)
		sj_warn("pid %d: the agent's Hello says pid %u, expected %d", w->pid, h->pid,
			(int)w->cfg->jvm.nspid);
	sj_info("pid %d: agent \"%.*s\", protocol %u, capabilities 0x%02x", w->pid,
		(int)(h->description.len > 200 ? 200 : h->description.len), h->description.ptr,
		h->version, w->conn.peer.caps);
	/* a late Hello too: an agent that ignored what went with our Hello
	 * still needs its registration (conn_next_step) */
	return registrations(w);
}

/* VmDeath of a connection that acknowledges the VM's end: every event
 * before it is handled and its lines are written; the JVM may end. An
 * agent that no longer waits (it gave up, or is gone) is no error here: its
 * log says what it gave up on. */
static enum step ack_end(struct worker *w, uint64_t seq)
{
	int rc = handler_flush(&w->h);

	if (rc < 0) { /* the supervisor is gone */
		sj_debug("pid %d: output: %s", w->pid, strerror(-rc));
		return STEP_STOP;
	}
	rc = conn_send_ack(&w->conn, seq);
	if (rc < 0)
		sj_info("pid %d: the agent did not wait for our acknowledgement of the VM's end: %s",
			w->pid, strerror(-rc));
	return STEP_OK;
}

static enum step on_event(struct worker *w, const struct wire_event *ev)
{
	enum step s;
	int rc;

	if (ev->code == WIRE_EV_HELLO)
		return on_hello(w, &ev->hello);
	if (!w->conn.hello_done) { /* an Appendix-only agent that talks first */
		sj_info("pid %d: the agent's first message is %s, not a Hello: speaking Appendix A/B only",
			w->pid, wire_event_name(ev->code));
		s = registrations(w);
		if (s != STEP_OK)
			return s;
	}
	/* the markers fire in there, before the Ack below: in sync mode the
	 * handlers run while the Java thread waits */
	rc = handler_event(&w->h, ev);
	if (rc < 0) { /* the supervisor is gone */
		sj_debug("pid %d: output: %s", w->pid, strerror(-rc));
		return STEP_STOP;
	}
	/* --jfr-types: done once the JVM's types are listed, or the agent
	 * said no recording serves the session (none selected, JFR unavailable) */
	if (w->cfg->opts->jfr_types && (w->h.jfr_listed || w->h.jfr_none))
		return STEP_STOP;
	/* --matches: done once every pattern's list has ended */
	if (ev->code == WIRE_EV_MATCH_END && w->cfg->opts->matches &&
	    ++w->lists_answered == w->cfg->opts->reg.n)
		return STEP_STOP;
	if (ev->code == WIRE_EV_VM_DEATH && ev->has_trailer && conn_acks_end(&w->conn))
		return ack_end(w, ev->trailer.seq);
	if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_SYNC)) {
		rc = conn_queue_ack(&w->conn, ev->trailer.seq);
		if (rc < 0) {
			sj_warn("pid %d: sending Ack failed: %s", w->pid, strerror(-rc));
			return STEP_STOP;
		}
	}
	return STEP_OK;
}

/* What one read brought is handled: write its lines, then send its Acks,
 * before waiting again (handler.h, connection.h). */
static enum step end_batch(struct worker *w)
{
	int rc = handler_flush(&w->h);

	if (rc < 0) { /* the supervisor is gone */
		sj_debug("pid %d: output: %s", w->pid, strerror(-rc));
		return STEP_STOP;
	}
	rc = conn_flush_acks(&w->conn);
	if (rc < 0) {
		sj_warn("pid %d: sending Ack failed: %s", w->pid, strerror(-rc));
		return STEP_STOP;
	}
	return STEP_OK;
}

/* A connection that acknowledges the VM's end: what is handled is
 * acknowledged at most every PROGRESS_ACK_NS (the clock read every
 * PROGRESS_CHECK events), so that a JVM that waits at its end for our
 * acknowledgement sees us progress however slow the handlers, or the
 * output they wait for, are. */
#define PROGRESS_CHECK  64u
#define PROGRESS_ACK_NS 100000000u

static enum step ack_progress(struct worker *w)
{
	const uint64_t now = monotonic_ns();
	int rc;

	if (now - w->progress_acked_ns < PROGRESS_ACK_NS)
		return STEP_OK;
	w->progress_acked_ns = now;
	rc = conn_send_ack(&w->conn, w->conn.last_seq);
	if (rc < 0) {
		/* what the agent sent before it went is still read and handled */
		sj_debug("pid %d: an Ack of progress: %s; no more", w->pid, strerror(-rc));
		w->progress_acks_off = true;
	}
	return STEP_OK;
}

/* Decode and handle every whole message in the reader. */
static enum step handle_events(struct worker *w)
{
	struct wire_error err;

	for (;;) {
		size_t len, used;
		const uint8_t *data = wire_reader_data(&w->conn.rd, &len);
		int rc;
		enum step s;

		if (len == 0)
			return STEP_OK;
		err.text[0] = '\0'; /* set by the decoder when it says why */
		rc = wire_decode_event(&w->conn.peer, data, len, w->ev, &used, &err);
		if (rc == -EAGAIN)
			return STEP_OK;
		if (rc < 0) {
			sj_warn("pid %d: disconnecting: %s", w->pid,
				err.text[0] ? err.text : "malformed message");
			return STEP_REFUSE;
		}
		rc = conn_check_order(&w->conn, w->ev, err.text, sizeof err.text);
		if (rc < 0) {
			sj_warn("pid %d: disconnecting: %s", w->pid, err.text);
			return STEP_REFUSE;
		}
		if (rc > 0)
			sj_warn("pid %d: %s", w->pid, err.text);
		/* a method's number becomes its name before anything else sees it */
		rc = handler_method_number(&w->h, w->ev, err.text, sizeof err.text);
		if (rc == -ENOMEM) {
			sj_warn("pid %d: disconnecting: out of memory for the agent's method names", w->pid);
			return STEP_REFUSE;
		}
		if (rc < 0) {
			sj_warn("pid %d: disconnecting: %s", w->pid, err.text);
			return STEP_REFUSE;
		}
		s = rc > 0 ? STEP_OK : on_event(w, w->ev);
		wire_reader_consume(&w->conn.rd, used);
		if (s == STEP_OK && ++w->handled % PROGRESS_CHECK == 0 && conn_acks_end(&w->conn) &&
		    w->conn.numbered && !w->progress_acks_off)
			s = ack_progress(w);
		if (s != STEP_OK)
			return s;
	}
}

static enum step read_events(struct worker *w)
{
	enum step s, e;
	long got = wire_reader_fill(&w->conn.rd, w->conn.fd);

	/* one line when an agent goes: info after VmDeath, a warning mid-stream */
	if (got == 0) {
		if (w->conn.vm_died || !w->conn.peer.hello)
			sj_log(w->conn.vm_died ? SJ_LOG_INFO : SJ_LOG_WARN,
			       "pid %d: the agent closed the connection", w->pid);
		else /* the agent's log says how much it could not send */
			sj_warn("pid %d: the agent closed the connection before the VM's death event: "
				"events after number %llu may be lost", w->pid,
				(unsigned long long)w->conn.last_seq);
		return STEP_STOP;
	}
	if (got == -EAGAIN)
		return STEP_OK;
	if (got < 0) {
		sj_log(w->conn.vm_died ? SJ_LOG_INFO : SJ_LOG_WARN, "pid %d: connection lost: %s", w->pid,
		       strerror((int)-got));
		return STEP_STOP;
	}
	s = handle_events(w);
	e = end_batch(w);
	/* the clock of an unfinished message restarts with every read */
	size_t pending = 0;
	wire_reader_data(&w->conn.rd, &pending);
	w->partial_since_ns = pending ? monotonic_ns() : 0;
	return s != STEP_OK ? s : e;
}

static int setup_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static enum step run(struct worker *w)
{
	uint64_t hello_deadline = monotonic_ns() + (uint64_t)w->cfg->opts->hello_timeout_ms * 1000000u;
	uint64_t parent_checked = 0;

	for (;;) {
		struct pollfd fds[3] = {
			{ .fd = w->conn.fd, .events = POLLIN },
			{ .fd = w->sigfd, .events = POLLIN },
			{ .fd = w->cfg->out_fd, .events = 0 }, /* POLLERR: the supervisor is gone */
		};
		int timeout = SUPERVISOR_CHECK_MS, n;

		if (!w->conn.hello_done) {
			uint64_t now = monotonic_ns();

			timeout = now >= hello_deadline ? 0 : (int)((hello_deadline - now) / 1000000u) + 1;
		}
		n = poll(fds, 3, timeout);
		if (n < 0 && errno != EINTR)
			return STEP_STOP;
		if (fds[2].revents & (POLLERR | POLLHUP))
			return STEP_STOP;
		/* getppid() about once a second, not once per wake-up: with events
		 * flowing it would be a system call per read (the parent-death
		 * signal and the pipe above notice first anyway) */
		if (n == 0 || monotonic_ns() - parent_checked >= SUPERVISOR_CHECK_MS * 1000000ull) {
			if (getppid() != w->cfg->supervisor)
				return STEP_STOP;
			parent_checked = monotonic_ns();
		}
		if (fds[1].revents & POLLIN)
			return STEP_STOP;
		if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			enum step s = read_events(w);

			if (s != STEP_OK)
				return s;
		}
		/* an agent that stops inside a message would hold this worker for ever */
		if (w->partial_since_ns &&
		    monotonic_ns() - w->partial_since_ns >= MESSAGE_STALL_MS * 1000000ull) {
			sj_warn("pid %d: disconnecting: the agent sent part of a message, then nothing "
				"for %u ms", w->pid, MESSAGE_STALL_MS);
			return STEP_REFUSE;
		}
		if (!w->conn.hello_done && monotonic_ns() >= hello_deadline) {
			sj_info("pid %d: no Hello from the agent within %u ms: speaking Appendix A/B only",
				w->pid, w->cfg->opts->hello_timeout_ms);
			enum step s = registrations(w);

			if (s != STEP_OK)
				return s;
		}
	}
}

/* Load the agent through ROOTFD (the JVM's root) and wait for its socket
 * (discovery_find_socket) into *SOCK. A worker exit status. */
static int attach_and_wait(struct worker *w, int rootfd, struct agent_socket *sock)
{
	const struct jvm_id *id = &w->cfg->jvm;
	const struct bridge_options *o = w->cfg->opts;
	char sockdir[4096], options[4200], why[1024];
	int rc = discovery_sockdir(id, o->sockdir, sockdir, sizeof sockdir);

	if (rc < 0) {
		sj_error("pid %d: socket directory too long", w->pid);
		return WORKER_NO_AGENT;
	}
	/* the JVM's stderr is the application's: the agent's warnings come to
	 * us as Notices. Without --sockdir the agent makes its private directory */
	int n = o->sockdir ? snprintf(options, sizeof options, "sockdir=%s,", sockdir) : 0;
	snprintf(options + n, sizeof options - (size_t)n, "loglevel=error%s%s", o->agent_options ? "," : "",
		 o->agent_options ? o->agent_options : "");
	sj_info("pid %d: the JVM runs without the agent: loading %s through HotSpot's attach mechanism",
		w->pid, o->agent);
	rc = attach_agent(id, rootfd, o->agent, options, why, sizeof why);
	if (rc < 0) {
		sj_error("pid %d: cannot load the agent: %s", w->pid, why);
		return WORKER_NO_AGENT;
	}
	for (unsigned waited = 0;; waited += 20) {
		if (discovery_find_socket(id, rootfd, o->sockdir, sock, why, sizeof why) == 0)
			return WORKER_DONE;
		if (!procfs_same_process(id)) {
			sj_error("pid %d: the JVM exited after the agent was loaded", w->pid);
			return WORKER_NO_AGENT;
		}
		if (waited >= AGENT_SOCKET_MS) {
			sj_error("pid %d: the agent was loaded but its socket cannot be found after %u ms: %s "
				 "(the JVM's stderr says why)", w->pid, AGENT_SOCKET_MS, why);
			return WORKER_NO_AGENT;
		}
		usleep(20000);
	}
}

static int connect_and_run(struct worker *w)
{
	char why[512];
	enum step s;
	struct agent_socket sock = { .dirfd = w->cfg->sockdir_fd };
	int rc;

	snprintf(sock.dir, sizeof sock.dir, "%s", w->cfg->sockdir);
	if (w->cfg->attach) {
		rc = attach_and_wait(w, w->cfg->sockdir_fd, &sock);
		close(w->cfg->sockdir_fd);
		if (rc != WORKER_DONE)
			return rc;
	}
	rc = conn_open(&w->conn, &w->cfg->jvm, sock.dirfd, sock.dir, why, sizeof why);
	close(sock.dirfd);
	if (rc < 0 && w->conn.untrusted) {
		sj_error("pid %d: %s", w->pid, why);
		return WORKER_REFUSED;
	}
	if (rc < 0) {
		sj_warn("pid %d: %s", w->pid, why[0] ? why : strerror(-rc));
		return WORKER_FAILED;
	}
	sj_info("pid %d: connected to the agent (worker uid %u gid %u)", w->pid,
		(unsigned)getuid(), (unsigned)getgid());
	/* in-thread and listing, nothing for an Appendix-only agent goes with it */
	rc = conn_send_hello(&w->conn, w->cfg->opts->in_thread || w->cfg->opts->matches
				       ? NULL : &w->cfg->opts->reg);
	if (rc < 0) {
		sj_warn("pid %d: sending Hello failed: %s", w->pid, strerror(-rc));
		return WORKER_FAILED;
	}
	s = run(w);
	if (s == STEP_REFUSE)
		return WORKER_REFUSED;
	if (w->cfg->opts->jfr_types && !w->h.jfr_listed) {
		if (w->conn.peer.caps & WIRE_CAP_JFR)
			sj_warn("pid %d: no JFR event types listed (none selected, JFR unavailable, or the JVM "
				"ended: see above)", w->pid);
		return WORKER_FAILED;
	}
	if (w->cfg->opts->matches && w->lists_answered < w->cfg->opts->reg.n) {
		if (w->conn.peer.caps & WIRE_CAP_LIST)
			sj_warn("pid %d: the JVM ended before it answered every pattern", w->pid);
		return WORKER_FAILED;
	}
	conn_send_reset(&w->conn); /* best effort: closing drops registrations too */
	return WORKER_DONE;
}

int worker_main(const struct worker_config *cfg)
{
	struct worker w = { .cfg = cfg, .sigfd = -1, .pid = cfg->jvm.pid,
			    .progress_acked_ns = monotonic_ns() };
	const char *what = "";
	char comm[16];
	int rc, status;

	w.conn.fd = -1;
	snprintf(comm, sizeof comm, "sjbridge-%d", (int)cfg->jvm.pid);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	rc = privsep_drop(cfg->jvm.uid, cfg->jvm.gid, &what);
	if (rc < 0) {
		sj_error("pid %d: cannot drop privileges to uid %u gid %u: %s: %s", w.pid,
			 (unsigned)cfg->jvm.uid, (unsigned)cfg->jvm.gid, what, strerror(-rc));
		return WORKER_FAILED;
	}
	/* a credential change clears the parent-death signal: set it now, then
	 * make sure the parent did not die before it was set */
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	if (getppid() != cfg->supervisor)
		return WORKER_DONE;
	w.sigfd = setup_signals();
	w.ev = malloc(sizeof *w.ev);
	rc = handler_init(&w.h, cfg->opts, &cfg->jvm, cfg->out_fd);
	if (rc == 0 && cfg->rec_fd >= 0)
		rc = handler_record_to(&w.h, cfg->rec_fd);
	threadnames_owner(&w.h.names, w.pid);   /* its bounds' log lines name the JVM */
	if (w.sigfd < 0 || !w.ev || rc < 0) {
		sj_error("pid %d: worker setup failed: %s", w.pid, strerror(rc < 0 ? -rc : errno));
		status = WORKER_FAILED;
	} else
		status = connect_and_run(&w);
	/* the agent had the registrations and the session ended as sessions do
	 * (not a broken peer): say which of them nothing matched */
	if (w.conn.hello_done && status == WORKER_DONE) {
		handler_report_silent(&w.h);
		/* the JFR feed's end may deliver the events it still held */
		if (handler_flush(&w.h) < 0)
			sj_debug("pid %d: output closed at the end", w.pid);
	}
	if (status == WORKER_DONE)
		conn_end(&w.conn, WORKER_END_MS);
	else
		conn_close(&w.conn);
	handler_free(&w.h);
	free(w.ev);
	if (w.sigfd >= 0)
		close(w.sigfd);
	return status;
}
