/* fdio.h: small file-descriptor helpers shared by the agent and the bridge.
 *
 * Contract: fd_write_all() writes all n bytes to fd, retrying short writes
 * and EINTR; it returns 0 or -errno (EAGAIN included, for a non-blocking fd
 * that is full). It does not guard against SIGPIPE: callers that write to
 * pipes ignore SIGPIPE (for sockets, fd_send_all below needs no such care).
 */
#ifndef STAPJAVA_FDIO_H
#define STAPJAVA_FDIO_H

#include <stddef.h>

int fd_write_all(int fd, const void *buf, size_t n);
/* The same for a socket, with send(MSG_NOSIGNAL): a closed peer is -EPIPE,
 * never a SIGPIPE, whatever the process's signal dispositions. */
int fd_send_all(int fd, const void *buf, size_t n);

#endif
