/* wire_ref.c: a reference encoder written from the seed's Appendix A/B/C
 * tables and wire.h's layout comments, in either byte order, and the
 * field-by-field comparison of decoded messages (see wire_samples.h). */
#include "wire_samples.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

bool wire_host_is_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t first;

	memcpy(&first, &one, 1);
	return first == 0;
}

uint8_t wire_host_order(void)
{
	return wire_host_is_big_endian() ? WIRE_ORDER_BIG : WIRE_ORDER_LITTLE;
}

uint8_t wire_foreign_order(void)
{
	return wire_host_is_big_endian() ? WIRE_ORDER_LITTLE : WIRE_ORDER_BIG;
}

/* ------------------------------------------------------------ writer */
struct out {
	uint8_t *p;
	size_t cap, len;
	bool be, overflow;
	struct wire_ref_field *f; /* optional: where the checked fields are */
	size_t nf, fmax;
};

/* Note that the field about to be written is one a decoder validates. */
static void mark(struct out *o, char kind, unsigned size, const char *hint)
{
	if (o->f && o->nf < o->fmax)
		o->f[o->nf++] = (struct wire_ref_field){ o->len, kind, size, hint };
}

static void put_bytes(struct out *o, const void *src, size_t n)
{
	if (!o->p) { /* only counting (and marking fields) */
		o->len += n;
		return;
	}
	if (o->overflow || n > o->cap - o->len) {
		o->overflow = true;
		return;
	}
	if (n)
		memcpy(o->p + o->len, src, n);
	o->len += n;
}

static void put_uint(struct out *o, uint64_t v, unsigned size)
{
	uint8_t b[8];

	for (unsigned i = 0; i < size; i++) {
		unsigned shift = 8 * (o->be ? size - 1 - i : i);
		b[i] = (uint8_t)(v >> shift);
	}
	put_bytes(o, b, size);
}

static void put_u8(struct out *o, uint64_t v)  { put_uint(o, v, 1); }
static void put_u16(struct out *o, uint64_t v) { put_uint(o, v, 2); }
static void put_u32(struct out *o, uint64_t v) { put_uint(o, v, 4); }
static void put_u64(struct out *o, uint64_t v) { put_uint(o, v, 8); }

static void put_str(struct out *o, struct wire_str s)
{
	mark(o, WIRE_REF_STRLEN, 4, "length");
	put_u32(o, s.len);
	put_bytes(o, s.ptr, s.len);
}

static void put_value(struct out *o, const struct wire_value *v)
{
	uint32_t f;
	uint64_t d;

	mark(o, WIRE_REF_TYPE, 1, "type");
	put_u8(o, v->type);
	switch (v->type) {
	case WIRE_T_BOOLEAN:
		mark(o, WIRE_REF_BOOL, 1, "boolean");
		put_u8(o, (uint64_t)v->v.i);
		break;
	case WIRE_T_BYTE: put_u8(o, (uint64_t)v->v.i); break;
	case WIRE_T_CHAR: case WIRE_T_SHORT:   put_u16(o, (uint64_t)v->v.i); break;
	case WIRE_T_INT:                       put_u32(o, (uint64_t)v->v.i); break;
	case WIRE_T_LONG:                      put_u64(o, (uint64_t)v->v.i); break;
	case WIRE_T_FLOAT:  memcpy(&f, &v->v.f, 4); put_u32(o, f); break;
	case WIRE_T_DOUBLE: memcpy(&d, &v->v.d, 8); put_u64(o, d); break;
	case WIRE_T_STRING:
		put_str(o, v->str);
		mark(o, WIRE_REF_BOOL, 1, "truncated");
		put_u8(o, v->truncated);
		break;
	case WIRE_T_OBJECT: case WIRE_T_ARRAY:
		put_str(o, v->str);
		put_u64(o, v->object_id);
		put_u32(o, v->aux);
		break;
	default:
		break;
	}
}

static void put_values(struct out *o, const struct wire_event *ev)
{
	put_u8(o, ev->nvalues);
	for (unsigned i = 0; i < ev->nvalues; i++)
		put_value(o, &ev->values[i]);
}

