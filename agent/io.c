/* io.c: see io.h. */
#define _GNU_SOURCE
#include "io.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/sockios.h>

#include "agent.h"
#include "commands.h"
#include "conn.h"
#include "emit.h"
#include "inthread.h"
#include "jfr.h"
#include "jvmti_events.h"
#include "listener.h"
#include "log.h"
#include "overflow.h"
#include "tbuf.h"
#include "wire.h"

#define IO_POLL_MS 200          /* bound on noticing VM death or a removed socket */
#define IO_CHECK_SOCKET_MS 1000
/* After an asynchronous wake-up the I/O thread waits this long before it
 * writes, so a burst of events costs one eventfd write and one wake-up, not
 * one per event (a write and a context switch per event were most of the
 * Java thread's cost on a 2-core machine; on the HSQLDB workload 200 us
 * cost 0.80x, 5 ms 0.90-0.98x). Synchronous events skip it, and a buffer a
 * quarter full cuts it short (io_wake_filling), so a fast burst is not lost
 * to a full buffer while we wait. */
#define IO_BATCH_NS 5000000
/* After a round that wrote asynchronous events, the I/O thread stays awake
 * (waking every IO_BATCH_NS) for this many rounds without output before it
 * sleeps: while events flow, Java threads find it awake and write no eventfd
 * at all (a cold method's event cost 4x more before). */
#define IO_LINGER_ROUNDS 3
/* While it lingers, the I/O thread wakes every IO_BATCH_NS at first; when
 * a thread's buffer still reached a quarter between two rounds, the next
 * wait is a quarter as long, down to IO_LINGER_MIN_NS (and back up, doubled,
 * after a round where none did). Meanwhile no thread writes the eventfd for
 * a filling buffer: at a million events a second and more, the filling
 * wake-ups were an eventfd write on the Java thread every 75 us (perf: 3 %
 * of the HSQLDB package row's Java thread, 1.3 % of row 4r's). */
#define IO_LINGER_MIN_NS 50000
/* A peer that connects and says nothing, or starts a message and stops,
 * would hold one of the AGENT_MAX_CONNS slots for ever: a few such peers
 * lock every bridge out. (And while they wait for these, a new connection
 * takes the place of the oldest one that has said nothing: make_room.) */
#define IO_FIRST_COMMAND_MS 10000
#define IO_MESSAGE_MS 10000
#define IO_QUIET_MS 50          /* wait_ms: an Appendix-only bridge is "done registering" after this much silence */
/* accept() failed for want of a descriptor (or of memory): the listener
 * stays readable, so it is left out of poll this long (else a loop at
 * full CPU), and the failure is said once while it lasts */
#define IO_ACCEPT_BACKOFF_MS 100
/* Batches of commands read from one peer before the others are served
 * (each up to the receive buffer, 1 MiB): a peer that sends as fast as we
 * read would otherwise keep the I/O thread to itself. */
#define IO_READ_ROUNDS 4

static int wake_fd = -1;
/* Read by every event of every thread, written by the I/O thread only when
 * they change (set_flag): each on a line of its own, so a round of the I/O
 * thread does not take them away from the Java threads' cores. */
_Alignas(64) atomic_bool io_wake_pending;
static _Alignas(64) atomic_bool urgent_pending;
static _Alignas(64) atomic_bool fill_pending;   /* a buffer fills: write before the batch time is up */
/* set by a thread whose buffer fills while the I/O thread lingers (it then
 * writes no eventfd): the I/O thread wakes sooner next time */
static _Alignas(64) atomic_bool fill_seen;
static atomic_bool stop_requested;
static atomic_bool stopped;
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond;
/* wait_ms support. A bridge that said Hello ends the wait explicitly with
 * Start ("my registrations are complete"). An Appendix-only bridge cannot
 * say so: for it (first command not a Hello) the wait ends after IO_QUIET_MS
 * without a command, a heuristic kept only for such peers. */
static atomic_bool any_started;
static atomic_bool appendix_seen;
static atomic_ullong appendix_last_ns;
/* I/O thread only */
static struct sj_log_repeat accept_failures, poll_failures;
static unsigned long long accept_after_ms;

