/* print.c: see print.h. The line format is doc/agent-bridge.md's. */
#include "print.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "outbuf.h"
#include "pattern.h"
#include "utf8.h"

/* The number of decimal digits of V (1 for 0), without a loop: log10 from
 * the bit length (1233 / 4096 ~ log10(2)), then one comparison. */
static inline unsigned digits_u64(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);
	unsigned n = (bits * 1233) >> 12; /* digits - 1 or digits */

	return n + (n < 20 && (v | 1) >= pow10[n]); /* v | 1: 0 has a digit */
}

/* Numbers without vsnprintf: they are most of what a line holds, and
 * vsnprintf costs several times the digits. The digits go straight into
 * the buffer, last first: a temporary copied with memcpy cost a failed
 * store-to-load forwarding (small stores read back by a wide load) per
 * number. Values below 2^32 divide in 32 bits, which is quicker. */
static void out_u64(struct outbuf *o, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	unsigned n = digits_u64(v);
	char *p;

	if (o->full || n >= o->cap - o->pos) { /* keep room for the NUL, as out_bytes */
		o->full = true;
		return;
	}
	p = o->buf + o->pos + n;
	o->pos += n;
	while (v > UINT32_MAX) { /* two digits per division */
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		*--p = pairs[2 * r + 1];
		*--p = pairs[2 * r];
	}
	for (uint32_t w = (uint32_t)v; ; ) {
		if (w >= 100) {
			unsigned r = w % 100;

			w /= 100;
			*--p = pairs[2 * r + 1];
			*--p = pairs[2 * r];
		} else if (w >= 10) {
			*--p = pairs[2 * w + 1];
			*--p = pairs[2 * w];
			break;
		} else {
			*--p = (char)('0' + w);
			break;
		}
	}
}

static void out_i64(struct outbuf *o, int64_t v)
{
	if (v < 0) {
		outbuf_bytes(o, "-", 1);
		out_u64(o, -(uint64_t)v);
	} else
		out_u64(o, (uint64_t)v);
}

/* Lower-case hex without leading zeros, as %x. */
static void out_x64(struct outbuf *o, uint64_t v)
{
	char tmp[16];
	size_t n = 0;

	do {
		tmp[sizeof tmp - 1 - n++] = "0123456789abcdef"[v & 0xF];
		v >>= 4;
	} while (v);
	outbuf_bytes(o, tmp + sizeof tmp - n, n);
}

/* \xHH, lower-case. */
static void out_byte_escape(struct outbuf *o, uint8_t c)
{
	char e[4] = { '\\', 'x', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 0xF] };

	outbuf_bytes(o, e, sizeof e);
}

/* Does none of the eight bytes of X need escaping: each from LOWEST (at
 * most 0x7F) to 0x7E, none '\\' and (QUOTED) none '"'? Word-at-a-time
 * tests ("Bit Twiddling Hacks": hasless, hasmore, haszero), exact for the
 * word as a whole, which is all the caller asks. */
static inline bool word_plain(uint64_t x, uint8_t lowest, bool quoted)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t below = (x - ones * lowest) & ~x & highs;
	uint64_t above = ((x + ones) | x) & highs; /* 0x7F and up */
	uint64_t bs = x ^ (ones * '\\'), q = x ^ (ones * '"');
	uint64_t special = (bs - ones) & ~bs & highs;

	if (quoted)
		special |= (q - ones) & ~q & highs;
	return !(below | above | special);
}

/* The end of the run of bytes from P[I] on that need no escaping. */
static inline size_t plain_run(const uint8_t *p, size_t i, size_t n, uint8_t lowest, bool quoted)
{
	uint64_t w;

	while (i + 8 <= n) {
		memcpy(&w, p + i, 8);
		if (!word_plain(w, lowest, quoted))
			break;
		i += 8;
	}
	while (i < n && p[i] >= lowest && p[i] < 0x7F && p[i] != '\\' && !(quoted && p[i] == '"'))
		i++;
	return i;
}

/* Names and free text: bytes from LOWEST to 0x7E other than '\\' and
 * valid UTF-8 sequences are copied, every other byte becomes \xHH. Runs of
 * plain ASCII, which is nearly every name, are copied at once. */
static void out_escaped(struct outbuf *o, const char *s, size_t n, uint8_t lowest)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0;

	while (i < n && !o->full) {
		size_t run = plain_run(p, i, n, lowest, false), len;

		if (run > i) {
			outbuf_bytes(o, p + i, run - i);
			i = run;
			continue;
		}
		len = p[i] >= 0x80 ? utf8_sequence(p + i, n - i) : 0;
		if (len == 0) {
			out_byte_escape(o, p[i]);
			i++;
		} else {
			outbuf_bytes(o, p + i, len);
			i += len;
		}
	}
}

