/* wire_encode.c: encoding events and commands, and the Hello negotiation.
 *
 * An encoder makes one pass with a writer that stores only what fits in the
 * caller's free space but counts everything, and remembers whether the
 * struct broke a rule the decoder enforces. Only a message that is valid,
 * within WIRE_MAX_MESSAGE and wholly stored moves b->len, so a failed call
 * leaves the buffer's contents as they were.
 */
#include "wire.h"
#include "wire_bytes.h"

#include "events.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

struct wire_writer {
	uint8_t *out;    /* b->data + b->len */
	size_t room;     /* b->cap - b->len */
	size_t pos;      /* bytes of the message so far, stored or not */
	bool swap;       /* only for Hello fields in a declared foreign order */
	bool invalid;    /* the struct breaks a rule of the protocol */
};

static uint8_t *wire_writer_reserve(struct wire_writer *w, size_t n)
{
	uint8_t *p = NULL;

	if (n && w->pos <= w->room && n <= w->room - w->pos)
		p = w->out + w->pos;
	w->pos += n;
	return p;
}

static void wire_put_u8(struct wire_writer *w, uint8_t v)
{
	uint8_t *p = wire_writer_reserve(w, 1);

	if (p)
		*p = v;
}

static void wire_put_u16(struct wire_writer *w, uint16_t v)
{
	uint8_t *p = wire_writer_reserve(w, 2);

	if (p)
		wire_store_u16(p, v, w->swap);
}

static void wire_put_u32(struct wire_writer *w, uint32_t v)
{
	uint8_t *p = wire_writer_reserve(w, 4);

	if (p)
		wire_store_u32(p, v, w->swap);
}

static void wire_put_u64(struct wire_writer *w, uint64_t v)
{
	uint8_t *p = wire_writer_reserve(w, 8);

	if (p)
		wire_store_u64(p, v, w->swap);
}

static void wire_put_bytes(struct wire_writer *w, const void *data, size_t n)
{
	uint8_t *p = wire_writer_reserve(w, n);

	if (p && n)
		memcpy(p, data, n);
}

static bool wire_str_ok(const struct wire_str *s, uint32_t limit)
{
	return s->len <= limit && (s->ptr || s->len == 0);
}

static void wire_put_string(struct wire_writer *w, const struct wire_str *s)
{
	if (!wire_str_ok(s, WIRE_MAX_STRING)) {
		w->invalid = true;
		return;
	}
	wire_put_u32(w, s->len);
	wire_put_bytes(w, s->ptr, s->len);
}

static void wire_put_bool(struct wire_writer *w, bool v)
{
	wire_put_u8(w, v ? 1 : 0);
}

static void wire_put_int_in(struct wire_writer *w, int64_t v, int64_t lo, int64_t hi, unsigned size)
{
	if (v < lo || v > hi) {
		w->invalid = true;
		return;
	}
	switch (size) {
	case 1: wire_put_u8(w, (uint8_t)v); break;
	case 2: wire_put_u16(w, (uint16_t)v); break;
	case 4: wire_put_u32(w, (uint32_t)v); break;
	default: wire_put_u64(w, (uint64_t)v); break;
	}
}

static int wire_writer_finish(struct wire_writer *w, struct wire_buf *b)
{
	if (w->invalid || w->pos > WIRE_MAX_MESSAGE)
		return -EINVAL;
	if (w->pos > w->room)
		return -ENOSPC;
	b->len += w->pos;
	return 0;
}

static bool wire_writer_start(struct wire_writer *w, const struct wire_buf *b)
{
	if (!b || b->len > b->cap || (!b->data && b->cap))
		return false;
	*w = (struct wire_writer){ .out = b->data ? b->data + b->len : NULL, .room = b->cap - b->len };
	/* no valid message is longer, so nothing past this is worth copying */
	if (w->room > WIRE_MAX_MESSAGE)
		w->room = WIRE_MAX_MESSAGE;
	return true;
}

/* ------------------------------------------------------------- values */

