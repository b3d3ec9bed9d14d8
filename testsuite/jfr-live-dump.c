/* jfr-live-dump: feed a .jfr file through the live JFR parser
 * (formats/jfr_live.c) in pieces, and print every event it delivers with
 * every field, for testsuite/jfr_live.bats (which compares them with
 * `jfr print --json` of the same file) and for bench/run.
 *
 *   jfr-live-dump [--piece N] [--types T,T...] [--count] FILE
 *
 * --piece N: the bytes are fed N at a time (default: each chunk whole).
 * --types: only these event types are wanted (default: every type).
 * --count: print only the last line, with the number of events and the
 * CPU seconds the parsing took.
 * --list: after the first chunk, its event types instead of events, one a
 * line: the type, then its field paths as jfr_live_types gives them.
 * --bench SECONDS: parse the file again and again for that much CPU time (3
 * times at least) and print RESULT lines (bench/run's row 9j, as bench/bench-jfr-live):
 * jfr_live_events_per_s, _ns_per_event, _mb_per_s, _events (a pass), _bytes.
 * A chunk whose header says it is complete is fed as one chunk; the rest
 * of the file (a chunk the JVM is still writing) as the last one.
 *
 * One line a event, a JSON object: {"type", "startTime", "duration", "tid",
 * "thread", "truncated", "frames": [[method, descriptor, line, type]...],
 * "fields": [[path, kind, value]...]} with kind "L" (integer), "D"
 * (floating point, printed with %.17g), "S" (string) or "N" (null); then
 * {"end": true, "events": N, "unresolved": N, "error": null or "at OFFSET
 * of chunk K: TEXT (RC)"}. Exit status 0, or 1 when an error was reported.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jfr_live.h"
#include "rec_jfr_bytes.h"

struct dump {
	const char *types;   /* "T,T": NULL for all */
	bool count_only, list;
	uint64_t events;
};

static bool want(void *ctx, const char *type)
{
	const struct dump *d = ctx;
	size_t n = strlen(type);

	if (!d->types)
		return true;
	for (const char *p = d->types; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && memcmp(p, type, n) == 0)
			return true;
		p += len + (e != NULL);
	}
	return false;
}

static void json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static int print_event(void *ctx, const struct jfr_live_event *ev)
{
	struct dump *d = ctx;

	d->events++;
	if (d->count_only || d->list)
		return 0;
	printf("{\"type\": ");
	json_string(ev->type);
	printf(", \"startTime\": %" PRId64 ", \"duration\": %" PRId64 ", \"tid\": %" PRIu64 ", \"thread\": ",
	       ev->start_ns, ev->duration_ns, ev->os_tid);
	json_string(ev->thread_name);
	printf(", \"truncated\": %s, \"frames\": [", ev->stack_truncated ? "true" : "false");
	for (size_t i = 0; i < ev->nframes; i++) {
		const struct jfr_live_frame *f = &ev->frames[i];

		printf("%s[", i ? ", " : "");
		json_string(f->method);
		printf(", ");
		json_string(f->descriptor);
		printf(", %" PRId32 ", ", f->line);
		json_string(f->type);
		printf("]");
	}
	printf("], \"fields\": [");
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct jfr_live_field *f = &ev->fields[i];

		printf("%s[", i ? ", " : "");
		json_string(f->path);
		switch (f->v.kind) {
		case JFR_LIVE_LONG:
			printf(", \"L\", %" PRId64 "]", f->v.l);
			break;
		case JFR_LIVE_DOUBLE:
			if (f->v.d != f->v.d || f->v.d - f->v.d != 0)
				printf(", \"D\", null]");   /* NaN, infinities: as the JDK's JSON */
			else
				printf(", \"D\", %.17g]", f->v.d);
			break;
		case JFR_LIVE_STRING:
			printf(", \"S\", ");
			json_string(f->v.s);
			printf("]");
			break;
		default:
			printf(", \"N\", null]");
		}
	}
	printf("]}\n");
	return 0;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (*len == cap) {
			uint8_t *more = realloc(data, cap ? 2 * cap : 1 << 16);

			if (!more)
				break;
			data = more;
			cap = cap ? 2 * cap : 1 << 16;
		}
		n = fread(data + *len, 1, cap - *len, f);
		if (n == 0)
			break;
		*len += n;
	}
	fclose(f);
	return data;
}

/* Where the chunk at AT ends: its header's size when it says it is
 * complete and fits, else the end of the file. */
static size_t chunk_end(const uint8_t *data, size_t len, size_t at)
{
	uint64_t size;

	if (len - at < JFR_HEADER_SIZE || data[at + JFR_HDR_STATE] != 0)
		return len;
	size = jfr_load_be(data + at + JFR_HDR_SIZE, 8);
	return size >= JFR_HEADER_SIZE && size <= len - at ? at + (size_t)size : len;
}

