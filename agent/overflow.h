/* overflow.h: exits whose report found no stack left, counted as lost.
 *
 * Why: a StackOverflowError unwinds probed frames, and the frames nearest
 * the overflow have no stack left for the call of Probe.thrown that reports
 * their exit (every call needs HotSpot's shadow zone). The handler over
 * that call counts the exit without a call, in Probe.lost[row][col] for its
 * site, and bumps Probe.overflows (classfile.h). Those counts must reach
 * the connections as Lost: every call of a matched method is reported or
 * counted.
 *
 * Contract: overflow_setup() (once Probe is defined) finds Probe's fields
 * and sets Probe.lost to its rows (one per CLASSFILE_LOST_ROW sites, null
 * until made); overflow_row_ready() makes SITE's row, before a class whose
 * code counts in it is defined (the class-file hook). Both return 0 or
 * -errno. overflow_poll() (the I/O thread each round, VM death before its
 * event; any thread with JNI) reads Probe.overflows and, when it changed,
 * every row made: each site's new count becomes dropped events of the
 * connections that want its method.return now (conn_count_unreported), and
 * each such connection is told once, in a Notice, why and of which method.
 * Nothing here runs on a Java thread's event path. Two threads that count
 * the same site at the same instant may count one (the handler has no
 * atomic increment without a call).
 */
#ifndef STAPJAVA_AGENT_OVERFLOW_H
#define STAPJAVA_AGENT_OVERFLOW_H

#include <jni.h>
#include <stdint.h>

int overflow_setup(JNIEnv *jni, jclass probe);
int overflow_row_ready(JNIEnv *jni, int32_t site);
void overflow_poll(JNIEnv *jni);

#endif
