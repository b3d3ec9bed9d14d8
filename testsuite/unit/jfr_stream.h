/* jfr_stream.h: the fixed synthetic event stream the JFR recording tests
 * write (test_rec_jfr, rec_jfr_sample for testsuite/record_jfr.bats, the
 * fuzz corpus): two JVMs, method calls with arguments and return values of
 * every type (nested, one unpaired each way, one of a hidden class), stack
 * traces (a native frame among them), thread start/end (a renamed thread),
 * GC, class load/prepare/unload, exceptions thrown and caught, a contended
 * monitor with its owner, a wait that times out, compiled code, VM init and
 * death, the agent's and the bridge's losses, and two ticks that close
 * chunks. jfr_stream_expected is what the reader gives back: the --print
 * lines, in time order, with what the JFR format does not keep left out
 * (doc/recording-jfr.md).
 */
#ifndef STAPJAVA_TEST_JFR_STREAM_H
#define STAPJAVA_TEST_JFR_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "print.h"
#include "record.h"
#include "wire.h"

#define JFR_STREAM_T0   1000000000000ull              /* CLOCK_MONOTONIC at the start */
#define JFR_STREAM_WALL 1700000000000000000ull        /* 2023-11-14T22:13:20Z */

enum jfr_step_kind { JFR_STEP_EVENT, JFR_STEP_TICK, JFR_STEP_LOST };

struct jfr_step {
	enum jfr_step_kind kind;
	struct print_meta meta;   /* ts_ns for every kind */
	uint64_t count;           /* JFR_STEP_LOST */
	struct wire_event ev;     /* JFR_STEP_EVENT */
};

/* Fill S with step I; false past the last one. */
bool jfr_stream_step(size_t i, struct jfr_step *s);

/* Feed steps [0, LAST) to FORMAT (all of them: LAST = SIZE_MAX) and, with
 * END, end the recording; *STATE is the writer's state (freed by end). */
int jfr_stream_write(const struct record_format *format, struct record_out *out, size_t last, bool end);

extern const char *const jfr_stream_expected[];
extern const size_t jfr_stream_expected_count;

#endif
