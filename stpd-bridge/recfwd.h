/* recfwd.h: a worker's side of --record: the events it handles, as records
 * (recchan.h) for the recorder (recorder.h).
 *
 * Contract: recfwd_event() appends one event's record to a batch;
 * recfwd_flush() sends the batch as one message on the record channel, at
 * the end of what one read of the agent's socket brought (handler_flush)
 * and whenever a batch has grown to RECFWD_BATCH bytes. It never waits:
 * the JVM must not be slowed by recording, so when the channel is full (the
 * recorder behind) the batch is dropped and its events counted, and the
 * count goes to the recorder in a DROPPED record ahead of the next batch
 * that gets through. Once the recorder has gone (its end of the channel
 * closed: it stopped recording and said why) nothing more is sent.
 * recfwd_finish() sends what is left, waiting at most RECFWD_FINISH_MS for
 * room, then frees. Nothing here logs but at debug level.
 */
#ifndef STPD_BRIDGE_RECFWD_H
#define STPD_BRIDGE_RECFWD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "wire.h"

#define RECFWD_BATCH 65536u
#define RECFWD_FINISH_MS 1000

struct recfwd {
	int fd;                 /* the record channel; -1: not recording */
	uint32_t pid;           /* the JVM's, for DROPPED records */
	uint8_t *buf;           /* RECFWD_BATCH + RECCHAN_MAX_RECORD bytes */
	size_t len;
	uint64_t batched;       /* events in buf */
	uint64_t dropped;       /* not yet reported to the recorder */
	bool over;              /* the recorder is gone */
};

/* 0 or -ENOMEM; FD < 0 makes a forwarder that does nothing. */
int recfwd_init(struct recfwd *f, int fd, uint32_t pid);
bool recfwd_on(const struct recfwd *f);
void recfwd_event(struct recfwd *f, const struct print_meta *meta, const struct wire_event *ev);
void recfwd_flush(struct recfwd *f);
void recfwd_finish(struct recfwd *f);

#endif
