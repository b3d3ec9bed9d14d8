/* rec_jfr_read.c: see rec_jfr_read.h. Two passes: the first parses every
 * chunk and notes, for each event we keep, its time and where it is (a
 * pair, two times); the second, in time order, reads each again and builds
 * its wire_event. The file is in memory: what we note is small beside it. */
#include "rec_jfr_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rec_jfr_decode.h"
#include "rec_jfr_parse.h"
#include "rec_tables.h"

/* ---- the classes we read, and their fields (doc/recording-jfr.md) */
enum role {
	R_CALL = JR_TYPES, R_COMPILE, R_THREAD_START, R_THREAD_END, R_CLASS_LOAD, R_CLASS_PREPARE, R_CLASS_UNLOAD,
	R_THROW, R_ERROR_THROW, R_CATCH, R_MONITOR_ENTER, R_MONITOR_WAIT, R_CONTENDED_ENTER,
	R_CONTENDED_ENTERED, R_WAIT, R_WAITED, R_GC, R_GC_START, R_GC_FINISH, R_VM_INIT, R_VM_DEATH, R_LOST,
	R_COUNT
};
#define FIRST_EVENT R_CALL

/* every event's first four */
enum { S_START, S_DURATION, S_THREAD, S_STACK, S_4, S_5, S_6, S_7, S_8, S_9, S_10 };
#define EVENT_FIELDS "startTime", "duration", "eventThread", "stackTrace"
#define MONITOR_FIELDS { EVENT_FIELDS, "monitorClass", "previousOwner", "address", "timeout", "timedOut" }
enum { M_CLASS = S_4, M_OWNER, M_ADDRESS, M_TIMEOUT, M_TIMED_OUT };
enum { C_METHOD = S_4, C_ARGS, C_ARG_TYPES, C_RET, C_RET_TYPE, C_ENTERED, C_RETURNED, C_EXCEPTION,
       C_RET_STACK };
enum { CO_METHOD = S_4, CO_SIZE, CO_VALUES, CO_TYPES };

static const struct jfr_role roles[R_COUNT] = {
	JFR_DECODE_ROLES,
	[R_CALL] = { "stapjava.MethodCall", { EVENT_FIELDS, "method", "arguments", "argumentTypes", "returnValue",
					      "returnType", "entered", "returned", "exception", "returnStackTrace" } },
	[R_COMPILE] = { "stapjava.MethodCompile", { EVENT_FIELDS, "method", "codeSize", "values", "valueTypes" } },
	[R_THREAD_START] = { "jdk.ThreadStart", { EVENT_FIELDS, "thread" } },
	[R_THREAD_END] = { "jdk.ThreadEnd", { EVENT_FIELDS, "thread" } },
	[R_CLASS_LOAD] = { "jdk.ClassLoad", { EVENT_FIELDS, "loadedClass" } },
	[R_CLASS_PREPARE] = { "stapjava.ClassPrepare", { EVENT_FIELDS, "preparedClass" } },
	[R_CLASS_UNLOAD] = { "jdk.ClassUnload", { EVENT_FIELDS, "unloadedClass" } },
	[R_THROW] = { "jdk.JavaExceptionThrow", { EVENT_FIELDS, "thrownClass" } },
	[R_ERROR_THROW] = { "jdk.JavaErrorThrow", { EVENT_FIELDS, "thrownClass" } },
	[R_CATCH] = { "stapjava.ExceptionCatch", { EVENT_FIELDS, "thrownClass", "method" } },
	[R_MONITOR_ENTER] = { "jdk.JavaMonitorEnter", MONITOR_FIELDS },
	[R_MONITOR_WAIT] = { "jdk.JavaMonitorWait", MONITOR_FIELDS },
	[R_CONTENDED_ENTER] = { "stapjava.MonitorContendedEnter", MONITOR_FIELDS },
	[R_CONTENDED_ENTERED] = { "stapjava.MonitorContendedEntered", MONITOR_FIELDS },
	[R_WAIT] = { "stapjava.MonitorWait", MONITOR_FIELDS },
	[R_WAITED] = { "stapjava.MonitorWaited", MONITOR_FIELDS },
	[R_GC] = { "jdk.GarbageCollection", { EVENT_FIELDS } },
	[R_GC_START] = { "stapjava.GcStart", { EVENT_FIELDS } },
	[R_GC_FINISH] = { "stapjava.GcFinish", { EVENT_FIELDS } },
	[R_VM_INIT] = { "stapjava.VmInit", { EVENT_FIELDS } },
	[R_VM_DEATH] = { "stapjava.VmDeath", { EVENT_FIELDS } },
	[R_LOST] = { "stapjava.Lost", { EVENT_FIELDS, "lost" } },
};