static void wire_put_value(struct wire_writer *w, const struct wire_value *v)
{
	uint32_t u32;
	uint64_t u64;

	wire_put_u8(w, v->type);
	switch (v->type) {
	case WIRE_T_BOOLEAN:
		wire_put_int_in(w, v->v.i, 0, 1, 1);
		break;
	case WIRE_T_BYTE:
		wire_put_int_in(w, v->v.i, INT8_MIN, INT8_MAX, 1);
		break;
	case WIRE_T_CHAR:
		wire_put_int_in(w, v->v.i, 0, UINT16_MAX, 2);
		break;
	case WIRE_T_SHORT:
		wire_put_int_in(w, v->v.i, INT16_MIN, INT16_MAX, 2);
		break;
	case WIRE_T_INT:
		wire_put_int_in(w, v->v.i, INT32_MIN, INT32_MAX, 4);
		break;
	case WIRE_T_LONG:
		wire_put_u64(w, (uint64_t)v->v.i);
		break;
	case WIRE_T_FLOAT:
		memcpy(&u32, &v->v.f, sizeof(u32));
		wire_put_u32(w, u32);
		break;
	case WIRE_T_DOUBLE:
		memcpy(&u64, &v->v.d, sizeof(u64));
		wire_put_u64(w, u64);
		break;
	case WIRE_T_VOID:
	case WIRE_T_NULL:
	case WIRE_T_NONE:
		break;
	case WIRE_T_STRING:
		wire_put_string(w, &v->str);
		wire_put_bool(w, v->truncated);
		break;
	case WIRE_T_OBJECT:
	case WIRE_T_ARRAY:
		wire_put_string(w, &v->str);
		wire_put_u64(w, v->object_id);
		wire_put_u32(w, v->aux);
		break;
	default:
		w->invalid = true;
		break;
	}
}

static void wire_put_values(struct wire_writer *w, const struct wire_event *ev)
{
	wire_put_u8(w, ev->nvalues);
	for (unsigned i = 0; i < ev->nvalues; i++)
		wire_put_value(w, &ev->values[i]);
}

/* ------------------------------------------------------------- trailer */

static void wire_put_trailer(struct wire_writer *w, uint32_t caps, const struct wire_trailer *t)
{
	if ((t->flags & ~WIRE_TF_ALL) ||
	    ((t->flags & WIRE_TF_SYNC) && !(caps & WIRE_CAP_SYNC)) ||
	    ((t->flags & WIRE_TF_STACK) && !(caps & WIRE_CAP_STACK)) ||
	    ((t->flags & WIRE_TF_MONITOR) && !(caps & WIRE_CAP_MONITOR_DETAIL))) {
		w->invalid = true;
		return;
	}
	wire_put_u64(w, t->seq);
	wire_put_u64(w, t->timestamp_ns);
	wire_put_u32(w, t->os_tid);
	wire_put_u8(w, t->flags);
	if (t->flags & WIRE_TF_STACK) {
		if (t->depth > WIRE_MAX_STACK_DEPTH) {
			w->invalid = true;
			return;
		}
		wire_put_u16(w, t->depth);
		for (unsigned i = 0; i < t->depth; i++) {
			wire_put_string(w, &t->frames[i].method);
			wire_put_u32(w, (uint32_t)t->frames[i].line);
			if (caps & WIRE_CAP_FRAME_SOURCE)
				wire_put_string(w, &t->frames[i].source);
		}
	}
	if (t->flags & WIRE_TF_MONITOR) {
		wire_put_string(w, &t->monitor_class);
		wire_put_u32(w, t->owner_tid);
		wire_put_string(w, &t->owner_name);
	}
}

/* ------------------------------------------------------------- Hello */

static bool wire_hello_ok(const struct wire_hello *h)
{
	return wire_order_is_valid(h->order) && h->version != 0;
}

/* version, pid, caps in the order the Hello declares (wire_hello_init()
 * declares ours), mirroring the decoder. */
static void wire_put_hello_numbers(struct wire_writer *w, const struct wire_hello *h)
{
	w->swap = h->order != WIRE_HOST_ORDER;
	wire_put_u16(w, h->version);
	wire_put_u32(w, h->pid);
	wire_put_u32(w, h->caps);
}

static void wire_put_event_hello(struct wire_writer *w, const struct wire_hello *h)
{
	if (!wire_hello_ok(h)) {
		w->invalid = true;
		return;
	}
	wire_put_bytes(w, WIRE_MAGIC, 4);
	wire_put_u8(w, h->order);
	wire_put_hello_numbers(w, h);
	wire_put_string(w, &h->description);
	w->swap = false;
}

/* The bridge Hello: REGISTER_METHOD whose pattern is "\0STPJ", order,
 * version, pid, caps, description. */
