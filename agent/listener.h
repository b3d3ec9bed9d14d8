/* listener.h: the agent's listening socket (doc/agent-bridge.md, "Where an agent listens").
 *
 * Contract: <sockdir>/jvm-<pidns>-<nspid>-<starttime>.sock, sockdir created
 * 0700 if missing and refused (one log line, no socket) when it is a symlink,
 * not a directory, not ours, or writable by group/others. The socket is bound
 * under a temporary name, chmod 0600, listening, and only then renamed into
 * place (replacing a stale one). Called from the I/O thread only.
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