static unsigned long long now_ms(void)
{
	return agent_now_ns() / 1000000ull;
}

int io_init(void)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&stop_cond, &ca);
	pthread_condattr_destroy(&ca);
	wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return wake_fd < 0 ? -errno : 0;
}

static void set_flag(atomic_bool *f, bool v)
{
	if (atomic_load_explicit(f, memory_order_relaxed) != v)
		atomic_store(f, v);
}

static void wake_drain(void)
{
	uint64_t v;
	ssize_t ignored = read(wake_fd, &v, sizeof(v));
	(void)ignored;
}

static void wake_write(void)
{
	uint64_t one = 1;
	ssize_t ignored = write(wake_fd, &one, sizeof(one));
	(void)ignored;
}

void io_wake_slow(void)
{
	if (wake_fd < 0 || atomic_exchange(&io_wake_pending, true))
		return;
	wake_write();
}

void io_wake_urgent(void)
{
	if (wake_fd < 0 || atomic_exchange(&urgent_pending, true))
		return;
	atomic_store(&io_wake_pending, true);
	wake_write();
}

void io_wake_filling(void)
{
	if (wake_fd < 0)
		return;
	if (atomic_load_explicit(&fill_pending, memory_order_relaxed)) {
		if (!atomic_load_explicit(&fill_seen, memory_order_relaxed))
			atomic_store_explicit(&fill_seen, true, memory_order_relaxed);
		return;
	}
	if (atomic_exchange(&fill_pending, true))
		return;
	atomic_store(&io_wake_pending, true);
	wake_write();
}

/* An asynchronous wake-up: let the burst grow for IO_BATCH_NS, unless an
 * urgent wake-up (a synchronous event) comes meanwhile, or a peer has sent
 * something (an Ack that a Java thread waits for, a command). */
static void batch_wait(void)
{
	struct pollfd w[AGENT_MAX_CONNS + 1] = { { .fd = wake_fd, .events = POLLIN } };
	struct timespec ts = { 0, IO_BATCH_NS };
	nfds_t n = 1;

	if (atomic_load(&urgent_pending) || atomic_load(&fill_pending) ||
	    atomic_load(&stop_requested))
		return;
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			w[n++] = (struct pollfd){ .fd = conns[i].fd, .events = POLLIN };
	if (ppoll(w, n, &ts, NULL) > 0 && (w[0].revents & POLLIN))
		wake_drain();
}

/* All AGENT_MAX_CONNS connections are taken: the one accepted first of
 * those that have sent no command yet (no Hello, no Appendix B command)
 * goes, so idle peers of the JVM's user cannot keep a bridge out until
 * their IO_FIRST_COMMAND_MS are up. True when one went. */
static bool make_room(void)
{
	struct conn *idle = NULL;

	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (c->fd < 0)
			return false;   /* a slot is free: no room to make */
		if (!c->first_seen && (!idle || c->accepted_ms < idle->accepted_ms))
			idle = c;
	}
	if (!idle)
		return false;
	char why[128];
	snprintf(why, sizeof why, "closed to make room for a new connection: it has sent nothing in %llu ms, "
		 "and all %d connections are taken", now_ms() - idle->accepted_ms, AGENT_MAX_CONNS);
	sj_warn("conn#%u (pid %ld uid %ld): %s", idle->serial, (long)idle->peer_pid, (long)idle->peer_uid,
		why);
	conn_close(idle, why);   /* nothing registered: nothing to update */
	return true;
}

