/* recorder.h: --record: one process that writes one file for every JVM.
 *
 * Contract: main() opens FILE with recorder_open_file() while the bridge
 * still has its privileges (refused when it exists, unless --force); the
 * supervisor then forks the recorder with recorder_spawn() before any
 * worker. The recorder keeps the file and the read end of the record
 * channel (a SOCK_SEQPACKET socket pair, recchan.h), closes everything
 * else, drops its privileges (to nobody when the bridge is root, else to
 * the bridge's own uid: the file is open already) and, since the workers'
 * records come from bytes the JVMs sent, decodes them as untrusted there,
 * never in the root supervisor. Every worker gets the write end and sends
 * its events (recfwd.h). The recorder hands each to the format
 * (record.h), calls its tick about once a second and writes what is
 * buffered then (a recording cut short loses at most that second), passes
 * what the workers dropped to the format's lost hook and says the total at
 * the end, and at EOF (every worker gone and the supervisor's end closed:
 * recorder_stop_input) calls the format's end and exits. A write error or
 * --record-max stops the recording early with one message naming the file;
 * the recorder exits then (0 for the cap, 1 for an error) and the
 * workers, whose sends now fail, record no more: the session goes on.
 * Functions return 0 or a negative errno, after logging what went wrong.
 */
#ifndef STPD_BRIDGE_RECORDER_H
#define STPD_BRIDGE_RECORDER_H

#include <stdbool.h>
#include <sys/types.h>

#include "options.h"

struct recorder {
	pid_t pid;     /* the recorder process; 0: none, or reaped */
	int wr;        /* the record channel's end for the workers; -1: none */
	int status;    /* its exit status once reaped; -1 before */
};

/* Open o->record for writing: a new file, or with --force a truncated one. */
int recorder_open_file(const struct bridge_options *o, int *fd);

/* Fork the recorder over FILE_FD (closed here in the caller). LOG_FD (-1:
 * stderr) is kept for its messages. */
int recorder_spawn(struct recorder *r, const struct bridge_options *o, int file_fd, int log_fd);

/* The supervisor's waitpid() found PID: is it the recorder? (Then its
 * status is kept, and its channel closed: later workers record nothing.) */
bool recorder_reaped(struct recorder *r, pid_t pid, int status);

/* No more workers: close the supervisor's end, so the recorder sees EOF
 * once the last worker is gone. */
void recorder_stop_input(struct recorder *r);

/* Wait at most TIMEOUT_MS for the recorder to finish (then kill it, said in
 * a warning). Its exit status: 0 when the recording ended well. */
int recorder_wait(struct recorder *r, int timeout_ms);

#endif
