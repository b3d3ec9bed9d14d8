/* markers.c: see markers.h. The only file with SDT marker sites. */
#include "markers.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "print.h"

/* Semaphores: each marker's counter, which a tracer (stap, bpftrace)
 * raises while a uprobe is on the marker, so a caller can skip formatting
 * the strings of a marker nobody probes (markers_slot_probed). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#define SEMAPHORE(NAME) \
	__extension__ unsigned short stapjava_##NAME##_semaphore \
		__attribute__((unused, section(".probes"), visibility("hidden")));

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

/* The family markers, from the table of events: FAMILIES() expands
 * FAMILY_EACH(code, marker), which each use defines, for each event that
 * has one. */
#define FAMILY_IF_EVENT_MARKER(F, code, marker) F(code, marker)
#define FAMILY_IF_EVENT_NO_MARKER(F, code, marker)
#define FAMILY_ROW(code, name, label, family, kind, bit, has, marker, caps, fields) \
	FAMILY_IF_##has(FAMILY_EACH, code, marker)
#define FAMILIES() STAPJAVA_EVENTS(FAMILY_ROW)

#define SLOT_SEMAPHORE(n) SEMAPHORE(slot##n)
SLOTS_ALL(SLOT_SEMAPHORE)
#define FAMILY_EACH(code, name) SEMAPHORE(name)
FAMILIES()
#undef FAMILY_EACH

#define SLOT_FUNCTION(n) \
	static void fire_slot##n(const struct marker_args *a) { MARK(slot##n, a); }
SLOTS_ALL(SLOT_FUNCTION)

#define SLOT_ENTRY(n) [n] = fire_slot##n,
static void (*const slot_functions[MARKERS_SLOTS])(const struct marker_args *) = {
	SLOTS_ALL(SLOT_ENTRY)
};

#define SLOT_SEMAPHORE_ENTRY(n) [n] = &stapjava_slot##n##_semaphore,
static unsigned short *const slot_semaphores[MARKERS_SLOTS] = {
	SLOTS_ALL(SLOT_SEMAPHORE_ENTRY)
};

void markers_fire_slot(unsigned slot, const struct marker_args *a)
{
	if (slot < MARKERS_SLOTS)
		slot_functions[slot](a);
}

/* A tracer raises the semaphore while it is attached, from another process. */
static bool semaphore_up(unsigned slot)
{
	return __atomic_load_n(slot_semaphores[slot], __ATOMIC_RELAXED) != 0;
}

bool markers_slot_probed(unsigned slot)
{
	return slot < MARKERS_SLOTS && semaphore_up(slot);
}

bool markers_slots_probed(const uint64_t set[MARKERS_SLOTS / 64])
{
	for (unsigned w = 0; w < MARKERS_SLOTS / 64; w++)
		for (uint64_t bits = set[w]; bits; bits &= bits - 1)
			if (semaphore_up(w * 64 + (unsigned)__builtin_ctzll(bits)))
				return true;
	return false;
}

bool markers_has_family(unsigned code)
{
	const struct event_desc *d = events_get(code);

	return d && d->marker;
}

