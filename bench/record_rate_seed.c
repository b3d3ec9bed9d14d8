/* record_rate_seed.c: bench-record-rate-seed, how many events a second the
 * seed trace formats' writers (formats/rec_trc.c, rec_trcbin.c) record
 * on one core (issue 14: >= 5 M events/s each).
 *
 *   bench-record-rate-seed [--format trc|trcbin|jfr] [--events N] [--threads T]
 *                          [--methods M] [--output FILE]
 *
 * The stream is synthetic and made before the clock starts: method enter
 * and return events, as --args --return gives them (two arguments, an int
 * and a string; a long return value), on T threads (default 4) of one JVM,
 * calls two deep (an outer method calling an inner one) over M distinct
 * methods (default 64) in 8 classes, picked by a fixed pseudo-random
 * sequence; timestamps rise 100 ns an event. The writer runs through the
 * bridge's struct record_out to FILE (default /dev/null). An untimed first
 * pass of the same events defines every thread, class and method, so the
 * timed pass (N events, default 10000000) is the steady state, where the
 * writers allocate nothing. Without --format both formats are measured;
 * --format jfr measures the JFR writer (formats/rec_jfr.c) the same way.
 * stdout gets only "RESULT <name> <value> <unit>" lines:
 * record_<format>_events_per_s, record_<format>_ns_per_event (wall clock),
 * record_<format>_bytes_per_event, record_<format>_events_per_cpu_s (the
 * thread's CPU time: the figure that holds on a shared machine, the write
 * system calls included); stderr a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "print.h"
#include "monoclock.h"
#include "record.h"
#include "wire.h"

#define CLASSES 8u
#define PASS_EVENTS_MAX 1000000u

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One prepared event: its method, enter or return, its thread. */
struct item {
	uint32_t method;
	uint8_t is_return;
	uint32_t tid;
};

/* As the bridge decodes each event into the one struct wire_event it
 * reuses, the stream is two of them (an enter, a return) whose name and
 * first argument change per item. */
struct stream {
	struct wire_event *enter, *ret;
	struct wire_str *names;
	char (*text)[96];
	struct item *items;
	size_t nitems;
};

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int make_stream(struct stream *st, size_t methods, size_t threads, size_t nitems)
{
	uint64_t seed = 0x5eed;

	st->enter = calloc(1, sizeof *st->enter);
	st->ret = calloc(1, sizeof *st->ret);
	st->names = calloc(methods, sizeof *st->names);
	st->text = calloc(methods, sizeof *st->text);
	st->items = calloc(nitems, sizeof *st->items);
	if (!st->enter || !st->ret || !st->names || !st->text || !st->items)
		return -ENOMEM;
	for (size_t m = 0; m < methods; m++) {
		int n = snprintf(st->text[m], sizeof st->text[m], "com.acme.bench.Service%zu.handle%zu(ILjava/lang/String;)J",
				 m % CLASSES, m);

		st->names[m] = (struct wire_str){ st->text[m], (uint32_t)n };
	}
	st->enter->code = WIRE_EV_METHOD_ENTER;
	st->enter->nvalues = 2;
	st->enter->values[0] = (struct wire_value){ .type = WIRE_T_INT };
	st->enter->values[1] = (struct wire_value){ .type = WIRE_T_STRING, .str = { "order-42", 8 } };
	st->ret->code = WIRE_EV_METHOD_EXIT;
	st->ret->retval = (struct wire_value){ .type = WIRE_T_LONG, .v.i = 42 };
	/* outer enter, inner enter, inner return, outer return, on a thread */
	for (size_t i = 0; i + 4 <= nitems; i += 4) {
		uint32_t tid = 1000 + (uint32_t)(next_random(&seed) % threads);
		uint32_t outer = (uint32_t)(next_random(&seed) % methods), inner = (uint32_t)(next_random(&seed) % methods);

		st->items[i] = (struct item){ outer, 0, tid };
		st->items[i + 1] = (struct item){ inner, 0, tid };
		st->items[i + 2] = (struct item){ inner, 1, tid };
		st->items[i + 3] = (struct item){ outer, 1, tid };
	}
	st->nitems = nitems / 4 * 4;
	return 0;
}

