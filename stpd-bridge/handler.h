/* handler.h: what a worker does with one decoded event once its stream is
 * up: keep thread names, print the --print line, hand it to the recorder
 * (--record), fire the markers (--fire).
 *
 * Contract: handler_event() takes every decoded event of a connection but
 * Hello (the connection's business, worker.c): it records ThreadName,
 * formats the event's line when --print selects it, hands the event with
 * the same pid, host tid, time and thread name to the recorder when
 * recording (handler_record_to, recfwd.h: what the registry selects, as
 * for --print), then fires its markers
 * (dispatch.h), and forgets a thread's name on ThreadFinished. When it
 * returns every marker's handler has run, so the caller may send the Ack.
 * Lines are batched: they go to the output fd when HANDLER_BATCH bytes have
 * gathered and at handler_flush(), which the caller calls once it has
 * handled what one read brought, before it waits again (so no line waits
 * for the next event), each time with one write of whole lines; the
 * records for the recorder go at the same moments. It is split
 * from worker.c so that bench/bench-decode-match runs exactly this code over
 * a recorded stream. It logs only a line too long to print. Functions
 * return 0 or a negative errno: handler_event() and handler_flush() fail
 * only with the output's write error (the supervisor is gone: stop; the
 * batch is dropped).
 */
#ifndef STPD_BRIDGE_HANDLER_H
#define STPD_BRIDGE_HANDLER_H

#include <stdbool.h>
#include <sys/types.h>

#include "descent.h"
#include "dispatch.h"
#include "jfrfeed.h"
#include "methodids.h"
#include "options.h"
#include "procfs.h"
#include "recfwd.h"
#include "threadnames.h"
#include "tidmap.h"
#include "wire.h"

struct handler {
	const struct bridge_options *opts;
	int out_fd;              /* --print lines, whole lines per write */
	pid_t pid;               /* the JVM's, as the bridge sees it */
	struct threadnames names;
	struct tidmap tids;      /* the agent's thread ids -> the host's */
	struct dispatch disp;    /* --fire */
	struct recfwd rec;       /* --record */
	bool disp_ready;
	char *line;              /* --print: the batch, HANDLER_BATCH + PRINT_LINE_MAX bytes */
	size_t batched;          /* bytes of whole lines in it */
	uint64_t *hits;          /* --print: events per registry entry (handler_report_silent) */
	uint64_t lost;           /* the agent's last Lost total */
	bool *unreportable;      /* --print: per registry entry, the agent said a method it
				  * matches cannot be reported (handler_report_silent) */
	uint32_t listed;         /* --matches: the Matches of the list under way */
	struct jfrfeed *jfr;     /* --jfr: the JVM's JFR stream, NULL: not asked for */
	char *jfr_buf;           /* --jfr --fire: the jfr marker's strings */
	bool jfr_listed;         /* --jfr-types: the JVM's types are listed */
	bool jfr_none;           /* the agent said no JFR recording serves the session (JfrData NONE) */
	/* in-thread: hands a JFR event to the agent to fire (JfrEvent), NULL:
	 * the bridge fires it (an agent without WIRE_CAP_JFR_FIRE) */
	int (*jfr_send)(void *ctx, const struct wire_jfr_event *e);
	void *jfr_send_ctx;
	struct descent *descent; /* the Descends events so far (root method patterns) */
	struct methodids ids;    /* CAP_METHOD_IDS: the agent's method numbers */
	bool descent_full;       /* a Descends was not kept: said once */
};

/* The jfr marker's strings, field block and stack: what does not fit is "". */
#define HANDLER_JFR_MARKER_BYTES (1u << 20)

/* Lines are written once this much has gathered (and at handler_flush). */
#define HANDLER_BATCH 65536u

/* 0, -ENOMEM. handler_free() is safe after a failed init, and on a zeroed
 * struct handler. */
int handler_init(struct handler *h, const struct bridge_options *opts, const struct jvm_id *jvm,
		 int out_fd);
void handler_free(struct handler *h);
/* --record: send the events to the record channel FD (recfwd.h). 0 or -ENOMEM. */
int handler_record_to(struct handler *h, int fd);

/* In-thread: the JFR events go to FN (the agent fires them) rather than to
 * the bridge's marker. FN's failure is handler_event()'s. */
void handler_send_jfr_to(struct handler *h, int (*fn)(void *ctx, const struct wire_jfr_event *e), void *ctx);

int handler_event(struct handler *h, const struct wire_event *ev);
/* At the end of a session with this JVM: the events the agent dropped, if
 * any (a script that has no java.lost probe would never know), and with
 * --print one warning per pattern (-m, -c, -e) that no event matched, so a
 * pattern that matches nothing is not mistaken for a quiet program. */
void handler_report_silent(const struct handler *h);
int handler_flush(struct handler *h);
/* CAP_METHOD_IDS (methodids.h), before handler_event: a MethodName is kept
 * (1: nothing more to do with it); an event by number becomes the event it
 * stands for (0; any other event is left as it is). -ENOMEM, or -E2BIG and
 * -ENOENT with WHY: the agent is to be disconnected. */
int handler_method_number(struct handler *h, struct wire_event *ev, char *why, size_t whylen);

#endif
