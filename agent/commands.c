/* commands.c: see commands.h. */
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "callbacks.h"
#include "emit.h"
#include "inthread.h"
#include "io.h"
#include "jfr.h"
#include "jvmti_events.h"
#include "listing.h"
#include "log.h"
#include "nomatch.h"

/* What every Appendix B registration covers, per kind. */
static const uint8_t all_events[4] = {
	[WIRE_KIND_METHOD] = WIRE_METHOD_ENTER | WIRE_METHOD_RETURN | WIRE_METHOD_COMPILE,
	[WIRE_KIND_CLASS] = WIRE_CLASS_LOAD | WIRE_CLASS_PREPARE | WIRE_CLASS_UNLOAD,
	[WIRE_KIND_EXCEPTION] = WIRE_EXCEPTION_THROWN | WIRE_EXCEPTION_CATCH,
};

/* Under c->lock: queue our Hello (no trailer, before any event). */
static int send_hello_locked(struct conn *c)
{
	static struct wire_event ev;   /* I/O thread only; ~19 KiB, not on its stack */

	memset(&ev, 0, offsetof(struct wire_event, values));
	ev.code = WIRE_EV_HELLO;
	wire_hello_init(&ev.hello, WIRE_CAP_ALL, agent.description);
	return conn_append_locked(c, &ev);
}

static int hello(struct conn *c, const struct wire_command *cmd)
{
	if (c->first_seen) {
		sj_warn("conn#%u (pid %ld): Hello after the first command (a second or late Hello is a "
			"protocol error); disconnecting", c->serial, (long)c->peer_pid);
		return -EBADMSG;
	}
	pthread_mutex_lock(&c->lock);
	int rc = wire_peer_accept_hello(&c->peer, &cmd->hello, WIRE_CAP_ALL);
	if (rc == 0)
		rc = send_hello_locked(c);
	c->first_seen = true;
	uint32_t caps = c->peer.caps;
	pthread_mutex_unlock(&c->lock);
	if (rc) {
		sj_warn("conn#%u (pid %ld): Hello: order %u version %u refused; disconnecting",
			c->serial, (long)c->peer_pid, cmd->hello.order, cmd->hello.version);
		return -EBADMSG;
	}
	sj_info("conn#%u: Hello from pid %u, version %u, caps 0x%02x; negotiated 0x%02x",
		c->serial, cmd->hello.pid, cmd->hello.version, cmd->hello.caps, caps);
	io_wake();
	return 0;
}

/* Into the connection's list (regset.h): nobody matches it before the
 * batch ends, so no lock. */
static int add_registration(struct conn *c, uint8_t kind, uint8_t events, int slot,
			    const struct wire_str *pat, const char *what)
{
	char err[200];
	int rc = regset_add(&c->regs, (unsigned)(c - conns), kind, events, slot, pat->ptr, pat->len, err,
			    sizeof(err));

	if (rc) {
		/* the bridge is told why (and the log): the connection closes next */
		emit_notice(1u << (unsigned)(c - conns), "%s pattern \"%.*s\" refused: %s; disconnecting",
			    what, (int)(pat->len > 200 ? 200 : pat->len), pat->ptr, err);
		return -EBADMSG;
	}
	return 0;
}

/* Acks are cumulative: the bridge handles events in order. */
static void apply_ack(struct conn *c, uint64_t seq)
{
	bool resumed = false;

	pthread_mutex_lock(&c->lock);
	if (seq > c->acked_seq)
		c->acked_seq = seq;
	if (c->sync_stalled && c->acked_seq >= c->last_sync_seq) {
		c->sync_stalled = false;  /* the bridge has caught up */
		resumed = true;
	}
	pthread_cond_broadcast(&c->acked);
	pthread_mutex_unlock(&c->lock);
	if (resumed)
		sj_info("conn#%u: the bridge acknowledged every synchronous event; events wait "
			"for it again", c->serial);
}

