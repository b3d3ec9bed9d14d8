/* tbuf.h: each thread's own buffer of asynchronous events, merged by one
 * drainer in timestamp order.
 *
 * Contract: a thread that reports an event for an asynchronous connection
 * writes the encoded message into its own ring (ring.h), taken on its first
 * event and given back at its exit (a pthread key): no lock, no system call,
 * no allocation after the first event. The message carries the connection's
 * slot and serial, the raw timestamp it is merged by, and where its trailer
 * is (its seq and timestamp are filled in by whoever takes it, who numbers
 * the stream). A full buffer is the caller's to handle: take its own buffer
 * at once (tbuf_drain_mine: the only time the thread takes a lock, shared
 * with the drainer alone) and try again, or count the drop (tbuf_drop, per
 * buffer and connection slot, with the slot's serial: a slot reopened by
 * another connection starts from zero).
 *
 * One thread drains (the agent's I/O thread): tbuf_drain() hands every
 * record written before the call to SINK in timestamp order across threads
 * (a thread's own records stay in its order), and the drops to LOST where
 * they happened. A buffer whose thread has exited is given to a new thread
 * once drained. Buffers are never freed while the process lives.
 */
#ifndef STAPJAVA_AGENT_TBUF_H
#define STAPJAVA_AGENT_TBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TBUF_SLOTS 16u               /* connection slots with a drop count each */

struct tbuf;

/* What a record says besides its message. */
struct tbuf_meta {
	uint64_t ts;          /* raw timestamp (clock.h): the merge key */
	uint32_t serial;      /* the connection's serial when the event was made */
	uint32_t trailer_at;  /* offset of the message's trailer, 0: none */
	uint8_t slot;         /* < TBUF_SLOTS */
	uint8_t form;         /* what the message's bytes are, between the producer and
			       * whoever takes them (0: an encoded message; plainev.h) */
	uint32_t drops;       /* set by tbuf_put: the slot's drops (this serial) before it */
};

/* Once, before any thread writes: each buffer's size in bytes, a power of two
 * (rounded up) from 4 KiB to 256 MiB. */
int tbuf_init(size_t bytes);
/* The calling thread's buffer; NULL when there is no memory for it.
 * Inline after the thread's first event (the event path's call). */
extern __thread __attribute__((tls_model("initial-exec"))) struct tbuf *tbuf_mine_cached;
struct tbuf *tbuf_mine_first(void);   /* tbuf_mine() while the thread has none yet */
static inline struct tbuf *tbuf_mine(void)
{
	struct tbuf *t = tbuf_mine_cached;

	return t ? t : tbuf_mine_first();
}

/* Writes the message into BUF (at most CAP bytes): 0 and *LEN, or -ENOSPC
 * (nothing counted: tbuf_put retries with more room or counts the drop), or
 * another -errno (nothing written, nothing counted). */
typedef int (*tbuf_encode_fn)(void *ctx, uint8_t *buf, size_t cap, size_t *len, size_t *trailer_at);

/* Producer (the owning thread): put one message made by ENCODE. 0; -ENOSPC
 * when it does not fit (nothing counted); another -errno from ENCODE.
 * *FILLING: more than a quarter of the buffer is in use (the drainer should
 * come soon). */
int tbuf_put(struct tbuf *t, const struct tbuf_meta *meta, tbuf_encode_fn encode, void *ctx,
	     bool *filling);
/* Producer: the same for a message of LEN bytes (a multiple of 8, at most
 * TBUF_SMALL_MAX; else -EINVAL) already made, copied from MSG: the common case (a plain event, plainev.h)
 * without the call to an encoder and the retries of the general one. */
#define TBUF_SMALL_MAX 32u
int tbuf_put_small(struct tbuf *t, const struct tbuf_meta *meta, const void *msg, size_t len, bool *filling);
/* Producer: one event for SLOT (while it carried SERIAL) did not fit. */
void tbuf_drop(struct tbuf *t, unsigned slot, uint32_t serial);

/* A record as the drainer sees it: MSG (LEN bytes) lives until SINK returns. */
struct tbuf_rec {
	struct tbuf_meta meta;
	uint8_t *msg;
	size_t len;
};
typedef void (*tbuf_sink_fn)(void *ctx, struct tbuf_rec *r);
/* N events dropped for SLOT while it carried SERIAL, since the last report. */
typedef void (*tbuf_lost_fn)(void *ctx, unsigned slot, uint32_t serial, uint64_t n);

/* The drainer (one thread): everything written before the call, merged.
 * A thread's drops reach LOST where they happened in its stream: before the
 * first record of the same slot written after them, or after everything
 * handed to SINK. Returns the records handed to SINK. */
size_t tbuf_drain(tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx);
/* The owning thread, its buffer full: take its own records now, in its
 * order, as the drainer would (waiting while the drainer takes them).
 * Returns the records handed to SINK. */
size_t tbuf_drain_mine(struct tbuf *t, tbuf_sink_fn sink, tbuf_lost_fn lost, void *ctx);
/* The drainer: is anything written and not drained yet? */
bool tbuf_pending(void);

#endif
