/* ring.h: a single-producer, single-consumer ring of variable-size records.
 *
 * Contract: one thread writes (ring_reserve or ring_room, then ring_commit
 * or ring_pad),
 * one other thread reads (ring_peek, then ring_release, and ring_publish
 * when it stops reading); no lock, no system call, no allocation after
 * ring_init. The room the reader made is given back to the writer a batch
 * at a time (RING_PUBLISH_BYTES) and at ring_publish, not at each record.
 * A record is contiguous in memory: when
 * the room left before the buffer's end is too small, the producer pads to
 * the end (ring_pad) and writes at the start. Positions are 64-bit counters
 * that never wrap in practice; the byte size is a power of two. What does not
 * fit is the caller's to count (ring.h only says "no room").
 */
#ifndef STAPJAVA_AGENT_RING_H
#define STAPJAVA_AGENT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes ahead of the producer's position that ring_commit claims for writing. */
#ifndef RING_WRITE_AHEAD
#define RING_WRITE_AHEAD 512u
#endif

static inline void ring_prefetch_for_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
	/* a no-op on the x86 cores without it; __builtin_prefetch would emit
	 * prefetcht0 (a read) unless the build targets such a core */
	__asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
#else
	__builtin_prefetch(p, 1, 3);
#endif
}

/* Every record starts on an 8-byte boundary with this header. */
struct ring_hdr {
	uint32_t len;    /* bytes after the header */
	uint32_t pad;    /* 1: a pad to the buffer's end, not a record */
};

/* The producer's and the consumer's positions on lines of their own: a
 * shared line would move between the two cores at every record. Allocate a
 * ring with its alignment (aligned_alloc). */
struct ring {
	uint8_t *data;
	uint64_t size;               /* a power of two, >= 64 */
	uint64_t tail __attribute__((aligned(64)));  /* producer: next byte to write (release) */
	uint64_t head_seen;          /* producer only: its last read of head */
	/* consumer: what it has given back (release); the producer may write
	 * before it. Stored a batch at a time: stored at each record, the line
	 * moved to the consumer's core at each record and back to the
	 * producer's at its next check of the room (perf, row 4r: half of the
	 * producer's put was that load) */
	uint64_t head __attribute__((aligned(64)));
	uint64_t publish_batch;      /* head is stored when read is this far ahead */
	uint64_t read __attribute__((aligned(64)));  /* consumer only: next byte to read */
	uint64_t next;               /* consumer only: where the peeked record ends */
};

/* At most this many bytes read and not given back between two ring_publish
 * calls (an eighth of a smaller ring). */
#ifndef RING_PUBLISH_BYTES
#define RING_PUBLISH_BYTES 4096u
#endif

/* DATA of SIZE bytes (a power of two, >= 64). -EINVAL otherwise. */
int ring_init(struct ring *r, void *data, size_t size);

/* Producer: where the next record's body goes and how many bytes fit there
 * (*CAP, 0: none). The consumer's position is read again only when the room
 * last seen is under WANT bytes (so most records touch no line the consumer
 * writes). *AT_END is true when that room ends at the buffer's end, so
 * ring_pad may make more room at the start. */
uint8_t *ring_room(struct ring *r, size_t want, size_t *cap, bool *at_end);

/* The producer's common case is inline: a record is a few dozen
 * instructions of an event's path on a Java thread, where a call, its
 * spills and the general case's branches were as many again. */
static inline uint64_t ring_align8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/* Producer: where a record of LEN bytes goes when the room last seen holds
 * it before the buffer's end, without reading the consumer's position; NULL
 * otherwise (ring_room then decides). */
static inline uint8_t *ring_reserve(struct ring *r, size_t len)
{
	uint64_t tail = r->tail, idx = tail & (r->size - 1);
	uint64_t need = sizeof(struct ring_hdr) + ring_align8(len);

	if (r->size - (tail - r->head_seen) < need || r->size - idx < need)
		return NULL;
	return r->data + idx + sizeof(struct ring_hdr);
}

/* Producer: publish the LEN bytes written at ring_room()'s or
 * ring_reserve()'s pointer. The line a few records ahead is asked for
 * now, for writing: the consumer's core read it last, and claiming it
 * back when the first store reaches it stalled the producer at every
 * line. */
static inline void ring_commit(struct ring *r, size_t len)
{
	struct ring_hdr h = { .len = (uint32_t)len, .pad = 0 };
	/* read once, before the header's bytes are stored: those may alias
	 * anything, and every field would be loaded again after them */
	uint8_t *const data = r->data;
	const uint64_t mask = r->size - 1, tail = r->tail;
	const uint64_t next = tail + sizeof(struct ring_hdr) + ring_align8(len);

	__builtin_memcpy(data + (tail & mask), &h, sizeof(h));
	__atomic_store_n(&r->tail, next, __ATOMIC_RELEASE);
	if (RING_WRITE_AHEAD)
		ring_prefetch_for_write(data + ((next + RING_WRITE_AHEAD) & mask));
}
/* Producer: skip to the buffer's start (a pad record fills the end); false
 * when the consumer has not read the end yet. */
bool ring_pad(struct ring *r);

/* Consumer: the next record written before position LIMIT (a tail read by
 * ring_tail), or NULL. *LEN its length. Pads are skipped. */
const uint8_t *ring_peek(struct ring *r, uint64_t limit, size_t *len);
/* Consumer: done with the record ring_peek returned. Its room goes back
 * to the producer with its batch. */
void ring_release(struct ring *r);
/* Consumer: give back every record released so far (when it stops reading:
 * the producer waits for no batch that is not coming). */
void ring_publish(struct ring *r);
/* Consumer: the producer's position now (acquire): records before it are complete. */
uint64_t ring_tail(const struct ring *r);
/* Producer: is more than a quarter of the ring in use? (The consumer's
 * position is read again only when the last one seen says so.) */
static inline bool ring_filling(struct ring *r)
{
	if (r->tail - r->head_seen <= r->size / 4)
		return false;
	r->head_seen = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	return r->tail - r->head_seen > r->size / 4;
}
/* Either side: bytes in use, what is read and not given back included (a snapshot). */
size_t ring_used(const struct ring *r);

#endif