static void wire_put_bridge_hello(struct wire_writer *w, const struct wire_hello *h)
{
	if (!wire_hello_ok(h) || !wire_str_ok(&h->description, WIRE_MAX_STRING - WIRE_HELLO_MIN_STRING)) {
		w->invalid = true;
		return;
	}
	wire_put_u8(w, WIRE_CMD_REGISTER_METHOD);
	/* the whole Hello, its string length included, is in the declared order */
	w->swap = h->order != WIRE_HOST_ORDER;
	wire_put_u32(w, WIRE_HELLO_MIN_STRING + h->description.len);
	w->swap = false;
	wire_put_bytes(w, WIRE_BRIDGE_HELLO_PREFIX, WIRE_BRIDGE_HELLO_PREFIX_LEN);
	wire_put_u8(w, h->order);
	wire_put_hello_numbers(w, h);
	w->swap = false;
	wire_put_bytes(w, h->description.ptr, h->description.len);
}

void wire_hello_init(struct wire_hello *hello, uint32_t caps, const char *description)
{
	size_t len = description ? strlen(description) : 0;

	/* clipped so that both Hello forms can carry it */
	if (len > WIRE_MAX_STRING - WIRE_HELLO_MIN_STRING)
		len = WIRE_MAX_STRING - WIRE_HELLO_MIN_STRING;
	hello->order = WIRE_HOST_ORDER;
	hello->version = WIRE_PROTOCOL_VERSION;
	hello->pid = (uint32_t)getpid();
	hello->caps = caps;
	hello->description.ptr = description;
	hello->description.len = (uint32_t)len;
}

void wire_peer_init(struct wire_peer *peer)
{
	peer->swap = false;
	peer->hello = false;
	peer->caps = 0;
}

int wire_peer_accept_hello(struct wire_peer *peer, const struct wire_hello *hello, uint32_t our_caps)
{
	if (!wire_hello_ok(hello))
		return -EPROTO;
	peer->swap = hello->order != WIRE_HOST_ORDER;
	peer->hello = true;
	peer->caps = hello->caps & our_caps;
	if (!(peer->caps & WIRE_CAP_EXT_CMDS))
		peer->caps &= ~(uint32_t)WIRE_CAP_EARLY_APPENDIX;
	/* values by number name their methods with MethodName */
	if (!(peer->caps & WIRE_CAP_METHOD_IDS))
		peer->caps &= ~(uint32_t)WIRE_CAP_METHOD_ID_VALUES;
	return 0;
}

/* ------------------------------------------------------------- events */

/* What wire_read_notice_subject() takes, and nothing else. */
static bool wire_notice_subject_ok(const struct wire_event *ev)
{
	const bool named = ev->notice_scope == WIRE_NOTICE_METHOD || ev->notice_scope == WIRE_NOTICE_CLASS;

	if (ev->notice_scope == WIRE_NOTICE_GENERAL)
		return !ev->kind && !ev->events && !ev->method.len;
	if (ev->notice_scope > WIRE_NOTICE_LAST_SCOPE || !ev->events ||
	    (ev->events & ~wire_kind_event_bits(ev->kind)) || named != (ev->method.len > 0))
		return false;
	return !named || ev->kind == WIRE_KIND_METHOD;
}

static void wire_put_notice_subject(struct wire_writer *w, const struct wire_event *ev)
{
	if (!wire_notice_subject_ok(ev))
		w->invalid = true;
	wire_put_u8(w, ev->notice_scope);
	wire_put_u8(w, ev->kind);
	wire_put_u8(w, ev->events);
	wire_put_string(w, &ev->method);
}

/* One field of an event's payload (enum event_field) from its place in EV;
 * a value the field cannot carry makes the writer invalid. */