/* The wire event of each event role: a single one, or a pair's two. */
static const unsigned codes[R_COUNT][2] = {
	[R_CALL] = { WIRE_EV_METHOD_ENTER, WIRE_EV_METHOD_EXIT },
	[R_COMPILE] = { WIRE_EV_METHOD_COMPILE },
	[R_THREAD_START] = { WIRE_EV_THREAD_START },
	[R_THREAD_END] = { WIRE_EV_THREAD_END },
	[R_CLASS_LOAD] = { WIRE_EV_CLASS_LOAD },
	[R_CLASS_PREPARE] = { WIRE_EV_CLASS_PREPARE },
	[R_CLASS_UNLOAD] = { WIRE_EV_CLASS_UNLOAD },
	[R_THROW] = { WIRE_EV_EXCEPTION_THROWN },
	[R_ERROR_THROW] = { WIRE_EV_EXCEPTION_THROWN },
	[R_CATCH] = { WIRE_EV_EXCEPTION_CATCH },
	[R_MONITOR_ENTER] = { WIRE_EV_MONITOR_ENTER, WIRE_EV_MONITOR_ENTERED },
	[R_MONITOR_WAIT] = { WIRE_EV_MONITOR_WAIT, WIRE_EV_MONITOR_WAITED },
	[R_CONTENDED_ENTER] = { WIRE_EV_MONITOR_ENTER },
	[R_CONTENDED_ENTERED] = { WIRE_EV_MONITOR_ENTERED },
	[R_WAIT] = { WIRE_EV_MONITOR_WAIT },
	[R_WAITED] = { WIRE_EV_MONITOR_WAITED },
	[R_GC] = { WIRE_EV_GC_START, WIRE_EV_GC_FINISH },
	[R_GC_START] = { WIRE_EV_GC_START },
	[R_GC_FINISH] = { WIRE_EV_GC_FINISH },
	[R_VM_INIT] = { WIRE_EV_VM_INIT },
	[R_VM_DEATH] = { WIRE_EV_VM_DEATH },
	[R_LOST] = { WIRE_EV_LOST },
};

/* An event to hand back: HALF 0 a single event, 1 and 2 a pair's. */
struct item {
	uint64_t ts;              /* CLOCK_MONOTONIC ns */
	uint64_t order;           /* among equal times */
	size_t pos;               /* the record */
	uint32_t chunk;
	uint8_t half;
};

struct reader {
	const uint8_t *data;
	size_t len;
	struct jfr_chunk *chunks;
	uint32_t nchunks;
	size_t capchunks;
	struct item *items;
	size_t nitems, capitems;
	struct jfr_decoder dec;
	struct record_error *err;
	struct wire_event ev;
	struct print_meta meta;
};

/* ---- events */
static uint64_t to_ns(const struct jfr_chunk *ch, uint64_t ticks)
{
	if (ch->freq == 1000000000u)
		return ticks;
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / ch->freq);
}

/* What the event would take on the wire, at most: it must fit in a
 * message, for --print's line to fit in PRINT_LINE_MAX (print.h). */
static size_t wire_size(const struct wire_event *ev)
{
	size_t n = 128 + ev->name.len + ev->method.len + ev->retval.str.len;

	for (unsigned i = 0; i < ev->nvalues; i++)
		n += 32 + ev->values[i].str.len;
	for (unsigned i = 0; i < ev->trailer.depth; i++)
		n += 16 + ev->trailer.frames[i].method.len + ev->trailer.frames[i].source.len;
	return n + ev->trailer.monitor_class.len + ev->trailer.owner_name.len;
}

static void event_thread(struct reader *r, uint32_t pid, uint64_t tid)
{
	r->meta.pid = pid;
	r->meta.tid = tid;
	r->ev.thread = tid;
	r->ev.trailer.os_tid = (uint32_t)tid;
}

