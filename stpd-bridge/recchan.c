/* recchan.c: see recchan.h. */
#include "recchan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* u32 length, u8 kind */
#define HEAD 5u
/* pid, tid, ts, owner, Java tid, name length */
#define EVENT_FIXED (4u + 8u + 8u + 8u + 8u + 4u)
#define DROPPED_BODY (4u + 8u + 8u)

/* Every capability: whatever a worker decoded can be encoded again. */
static const struct wire_peer with_trailer = { .hello = true, .caps = WIRE_CAP_ALL };
static const struct wire_peer without_trailer = { .hello = true,
						  .caps = WIRE_CAP_ALL & ~(uint32_t)WIRE_CAP_TRAILER };

static uint8_t *put(uint8_t *p, const void *v, size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

static void put_head(uint8_t *p, size_t body, uint8_t kind)
{
	uint32_t n = (uint32_t)(body + 1);

	memcpy(p, &n, 4);
	p[4] = kind;
}

int recchan_put_event(uint8_t *buf, size_t cap, size_t *len, const struct print_meta *meta,
		      const struct wire_event *ev)
{
	uint32_t pid = meta->pid, name_len = meta->thread_name ? (uint32_t)meta->thread_name_len : 0;
	size_t at = *len;
	uint8_t *p;

	if (name_len > WIRE_MAX_STRING)
		return -EINVAL;
	if (cap - at < HEAD + EVENT_FIXED + name_len + 1)
		return -ENOSPC;
	p = buf + at + HEAD;
	p = put(p, &pid, 4);
	p = put(p, &meta->tid, 8);
	p = put(p, &meta->ts_ns, 8);
	p = put(p, &meta->owner_tid, 8);
	p = put(p, &meta->java_tid, 8);
	p = put(p, &name_len, 4);
	if (name_len)
		p = put(p, meta->thread_name, name_len);
	*p++ = ev->has_trailer;

	struct wire_buf wb = { .data = p, .cap = (size_t)(buf + cap - p), .len = 0 };
	int rc = wire_encode_event(&wb, ev->has_trailer ? &with_trailer : &without_trailer, ev);

	if (rc < 0)
		return rc;
	put_head(buf + at, (size_t)(p - (buf + at + HEAD)) + wb.len, RECCHAN_EVENT);
	*len = (size_t)(p - buf) + wb.len;
	return 0;
}

int recchan_put_dropped(uint8_t *buf, size_t cap, size_t *len, uint32_t pid, uint64_t ts_ns,
			uint64_t count)
{
	uint8_t *p;

	if (cap - *len < HEAD + DROPPED_BODY)
		return -ENOSPC;
	put_head(buf + *len, DROPPED_BODY, RECCHAN_DROPPED);
	p = buf + *len + HEAD;
	p = put(p, &pid, 4);
	p = put(p, &ts_ns, 8);
	put(p, &count, 8);
	*len += HEAD + DROPPED_BODY;
	return 0;
}

static int bad(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static int decode_event(const uint8_t *p, size_t n, size_t base, struct recchan_record *r,
			struct wire_event *ev, char *why, size_t whylen)
{
	uint32_t pid, name_len;
	size_t used;
	struct wire_error err = { 0 };

	if (n < EVENT_FIXED + 1)
		return bad(why, whylen, "record channel: event record at offset %zu: %zu bytes, too short",
			   base, n);
	memcpy(&pid, p, 4);
	memcpy(&r->meta.tid, p + 4, 8);
	memcpy(&r->meta.ts_ns, p + 12, 8);
	memcpy(&r->meta.owner_tid, p + 20, 8);
	memcpy(&r->meta.java_tid, p + 28, 8);
	memcpy(&name_len, p + 36, 4);
	r->meta.pid = pid;
	if (name_len > WIRE_MAX_STRING || name_len > n - EVENT_FIXED - 1)
		return bad(why, whylen, "record channel: thread name length at offset %zu: %u is too long",
			   base + 36, name_len);
	r->meta.thread_name = name_len ? (const char *)p + EVENT_FIXED : NULL;
	r->meta.thread_name_len = name_len;
	p += EVENT_FIXED + name_len;
	n -= EVENT_FIXED + name_len;
	base += EVENT_FIXED + name_len;
	if (p[0] > 1)
		return bad(why, whylen, "record channel: trailer flag at offset %zu: %u is not 0 or 1",
			   base, p[0]);
	int rc = wire_decode_event(p[0] ? &with_trailer : &without_trailer, p + 1, n - 1, ev, &used, &err);
	if (rc == 0 && used != n - 1)
		return bad(why, whylen, "record channel: event at offset %zu: %zu bytes follow it in its record",
			   base + 1, n - 1 - used);
	if (rc < 0) {
		snprintf(why, whylen, "record channel: event at offset %zu: %s", base + 1,
			 rc == -EAGAIN ? "cut short" : err.text);
		return -EBADMSG;
	}
	if (ev->code == WIRE_EV_HELLO)
		return bad(why, whylen, "record channel: event at offset %zu: a Hello is no event to record",
			   base + 1);
	return 0;
}

int recchan_decode(const uint8_t *buf, size_t len, struct recchan_record *r, struct wire_event *ev,
		   size_t *used, char *why, size_t whylen)
{
	uint32_t n;

	memset(r, 0, sizeof *r);
	if (len < HEAD)
		return bad(why, whylen, "record channel: record at offset 0: %zu bytes, too short", len);
	memcpy(&n, buf, 4);
	if (n < 1 || n > len - 4 || n > RECCHAN_MAX_RECORD)
		return bad(why, whylen, "record channel: record length at offset 0: %u does not fit", n);
	r->kind = buf[4];
	*used = 4 + (size_t)n;
	if (r->kind == RECCHAN_EVENT)
		return decode_event(buf + HEAD, n - 1, HEAD, r, ev, why, whylen);
	if (r->kind != RECCHAN_DROPPED)
		return bad(why, whylen, "record channel: record kind at offset 4: %u is unknown", r->kind);
	if (n - 1 != DROPPED_BODY)
		return bad(why, whylen, "record channel: dropped record at offset %u: %u bytes, not %u",
			   HEAD, n - 1, DROPPED_BODY);
	memcpy(&r->meta.pid, buf + HEAD, 4);
	memcpy(&r->meta.ts_ns, buf + HEAD + 4, 8);
	memcpy(&r->count, buf + HEAD + 12, 8);
	return 0;
}
