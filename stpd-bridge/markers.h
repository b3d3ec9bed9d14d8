/* markers.h: the SDT markers of stpd-bridge (provider "stapjava"), the
 * interface SystemTap scripts probe. doc/markers.md is the contract: marker
 * names, the twelve arguments and what each holds.
 *
 * Contract: markers_fire_slot() fires slotN (N < MARKERS_SLOTS) and
 * markers_fire_family() the family marker of an event code (gc_start ...
 * lost; other codes fire nothing). Both only execute the marker
 * instruction: with no uprobe on it, a nop; with one, the SystemTap handler
 * runs to completion before the call returns (so an Ack sent afterwards
 * comes after the handler). The caller fills struct marker_args: numbers as
 * they go into $arg1..$arg12, and strings that are NUL-terminated, never
 * NULL, and were written by this process just before the call (a uprobe
 * handler's user_string() faults on pages never touched).
 */
#ifndef STPD_BRIDGE_MARKERS_H
#define STPD_BRIDGE_MARKERS_H

#include <stdint.h>

#define MARKERS_SLOTS 256u  /* STAPJAVA_MAX_SLOTS of doc/markers.md */

/* $arg1's layout: the event code in bits 0..7, the trailer flags in 8..15. */
#define MARKERS_EVENT_MASK  0xFFu
#define MARKERS_FLAGS_SHIFT 8u

struct marker_args {
	int64_t event;          /* $arg1: code | trailer flags << 8 */
	int64_t pid;            /* $arg2 */
	int64_t tid;            /* $arg3: host OS thread id, 0: none */
	int64_t timestamp_ns;   /* $arg4 */
	const char *name;       /* $arg5 */
	const char *method;     /* $arg6 */
	const char *args;       /* $arg7 */
	const char *ret;        /* $arg8 */
	int64_t num1;           /* $arg9 */
	int64_t num2;           /* $arg10 */
	const char *thread_name; /* $arg11 */
	const char *stack;      /* $arg12 */
};

void markers_fire_slot(unsigned slot, const struct marker_args *a);
void markers_fire_family(unsigned code, const struct marker_args *a);

#endif
