/* readrec.h: --read FILE: a recording's events as --print lines.
 *
 * Contract: read_recording() maps FILE (a regular file; anything else is
 * refused), has FMT's reader (record.h) parse it, and writes one --print line
 * (print.h) per event the reader gives to OUT_FD, in the file's order,
 * batched. It returns 0, or a negative errno after one message naming the
 * file: a file that cannot be read, or the reader's own (the byte offset
 * and what was wrong there; the lines of the events before it are written).
 */
#ifndef STPD_BRIDGE_READREC_H
#define STPD_BRIDGE_READREC_H

#include "record.h"

int read_recording(const char *path, const struct record_format *fmt, int out_fd);

#endif
