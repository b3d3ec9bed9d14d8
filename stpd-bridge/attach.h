/* attach.h: loading the stapjava agent into a HotSpot JVM that runs without it.
 *
 * Why: `stpd-bridge -x PID` (and so `stap-java -x PID`) must reach a JVM
 * started without -agentpath, as jcmd's JVMTI.agent_load, async-profiler and
 * jattach do: through HotSpot's attach mechanism.
 *
 * Contract: attach_agent() runs in a worker that already has the JVM's uid
 * and gid (privsep.h): HotSpot's listener accepts only a peer with its own
 * effective uid and gid, or root, and trusts only a trigger file its own
 * user made. ROOTFD is an O_PATH descriptor of the JVM's root directory
 * (/proc/PID/root, opened by the supervisor), so a JVM in another mount
 * namespace (a container) is reached in its own /tmp, with paths resolved
 * inside that root. Unless the JVM's performance data says its attach
 * mechanism is off (hsperf.h: then -EPERM, nothing sent), it makes HotSpot
 * start its listener (.attach_pid<nspid>
 * in the JVM's /tmp, then SIGQUIT, which HotSpot handles once it runs: the
 * caller checks that it does), waits for .java_pid<nspid> at most
 * ATTACH_LISTENER_MS (sending SIGQUIT once more halfway: a VM that was
 * starting may have lost its listener's socket, attach.c), and sends `load
 * AGENT true OPTIONS`; while the agent
 * answers that the VM still starts (ATTACH_TOO_EARLY: HotSpot's listener
 * can answer before the VM runs Java code, and then unloads the agent; JDK
 * 25 answers "only permitted in the live phase" itself), it asks again, for
 * at most ATTACH_LISTENER_MS. An agent path the JVM cannot see (another
 * root, or a mount namespace of its own) is copied into the JVM's /tmp first and
 * removed once loaded. Returns 0, or -errno with WHY saying in one sentence
 * what failed (no listener: attach disabled; refused; the agent's own
 * failure with the JVM's words). Nothing here logs.
 */
#ifndef STPD_BRIDGE_ATTACH_H
#define STPD_BRIDGE_ATTACH_H

#include <stdbool.h>
#include <stddef.h>

#include "procfs.h"

#define ATTACH_LISTENER_MS 10000
/* The agent's Agent_OnAttach answer while the VM still starts: try again
 * (agent/agent.h, AGENT_ATTACH_TOO_EARLY). */
#define ATTACH_TOO_EARLY 73
/* Its answer when the JVM has no JVMTI 11 (AGENT_ATTACH_TOO_OLD). */
#define ATTACH_TOO_OLD 74

int attach_agent(const struct jvm_id *id, int rootfd, const char *agent, const char *options,
		 char *why, size_t whycap);
/* Has the JVM its attach listener's socket already (-Xrs starts it with the
 * VM, and then no SIGQUIT is needed)? ROOTFD as above. */
bool attach_listener_running(const struct jvm_id *id, int rootfd);

#endif