static void wire_put_field(struct wire_writer *w, uint32_t caps, uint8_t field, const struct wire_event *ev)
{
	switch (field) {
	case EF_METHOD_NAME:
	case EF_CLASS_NAME:
	case EF_EXCEPTION_NAME:
	case EF_THREAD_NAME:
	case EF_NOTICE_TEXT:
	case EF_MATCHED_NAME:
		wire_put_string(w, &ev->name);
		break;
	case EF_SITE_METHOD:
	case EF_ROOT_CLASS:
		wire_put_string(w, &ev->method);
		break;
	case EF_THREAD:
		wire_put_u64(w, ev->thread);
		break;
	case EF_THREAD_U32:
		if (ev->thread > UINT32_MAX)
			w->invalid = true;
		wire_put_u32(w, (uint32_t)ev->thread);
		break;
	case EF_OBJECT:
		wire_put_u64(w, ev->object);
		break;
	case EF_CODE_SIZE:
	case EF_TIMEOUT_MS:
	case EF_TOTAL:
		wire_put_u32(w, ev->u32);
		break;
	case EF_METHOD_ID:
		wire_put_u32(w, ev->method_id);
		break;
	case EF_VALUES:
		wire_put_values(w, ev);
		break;
	case EF_POPPED:
		wire_put_bool(w, ev->popped);
		break;
	case EF_RETVAL:
		wire_put_value(w, &ev->retval);
		break;
	case EF_RETVAL_TYPE:
		if (ev->retval.type != WIRE_T_NONE && ev->retval.type != WIRE_T_VOID)
			w->invalid = true;
		wire_put_u8(w, ev->retval.type);
		break;
	case EF_LOST:
		wire_put_u64(w, ev->lost);
		break;
	case EF_KIND:
		if (ev->kind < WIRE_KIND_METHOD || ev->kind > WIRE_KIND_EXCEPTION)
			w->invalid = true;
		wire_put_u8(w, ev->kind);
		break;
	case EF_JFR_FLAGS:
		if ((ev->jfr_flags & ~WIRE_JFR_FLAGS_ALL) ||
		    ((ev->jfr_flags & WIRE_JFR_NONE) && (ev->jfr_flags != WIRE_JFR_NONE || ev->name.len)))
			w->invalid = true;
		wire_put_u8(w, ev->jfr_flags);
		break;
	case EF_JFR_BYTES:
		wire_put_string(w, &ev->name);
		break;
	case EF_HELLO:
		wire_put_event_hello(w, &ev->hello);
		break;
	case EF_JAVA_THREAD_ID:
		if (caps & WIRE_CAP_JAVA_THREAD_ID)
			wire_put_u64(w, ev->java_tid);
		break;
	case EF_NOTICE_SUBJECT:
		if (caps & WIRE_CAP_NOTICE_SUBJECT)
			wire_put_notice_subject(w, ev);
		break;
	default:
		w->invalid = true;
		break;
	}
}

int wire_encode_event_at(struct wire_buf *b, const struct wire_peer *peer, const struct wire_event *ev,
			 size_t *trailer_at)
{
	const struct event_desc *d = events_get(ev->code);
	uint32_t caps = peer ? peer->caps : 0;
	struct wire_writer w;

	*trailer_at = 0;
	if (!wire_writer_start(&w, b) || !d || (d->caps & ~caps))
		return -EINVAL;
	wire_put_u8(&w, (uint8_t)ev->code);
	for (const uint8_t *f = d->fields; *f != EF_END; f++)
		wire_put_field(&w, caps, *f, ev);
	if (ev->code != WIRE_EV_HELLO && (caps & WIRE_CAP_TRAILER)) {
		/* a negotiated stream carries a trailer on every event */
		if (!ev->has_trailer)
			return -EINVAL;
		*trailer_at = w.pos;
		wire_put_trailer(&w, caps, &ev->trailer);
	}
	return wire_writer_finish(&w, b);
}

int wire_encode_event(struct wire_buf *b, const struct wire_peer *peer, const struct wire_event *ev)
{
	size_t at;

	return wire_encode_event_at(b, peer, ev, &at);
}

/* ------------------------------------------------------------- commands */

static bool wire_register_ok(uint8_t kind, uint8_t events)
{
	uint8_t allowed = wire_kind_event_bits(kind);

	return allowed && events != 0 && !(events & ~allowed);
}

/* A pattern the agent would read as a bridge Hello cannot be sent as one. */
static bool wire_pattern_is_hello(const struct wire_str *s)
{
	return s->len >= WIRE_BRIDGE_HELLO_PREFIX_LEN && s->ptr &&
	       memcmp(s->ptr, WIRE_BRIDGE_HELLO_PREFIX, WIRE_BRIDGE_HELLO_PREFIX_LEN) == 0;
}

