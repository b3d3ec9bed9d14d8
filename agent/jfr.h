/* jfr.h: the JFR family: the JVM's own Flight Recorder events streamed to
 * the bridges that want them (java.jfr probes, stpd-bridge --jfr; issue 15).
 *
 * Contract: the I/O thread hands each JfrSettings command to jfr_settings()
 * and each closing connection to jfr_conn_closed(). A thread of ours
 * ("stapjava-jfr", started at the first settings; every JNI call of this
 * family is made there) keeps one jdk.jfr.Recording per connection that
 * wants JFR, holding only the event types it named with its settings: JFR
 * itself runs the union of the recordings (the lowest threshold, the
 * shortest period, a stack trace if one wants it), and a recording the user
 * started is left alone. The recording's chunks are read from JFR's
 * repository as the JVM flushes them (about once a second), from the chunk
 * the recording began with, and sent to the connection as JfrData, never
 * filling more than half its queue (the rest waits in the file, nothing is
 * lost): jfrrepo.h, on the same thread. Settings that change restart nothing: the recording takes the new
 * ones. The last wish withdrawn (settings "", Reset, the connection closed),
 * the recording is stopped and closed, which deletes its chunk files, and a
 * repository directory our recording made is removed. JFR unavailable
 * (disabled with -XX:-FlightRecorder, or the jdk.jfr module absent), an
 * event type the JVM does not have (with the names most like it), a JFR
 * error: a Notice to the connection naming it, never silence.
 * jfr_vm_death(), from VMDeath before VmDeath is queued: what the files hold
 * and the queues take still goes out (bounded, JFR_DEATH_MS).
 */
#ifndef STAPJAVA_AGENT_JFR_H
#define STAPJAVA_AGENT_JFR_H

#include <jvmti.h>
#include <stdbool.h>

#include "conn.h"

#define JFR_POLL_MS 100      /* the repository is read this often (the JVM flushes every second) */
#define JFR_DEATH_MS 2000    /* VMDeath waits at most this long for the last chunk data */

/* I/O thread. TEXT: JfrSettings lines; malformed: -EBADMSG after a
 * Notice naming the fault (the connection closes). */
int jfr_settings(struct conn *c, JNIEnv *jni, const struct wire_str *text);
/* I/O thread: C closes or is Reset: its recording goes. */
void jfr_conn_closed(struct conn *c);
void jfr_vm_death(void);
/* Has every JfrSettings received been applied (its recording started,
 * changed or stopped)? io_wait_for_bridge() waits for it too: with wait_ms,
 * main() runs with the session's recording live. */
bool jfr_settled(void);

#endif