/* The monitor's class and, on a contended enter, its owner. */
static int monitor_of(struct reader *r, struct jfr_chunk *ch, uint32_t cls, const size_t *pos, bool enter)
{
	struct wire_trailer *t = &r->ev.trailer;
	uint32_t mcls, ocls, opid;
	size_t mat, oat;
	uint64_t otid;
	bool null;
	int rc;

	if ((rc = jfr_get_ref(ch, cls, M_CLASS, pos, &mcls, &mat, r->err)) < 0)
		return rc;
	if ((mcls = jfr_dec_of(ch, mcls, JR_CLASS)) == JFR_NO_CLASS)
		return 0;
	t->flags |= WIRE_TF_MONITOR;
	if ((rc = jfr_dec_class(&r->dec, ch, mcls, mat, &t->monitor_class)) < 0 || !enter)
		return rc;
	if ((rc = jfr_get_ref(ch, cls, M_OWNER, pos, &ocls, &oat, r->err)) < 0 ||
	    (rc = jfr_dec_thread(&r->dec, ch, ocls, oat, &opid, &otid, &t->owner_name, &null)) < 0)
		return rc;
	t->owner_tid = (uint32_t)otid;
	r->meta.owner_tid = otid;
	return 0;
}

/* Build the event of ITEM into r->ev and r->meta. */
static int build(struct reader *r, const struct item *it)
{
	struct jfr_chunk *ch = &r->chunks[it->chunk];
	struct jfr_cursor c = { ch->data, it->pos, ch->end, false };
	struct wire_event *ev = &r->ev;
	struct wire_trailer *t = &ev->trailer;
	size_t pos[JFR_MAX_WANT], at;
	uint64_t size = jfr_get_varint(&c), type = jfr_get_varint(&c), tid;
	uint32_t cls = jfr_class_index(ch, type), ref, pid;
	enum role role = (enum role)ch->classes[cls].role;
	int64_t v;
	bool second = it->half == 2, synthetic = false, null;
	unsigned stack_slot = S_STACK;
	int rc;

	jfr_dec_reset(&r->dec);
	memset(&r->meta, 0, sizeof r->meta);
	memset(ev, 0, offsetof(struct wire_event, values));
	memset(t, 0, offsetof(struct wire_trailer, frames));
	memset(&ev->retval, 0, sizeof ev->retval);
	ev->nvalues = 0;
	t->monitor_class.ptr = t->owner_name.ptr = "";
	t->monitor_class.len = t->owner_name.len = 0;
	t->owner_tid = 0;
	ev->name.ptr = ev->method.ptr = "";
	jfr_set_budget(ch, (size_t)size);
	if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
	    (rc = jfr_get_long(ch, cls, S_START, pos, &v, r->err)) < 0 ||
	    (rc = jfr_get_ref(ch, cls, S_THREAD, pos, &ref, &at, r->err)) < 0 ||
	    (rc = jfr_dec_thread(&r->dec, ch, ref, at, &pid, &tid, &ev->name, &null)) < 0)
		return rc;
	ev->code = codes[role][second];
	ev->has_trailer = true;
	t->timestamp_ns = it->ts;
	r->meta.ts_ns = it->ts;
	event_thread(r, pid, tid);
	/* the event thread's name was read into ev->name: thread events keep it */
	if (!null && (role == R_THREAD_START || role == R_THREAD_END)) {
		r->meta.thread_name = ev->name.ptr;
		r->meta.thread_name_len = ev->name.len;
	}
	ev->name.ptr = "";
	ev->name.len = 0;
	switch (role) {
	case R_CALL:
		if ((rc = jfr_get_ref(ch, cls, C_METHOD, pos, &ref, &at, r->err)) < 0 ||
		    (rc = jfr_dec_method(&r->dec, ch, ref, at, &ev->name)) < 0)
			return rc;
		if (second) {
			uint8_t one;

			if ((rc = jfr_get_long(ch, cls, C_EXCEPTION, pos, &v, r->err)) < 0 ||
			    (rc = jfr_dec_values(&r->dec, ch, cls, C_RET, C_RET_TYPE, pos, &ev->retval, &one)) < 0)
				return rc;
			if (one != 1)
				return jfr_fail(r->err, pos[C_RET_TYPE], "a return of %u values", one);
			ev->popped = v != 0;
			stack_slot = C_RET_STACK;
		} else if ((rc = jfr_dec_values(&r->dec, ch, cls, C_ARGS, C_ARG_TYPES, pos, ev->values, &ev->nvalues)) < 0) {
			return rc;
		}
		break;
	case R_COMPILE:
		if ((rc = jfr_get_ref(ch, cls, CO_METHOD, pos, &ref, &at, r->err)) < 0 ||
		    (rc = jfr_dec_method(&r->dec, ch, ref, at, &ev->name)) < 0 ||
		    (rc = jfr_get_long(ch, cls, CO_SIZE, pos, &v, r->err)) < 0 ||
		    (rc = jfr_dec_values(&r->dec, ch, cls, CO_VALUES, CO_TYPES, pos, ev->values, &ev->nvalues)) < 0)
			return rc;
		ev->u32 = (uint32_t)v;
		break;
	case R_THREAD_START:
	case R_THREAD_END:
		/* the thread that starts or ends, which the JDK's eventThread may not be */
		if (jfr_has(ch, cls, S_4)) {
			if ((rc = jfr_get_ref(ch, cls, S_4, pos, &ref, &at, r->err)) < 0 ||
			    (rc = jfr_dec_thread(&r->dec, ch, ref, at, &pid, &tid, &ev->name, &null)) < 0)
				return rc;
			event_thread(r, pid, tid);
			r->meta.thread_name = null ? NULL : ev->name.ptr;
			r->meta.thread_name_len = null ? 0 : ev->name.len;
			ev->name.ptr = "";
			ev->name.len = 0;
		}
		break;
	case R_CLASS_LOAD:
	case R_CLASS_PREPARE:
	case R_CLASS_UNLOAD:
	case R_THROW:
	case R_ERROR_THROW:
	case R_CATCH:
		if ((rc = jfr_get_ref(ch, cls, S_4, pos, &ref, &at, r->err)) < 0 ||
		    (rc = jfr_dec_class(&r->dec, ch, ref, at, &ev->name)) < 0)
			return rc;
		if (role == R_CATCH && ((rc = jfr_get_ref(ch, cls, S_5, pos, &ref, &at, r->err)) < 0 ||
					(rc = jfr_dec_method(&r->dec, ch, ref, at, &ev->method)) < 0))
			return rc;
		break;
	case R_MONITOR_ENTER:
	case R_MONITOR_WAIT:
	case R_CONTENDED_ENTER:
	case R_CONTENDED_ENTERED:
	case R_WAIT:
	case R_WAITED:
		if ((rc = jfr_get_long(ch, cls, M_ADDRESS, pos, &v, r->err)) < 0)
			return rc;
		ev->object = (uint64_t)v;
		if ((rc = jfr_get_long(ch, cls, M_TIMEOUT, pos, &v, r->err)) < 0)
			return rc;
		ev->u32 = v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		if ((rc = jfr_get_long(ch, cls, M_TIMED_OUT, pos, &v, r->err)) < 0)
			return rc;
		if (v && ev->code == WIRE_EV_MONITOR_WAITED)
			t->flags |= WIRE_TF_TIMED_OUT;
		if ((rc = monitor_of(r, ch, cls, pos, ev->code == WIRE_EV_MONITOR_ENTER)) < 0)
			return rc;
		if (second)
			stack_slot = JFR_MAX_WANT;   /* the JDK's event has the first half's stack only */
		break;
	case R_GC:
		stack_slot = JFR_MAX_WANT;
		break;
	case R_LOST:
		if ((rc = jfr_get_long(ch, cls, S_4, pos, &v, r->err)) < 0)
			return rc;
		ev->lost = (uint64_t)v;
		break;
	default:
		break;
	}
	if (stack_slot < JFR_MAX_WANT && jfr_has(ch, cls, stack_slot)) {
		if ((rc = jfr_get_ref(ch, cls, stack_slot, pos, &ref, &at, r->err)) < 0 ||
		    (rc = jfr_dec_stack(&r->dec, ch, ref, at, t, &synthetic)) < 0)
			return rc;
	}
	if (ev->code == WIRE_EV_EXCEPTION_THROWN && t->depth > 0) {
		/* where it was thrown: the stack's top; a lone truncated frame is all there was */
		ev->method = t->frames[0].method;
		if (synthetic) {
			t->flags &= (uint8_t)~WIRE_TF_STACK;
			t->depth = 0;
		}
	}
	if (wire_size(ev) > WIRE_MAX_MESSAGE)
		return jfr_fail(r->err, it->pos, "the event here is larger than an event can be (%u bytes)",
				WIRE_MAX_MESSAGE);
	return 0;
}