/* Names (methods, classes, thread-less text): a name with a space or a
 * control byte would break the field syntax, so such bytes become \xHH,
 * and so does '\\' to keep the escape unambiguous. */
static void out_name(struct outbuf *o, const char *s, size_t n)
{
	out_escaped(o, s, n, 0x21);
}

/* Free text (thread names): like out_name, but spaces stay. */
static void out_text(struct outbuf *o, const char *s, size_t n)
{
	out_escaped(o, s, n, 0x20);
}

/* A quoted string: "..." with \" \\ \n \t \r and \xHH for other control
 * bytes, 0x7F and bytes that are not UTF-8. */
static void out_quoted(struct outbuf *o, const char *s, size_t n)
{
	const uint8_t *p = (const uint8_t *)s;

	outbuf_bytes(o, "\"", 1);
	for (size_t i = 0; i < n && !o->full;) {
		size_t run = plain_run(p, i, n, 0x20, true), len;
		uint8_t c;

		if (run > i) {
			outbuf_bytes(o, p + i, run - i);
			i = run;
			continue;
		}
		c = p[i];
		len = c >= 0x80 ? utf8_sequence(p + i, n - i) : 0;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };

			outbuf_bytes(o, e, 2);
		} else if (c == '\n')
			outbuf_str(o, "\\n");
		else if (c == '\t')
			outbuf_str(o, "\\t");
		else if (c == '\r')
			outbuf_str(o, "\\r");
		else if (len == 0)
			out_byte_escape(o, c);
		else {
			outbuf_bytes(o, p + i, len);
			i += len;
			continue;
		}
		i++;
	}
	outbuf_bytes(o, "\"", 1);
}

/* A class signature in Java form ("java.lang.String", "int[]"), with
 * DROP_DIMS trailing "[]" removed; a malformed signature is shown as sent. */
static void out_class(struct outbuf *o, const struct wire_str *sig, unsigned drop_dims)
{
	/* The Java form is at most ~2x the signature ("[Z" -> "boolean[]"). */
	char dotted[2 * WIRE_MAX_STRING + 16];
	ssize_t n = name_class_any_to_dotted(sig->ptr, sig->len, dotted, sizeof dotted);

	if (n < 0) {
		out_name(o, sig->ptr, sig->len);
		return;
	}
	while (drop_dims-- > 0 && n >= 2 && dotted[n - 2] == '[' && dotted[n - 1] == ']')
		n -= 2;
	out_name(o, dotted, (size_t)n);
}

static void out_double(struct outbuf *o, double d, int digits)
{
	if (isnan(d))
		outbuf_str(o, "NaN");
	else if (isinf(d))
		outbuf_str(o, d > 0 ? "Infinity" : "-Infinity");
	else
		outbuf_fmt(o, "%.*g", digits, d);
}

static void out_value(struct outbuf *o, const struct wire_value *v)
{
	switch (v->type) {
	case WIRE_T_BOOLEAN:
		outbuf_str(o, v->v.i ? "true" : "false");
		break;
	case WIRE_T_BYTE:
	case WIRE_T_SHORT:
	case WIRE_T_INT:
	case WIRE_T_LONG:
		out_i64(o, v->v.i);
		break;
	case WIRE_T_CHAR: {
		uint16_t c = (uint16_t)v->v.i;

		if (c >= 0x20 && c < 0x7F && c != '\'' && c != '\\')
			outbuf_fmt(o, "'%c'", (char)c);
		else
			outbuf_fmt(o, "U+%04X", c);
		break;
	}
	case WIRE_T_FLOAT:
		out_double(o, v->v.f, 9);
		break;
	case WIRE_T_DOUBLE:
		out_double(o, v->v.d, 17);
		break;
	case WIRE_T_VOID:
		outbuf_str(o, "void");
		break;
	case WIRE_T_NULL:
		outbuf_str(o, "null");
		break;
	case WIRE_T_STRING:
		out_quoted(o, v->str.ptr, v->str.len);
		if (v->truncated)
			outbuf_str(o, "...");
		break;
	case WIRE_T_OBJECT:
		out_class(o, &v->str, 0);
		outbuf_bytes(o, "@", 1);
		out_x64(o, v->aux);
		outbuf_bytes(o, "#", 1);
		out_u64(o, v->object_id);
		break;
	case WIRE_T_ARRAY:
		out_class(o, &v->str, 1);
		outbuf_bytes(o, "[", 1);
		out_u64(o, v->aux);
		outbuf_bytes(o, "]#", 2);
		out_u64(o, v->object_id);
		break;
	case WIRE_T_NONE:
	default: /* the decoder admits no other type; never print garbage */
		outbuf_str(o, "?");
		break;
	}
}

