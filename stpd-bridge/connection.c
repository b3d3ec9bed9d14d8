/* connection.c: see connection.h. */
#define _GNU_SOURCE /* struct ucred */
#include "connection.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "config.h"
#include "discovery.h"
#include "fdio.h"
#include "log.h"
#include "monoclock.h"

#define SEND_TIMEOUT_MS 2000

static int verify_listener(struct agent_conn *c, char *why, size_t whylen)
{
	struct ucred cred;
	socklen_t len = sizeof cred;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -errno;
	if (cred.pid != c->jvm.pid || cred.uid != c->jvm.uid) {
		snprintf(why, whylen,
			 "the listener is pid %d uid %u, not the JVM (pid %d uid %u): socket refused",
			 (int)cred.pid, (unsigned)cred.uid, (int)c->jvm.pid, (unsigned)c->jvm.uid);
		c->untrusted = true;
		return -EACCES;
	}
	if (!procfs_same_process(&c->jvm)) {
		snprintf(why, whylen, "the JVM's start time changed (pid reused): socket refused");
		c->untrusted = true;
		return -EACCES;
	}
	return 0;
}

int conn_open(struct agent_conn *c, const struct jvm_id *jvm, int dirfd, const char *dir,
	      char *why, size_t whylen)
{
	char name[128];
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct timeval tv = { SEND_TIMEOUT_MS / 1000, (SEND_TIMEOUT_MS % 1000) * 1000 };
	int rc;

	memset(c, 0, sizeof *c);
	c->fd = -1;
	c->jvm = *jvm;
	wire_peer_init(&c->peer);
	why[0] = '\0';
	rc = discovery_socket_name(jvm, name, sizeof name);
	if (rc < 0) {
		snprintf(why, whylen, "socket path too long");
		return rc;
	}
	/* a relative name keeps sun_path short whatever the directory */
	if (fchdir(dirfd) < 0) {
		rc = -errno;
		snprintf(why, whylen, "%s: %s", dir, strerror(-rc));
		return rc;
	}
	if (strlen(name) >= sizeof addr.sun_path) {
		snprintf(why, whylen, "socket name too long");
		return -ENAMETOOLONG;
	}
	memcpy(addr.sun_path, name, strlen(name) + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	/* before connect too: a listener that never accepts, its backlog full,
	 * would hold connect() for ever */
	setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		rc = -errno;
		if (rc == -EAGAIN)
			snprintf(why, whylen, "connect %s/%s: the agent accepted no connection within %u ms",
				 dir, name, SEND_TIMEOUT_MS);
		else
			snprintf(why, whylen, "connect %s/%s: %s", dir, name, strerror(-rc));
		goto fail;
	}
	rc = verify_listener(c, why, whylen);
	if (rc < 0)
		goto fail_kept;
	rc = wire_reader_init(&c->rd, 2 * WIRE_MAX_MESSAGE);
	if (rc < 0)
		goto fail;
	if (chdir("/") < 0) /* do not pin the JVM's filesystem */
		rc = 0;
	return 0;
fail:
	c->untrusted = false;
fail_kept:
	close(c->fd);
	c->fd = -1;
	return rc;
}

void conn_close(struct agent_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	wire_reader_free(&c->rd);
	free(c->jfr_out);
	c->jfr_out = NULL;
}

void conn_end(struct agent_conn *c, unsigned ms)
{
	uint8_t sink[16384];

	if (c->fd >= 0 && shutdown(c->fd, SHUT_WR) == 0) {
		const uint64_t until = monotonic_ns() + (uint64_t)ms * 1000000u;
		for (;;) {
			const uint64_t now = monotonic_ns();
			struct pollfd p = { .fd = c->fd, .events = POLLIN };
			if (now >= until || poll(&p, 1, (int)((until - now + 999999u) / 1000000u)) <= 0)
				break;
			ssize_t n = read(c->fd, sink, sizeof sink);
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				break;
		}
	}
	conn_close(c);
}

static int send_command(struct agent_conn *c, const struct wire_command *cmd)
{
	uint8_t data[PATTERN_MAX_LEN + 64];
	struct wire_buf b = { data, sizeof data, 0 };
	int rc = wire_encode_command(&b, cmd);

	if (rc < 0)
		return rc;
	return fd_send_all(c->fd, b.data, b.len);
}

