/* dispatch.c: see dispatch.h. */
#include "dispatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"
#include "print.h"

/* Every string of one event fits: the message's fields escaped (at most
 * PRINT_LINE_MAX, as for a whole --print line) plus a thread name. */
#define DISPATCH_BUF_SIZE (PRINT_LINE_MAX + 4u * WIRE_MAX_STRING + 64u)

int dispatch_init(struct dispatch *d, const struct registry *reg, const struct slot_table *slots)
{
	int rc;

	d->reg = reg;
	d->cap = DISPATCH_BUF_SIZE;
	d->buf = malloc(d->cap);
	if (!d->buf)
		return -ENOMEM;
	rc = slots_matcher_init(&d->matcher, slots, reg);
	if (rc < 0) {
		free(d->buf);
		d->buf = NULL;
	}
	return rc;
}

void dispatch_free(struct dispatch *d)
{
	slots_matcher_free(&d->matcher);
	free(d->buf);
	d->buf = NULL;
}

/* Does the family marker of EV's code fire? */
static bool family_on(const struct registry *r, unsigned code)
{
	return registry_family_wanted(r, code) == 1;
}

/* Strings go one after the other into the buffer; each write touches its
 * pages just before the markers read them. */
struct strings {
	char *buf;
	size_t cap, pos;
};

/* Take the string just formatted at s->pos (N bytes, or a failure: ""). */
static const char *take(struct strings *s, ssize_t n)
{
	/* A full buffer yields "" in its last byte instead of a write past the
	 * end: no string's contents reach that byte, and writing it touches the
	 * page the handler will read. */
	if (s->pos >= s->cap) {
		s->buf[s->cap - 1] = '\0';
		return s->buf + s->cap - 1;
	}
	char *p = s->buf + s->pos;

	if (n < 0 || (size_t)n >= s->cap - s->pos) {
		p[0] = '\0';
		n = 0;
	}
	s->pos += (size_t)n + 1;
	return p;
}

static const char *empty(struct strings *s)
{
	return take(s, -1);
}

/* Room for the next string: what is left, less one byte so that empty()
 * always has its NUL. */
#define ROOM(s) ((s)->pos + 1 < (s)->cap ? (s)->cap - (s)->pos - 1 : 0)

static void fill_args(struct strings *s, const struct dispatch_meta *m,
		      const struct wire_event *ev, struct marker_args *a)
{
	unsigned code = ev->code;
	bool method = code == WIRE_EV_METHOD_ENTER || code == WIRE_EV_METHOD_EXIT ||
		      code == WIRE_EV_METHOD_COMPILE;
	bool klass = code == WIRE_EV_CLASS_LOAD || code == WIRE_EV_CLASS_PREPARE ||
		     code == WIRE_EV_CLASS_UNLOAD || code == WIRE_EV_EXCEPTION_THROWN ||
		     code == WIRE_EV_EXCEPTION_CATCH;
	bool exception = code == WIRE_EV_EXCEPTION_THROWN || code == WIRE_EV_EXCEPTION_CATCH;

	memset(a, 0, sizeof *a);
	a->event = (int64_t)(code & MARKERS_EVENT_MASK);
	if (ev->has_trailer)
		a->event |= (int64_t)ev->trailer.flags << MARKERS_FLAGS_SHIFT;
	a->pid = m->pid;
	a->tid = (int64_t)m->tid;
	a->timestamp_ns = (int64_t)m->ts_ns;
	if (method)
		a->name = take(s, print_name(s->buf + s->pos, ROOM(s), &ev->name));
	else if (klass)
		a->name = take(s, print_class(s->buf + s->pos, ROOM(s), &ev->name));
	else
		a->name = empty(s);
	a->method = exception ? take(s, print_name(s->buf + s->pos, ROOM(s), &ev->method)) : empty(s);
	a->args = code == WIRE_EV_METHOD_ENTER
		? take(s, print_values(s->buf + s->pos, ROOM(s), ev->values, ev->nvalues)) : empty(s);
	a->ret = code == WIRE_EV_METHOD_EXIT
		? take(s, print_value(s->buf + s->pos, ROOM(s), &ev->retval)) : empty(s);
	a->thread_name = m->thread_name
		? take(s, print_text(s->buf + s->pos, ROOM(s), m->thread_name, m->thread_name_len))
		: empty(s);
	a->stack = ev->has_trailer && (ev->trailer.flags & WIRE_TF_STACK)
		? take(s, print_stack(s->buf + s->pos, ROOM(s), &ev->trailer)) : empty(s);
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

void dispatch_event(struct dispatch *d, const struct dispatch_meta *m, const struct wire_event *ev)
{
	struct slot_set hits;
	struct strings s = { d->buf, d->cap, 0 };
	struct marker_args a;
	bool slots = slots_match(&d->matcher, ev->code, ev->name.ptr, ev->name.len, &hits);
	bool family = family_on(d->reg, ev->code);

	if (!slots && !family)
		return;
	fill_args(&s, m, ev, &a);
	if (slots)
		for (unsigned w = 0; w < SLOTS_WORDS; w++)
			for (uint64_t bits = hits.w[w]; bits; bits &= bits - 1)
				markers_fire_slot(w * 64 + (unsigned)__builtin_ctzll(bits), &a);
	if (family)
		markers_fire_family(ev->code, &a);
}
