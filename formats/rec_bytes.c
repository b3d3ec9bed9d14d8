/* rec_bytes.c: see rec_bytes.h. */
#include "rec_bytes.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

int rec_cursor_fail(struct rec_cursor *c, size_t offset, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->failed)
		return -EINVAL;
	c->failed = true;
	c->err->offset = offset;
	n = snprintf(c->err->text, sizeof c->err->text, "%s (at %zu): ", c->record ? c->record : "file",
		     c->record_at);
	if (n < 0 || (size_t)n >= sizeof c->err->text)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err->text + n, sizeof c->err->text - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const uint8_t *rec_take(struct rec_cursor *c, size_t n, const char *field)
{
	const uint8_t *p;

	if (c->failed)
		return NULL;
	if (n > c->end - c->pos) {
		if (c->end < c->len)
			rec_cursor_fail(c, c->pos, "%s runs past the record's end at %zu", field, c->end);
		else
			rec_cursor_fail(c, c->pos, "%s runs past the end of the file (%zu bytes)", field, c->len);
		return NULL;
	}
	p = c->data + c->pos;
	c->pos += n;
	return p;
}

struct wire_event *rec_event_reset(struct wire_event *ev, unsigned code)
{
	/* the values and the trailer's frames are large and unused: left as they are */
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->code = code;
	ev->retval = (struct wire_value){ .type = WIRE_T_NONE };
	ev->has_trailer = false;
	return ev;
}

int rec_hand_back(record_event_fn fn, void *ctx, uint32_t pid, uint64_t tid, uint64_t ts_ns,
		  struct wire_str name, const struct wire_event *ev)
{
	struct print_meta meta = { .pid = pid, .tid = tid, .ts_ns = ts_ns };

	if (name.len && (ev->code == WIRE_EV_THREAD_START || ev->code == WIRE_EV_THREAD_END)) {
		meta.thread_name = name.ptr;
		meta.thread_name_len = name.len;
	}
	return fn(ctx, &meta, ev);
}