/* Commands gathered to go out in one write: the agent then reads the whole
 * registration at once and applies it in one update (one retransformation,
 * one log paragraph), however the scheduler interleaves us. */
struct command_batch {
	uint8_t *data;
	size_t len, cap;
};

static int batch_add(struct command_batch *b, const struct wire_command *cmd)
{
	const size_t most = PATTERN_MAX_LEN + 64;

	if (b->cap - b->len < most) {
		size_t cap = b->cap ? 2 * b->cap : 4 * most;
		uint8_t *data = realloc(b->data, cap);
		if (!data)
			return -ENOMEM;
		b->data = data;
		b->cap = cap;
	}
	struct wire_buf w = { b->data + b->len, b->cap - b->len, 0 };
	int rc = wire_encode_command(&w, cmd);
	if (rc == 0)
		b->len += w.len;
	return rc;
}

static int batch_switch(struct command_batch *b, unsigned code, bool on)
{
	struct wire_command cmd = { .code = code, .enable = on };

	return on ? batch_add(b, &cmd) : 0;
}

static bool have(const struct agent_conn *c, uint32_t cap)
{
	return (c->peer.caps & cap) != 0;
}

bool conn_acks_end(const struct agent_conn *c)
{
	return wire_caps_end_ack(c->peer.caps);
}

enum conn_next conn_next_step(const struct agent_conn *c)
{
	if (!c->peer.hello) /* Appendix-only: what went with our Hello is all it can take */
		return c->appendix_sent ? CONN_NEXT_NOTHING : CONN_NEXT_REGISTER;
	if (!c->appendix_sent || have(c, WIRE_CAP_EARLY_APPENDIX))
		return CONN_NEXT_REGISTER;
	/* an older agent applied them: registering again would add up */
	return have(c, WIRE_CAP_EXT_CMDS) ? CONN_NEXT_RESET_REGISTER : CONN_NEXT_NOTHING;
}

/* E's pattern as a command carries it: the normalised text (pattern.h). */
static struct wire_str entry_pattern(const struct registry_entry *e)
{
	size_t len;
	const char *text = pattern_text(&e->pat, &len);

	return (struct wire_str){ text, (uint32_t)len };
}

static bool same_pattern(const struct registry_entry *a, const struct registry_entry *b)
{
	return a->kind == b->kind && strcmp(pattern_text(&a->pat, NULL), pattern_text(&b->pat, NULL)) == 0;
}

