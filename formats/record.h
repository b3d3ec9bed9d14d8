/* record.h: recording the event stream into a file (--record), and reading
 * one back (--read) -- one interface, several formats (issue 14).
 *
 * Contract: a format is one `struct record_format` in record.c's table
 * (name, file extension, writer, reader); nothing else in the bridge knows
 * which formats exist. A writer gets every event the bridge decoded, in the
 * order the bridge handles them, with what --print knows besides the body
 * (struct print_meta: the JVM's pid, the host tid, CLOCK_MONOTONIC ns, the
 * thread's name), and writes through a struct record_out, which buffers,
 * counts bytes, enforces --record-max and remembers the first write error
 * (a writer never calls write(2) itself and never exits). A write that
 * would pass --record-max is not made at all and what came before it is
 * written: a writer that hands over one event's bytes in one call leaves a
 * capped file ending on an event's boundary. A reader parses an
 * untrusted file held in memory and hands back each event it keeps as a
 * (print_meta, wire_event) pair, which --read prints as --print lines; it
 * is bounded, never reads past LEN, and on bad input fails with -EINVAL and
 * a message naming the byte offset. Functions return 0 or a negative errno.
 */
#ifndef STPD_BRIDGE_RECORD_H
#define STPD_BRIDGE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "print.h"
#include "wire.h"

/* The file being written. Writers use the functions below only. */
struct record_out {
	int fd;
	uint8_t *buf;            /* pending bytes, written at RECORD_OUT_CHUNK */
	size_t len, cap;
	uint64_t offset;         /* bytes handed to record_out_write so far */
	uint64_t max;            /* --record-max; 0: none */
	int error;               /* first error (-ENOSPC, -EFBIG for the cap, ...); then writes are dropped */
};

#define RECORD_OUT_CHUNK (256u * 1024u)

int record_out_write(struct record_out *o, const void *p, size_t n);
/* Overwrite N bytes at file offset OFF (< o->offset), e.g. a header's count. */
int record_out_patch(struct record_out *o, uint64_t off, const void *p, size_t n);
/* Write what is buffered (a chunk boundary: a recording cut short is readable up to here). */
int record_out_flush(struct record_out *o);
/* Frees the buffer (after a last flush); the fd is the caller's. */
void record_out_release(struct record_out *o);

/* What a recording knows when it begins. */
struct record_info {
	uint64_t start_ns;       /* CLOCK_MONOTONIC at the start */
	uint64_t start_wall_ns;  /* CLOCK_REALTIME at the same moment */
};

/* Each event a reader keeps. EV's strings point into the file's bytes or
 * the reader's own memory; both stay valid until the callback returns. */
typedef int (*record_event_fn)(void *ctx, const struct print_meta *meta, const struct wire_event *ev);

struct record_error {
	uint64_t offset;         /* where in the file */
	char text[200];          /* what was wrong there */
};

/* What a format needs registered to have anything to write, added to the
 * command line's registrations when it is chosen (the session's, so --print
 * shows those events too). */
struct record_needs {
	uint8_t families;            /* EVENT_FAMILY_BIT()s (events.h) */
	uint32_t opt_mask;           /* WIRE_OPT_* */
	const char *const *methods;  /* -m arguments, "PATTERN[:EVENTS]"; NULL ends them */
};

/* Thread events, so that the bridge hears the name of every thread (those
 * already running too: the agent names them when the family is switched
 * on) and hands it with each event: the formats that name a thread where
 * it first appears (JFR, the seeds' two) need no more. */
extern const struct record_needs record_needs_thread_names;

struct record_format {
	const char *name;        /* --format NAME: "jfr", "trc", "trcbin", "clog" */
	const char *extension;   /* ".jfr": chosen when FILE ends so */
	size_t state_size;       /* the writer's state, zeroed before begin */
	int (*begin)(void *state, struct record_out *out, const struct record_info *info);
	int (*event)(void *state, struct record_out *out, const struct print_meta *meta,
		     const struct wire_event *ev);
	/* Called about once a second while events flow, and with no event: a
	 * format with chunks closes one here. NULL: nothing to do. */
	int (*tick)(void *state, struct record_out *out, uint64_t now_ns);
	/* A clean end (patch counts, close the last chunk); frees the state's memory. */
	int (*end)(void *state, struct record_out *out);
	/* Events the bridge dropped before the recorder (it counts them):
	 * written into the file where the format has a place for them. NULL: none. */
	int (*lost)(void *state, struct record_out *out, uint64_t ts_ns, uint64_t count);
	int (*read)(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err);
	const struct record_needs *needs; /* NULL: what the command line registers is enough */
};

/* Each format's own file defines its descriptor (rec_jfr.c, rec_trc.c,
 * rec_trcbin.c, rec_clog.c); record.c's table lists them. */
extern const struct record_format record_format_jfr, record_format_trc, record_format_trcbin,
	record_format_clog;

/* The format named NAME, or the one whose extension ends PATH; NULL if none. */
const struct record_format *record_format_by_name(const char *name);
const struct record_format *record_format_for_path(const char *path);
/* "jfr, trc, trcbin, clog": for messages. */
const char *record_format_names(void);

#endif
