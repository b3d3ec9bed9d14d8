/* wire_decode.c: incremental, bounded decoding of events and commands.
 *
 * One message is parsed from the front of a buffer with a cursor. Every field
 * is validated the moment its bytes are present, so a prefix that already
 * shows a defect is reported as malformed rather than "need more bytes", and
 * the answer for a given byte string never depends on how it was split. The
 * cursor refuses to move past WIRE_MAX_MESSAGE, so a reader never has to hold
 * more than that many bytes of one message.
 */
#include "wire.h"
#include "wire_bytes.h"

#include "events.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct wire_cursor {
	const uint8_t *buf;
	size_t len;
	size_t pos;              /* offset within the message */
	bool swap;               /* read integers byte-swapped */
	const char *message;     /* "MethodEnter", for errors */
	unsigned code;           /* wire code byte, for errors */
	struct wire_error *err;  /* may be NULL */
};

#define TRY(expr)                          \
	do {                               \
		int try_rc_ = (expr);      \
		if (try_rc_ < 0)           \
			return try_rc_;    \
	} while (0)

/* String fields come in pairs of names: the length ("method name length")
 * and the contents ("method name"). */
#define READ_STRING(c, name, out) wire_read_string((c), name " length", name, (out))

static __attribute__((cold, format(printf, 4, 5))) int
wire_fail(struct wire_cursor *c, const char *field, size_t offset, const char *fmt, ...)
{
	struct wire_error *err = c->err;
	va_list ap;
	int n;

	if (!err)
		return -EBADMSG;
	err->field = field;
	err->offset = offset;
	n = snprintf(err->text, sizeof(err->text), "%s (0x%02x): %s at offset %zu: ",
		     c->message, c->code, field, offset);
	if (n >= 0 && (size_t)n < sizeof(err->text)) {
		va_start(ap, fmt);
		vsnprintf(err->text + n, sizeof(err->text) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EBADMSG;
}

/* A whole-message problem that is not "field X is wrong" (unknown code,
 * code not negotiated): the sentence is given in full. */
static __attribute__((cold, format(printf, 4, 5))) int
wire_fail_code(struct wire_error *err, const char *field, size_t offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EBADMSG;
	err->field = field;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static __attribute__((cold, noinline)) int
wire_fail_too_big(struct wire_cursor *c, const char *field, size_t n)
{
	return wire_fail(c, field, c->pos, "%zu more bytes would make the message exceed %u bytes",
			 n, WIRE_MAX_MESSAGE);
}

/* 0 when n bytes are there to read, -EAGAIN when they may still come,
 * -EBADMSG when they would take the message past its size limit. */
static inline int wire_need(struct wire_cursor *c, const char *field, size_t n)
{
	if (__builtin_expect(c->pos + n > WIRE_MAX_MESSAGE, 0))
		return wire_fail_too_big(c, field, n);
	if (n > c->len - c->pos)
		return -EAGAIN;
	return 0;
}

static inline int wire_read_u8(struct wire_cursor *c, const char *field, uint8_t *out)
{
	TRY(wire_need(c, field, 1));
	*out = c->buf[c->pos++];
	return 0;
}

static inline int wire_read_u16(struct wire_cursor *c, const char *field, uint16_t *out)
{
	TRY(wire_need(c, field, 2));
	*out = wire_load_u16(c->buf + c->pos, c->swap);
	c->pos += 2;
	return 0;
}

static inline int wire_read_u32(struct wire_cursor *c, const char *field, uint32_t *out)
{
	TRY(wire_need(c, field, 4));
	*out = wire_load_u32(c->buf + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

static inline int wire_read_u64(struct wire_cursor *c, const char *field, uint64_t *out)
{
	TRY(wire_need(c, field, 8));
	*out = wire_load_u64(c->buf + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

static __attribute__((cold, noinline)) int wire_fail_bool(struct wire_cursor *c, const char *field,
							   size_t at, uint8_t v)
{
	return wire_fail(c, field, at, "%u is not a bool (0 or 1)", v);
}

static inline int wire_read_bool(struct wire_cursor *c, const char *field, bool *out)
{
	size_t at = c->pos;
	uint8_t v;

	TRY(wire_read_u8(c, field, &v));
	if (__builtin_expect(v > 1, 0))
		return wire_fail_bool(c, field, at, v);
	*out = v;
	return 0;
}

static bool wire_string_length_ok(uint32_t n)
{
	return n <= WIRE_MAX_STRING;
}

/* Why a string length read at offset `at` is refused (the cursor is just
 * past it); 0 when it is not. */
static __attribute__((cold, noinline)) int
wire_fail_string_length(struct wire_cursor *c, const char *field, size_t at, uint32_t n)
{
	if (n & 0x80000000u)
		return wire_fail(c, field, at, "%d is negative", (int32_t)n);
	if (n > WIRE_MAX_STRING)
		return wire_fail(c, field, at, "%u exceeds the limit %u", n, WIRE_MAX_STRING);
	if (c->pos + n > WIRE_MAX_MESSAGE)
		return wire_fail(c, field, at, "%u would make the message exceed %u bytes",
				 n, WIRE_MAX_MESSAGE);
	return 0;
}

/* Checks a string length read at offset `at` (the cursor is just past it):
 * one test on the way of every string, the sentence apart. */
static inline int wire_check_string_length(struct wire_cursor *c, const char *field, size_t at,
					   uint32_t n)
{
	/* a negative length is above WIRE_MAX_STRING too */
	if (__builtin_expect(n > WIRE_MAX_STRING || c->pos + n > WIRE_MAX_MESSAGE, 0))
		return wire_fail_string_length(c, field, at, n);
	return 0;
}

static inline int wire_read_string(struct wire_cursor *c, const char *len_field, const char *field,
			    struct wire_str *out)
{
	size_t at = c->pos;
	uint32_t n;

	TRY(wire_read_u32(c, len_field, &n));
	TRY(wire_check_string_length(c, len_field, at, n));
	TRY(wire_need(c, field, n));
	out->ptr = (const char *)c->buf + c->pos;
	out->len = n;
	c->pos += n;
	return 0;
}

/* Compares the bytes present against an expected prefix: 0 when all of it
 * is there and matches, 1 on the first mismatch, -EAGAIN when what is
 * there matches but some is missing. */
static int wire_match_prefix(const struct wire_cursor *c, const char *prefix, size_t n)
{
	size_t avail = c->len - c->pos;
	size_t k = avail < n ? avail : n;

	if (memcmp(c->buf + c->pos, prefix, k) != 0)
		return 1;
	return k < n ? -EAGAIN : 0;
}

/* ------------------------------------------------------------- values */

static int wire_read_value_payload(struct wire_cursor *c, struct wire_value *v)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	bool flag = false; /* set on success; the compiler cannot see it once inlined */

	switch (v->type) {
	case WIRE_T_BOOLEAN:
		TRY(wire_read_bool(c, "boolean value", &flag));
		v->v.i = flag;
		return 0;
	case WIRE_T_BYTE:
		TRY(wire_read_u8(c, "byte value", &u8));
		v->v.i = (int8_t)u8;
		return 0;
	case WIRE_T_CHAR:
		TRY(wire_read_u16(c, "char value", &u16));
		v->v.i = u16;
		return 0;
	case WIRE_T_SHORT:
		TRY(wire_read_u16(c, "short value", &u16));
		v->v.i = (int16_t)u16;
		return 0;
	case WIRE_T_INT:
		TRY(wire_read_u32(c, "int value", &u32));
		v->v.i = (int32_t)u32;
		return 0;
	case WIRE_T_LONG:
		TRY(wire_read_u64(c, "long value", &u64));
		v->v.i = (int64_t)u64;
		return 0;
	case WIRE_T_FLOAT:
		TRY(wire_read_u32(c, "float value", &u32));
		memcpy(&v->v.f, &u32, sizeof(u32));
		return 0;
	case WIRE_T_DOUBLE:
		TRY(wire_read_u64(c, "double value", &u64));
		memcpy(&v->v.d, &u64, sizeof(u64));
		return 0;
	case WIRE_T_VOID:
	case WIRE_T_NULL:
	case WIRE_T_NONE:
		return 0;
	case WIRE_T_STRING:
		TRY(READ_STRING(c, "string value", &v->str));
		return wire_read_bool(c, "string truncated flag", &v->truncated);
	case WIRE_T_OBJECT:
		TRY(READ_STRING(c, "object class signature", &v->str));
		TRY(wire_read_u64(c, "object id", &v->object_id));
		return wire_read_u32(c, "identity hash", &v->aux);
	case WIRE_T_ARRAY:
		TRY(READ_STRING(c, "array class signature", &v->str));
		TRY(wire_read_u64(c, "array object id", &v->object_id));
		return wire_read_u32(c, "array length", &v->aux);
	default:
		/* wire_read_value() screens the type first */
		return -EBADMSG;
	}
}

static bool wire_value_type_known(uint8_t type)
{
	switch (type) {
	case WIRE_T_BOOLEAN: case WIRE_T_BYTE: case WIRE_T_CHAR: case WIRE_T_SHORT:
	case WIRE_T_INT: case WIRE_T_LONG: case WIRE_T_FLOAT: case WIRE_T_DOUBLE:
	case WIRE_T_VOID: case WIRE_T_NULL: case WIRE_T_NONE: case WIRE_T_STRING:
	case WIRE_T_OBJECT: case WIRE_T_ARRAY:
		return true;
	default:
		return false;
	}
}

static int wire_read_value(struct wire_cursor *c, struct wire_value *v)
{
	size_t at = c->pos;
	uint8_t type;

	TRY(wire_read_u8(c, "value type", &type));
	if (!wire_value_type_known(type))
		return wire_fail(c, "value type", at, "unknown type 0x%02x", type);
	/* a value is small: clear it whole so no field is left from the last event */
	v->type = type;
	v->truncated = false;
	v->v.i = 0;
	v->str.ptr = NULL;
	v->str.len = 0;
	v->object_id = 0;
	v->aux = 0;
	return wire_read_value_payload(c, v);
}

static int wire_read_values(struct wire_cursor *c, struct wire_event *ev)
{
	uint8_t n;

	TRY(wire_read_u8(c, "optional record count", &n));
	ev->nvalues = n;
	for (unsigned i = 0; i < n; i++)
		TRY(wire_read_value(c, &ev->values[i]));
	return 0;
}

/* ------------------------------------------------------------- trailer */

static int wire_read_stack(struct wire_cursor *c, uint32_t caps, struct wire_trailer *t)
{
	size_t at = c->pos;
	uint16_t depth;

	TRY(wire_read_u16(c, "stack depth", &depth));
	if (depth > WIRE_MAX_STACK_DEPTH)
		return wire_fail(c, "stack depth", at, "%u exceeds the limit %u",
				 depth, WIRE_MAX_STACK_DEPTH);
	t->depth = depth;
	for (unsigned i = 0; i < depth; i++) {
		uint32_t line;

		TRY(READ_STRING(c, "stack frame method", &t->frames[i].method));
		TRY(wire_read_u32(c, "stack frame line", &line));
		t->frames[i].line = (int32_t)line;
		if (caps & WIRE_CAP_FRAME_SOURCE)
			TRY(READ_STRING(c, "stack frame source file", &t->frames[i].source));
		else
			t->frames[i].source = (struct wire_str){ "", 0 };
	}
	return 0;
}

static int wire_read_monitor(struct wire_cursor *c, struct wire_trailer *t)
{
	TRY(READ_STRING(c, "monitor class", &t->monitor_class));
	TRY(wire_read_u32(c, "monitor owner thread id", &t->owner_tid));
	return READ_STRING(c, "monitor owner name", &t->owner_name);
}

/* seq, timestamp, OS thread id, flags */
#define WIRE_TRAILER_FIXED 21u

/* The trailer's four fixed fields from P, WIRE_TRAILER_FIXED bytes known to be there. */
static inline void wire_load_trailer_fixed(const uint8_t *p, bool swap, struct wire_trailer *t)
{
	t->seq = wire_load_u64(p, swap);
	t->timestamp_ns = wire_load_u64(p + 8, swap);
	t->os_tid = wire_load_u32(p + 16, swap);
	t->flags = p[20];
}

static int wire_read_trailer(struct wire_cursor *c, uint32_t caps, struct wire_trailer *t)
{
	size_t at;

	if (c->pos + WIRE_TRAILER_FIXED <= WIRE_MAX_MESSAGE && WIRE_TRAILER_FIXED <= c->len - c->pos) {
		/* all there: one bounds check for the four fields (what each
		 * field's own check would find, it finds here too) */
		wire_load_trailer_fixed(c->buf + c->pos, c->swap, t);
		at = c->pos + 20;
		c->pos += WIRE_TRAILER_FIXED;
	} else {
		TRY(wire_read_u64(c, "trailer seq", &t->seq));
		TRY(wire_read_u64(c, "trailer timestamp", &t->timestamp_ns));
		TRY(wire_read_u32(c, "trailer OS thread id", &t->os_tid));
		at = c->pos;
		TRY(wire_read_u8(c, "trailer flags", &t->flags));
	}
	if (t->flags & ~WIRE_TF_ALL)
		return wire_fail(c, "trailer flags", at, "0x%02x has unknown bits 0x%02x",
				 t->flags, t->flags & ~WIRE_TF_ALL);
	if ((t->flags & WIRE_TF_SYNC) && !(caps & WIRE_CAP_SYNC))
		return wire_fail(c, "trailer flags", at, "the sync flag (0x%02x) was not negotiated",
				 WIRE_TF_SYNC);
	if ((t->flags & WIRE_TF_STACK) && !(caps & WIRE_CAP_STACK))
		return wire_fail(c, "trailer flags", at, "the stack flag (0x%02x) was not negotiated",
				 WIRE_TF_STACK);
	if ((t->flags & WIRE_TF_MONITOR) && !(caps & WIRE_CAP_MONITOR_DETAIL))
		return wire_fail(c, "trailer flags", at,
				 "the monitor detail flag (0x%02x) was not negotiated", WIRE_TF_MONITOR);
	if (t->flags & WIRE_TF_STACK)
		TRY(wire_read_stack(c, caps, t));
	if (t->flags & WIRE_TF_MONITOR)
		return wire_read_monitor(c, t);
	return 0;
}

/* ------------------------------------------------------------- Hello fields */

static int wire_read_order(struct wire_cursor *c, uint8_t *order)
{
	size_t at = c->pos;

	TRY(wire_read_u8(c, "byte order", order));
	if (!wire_order_is_valid(*order))
		return wire_fail(c, "byte order", at, "0x%02x is neither 'l' nor 'B'", *order);
	return 0;
}

/* version, pid, caps: in the order the Hello declares, whatever the peer
 * state says, because a Hello is what sets that state. */
static int wire_read_hello_numbers(struct wire_cursor *c, struct wire_hello *h)
{
	size_t at = c->pos;

	c->swap = h->order != WIRE_HOST_ORDER;
	TRY(wire_read_u16(c, "version", &h->version));
	if (h->version == 0)
		return wire_fail(c, "version", at, "0 is not a protocol version");
	TRY(wire_read_u32(c, "pid", &h->pid));
	return wire_read_u32(c, "caps", &h->caps);
}

/* ------------------------------------------------------------- kinds */

/* A registration kind (method, class, exception): Match and MatchEnd, and the
 * commands that name one. */
static int wire_read_kind(struct wire_cursor *c, uint8_t *kind)
{
	size_t at = c->pos;

	TRY(wire_read_u8(c, "kind", kind));
	if (!wire_kind_event_bits(*kind))
		return wire_fail(c, "kind", at, "%u is not 1 (method), 2 (class) or 3 (exception)", *kind);
	return 0;
}

/* ------------------------------------------------------------- events */

static int wire_read_jfr_flags(struct wire_cursor *c, struct wire_event *ev)
{
	size_t at = c->pos;

	TRY(wire_read_u8(c, "jfr flags", &ev->jfr_flags));
	if (ev->jfr_flags & ~WIRE_JFR_FLAGS_ALL)
		return wire_fail(c, "jfr flags", at, "0x%02x has bits other than 0x%02x", ev->jfr_flags,
				 WIRE_JFR_FLAGS_ALL);
	if ((ev->jfr_flags & WIRE_JFR_NONE) && ev->jfr_flags != WIRE_JFR_NONE)
		return wire_fail(c, "jfr flags", at, "0x%02x: NONE (0x%02x) goes alone", ev->jfr_flags,
				 WIRE_JFR_NONE);
	return 0;
}

static int wire_read_jfr_bytes(struct wire_cursor *c, struct wire_event *ev)
{
	size_t at = c->pos;

	TRY(READ_STRING(c, "jfr bytes", &ev->name));
	if ((ev->jfr_flags & WIRE_JFR_NONE) && ev->name.len)
		return wire_fail(c, "jfr bytes", at, "%u bytes with NONE, which has none", ev->name.len);
	return 0;
}

static int wire_read_event_hello(struct wire_cursor *c, struct wire_hello *h)
{
	int rc = wire_match_prefix(c, WIRE_MAGIC, 4);

	if (rc == 1)
		return wire_fail(c, "magic", c->pos, "the bytes are not \"STPJ\"");
	TRY(rc);
	c->pos += 4;
	TRY(wire_read_order(c, &h->order));
	TRY(wire_read_hello_numbers(c, h));
	return READ_STRING(c, "description", &h->description);
}

static int wire_read_retval_type(struct wire_cursor *c, struct wire_event *ev)
{
	size_t at = c->pos;

	TRY(wire_read_u8(c, "value type", &ev->retval.type));
	if (ev->retval.type != WIRE_T_NONE && ev->retval.type != WIRE_T_VOID)
		return wire_fail(c, "value type", at, "0x%02x: a method's exit by number carries "
				 "'?' or 'V'", ev->retval.type);
	return 0;
}

/* A Notice's subject (CAP_NOTICE_SUBJECT): its scope says what the rest
 * may be (enum wire_notice_scope). */
static int wire_read_notice_subject(struct wire_cursor *c, struct wire_event *ev)
{
	size_t at = c->pos;
	bool general, named;
	uint8_t allowed;

	TRY(wire_read_u8(c, "notice scope", &ev->notice_scope));
	if (ev->notice_scope > WIRE_NOTICE_LAST_SCOPE)
		return wire_fail(c, "notice scope", at, "%u is not 0 (general), 1 (method), 2 (class) or 3 (kind)",
				 ev->notice_scope);
	general = ev->notice_scope == WIRE_NOTICE_GENERAL;
	named = ev->notice_scope == WIRE_NOTICE_METHOD || ev->notice_scope == WIRE_NOTICE_CLASS;
	at = c->pos;
	if (general) {
		TRY(wire_read_u8(c, "kind", &ev->kind));
		if (ev->kind)
			return wire_fail(c, "kind", at, "%u in a general notice, which has none", ev->kind);
	} else {
		TRY(wire_read_kind(c, &ev->kind));
		if (named && ev->kind != WIRE_KIND_METHOD)
			return wire_fail(c, "kind", at, "%u: a notice about a method or a class is of kind 1 (method)",
					 ev->kind);
	}
	allowed = general ? 0 : wire_kind_event_bits(ev->kind);
	at = c->pos;
	TRY(wire_read_u8(c, "notice events", &ev->events));
	if (general && ev->events)
		return wire_fail(c, "notice events", at, "0x%02x in a general notice, which has none", ev->events);
	if (!general && (!ev->events || (ev->events & ~allowed)))
		return wire_fail(c, "notice events", at, "0x%02x is not a set of the kind's events (0x%02x)",
				 ev->events, allowed);
	at = c->pos;
	TRY(READ_STRING(c, "notice subject", &ev->method));
	if (named && !ev->method.len)
		return wire_fail(c, "notice subject", at, "empty: a notice about a method or a class names it");
	if (!named && ev->method.len)
		return wire_fail(c, "notice subject", at, "%u bytes in a notice that names nothing", ev->method.len);
	return 0;
}

/* One field of an event's payload (enum event_field) into its place in EV. */
static int wire_read_field(struct wire_cursor *c, uint32_t caps, uint8_t field, struct wire_event *ev)
{
	uint32_t u32;

	switch (field) {
	case EF_METHOD_NAME:
		return READ_STRING(c, "method name", &ev->name);
	case EF_CLASS_NAME:
		return READ_STRING(c, "class name", &ev->name);
	case EF_EXCEPTION_NAME:
		return READ_STRING(c, "exception name", &ev->name);
	case EF_THREAD_NAME:
		return READ_STRING(c, "thread name", &ev->name);
	case EF_NOTICE_TEXT:
		return READ_STRING(c, "notice text", &ev->name);
	case EF_MATCHED_NAME:
		return READ_STRING(c, "matched name", &ev->name);
	case EF_SITE_METHOD:
		return READ_STRING(c, "method name", &ev->method);
	case EF_ROOT_CLASS:
		return READ_STRING(c, "root class name", &ev->method);
	case EF_THREAD:
		return wire_read_u64(c, "thread", &ev->thread);
	case EF_THREAD_U32:
		TRY(wire_read_u32(c, "thread", &u32));
		ev->thread = u32;
		return 0;
	case EF_OBJECT:
		return wire_read_u64(c, "object", &ev->object);
	case EF_CODE_SIZE:
		return wire_read_u32(c, "code size", &ev->u32);
	case EF_TIMEOUT_MS:
		return wire_read_u32(c, "timeout", &ev->u32);
	case EF_TOTAL:
		return wire_read_u32(c, "total", &ev->u32);
	case EF_METHOD_ID:
		return wire_read_u32(c, "method id", &ev->method_id);
	case EF_VALUES:
		return wire_read_values(c, ev);
	case EF_POPPED:
		return wire_read_bool(c, "popped flag", &ev->popped);
	case EF_RETVAL:
		return wire_read_value(c, &ev->retval);
	case EF_RETVAL_TYPE:
		return wire_read_retval_type(c, ev);
	case EF_LOST:
		return wire_read_u64(c, "lost count", &ev->lost);
	case EF_KIND:
		return wire_read_kind(c, &ev->kind);
	case EF_JFR_FLAGS:
		return wire_read_jfr_flags(c, ev);
	case EF_JFR_BYTES:
		return wire_read_jfr_bytes(c, ev);
	case EF_HELLO:
		return wire_read_event_hello(c, &ev->hello);
	case EF_JAVA_THREAD_ID:
		return (caps & WIRE_CAP_JAVA_THREAD_ID) ? wire_read_u64(c, "java thread id", &ev->java_tid) : 0;
	case EF_NOTICE_SUBJECT:
		return (caps & WIRE_CAP_NOTICE_SUBJECT) ? wire_read_notice_subject(c, ev) : 0;
	default:
		return -EBADMSG; /* no table's field: test_events checks every row's */
	}
}

/* Every scalar a message may set is cleared, so a field the new message does
 * not carry never shows a value (or a pointer into an older buffer) from the
 * previous one. The value and frame arrays are left alone: nvalues and depth
 * bound what is valid in them, and clearing 20 KB per event would cost. */
static void wire_event_reset(struct wire_event *ev, unsigned code)
{
	ev->code = code;
	ev->name = (struct wire_str){ 0 };
	ev->method = (struct wire_str){ 0 };
	ev->thread = 0;
	ev->object = 0;
	ev->u32 = 0;
	ev->popped = false;
	ev->kind = 0;
	ev->notice_scope = 0;
	ev->events = 0;
	ev->jfr_flags = 0;
	ev->lost = 0;
	ev->java_tid = 0;
	ev->method_id = 0;
	ev->by_id = false;
	ev->hello = (struct wire_hello){ 0 };
	ev->nvalues = 0;
	ev->retval = (struct wire_value){ 0 };
	ev->has_trailer = false;
	ev->trailer.seq = 0;
	ev->trailer.timestamp_ns = 0;
	ev->trailer.os_tid = 0;
	ev->trailer.flags = 0;
	ev->trailer.depth = 0;
}

/* The events' names, capabilities and fields by code, from the one list of
 * events (events.h), here so that the checks of every message's code are
 * loads, not calls. */
#define EVENT_NAME_ROW(code, name, label, family, kind, bit, has, marker, caps, fields) [code] = name,
static const char *const event_names[256] = { STAPJAVA_EVENTS(EVENT_NAME_ROW) };
#define EVENT_CAPS_ROW(code, name, label, family, kind, bit, has, marker, caps, fields) [code] = caps,
static const uint32_t event_caps[256] = { STAPJAVA_EVENTS(EVENT_CAPS_ROW) };
#define EVENT_FIELD_LIST(...) { __VA_ARGS__ }
#define EVENT_FIELDS_ROW(code, name, label, family, kind, bit, has, marker, caps, fields) \
	[code] = EVENT_FIELD_LIST fields,
static const uint8_t event_fields[256][EVENT_MAX_FIELDS + 1] = { STAPJAVA_EVENTS(EVENT_FIELDS_ROW) };

/* The bytes of a value of a fixed size, its type's byte included (the
 * primitives; V N and ? are that byte alone), so that 0 can say "not
 * fixed": a string, object or array, or a type the general reading refuses. */
static const uint8_t fixed_value_bytes[256] = {
	[WIRE_T_BOOLEAN] = 2, [WIRE_T_BYTE] = 2, [WIRE_T_CHAR] = 3, [WIRE_T_SHORT] = 3,
	[WIRE_T_INT] = 5, [WIRE_T_FLOAT] = 5, [WIRE_T_LONG] = 9, [WIRE_T_DOUBLE] = 9,
	[WIRE_T_VOID] = 1, [WIRE_T_NULL] = 1, [WIRE_T_NONE] = 1,
};

/* The value at P, before END, into *V as wire_read_value() reads it, when
 * its type is one of fixed size, its bytes are all there and a boolean is 0
 * or 1: the bytes it took, else 0 (the general reading decides). */
static inline __attribute__((always_inline)) size_t
wire_load_fixed_value(const uint8_t *p, const uint8_t *end, bool swap, struct wire_value *v)
{
	const size_t n = p < end ? fixed_value_bytes[p[0]] : 0;
	uint32_t u32;
	uint64_t u64;

	if (n == 0 || n > (size_t)(end - p))
		return 0;
	*v = (struct wire_value){ .type = p[0] };
	switch (p[0]) {
	case WIRE_T_BOOLEAN:
		if (p[1] > 1)
			return 0;
		v->v.i = p[1];
		break;
	case WIRE_T_BYTE:
		v->v.i = (int8_t)p[1];
		break;
	case WIRE_T_CHAR:
		v->v.i = wire_load_u16(p + 1, swap);
		break;
	case WIRE_T_SHORT:
		v->v.i = (int16_t)wire_load_u16(p + 1, swap);
		break;
	case WIRE_T_INT:
		v->v.i = (int32_t)wire_load_u32(p + 1, swap);
		break;
	case WIRE_T_LONG:
		v->v.i = (int64_t)wire_load_u64(p + 1, swap);
		break;
	case WIRE_T_FLOAT:
		u32 = wire_load_u32(p + 1, swap);
		memcpy(&v->v.f, &u32, sizeof(u32));
		break;
	case WIRE_T_DOUBLE:
		u64 = wire_load_u64(p + 1, swap);
		memcpy(&v->v.d, &u64, sizeof(u64));
		break;
	default: /* V N ?: nothing after the type */
		break;
	}
	return n;
}

/* A method event by number with a trailer of no flags, the event a busy
 * stream is made of (PROTOCOL.md, "Methods by number"), read at its fixed
 * offsets: the general reading was a fifth of the bridge's time an event
 * (perf, bench row 11f). With values (arguments, a return value) it takes
 * them when each is of a fixed size (a primitive, null, void, none), one
 * check of the bytes left each. It takes only what the general reading
 * accepts, to the same fields; anything else (and so every refusal and its
 * message) is left to that one. test_wire_fast.c compares the two on every
 * sample and its mutations; the fuzz target too. */
static bool wire_decode_by_number(const uint8_t *buf, size_t len, bool swap, struct wire_event *ev,
				  size_t *used)
{
	const unsigned code = buf[0];
	const uint8_t *const end = buf + len, *p = buf + 1 + 4 + 8;
	size_t n;

	if (len < 1 + 4 + 8 + WIRE_TRAILER_FIXED)  /* the shortest: an enter and its trailer */
		return false;
	wire_event_reset(ev, code);
	switch (code) {
	case WIRE_EV_METHOD_ENTER_ID:
		break;
	case WIRE_EV_METHOD_EXIT_ID:
		if (*p != WIRE_T_NONE && *p != WIRE_T_VOID)
			return false;
		ev->retval.type = *p++;
		break;
	case WIRE_EV_METHOD_ENTER_ID_VALUES:
		ev->nvalues = *p++;
		for (unsigned i = 0; i < ev->nvalues; i++, p += n)
			if (!(n = wire_load_fixed_value(p, end, swap, &ev->values[i])))
				return false;
		break;
	case WIRE_EV_METHOD_EXIT_ID_VALUE:
		if (*p > 1)
			return false;
		ev->popped = *p++;
		if (!(n = wire_load_fixed_value(p, end, swap, &ev->retval)))
			return false;
		p += n;
		break;
	default:
		return false;
	}
	if ((size_t)(end - p) < WIRE_TRAILER_FIXED || p[20] != 0)
		return false;
	ev->method_id = wire_load_u32(buf + 1, swap);
	ev->thread = wire_load_u64(buf + 5, swap);
	wire_load_trailer_fixed(p, swap, &ev->trailer);
	ev->has_trailer = true;
	*used = (size_t)(p - buf) + WIRE_TRAILER_FIXED;
	return true;
}

static int wire_decode_event_read(uint32_t caps, bool swap, const uint8_t *buf, size_t len,
				  struct wire_event *ev, size_t *used, struct wire_error *err);

static int wire_decode_event_as(const struct wire_peer *peer, const uint8_t *buf, size_t len,
				struct wire_event *ev, size_t *used, struct wire_error *err, bool fast)
{
	const uint32_t caps = peer ? peer->caps : 0;
	const bool swap = peer && peer->swap;
	unsigned code;

	if (len == 0)
		return -EAGAIN;
	code = buf[0];
	if (!event_names[code])
		return wire_fail_code(err, "event code", 0, "unknown event code 0x%02x at offset 0", code);
	if (event_caps[code] & ~caps)
		return wire_fail_code(err, "event code", 0, "%s (0x%02x): event code at offset 0: extension not negotiated",
				      event_names[code], code);
	if (fast && code >= WIRE_EV_METHOD_ENTER_ID && (caps & WIRE_CAP_TRAILER) &&
	    wire_decode_by_number(buf, len, swap, ev, used))
		return 0;
	return wire_decode_event_read(caps, swap, buf, len, ev, used, err);
}

/* wire_decode_event_as's general reading, out of line: its cursor's frame
 * is not the fast reading's. */
static __attribute__((noinline)) int wire_decode_event_read(uint32_t caps, bool swap, const uint8_t *buf,
							    size_t len, struct wire_event *ev, size_t *used,
							    struct wire_error *err)
{
	const unsigned code = buf[0];
	struct wire_cursor c = {
		.buf = buf, .len = len, .pos = 1, .swap = swap, .err = err, .code = code,
		.message = event_names[code],
	};
	wire_event_reset(ev, code);
	for (const uint8_t *f = event_fields[code]; *f != EF_END; f++)
		TRY(wire_read_field(&c, caps, *f, ev));
	if (code != WIRE_EV_HELLO && (caps & WIRE_CAP_TRAILER)) {
		TRY(wire_read_trailer(&c, caps, &ev->trailer));
		ev->has_trailer = true;
	}
	*used = c.pos;
	return 0;
}

int wire_decode_event(const struct wire_peer *peer, const uint8_t *buf, size_t len,
		      struct wire_event *ev, size_t *used, struct wire_error *err)
{
	return wire_decode_event_as(peer, buf, len, ev, used, err, true);
}

int wire_decode_event_general(const struct wire_peer *peer, const uint8_t *buf, size_t len,
			      struct wire_event *ev, size_t *used, struct wire_error *err)
{
	return wire_decode_event_as(peer, buf, len, ev, used, err, false);
}

/* ------------------------------------------------------------- commands */

/* The rest of a bridge Hello, once its string (n bytes, at the cursor) is
 * known to start with "\0STPJ". length_foreign: the string length was in the
 * byte order that is not ours; the order the Hello declares must agree. */
static int wire_read_bridge_hello(struct wire_cursor *c, size_t len_at, uint32_t n,
				  bool length_foreign, struct wire_command *cmd)
{
	struct wire_hello *h = &cmd->hello;
	size_t order_at;

	cmd->code = WIRE_CMD_HELLO;
	c->message = "Hello";
	if (n < WIRE_HELLO_MIN_STRING)
		return wire_fail(c, "hello string length", len_at,
				 "%u is shorter than the %u bytes of a Hello", n, WIRE_HELLO_MIN_STRING);
	c->pos += WIRE_BRIDGE_HELLO_PREFIX_LEN;
	order_at = c->pos;
	TRY(wire_read_order(c, &h->order));
	if ((h->order != WIRE_HOST_ORDER) != length_foreign)
		return wire_fail(c, "byte order", order_at,
				 "'%c' contradicts the string length, which was in the other byte order",
				 h->order);
	TRY(wire_read_hello_numbers(c, h));
	n -= WIRE_HELLO_MIN_STRING;
	TRY(wire_need(c, "description", n));
	h->description.ptr = (const char *)c->buf + c->pos;
	h->description.len = n;
	c->pos += n;
	return 0;
}

/* A big-endian bridge's Hello read by a little-endian agent (or the reverse)
 * before any Hello: its length looks absurd in our order. Returns 0 with
 * *n set when the swapped length is sane and "\0STPJ" follows, 1 when this
 * is not such a Hello, or -EAGAIN. */
static int wire_detect_swapped_hello(const struct wire_cursor *c, uint32_t *n)
{
	uint32_t swapped = __builtin_bswap32(*n);
	int rc;

	if (!wire_string_length_ok(swapped))
		return 1;
	rc = wire_match_prefix(c, WIRE_BRIDGE_HELLO_PREFIX, WIRE_BRIDGE_HELLO_PREFIX_LEN);
	if (rc == 0)
		*n = swapped;
	return rc;
}

static int wire_read_pattern_or_hello(struct wire_cursor *c, const struct wire_peer *peer,
				      struct wire_command *cmd)
{
	size_t at = c->pos;
	uint32_t n;
	int rc;

	TRY(wire_read_u32(c, "pattern length", &n));
	if (!wire_string_length_ok(n) && !(peer && peer->hello)) {
		rc = wire_detect_swapped_hello(c, &n);
		TRY(rc);
		if (rc == 0)
			return wire_read_bridge_hello(c, at, n, !c->swap, cmd);
	}
	TRY(wire_check_string_length(c, "pattern length", at, n));
	if (n >= WIRE_BRIDGE_HELLO_PREFIX_LEN) {
		TRY(wire_need(c, "pattern", WIRE_BRIDGE_HELLO_PREFIX_LEN));
		if (memcmp(c->buf + c->pos, WIRE_BRIDGE_HELLO_PREFIX, WIRE_BRIDGE_HELLO_PREFIX_LEN) == 0)
			return wire_read_bridge_hello(c, at, n, c->swap, cmd);
	}
	TRY(wire_need(c, "pattern", n));
	cmd->pattern.ptr = (const char *)c->buf + c->pos;
	cmd->pattern.len = n;
	c->pos += n;
	return 0;
}

static int wire_read_register(struct wire_cursor *c, struct wire_command *cmd)
{
	uint8_t allowed;
	size_t at;

	TRY(wire_read_kind(c, &cmd->kind));
	at = c->pos;
	TRY(wire_read_u8(c, "events", &cmd->events));
	allowed = wire_kind_event_bits(cmd->kind);
	if (cmd->events == 0 || (cmd->events & ~allowed))
		return wire_fail(c, "events", at, "0x%02x is not a non-empty subset of 0x%02x",
				 cmd->events, allowed);
	if (cmd->code == WIRE_CMD_REGISTER_SLOT) {
		at = c->pos;
		TRY(wire_read_u16(c, "slot", &cmd->slot));
		if (cmd->slot >= WIRE_MAX_SLOTS)
			return wire_fail(c, "slot", at, "%u is not below %u", cmd->slot, WIRE_MAX_SLOTS);
	}
	return READ_STRING(c, "pattern", &cmd->pattern);
}

static int wire_read_dispatch_mode(struct wire_cursor *c, struct wire_command *cmd)
{
	size_t at = c->pos;

	TRY(wire_read_u8(c, "mode", &cmd->mode));
	if (cmd->mode != WIRE_DISPATCH_ASYNC && cmd->mode != WIRE_DISPATCH_SYNC)
		return wire_fail(c, "mode", at, "%u is not 0 (async) or 1 (sync)", cmd->mode);
	return wire_read_u32(c, "timeout", &cmd->timeout_us);
}

/* A string of exactly N NUL-terminated parts: their ends are all it holds
 * of NULs, the last byte one of them. */
static int wire_read_parts(struct wire_cursor *c, const char *len_field, const char *field, uint32_t n,
			   struct wire_str *out)
{
	size_t at = c->pos;
	uint32_t nuls = 0;

	TRY(wire_read_string(c, len_field, field, out));
	for (uint32_t i = 0; i < out->len; i++)
		nuls += out->ptr[i] == '\0';
	if (nuls != n || (n && out->ptr[out->len - 1] != '\0'))
		return wire_fail(c, field, at, "%u bytes hold %u NUL-ended parts, not the %u announced",
				 out->len, nuls, n);
	return 0;
}

static int wire_read_jfr_event(struct wire_cursor *c, struct wire_jfr_event *j)
{
	TRY(wire_read_u64(c, "slots", &j->slots));
	TRY(wire_read_u64(c, "thread", &j->tid));
	TRY(wire_read_u64(c, "start", (uint64_t *)&j->start_ns));
	TRY(wire_read_u64(c, "duration", (uint64_t *)&j->duration_ns));
	TRY(READ_STRING(c, "event type", &j->type));
	TRY(READ_STRING(c, "thread name", &j->thread_name));
	TRY(wire_read_u16(c, "field count", &j->nfields));
	TRY(wire_read_parts(c, "fields length", "fields", 2u * j->nfields, &j->fields));
	TRY(wire_read_u16(c, "stack depth", &j->depth));
	return wire_read_parts(c, "stack length", "stack", j->depth, &j->stack);
}

static int wire_read_command_body(struct wire_cursor *c, const struct wire_peer *peer,
				  struct wire_command *cmd)
{
	switch (cmd->code) {
	case WIRE_CMD_REGISTER_METHOD:
		return wire_read_pattern_or_hello(c, peer, cmd);
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION:
		return READ_STRING(c, "pattern", &cmd->pattern);
	case WIRE_CMD_GC_EVENTS:
	case WIRE_CMD_THREAD_EVENTS:
	case WIRE_CMD_MONITOR_EVENTS:
	case WIRE_CMD_VM_EVENTS:
		return wire_read_bool(c, "enable flag", &cmd->enable);
	case WIRE_CMD_OPTIONAL_DATA:
		return wire_read_u32(c, "options mask", &cmd->mask);
	case WIRE_CMD_REGISTER:
	case WIRE_CMD_REGISTER_SLOT:
		return wire_read_register(c, cmd);
	case WIRE_CMD_FIRE_IN_THREAD:
		return wire_read_u32(c, "session", &cmd->session);
	case WIRE_CMD_UNREGISTER:
	case WIRE_CMD_LIST_MATCHES:
		TRY(wire_read_kind(c, &cmd->kind));
		return READ_STRING(c, "pattern", &cmd->pattern);
	case WIRE_CMD_RESET:
	case WIRE_CMD_START:
		return 0;
	case WIRE_CMD_JFR_SETTINGS:
		return READ_STRING(c, "jfr settings", &cmd->pattern);
	case WIRE_CMD_JFR_EVENT:
		return wire_read_jfr_event(c, &cmd->jfr);
	case WIRE_CMD_DISPATCH_MODE:
		return wire_read_dispatch_mode(c, cmd);
	case WIRE_CMD_ACK:
		return wire_read_u64(c, "seq", &cmd->seq);
	default:
		return -EBADMSG; /* screened by the caller */
	}
}

int wire_decode_command(const struct wire_peer *peer, const uint8_t *buf, size_t len,
			struct wire_command *cmd, size_t *used, struct wire_error *err)
{
	uint32_t caps = peer ? peer->caps : 0;
	struct wire_cursor c = {
		.buf = buf, .len = len, .pos = 1, .swap = peer && peer->swap, .err = err,
	};
	uint32_t need;
	unsigned code;

	if (len == 0)
		return -EAGAIN;
	code = buf[0];
	c.code = code;
	c.message = wire_command_name(code);
	if (!c.message)
		return wire_fail_code(err, "command code", 0, "unknown command code 0x%02x at offset 0", code);
	need = wire_command_needs_cap(code);
	if (need && !(caps & need))
		return wire_fail_code(err, "command code", 0, "%s (0x%02x): command code at offset 0: extension not negotiated",
				      c.message, code);

	memset(cmd, 0, sizeof(*cmd));
	cmd->code = code;
	TRY(wire_read_command_body(&c, peer, cmd));
	*used = c.pos;
	return 0;
}
