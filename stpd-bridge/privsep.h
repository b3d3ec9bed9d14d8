/* privsep.h: a worker's drop from root to the JVM owner (design.md,
 * "Privileges").
 *
 * Contract: privsep_drop() makes the calling process run as UID/GID with
 * no supplementary groups, no capabilities in any set (effective,
 * permitted, inheritable, ambient, bounding) and no_new_privs, and then
 * verifies every one of these from the kernel's answers. It returns 0 only
 * when all hold; otherwise a negative errno and *what names the step that
 * failed. A caller that gets an error must not go on (the process may be
 * half-dropped). It never logs and never exits.
 */
#ifndef STPD_BRIDGE_PRIVSEP_H
#define STPD_BRIDGE_PRIVSEP_H

#include <sys/types.h>

int privsep_drop(uid_t uid, gid_t gid, const char **what);

#endif