/* Apply one command; *changed says whether registrations or switches moved. */
static int apply_command(struct conn *c, JNIEnv *jni, const struct wire_command *cmd, bool *changed)
{
	const char *name = wire_command_name(cmd->code);

	*changed = false;
	if (cmd->code == WIRE_CMD_HELLO)
		return hello(c, cmd);
	c->first_seen = true;
	switch (cmd->code) {
	case WIRE_CMD_REGISTER_METHOD:
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION: {
		uint8_t kind = (uint8_t)(cmd->code - WIRE_CMD_REGISTER_METHOD + WIRE_KIND_METHOD);
		*changed = true;
		return add_registration(c, kind, all_events[kind], -1, &cmd->pattern, name);
	}
	case WIRE_CMD_REGISTER:
		*changed = true;
		return add_registration(c, cmd->kind, cmd->events, -1, &cmd->pattern, name);
	case WIRE_CMD_REGISTER_SLOT:
		*changed = true;
		return add_registration(c, cmd->kind, cmd->events, cmd->slot, &cmd->pattern, name);
	case WIRE_CMD_LIST_MATCHES: {
		int rc = listing_answer(c, jni, cmd->kind, &cmd->pattern);
		/* each answer walks every loaded class: a stream of them must not
		 * keep the other sessions' events waiting */
		io_flush_now();
		return rc;
	}
	case WIRE_CMD_FIRE_IN_THREAD:
		pthread_mutex_lock(&c->lock);
		__atomic_store_n(&c->session, cmd->session, __ATOMIC_RELAXED);
		__atomic_store_n(&c->in_thread, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&c->lock);
		return 0;
	case WIRE_CMD_UNREGISTER:
		regset_remove(&c->regs, cmd->kind, cmd->pattern.ptr, cmd->pattern.len);
		*changed = true;
		return 0;
	case WIRE_CMD_JFR_SETTINGS:
		return jfr_settings(c, jni, &cmd->pattern);
	case WIRE_CMD_JFR_EVENT:
		inthread_fire_jfr((unsigned)(c - conns), &cmd->jfr);
		return 0;
	case WIRE_CMD_RESET:
		jfr_conn_closed(c);
		regset_clear(&c->regs);
		pthread_mutex_lock(&c->lock);
		c->families = 0;
		__atomic_store_n(&c->opt, 0, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&c->lock);
		*changed = true;
		return 0;
	case WIRE_CMD_START:
		/* I/O thread only (like first_seen): io.c ends a wait_ms wait on it */
		c->started = true;
		return 0;
	case WIRE_CMD_ACK:
		apply_ack(c, cmd->seq);
		return 0;
	default:
		break;
	}
	const struct family_desc *family = events_family_of_switch(cmd->code);
	pthread_mutex_lock(&c->lock);
	const bool threads_were_on = conn_wants_family(c, EVENT_FAMILY_THREADS);
	if (family && cmd->enable)
		c->families |= (event_family_set)EVENT_FAMILY_BIT(family->family);
	else if (family)
		c->families &= (event_family_set)~EVENT_FAMILY_BIT(family->family);
	switch (cmd->code) {
	case WIRE_CMD_OPTIONAL_DATA:
		__atomic_store_n(&c->opt, cmd->mask & (WIRE_OPT_ARGUMENTS | WIRE_OPT_RETURN_VALUE |
						       WIRE_OPT_STACK | WIRE_OPT_MONITOR),
				 __ATOMIC_RELAXED);
		break;
	case WIRE_CMD_DISPATCH_MODE:
		__atomic_store_n(&c->sync, cmd->mode == WIRE_DISPATCH_SYNC, __ATOMIC_RELAXED);
		/* 0 or more than ours: the agent's own bound */
		c->timeout_us = cmd->timeout_us && cmd->timeout_us < agent.opt.timeout_us
			? cmd->timeout_us : agent.opt.timeout_us;
		break;
	}
	const bool threads_on = !threads_were_on && conn_wants_family(c, EVENT_FAMILY_THREADS);
	pthread_mutex_unlock(&c->lock);
	if (threads_on)
		threads_name_live(c, jni);
	*changed = true;
	return 0;
}

static void log_applied(const struct conn *c, const struct wire_command *cmd)
{
	const char *name = wire_command_name(cmd->code);

	switch (cmd->code) {
	case WIRE_CMD_HELLO:
	case WIRE_CMD_ACK:
	case WIRE_CMD_JFR_EVENT:
		return;
	case WIRE_CMD_REGISTER_METHOD:
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION:
		sj_info("conn#%u: %s \"%.*s\"", c->serial, name, (int)cmd->pattern.len, cmd->pattern.ptr);
		return;
	case WIRE_CMD_REGISTER:
		sj_info("conn#%u: %s %s 0x%x \"%.*s\"", c->serial, name, wire_kind_name(cmd->kind),
			cmd->events, (int)cmd->pattern.len, cmd->pattern.ptr);
		return;
	case WIRE_CMD_REGISTER_SLOT:
		sj_info("conn#%u: %s %u %s 0x%x \"%.*s\"", c->serial, name, cmd->slot,
			wire_kind_name(cmd->kind), cmd->events, (int)cmd->pattern.len, cmd->pattern.ptr);
		return;
	case WIRE_CMD_FIRE_IN_THREAD:
		sj_info("conn#%u: %s: its markers fire in the Java threads, session %u", c->serial, name,
			cmd->session);
		return;
	case WIRE_CMD_UNREGISTER:
	case WIRE_CMD_LIST_MATCHES:
		sj_info("conn#%u: %s %s \"%.*s\"", c->serial, name, wire_kind_name(cmd->kind),
			(int)cmd->pattern.len, cmd->pattern.ptr);
		return;
	case WIRE_CMD_OPTIONAL_DATA:
		sj_info("conn#%u: %s 0x%x", c->serial, name, cmd->mask);
		return;
	case WIRE_CMD_JFR_SETTINGS:
		sj_info("conn#%u: %s \"%.*s\"", c->serial, name, (int)cmd->pattern.len, cmd->pattern.ptr);
		return;
	case WIRE_CMD_DISPATCH_MODE:
		sj_info("conn#%u: %s %s %u us", c->serial, name, cmd->mode ? "sync" : "async",
			c->timeout_us);
		return;
	case WIRE_CMD_RESET:
		sj_info("conn#%u: %s", c->serial, name);
		return;
	case WIRE_CMD_START:
		sj_info("conn#%u: %s: registrations complete", c->serial, name);
		return;
	default:
		sj_info("conn#%u: %s %s", c->serial, name, cmd->enable ? "on" : "off");
		return;
	}
}

