/* record_stream.c: bench-record-stream, events a second a recording format
 * (formats/record.h) writes on one core from the stream of bench row
 * 9a2 (issue 14's targets are set on it).
 *
 *   bench-record-stream [--format NAME] [--events N] [--output FILE] [--seed S]
 *
 * The stream is evstream.c's (the hot method, library and application
 * methods with their arguments and return values, class, exception,
 * monitor, thread and GC events, one JVM), N events (default 4 000 000),
 * decoded with the runtime's decoder as the worker decodes it. A first pass
 * only decodes, and is timed; the second decodes and records, and the
 * first's time is taken off. The format writes through a record_out to FILE
 * (default /dev/null), with a tick every 1 000 000 events, as the bridge's
 * once a second would at that rate. Without --format every format of the
 * table is measured. stdout: RESULT record_stream_NAME_events_per_s,
 * _ns_per_event, _bytes_per_event; stderr, a summary. bench-record-rate-seed
 * measures method calls alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evstream.h"
#include "methodids.h"
#include "record.h"
#include "wire.h"

#define TICK_EVERY 1000000u

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Decode the stream, and record each event with F unless F is NULL. */
static int pass(const struct record_format *f, void *state, struct record_out *out, const uint8_t *data,
		size_t len, struct wire_event *ev, uint64_t *events)
{
	struct print_meta m = { .pid = 4242 };
	struct methodids ids = { 0 };
	struct wire_peer peer;
	struct wire_error err = { 0 };
	size_t used;
	int rc = 0;

	wire_peer_init(&peer);
	*events = 0;
	for (size_t at = 0; at < len && rc == 0; at += used) {
		if (wire_decode_event(&peer, data + at, len - at, ev, &used, &err) < 0) {
			fprintf(stderr, "bench-record-stream: the stream does not decode: %s\n", err.text);
			return -EINVAL;
		}
		if (ev->code == WIRE_EV_HELLO) {
			rc = wire_peer_accept_hello(&peer, &ev->hello, WIRE_CAP_ALL);
			continue;
		}
		/* methods by number, as the worker takes them (handler_method_number) */
		rc = methodids_take(&ids, ev, err.text, sizeof err.text);
		if (rc != 0 || !f) {
			rc = rc == 1 ? 0 : rc;   /* a MethodName: no event of its own */
			continue;
		}
		m.tid = ev->trailer.os_tid;
		m.ts_ns = ev->trailer.timestamp_ns;
		m.owner_tid = ev->trailer.owner_tid;
		rc = f->event(state, out, &m, ev);
		if (rc == 0 && ++*events % TICK_EVERY == 0 && f->tick)
			rc = f->tick(state, out, m.ts_ns);
	}
	if (rc < 0 && err.text[0])
		fprintf(stderr, "bench-record-stream: %s\n", err.text);
	methodids_free(&ids);
	return rc;
}

static int measure(const struct record_format *f, const uint8_t *data, size_t len, struct wire_event *ev,
		   const char *path)
{
	struct record_out out = { .fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) };
	struct record_info info = { clock_ns(CLOCK_MONOTONIC), clock_ns(CLOCK_REALTIME) };
	void *state = calloc(1, f->state_size);
	uint64_t events, t0, decode_ns, record_ns;
	int rc = out.fd < 0 ? -errno : state ? 0 : -ENOMEM;

	t0 = clock_ns(CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pass(NULL, NULL, NULL, data, len, ev, &events);
	decode_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	if (rc == 0)
		rc = f->begin(state, &out, &info);
	t0 = clock_ns(CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pass(f, state, &out, data, len, ev, &events);
	if (state) {
		int erc = f->end(state, &out);

		rc = rc ? rc : erc;
	}
	if (rc == 0)
		rc = record_out_flush(&out);
	record_ns = clock_ns(CLOCK_MONOTONIC) - t0 - decode_ns;
	if (rc == 0) {
		printf("RESULT record_stream_%s_events_per_s %.0f events/s\n", f->name, (double)events * 1e9 / (double)record_ns);
		printf("RESULT record_stream_%s_ns_per_event %.1f ns\n", f->name, (double)record_ns / (double)events);
		printf("RESULT record_stream_%s_bytes_per_event %.1f bytes\n", f->name, (double)out.offset / (double)events);
		fprintf(stderr, "# %s: %" PRIu64 " events of the 9a2 stream in %.3f s (decoding taken off), %" PRIu64
			" bytes to %s\n", f->name, events, (double)record_ns / 1e9, out.offset, path);
	} else {
		fprintf(stderr, "bench-record-stream: %s: %s\n", f->name, strerror(-rc));
	}
	record_out_release(&out);
	if (out.fd >= 0)
		close(out.fd);
	free(state);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' }, { "events", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' }, { "seed", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *path = "/dev/null", *names = record_format_names();
	uint64_t n = 4000000, seed = 1;
	struct wire_event *ev = malloc(sizeof *ev);
	uint8_t *data;
	size_t len;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'o': path = optarg; break;
		case 'S': seed = strtoull(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: bench-record-stream [--format NAME] [--events N] [--output FILE] "
				"[--seed S]\n");
			return 2;
		}
	}
	if (format && !record_format_by_name(format)) {
		fprintf(stderr, "bench-record-stream: no format '%s' (%s)\n", format, names);
		return 2;
	}
	if (!ev || evstream_generate(n, false, seed, &data, &len) < 0) {
		fprintf(stderr, "bench-record-stream: no memory\n");
		return 1;
	}
	/* "jfr, trc, trcbin": each name of the table, or the one asked for */
	for (const char *p = names; *p;) {
		size_t k = strcspn(p, ",");
		char name[32];

		snprintf(name, sizeof name, "%.*s", (int)k, p);
		p += k + strspn(p + k, ", ");
		if (format && strcmp(format, name) != 0)
			continue;
		if (measure(record_format_by_name(name), data, len, ev, path) < 0)
			failed = 1;
	}
	free(data);
	free(ev);
	return failed;
}
