/* ring.h: a single-producer, single-consumer ring of variable-size records.
 *
 * Contract: one thread writes (ring_room, then ring_commit or ring_pad),
 * one other thread reads (ring_peek, then ring_release); no lock, no system
 * call, no allocation after ring_init. A record is contiguous in memory: when
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
	uint64_t head __attribute__((aligned(64)));  /* consumer: next byte to read (release) */
	uint64_t next;               /* consumer only: where the peeked record ends */
};

/* DATA of SIZE bytes (a power of two, >= 64). -EINVAL otherwise. */
int ring_init(struct ring *r, void *data, size_t size);

/* Producer: where the next record's body goes and how many bytes fit there
 * (*CAP, 0: none). The consumer's position is read again only when the room
 * last seen is under WANT bytes (so most records touch no line the consumer
 * writes). *AT_END is true when that room ends at the buffer's end, so
 * ring_pad may make more room at the start. */
uint8_t *ring_room(struct ring *r, size_t want, size_t *cap, bool *at_end);
/* Producer: publish the LEN bytes written at ring_room()'s pointer. */
void ring_commit(struct ring *r, size_t len);
/* Producer: skip to the buffer's start (a pad record fills the end); false
 * when the consumer has not read the end yet. */
bool ring_pad(struct ring *r);

/* Consumer: the next record written before position LIMIT (a tail read by
 * ring_tail), or NULL. *LEN its length. Pads are skipped. */
const uint8_t *ring_peek(struct ring *r, uint64_t limit, size_t *len);
/* Consumer: done with the record ring_peek returned. */
void ring_release(struct ring *r);
/* Consumer: the producer's position now (acquire): records before it are complete. */
uint64_t ring_tail(const struct ring *r);
/* Producer: is more than a quarter of the ring in use? (The consumer's
 * position is read again only when the last one seen says so.) */
bool ring_filling(struct ring *r);
/* Either side: bytes in use (a snapshot). */
size_t ring_used(const struct ring *r);

#endif
