/* rec_trc.h: the JinsightLive binary trace format (seed 000, ".trc"), as
 * rec_trc.c writes it and rec_trc_read.c reads it back.
 *
 * Contract: the layout constants both sides share; the readings chosen
 * where the seed is ambiguous are doc/recording-seed-formats.md's. A file
 * is the 45-byte little-endian header, then records of a 1-byte id and a
 * fixed or length-prefixed body, in the byte order the header's platform
 * names (we write 44, Linux x86: little-endian). Ids are linear: classes
 * java/lang/Object = 0, java/lang/Thread = 1, then ours from 2; threads
 * from 1; a class's methods from 0 in the order its _CLASS_LOAD lists
 * them. Ticks are CLOCK_MONOTONIC nanoseconds (ticksPerMicrosecond 1000).
 */
#ifndef STPD_BRIDGE_REC_TRC_H
#define STPD_BRIDGE_REC_TRC_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#define TRC_HEADER_SIZE       45u
#define TRC_BINARY            0x62u   /* 'b' */
#define TRC_VERSION           8u

/* header fields' offsets */
#define TRC_AT_VERSION        1u
#define TRC_AT_PLATFORM       5u
#define TRC_AT_EVENTS         9u
#define TRC_AT_MAX_THREADS    13u
#define TRC_AT_MAX_CLASSES    17u
#define TRC_AT_TICKS_PER_US   21u
#define TRC_AT_START_TICKS    25u
#define TRC_AT_VM_START       33u
#define TRC_AT_CONN_START     37u
#define TRC_AT_OVERHEAD       41u

enum trc_platform {
	TRC_WIN32_X86 = 11, TRC_AIX_PPC = 22, TRC_OS390 = 33, TRC_LINUX_X86 = 44, TRC_LINUX_390 = 55,
};

enum trc_record {
	TRC_CLASS_DEFINE = 0x04,
	TRC_ARRAY_CLASS_DEFINED = 0x05,
	TRC_THREAD_DEFINE = 0x0a,
	TRC_THREAD_START = 0x0b,
	TRC_THREAD_EXIT = 0x0c,
	TRC_OBJECT_DEFINED = 0x14,
	TRC_OBJECT_CREATED = 0x15,
	TRC_ARRAY_DEFINED = 0x16,
	TRC_ARRAY_CREATED = 0x17,
	TRC_OBJECT_RECLAIMED = 0x18,
	TRC_METHOD_LEAVE = 0x1f,
	TRC_GC_START = 0x46,
	TRC_GC_STOP = 0x47,
	TRC_USER_EVENT = 0x4e,
	TRC_WIDE_METHOD_ENTER = 0x5b,
	TRC_BEGIN_BURST = 0x65,
	TRC_END_BURST = 0x66,
	TRC_CLASS_LOAD = 0x6e,       /* EXTENDED_EXTENSIVE_CLASS_LOAD */
};

#define TRC_CLASS_OBJECT      0u           /* java/lang/Object */
#define TRC_CLASS_THREAD      1u           /* java/lang/Thread */
#define TRC_NO_CLASS          0xFFFFu      /* superClassID of java/lang/Object */
#define TRC_MAX_CLASSES       0xFFFFu      /* ids 0 .. 0xFFFE */
#define TRC_MAX_METHODS       0xFFFFu      /* per class: ids 0 .. 0xFFFE */
#define TRC_STATIC_OBJECT     0xFFFFFFFFu  /* WIDE_METHOD_ENTER's objectID: no object */
#define TRC_TICKS_PER_US      1000u

/* rec_trc_read.c: the format's reader (record_format.read). */
int trc_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err);

#endif