ssize_t print_value(char *buf, size_t cap, const struct wire_value *v)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_value(&o, v);
	return outbuf_finish(&o);
}

const char *print_event_label(unsigned code)
{
	const struct event_desc *d = events_get(code);

	return d ? d->label : NULL;
}

static void out_values(struct outbuf *o, const struct wire_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			outbuf_bytes(o, ",", 1);
		out_value(o, &v[i]);
	}
}

static void out_frames(struct outbuf *o, const struct wire_trailer *t)
{
	for (size_t i = 0; i < t->depth; i++) {
		if (i)
			outbuf_bytes(o, "|", 1);
		out_name(o, t->frames[i].method.ptr, t->frames[i].method.len);
		outbuf_bytes(o, ":", 1);
		out_i64(o, t->frames[i].line);
	}
}

/* A frame as java.lang.StackTraceElement.toString() shows it, without the
 * module: "Shop.handle(Shop.java:42)", "(Shop.java)" when the line is
 * unknown, "(Unknown Source)" when the file is, "(Native Method)". */
/* A name in a frame: '|' separates frames, so a name's own is \x7c too. */
static void out_frame_name(struct outbuf *o, const char *s, size_t n)
{
	const char *bar;

	while ((bar = memchr(s, '|', n)) != NULL) {
		out_name(o, s, (size_t)(bar - s));
		out_byte_escape(o, '|');
		n -= (size_t)(bar - s) + 1;
		s = bar + 1;
	}
	out_name(o, s, n);
}

static void out_java_frame(struct outbuf *o, const struct wire_frame *f)
{
	const char *open = memchr(f->method.ptr, '(', f->method.len);
	size_t n = open ? (size_t)(open - f->method.ptr) : f->method.len;

	out_frame_name(o, f->method.ptr, n);
	if (f->line == -2)
		outbuf_str(o, "(Native Method)");
	else if (f->source.len == 0)
		outbuf_str(o, "(Unknown Source)");
	else {
		outbuf_bytes(o, "(", 1);
		out_frame_name(o, f->source.ptr, f->source.len);
		if (f->line >= 0) {
			outbuf_bytes(o, ":", 1);
			out_i64(o, f->line);
		}
		outbuf_bytes(o, ")", 1);
	}
}

static void out_java_frames(struct outbuf *o, const struct wire_trailer *t, uint32_t *offsets)
{
	for (size_t i = 0; i < t->depth; i++) {
		if (i)
			outbuf_bytes(o, "|", 1);
		if (offsets)
			offsets[i] = (uint32_t)o->pos;
		out_java_frame(o, &t->frames[i]);
	}
}

/* The monitor's class, and on a contended enter who holds it (OWNER_TID
 * as the host sees it): the documented order. */
static void out_monitor(struct outbuf *o, const struct wire_event *ev, uint64_t owner_tid)
{
	outbuf_str(o, " class=");
	out_class(o, &ev->trailer.monitor_class, 0);
	if (ev->code != WIRE_EV_MONITOR_ENTER)
		return;
	outbuf_str(o, " owner=");
	out_u64(o, owner_tid);
	outbuf_str(o, " owner_thread=");
	out_quoted(o, ev->trailer.owner_name.ptr, ev->trailer.owner_name.len);
}