static void put_trailer(struct out *o, uint32_t caps, const struct wire_trailer *t)
{
	put_u64(o, t->seq);
	put_u64(o, t->timestamp_ns);
	put_u32(o, t->os_tid);
	mark(o, WIRE_REF_FLAGS, 1, "flags");
	put_u8(o, t->flags);
	if (t->flags & WIRE_TF_STACK) {
		mark(o, WIRE_REF_DEPTH, 2, "depth");
		put_u16(o, t->depth);
		for (unsigned i = 0; i < t->depth && i < WIRE_MAX_STACK_DEPTH; i++) {
			put_str(o, t->frames[i].method);
			put_u32(o, (uint32_t)t->frames[i].line);
			if (caps & WIRE_CAP_FRAME_SOURCE)
				put_str(o, t->frames[i].source);
		}
	}
	if (t->flags & WIRE_TF_MONITOR) {
		put_str(o, t->monitor_class);
		put_u32(o, t->owner_tid);
		put_str(o, t->owner_name);
	}
}

static void put_hello_fields(struct out *o, const struct wire_hello *h)
{
	mark(o, WIRE_REF_ORDER, 1, "order");
	put_u8(o, h->order);
	mark(o, WIRE_REF_VERSION, 2, "version");
	put_u16(o, h->version);
	put_u32(o, h->pid);
	put_u32(o, h->caps);
}

static size_t ref_event(struct out *o0, const struct wire_event *ev, const struct wire_peer *peer)
{
	struct out o = *o0;

	put_u8(&o, ev->code);
	switch (ev->code) {
	case 0x80: case 0xA0: /* by name, or by number (MethodEnterIdValues) */
		if (ev->code == 0x80)
			put_str(&o, ev->name);
		else
			put_u32(&o, ev->method_id);
		put_u64(&o, ev->thread);
		put_values(&o, ev);
		break;
	case 0x81: case 0xA1:
		if (ev->code == 0x81)
			put_str(&o, ev->name);
		else
			put_u32(&o, ev->method_id);
		put_u64(&o, ev->thread);
		mark(&o, WIRE_REF_BOOL, 1, "popped");
		put_u8(&o, ev->popped);
		put_value(&o, &ev->retval);
		break;
	case 0x82: put_str(&o, ev->name); put_u32(&o, ev->u32); put_values(&o, ev); break;
	case 0x83: put_str(&o, ev->name); put_u32(&o, ev->thread); break;
	case 0x84: put_str(&o, ev->name); put_u64(&o, ev->thread); break;
	case 0x85: case 0x86:
		put_str(&o, ev->name);
		put_u64(&o, ev->thread);
		put_str(&o, ev->method);
		break;
	case 0x87: case 0x88: case 0x93: put_u64(&o, ev->thread); break;
	case 0x89: case 0x8A: put_u64(&o, ev->thread); put_u64(&o, ev->object); break;
	case 0x8B: case 0x8C:
		put_u64(&o, ev->thread);
		put_u64(&o, ev->object);
		put_u32(&o, ev->u32);
		break;
	case 0x90:
		mark(&o, WIRE_REF_MAGIC, 4, "magic");
		put_bytes(&o, WIRE_MAGIC, 4);
		put_hello_fields(&o, &ev->hello);
		put_str(&o, ev->hello.description);
		break;
	case 0x95: put_str(&o, ev->name); break;
	case 0x96:
		put_u64(&o, ev->thread);
		put_str(&o, ev->name);
		if (peer->caps & WIRE_CAP_JAVA_THREAD_ID)
			put_u64(&o, ev->java_tid);
		break;
	case 0x97: put_u64(&o, ev->lost); break;
	case 0x98:
		put_str(&o, ev->name);
		if (peer->caps & WIRE_CAP_NOTICE_SUBJECT) {
			mark(&o, WIRE_REF_NOTICE_SCOPE, 1, "notice scope");
			put_u8(&o, ev->notice_scope);
			mark(&o, WIRE_REF_KIND, 1, "kind");
			put_u8(&o, ev->kind);
			put_u8(&o, ev->events);
			put_str(&o, ev->method);
		}
		break;
	case 0x99:
		mark(&o, WIRE_REF_KIND, 1, "kind");
		put_u8(&o, ev->kind);
		put_str(&o, ev->name);
		break;
	case 0x9A:
		mark(&o, WIRE_REF_KIND, 1, "kind");
		put_u8(&o, ev->kind);
		put_u32(&o, ev->u32);
		break;
	case 0x9B:
		mark(&o, WIRE_REF_JFR_FLAGS, 1, "jfr flags");
		put_u8(&o, ev->jfr_flags);
		put_str(&o, ev->name);
		break;
	case 0x9C: put_str(&o, ev->name); put_str(&o, ev->method); break;
	case 0x9D: put_u32(&o, ev->method_id); put_str(&o, ev->name); break;
	case 0x9E: put_u32(&o, ev->method_id); put_u64(&o, ev->thread); break;
	case 0x9F:
		put_u32(&o, ev->method_id);
		put_u64(&o, ev->thread);
		mark(&o, WIRE_REF_TYPE, 1, "type");
		put_u8(&o, ev->retval.type);
		break;
	default: break; /* 0x91 0x92 0x94: nothing */
	}
	if ((peer->caps & WIRE_CAP_TRAILER) && ev->code != WIRE_EV_HELLO)
		put_trailer(&o, peer->caps, &ev->trailer);
	o0->nf = o.nf;
	return o.overflow ? 0 : o.len;
}

