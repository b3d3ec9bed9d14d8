/* hsperf.h: what a HotSpot JVM says about itself in its performance-data file.
 *
 * Why: a JVM started with -XX:+DisableAttachMechanism must not be sent
 * SIGQUIT (it would print a thread dump on its stdout), and the flag may come
 * from where the bridge cannot see it: an @argfile, a -XX:Flags= file,
 * .hotspotrc. The JVM itself publishes, in /tmp/hsperfdata_USER/NSPID (unless
 * started with -XX:-UsePerfData), the constant sun.rt.jvmCapabilities, whose
 * first character is '1' when its attach mechanism works; jps and jcmd read
 * the same file.
 *
 * The file: a 32-byte prologue (magic CA FE C0 C0, byte order 0 big or 1
 * little endian, version, an "accessible" flag, used bytes, ..., the offset
 * of the first entry at 24 and the number of entries at 28), then entries,
 * each: length, name offset, vector length (0: a scalar), type ('B' bytes,
 * so a string; 'J' a long), flags, units, variability (1: constant), data
 * offset; offsets from the entry's start.
 *
 * Contract: hsperf_each() walks BUF (any bytes: the JVM's user writes the
 * file) and calls FN for each entry with its name and data inside BUF; FN's
 * non-zero answer stops the walk and is returned. A malformed buffer gives
 * -EINVAL with *WHY (nothing visited past the fault), one the JVM has not
 * made accessible yet -EAGAIN. hsperf_string() copies the string entry NAME
 * (up to its first NUL) into OUT: 0, -ENOENT, -ENOSPC, or as hsperf_each().
 * Pure, no allocation.
 *
 * hsperf_attach_disabled() runs as the JVM's user (the worker, privsep.h):
 * it looks in TMPFD (the JVM's /tmp, opened in its root) for
 * hsperfdata_<any user name>/NSPID, a regular file of UID in a directory of
 * UID, neither reached through a symlink, at most HSPERF_MAX_SIZE bytes.
 * 1: the JVM says its attach mechanism is off (PATH: the file as the JVM
 * sees it); 0: it says it is on; -EAGAIN: the file is there but the JVM has
 * not made it accessible yet (it does once the VM has started: ask again);
 * another negative errno: no such file, or it does not say (the caller goes
 * by what the command line shows).
 */
#ifndef STPD_BRIDGE_HSPERF_H
#define STPD_BRIDGE_HSPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define HSPERF_MAX_SIZE (1024 * 1024)

struct hsperf_entry {
	const char *name;           /* NUL-terminated, inside the buffer */
	char type;                  /* 'B', 'J', ... as the JVM wrote it */
	uint8_t variability;        /* 1 constant, 2 monotonic, 3 variable */
	uint32_t vector_length;     /* 0: a scalar */
	const uint8_t *data;        /* vector_length bytes, or 8 for a scalar 'J' */
	size_t data_len;
	bool little_endian;
};

typedef int (*hsperf_visit_fn)(void *ctx, const struct hsperf_entry *e);

int hsperf_each(const uint8_t *buf, size_t len, hsperf_visit_fn fn, void *ctx, const char **why);
int hsperf_string(const uint8_t *buf, size_t len, const char *name, char *out, size_t cap,
		  const char **why);
/* A scalar 'J' entry's value in the file's byte order. */
int64_t hsperf_long(const struct hsperf_entry *e);

int hsperf_attach_disabled(int tmpfd, uid_t uid, pid_t nspid, char *path, size_t pathcap);

#endif
