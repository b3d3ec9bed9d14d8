/* listener.h: the agent's listening socket (doc/agent-bridge.md, "Where an agent listens").
 *
 * Contract: <dir>/jvm-<pidns>-<nspid>-<starttime>.sock. Without a sockdir=
 * option, <dir> is new, made by mkdtemp as $TMPDIR (or /tmp)/stapjava-<uid>-
 * XXXXXX, mode 0700, and the socket is bound at its real path, which bridges
 * read in our /proc/PID/net/unix: no other user can take the place first.
 * With sockdir=, the directory is created 0700 if missing and refused (one
 * log line naming its owner or fault, no socket) when it is a symlink, not a
 * directory, not ours, or writable by group/others; the socket is bound under
 * a temporary name, chmod 0600, listening, and only then renamed into place
 * (replacing a stale one). Called from the I/O thread only.
 */
#ifndef STAPJAVA_AGENT_LISTENER_H
#define STAPJAVA_AGENT_LISTENER_H

/* Create the socket. Returns the listening fd (non-blocking) or -errno, logged. */
int listener_open(void);
/* About once a second: if our socket file vanished or was replaced, make a
 * new one. Returns the (possibly new) listening fd, or -errno. */
int listener_check(int fd);
/* Unlink our socket if the file at the path is still ours. */
void listener_remove(void);
/* The final path (for logs and tests); "" before listener_open. */
const char *listener_path(void);

#endif
