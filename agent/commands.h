/* commands.h: applying the bridge's commands (Appendix B + extensions) to a connection.
 *
 * Contract: I/O thread only. commands_process() decodes every complete
 * command in the connection's receive buffer and applies it; a malformed one
 * (or a Hello out of place, or a bad pattern) is logged in one line naming
 * what was wrong and returns -EBADMSG: the caller closes the connection.
 * Commands that arrived together are applied together, however many (the
 * receive buffer holds what one read loop got, WIRE_MAX_MESSAGE and more):
 * registration changes go into the connection's list (regset.h), which is
 * published, bumps conn_generation and updates the JVMTI events (and the
 * classes' calls) once per batch, before the commands' info log lines are
 * written, so a test that sees "conn#N: RegisterMethod ..." knows the
 * registration is live. A batch with a malformed or refused command is
 * never published: the connection closes. A refused registration (a bad
 * pattern, a bound of regset.h) is said to the peer in a Notice first. The Appendix B commands of the early-Appendix window (wire.h)
 * are skipped, not applied, and said in one line when the window closes.
 */
#ifndef STAPJAVA_AGENT_COMMANDS_H
#define STAPJAVA_AGENT_COMMANDS_H

#include <jvmti.h>

#include "conn.h"

int commands_process(struct conn *c, JNIEnv *jni);
/* After VmDeath: apply the Acks among the commands received, fire the
 * JfrEvents (in-thread: the JVM's last JFR events), and skip the rest (the
 * VM is ending: nothing changes what it reports). The Acks applied, or
 * -EBADMSG (malformed, logged: the caller closes). */
int commands_after_death(struct conn *c);

#endif
