/* jvmsock.h: the name of a JVM's agent socket, one description for the
 * agent that binds it, the bridge that looks for it, and the test and bench
 * programs that play an agent (doc/agent-bridge.md, "Where an agent listens").
 *
 * Contract: jvm-<pidns>-<nspid>-<starttime>.sock, where pidns is the inode of
 * the process's /proc/PID/ns/pid, nspid its pid in that (its innermost)
 * namespace, and starttime field 22 of /proc/PID/stat (clock ticks after
 * boot): a pid alone is reused, the three together name one process.
 * Functions return 0 or a negative errno; nothing is logged.
 */
#ifndef STAPJAVA_RUNTIME_JVMSOCK_H
#define STAPJAVA_RUNTIME_JVMSOCK_H

#include <stddef.h>
#include <stdint.h>

/* Longest name, NUL included: three 64-bit numbers and the frame. */
#define JVMSOCK_NAME_MAX 80

/* The socket name of the process (PIDNS, NSPID, STARTTIME) into NAME;
 * -ENAMETOOLONG when CAP is short. */
int jvmsock_name(char *name, size_t cap, uint64_t pidns, int64_t nspid, uint64_t starttime);

/* Field 22 (starttime) of a /proc/PID/stat text STAT (LEN bytes, need not be
 * NUL-terminated). The command name (field 2) may hold spaces and ')' (any
 * user may set it): the fields are counted after the last ')'. -EINVAL when
 * the text has no such field. */
int jvmsock_stat_starttime(const char *stat, size_t len, uint64_t *starttime);

/* The calling process's own socket name. */
int jvmsock_self_name(char *name, size_t cap);

#endif