static void accept_one(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		/* gone before we took it, or nothing there: not a failure */
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED)
			return;
		sj_log_repeat(&accept_failures, SJ_LOG_WARN, errno, "accepting a connection");
		accept_after_ms = now_ms() + IO_ACCEPT_BACKOFF_MS;
		return;
	}
	sj_log_repeat_end(&accept_failures);
	struct ucred cred;
	socklen_t len = sizeof(cred);
	/* who is calling, before a single byte is read */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
		sj_warn("refused a connection: SO_PEERCRED failed: %s", strerror(errno));
		close(fd);
		return;
	}
	if (cred.uid != 0 && cred.uid != geteuid() && cred.uid != getuid()) {
		sj_warn("refused a connection from pid %ld uid %ld: only uid %ld (the JVM's user) or root may connect",
			(long)cred.pid, (long)cred.uid, (long)geteuid());
		close(fd);
		return;
	}
	struct conn *c = conn_open(fd, cred.pid, cred.uid, agent.opt.bufsize);
	if (!c && make_room())
		c = conn_open(fd, cred.pid, cred.uid, agent.opt.bufsize);
	if (!c) {
		sj_warn("refused a connection from pid %ld uid %ld: %d connections already open (or out of memory)",
			(long)cred.pid, (long)cred.uid, AGENT_MAX_CONNS);
		close(fd);
		return;
	}
	c->accepted_ms = now_ms();
	sj_info("conn#%u: accepted pid %ld uid %ld", c->serial, (long)cred.pid, (long)cred.uid);
}

static void close_conn(struct conn *c, JNIEnv *jni, const char *why)
{
	jfr_conn_closed(c);
	conn_close(c, why);
	events_update(jni);
}

/* Write what is queued. Returns the bytes written (0 when the peer reads
 * nothing now), or -errno when the peer is gone. */
static long flush_conn(struct conn *c)
{
	long rc = 0;

	pthread_mutex_lock(&c->lock);
	/* drops reported as soon as there is room for the report */
	conn_queue_lost_locked(c);
	size_t off = c->out_head, end = c->out_len;
	c->sending = off < end;
	c->out_blocked = false;
	pthread_mutex_unlock(&c->lock);
	/* unlocked: Java threads go on appending after END (conn.h) */
	while (off < end) {
		ssize_t n = send(c->fd, c->out + off, end - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			off += (size_t)n;
			rc += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			c->out_blocked = true;
			break;
		}
		rc = n < 0 ? -errno : -EPIPE;
		break;
	}
	pthread_mutex_lock(&c->lock);
	c->sending = false;
	c->out_head = off;
	if (c->out_head == c->out_len) {
		c->out_head = c->out_len = 0;
	} else if (c->out_head >= c->out_cap / 4) {
		conn_compact_locked(c);
	}
	conn_queue_lost_locked(c);
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void io_flush_now(void)
{
	/* only the I/O thread sends (flush_conn sends unlocked) */
	if (atomic_load(&agent.io_tid) != (int)agent_gettid())
		return;
	conn_take_thread_buffers();
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			flush_conn(&conns[i]);   /* a failure is seen again, and handled, by the main loop */
}

static bool has_output(struct conn *c)
{
	pthread_mutex_lock(&c->lock);
	bool r = conn_queued(c) > 0 || (conn_lost_unsaid(c) && conn_ext(c));
	pthread_mutex_unlock(&c->lock);
	return r;
}

static void read_conn(struct conn *c, JNIEnv *jni)
{
	/* what is left is read at the next round: the socket stays readable */
	for (unsigned round = 0; round < IO_READ_ROUNDS; round++) {
		long n, got = 0;

		/* everything that has arrived, as far as the reader holds it
		 * (WIRE_MAX_MESSAGE and more): one batch of commands, one update */
		while ((n = wire_reader_fill(&c->rd, c->fd)) > 0)
			got += n;
		if (got > 0 && commands_process(c, jni) < 0) {
			/* a Notice that says why goes out first, if the peer reads it now */
			flush_conn(c);
			close_conn(c, jni, "protocol error");
			return;
		}
		if (got > 0) {
			/* the clock of an unfinished message restarts with every read that
			 * brought bytes: a long message that keeps coming is not a stall */
			size_t pending = 0;
			wire_reader_data(&c->rd, &pending);
			c->partial_since_ms = pending ? now_ms() : 0;
			if (c->started)
				atomic_store(&any_started, true);
			else if (c->first_seen && !c->peer.hello) {
				atomic_store(&appendix_last_ns, agent_now_ns());
				atomic_store(&appendix_seen, true);
			}
		}
		if (n == -EAGAIN)
			return;
		if (n == -ENOBUFS && got > 0)
			continue;   /* the reader was full: the batch made room */
		if (n == 0) {
			close_conn(c, jni, "peer closed the connection");
			return;
		}
		char why[96];
		snprintf(why, sizeof(why), "read error: %s", strerror((int)-n));
		close_conn(c, jni, why);
		return;
	}
}

static void close_stalled(JNIEnv *jni)
{
	unsigned long long now = now_ms();
	char why[96];

	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		why[0] = '\0';
		if (c->fd < 0)
			continue;
		if (!c->first_seen && now >= c->accepted_ms + IO_FIRST_COMMAND_MS)
			snprintf(why, sizeof why, "sent nothing within %u ms of connecting",
				 IO_FIRST_COMMAND_MS);
		else if (c->partial_since_ms && now >= c->partial_since_ms + IO_MESSAGE_MS)
			snprintf(why, sizeof why, "sent part of a message, then nothing for %u ms",
				 IO_MESSAGE_MS);
		if (!why[0])
			continue;
		sj_warn("conn#%u (pid %ld uid %ld): %s; disconnecting", c->serial, (long)c->peer_pid,
			(long)c->peer_uid, why);
		close_conn(c, jni, why);
	}
}

