/* jvmsel.h: which JVMs `--jvm NAME|PID` selects (stap-java's java("PNAME")
 * and java(PID) probe points).
 *
 * Contract: a selector of digits is a pid; any other names a JVM as jps(1)
 * does: its main class or jar (discovery_main_class() of its command line),
 * whole ("org.my.App", "/opt/app.jar": jps -l) or short ("App", "app.jar":
 * jps).  jvmsel_matches() reads /proc/PID/cmdline; a process it cannot read
 * matches no name.  No logging, no allocation.
 */
#ifndef STPD_BRIDGE_JVMSEL_H
#define STPD_BRIDGE_JVMSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* 0, or -EINVAL when SEL can be neither a pid nor a name. */
int jvmsel_check(const char *sel);

/* Does one of SELS[0..N) select the JVM PID? */
bool jvmsel_matches(pid_t pid, const char *const *sels, size_t n);

/* The same for a JVM whose main class or jar is MAIN (testable without /proc). */
bool jvmsel_matches_main(pid_t pid, const char *main, const char *const *sels, size_t n);

#endif
