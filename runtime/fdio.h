/* fdio.h: small file-descriptor helpers shared by the agent and the bridge.
 *
 * Contract: fd_write_all() writes all n bytes to fd, retrying short writes
 * and EINTR; it returns 0 or -errno (EAGAIN included, for a non-blocking fd
 * that is full). It does not guard against SIGPIPE: callers that write to
 * pipes ignore SIGPIPE (for sockets, fd_send_all below needs no such care).
 * fd_close_all_but() is for a freshly forked child: it keeps 0-2 and the
 * descriptors it is given (negative ones are ignored), and closes all others.
 */
#ifndef STAPJAVA_FDIO_H
#define STAPJAVA_FDIO_H

#include <stddef.h>
#include <sys/types.h>

int fd_write_all(int fd, const void *buf, size_t n);
/* The same for a socket, with send(MSG_NOSIGNAL): a closed peer is -EPIPE,
 * never a SIGPIPE, whatever the process's signal dispositions. */
int fd_send_all(int fd, const void *buf, size_t n);

/* Read the file at PATH (a small one: a /proc file) into BUF, at most CAP - 1
 * bytes, NUL-terminated; its length, or -errno. */
ssize_t fd_read_small_file(const char *path, char *buf, size_t cap);

#define FD_KEEP_MAX 8
/* Close every descriptor from 3 up but the N (at most FD_KEEP_MAX) in KEEP. */
void fd_close_all_but(const int *keep, size_t n);

#endif
