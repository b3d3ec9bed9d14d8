/* ring.c: see ring.h. */
#include "ring.h"

#include <errno.h>
#include <string.h>

#define HDR sizeof(struct ring_hdr)

int ring_init(struct ring *r, void *data, size_t size)
{
	if (!data || size < 64 || (size & (size - 1)))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->data = data;
	r->size = size;
	r->publish_batch = size / 8 < RING_PUBLISH_BYTES ? size / 8 : RING_PUBLISH_BYTES;
	return 0;
}

uint8_t *ring_room(struct ring *r, size_t want, size_t *cap, bool *at_end)
{
	uint64_t tail = r->tail;   /* ours */
	uint64_t idx = tail & (r->size - 1), to_end = r->size - idx;
	uint64_t free = r->size - (tail - r->head_seen);

	if (free < want + HDR && free < to_end) {
		r->head_seen = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		free = r->size - (tail - r->head_seen);
	}
	uint64_t contig = free < to_end ? free : to_end;
	*at_end = contig == to_end;
	*cap = contig >= HDR ? (size_t)(contig - HDR) : 0;
	return r->data + idx + HDR;
}

bool ring_pad(struct ring *r)
{
	uint64_t tail = r->tail, idx = tail & (r->size - 1), to_end = r->size - idx;

	if (r->size - (tail - r->head_seen) < to_end) {
		r->head_seen = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		if (r->size - (tail - r->head_seen) < to_end)
			return false;
	}
	struct ring_hdr h = { .len = (uint32_t)(to_end - HDR), .pad = 1 };
	memcpy(r->data + idx, &h, HDR);
	__atomic_store_n(&r->tail, tail + to_end, __ATOMIC_RELEASE);
	return true;
}

uint64_t ring_tail(const struct ring *r)
{
	return __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
}

/* The consumer has read up to POS: given back once a batch is ahead. */
static void read_to(struct ring *r, uint64_t pos)
{
	r->read = pos;
	if (pos - r->head >= r->publish_batch)
		__atomic_store_n(&r->head, pos, __ATOMIC_RELEASE);
}

const uint8_t *ring_peek(struct ring *r, uint64_t limit, size_t *len)
{
	uint64_t pos = r->read;
	struct ring_hdr h;

	while (pos < limit) {
		memcpy(&h, r->data + (pos & (r->size - 1)), HDR);
		if (h.pad) {
			pos += HDR + h.len;
			continue;
		}
		if (pos != r->read)
			read_to(r, pos);
		r->next = pos + HDR + ring_align8(h.len);
		*len = h.len;
		return r->data + (pos & (r->size - 1)) + HDR;
	}
	if (pos != r->read)
		read_to(r, pos);
	return NULL;
}

void ring_release(struct ring *r)
{
	read_to(r, r->next);
}

void ring_publish(struct ring *r)
{
	if (r->head != r->read)
		__atomic_store_n(&r->head, r->read, __ATOMIC_RELEASE);
}

size_t ring_used(const struct ring *r)
{
	return (size_t)(__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) -
			__atomic_load_n(&r->head, __ATOMIC_ACQUIRE));
}