size_t wire_ref_encode_event(const struct wire_event *ev, const struct wire_peer *peer,
			     bool big_endian, uint8_t *out, size_t cap)
{
	struct out o = { .p = out, .cap = cap, .be = big_endian };

	return ref_event(&o, ev, peer);
}

size_t wire_ref_event_fields(const struct wire_event *ev, const struct wire_peer *peer,
			     struct wire_ref_field *fields, size_t max)
{
	struct out o = { .p = NULL, .cap = 0, .f = fields, .fmax = max };

	ref_event(&o, ev, peer);
	return o.nf;
}

static size_t ref_command(struct out *o0, const struct wire_command *c)
{
	struct out o = *o0;

	put_u8(&o, c->code == WIRE_CMD_HELLO ? 0x40 : c->code);
	switch (c->code) {
	case 0x40: case 0x41: case 0x42: put_str(&o, c->pattern); break;
	case 0x43: case 0x44: case 0x45: case 0x53:
		mark(&o, WIRE_REF_BOOL, 1, "enable");
		put_u8(&o, c->enable);
		break;
	case 0x46: put_u32(&o, c->mask); break;
	case 0x50:
		mark(&o, WIRE_REF_KIND, 1, "kind");
		put_u8(&o, c->kind);
		mark(&o, WIRE_REF_EVENTS, 1, "events");
		put_u8(&o, c->events);
		put_str(&o, c->pattern);
		break;
	case 0x51:
	case 0x59:
		mark(&o, WIRE_REF_KIND, 1, "kind");
		put_u8(&o, c->kind);
		put_str(&o, c->pattern);
		break;
	case 0x57: put_u32(&o, c->session); break;
	case 0x58:
		mark(&o, WIRE_REF_KIND, 1, "kind");
		put_u8(&o, c->kind);
		mark(&o, WIRE_REF_EVENTS, 1, "events");
		put_u8(&o, c->events);
		put_u16(&o, c->slot);
		put_str(&o, c->pattern);
		break;
	case 0x54:
		mark(&o, WIRE_REF_MODE, 1, "mode");
		put_u8(&o, c->mode);
		put_u32(&o, c->timeout_us);
		break;
	case 0x55: put_u64(&o, c->seq); break;
	case 0x5A: put_str(&o, c->pattern); break;
	case 0x5B:
		put_u64(&o, c->jfr.slots);
		put_u64(&o, c->jfr.tid);
		put_u64(&o, (uint64_t)c->jfr.start_ns);
		put_u64(&o, (uint64_t)c->jfr.duration_ns);
		put_str(&o, c->jfr.type);
		put_str(&o, c->jfr.thread_name);
		put_u16(&o, c->jfr.nfields);
		put_str(&o, c->jfr.fields);
		put_u16(&o, c->jfr.depth);
		put_str(&o, c->jfr.stack);
		break;
	case WIRE_CMD_HELLO:
		mark(&o, WIRE_REF_STRLEN, 4, "length");
		put_u32(&o, WIRE_HELLO_MIN_STRING + c->hello.description.len);
		put_bytes(&o, "\0" WIRE_MAGIC, 5);
		put_hello_fields(&o, &c->hello);
		put_bytes(&o, c->hello.description.ptr, c->hello.description.len);
		break;
	default: break; /* 0x52: nothing */
	}
	o0->nf = o.nf;
	return o.overflow ? 0 : o.len;
}

