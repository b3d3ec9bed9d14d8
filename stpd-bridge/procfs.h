/* procfs.h: what the bridge reads about a process from /proc.
 *
 * Contract: a JVM is identified by pid *and* start time (pids are reused).
 * procfs_read_jvm() fills everything the socket path and the listener check
 * need. Every function returns 0 (or a length) or a negative errno; -ENOENT
 * / -ESRCH mean the process is gone. Nothing here logs.
 */
#ifndef STPD_BRIDGE_PROCFS_H
#define STPD_BRIDGE_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct jvm_id {
	pid_t pid;               /* as the bridge sees it */
	uint64_t starttime;      /* field 22 of /proc/PID/stat, clock ticks since boot */
	uid_t uid;               /* real uid */
	gid_t gid;               /* real gid */
	pid_t nspid;             /* pid in its own (innermost) pid namespace */
	pid_t tgid;              /* its process: pid itself, unless pid names a thread */
	uint64_t pidns;          /* inode of /proc/PID/ns/pid */
};

int procfs_starttime(pid_t pid, uint64_t *starttime);
int procfs_read_jvm(pid_t pid, struct jvm_id *id);

/* How long ago the process started, in ms (-1: unknown; never negative
 * otherwise). */
int64_t procfs_age_ms(const struct jvm_id *id);
/* The same from /proc/uptime's seconds and a start time in clock ticks. */
int64_t procfs_age_from(double uptime_s, uint64_t starttime, long hz);

/* Still the same process (pid alive with the same start time)? */
bool procfs_same_process(const struct jvm_id *id);

/* /proc/PID/cmdline into buf (NUL-separated arguments); its length. */
ssize_t procfs_cmdline(pid_t pid, char *buf, size_t cap);

/* 1: a JVM (its executable is named "java", or libjvm.so is mapped), 0: not. */
int procfs_is_jvm(pid_t pid);
/* Is a file named BASE (e.g. "libstapjava.so") mapped into PID (deleted since or not)? */
bool procfs_maps_file(pid_t pid, const char *base);
/* 1 when the JVM's command line or JAVA_TOOL_OPTIONS, _JAVA_OPTIONS,
 * JDK_JAVA_OPTIONS last say -XX:+NAME, 0 otherwise, -errno if unreadable. */
int procfs_jvm_flag(pid_t pid, const char *name);
/* Does the JVM's command line or options environment (as for
 * procfs_jvm_flag) contain NEEDLE anywhere? */
bool procfs_jvm_mentions(pid_t pid, const char *needle);
/* Has PID a thread named COMM (its /proc/PID/task/TID/comm)? */
bool procfs_has_thread(pid_t pid, const char *comm);
/* How long ago PID's thread named COMM started, in ms; -1: no such thread
 * (or unknown). */
int64_t procfs_thread_age_ms(pid_t pid, const char *comm);
/* Has PID a handler for signal SIG (SigCgt)? */
bool procfs_catches_signal(pid_t pid, int sig);

/* One line of /proc/PID/net/unix, LEN bytes without its newline: 1 when it
 * is a listening stream socket bound to an absolute path (its inode in
 * *INODE, the path in *PATH, *PATHLEN bytes, pointing into LINE), 0 for
 * anything else (the header, other sockets, a malformed line). The paths
 * are any local process's bytes, newlines included: a line may be forged,
 * so a caller trusts nothing it says without checking it (discovery.c). */
int procfs_parse_unix_line(const char *line, size_t len, uint64_t *inode, const char **path,
			   size_t *pathlen);
/* Which of the socket INODES (N of them) PID holds open (/proc/PID/fd):
 * HELD[i] set for each. 0, or -errno (-EACCES: not ours to look at). */
int procfs_holds_sockets(pid_t pid, const uint64_t *inodes, size_t n, bool *held);

#endif
