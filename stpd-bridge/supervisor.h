/* supervisor.h: the bridge's (root) parent process.
 *
 * Contract: supervisor_run() only discovers and supervises. It scans /proc
 * every --rescan-ms for JVMs (or the -x pids; not those whose worker runs:
 * a worker ends with its JVM; one not named, without an agent socket past
 * its first 30 s, every 5 s only), and for each JVM whose agent
 * socket exists forks one worker (worker.h), which drops to the JVM's owner
 * before it touches the socket. It never reads a byte from an agent. It
 * copies the workers' lines to OUT_FD, whole lines only, so lines of
 * different JVMs never interleave. It ends when told to (SIGTERM, SIGINT,
 * SIGHUP), when --parent dies (pidfd, or start-time polling), or, with -x,
 * when every named JVM is gone or given up; it then passes the end on to the workers
 * (SIGTERM: they unregister), waits for them (bounded), and returns the exit
 * status. An output that cannot be written (a full disk, a closed pipe)
 * ends the session likewise, said once, status 1. LOG_FD (-1: stderr) is kept open in the workers. With RECORD_FD
 * (the --record file, opened by the caller; -1: none) it first forks the
 * recorder (recorder.h), which owns the file from then on, and gives every
 * worker its channel; at the end it waits (bounded) for the recorder to
 * finish the file, and a recording that failed makes the status 1. A
 * recording stopped early (--record-max, an error) ends the session only
 * when it neither prints nor fires. A worker that dies of a signal while
 * its JVM lives is replaced after a backoff, said in one line; after
 * RESTART_MAX deaths in a row (supervisor.c) the JVM is given up (with -x,
 * a failure of the run).
 */
#ifndef STPD_BRIDGE_SUPERVISOR_H
#define STPD_BRIDGE_SUPERVISOR_H

#include "options.h"

int supervisor_run(const struct bridge_options *o, int out_fd, int log_fd, int record_fd);
/* --check: is each -x pid a process this bridge may serve, and a JVM (given
 * a few seconds to exec one)? 0, or -ESRCH after a line for each that is not. */
int supervisor_check_named(const struct bridge_options *o);

#endif
