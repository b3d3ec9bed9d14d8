/* fuzz_jfr_live.c: libFuzzer target for the live JFR chunk parser
 * (formats/jfr_live*.c): the bridge parses whatever chunk bytes a JVM's
 * agent streams to it.
 *
 * Input: one byte that sets the piece size (its value % 61 + 1), then the
 * bytes of one chunk.
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - feed and end return 0, -EINVAL or -E2BIG with a one-line message and
 *    an offset within the bytes fed, or -ENOMEM;
 *  - every event is within the bounds: a type, at most JFR_LIVE_MAX_FIELDS
 *    fields, each path at most JFR_LIVE_MAX_PATH bytes and each string
 *    NUL-terminated at its length; jfr_live_types' paths as well;
 *  - fed whole and fed in pieces, a chunk both accept gives the same events
 *    (a digest of every value) and the same count of unresolved ones;
 *  - and ASan/UBSan.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_live.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1u << 20)

struct run {
	uint64_t digest, events;
};

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_jfr_live: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001B3ull;
	return h;
}

static uint64_t mix_str(uint64_t h, const char *s, size_t max)
{
	size_t n;

	if (!s)
		die("a NULL string", NULL);
	n = strnlen(s, max + 1);
	if (n > max)
		die("a string past its bound", NULL);
	return mix(h, s, n + 1);
}

static bool want_all(void *ctx, const char *type)
{
	(void)ctx;
	return type && type[0];
}

static int got(void *ctx, const struct jfr_live_event *ev)
{
	struct run *r = ctx;
	uint64_t h = r->digest;

	r->events++;
	h = mix_str(h, ev->type, JFR_LIVE_MAX_CHUNK);
	h = mix(h, &ev->start_ns, sizeof ev->start_ns);
	h = mix(h, &ev->duration_ns, sizeof ev->duration_ns);
	h = mix(h, &ev->os_tid, sizeof ev->os_tid);
	h = mix_str(h, ev->thread_name, JFR_LIVE_MAX_CHUNK);
	if (ev->nfields > JFR_LIVE_MAX_FIELDS)
		die("more fields than the bound", ev->type);
	for (size_t i = 0; i < ev->nframes; i++) {
		h = mix_str(h, ev->frames[i].method, JFR_LIVE_MAX_CHUNK);
		h = mix_str(h, ev->frames[i].descriptor, JFR_LIVE_MAX_CHUNK);
		h = mix_str(h, ev->frames[i].type, JFR_LIVE_MAX_CHUNK);
		h = mix(h, &ev->frames[i].line, sizeof ev->frames[i].line);
	}
	for (size_t i = 0; i < ev->nfields; i++) {
		const struct jfr_live_field *f = &ev->fields[i];

		h = mix_str(h, f->path, JFR_LIVE_MAX_PATH);
		h = mix(h, &f->v.kind, sizeof f->v.kind);
		if (f->v.kind == JFR_LIVE_STRING) {
			if (f->v.s[f->v.slen] != 0)
				die("a string not NUL-terminated at its length", f->path);
			h = mix(h, f->v.s, f->v.slen);
		} else if (f->v.kind == JFR_LIVE_LONG) {
			h = mix(h, &f->v.l, sizeof f->v.l);
		} else if (f->v.kind == JFR_LIVE_DOUBLE) {
			h = mix(h, &f->v.d, sizeof f->v.d);
		}
	}
	r->digest = h;
	return 0;
}

static int type_paths(void *ctx, const char *type, const char *const *paths, size_t npaths)
{
	(void)ctx;
	mix_str(0, type, JFR_LIVE_MAX_CHUNK);
	if (npaths > JFR_LIVE_MAX_FIELDS)
		die("more paths than the bound", type);
	for (size_t i = 0; i < npaths; i++)
		mix_str(0, paths[i], JFR_LIVE_MAX_PATH);
	return 0;
}

static void check_rc(int rc, const struct record_error *err, size_t fed)
{
	if (rc == 0 || rc == -ENOMEM)
		return;
	if (rc != -EINVAL && rc != -E2BIG)
		die("an unexpected return code", NULL);
	if (err->offset > fed || !err->text[0] || !memchr(err->text, '\0', sizeof err->text) ||
	    strchr(err->text, '\n'))
		die("a refusal without an offset in the bytes fed and a one-line message", err->text);
}

/* Feed DATA in pieces of PIECE (0: whole): 0 when every call accepted it. */
static int run(const uint8_t *data, size_t size, size_t piece, struct run *r, uint64_t *unresolved)
{
	struct jfr_live *s;
	struct record_error err;
	int rc = 0;

	memset(r, 0, sizeof *r);
	memset(&err, 0, sizeof err);
	if (jfr_live_new(&s, want_all, got, r) < 0)
		return -ENOMEM;
	jfr_live_chunk_begin(s);
	for (size_t at = 0; at < size && rc == 0;) {
		size_t n = piece && piece < size - at ? piece : size - at;

		rc = jfr_live_feed(s, data + at, n, &err);
		at += n;
		check_rc(rc, &err, at);
	}
	if (rc == 0 && jfr_live_types(s, type_paths, NULL) < 0)
		die("jfr_live_types failed", NULL);
	if (rc == 0) {
		rc = jfr_live_end(s, unresolved, &err);
		check_rc(rc, &err, size);
	}
	jfr_live_free(s);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run whole, pieces;
	uint64_t u1 = 0, u2 = 0;
	int a, b;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	a = run(data + 1, size - 1, 0, &whole, &u1);
	b = run(data + 1, size - 1, data[0] % 61 + 1, &pieces, &u2);
	if (a == 0 && b == 0 && (whole.digest != pieces.digest || whole.events != pieces.events || u1 != u2))
		die("fed whole and in pieces, the same chunk gives other events", NULL);
	return 0;
}
