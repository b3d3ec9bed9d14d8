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

const uint8_t *ring_peek(struct ring *r, uint64_t limit, size_t *len)
{
	uint64_t pos = r->head;   /* ours */
	struct ring_hdr h;

	while (pos < limit) {
		memcpy(&h, r->data + (pos & (r->size - 1)), HDR);
		if (h.pad) {
			pos += HDR + h.len;
			continue;
		}
		r->next = pos + HDR + ring_align8(h.len);
		*len = h.len;
		if (pos != r->head)   /* give the pads back at once */
			__atomic_store_n(&r->head, pos, __ATOMIC_RELEASE);
		return r->data + (pos & (r->size - 1)) + HDR;
	}
	if (pos != r->head)
		__atomic_store_n(&r->head, pos, __ATOMIC_RELEASE);
	return NULL;
}

void ring_release(struct ring *r)
{
	__atomic_store_n(&r->head, r->next, __ATOMIC_RELEASE);
}

size_t ring_used(const struct ring *r)
{
	return (size_t)(__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) -
			__atomic_load_n(&r->head, __ATOMIC_ACQUIRE));
}
