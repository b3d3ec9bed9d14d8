/* sj_java_stap.h: the real stap, when stap-java stands in front of it.
 *
 * Contract: stap-java may be installed as `stap` (make install-as-stap: a
 * link named stap to stap-java, ahead of SystemTap's in PATH), so that
 * whatever calls `stap` gets Java probe points.  sj_real_stap() names the
 * stap to run in OUT: $STAPJAVA_STAP when set; else "stap" when the first
 * `stap` in PATH (an executable file) is not this very program (compared by
 * device and inode of /proc/self/exe, whatever the links in between), and
 * returns 0; else the path of the first one after it that is not, and returns
 * 1 (it then skipped itself: the caller exports it as STAPJAVA_STAP, so that
 * what it starts runs the same).  -ENOENT when PATH has no other stap,
 * -ENAMETOOLONG when OUT is short.  No logging.
 */
#ifndef STAPJAVA_SJ_JAVA_STAP_H
#define STAPJAVA_SJ_JAVA_STAP_H

#include <stddef.h>

int sj_real_stap(char *out, size_t cap);

#endif
