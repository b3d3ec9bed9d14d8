/* jfrfeed.h: a worker's JFR stream (issue 15): the JfrData of one JVM fed
 * to the live chunk parser (formats/jfr_live.h), and each event the
 * session asked for (--jfr) handed on.
 *
 * Contract: jfrfeed_new() reads the session's wishes (registry.h, jfr: one
 * jfrspec.h entry a line). jfrfeed_data() takes each JfrData in order: a
 * chunk's first bytes start a new chunk in the parser. An event is handed to
 * FN when an entry's pattern selects its type and its duration is at least
 * that entry's threshold (the agent's recording holds the union of every
 * session's wishes, JFR's own lowest threshold among them: each session
 * sees only what it asked for). A chunk the parser refuses is said once, in
 * one line naming the JVM and the offset in the chunk; the stream goes on
 * at the next chunk. jfrfeed_end() at the end of the session says how many
 * events of a chunk cut short (the JVM ended mid-chunk) were never
 * resolved. jfrfeed_line() formats an event's --print line
 * (stpd-bridge(8), --jfr). Functions return 0 or a negative errno; only
 * FN's failure is returned by jfrfeed_data().
 */
#ifndef STPD_BRIDGE_JFRFEED_H
#define STPD_BRIDGE_JFRFEED_H

#include <stdint.h>
#include <sys/types.h>

#include "jfr_live.h"
#include "markers.h"
#include "registry.h"

/* SLOTS: bit N set when --jfr-slot N selects EV (its type, its threshold). */
typedef int (*jfrfeed_event_fn)(void *ctx, const struct jfr_live_event *ev, uint64_t slots);

struct jfrfeed;

int jfrfeed_new(struct jfrfeed **out, const struct registry *reg, pid_t pid, jfrfeed_event_fn fn, void *ctx);
void jfrfeed_free(struct jfrfeed *f);
int jfrfeed_data(struct jfrfeed *f, const struct wire_event *ev);
void jfrfeed_end(struct jfrfeed *f);

/* --jfr-types: FN(CTX, TYPE, PATHS, N) for each event type of the JVM's
 * last metadata that an entry selects, with its field paths. Returns how
 * many types the metadata has (0: none came yet), or FN's failure. */
int jfrfeed_list(struct jfrfeed *f, jfr_live_type_fn fn, void *ctx);

/* "jfr pid=P tid=T start_ns=S duration_ns=D type=TYPE thread=\"NAME\"
 * FIELD=VALUE... [stack=FRAME|...]\n" into BUF: its length, or -ENOSPC. */
ssize_t jfrfeed_line(char *buf, size_t cap, uint32_t pid, uint64_t host_tid, const struct jfr_live_event *ev);

/* EV as a JfrEvent carries it (wire.h, struct wire_jfr_event): its fields
 * ("PATH\0VALUE\0" each, numbers in decimal, null "") and frames
 * ("Class.method:LINE\0" each) written into BUF[0..CAP), the rest pointing
 * into EV. Fields or frames that do not fit BUF or a wire string are left
 * out (a count of 0), as are more than a JfrEvent counts. */
void jfrfeed_event_text(char *buf, size_t cap, uint64_t host_tid, uint64_t slots, const struct jfr_live_event *ev,
			struct wire_jfr_event *out);

/* The jfr marker's arguments for EV (doc/markers.md, "JFR events"): its
 * strings and field block written into BUF[0..CAP) right before the marker
 * fires; a field block or stack that does not fit is empty. */
void jfrfeed_marker_args(char *buf, size_t cap, uint32_t pid, uint64_t host_tid, uint64_t slots,
			 const struct jfr_live_event *ev, struct marker_args *a);

#endif
