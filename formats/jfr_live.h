/* jfr_live.h: the JVM's own JFR chunk data, parsed as it arrives (issue 15,
 * seed 003), for java.jfr("TYPE") probes and `stpd-bridge --print --jfr`.
 *
 * Contract: one struct jfr_live per JVM. The feeder hands over the bytes of
 * the JVM's chunks in order -- jfr_live_chunk_begin() before the first byte
 * of each chunk (its header), then jfr_live_feed() with the next bytes as
 * the JVM flushes them, in pieces of any size (the events, their values and
 * any refusal do not depend on where the pieces are cut) -- and
 * jfr_live_end() when the stream ends. A chunk still being written has a
 * header whose sizes and offsets may be stale: records are read in order
 * from the end of the header and never by those fields. An event record may
 * refer to constants (thread, stack trace, class, string ...) that only a
 * later checkpoint of the same chunk carries: events are held, raw, until
 * the checkpoint that follows them, then resolved and delivered in the
 * order they were written, each once. (A JVM's flush writes several
 * checkpoints, the last marked as the flush's end, JFR_CHECKPOINT_FLUSH:
 * events wait for that one. A constant the JVM writes only when the chunk
 * ends -- the class loader of some jdk.ClassLoaderStatistics -- is null for
 * an event delivered before then, and a constant a later flush gives again
 * -- a thread renamed -- has its new value for the events after it only,
 * both as for the JDK's own streaming reader.)
 * Only the types the WANT predicate accepts are resolved (it is asked once
 * per type per metadata event).
 *
 * Every field is given by its path, nested fields joined by '.'
 * ("eventThread.javaName"), constants resolved, as the JDK's reader shows
 * them (`jfr print --json`): a class the metadata marks simpleType is its
 * one field (a Symbol, a FrameType is its string), an array element has its
 * index ("arr[2].x"), a null or a constant no pool holds is one
 * JFR_LIVE_NULL field at the path where the value would have started. The
 * event's startTime, duration and stackTrace are in the struct, not among
 * the fields; eventThread is in both. A frame's method is its class's name
 * with '.' for '/', a '.' and its name. Integers as the JDK gives them:
 * @Unsigned ones unsigned, the rest sign-extended from their width; time
 * fields in nanoseconds: @Timespan ones a duration, @Timestamp ones since
 * the epoch (ticks converted exactly with the chunk header's start and
 * ticks per second; INT64_MIN and INT64_MAX, JFR's "none" and "forever",
 * left as they are). Strings are UTF-8 (JFR's Latin-1 and UTF-16
 * converted; a lone UTF-16 surrogate is kept as its own 3 bytes, which are
 * not UTF-8) and valid until the callback returns. A record of a type the
 * metadata does not define as an event is skipped, as the JDK does.
 *
 * Nothing is trusted: every read is bounded by the bytes held; the bytes
 * held for one chunk (JFR_LIVE_MAX_CHUNK: a JVM's chunk grows to 12 MB
 * before it starts another, unless its maxchunksize says more, which a
 * recording made for this parser must not), the fields of one event
 * (JFR_LIVE_MAX_FIELDS), nesting (JFR_LIVE_MAX_DEPTH: the parts of a path;
 * a constant pool cycle ends there), a path's length (JFR_LIVE_MAX_PATH),
 * the metadata events of a chunk (JFR_LIVE_MAX_METADATA) and the values
 * one record may expand to are bounded. A failure returns
 * -EINVAL (or -E2BIG for a bound, -ENOMEM) with ERR naming what was wrong
 * and the offset in the chunk where, and the stream then skips to the next
 * jfr_live_chunk_begin().
 */
#ifndef STAPJAVA_JFR_LIVE_H
#define STAPJAVA_JFR_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"   /* struct record_error */

#define JFR_LIVE_MAX_CHUNK  (64u * 1024u * 1024u)
#define JFR_LIVE_MAX_FIELDS 256u
#define JFR_LIVE_MAX_DEPTH  16u   /* a class in a module of a class loader of a class ...: 8 is too few */
#define JFR_LIVE_MAX_PATH   512u
/* metadata events in one chunk: a JVM writes one, and another when event
 * types are added */
#define JFR_LIVE_MAX_METADATA 64u

enum jfr_live_kind {
	JFR_LIVE_NULL,     /* a null reference or an absent constant */
	JFR_LIVE_LONG,     /* byte, short, int, long, char, boolean (0/1) */
	JFR_LIVE_DOUBLE,   /* float, double */
	JFR_LIVE_STRING,
};

struct jfr_live_value {
	enum jfr_live_kind kind;
	int64_t l;
	double d;
	const char *s;      /* NUL-terminated */
	size_t slen;
};

struct jfr_live_field {
	const char *path;   /* "cause", "eventThread.javaName", "monitorClass.name" */
	struct jfr_live_value v;
};

struct jfr_live_frame {
	const char *method; /* "java.lang.Thread.run" */
	const char *descriptor; /* "()V" */
	int32_t line;       /* -1: none */
	const char *type;   /* "Interpreted", "JIT compiled", "Inlined", "Native" */
};

struct jfr_live_event {
	const char *type;           /* "jdk.GarbageCollection" */
	int64_t start_ns;           /* epoch */
	int64_t duration_ns;        /* 0 for an instant event */
	uint64_t os_tid;            /* eventThread.osThreadId; 0: none */
	const char *thread_name;    /* eventThread.javaName (or osName); "" when none */
	const struct jfr_live_frame *frames; /* stackTrace, innermost first */
	size_t nframes;
	bool stack_truncated;
	const struct jfr_live_field *fields; /* every other field, in metadata order */
	size_t nfields;
};

typedef bool (*jfr_live_want_fn)(void *ctx, const char *type);
typedef int (*jfr_live_event_fn)(void *ctx, const struct jfr_live_event *ev);

struct jfr_live;

/* A negative return from FN stops the feed, which returns it; the rest of
 * that chunk is skipped. */
int jfr_live_new(struct jfr_live **out, jfr_live_want_fn want, jfr_live_event_fn fn, void *ctx);
void jfr_live_free(struct jfr_live *s);

/* A chunk begins; the one before ends as at jfr_live_end (what can be
 * resolved is delivered, the rest counted), its errors unsaid but for the
 * callback's. */
int jfr_live_chunk_begin(struct jfr_live *s);
/* -EINVAL for bytes fed before any jfr_live_chunk_begin() (or after
 * jfr_live_end()); 0 for those of a chunk already refused (skipped). */
int jfr_live_feed(struct jfr_live *s, const uint8_t *bytes, size_t len, struct record_error *err);
/* The stream ended: what can still be resolved is delivered; events held
 * for a checkpoint that never came are counted in *UNRESOLVED (may be NULL),
 * with those of earlier chunks that never got theirs. -EINVAL when the
 * chunk ends inside a record (the JVM ended mid-flush): ERR says where and
 * how much of it came, and every event it held, waiting for that flush's
 * end, is counted, none delivered. */
int jfr_live_end(struct jfr_live *s, uint64_t *unresolved, struct record_error *err);

/* The event types the last metadata event declared (for -L and for
 * suggesting similar names): FN once per type with its field paths. */
typedef int (*jfr_live_type_fn)(void *ctx, const char *type, const char *const *paths, size_t npaths);
int jfr_live_types(const struct jfr_live *s, jfr_live_type_fn fn, void *ctx);

#endif