size_t wire_ref_encode_command(const struct wire_command *c, bool big_endian,
			       uint8_t *out, size_t cap)
{
	struct out o = { .p = out, .cap = cap, .be = big_endian };

	return ref_command(&o, c);
}

size_t wire_ref_command_fields(const struct wire_command *c, struct wire_ref_field *fields, size_t max)
{
	struct out o = { .p = NULL, .cap = 0, .f = fields, .fmax = max };

	ref_command(&o, c);
	return o.nf;
}

/* ------------------------------------------------------------ comparison */
#define DIFF(cond, ...) do { if (cond) { snprintf(why, why_len, __VA_ARGS__); return false; } } while (0)

static bool str_eq(struct wire_str a, struct wire_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool value_equal(const struct wire_value *a, const struct wire_value *b,
			const char *what, char *why, size_t why_len)
{
	DIFF(a->type != b->type, "%s: type 0x%02x != 0x%02x", what, a->type, b->type);
	switch (a->type) {
	case WIRE_T_BOOLEAN: case WIRE_T_BYTE: case WIRE_T_CHAR:
	case WIRE_T_SHORT: case WIRE_T_INT: case WIRE_T_LONG:
		DIFF(a->v.i != b->v.i, "%s: %lld != %lld", what, (long long)a->v.i, (long long)b->v.i);
		break;
	case WIRE_T_FLOAT:
		DIFF(memcmp(&a->v.f, &b->v.f, sizeof(float)) != 0, "%s: float bits differ", what);
		break;
	case WIRE_T_DOUBLE:
		DIFF(memcmp(&a->v.d, &b->v.d, sizeof(double)) != 0, "%s: double bits differ", what);
		break;
	case WIRE_T_STRING:
		DIFF(!str_eq(a->str, b->str), "%s: string contents differ", what);
		DIFF(a->truncated != b->truncated, "%s: truncated differs", what);
		break;
	case WIRE_T_OBJECT: case WIRE_T_ARRAY:
		DIFF(!str_eq(a->str, b->str), "%s: class signature differs", what);
		DIFF(a->object_id != b->object_id, "%s: object id differs", what);
		DIFF(a->aux != b->aux, "%s: aux differs", what);
		break;
	default:
		break;
	}
	return true;
}

static bool hello_equal(const struct wire_hello *a, const struct wire_hello *b,
			char *why, size_t why_len)
{
	DIFF(a->order != b->order, "hello order 0x%02x != 0x%02x", a->order, b->order);
	DIFF(a->version != b->version, "hello version %u != %u", a->version, b->version);
	DIFF(a->pid != b->pid, "hello pid %u != %u", a->pid, b->pid);
	DIFF(a->caps != b->caps, "hello caps 0x%x != 0x%x", a->caps, b->caps);
	DIFF(!str_eq(a->description, b->description), "hello description differs");
	return true;
}

static bool trailer_equal(const struct wire_trailer *a, const struct wire_trailer *b,
			  char *why, size_t why_len)
{
	DIFF(a->seq != b->seq, "trailer seq differs");
	DIFF(a->timestamp_ns != b->timestamp_ns, "trailer timestamp differs");
	DIFF(a->os_tid != b->os_tid, "trailer os_tid differs");
	DIFF(a->flags != b->flags, "trailer flags 0x%x != 0x%x", a->flags, b->flags);
	if (a->flags & WIRE_TF_MONITOR) {
		DIFF(!str_eq(a->monitor_class, b->monitor_class), "monitor class differs");
		DIFF(a->owner_tid != b->owner_tid, "monitor owner tid %u != %u", a->owner_tid, b->owner_tid);
		DIFF(!str_eq(a->owner_name, b->owner_name), "monitor owner name differs");
	}
	if (!(a->flags & WIRE_TF_STACK))
		return true;
	DIFF(a->depth != b->depth, "trailer depth %u != %u", a->depth, b->depth);
	for (unsigned i = 0; i < a->depth && i < WIRE_MAX_STACK_DEPTH; i++) {
		DIFF(!str_eq(a->frames[i].method, b->frames[i].method), "frame %u method differs", i);
		DIFF(a->frames[i].line != b->frames[i].line, "frame %u line differs", i);
		DIFF(!str_eq(a->frames[i].source, b->frames[i].source), "frame %u source differs", i);
	}
	return true;
}

bool wire_event_equal(const struct wire_event *a, const struct wire_event *b,
		      char *why, size_t why_len)
{
	unsigned c = a->code;
	bool has_name = (c >= 0x80 && c <= 0x86) || c == 0x95 || c == 0x96 || c == 0x98 || c == 0x99 ||
			c == 0x9B || c == 0x9C || c == 0x9D;
	bool has_thread = (c >= 0x80 && c <= 0x8C && c != 0x82) || c == 0x93 || c == 0x96 ||
			  (c >= 0x9E && c <= 0xA1);
	bool has_values = c == 0x80 || c == 0x82 || c == 0xA0;

	DIFF(a->code != b->code, "code 0x%x != 0x%x", a->code, b->code);
	DIFF(has_name && !str_eq(a->name, b->name), "name differs");
	DIFF((c == 0x85 || c == 0x86 || c == 0x9C) && !str_eq(a->method, b->method), "method differs");
	DIFF(has_thread && a->thread != b->thread, "thread 0x%llx != 0x%llx",
	     (unsigned long long)a->thread, (unsigned long long)b->thread);
	DIFF(c >= 0x89 && c <= 0x8C && a->object != b->object, "object differs");
	DIFF((c == 0x82 || c == 0x8B || c == 0x8C || c == 0x9A) && a->u32 != b->u32, "u32 %u != %u", a->u32, b->u32);
	DIFF((c == 0x98 || c == 0x99 || c == 0x9A) && a->kind != b->kind, "kind %u != %u", a->kind, b->kind);
	DIFF(c == 0x98 && a->notice_scope != b->notice_scope, "notice scope %u != %u", a->notice_scope,
	     b->notice_scope);
	DIFF(c == 0x98 && a->events != b->events, "notice events 0x%x != 0x%x", a->events, b->events);
	DIFF(c == 0x98 && !str_eq(a->method, b->method), "notice subject differs");
	DIFF(c == 0x97 && a->lost != b->lost, "lost differs");
	DIFF(c == 0x9B && a->jfr_flags != b->jfr_flags, "jfr flags 0x%x != 0x%x", a->jfr_flags, b->jfr_flags);
	DIFF(c == 0x96 && a->java_tid != b->java_tid, "java thread id differs");
	DIFF(c >= 0x9D && c <= 0xA1 && a->method_id != b->method_id, "method id %u != %u", a->method_id,
	     b->method_id);
	DIFF(c == 0x9F && a->retval.type != b->retval.type, "value type differs");
	if (c == 0x81 || c == 0xA1) {
		DIFF(a->popped != b->popped, "popped differs");
		if (!value_equal(&a->retval, &b->retval, "retval", why, why_len))
			return false;
	}
	if (has_values) {
		DIFF(a->nvalues != b->nvalues, "nvalues %u != %u", a->nvalues, b->nvalues);
		for (unsigned i = 0; i < a->nvalues; i++) {
			char what[24];

			snprintf(what, sizeof(what), "value %u", i);
			if (!value_equal(&a->values[i], &b->values[i], what, why, why_len))
				return false;
		}
	}
	if (c == 0x90 && !hello_equal(&a->hello, &b->hello, why, why_len))
		return false;
	DIFF(a->has_trailer != b->has_trailer, "has_trailer %d != %d", a->has_trailer, b->has_trailer);
	if (a->has_trailer && !trailer_equal(&a->trailer, &b->trailer, why, why_len))
		return false;
	return true;
}

bool wire_command_equal(const struct wire_command *a, const struct wire_command *b,
			char *why, size_t why_len)
{
	unsigned c = a->code;

	DIFF(a->code != b->code, "code 0x%x != 0x%x", a->code, b->code);
	DIFF((c == 0x50 || c == 0x51 || c == 0x58 || c == 0x59) && a->kind != b->kind, "kind %u != %u", a->kind, b->kind);
	DIFF((c == 0x50 || c == 0x58) && a->events != b->events, "events 0x%x != 0x%x", a->events, b->events);
	DIFF(c == 0x58 && a->slot != b->slot, "slot %u != %u", a->slot, b->slot);
	DIFF(c == 0x57 && a->session != b->session, "session %u != %u", a->session, b->session);
	DIFF((c == 0x40 || c == 0x41 || c == 0x42 || c == 0x50 || c == 0x51 || c == 0x58 || c == 0x59 || c == 0x5A) &&
	     !str_eq(a->pattern, b->pattern), "pattern differs");
	DIFF((c == 0x43 || c == 0x44 || c == 0x45 || c == 0x53) && a->enable != b->enable,
	     "enable differs");
	DIFF(c == 0x46 && a->mask != b->mask, "mask 0x%x != 0x%x", a->mask, b->mask);
	DIFF(c == 0x54 && a->mode != b->mode, "mode differs");
	DIFF(c == 0x54 && a->timeout_us != b->timeout_us, "timeout_us differs");
	DIFF(c == 0x55 && a->seq != b->seq, "seq differs");
	if (c == 0x5B) {
		const struct wire_jfr_event *x = &a->jfr, *y = &b->jfr;

		DIFF(x->slots != y->slots || x->tid != y->tid, "jfr slots or thread differ");
		DIFF(x->start_ns != y->start_ns || x->duration_ns != y->duration_ns, "jfr start or duration differ");
		DIFF(!str_eq(x->type, y->type) || !str_eq(x->thread_name, y->thread_name), "jfr type or thread name differ");
		DIFF(x->nfields != y->nfields || !str_eq(x->fields, y->fields), "jfr fields differ");
		DIFF(x->depth != y->depth || !str_eq(x->stack, y->stack), "jfr stack differs");
	}
	if (c == WIRE_CMD_HELLO && !hello_equal(&a->hello, &b->hello, why, why_len))
		return false;
	return true;
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return n == 0;
}

/* "offset N" as a whole number (so "offset 1" is not found in "offset 12"). */
static bool has_offset(const char *text, const char *at)
{
	size_t n = strlen(at);

	for (const char *p = strstr(text, at); p; p = strstr(p + 1, at))
		if (p[n] < '0' || p[n] > '9')
			return true;
	return false;
}

bool wire_error_is(const struct wire_error *err, const char *field, size_t offset,
		   char *why, size_t why_len)
{
	char at[40];

	DIFF(memchr(err->text, 0, sizeof(err->text)) == NULL, "error text not terminated");
	DIFF(err->field == NULL, "no field in error \"%s\"", err->text);
	DIFF(field && !contains_nocase(err->field, field),
	     "field \"%s\" does not name \"%s\" (%s)", err->field, field, err->text);
	DIFF(err->offset != offset, "offset %zu, expected %zu (%s)", err->offset, offset, err->text);
	DIFF(!strstr(err->text, err->field), "text \"%s\" lacks the field \"%s\"", err->text, err->field);
	snprintf(at, sizeof(at), "offset %zu", offset);
	DIFF(!has_offset(err->text, at), "text \"%s\" lacks \"%s\"", err->text, at);
	return true;
}

static bool value_identical(const struct wire_value *a, const struct wire_value *b)
{
	return a->type == b->type && a->truncated == b->truncated && memcmp(&a->v, &b->v, sizeof(a->v)) == 0 &&
	       a->str.ptr == b->str.ptr && a->str.len == b->str.len && a->object_id == b->object_id &&
	       a->aux == b->aux;
}

bool wire_values_identical(const struct wire_event *a, const struct wire_event *b)
{
	if (a->nvalues != b->nvalues || !value_identical(&a->retval, &b->retval))
		return false;
	for (unsigned i = 0; i < a->nvalues; i++)
		if (!value_identical(&a->values[i], &b->values[i]))
			return false;
	return true;
}
