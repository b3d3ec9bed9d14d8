/* fakeattach.h: HotSpot's side of the attach mechanism, for fakeagent
 * (testsuite/bridge.bats): a process that passes for a JVM started without
 * the agent, so that the bridge's attach (stpd-bridge/attach.c) can be
 * tested where a real JVM cannot be made to fail on cue.
 *
 * Contract: fakeattach_catch_quits() installs a SIGQUIT handler (/proc then
 * shows the signal caught, as HotSpot's does once it handles it).
 * fakeattach_wait_load(IGNORE, ...) then waits for SIGQUITs: the first IGNORE
 * start nothing (a HotSpot whose listener lost its socket as the VM started:
 * AttachListener::vm_start removes a .java_pid file it finds), the next one
 * with the trigger file /tmp/.attach_pid<pid> there starts the listener at
 * /tmp/.java_pid<pid>. It takes one request ("1", then load, the agent's
 * path, "true" and the options, each NUL-terminated), answers it as HotSpot
 * does for an agent that loaded ("0\nreturn code: 0\n"), removes the socket
 * and gives the request's options in OPTIONS. NOTE gets a line for each
 * step. Returns 0 or -errno.
 */
#ifndef STAPJAVA_TESTSUITE_FAKEATTACH_H
#define STAPJAVA_TESTSUITE_FAKEATTACH_H

#include <stddef.h>

typedef void (*fakeattach_note_fn)(const char *line);

int fakeattach_catch_quits(void);
int fakeattach_wait_load(unsigned ignore, char *options, size_t cap, fakeattach_note_fn note);

#endif
