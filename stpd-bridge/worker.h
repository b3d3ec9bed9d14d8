/* worker.h: the per-JVM worker process.
 *
 * Contract: worker_main() runs in a freshly forked child of the supervisor,
 * with SIGTERM, SIGINT, SIGHUP and SIGCHLD blocked and every descriptor but
 * 0-2, the log's, OUT_FD, REC_FD and SOCKDIR_FD closed. It drops to the JVM owner (privsep.h)
 * before it touches the socket, connects and verifies the listener,
 * handshakes, registers, and then decodes events until the agent goes away,
 * the supervisor goes away (parent-death signal, OUT_FD's reader closed, or
 * getppid() changed) or it is told to stop (SIGTERM): then it sends Reset
 * when negotiated and returns. Lines for --print go to OUT_FD as whole
 * lines, those of one read of the socket together (handler.h); with --fire
 * the event's markers fire (dispatch.h) before its Ack is sent, so in sync
 * mode the handlers run while the Java thread waits. With REC_FD the events
 * --print would select go to the recorder too (recfwd.h), never waiting for
 * it. The Acks of one read
 * go in one send, after that read's lines (connection.h).
 * Thread ids in lines and markers are the host's (tidmap.h). With ATTACH
 * the worker first loads the agent into the JVM, as the JVM's owner, and
 * waits (bounded) for its socket. Every failure is logged here in one line
 * naming the JVM; the return value is the process's exit status (enum
 * worker_exit).
 */
#ifndef STPD_BRIDGE_WORKER_H
#define STPD_BRIDGE_WORKER_H

#include <stdbool.h>
#include <sys/types.h>

#include "options.h"
#include "procfs.h"

enum worker_exit {
	WORKER_DONE = 0,       /* agent gone, or told to stop */
	WORKER_FAILED = 1,     /* could not set up (privileges, connect) */
	WORKER_REFUSED = 3,    /* the peer was not trusted or sent malformed bytes */
	WORKER_NO_AGENT = 4,   /* the agent could not be attached, or its socket never came */
};

struct worker_config {
	struct jvm_id jvm;
	const struct bridge_options *opts;
	int out_fd;            /* write end of the pipe to the supervisor */
	int rec_fd;            /* --record: the record channel (recorder.h); -1: none */
	/* the agent's socket directory (O_PATH); with ATTACH, the JVM's root
	 * (O_PATH): the worker loads the agent (attach.h), then finds the
	 * directory there */
	int sockdir_fd;
	char sockdir[4096];    /* without ATTACH: that directory as the JVM sees it */
	bool attach;
	pid_t supervisor;      /* the parent's pid, to notice its death */
};

int worker_main(const struct worker_config *cfg);

#endif
