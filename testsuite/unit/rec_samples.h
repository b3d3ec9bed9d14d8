/* rec_samples.h: a known event stream for the recording formats' tests,
 * fuzz corpus and benchmark (formats/record.h).
 *
 * Contract: rec_sample_event(I) fills event I of REC_SAMPLE_EVENTS, as the
 * bridge would hand it to a writer (every event with a trailer): two JVMs,
 * several threads with names (and one never started), nested method calls
 * with arguments and return values (one popped by an exception), class
 * load and prepare, GC, an exception, the four monitor events (stacks and
 * the owner on one), a Lost event, VM init and death. The bridge's own loss
 * (record_format.lost) comes after event REC_SAMPLE_LOST_AFTER. The
 * strings live in static storage. rec_sample_record() records the whole
 * stream (or its first N events) with a format into memory, through a
 * struct record_out on a memfd as the bridge would; rec_sample_read()
 * reads bytes back into --print lines. Both return 0 or a negative errno.
 */
#ifndef STAPJAVA_REC_SAMPLES_H
#define STAPJAVA_REC_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "record.h"
#include "wire.h"

#define REC_SAMPLE_EVENTS 30u
#define REC_SAMPLE_LOST_AFTER 13u
#define REC_SAMPLE_LOST_COUNT 5u
#define REC_SAMPLE_START_NS 1000000000ull      /* the recording's start (CLOCK_MONOTONIC) */
#define REC_SAMPLE_START_WALL_NS 1700000000500000000ull

void rec_sample_event(size_t i, struct print_meta *meta, struct wire_event *ev);
/* The lost callback's time: just after event REC_SAMPLE_LOST_AFTER. */
uint64_t rec_sample_lost_ts(void);

/* Record events 0..N-1 (with the bridge's loss when N passes it) with F
 * into *DATA (malloc'd), *LEN bytes. */
int rec_sample_record(const struct record_format *f, size_t n, uint8_t **data, size_t *len);

/* Record with F whatever EACH gives (index 0, 1, ... until it returns 0)
 * into memory: the same machinery, for other streams. EACH returns 1 for
 * an event, REC_SAMPLE_BRIDGE_LOSS for the bridge's loss (record_format.lost
 * of ev->lost events at meta->ts_ns), 0 at the end. */
#define REC_SAMPLE_BRIDGE_LOSS 2
typedef int (*rec_sample_source)(void *ctx, size_t i, struct print_meta *meta, struct wire_event *ev);
int rec_sample_record_from(const struct record_format *f, rec_sample_source each, void *ctx, uint8_t **data,
			   size_t *len);

/* F's reader over DATA: the --print lines of the events it keeps, joined
 * into *LINES (malloc'd, NUL-terminated); the reader's result, with *ERR. */
int rec_sample_read(const struct record_format *f, const uint8_t *data, size_t len, char **lines,
		    struct record_error *err);

/* The --print lines of the whole sample stream, as print_event_line gives them. */
extern const char rec_sample_lines[];

/* Bytes a test expects, spelled out field by field from a seed's layout
 * (not from our writers): integers in BIG's order, strings with a u16
 * length before them or a NUL after them. At most REC_EXPECT_MAX bytes. */
#define REC_EXPECT_MAX 8192u
struct rec_expect {
	uint8_t b[REC_EXPECT_MAX];
	size_t n;
	bool big;
};

void rx_u8(struct rec_expect *x, uint8_t v);
void rx_u16(struct rec_expect *x, uint16_t v);
void rx_u32(struct rec_expect *x, uint32_t v);
void rx_u64(struct rec_expect *x, uint64_t v);
void rx_raw(struct rec_expect *x, const void *p, size_t n);
void rx_str16(struct rec_expect *x, const char *s);   /* u16 length, the bytes */
void rx_cstr(struct rec_expect *x, const char *s);    /* the bytes, a NUL */
/* The first offset where DATA[0..LEN) and X differ, -1 when they are equal. */
long rx_diff(const struct rec_expect *x, const uint8_t *data, size_t len);

/* A stream a test builds one item at a time (at most REC_SCRIPT_MAX):
 * rec_script_add() gives the event to fill in (its meta through *META),
 * with the trailer's seq, time and tid set. */
#define REC_SCRIPT_MAX 32u
void rec_script_reset(void);
struct wire_event *rec_script_add(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts, struct print_meta **meta);
void rec_script_add_loss(uint64_t ts, uint64_t count);
/* An event of thread TID named NAME (thread.start, thread.end). */
void rec_script_add_named(unsigned code, uint32_t pid, uint64_t tid, uint64_t ts, const char *name);
/* A method event of pid 4242 on TID for method NAME. */
void rec_script_add_method(unsigned code, uint64_t tid, uint64_t ts, const char *name);
int rec_script_record(const struct record_format *f, uint8_t **data, size_t *len);
/* The script recorded with F against X: the first offset where they
 * differ, -1 when the file is X's bytes; *LEN, the file's length. */
long rec_script_diff(const struct record_format *f, const struct rec_expect *x, size_t *len);

#endif
