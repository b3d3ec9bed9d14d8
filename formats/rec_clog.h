/* rec_clog.h: the concurrency log's reader (rec_clog_read.c), for its
 * format descriptor (rec_clog.c, record.h's record_format_clog). */
#ifndef STPD_BRIDGE_REC_CLOG_H
#define STPD_BRIDGE_REC_CLOG_H

#include "record.h"

/* record_format.read: bounded, -EINVAL with the offset on bad input. */
int clog_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err);


#endif