static void close_all(JNIEnv *jni, const char *why)
{
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		if (conns[i].fd >= 0)
			conn_close(&conns[i], why);
}

/* The bytes written to C's socket that its peer has not read yet. */
static long unread_by_peer(const struct conn *c)
{
	int n = 0;

	return ioctl(c->fd, SIOCOUTQ, &n) < 0 ? -1 : n;
}

/* C's VmDeath is out and its peer promised to acknowledge it (CAP_END_ACK):
 * the script's handlers of the events before it have not all run yet. */
static bool awaits_end_ack(struct conn *c)
{
	pthread_mutex_lock(&c->lock);
	bool r = c->ended && wire_caps_end_ack(c->peer.caps) && c->acked_seq < c->seq;
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* Exit phase of connection I (final_flush). */
enum exit_phase { EXIT_WRITING, EXIT_AWAITING_ACK, EXIT_DONE, EXIT_FAILED, EXIT_PEER_GONE };

/* Read what C's peer said after VmDeath: its Acks. Returns true when that
 * was progress (an Ack, or bytes of one); a peer that closed, or sent what
 * cannot be decoded, ends the wait (*phase). */
static bool read_end_acks(struct conn *c, enum exit_phase *phase)
{
	long got = 0, n;

	while ((n = wire_reader_fill(&c->rd, c->fd)) > 0)
		got += n;
	if (got > 0 && commands_after_death(c) < 0)
		n = -EBADMSG;
	if (n != -EAGAIN && n != -ENOBUFS)
		*phase = EXIT_PEER_GONE;   /* nothing more to wait for from it */
	return got > 0;
}

/* At VM death: write what is queued while the bridges read it, then, for a
 * bridge that acknowledges the VM's end (CAP_END_ACK), wait until it has
 * handled every event: a stap session that ends with its -c command ends
 * when the JVM does, and events still unhandled then would reach no
 * handler, unsaid. Bounded by progress, not by the machine's speed: a
 * bridge that reads nothing for IO_EXIT_STALL_MS while bytes are queued, or
 * neither reads nor acknowledges for IO_END_ACK_STALL_MS, loses the rest,
 * and IO_EXIT_FLUSH_MS caps the whole. The agent says what was lost in its
 * log; a bridge that saw no VmDeath says so in its own. */
static void final_flush(void)
{
	const unsigned long long start = now_ms();
	unsigned long long progress_at = start;
	enum exit_phase phase[AGENT_MAX_CONNS];
	long unread[AGENT_MAX_CONNS];
	const char *why = "no reason known", *ack_why = why;
	char why_buf[64];

	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		phase[i] = EXIT_WRITING;
		unread[i] = -1;
	}
	for (;;) {
		struct pollfd pfd[AGENT_MAX_CONNS];
		struct conn *which[AGENT_MAX_CONNS];
		nfds_t n = 0;
		bool writing = false;
		/* a thread may still finish an event it began before the VM's end */
		conn_take_thread_buffers();
		for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
			struct conn *c = &conns[i];
			if (c->fd < 0 || phase[i] >= EXIT_DONE)
				continue;
			long sent = flush_conn(c);
			if (sent > 0)
				progress_at = now_ms();
			if (sent < 0) {
				phase[i] = EXIT_FAILED;
				continue;
			}
			if (has_output(c)) {
				phase[i] = EXIT_WRITING;
				writing = true;
				which[n] = c;
				pfd[n++] = (struct pollfd){ .fd = c->fd, .events = POLLOUT };
				continue;
			}
			if (!awaits_end_ack(c)) {
				phase[i] = EXIT_DONE;
				continue;
			}
			phase[i] = EXIT_AWAITING_ACK;
			/* the bridge reading what it was sent is progress too */
			long left = unread_by_peer(c);
			if (left >= 0 && unread[i] >= 0 && left < unread[i])
				progress_at = now_ms();
			unread[i] = left;
			which[n] = c;
			pfd[n++] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
		}
		if (n == 0)
			break;
		const unsigned long long now = now_ms();
		const unsigned stall_ms = writing ? IO_EXIT_STALL_MS : IO_END_ACK_STALL_MS;
		if (now >= progress_at + stall_ms) {
			snprintf(why_buf, sizeof why_buf, writing ? "it read nothing for %u ms"
					  : "it neither read nor acknowledged for %u ms", stall_ms);
			why = why_buf;
			/* a bridge still reading its events stopped the wait, not this one */
			ack_why = writing ? "the wait ended: another bridge stopped reading" : why;
			break;
		}
		if (now >= start + IO_EXIT_FLUSH_MS) {
			snprintf(why_buf, sizeof why_buf, "it could not keep up for %u ms", IO_EXIT_FLUSH_MS);
			why = ack_why = why_buf;
			break;
		}
		unsigned long long until = progress_at + stall_ms < start + IO_EXIT_FLUSH_MS
			? progress_at + stall_ms : start + IO_EXIT_FLUSH_MS;
		/* the peer's reading is seen by looking again (no event says it) */
		if (!writing && until > now + IO_END_ACK_LOOK_MS)
			until = now + IO_END_ACK_LOOK_MS;
		poll(pfd, n, (int)(until - now));
		for (nfds_t k = 0; k < n; k++) {
			struct conn *c = which[k];
			if (phase[c - conns] != EXIT_AWAITING_ACK || !pfd[k].revents)
				continue;
			if (read_end_acks(c, &phase[c - conns]))
				progress_at = now_ms();
		}
	}
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (c->fd < 0)
			continue;
		pthread_mutex_lock(&c->lock);
		size_t left = conn_queued(c);
		unsigned long long dropped = conn_lost_unsaid(c);
		unsigned long long unacked = c->seq - c->acked_seq;
		bool ext = conn_ext(c);
		unsigned serial = c->serial;
		pthread_mutex_unlock(&c->lock);
		if (phase[i] == EXIT_AWAITING_ACK && !left && !dropped) {
			sj_warn("conn#%u: the VM exits and the bridge has not acknowledged its last %llu "
				"events (%s): a script may not have handled them", serial, unacked, ack_why);
			continue;
		}
		if (!left && !dropped)
			continue;
		/* an Appendix-only peer never hears of drops: they are said here */
		sj_warn("conn#%u: the VM exits and the bridge has not read the last %zu bytes of "
			"events%s%llu dropped before (%s): they are lost", serial, left,
			ext ? ", nor heard of " : "; it cannot be told of ", dropped,
			phase[i] == EXIT_FAILED ? "writing to it failed" : why);
	}
}