/* ---- the first pass: what to hand back, and when it happened */
static int add_item(struct reader *r, uint64_t ts, size_t pos, uint32_t chunk, uint8_t half)
{
	struct item *it;

	if (rec_grow((void **)&r->items, &r->capitems, r->nitems + 1, sizeof *r->items) < 0)
		return -ENOMEM;
	it = &r->items[r->nitems++];
	it->ts = ts;
	it->pos = pos;
	it->chunk = chunk;
	it->half = half;
	/* at one time: the first halves of pairs, the latest written first
	 * (an outer call's record follows its inner one's), then the rest in
	 * file order */
	it->order = half == 1 ? ~(uint64_t)pos >> 1 : (1ull << 63) | ((uint64_t)pos << 1 | (half == 2));
	return 0;
}

static int index_chunk(struct reader *r, uint32_t n)
{
	struct jfr_chunk *ch = &r->chunks[n];

	for (size_t at = ch->start + JFR_HEADER_SIZE; at < ch->end;) {
		struct jfr_cursor c = { ch->data, at, ch->end, false };
		uint64_t size = jfr_get_varint(&c), type = jfr_get_varint(&c);
		uint32_t cls;
		size_t pos[JFR_MAX_WANT];
		int64_t start, dur, entered = 1, returned = 1;
		int rc;

		if (c.bad || size == 0 || size > ch->end - at || c.pos > at + size)
			return jfr_fail(r->err, at, "a record whose size (%" PRIu64 ") does not fit in its chunk", size);
		cls = type <= JFR_TYPE_CPOOL ? JFR_NO_CLASS : jfr_class_index(ch, type);
		if (cls != JFR_NO_CLASS && ch->classes[cls].role >= FIRST_EVENT) {
			c.end = at + (size_t)size;
			jfr_set_budget(ch, (size_t)size);
			if ((rc = jfr_read_fields(ch, cls, &c, pos, r->err)) < 0 ||
			    (rc = jfr_get_long(ch, cls, S_START, pos, &start, r->err)) < 0 ||
			    (rc = jfr_get_long(ch, cls, S_DURATION, pos, &dur, r->err)) < 0)
				return rc;
			if (ch->classes[cls].role == R_CALL &&
			    ((rc = jfr_get_long(ch, cls, C_ENTERED, pos, &entered, r->err)) < 0 ||
			     (rc = jfr_get_long(ch, cls, C_RETURNED, pos, &returned, r->err)) < 0))
				return rc;
			if (codes[ch->classes[cls].role][1] == 0) {
				rc = add_item(r, to_ns(ch, (uint64_t)start), at, n, 0);
			} else {
				rc = entered ? add_item(r, to_ns(ch, (uint64_t)start), at, n, 1) : 0;
				if (rc == 0 && returned)
					rc = add_item(r, to_ns(ch, (uint64_t)start + (uint64_t)dur), at, n, 2);
			}
			if (rc < 0)
				return rc;
		}
		at += (size_t)size;
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int jfr_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err)
{
	struct reader *r = calloc(1, sizeof *r);
	struct record_error second = { 0 };
	int bad = 0, rc = 0;

	if (!r)
		return -ENOMEM;
	r->data = data;
	r->len = len;
	r->err = r->dec.err = err;
	if (len == 0)
		bad = jfr_fail(err, 0, "the file is empty: no JFR chunk");
	for (size_t at = 0; at < len && !bad;) {
		if (rec_grow((void **)&r->chunks, &r->capchunks, (size_t)r->nchunks + 1, sizeof *r->chunks) < 0) {
			bad = -ENOMEM;
			break;
		}
		bad = jfr_chunk_parse(&r->chunks[r->nchunks], data, len, at, roles, R_COUNT, err);
		if (bad == 0)
			bad = index_chunk(r, r->nchunks);
		if (bad < 0) {
			/* the chunks before it are whole: their events are handed back */
			jfr_chunk_free(&r->chunks[r->nchunks]);
			while (r->nitems && r->items[r->nitems - 1].chunk == r->nchunks)
				r->nitems--;
			break;
		}
		at = r->chunks[r->nchunks++].end;
	}
	if (r->nitems)
		qsort(r->items, r->nitems, sizeof *r->items, by_time);
	/* the first pass's error (if any) stays in ERR unless this one fails */
	r->err = r->dec.err = &second;
	for (size_t i = 0; i < r->nitems && rc == 0; i++) {
		rc = build(r, &r->items[i]);
		if (rc == -EINVAL)
			*err = second;
		if (rc == 0)
			rc = fn(ctx, &r->meta, &r->ev);
	}
	for (uint32_t i = 0; i < r->nchunks; i++)
		jfr_chunk_free(&r->chunks[i]);
	free(r->chunks);
	free(r->items);
	jfr_dec_free(&r->dec);
	free(r);
	return rc < 0 ? rc : bad;
}
