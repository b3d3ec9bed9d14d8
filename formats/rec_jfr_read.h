/* rec_jfr_read.h: the JFR format's reader (record.h's `read`).
 *
 * Contract: reads a whole .jfr file held in memory -- ours, or the JDK's
 * own for the event types we map (doc/recording-jfr.md has the table; other
 * types are skipped) -- and hands back each event as the (print_meta,
 * wire_event) pair --print would have shown, in timestamp order (a call, a
 * blocked monitor enter, a wait and a GC are two events each). Nothing in
 * the file is trusted (rec_jfr_parse.h). Bad input -- a file cut short
 * among them -- gives the events of the chunks before the first bad one,
 * then -EINVAL with what was wrong and where (struct record_error).
 */
#ifndef STPD_BRIDGE_REC_JFR_READ_H
#define STPD_BRIDGE_REC_JFR_READ_H

#include "record.h"

int jfr_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err);

#endif