static void JNICALL io_main(jvmtiEnv *jv, JNIEnv *jni, void *arg)
{
	int lfd = listener_open();
	unsigned long long next_check = now_ms() + IO_CHECK_SOCKET_MS;

	unsigned linger = 0;   /* rounds left awake, see IO_LINGER_ROUNDS */
	long linger_ns = IO_BATCH_NS;

	atomic_store(&agent.io_tid, (int)agent_gettid());
	while (!atomic_load(&stop_requested)) {
		struct pollfd pfd[AGENT_MAX_CONNS + 2];
		struct conn *which[AGENT_MAX_CONNS + 2];
		nfds_t n = 0;

		pfd[n] = (struct pollfd){ .fd = wake_fd, .events = POLLIN };
		which[n++] = NULL;
		if (lfd >= 0 && now_ms() >= accept_after_ms) {
			pfd[n] = (struct pollfd){ .fd = lfd, .events = POLLIN };
			which[n++] = NULL;
		}
		for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
			struct conn *c = &conns[i];
			if (c->fd < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN | (has_output(c) ? POLLOUT : 0) };
			which[n++] = c;
		}
		struct timespec to = linger ? (struct timespec){ 0, linger_ns }
					    : (struct timespec){ IO_POLL_MS / 1000, (IO_POLL_MS % 1000) * 1000000L };
		int rc = ppoll(pfd, n, &to, NULL);
		if (rc < 0 && errno != EINTR)
			sj_log_repeat(&poll_failures, SJ_LOG_WARN, errno, "poll");
		else if (rc >= 0)
			sj_log_repeat_end(&poll_failures);
		if (pfd[0].revents & POLLIN) {
			wake_drain();
			batch_wait();
		}
		/* before the writes below: what is queued after this point wakes us again */
		/* a synchronous event's thread waits for its Ack: lingering only adds
		 * wake-ups to that round trip (measured: 9f doubled) */
		bool urgent = atomic_load_explicit(&urgent_pending, memory_order_relaxed) &&
			      atomic_exchange(&urgent_pending, false);
		/* a buffer reached a quarter since the last round: while we lingered
		 * (fill_seen), or by waking us (fill_pending) */
		const bool filled = atomic_load_explicit(&fill_seen, memory_order_relaxed) ||
				    (!linger && atomic_load_explicit(&fill_pending, memory_order_relaxed));
		set_flag(&fill_seen, false);
		if (urgent)
			linger = 0;
		if (!linger)
			set_flag(&fill_pending, false);
		if (!linger)
			set_flag(&io_wake_pending, false);
		for (nfds_t i = 1; i < n; i++) {
			struct conn *c = which[i];
			if (!c) {
				if (pfd[i].revents & POLLIN)
					accept_one(lfd);
				continue;
			}
			if (c->fd < 0 || pfd[i].fd != c->fd)
				continue;
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				read_conn(c, jni);
				if (c->fd < 0)
					continue;
			}
		}
		/* the threads' own buffers first: what they hold goes out in this round */
		conn_take_thread_buffers();
		overflow_poll(jni);
		inthread_tell_unseen();
		/* write everything queued, not only where poll said so: events arrive all the time */
		/* lingering pays only while bytes go out: a peer that reads nothing
		 * is waited for by POLLOUT, not by waking every IO_BATCH_NS */
		bool wrote = false;
		for (size_t i = 0; i < AGENT_MAX_CONNS; i++) {
			struct conn *c = &conns[i];
			long sent = c->fd >= 0 ? flush_conn(c) : 0;
			wrote |= sent > 0;
			if (sent < 0) {
				/* A peer that closed may have said its last words first (a
				 * bridge sends Reset, then closes): apply them before closing. */
				read_conn(c, jni);
				if (c->fd >= 0)
					close_conn(c, jni, "peer gone (write failed)");
			}
		}
		if (wrote && !urgent) {
			linger = IO_LINGER_ROUNDS;
			linger_ns = filled ? (linger_ns / 4 > IO_LINGER_MIN_NS ? linger_ns / 4 : IO_LINGER_MIN_NS)
					   : (linger_ns * 2 < IO_BATCH_NS ? linger_ns * 2 : IO_BATCH_NS);
			set_flag(&io_wake_pending, true);
			set_flag(&fill_pending, true);  /* we look again within linger_ns */
		} else if (linger && --linger == 0) {
			linger_ns = IO_BATCH_NS;
			set_flag(&io_wake_pending, false);
			set_flag(&fill_pending, false);
			/* queued after the flush by a thread that found us awake: stay */
			for (size_t i = 0; i < AGENT_MAX_CONNS && !linger; i++)
				if (conns[i].fd >= 0 && !conns[i].out_blocked && has_output(&conns[i]))
					linger = 1;
			if (tbuf_pending())
				linger = 1;
			if (linger) {
				set_flag(&io_wake_pending, true);
				set_flag(&fill_pending, true);
			}
		}
		close_stalled(jni);
		if (now_ms() >= next_check) {
			lfd = listener_check(lfd);
			next_check = now_ms() + IO_CHECK_SOCKET_MS;
		}
	}
	final_flush();
	close_all(jni, "the VM is exiting");
	if (lfd >= 0)
		close(lfd);
	listener_remove();
	pthread_mutex_lock(&stop_lock);
	atomic_store(&stopped, true);
	pthread_cond_broadcast(&stop_cond);
	pthread_mutex_unlock(&stop_lock);
}

