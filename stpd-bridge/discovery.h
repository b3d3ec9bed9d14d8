/* discovery.h: finding JVMs in /proc and their agent's socket.
 *
 * Contract: the socket is named jvm-<pidns>-<nspid>-<starttime>.sock
 * (doc/agent-bridge.md) and found through the JVM's own process
 * (discovery_find_socket), or in the --sockdir template's directory where
 * "%u" stands for the JVM's uid and "%%" for '%'. Going through
 * /proc/<pid>/root reaches JVMs in other mount namespaces (containers).
 * The scanner keeps a small cache so that a process that is
 * not a JVM is not re-examined on every scan. Functions return 0 or a
 * negative errno and never log.
 */
#ifndef STPD_BRIDGE_DISCOVERY_H
#define STPD_BRIDGE_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "procfs.h"

/* The agent's socket's file name for ID: jvm-<pidns>-<nspid>-<starttime>.sock. */
int discovery_socket_name(const struct jvm_id *id, char *name, size_t cap);

/* Where ID's agent listens. */
struct agent_socket {
	int dirfd;               /* its directory, O_PATH | O_CLOEXEC: the caller closes it */
	char dir[4096];          /* that directory as the JVM sees it (for messages) */
	char name[128];          /* the socket's name in it */
};

/* Find ID's agent socket, looking from ROOTFD, an O_PATH descriptor of
 * the JVM's root (-1: /proc/PID/root is opened here, which needs the
 * supervisor's right to look into it). First among the JVM's own listening
 * sockets: /proc/PID/net/unix gives the path each was bound to, and only a
 * socket that the JVM holds (its inode in /proc/PID/fd) in a directory and
 * file of the JVM's uid that nobody else may write counts, so no other user
 * can plant one or block it (doc/security.md, "Threat model"). Then at the
 * --sockdir place (SOCKDIR_TEMPLATE, where the JVM's listener is checked
 * after connecting), or without one at /tmp/stapjava-<uid>, where older agents
 * listened, under the same ownership checks. Paths resolve inside
 * the JVM's root (RESOLVE_IN_ROOT), so a JVM in a container is found in its
 * own /tmp. Returns 0 with *OUT filled; -ENOENT when there is none (WHY says
 * where it looked, and names a squatted directory); -ELOOP (a symlink),
 * -ENOTSOCK (not a socket), -EPERM (not the JVM's uid's) when something
 * unusable is where the socket should be, WHY naming it, for the caller to
 * say once. */
int discovery_find_socket(const struct jvm_id *id, int rootfd, const char *sockdir_template,
			  struct agent_socket *out, char *why, size_t cap);
/* The same with NET_UNIX read in place of /proc/PID/net/unix (tests). */
int discovery_find_socket_in(const struct jvm_id *id, int rootfd, const char *sockdir_template,
			     FILE *net_unix, struct agent_socket *out, char *why, size_t cap);

/* DIR (absolute or relative) resolved inside ROOTFD as above, opened O_PATH. */
int discovery_open_in_root(int rootfd, const char *dir, int *dirfd);
/* The same for any PATH, with FLAGS added to O_PATH | O_CLOEXEC. */
int discovery_open_path_in_root(int rootfd, const char *path, int flags, int *fd);
/* /proc/PID/root as an O_PATH descriptor (the supervisor's right to look in). */
int discovery_open_root(const struct jvm_id *id, int *rootfd);
/* The socket directory for ID as the JVM sees it (the template expanded). */
int discovery_sockdir(const struct jvm_id *id, const char *sockdir_template, char *out, size_t cap);

/* The main class of a java command line (NUL-separated arguments): the first
 * argument after the launcher's options, "-jar FILE" -> FILE, "-m M/C" -> M/C.
 * Empty when none is found. Control bytes are written as \xHH. */
int discovery_main_class(const char *cmdline, size_t len, char *out, size_t cap);

/* The whole command line, arguments separated by spaces, escaped likewise. */
int discovery_command(const char *cmdline, size_t len, char *out, size_t cap);

struct discovery;
struct discovery *discovery_new(void);
void discovery_free(struct discovery *d);

/* Every JVM now visible, in pid order, into *pids (malloc'd, caller frees). */
int discovery_scan(struct discovery *d, pid_t **pids, size_t *n);

/* --list: a header and one line per JVM: PID USER AGENT MAIN. */
int discovery_list(struct discovery *d, FILE *out, const char *sockdir_template);

#endif