bool markers_family_probed(unsigned code)
{
#define FAMILY_EACH(c, name) \
	case c: return __atomic_load_n(&stapjava_##name##_semaphore, __ATOMIC_RELAXED) != 0;
	switch (code) {
	FAMILIES()
	default:
		return false;
	}
#undef FAMILY_EACH
}

void markers_fire_family(unsigned code, const struct marker_args *a)
{
#define FAMILY_EACH(c, name) \
	case c: MARK(name, a); break;
	switch (code) {
	FAMILIES()
	default:
		break;
	}
#undef FAMILY_EACH
}

/* Strings go one after the other into the buffer; each write touches its
 * pages just before the markers read them. */
struct strings {
	char *buf;
	size_t cap, pos;
};

/* A full buffer yields "" in its last byte instead of a write past the
 * end: no string's contents reach that byte, and writing it touches the
 * page the handler will read. */
static __attribute__((cold, noinline)) const char *take_full(struct strings *s)
{
	s->buf[s->cap - 1] = '\0';
	return s->buf + s->cap - 1;
}

/* Take the string just formatted at s->pos (N bytes, or a failure: "").
 * Inline: it runs six times an event. */
static inline const char *take(struct strings *s, ssize_t n)
{
	if (__builtin_expect(s->pos >= s->cap, 0))
		return take_full(s);
	char *p = s->buf + s->pos;

	if (n < 0 || (size_t)n >= s->cap - s->pos) {
		p[0] = '\0';
		n = 0;
	}
	s->pos += (size_t)n + 1;
	return p;
}

static inline const char *empty(struct strings *s)
{
	return take(s, -1);
}

/* Room for the next string: what is left, less one byte so that empty()
 * always has its NUL. */
#define ROOM(s) ((s)->pos + 1 < (s)->cap ? (s)->cap - (s)->pos - 1 : 0)

/* A string already formatted: copied as print_*() would have written it,
 * "" when it does not fit ROOM (print_*() would say -ENOSPC). */
static ssize_t copy_shown(char *dst, size_t room, const struct wire_str *shown)
{
	if (shown->len >= room)
		return -ENOSPC;
	memcpy(dst, shown->ptr, shown->len);
	dst[shown->len] = '\0';
	return (ssize_t)shown->len;
}

/* The stack's text (EV's, "" for none) after a head the tapset reads to
 * give any frame of a stack longer than MAXSTRINGLEN (doc/markers.md,
 * "Stacks"): just before the text, the number of frames; before that, the
 * offset in the text of frame 0, 1, ... going down, 4-byte words each.
 * Without room for the whole text the head says 0 frames; without room for
 * the head, the tapset finds words it checks and refuses. */
static const char *take_stack(struct strings *s, const struct wire_event *ev)
{
	const struct wire_trailer *t = &ev->trailer;
	uint32_t offsets[WIRE_MAX_STACK_DEPTH];
	uint32_t depth = ev->has_trailer && (t->flags & WIRE_TF_STACK) ? t->depth : 0;
	size_t pad = (size_t)(-(uintptr_t)(s->buf + s->pos)) & 3u;
	size_t head = pad + 4u * ((size_t)depth + 1u);
	ssize_t n = -1;

	if (head >= ROOM(s)) {
		depth = 0;
		head = pad + 4u;
		if (head >= ROOM(s))
			return empty(s);
	}
	char *text = s->buf + s->pos + head;
	if (depth) {
		n = print_java_stack(text, ROOM(s) - head, t, offsets);
		if (n < 0)
			depth = 0;
	}
	for (uint32_t i = 0; i < depth; i++)
		memcpy(text - 8 - 4 * i, &offsets[i], 4);
	memcpy(text - 4, &depth, 4);
	s->pos += head;
	return take(s, depth ? n : -1);
}

void markers_fill_args(char *buf, size_t cap, const struct marker_meta *m,
		       const struct wire_event *ev, struct marker_args *a)
{
	markers_fill_args_shown(buf, cap, m, ev, NULL, a);
}

void markers_fill_args_shown(char *buf, size_t cap, const struct marker_meta *m,
			     const struct wire_event *ev, const struct wire_str *shown,
			     struct marker_args *a)
{
	struct strings strs = { buf, cap, 0 }, *s = &strs;
	unsigned code = ev->code;
	bool method = code == WIRE_EV_METHOD_ENTER || code == WIRE_EV_METHOD_EXIT ||
		      code == WIRE_EV_METHOD_COMPILE;
	bool klass = code == WIRE_EV_CLASS_LOAD || code == WIRE_EV_CLASS_PREPARE ||
		     code == WIRE_EV_CLASS_UNLOAD || code == WIRE_EV_EXCEPTION_THROWN ||
		     code == WIRE_EV_EXCEPTION_CATCH;
	bool exception = code == WIRE_EV_EXCEPTION_THROWN || code == WIRE_EV_EXCEPTION_CATCH;
	bool monitor = ev->has_trailer && (ev->trailer.flags & WIRE_TF_MONITOR) &&
		       events_in_family(code, EVENT_FAMILY_MONITORS);
	bool owner = monitor && code == WIRE_EV_MONITOR_ENTER;

	/* every field is set below (no memset: for this 96-byte struct it
	 * compiled to a rep stos, a tenth of this function's time) */
	a->num1 = 0;
	a->num2 = 0;
	a->event = (int64_t)(code & MARKERS_EVENT_MASK) | (int64_t)m->session << MARKERS_SESSION_SHIFT;
	if (ev->has_trailer)
		a->event |= (int64_t)ev->trailer.flags << MARKERS_FLAGS_SHIFT;
	a->pid = m->pid;
	a->tid = (int64_t)m->tid;
	a->timestamp_ns = (int64_t)m->ts_ns;
	if ((method || klass) && shown && shown->ptr)
		a->name = take(s, copy_shown(s->buf + s->pos, ROOM(s), shown));
	else if (method)
		a->name = take(s, print_name(s->buf + s->pos, ROOM(s), &ev->name));
	else if (klass)
		a->name = take(s, print_class(s->buf + s->pos, ROOM(s), &ev->name));
	else if (monitor)
		a->name = take(s, print_class(s->buf + s->pos, ROOM(s), &ev->trailer.monitor_class));
	else
		a->name = empty(s);
	if (exception)
		a->method = take(s, print_name(s->buf + s->pos, ROOM(s), &ev->method));
	else if (owner)
		a->method = take(s, print_text(s->buf + s->pos, ROOM(s), ev->trailer.owner_name.ptr,
					       ev->trailer.owner_name.len));
	else
		a->method = empty(s);
	a->args = code == WIRE_EV_METHOD_ENTER
		? take(s, print_values(s->buf + s->pos, ROOM(s), ev->values, ev->nvalues)) : empty(s);
	a->ret = code == WIRE_EV_METHOD_EXIT
		? take(s, print_value(s->buf + s->pos, ROOM(s), &ev->retval)) : empty(s);
	a->thread_name = m->thread_name
		? take(s, print_text(s->buf + s->pos, ROOM(s), m->thread_name, m->thread_name_len))
		: empty(s);
	a->stack = take_stack(s, ev);
	switch (code) {
	case WIRE_EV_METHOD_EXIT:
		a->num1 = ev->popped;
		break;
	case WIRE_EV_METHOD_COMPILE:
		a->num1 = ev->u32;
		if (ev->nvalues > 0 && ev->values[0].type == WIRE_T_LONG)
			a->num2 = ev->values[0].v.i;
		break;
	case WIRE_EV_MONITOR_ENTER:
		a->num1 = (int64_t)ev->object;
		a->num2 = owner ? (int64_t)m->owner_tid : 0;
		break;
	case WIRE_EV_MONITOR_ENTERED:
		a->num1 = (int64_t)ev->object;
		break;
	case WIRE_EV_MONITOR_WAIT:
	case WIRE_EV_MONITOR_WAITED:
		a->num1 = (int64_t)ev->object;
		a->num2 = ev->u32;
		break;
	case WIRE_EV_LOST:
		a->num1 = (int64_t)ev->lost;
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------ JFR events */

/* PARTS: N NUL-ended parts (the decoder counted them), in groups of STEP.
 * After a head of N/STEP + 1 words (4-aligned: the count of groups at -4,
 * group I's offset at -8 - 4I), their text, each NUL between two groups
 * turned into SEP when SEP is not NUL; an empty text whose head says 0
 * when it does not fit. */
static const char *take_parts(struct strings *s, const struct wire_str *parts, uint32_t n, uint32_t step,
			      char sep)
{
	uint32_t groups = n / step, zero = 0;
	size_t pad = (size_t)(-(uintptr_t)(s->buf + s->pos)) & 3u;
	size_t head = pad + 4u * ((size_t)groups + 1u);

	if (head + parts->len + 1 > ROOM(s)) {
		groups = 0;
		head = pad + 4u;
		if (head >= ROOM(s))
			return empty(s);
	}
	char *text = s->buf + s->pos + head;
	s->pos += head;
	if (!groups) {
		memcpy(text - 4, &zero, 4);
		return empty(s);
	}
	memcpy(text, parts->ptr, parts->len);
	for (uint32_t i = 0, at = 0; i < n; i++) {
		if (i % step == 0)
			memcpy(text - 8 - 4 * (i / step), &at, 4);
		at += (uint32_t)strlen(text + at) + 1;
		if (sep && i + 1 < n && (i + 1) % step == 0)
			text[at - 1] = sep;
	}
	memcpy(text - 4, &groups, 4);
	return take(s, (ssize_t)parts->len - 1);
}

static int64_t realtime_ahead_ns(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000 + (rt.tv_nsec - mono.tv_nsec);
}

void markers_fill_jfr(char *buf, size_t cap, uint32_t pid, uint32_t session, const struct wire_jfr_event *e,
		      struct marker_args *a)
{
	struct strings strs = { buf, cap, 0 }, *s = &strs;

	a->event = (int64_t)WIRE_EV_JFR_DATA | (int64_t)session << MARKERS_SESSION_SHIFT |
		   (e->depth ? (int64_t)WIRE_TF_STACK << MARKERS_FLAGS_SHIFT : 0);
	a->pid = pid;
	a->tid = (int64_t)e->tid;
	a->timestamp_ns = e->start_ns - realtime_ahead_ns();
	a->name = take(s, copy_shown(s->buf + s->pos, ROOM(s), &e->type));
	a->method = take_parts(s, &e->fields, 2u * e->nfields, 2, '\0');
	/* $arg7 is a number here: the start, ns since the epoch */
	a->args = (const char *)(uintptr_t)e->start_ns;
	a->ret = empty(s);
	a->num1 = e->duration_ns;
	a->num2 = (int64_t)e->slots;
	a->thread_name = take(s, copy_shown(s->buf + s->pos, ROOM(s), &e->thread_name));
	a->stack = take_parts(s, &e->stack, e->depth, 1, '|');
}