static int print_type(void *ctx, const char *type, const char *const *paths, size_t npaths)
{
	(void)ctx;
	printf("%s:", type);
	for (size_t i = 0; i < npaths; i++)
		printf(" %s", paths[i]);
	printf("\n");
	return 0;
}

struct parse {
	uint64_t unresolved;
	struct record_error err;
	size_t chunk;        /* the chunk the error is in */
};

/* DATA through S, chunk by chunk, in pieces of PIECE (0: whole); LIST: the
 * first chunk's types listed once it is fed. */
static int parse(struct jfr_live *s, const uint8_t *data, size_t len, size_t piece, bool list, struct parse *r)
{
	int rc = 0;

	memset(r, 0, sizeof *r);
	for (size_t at = 0; at < len && rc == 0; r->chunk++) {
		size_t end = chunk_end(data, len, at);

		jfr_live_chunk_begin(s);
		for (size_t p = at; p < end && rc == 0;) {
			size_t n = piece && piece < end - p ? piece : end - p;

			rc = jfr_live_feed(s, data + p, n, &r->err);
			p += n;
		}
		if (rc == 0)
			at = end;
		if (rc == 0 && list) {
			list = false;
			rc = jfr_live_types(s, print_type, NULL);
		}
	}
	r->chunk -= r->chunk > 0;
	if (rc == 0)
		return jfr_live_end(s, &r->unresolved, &r->err);
	jfr_live_end(s, &r->unresolved, &(struct record_error){ 0, "" });
	return rc;
}

/* CPU seconds of this thread: on a shared machine, what the parsing costs
 * one core, not what others take of it. */
static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* --bench: whole passes over the file for SECS seconds (3 at least). */
static int bench(struct jfr_live *s, struct dump *d, const uint8_t *data, size_t len, size_t piece, double secs)
{
	struct parse r;
	uint64_t passes = 0;
	double t0 = seconds(), t;
	int rc;

	d->count_only = true;
	do {
		rc = parse(s, data, len, piece, false, &r);
		passes++;
		t = seconds() - t0;
	} while (rc == 0 && (t < secs || passes < 3));
	if (rc != 0 || d->events == 0) {
		fprintf(stderr, "jfr-live-dump: %s (%d), %" PRIu64 " events\n", r.err.text, rc, d->events);
		return 1;
	}
	printf("RESULT jfr_live_events_per_s %.0f events/s\n", (double)d->events / t);
	printf("RESULT jfr_live_ns_per_event %.1f ns\n", t * 1e9 / (double)d->events);
	printf("RESULT jfr_live_mb_per_s %.1f MB/s\n", (double)len * (double)passes / t / 1e6);
	printf("RESULT jfr_live_events %" PRIu64 " events\n", d->events / passes);
	printf("RESULT jfr_live_bytes %zu bytes\n", len);
	return 0;
}

int main(int argc, char **argv)
{
	struct dump d = { .types = NULL };
	struct jfr_live *s;
	struct parse r;
	size_t piece = 0, len;
	const char *file = NULL;
	uint8_t *data;
	double t0, bench_secs = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--piece") == 0 && i + 1 < argc)
			piece = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--types") == 0 && i + 1 < argc)
			d.types = argv[++i];
		else if (strcmp(argv[i], "--count") == 0)
			d.count_only = true;
		else if (strcmp(argv[i], "--list") == 0)
			d.list = true;
		else if (strcmp(argv[i], "--bench") == 0 && i + 1 < argc)
			bench_secs = strtod(argv[++i], NULL);
		else
			file = argv[i];
	}
	if (!file) {
		fprintf(stderr, "usage: jfr-live-dump [--piece N] [--types T,T...] [--count | --list | --bench SECONDS] FILE\n");
		return 2;
	}
	data = slurp(file, &len);
	if (!data) {
		fprintf(stderr, "jfr-live-dump: %s: %s\n", file, strerror(errno));
		return 2;
	}
	if (jfr_live_new(&s, want, print_event, &d) < 0)
		return 2;
	if (bench_secs > 0) {
		rc = bench(s, &d, data, len, piece, bench_secs);
		jfr_live_free(s);
		free(data);
		return rc;
	}
	t0 = seconds();
	rc = parse(s, data, len, piece, d.list, &r);
	printf("{\"end\": true, \"events\": %" PRIu64 ", \"unresolved\": %" PRIu64 ", ", d.events, r.unresolved);
	if (d.count_only)
		printf("\"seconds\": %.6f, ", seconds() - t0);
	printf("\"error\": ");
	if (rc == 0) {
		printf("null}\n");
	} else {
		char text[300];

		snprintf(text, sizeof text, "at %" PRIu64 " of chunk %zu: %s (%d)", r.err.offset, r.chunk, r.err.text, rc);
		json_string(text);
		printf("}\n");
	}
	jfr_live_free(s);
	free(data);
	return rc == 0 ? 0 : 1;
}
