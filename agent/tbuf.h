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
#include <pthread.h>

#include "ring.h"

#define TBUF_SLOTS 16u               /* connection slots with a drop count each */

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
#define TBUF_META sizeof(struct tbuf_meta)   /* before each message in the ring */

/* A record as the drainer sees it: MSG (LEN bytes) lives until SINK returns. */
struct tbuf_rec {
	struct tbuf_meta meta;
	uint8_t *msg;
	size_t len;
};

/* A thread's buffer. Its fields are tbuf.c's: they are here only so that the
 * owner's common put (tbuf_put_small) is inline in the event path: as a
 * call, with its spills and the general case's checks, it took 65
 * instructions an event, 54 inline (callgrind, bench row 9i). */
struct tbuf {
	struct ring ring;
	/* Whoever takes the records holds it: the drainer (trylock: a buffer
	 * being taken by its own thread waits for the next drain) or the owning
	 * thread itself when its buffer is full (tbuf_drain_mine). */
	pthread_mutex_t take_lock;
	struct tbuf *next;               /* the pool's list; never unlinked */
	int state;                       /* enum tbuf_state (atomic) */
	/* producer: per slot, serial << 32 | drops (mod 2^32). Read by each
	 * event once the buffer has drops (tbuf_mine_dropped): on lines of
	 * their own, away from take_lock and the drainer's fields, which the
	 * drainer writes every round. */
	uint64_t dropped[TBUF_SLOTS] __attribute__((aligned(64)));
	/* drainer only */
	uint64_t reported[TBUF_SLOTS] __attribute__((aligned(64)));   /* the dropped[] words already reported */
	int drain_state;                 /* state when this drain began */
	uint64_t limit;                  /* the tail when this drain began */
	struct tbuf_rec cur;             /* the record at its head, if any */
};

/* Once, before any thread writes: each buffer's size in bytes, a power of two
 * (rounded up) from 4 KiB to 256 MiB. */
int tbuf_init(size_t bytes);
/* The calling thread's buffer; NULL when there is no memory for it.
 * Inline after the thread's first event (the event path's call). */
extern __thread __attribute__((tls_model("initial-exec"))) struct tbuf *tbuf_mine_cached;
/* Has the calling thread's buffer any drop count (tbuf_drop, or its last
 * owner's)? Until it has, a put does not read dropped[]: that load missed
 * the cache at nearly every event, where this thread-local flag does not. */
extern __thread __attribute__((tls_model("initial-exec"))) bool tbuf_mine_dropped;
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
static inline int tbuf_put_small(struct tbuf *t, const struct tbuf_meta *meta, const void *msg, size_t len,
				 bool *filling);
/* tbuf_put_small where its inline part does not do it all. */
int tbuf_put_small_slow(struct tbuf *t, const struct tbuf_meta *meta, const void *msg, size_t len,
			bool *filling);
/* Producer: one event for SLOT (while it carried SERIAL) did not fit. */
void tbuf_drop(struct tbuf *t, unsigned slot, uint32_t serial);

/* META's fields at P with the record's trailer offset AT and DROPS, field
 * by field, straight into the buffer (8-aligned): a copy on the stack,
 * patched, then read back whole could not take the patched fields from
 * the pending stores (a failed store forward), and so waited at every
 * event for every older store to be done, those still claiming their
 * buffer lines from the I/O thread's core too (perf: most of tbuf_put's
 * time). */
static inline void tbuf_write_meta(uint8_t *p, const struct tbuf_meta *meta, size_t at, uint32_t drops)
{
	struct tbuf_meta *m = (struct tbuf_meta *)(void *)p;

	m->ts = meta->ts;
	m->serial = meta->serial;
	m->trailer_at = (uint32_t)at;
	m->slot = meta->slot;
	m->form = meta->form;
	m->drops = drops;
}

static inline int tbuf_put_small(struct tbuf *t, const struct tbuf_meta *meta, const void *msg, size_t len,
				 bool *filling)
{
	struct ring *r = &t->ring;
	uint8_t *p;

	/* the owner of a buffer without drops, in the room it last saw: all
	 * that tbuf_put does then, and no more */
	if (len > TBUF_SMALL_MAX || len % 8 || meta->slot >= TBUF_SLOTS || t != tbuf_mine_cached ||
	    tbuf_mine_dropped || !(p = ring_reserve(r, TBUF_META + len)))
		return tbuf_put_small_slow(t, meta, msg, len, filling);
	tbuf_write_meta(p, meta, 0, 0);
	for (size_t i = 0; i < len; i += 8) {   /* words: no call to memcpy */
		uint64_t w;
		__builtin_memcpy(&w, (const uint8_t *)msg + i, 8);
		__builtin_memcpy(p + TBUF_META + i, &w, 8);
	}
	ring_commit(r, TBUF_META + len);
	*filling = ring_filling(r);
	return 0;
}

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
