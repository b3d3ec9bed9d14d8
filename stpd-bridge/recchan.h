/* recchan.h: the records a worker sends the recorder (--record), one
 * layout for both ends.
 *
 * Contract: a message on the record channel (a SOCK_SEQPACKET socket the
 * workers share: each send arrives whole, never mixed with another
 * worker's) is a sequence of records, each
 *   u32 length of what follows, u8 kind, then
 *   EVENT:   u32 pid, u64 tid, u64 ts_ns, u64 owner_tid, u32 name length,
 *            the name's bytes (print_meta), u8 trailer (0 or 1), and the
 *            event as wire_encode_event() writes it for a peer with every
 *            capability, its trailer included when the flag says so;
 *   DROPPED: u32 pid, u64 ts_ns, u64 count (events this worker could not
 *            hand over since its last DROPPED, the channel being full).
 * Integers in host order: both ends are this program on one host. The
 * recorder runs with less privilege than the workers' bytes could claim
 * and decodes them as untrusted: recchan_decode() is bounded and says
 * what was wrong where (fuzzed: testsuite/fuzz/fuzz_recchan.c).
 * Functions return 0 or a negative errno; nothing here logs.
 */
#ifndef STPD_BRIDGE_RECCHAN_H
#define STPD_BRIDGE_RECCHAN_H

#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "wire.h"

enum recchan_kind { RECCHAN_EVENT = 1, RECCHAN_DROPPED = 2 };

/* The largest record: a whole wire message, a thread name and the fields. */
#define RECCHAN_MAX_RECORD (WIRE_MAX_MESSAGE + WIRE_MAX_STRING + 64u)

/* Append one EVENT record to BUF (CAP bytes, *LEN used): -ENOSPC (nothing
 * appended) when it does not fit, -EINVAL when the encoder refuses EV. */
int recchan_put_event(uint8_t *buf, size_t cap, size_t *len, const struct print_meta *meta,
		      const struct wire_event *ev);
int recchan_put_dropped(uint8_t *buf, size_t cap, size_t *len, uint32_t pid, uint64_t ts_ns,
			uint64_t count);

struct recchan_record {
	uint8_t kind;
	struct print_meta meta;  /* EVENT: its fields; DROPPED: pid and ts_ns */
	uint64_t count;          /* DROPPED */
};

/* Decode the record at the front of BUF[0..LEN): 0 and *USED, the record in
 * *R and, for an EVENT, the event in *EV (its strings point into BUF), or
 * -EBADMSG with WHY (a sentence naming the offset in BUF). */
int recchan_decode(const uint8_t *buf, size_t len, struct recchan_record *r, struct wire_event *ev,
		   size_t *used, char *why, size_t whylen);

#endif
