/* discovery.h: finding JVMs in /proc and the path of their agent's socket.
 *
 * Contract: the path is doc/agent-bridge.md's
 *   /proc/<pid>/root<sockdir>/jvm-<pidns>-<nspid>-<starttime>.sock
 * with <sockdir> "/tmp/stapjava-<uid>" by default, or the --sockdir
 * template where "%u" stands for the JVM's uid and "%%" for '%'. Going
 * through /proc/<pid>/root reaches JVMs in other mount namespaces
 * (containers). The scanner keeps a small cache so that a process that is
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

/* Directory (through /proc/PID/root) and file name of ID's socket. */
int discovery_socket_path(const struct jvm_id *id, const char *sockdir_template,
			  char *dir, size_t dircap, char *name, size_t namecap);

/* Open (O_PATH) the JVM's socket directory, resolved inside the JVM's own
 * root (openat2 RESOLVE_IN_ROOT on /proc/PID/root), so a symlink in a
 * container cannot lead outside it. Needs the right to look into
 * /proc/PID/root: the supervisor does this and hands the fd to the worker,
 * whose capability-less root could not do it for a root-owned JVM.
 * On success *dirfd is an O_CLOEXEC descriptor the caller closes. */
int discovery_open_sockdir(const struct jvm_id *id, const char *sockdir_template, int *dirfd);

/* The same from ROOTFD, an O_PATH descriptor of the JVM's root (a worker
 * that attached the agent has one from the supervisor). */
int discovery_open_sockdir_at(int rootfd, const struct jvm_id *id, const char *sockdir_template,
			      int *dirfd);
/* DIR (absolute or relative) resolved inside ROOTFD as above, opened O_PATH. */
int discovery_open_in_root(int rootfd, const char *dir, int *dirfd);
/* The same for any PATH, with FLAGS added to O_PATH | O_CLOEXEC. */
int discovery_open_path_in_root(int rootfd, const char *path, int flags, int *fd);
/* /proc/PID/root as an O_PATH descriptor (the supervisor's right to look in). */
int discovery_open_root(const struct jvm_id *id, int *rootfd);
/* The socket directory for ID as the JVM sees it (the template expanded). */
int discovery_sockdir(const struct jvm_id *id, const char *sockdir_template, char *out, size_t cap);

/* Is there a socket named for ID in DIRFD? (fstatat, nothing is opened.) */
bool discovery_socket_exists(const struct jvm_id *id, int dirfd);

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
