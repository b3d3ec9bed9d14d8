/* markers.c: see markers.h. The only file with SDT marker sites. */
#include "markers.h"

#include <sys/sdt.h>

#include "wire.h"

/* Every marker takes the same twelve arguments (doc/markers.md), so one
 * macro makes each site. Numbers are int64_t ("-8@" in the note), strings
 * pointers ("8@"). */
#define MARK(NAME, a)                                                                          \
	STAP_PROBE12(stapjava, NAME, (a)->event, (a)->pid, (a)->tid, (a)->timestamp_ns,        \
		     (a)->name, (a)->method, (a)->args, (a)->ret, (a)->num1, (a)->num2,        \
		     (a)->thread_name, (a)->stack)

/* 256 slot markers, one small function each, without writing them out: an
 * SDT marker's name is a literal in its note, so each needs its own site.
 * SLOTS_ALL(F) expands F(0) ... F(255). */
#define SLOTS_TEN(F, p) F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define SLOTS_ALL(F)                                                                           \
	SLOTS_TEN(F, ) SLOTS_TEN(F, 1) SLOTS_TEN(F, 2) SLOTS_TEN(F, 3) SLOTS_TEN(F, 4)         \
	SLOTS_TEN(F, 5) SLOTS_TEN(F, 6) SLOTS_TEN(F, 7) SLOTS_TEN(F, 8) SLOTS_TEN(F, 9)        \
	SLOTS_TEN(F, 10) SLOTS_TEN(F, 11) SLOTS_TEN(F, 12) SLOTS_TEN(F, 13) SLOTS_TEN(F, 14)   \
	SLOTS_TEN(F, 15) SLOTS_TEN(F, 16) SLOTS_TEN(F, 17) SLOTS_TEN(F, 18) SLOTS_TEN(F, 19)   \
	SLOTS_TEN(F, 20) SLOTS_TEN(F, 21) SLOTS_TEN(F, 22) SLOTS_TEN(F, 23) SLOTS_TEN(F, 24)   \
	F(250) F(251) F(252) F(253) F(254) F(255)

#define SLOT_FUNCTION(n) \
	static void fire_slot##n(const struct marker_args *a) { MARK(slot##n, a); }
SLOTS_ALL(SLOT_FUNCTION)

#define SLOT_ENTRY(n) [n] = fire_slot##n,
static void (*const slot_functions[MARKERS_SLOTS])(const struct marker_args *) = {
	SLOTS_ALL(SLOT_ENTRY)
};

void markers_fire_slot(unsigned slot, const struct marker_args *a)
{
	if (slot < MARKERS_SLOTS)
		slot_functions[slot](a);
}

void markers_fire_family(unsigned code, const struct marker_args *a)
{
	switch (code) {
	case WIRE_EV_GC_START: MARK(gc_start, a); break;
	case WIRE_EV_GC_FINISH: MARK(gc_finish, a); break;
	case WIRE_EV_VM_INIT: MARK(vm_init, a); break;
	case WIRE_EV_VM_DEATH: MARK(vm_death, a); break;
	case WIRE_EV_THREAD_START: MARK(thread_start, a); break;
	case WIRE_EV_THREAD_END: MARK(thread_end, a); break;
	case WIRE_EV_MONITOR_ENTER: MARK(monitor_contended_enter, a); break;
	case WIRE_EV_MONITOR_ENTERED: MARK(monitor_contended_entered, a); break;
	case WIRE_EV_MONITOR_WAIT: MARK(monitor_wait, a); break;
	case WIRE_EV_MONITOR_WAITED: MARK(monitor_waited, a); break;
	case WIRE_EV_LOST: MARK(lost, a); break;
	default: break;
	}
}
