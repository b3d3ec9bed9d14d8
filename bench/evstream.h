/* evstream.h: a synthetic agent stream for the event-path benchmarks.
 *
 * Contract: evstream_generate() writes the bytes an agent would send on one
 * connection: its Hello (0x90, host order, version 1, every capability),
 * then NEVENTS events, each with a trailer (seq from 1, a timestamp, an OS
 * thread id), all encoded with the runtime's own encoder
 * (runtime/wire_encode.c). The mix is what a script probing a hot method
 * plus a few library classes sees (see evstream.c for the numbers):
 * mostly method enters and exits with arguments and return values, by
 * number (CAP_METHOD_ID_VALUES) as our agent sends them, plus
 * class, exception, thread, monitor and GC events. With SYNC every event
 * that happens on a Java thread carries TF_SYNC, as in --sync. The output
 * is a function of (NEVENTS, SYNC, SEED) only. EVSTREAM_BRIDGE_OPTIONS are
 * bridge options whose slots and patterns select the stream's events the
 * way stap-java would register them. Returns 0 or -ENOMEM; *OUT is malloc'd.
 */
#ifndef STAPJAVA_BENCH_EVSTREAM_H
#define STAPJAVA_BENCH_EVSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EVSTREAM_HOT_METHOD "bench.Hot.add(II)I"

int evstream_generate(size_t nevents, bool sync, uint64_t seed, uint8_t **out, size_t *len);

/* NULL-terminated, for options_parse() after a program name. */
extern const char *const evstream_bridge_options[];

#endif