/* The count of NULs in S: the decoder takes only as many as announced. */
static uint32_t wire_nuls(const struct wire_str *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; s->ptr && i < s->len; i++)
		n += s->ptr[i] == '\0';
	return n;
}

static void wire_put_jfr_event(struct wire_writer *w, const struct wire_jfr_event *j)
{
	if (wire_nuls(&j->fields) != 2u * j->nfields || wire_nuls(&j->stack) != j->depth ||
	    (j->nfields && j->fields.ptr[j->fields.len - 1]) || (j->depth && j->stack.ptr[j->stack.len - 1]))
		w->invalid = true;
	wire_put_u8(w, WIRE_CMD_JFR_EVENT);
	wire_put_u64(w, j->slots);
	wire_put_u64(w, j->tid);
	wire_put_u64(w, (uint64_t)j->start_ns);
	wire_put_u64(w, (uint64_t)j->duration_ns);
	wire_put_string(w, &j->type);
	wire_put_string(w, &j->thread_name);
	wire_put_u16(w, j->nfields);
	wire_put_string(w, &j->fields);
	wire_put_u16(w, j->depth);
	wire_put_string(w, &j->stack);
}

static void wire_put_command_body(struct wire_writer *w, const struct wire_command *cmd)
{
	switch (cmd->code) {
	case WIRE_CMD_REGISTER_METHOD:
		if (wire_pattern_is_hello(&cmd->pattern))
			w->invalid = true;
		/* fall through */
	case WIRE_CMD_REGISTER_CLASS:
	case WIRE_CMD_REGISTER_EXCEPTION:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_string(w, &cmd->pattern);
		break;
	case WIRE_CMD_GC_EVENTS:
	case WIRE_CMD_THREAD_EVENTS:
	case WIRE_CMD_MONITOR_EVENTS:
	case WIRE_CMD_VM_EVENTS:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_bool(w, cmd->enable);
		break;
	case WIRE_CMD_OPTIONAL_DATA:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u32(w, cmd->mask);
		break;
	case WIRE_CMD_REGISTER:
		if (!wire_register_ok(cmd->kind, cmd->events))
			w->invalid = true;
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u8(w, cmd->kind);
		wire_put_u8(w, cmd->events);
		wire_put_string(w, &cmd->pattern);
		break;
	case WIRE_CMD_REGISTER_SLOT:
		if (!wire_register_ok(cmd->kind, cmd->events) || cmd->slot >= WIRE_MAX_SLOTS)
			w->invalid = true;
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u8(w, cmd->kind);
		wire_put_u8(w, cmd->events);
		wire_put_u16(w, cmd->slot);
		wire_put_string(w, &cmd->pattern);
		break;
	case WIRE_CMD_FIRE_IN_THREAD:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u32(w, cmd->session);
		break;
	case WIRE_CMD_UNREGISTER:
	case WIRE_CMD_LIST_MATCHES:
		if (cmd->kind < WIRE_KIND_METHOD || cmd->kind > WIRE_KIND_EXCEPTION)
			w->invalid = true;
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u8(w, cmd->kind);
		wire_put_string(w, &cmd->pattern);
		break;
	case WIRE_CMD_RESET:
	case WIRE_CMD_START:
		wire_put_u8(w, (uint8_t)cmd->code);
		break;
	case WIRE_CMD_JFR_SETTINGS:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_string(w, &cmd->pattern);
		break;
	case WIRE_CMD_JFR_EVENT:
		wire_put_jfr_event(w, &cmd->jfr);
		break;
	case WIRE_CMD_DISPATCH_MODE:
		if (cmd->mode != WIRE_DISPATCH_ASYNC && cmd->mode != WIRE_DISPATCH_SYNC)
			w->invalid = true;
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u8(w, cmd->mode);
		wire_put_u32(w, cmd->timeout_us);
		break;
	case WIRE_CMD_ACK:
		wire_put_u8(w, (uint8_t)cmd->code);
		wire_put_u64(w, cmd->seq);
		break;
	case WIRE_CMD_HELLO:
		wire_put_bridge_hello(w, &cmd->hello);
		break;
	default:
		w->invalid = true;
		break;
	}
}

int wire_encode_command(struct wire_buf *b, const struct wire_command *cmd)
{
	struct wire_writer w;

	if (!wire_writer_start(&w, b))
		return -EINVAL;
	wire_put_command_body(&w, cmd);
	return wire_writer_finish(&w, b);
}
