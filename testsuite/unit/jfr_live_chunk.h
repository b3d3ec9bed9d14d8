/* jfr_live_chunk.h: hand-built JFR chunks for the live parser's tests
 * (test_jfr_live.c) and its fuzz corpus (testsuite/fuzz/make_jfr_live_corpus.c):
 * a header, a small metadata event of known classes, checkpoints and event
 * records, each written as the JDK writes them (sizes padded to 4 bytes).
 *
 * The metadata (JLC_* ids): the primitives, java.lang.String, a Thread
 * {osName, osThreadId, javaName}, a simple Symbol {string}, a Class {name:
 * Symbol (pool)}, a Pair {a: int, b: String}, a Node {next: Node (pool), v:
 * int}, StackTrace {truncated, frames: StackFrame[]}, StackFrame {method:
 * Method (pool), lineNumber: int, type: FrameType (pool)}, Method {type:
 * Class (pool), name, descriptor: Symbol (pool)}, a simple FrameType
 * {description}, and two events: test.Every {startTime @Timestamp(TICKS),
 * duration @Timespan(TICKS), eventThread: Thread (pool), stackTrace (pool),
 * s: String, n: int, u: int @Unsigned, pair: Pair, arr: Pair[], cls: Class
 * (pool), f: float, d: double, b: byte, c: char, z: boolean, sh: short,
 * span: long @Timespan(MILLISECONDS)} and test.Cycle {startTime, node: Node
 * (pool)}.
 */
#ifndef STAPJAVA_TEST_JFR_LIVE_CHUNK_H
#define STAPJAVA_TEST_JFR_LIVE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "rec_jfr_bytes.h"

/* class ids (macros: the metadata names them as text) */
#define JLC_LONG       20
#define JLC_INT        21
#define JLC_STRING     22
#define JLC_BOOLEAN    23
#define JLC_FLOAT      24
#define JLC_DOUBLE     25
#define JLC_BYTE       26
#define JLC_SHORT      27
#define JLC_CHAR       28
#define JLC_THREAD     30
#define JLC_SYMBOL     31
#define JLC_CLASS      32
#define JLC_PAIR       33
#define JLC_NODE       34
#define JLC_STACKTRACE 35
#define JLC_FRAME      36
#define JLC_METHOD     37
#define JLC_FRAMETYPE  38
#define JLC_EVERY      40
#define JLC_CYCLE      41
#define JLC_TIMESTAMP  50
#define JLC_TIMESPAN   51
#define JLC_UNSIGNED   52

#define JLC_START_NS 1700000000000000000ull
#define JLC_TICKS    5000000ull       /* ticks at the chunk's start */
#define JLC_FREQ     1000000000ull    /* a tick is a nanosecond */

/* The 68-byte header of a chunk in progress (its sizes 0, as a JVM's). */
void jlc_header(struct jfr_buf *b);
/* The metadata event above; renamed: with test.Every's field "pair" named PAIR. */
void jlc_metadata(struct jfr_buf *b);
void jlc_metadata_renamed(struct jfr_buf *b, const char *pair);
/* BODY (a record's type and the rest) as a record: its size first. */
void jlc_record(struct jfr_buf *b, const struct jfr_buf *body);
/* A checkpoint's start: its type, times, delta 0, KIND (JFR_CHECKPOINT_*),
 * NPOOLS; then each pool is jfr_put_varint(class id), (count), count x
 * (key, value). */
void jlc_checkpoint_start(struct jfr_buf *body, uint8_t kind, uint64_t npools);
/* Strings as the JDK writes them. */
void jlc_utf8(struct jfr_buf *b, const char *s);
void jlc_latin1(struct jfr_buf *b, const uint8_t *s, size_t n);
void jlc_utf16(struct jfr_buf *b, const uint16_t *units, size_t n);

/* The constants a test.Every refers to (its thread is key 1, its stack
 * trace key 9 ...), strings by every encoding, in two checkpoints as a
 * JVM's flush writes them, the second with the flush's end: where the
 * second starts. With them, a test.Cycle's node 1 -> 2 -> 1. */
size_t jlc_constants(struct jfr_buf *b);
/* A test.Every with a value of every kind; THREAD: its eventThread's key. */
void jlc_every(struct jfr_buf *b, uint64_t thread);
/* A test.Cycle whose node is the cycle's. */
void jlc_cycle(struct jfr_buf *b);
/* A flush's checkpoint with one thread: KEY, its tid KEY, named NAME. */
void jlc_thread(struct jfr_buf *b, uint64_t key, const char *name);
/* A chunk's start: its header and the metadata. */
void jlc_begin(struct jfr_buf *b);
/* The usual chunk: header, metadata, a test.Every, its constants. */
void jlc_usual(struct jfr_buf *b);

#endif
