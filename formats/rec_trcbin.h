/* rec_trcbin.h: the TPTP binary trace format (seed 001, ".trcbin"), as
 * rec_trcbin.c writes it and rec_trcbin_read.c reads it back.
 *
 * Contract: the layout constants both sides share; the readings chosen
 * where the seed is ambiguous are doc/recording-seed-formats.md's. A file
 * is the 12-byte header (magic "0TBF", version major.minor, platform,
 * endianness, offset of the first message), then messages: u16 id, u32
 * size (the whole message, these 6 bytes included), then the message's
 * attributes in the seed's order: integer 4 bytes, long 8, byte 1, string
 * UTF-8 ending in a NUL (the default, NULL, is the NUL alone), in the
 * header's byte order (we write little-endian). System messages (ids up to
 * 1000) have the same form. Timestamps are ticks of the frequency message
 * (we write CLOCK_MONOTONIC nanoseconds, 1000000000 ticks a second). Our
 * ids (class, method, thread) are linear from 1; 0 is "none".
 */
#ifndef STPD_BRIDGE_REC_TRCBIN_H
#define STPD_BRIDGE_REC_TRCBIN_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#define TB_MAGIC              "0TBF"
#define TB_HEADER_SIZE        12u
#define TB_VERSION_MAJOR      1u
#define TB_VERSION_MINOR      0u
#define TB_MESSAGE_HEADER     6u     /* u16 id, u32 size */
#define TB_TICKS_PER_S        1000000000u

/* header fields' offsets */
#define TB_AT_VERSION         4u
#define TB_AT_PLATFORM        6u
#define TB_AT_ENDIANNESS      7u
#define TB_AT_OFFSET          8u

enum tb_message {
	TB_ENCODING = 1,
	TB_FREQUENCY = 2,
	TB_NODE = 1001,
	TB_PROCESS_CREATE = 1002,
	TB_AGENT_CREATE = 1003,
	TB_AGENT_DESTROY = 1004,
	TB_TRACE_START = 1005,
	TB_TRACE_END = 1006,
	TB_FILTER = 1007,
	TB_OPTION = 1008,
	TB_THREAD_START = 1009,
	TB_THREAD_END = 1010,
	TB_CLASS_DEF = 1011,
	TB_METHOD_DEF = 1012,
	TB_OBJ_ALLOC = 1014,
	TB_METHOD_ENTRY = 1015,
	TB_METHOD_EXIT = 1016,
	TB_GC_START = 1023,
	TB_OBJ_FREE = 1024,
	TB_GC_FINISH = 1027,
	TB_RUNTIME_INIT_DONE = 1030,
	TB_RUNTIME_SHUTDOWN = 1031,
	TB_MON_WAIT = 1032,
	TB_MON_WAITED = 1033,
	TB_MON_CONTENDED_ENTER = 1034,
	TB_MON_CONTENDED_ENTERED = 1035,
	TB_CUSTOM = 1041,
};

#define TB_ENCODING_NAME      "UTF8"
#define TB_NODE_ID            "stapjava-node"
#define TB_AGENT_NAME         "stapjava"
#define TB_AGENT_TYPE         "Profiler"

/* rec_trcbin_read.c: the format's reader (record_format.read). */
int trcbin_read(const uint8_t *data, size_t len, record_event_fn fn, void *ctx, struct record_error *err);

#endif