int io_start(JNIEnv *jni)
{
	jclass tc = (*jni)->FindClass(jni, "java/lang/Thread");
	jmethodID ctor = tc ? (*jni)->GetMethodID(jni, tc, "<init>", "(Ljava/lang/String;)V") : NULL;
	jstring name = (*jni)->NewStringUTF(jni, WIRE_AGENT_IO_THREAD);
	jobject thread = ctor && name ? (*jni)->NewObject(jni, tc, ctor, name) : NULL;

	if (!thread) {
		(*jni)->ExceptionClear(jni);
		sj_error("cannot create the agent's I/O thread object; no socket");
		return -ENOMEM;
	}
	jvmtiError err = (*agent.jvmti)->RunAgentThread(agent.jvmti, thread, io_main, NULL,
							  JVMTI_THREAD_NORM_PRIORITY);
	if (err != JVMTI_ERROR_NONE) {
		sj_error("cannot start the agent's I/O thread (JVMTI error %d); no socket", (int)err);
		return -EIO;
	}
	return 0;
}

void io_wait_for_bridge(unsigned ms)
{
	unsigned long long t0 = now_ms(), deadline = t0 + ms;

	/* bounded: until wait_ms has passed, a bridge sent Start, or an
	 * Appendix-only bridge sent nothing for IO_QUIET_MS. How it ended is
	 * logged: the one thing a user (or a test) can check without a clock */
	while (now_ms() < deadline) {
		/* a session's JFR recording, which its own thread starts, too */
		if (atomic_load(&any_started) && jfr_settled()) {
			sj_info("wait_ms: a bridge sent Start after %llu ms; main goes on",
				now_ms() - t0);
			return;
		}
		if (atomic_load(&appendix_seen) &&
		    agent_now_ns() - atomic_load(&appendix_last_ns) >= IO_QUIET_MS * 1000000ull) {
			sj_info("wait_ms: an Appendix-only bridge sent nothing for %d ms, after %llu ms; main goes on",
				IO_QUIET_MS, now_ms() - t0);
			return;
		}
		struct timespec ts = { 0, 5 * 1000000L };
		nanosleep(&ts, NULL);
	}
	/* a warning: whoever set wait_ms expected a bridge, and what main does
	 * before one registers is not seen */
	sj_warn("wait_ms: %u ms passed without %s; main goes on, unseen until a bridge registers", ms,
		atomic_load(&appendix_seen) ? "a quiet spell from the Appendix-only bridge"
		: atomic_load(&any_started) ? "the session's JFR recording settling"
		: "a bridge's Start");
}

void io_shutdown(void)
{
	struct timespec dl;

	if (atomic_exchange(&stop_requested, true))
		return;
	io_wake();
	if (atomic_load(&agent.io_tid) == 0)
		return;   /* never started */
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += (IO_EXIT_FLUSH_MS + 500) / 1000 + 1;
	pthread_mutex_lock(&stop_lock);
	while (!atomic_load(&stopped))
		if (pthread_cond_timedwait(&stop_cond, &stop_lock, &dl) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&stop_lock);
}