/* The commands of a batch, kept for their log lines (info level only). */
static struct wire_command *done;
static size_t ndone, done_cap;

static void keep_for_log(const struct wire_command *cmd)
{
	if (sj_log_get_level() < SJ_LOG_INFO)
		return;
	if (ndone == done_cap) {
		size_t cap = done_cap ? 2 * done_cap : 256;
		struct wire_command *n = realloc(done, cap * sizeof(*n));
		if (!n)
			return;   /* a log line less, nothing else */
		done = n;
		done_cap = cap;
	}
	done[ndone++] = *cmd;
}

/* The next whole command in C's receive buffer: 1 (*USED bytes), 0 (none
 * whole yet), -EBADMSG (malformed, logged: the caller closes). */
static int next_command(struct conn *c, struct wire_command *cmd, size_t *used)
{
	size_t len;
	const uint8_t *data = wire_reader_data(&c->rd, &len);
	struct wire_error err;
	int rc;

	*used = 0;
	if (len == 0)
		return 0;
	rc = wire_decode_command(&c->peer, data, len, cmd, used, &err);
	if (rc == -EAGAIN)
		return 0;
	if (rc < 0) {
		sj_warn("conn#%u (pid %ld uid %ld): %s; disconnecting", c->serial, (long)c->peer_pid,
			(long)c->peer_uid, err.text);
		return -EBADMSG;
	}
	return 1;
}

int commands_process(struct conn *c, JNIEnv *jni)
{
	bool changed_any = false, window_was_open = !c->early.closed;
	int rc = 0;

	ndone = 0;
	for (;;) {
		size_t used;
		struct wire_command cmd;
		bool changed;

		rc = next_command(c, &cmd, &used);
		if (rc <= 0)
			break;
		if (wire_early_window_ignores(&c->early, &c->peer, cmd.code)) {
			wire_reader_consume(&c->rd, used);
			continue;
		}
		rc = apply_command(c, jni, &cmd, &changed);
		if (rc < 0)
			break;
		changed_any |= changed;
		/* consuming leaves the bytes in place until the next read: the
		 * command's strings stay valid for the log below */
		keep_for_log(&cmd);
		wire_reader_consume(&c->rd, used);
	}
	/* a connection that failed is closed next, which updates what the JVM reports */
	if (changed_any && rc >= 0) {
		if (conn_publish_regs(c) < 0) {
			emit_notice(1u << (unsigned)(c - conns), "out of memory for this connection's "
				    "registrations; disconnecting");
			return -ENOMEM;
		}
		events_update(jni);
		/* a peer that keeps sending keeps the I/O thread reading, one
		 * update after another (seconds, measured): what the sessions'
		 * events queued meanwhile goes out between two */
		io_flush_now();
	}
	/* once, in its place: only the Hello comes before what it ignored */
	if (window_was_open && c->early.closed && c->early.ignored)
		sj_info("conn#%u: %u Appendix B commands before the bridge's first extension command "
			"ignored (they are for an Appendix-only agent)", c->serial, c->early.ignored);
	/* a batch that failed was never live: the connection closes */
	for (size_t i = 0; i < ndone && rc >= 0; i++)
		log_applied(c, &done[i]);
	if (changed_any && rc >= 0)
		nomatch_check(c, jni);
	return rc;
}

int commands_after_death(struct conn *c)
{
	int acks = 0;

	for (;;) {
		size_t used;
		struct wire_command cmd;
		int rc = next_command(c, &cmd, &used);

		if (rc <= 0)
			return rc < 0 ? rc : acks;
		if (cmd.code == WIRE_CMD_ACK) {
			apply_ack(c, cmd.seq);
			acks++;
		} else if (cmd.code == WIRE_CMD_JFR_EVENT) {
			/* in-thread: the JVM's last JFR events, parsed by the bridge from
			 * the chunk data sent before VmDeath, fired as at any time */
			inthread_fire_jfr((unsigned)(c - conns), &cmd.jfr);
		}
		wire_reader_consume(&c->rd, used);
	}
}
