/* markers.h: the SDT markers (provider "stapjava"), the interface SystemTap
 * scripts probe. doc/markers.md is the contract: marker names, the twelve
 * arguments and what each holds. The same sites are linked into
 * stpd-bridge (asynchronous dispatch: a worker fires them) and into the
 * agent's libstapjava.so (in-thread dispatch: the Java thread fires them).
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
#ifndef STAPJAVA_MARKERS_H
#define STAPJAVA_MARKERS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

#define MARKERS_SLOTS WIRE_MAX_SLOTS  /* STAPJAVA_MAX_SLOTS of doc/markers.md */

/* $arg1's layout: the event code in bits 0..7, the trailer flags in 8..15,
 * and from bit 16 the session an in-thread marker is for (0: fired by the
 * bridge). */
#define MARKERS_EVENT_MASK    0xFFu
#define MARKERS_FLAGS_SHIFT   8u
#define MARKERS_SESSION_SHIFT 16u

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
/* Has CODE a family marker (gc_start ... lost)? */
bool markers_has_family(unsigned code);
/* Is a uprobe on slotN / on CODE's family marker now (its SDT semaphore is
 * raised)? A tracer raises it when it attaches, so a caller that skips an
 * unprobed marker's strings misses nothing a handler could see. */
bool markers_slot_probed(unsigned slot);
bool markers_family_probed(unsigned code);
/* Is a uprobe on any slot of SET (bit N of word N / 64: slotN)? One call
 * an event, where the slots it fires are looked at. */
bool markers_slots_probed(const uint64_t set[MARKERS_SLOTS / 64]);

/* What an event's markers say besides its body, resolved by the caller. */
struct marker_meta {
	uint32_t pid;             /* the JVM's */
	uint64_t tid;             /* OS thread id, 0: none */
	uint64_t ts_ns;           /* CLOCK_MONOTONIC */
	uint32_t session;         /* bits 16.. of $arg1 */
	const char *thread_name;  /* thread events: the name, NULL if unknown */
	size_t thread_name_len;
	uint64_t owner_tid;       /* monitor detail of a contended enter: the owner's OS tid, 0: none */
};

/* The twelve arguments of EV's markers, its strings formatted one after the
 * other into BUF[0..CAP) (CAP >= 16) as --print shows them (print.h); a
 * string that does not fit is "". Every string is written by this call, so
 * its pages were touched just before the marker reads them. */
void markers_fill_args(char *buf, size_t cap, const struct marker_meta *m,
		       const struct wire_event *ev, struct marker_args *a);
/* The same, with EV's name already in its shown form (what print_name or
 * print_class gives for EV's code; the slot matcher keeps it): copied into
 * BUF rather than formatted again. SHOWN NULL or its ptr NULL: formatted. */
void markers_fill_args_shown(char *buf, size_t cap, const struct marker_meta *m,
			     const struct wire_event *ev, const struct wire_str *shown,
			     struct marker_args *a);

/* The jfr marker's arguments (doc/markers.md, "JFR events") for E, a JFR
 * event of the JVM PID (the bridge's parse of it, or a JfrEvent it sent):
 * its type, field block, thread name and stack written into BUF[0..CAP)
 * right before the marker fires, SESSION in bits 16.. of $arg1. A field
 * block or stack that does not fit is empty, its head saying 0. */
void markers_fill_jfr(char *buf, size_t cap, uint32_t pid, uint32_t session, const struct wire_jfr_event *e,
		      struct marker_args *a);

/* Enough room for every string of any event the decoder accepts. */
#define MARKERS_STRINGS_MAX (4u * WIRE_MAX_MESSAGE + 65536u + 4u * WIRE_MAX_STRING + 64u)

#endif