static int batch_patterns(struct command_batch *b, uint32_t caps, const struct registry *reg)
{
	static const unsigned appendix_code[] = {
		[WIRE_KIND_METHOD] = WIRE_CMD_REGISTER_METHOD,
		[WIRE_KIND_CLASS] = WIRE_CMD_REGISTER_CLASS,
		[WIRE_KIND_EXCEPTION] = WIRE_CMD_REGISTER_EXCEPTION,
	};

	/* One registration per (kind, pattern text), with the union of the event
	 * types of every entry (slot or -m/-c/-e) that has it: the bridge sorts
	 * the events out per slot itself. */
	for (size_t i = 0; i < reg->n; i++) {
		const struct registry_entry *e = &reg->entries[i];
		struct wire_command cmd = { .kind = e->kind, .events = e->events,
					    .pattern = entry_pattern(e) };
		bool dup = false;
		int rc;

		for (size_t j = 0; j < i && !dup; j++)
			dup = same_pattern(&reg->entries[j], e);
		if (dup)
			continue;
		for (size_t j = i + 1; j < reg->n; j++)
			if (same_pattern(&reg->entries[j], e))
				cmd.events |= reg->entries[j].events;
		/* Appendix B registers every type of a kind */
		cmd.code = (caps & WIRE_CAP_EXT_CMDS) ? WIRE_CMD_REGISTER : appendix_code[e->kind];
		rc = batch_add(b, &cmd);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* In-thread: one RegisterSlot per slot, so the agent knows which marker
 * each registration fires. */
static int batch_slots(struct command_batch *b, const struct registry *reg,
		       const struct slot_table *slots)
{
	for (unsigned n = 0; n < MARKERS_SLOTS; n++) {
		if (slots->entry[n] < 0)
			continue;
		const struct registry_entry *e = &reg->entries[slots->entry[n]];
		struct wire_command cmd = { .code = WIRE_CMD_REGISTER_SLOT, .kind = e->kind,
					    .events = e->events, .slot = (uint16_t)n,
					    .pattern = entry_pattern(e) };
		int rc = batch_add(b, &cmd);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The registration for an agent with CAPS. The order matters. In-thread
 * dispatch comes first. Then VmEvents (always, with extension commands:
 * VmDeath tells a JVM's normal end from an agent that died; the registry
 * keeps the lines out unless --vm): an extension command, it ends the
 * early-Appendix window (wire.h) before any Appendix B command the agent
 * must apply. Then the optional-data mask and the dispatch mode: a pattern
 * switches its events on as soon as the agent applies it, and events sent
 * before would come to us, lack their arguments or not wait for us. Last
 * Start, which tells the agent the registration is complete (its wait_ms
 * wait ends on it). Nothing is said here about what CAPS lack
 * (say_missing). */
static int batch_registrations(struct command_batch *b, uint32_t caps, const struct registry *reg,
			       const struct conn_in_thread *it)
{
	struct wire_command opt = { .code = WIRE_CMD_OPTIONAL_DATA, .mask = reg->opt_mask };
	int rc = 0;

	if (it) {
		struct wire_command fire = { .code = WIRE_CMD_FIRE_IN_THREAD, .session = it->session };

		rc = batch_add(b, &fire);
	}
	if (rc == 0 && (caps & WIRE_CAP_EXT_CMDS))
		rc = batch_switch(b, WIRE_CMD_VM_EVENTS, true);
	if (!(caps & WIRE_CAP_STACK))
		opt.mask &= ~(uint32_t)WIRE_OPT_STACK;
	if (!(caps & WIRE_CAP_MONITOR_DETAIL))
		opt.mask &= ~(uint32_t)WIRE_OPT_MONITOR;
	if (rc == 0 && opt.mask)
		rc = batch_add(b, &opt);
	if (rc == 0 && reg->sync && (caps & WIRE_CAP_SYNC)) {
		struct wire_command mode = { .code = WIRE_CMD_DISPATCH_MODE, .mode = WIRE_DISPATCH_SYNC,
					     .timeout_us = reg->sync_timeout_us };

		rc = batch_add(b, &mode);
	}
	if (rc == 0)
		rc = it ? batch_slots(b, reg, it->slots) : batch_patterns(b, caps, reg);
	for (size_t f = 0; f < N_SWITCHED_FAMILIES && rc == 0; f++)
		if (event_families[f].family != EVENT_FAMILY_VM)
			rc = batch_switch(b, event_families[f].switch_command,
					  registry_family_on(reg, event_families[f].family));
	if (rc == 0 && reg->jfr_len && (caps & WIRE_CAP_JFR)) {
		struct wire_command jfr = { .code = WIRE_CMD_JFR_SETTINGS,
					    .pattern = { reg->jfr, (uint32_t)reg->jfr_len } };

		rc = batch_add(b, &jfr);
	}
	if (rc == 0 && (caps & WIRE_CAP_EXT_CMDS)) {
		struct wire_command start = { .code = WIRE_CMD_START };

		rc = batch_add(b, &start);
	}
	return rc;
}

/* What an agent registered for CAPS cannot do of what REG asks. */
static void say_missing(const struct agent_conn *c, uint32_t caps, const struct registry *reg)
{
	if ((reg->opt_mask & WIRE_OPT_STACK) && !(caps & WIRE_CAP_STACK))
		sj_warn("pid %d: the agent cannot send stack traces", (int)c->jvm.pid);
	if ((reg->opt_mask & WIRE_OPT_MONITOR) && !(caps & WIRE_CAP_MONITOR_DETAIL))
		sj_warn("pid %d: the agent cannot say which class a monitor is of nor who holds it "
			"(%s): monitor events come without them", (int)c->jvm.pid,
			c->peer.hello ? "an older agent" : "an Appendix-only agent");
	if (reg->jfr_len && !(caps & WIRE_CAP_JFR))
		sj_warn("pid %d: the agent cannot stream the JVM's JFR events (%s): no java.jfr event "
			"from this JVM", (int)c->jvm.pid, c->peer.hello ? "an older agent" : "an Appendix-only agent");
	if (reg->sync && !(caps & WIRE_CAP_SYNC))
		sj_warn("pid %d: the agent cannot dispatch synchronously: events stay asynchronous",
			(int)c->jvm.pid);
	if (!(caps & WIRE_CAP_EXT_CMDS) && registry_family_on(reg, EVENT_FAMILY_VM))
		sj_warn("pid %d: the agent has no VM events (no extension commands)", (int)c->jvm.pid);
	/* an agent without line probes takes "C.m(I)V:12" for a method name: no event, no word */
	/* nor one without root patterns "^C.m" (it would select nothing either) */
	for (size_t i = 0; !(caps & WIRE_CAP_ROOTS) && i < reg->n; i++) {
		size_t rlen;
		if (reg->entries[i].kind == WIRE_KIND_METHOD && pattern_root(&reg->entries[i].pat, &rlen))
			sj_warn("pid %d: the agent has no root patterns (%s): java.method pattern '%s' selects "
				"nothing in this JVM", (int)c->jvm.pid,
				c->peer.hello ? "an older agent" : "an Appendix-only agent",
				pattern_text(&reg->entries[i].pat, NULL));
	}
	for (size_t i = 0; !(caps & WIRE_CAP_LINES) && i < reg->n; i++)
		if (reg->entries[i].kind == WIRE_KIND_METHOD && pattern_line(&reg->entries[i].pat))
			sj_warn("pid %d: the agent has no line probes (%s): java.method pattern '%s' selects "
				"nothing in this JVM", (int)c->jvm.pid,
				c->peer.hello ? "an older agent" : "an Appendix-only agent",
				pattern_text(&reg->entries[i].pat, NULL));
}

int conn_send_hello(struct agent_conn *c, const struct registry *reg)
{
	struct wire_command cmd = { .code = WIRE_CMD_HELLO };
	struct command_batch b = { 0 };
	size_t hello_len;
	int rc;

	wire_hello_init(&cmd.hello, CONN_OUR_CAPS, "stpd-bridge " PACKAGE_VERSION);
	rc = batch_add(&b, &cmd);
	hello_len = b.len;
	/* what an agent without Hello takes; our Hello tells ours to ignore it */
	if (rc == 0 && reg)
		rc = batch_registrations(&b, 0, reg, NULL);
	if (rc == 0)
		rc = fd_send_all(c->fd, b.data, b.len);
	if (rc == 0)
		c->appendix_sent = b.len > hello_len;
	free(b.data);
	return rc;
}

int conn_send_registrations(struct agent_conn *c, const struct registry *reg,
			    const struct conn_in_thread *it)
{
	enum conn_next next = conn_next_step(c);
	struct command_batch b = { 0 };
	int rc = 0;

	if (it && !have(c, WIRE_CAP_IN_THREAD)) {
		sj_warn("pid %d: the agent cannot fire markers in the Java thread (%s): no event of this "
			"JVM reaches the script; update its agent, or run stap-java with --java-async",
			(int)c->jvm.pid, c->peer.hello ? "an older agent" : "an Appendix-only agent");
		return -EPROTONOSUPPORT;
	}
	/* the Appendix B registration it keeps was made for no capability */
	say_missing(c, next == CONN_NEXT_NOTHING ? 0 : c->peer.caps, reg);
	if (it && reg->jfr_len && have(c, WIRE_CAP_JFR) && !have(c, WIRE_CAP_JFR_FIRE))
		sj_warn("pid %d: the agent cannot fire java.jfr points in the JVM (an older agent): they "
			"fire in the bridge, where a script given -x or -c does not see them", (int)c->jvm.pid);
	if (next == CONN_NEXT_NOTHING)
		return 0;
	if (next == CONN_NEXT_RESET_REGISTER) {
		struct wire_command reset = { .code = WIRE_CMD_RESET };

		rc = batch_add(&b, &reset);
	}
	if (rc == 0)
		rc = batch_registrations(&b, c->peer.caps, reg, it);
	if (rc == 0 && b.len)
		rc = fd_send_all(c->fd, b.data, b.len);
	if (rc == 0 && !c->peer.hello)
		c->appendix_sent = b.len > 0;
	free(b.data);
	return rc;
}

int conn_send_list(struct agent_conn *c, const struct registry *reg)
{
	struct command_batch b = { 0 };
	int rc = 0;

	if (!have(c, WIRE_CAP_LIST)) {
		sj_warn("pid %d: the agent cannot list its loaded methods and classes (%s)", (int)c->jvm.pid,
			c->peer.hello ? "an older agent" : "an Appendix-only agent");
		return -EPROTONOSUPPORT;
	}
	for (size_t i = 0; i < reg->n && rc == 0; i++) {
		const struct registry_entry *e = &reg->entries[i];
		struct wire_command cmd = { .code = WIRE_CMD_LIST_MATCHES, .kind = e->kind,
					    .pattern = entry_pattern(e) };

		rc = batch_add(&b, &cmd);
	}
	if (rc == 0)
		rc = fd_send_all(c->fd, b.data, b.len);
	free(b.data);
	return rc;
}

int conn_send_reset(struct agent_conn *c)
{
	struct wire_command cmd = { .code = WIRE_CMD_RESET };

	if (c->fd < 0 || !have(c, WIRE_CAP_EXT_CMDS))
		return 0;
	return send_command(c, &cmd);
}

/* A JfrEvent's four strings, the rest of it and a little more. */
#define JFR_EVENT_MAX (4u * (4u + WIRE_MAX_STRING) + 64u)

int conn_send_jfr_event(struct agent_conn *c, const struct wire_jfr_event *e)
{
	struct wire_command cmd = { .code = WIRE_CMD_JFR_EVENT, .jfr = *e };
	struct wire_buf b = { c->jfr_out, JFR_EVENT_MAX, 0 };
	int rc;

	if (!c->jfr_out && !(b.data = c->jfr_out = malloc(JFR_EVENT_MAX)))
		return -ENOMEM;
	rc = wire_encode_command(&b, &cmd);
	if (rc == 0)
		rc = conn_flush_acks(c);
	return rc < 0 ? rc : fd_send_all(c->fd, b.data, b.len);
}

int conn_flush_acks(struct agent_conn *c)
{
	size_t n = c->acks_len;

	c->acks_len = 0;
	return n ? fd_send_all(c->fd, c->acks, n) : 0;
}

int conn_queue_ack(struct agent_conn *c, uint64_t seq)
{
	struct wire_command cmd = { .code = WIRE_CMD_ACK, .seq = seq };
	struct wire_buf b = { c->acks, sizeof c->acks, c->acks_len };
	int rc = wire_encode_command(&b, &cmd);

	if (rc < 0)
		return rc;
	c->acks_len = b.len;
	return c->acks_len >= CONN_ACK_BATCH ? conn_flush_acks(c) : 0;
}

int conn_send_ack(struct agent_conn *c, uint64_t seq)
{
	int rc = conn_queue_ack(c, seq);

	return rc < 0 ? rc : conn_flush_acks(c);
}

int conn_check_order(struct agent_conn *c, const struct wire_event *ev, char *why, size_t whylen)
{
	bool first = !c->any_message;

	c->any_message = true;
	if (ev->code == WIRE_EV_HELLO) {
		if (first)
			return 0;
		snprintf(why, whylen, "a Hello after the agent's first message (it must come first)");
		return -EPROTO;
	}
	/* a broken or hostile agent: its stream can no longer be trusted to be
	 * complete or in order */
	if (c->vm_died) {
		snprintf(why, whylen, "%s after the VM's death event (nothing may follow it)",
			 wire_event_name(ev->code));
		return -EPROTO;
	}
	c->vm_died = ev->code == WIRE_EV_VM_DEATH;
	if (!ev->has_trailer)
		return 0;
	const uint64_t seq = ev->trailer.seq, last = c->last_seq;
	const bool numbered = c->numbered;
	if (!numbered && seq == 0) {
		snprintf(why, whylen, "%s numbered 0 (the first event is number 1)", wire_event_name(ev->code));
		return -EPROTO;
	}
	if (numbered && seq <= last) {
		snprintf(why, whylen, "event number %llu after number %llu (the numbers must grow by one)",
			 (unsigned long long)seq, (unsigned long long)last);
		return -EPROTO;
	}
	c->numbered = true;
	c->last_seq = seq;
	if (seq == (numbered ? last + 1 : 1) || c->gap_said)
		return 0;
	c->gap_said = true;
	if (numbered)
		snprintf(why, whylen, "events %llu to %llu never arrived (the agent numbers every event it "
			 "sends; said once)", (unsigned long long)last + 1, (unsigned long long)seq - 1);
	else
		snprintf(why, whylen, "events 1 to %llu never arrived (the first event the agent sends is "
			 "number 1)", (unsigned long long)seq - 1);
	return 1;
}