/* The fields after ts=, in the documented order. */
static void out_fields(struct outbuf *o, const struct print_meta *m, const struct wire_event *ev)
{
	switch (ev->code) {
	case WIRE_EV_METHOD_ENTER:
		outbuf_str(o, " method=");
		out_name(o, ev->name.ptr, ev->name.len);
		outbuf_str(o, " args=");
		out_values(o, ev->values, ev->nvalues);
		break;
	case WIRE_EV_METHOD_EXIT:
		outbuf_str(o, " method=");
		out_name(o, ev->name.ptr, ev->name.len);
		outbuf_str(o, ev->popped ? " popped=1 ret=" : " popped=0 ret=");
		out_value(o, &ev->retval);
		break;
	case WIRE_EV_METHOD_COMPILE:
		outbuf_str(o, " method=");
		out_name(o, ev->name.ptr, ev->name.len);
		outbuf_fmt(o, " code_size=%" PRIu32, ev->u32);
		if (ev->nvalues > 0 && ev->values[0].type == WIRE_T_LONG)
			outbuf_fmt(o, " code_addr=0x%" PRIx64, (uint64_t)ev->values[0].v.i);
		break;
	case WIRE_EV_CLASS_LOAD:
	case WIRE_EV_CLASS_PREPARE:
	case WIRE_EV_CLASS_UNLOAD:
		outbuf_str(o, " class=");
		out_class(o, &ev->name, 0);
		break;
	case WIRE_EV_EXCEPTION_THROWN:
	case WIRE_EV_EXCEPTION_CATCH:
		/* the documented order: exception= before method= */
		outbuf_str(o, " exception=");
		out_class(o, &ev->name, 0);
		outbuf_str(o, " method=");
		out_name(o, ev->method.ptr, ev->method.len);
		break;
	case WIRE_EV_THREAD_START:
	case WIRE_EV_THREAD_END:
		if (m->thread_name) {
			outbuf_str(o, " thread=");
			out_quoted(o, m->thread_name, m->thread_name_len);
		}
		break;
	case WIRE_EV_MONITOR_ENTER:
	case WIRE_EV_MONITOR_ENTERED:
		outbuf_fmt(o, " object=%" PRIu64, ev->object);
		break;
	case WIRE_EV_MONITOR_WAIT:
		outbuf_fmt(o, " object=%" PRIu64 " timeout_ms=%" PRIu32, ev->object, ev->u32);
		break;
	case WIRE_EV_MONITOR_WAITED:
		outbuf_fmt(o, " object=%" PRIu64 " timeout_ms=%" PRIu32, ev->object, ev->u32);
		if (ev->has_trailer) /* the flag travels only in the trailer */
			outbuf_fmt(o, " timed_out=%d", (ev->trailer.flags & WIRE_TF_TIMED_OUT) ? 1 : 0);
		break;
	case WIRE_EV_LOST:
		outbuf_fmt(o, " lost=%" PRIu64, ev->lost);
		break;
	default: /* gc.*, vm.*: nothing but the common fields */
		break;
	}
	if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_MONITOR) && events_in_family(ev->code, EVENT_FAMILY_MONITORS))
		out_monitor(o, ev, m->owner_tid);
	if (ev->has_trailer && (ev->trailer.flags & WIRE_TF_STACK)) {
		outbuf_str(o, " stack=");
		out_frames(o, &ev->trailer);
	}
}

ssize_t print_event_line(char *buf, size_t cap, const struct print_meta *meta,
			 const struct wire_event *ev)
{
	const char *label = print_event_label(ev->code);
	struct outbuf o = OUTBUF_INIT(buf, cap);

	if (!label)
		return 0;
	outbuf_str(&o, label);
	outbuf_str(&o, " pid=");
	out_u64(&o, meta->pid);
	outbuf_str(&o, " tid=");
	out_u64(&o, meta->tid);
	outbuf_str(&o, " ts=");
	out_u64(&o, meta->ts_ns);
	out_fields(&o, meta, ev);
	outbuf_bytes(&o, "\n", 1);
	return outbuf_finish(&o);
}

ssize_t print_name(char *buf, size_t cap, const struct wire_str *name)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_name(&o, name->ptr, name->len);
	return outbuf_finish(&o);
}

ssize_t print_class(char *buf, size_t cap, const struct wire_str *sig)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_class(&o, sig, 0);
	return outbuf_finish(&o);
}

ssize_t print_text(char *buf, size_t cap, const char *s, size_t n)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_text(&o, s, n);
	return outbuf_finish(&o);
}

ssize_t print_quoted(char *buf, size_t cap, const char *s, size_t n)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_quoted(&o, s, n);
	return outbuf_finish(&o);
}

ssize_t print_values(char *buf, size_t cap, const struct wire_value *v, size_t n)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_values(&o, v, n);
	return outbuf_finish(&o);
}

ssize_t print_stack(char *buf, size_t cap, const struct wire_trailer *t)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_frames(&o, t);
	return outbuf_finish(&o);
}

ssize_t print_java_stack(char *buf, size_t cap, const struct wire_trailer *t, uint32_t *offsets)
{
	struct outbuf o = OUTBUF_INIT(buf, cap);

	out_java_frames(&o, t, offsets);
	return outbuf_finish(&o);
}