/* Events FROM..FROM+N of the stream (cycling) through F; TS advances. */
static int record_items(const struct record_format *f, void *state, struct record_out *out,
			const struct stream *st, size_t n, uint64_t *ts)
{
	struct print_meta meta = { .pid = 4242 };

	for (size_t i = 0; i < n; i++) {
		const struct item *it = &st->items[i % st->nitems];
		struct wire_event *ev = it->is_return ? st->ret : st->enter;
		int rc;

		ev->name = st->names[it->method];
		ev->values[0].v.i = it->method;
		meta.tid = it->tid;
		meta.ts_ns = (*ts += 100);
		if ((rc = f->event(state, out, &meta, ev)) < 0)
			return rc;
	}
	return 0;
}

static int measure(const struct record_format *f, const struct stream *st, size_t events, const char *path)
{
	struct record_out out = { .fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) };
	struct record_info info = { monotonic_ns(), 0 };
	void *state = calloc(1, f->state_size);
	uint64_t ts = info.start_ns, t0, t1, c0, c1, bytes0;
	double secs;
	int rc;

	if (out.fd < 0 || !state) {
		fprintf(stderr, "bench-record-rate-seed: %s: %s\n", path, out.fd < 0 ? strerror(errno) : "no memory");
		return -1;
	}
	if ((rc = f->begin(state, &out, &info)) < 0 ||
	    (rc = record_items(f, state, &out, st, st->nitems, &ts)) < 0)
		goto failed;
	bytes0 = out.offset;
	t0 = monotonic_ns();
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	rc = record_items(f, state, &out, st, events, &ts);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t1 = monotonic_ns();
	if (rc < 0)
		goto failed;
	secs = (double)(t1 - t0) / 1e9;
	printf("RESULT record_%s_events_per_s %.0f events/s\n", f->name, (double)events / secs);
	printf("RESULT record_%s_ns_per_event %.1f ns\n", f->name, (double)(t1 - t0) / (double)events);
	printf("RESULT record_%s_bytes_per_event %.1f bytes\n", f->name, (double)(out.offset - bytes0) / (double)events);
	printf("RESULT record_%s_events_per_cpu_s %.0f events/s\n", f->name, (double)events * 1e9 / (double)(c1 - c0));
	fprintf(stderr, "# %s: %zu events in %.3f s, %.1f MB written in the timed pass\n", f->name, events, secs,
		(double)(out.offset - bytes0) / 1e6);
	rc = f->end(state, &out);
	if (rc == 0)
		rc = record_out_flush(&out);
	record_out_release(&out);
	free(state);
	close(out.fd);
	return rc < 0 ? -1 : 0;
failed:
	fprintf(stderr, "bench-record-rate-seed: %s: %s\n", f->name, strerror(-rc));
	f->end(state, &out);
	record_out_release(&out);
	free(state);
	close(out.fd);
	return -1;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "events", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' }, { "methods", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' }, { NULL, 0, NULL, 0 },
	};
	const char *format = NULL, *path = "/dev/null";
	size_t events = 10000000, threads = 4, methods = 64;
	struct stream st;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'n': events = strtoull(optarg, NULL, 10); break;
		case 't': threads = strtoull(optarg, NULL, 10); break;
		case 'm': methods = strtoull(optarg, NULL, 10); break;
		case 'o': path = optarg; break;
		default:
			fprintf(stderr, "usage: bench-record-rate-seed [--format trc|trcbin|jfr] [--events N] "
				"[--threads T] [--methods M] [--output FILE]\n");
			return 2;
		}
	}
	if (events == 0 || threads == 0 || methods == 0) {
		fprintf(stderr, "bench-record-rate-seed: --events, --threads and --methods must be positive\n");
		return 2;
	}
	if (format && strcmp(format, "trc") != 0 && strcmp(format, "trcbin") != 0 && strcmp(format, "jfr") != 0) {
		fprintf(stderr, "bench-record-rate-seed: --format is trc, trcbin or jfr, not '%s'\n", format);
		return 2;
	}
	/* the stream repeats after a million events: four at the least, a call and its return */
	if (make_stream(&st, methods, threads, events < 4 ? 4 : events < PASS_EVENTS_MAX ? events : PASS_EVENTS_MAX) < 0) {
		fprintf(stderr, "bench-record-rate-seed: no memory\n");
		return 1;
	}
	for (const char *const *name = (const char *const[]){ "trc", "trcbin", "jfr", NULL }; *name; name++) {
		const struct record_format *f = record_format_by_name(*name);

		/* jfr only when asked: the 5 M events/s target is the seed formats' */
		if (format ? strcmp(format, *name) != 0 : strcmp(*name, "jfr") == 0)
			continue;
		if (!f || measure(f, &st, events, path) < 0)
			failed = 1;
	}
	return failed;
}
