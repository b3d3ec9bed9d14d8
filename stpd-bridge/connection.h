/* connection.h: one worker's connection to one agent.
 *
 * Contract: conn_open() connects to the socket computed for JVM and trusts
 * it only if the listener is that JVM: SO_PEERCRED pid and uid must be the
 * JVM's, and the JVM's start time must still be the one the path was made
 * from. Otherwise it fails with c->untrusted set and *why saying what did not
 * match (a squatted socket). It must run after the privilege drop, as the JVM's
 * owner. The send functions encode commands with the runtime codec and
 * write each group whole (a send timeout bounds a peer that stops reading);
 * which commands go depends on what the Hello exchange negotiated: the
 * extension Register with per-type masks when WIRE_CAP_EXT_CMDS, else the
 * Appendix B commands. An Appendix-only agent gets its Appendix B
 * registration with our Hello, at once; an agent that answers the Hello
 * gets its own registration then, once, with no registration twice
 * (conn_next_step). Functions return 0 or a negative errno; nothing here
 * logs, except conn_send_registrations' warnings about what the agent cannot
 * do.
 */
#ifndef STPD_BRIDGE_CONNECTION_H
#define STPD_BRIDGE_CONNECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "procfs.h"
#include "registry.h"
#include "slots.h"
#include "wire.h"

/* What we offer in our Hello. */
#define CONN_OUR_CAPS WIRE_CAP_ALL

/* Queued Acks (9 bytes each) are sent when this many bytes are queued, or
 * at conn_flush_acks(). */
#define CONN_ACK_BATCH 4096u

struct agent_conn {
	int fd;
	struct jvm_id jvm;
	struct wire_peer peer;   /* the agent, as far as we know it */
	struct wire_reader rd;
	bool hello_done;         /* agent's Hello received, or given up waiting */
	/* Appendix B registrations went to the agent before its Hello was
	 * read: with ours, or when we gave up waiting for it */
	bool appendix_sent;
	bool untrusted;          /* conn_open failed because the listener is not the JVM */
	/* the stream's order (conn_check_order) */
	bool any_message;        /* the agent has sent a message */
	bool numbered;           /* ... an event with a sequence number: last_seq is its */
	uint64_t last_seq;       /* the last event's number (the words at a cut-off end too) */
	bool vm_died;            /* VmDeath seen: nothing may follow, and the end is expected */
	bool gap_said;           /* a gap in the numbers was said (once) */
	uint8_t acks[CONN_ACK_BATCH + 16]; /* encoded Acks not yet sent */
	size_t acks_len;
	uint8_t *jfr_out;        /* conn_send_jfr_event's message, made at its first */
};

/* DIRFD: the socket directory (discovery_find_socket); DIR, that
 * directory as the JVM sees it, only names the path in messages. */
int conn_open(struct agent_conn *c, const struct jvm_id *jvm, int dirfd, const char *dir,
	      char *why, size_t whylen);
void conn_close(struct agent_conn *c);
/* The session's end, after Reset: our side shut for writing, then what the
 * agent still sends read and dropped until it closes too (it does once it
 * reads the end), for at most MS ms. Closed with unread bytes, the socket
 * would be reset, and the agent would log a read error for an ordinary
 * end. Then conn_close(). */
void conn_end(struct agent_conn *c, unsigned ms);

/* Our Hello, and with REG (NULL for in-thread dispatch, which an
 * Appendix-only agent cannot do), in the same write, the Appendix B
 * registration an Appendix-only agent needs (PROTOCOL.md,
 * CAP_EARLY_APPENDIX): such an agent may stop reading before we could know
 * what it is. Sets appendix_sent. */
int conn_send_hello(struct agent_conn *c, const struct registry *reg);

/* What the agent still needs once we know what it is. */
enum conn_next {
	CONN_NEXT_NOTHING,        /* the Appendix B registration it has is all it can take */
	CONN_NEXT_REGISTER,       /* its registration, for the negotiated capabilities */
	CONN_NEXT_RESET_REGISTER, /* Reset, then that: it applied the Appendix B one (an older agent) */
};
/* From peer (its Hello, if any) and appendix_sent. */
enum conn_next conn_next_step(const struct agent_conn *c);

/* In-thread dispatch (--in-thread): the agent fires the slots' markers. */
struct conn_in_thread {
	const struct slot_table *slots;
	uint32_t session;
};
/* Once we know what the agent is (its Hello, in time or late; its first
 * event; the Hello timeout): send what conn_next_step() says, in one write,
 * and warn about what the registration the agent ends up with cannot do.
 * IT NULL: the agent sends us the events. With IT, an agent that cannot
 * fire in-thread is refused (-EPROTONOSUPPORT, after a warning). */
/* --matches: after the agent's Hello, one ListMatches per entry of REG, in
 * its order, in one write. -EPROTONOSUPPORT (after a warning) when the agent
 * cannot list. */
int conn_send_list(struct agent_conn *c, const struct registry *reg);
int conn_send_registrations(struct agent_conn *c, const struct registry *reg,
			    const struct conn_in_thread *it);
int conn_send_reset(struct agent_conn *c);        /* no-op unless WIRE_CAP_EXT_CMDS */
/* In-thread: a JFR event for the agent to fire (JfrEvent; the caller checked
 * that WIRE_CAP_JFR_FIRE was negotiated), sent at once with any Acks queued
 * before it. */
int conn_send_jfr_event(struct agent_conn *c, const struct wire_jfr_event *e);
/* Acks go in batches: conn_queue_ack() encodes one (sending the queue
 * when it is full), conn_flush_acks() sends what is queued with one send.
 * The agent gets every Ack, in order, as if each had been sent alone; the
 * worker flushes once per read, so an Ack waits at most for the events
 * that came in the same read (a send costs more than handling them). */
int conn_queue_ack(struct agent_conn *c, uint64_t seq);
/* An Ack sent now, after those queued. */
int conn_send_ack(struct agent_conn *c, uint64_t seq);
/* CAP_END_ACK (and numbered events) negotiated: the agent holds the VM's
 * end until we acknowledge VmDeath, which we do once every event before it
 * is handled; during a long batch we acknowledge what is handled so far, so
 * that the agent sees us progress (worker.c). */
bool conn_acks_end(const struct agent_conn *c);

/* What PROTOCOL.md says of the order of the agent's stream, checked on each
 * message before the worker handles it: a Hello only as its first message,
 * nothing after VmDeath, event numbers from 1 growing by one. 0: go on; 1:
 * go on, and say WHY (events never arrived: said once a connection);
 * -EPROTO: disconnect, WHY says why. */
int conn_check_order(struct agent_conn *c, const struct wire_event *ev, char *why, size_t whylen);
int conn_flush_acks(struct agent_conn *c);

#endif
