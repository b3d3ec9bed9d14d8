/* Unit tests of the JFR recording format (formats/rec_jfr*.c): the
 * compressed integers and record sizes, the chunk header's bytes, the
 * values' text both ways, the round trip of the synthetic stream
 * (jfr_stream.c) through the writer and the reader, a recording cut short
 * (the bridge killed; the file truncated), and bad input refused with the
 * offset. The JDK's own `jfr` reads the same stream in record_jfr.bats. */
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfr_stream.h"
#include "rec_jfr_bytes.h"
#include "rec_jfr_value.h"
#include "record.h"

/* ---- helpers */
struct file {
	uint8_t *data;
	size_t len;
};

/* The stream's steps [0, LAST) recorded, ended when END. */
static struct file record_stream(size_t last, bool end)
{
	FILE *f = tmpfile();
	struct record_out out = { .fd = fileno(f) };
	struct file r = { 0 };
	long n;

	assert_non_null(f);
	assert_int_equal(jfr_stream_write(&record_format_jfr, &out, last, end), 0);
	record_out_release(&out);
	n = lseek(out.fd, 0, SEEK_END);
	assert_true(n > 0);
	r.len = (size_t)n;
	r.data = malloc(r.len);
	assert_non_null(r.data);
	assert_int_equal(pread(out.fd, r.data, r.len, 0), (ssize_t)r.len);
	fclose(f);
	return r;
}

struct lines {
	char **text;
	size_t n;
};

static int collect(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	struct lines *l = ctx;
	static char line[PRINT_LINE_MAX];
	ssize_t n = print_event_line(line, sizeof line, meta, ev);

	assert_true(n > 0);
	line[n - 1] = '\0';   /* the newline */
	l->text = realloc(l->text, (l->n + 1) * sizeof *l->text);
	assert_non_null(l->text);
	l->text[l->n++] = strdup(line);
	return 0;
}

static void free_lines(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->text[i]);
	free(l->text);
	l->text = NULL;
	l->n = 0;
}

/* Read DATA; the status, and ERR. */
static int read_jfr(const uint8_t *data, size_t len, struct lines *l, struct record_error *err)
{
	memset(err, 0, sizeof *err);
	return record_format_jfr.read(data, len, collect, l, err);
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* ---- compressed integers */
static void assert_varint(uint64_t v, const char *hex)
{
	uint8_t buf[JFR_VARINT_MAX], want[JFR_VARINT_MAX];
	size_t n = jfr_varint_encode(buf, v), wn = strlen(hex) / 2;
	struct jfr_cursor c = { buf, 0, n, false };

	for (size_t i = 0; i < wn; i++)
		sscanf(hex + 2 * i, "%2hhx", &want[i]);
	assert_int_equal(n, wn);
	assert_memory_equal(buf, want, n);
	assert_int_equal(jfr_varint_len(v), n);
	assert_true(jfr_get_varint(&c) == v);
	assert_false(c.bad);
	assert_int_equal(c.pos, n);
	/* one byte short: the cursor says so */
	c = (struct jfr_cursor){ buf, 0, n - 1, false };
	jfr_get_varint(&c);
	assert_true(c.bad);
}

static void test_varint(void **state)
{
	(void)state;
	assert_varint(0, "00");
	assert_varint(1, "01");
	assert_varint(127, "7f");
	assert_varint(128, "8001");
	assert_varint(300, "ac02");
	assert_varint(16383, "ff7f");
	assert_varint(16384, "808001");
	assert_varint(0xFFFFFFFFu, "ffffffff0f");           /* an int's -1 */
	assert_varint((1ull << 56) - 1, "ffffffffffffff7f");
	assert_varint(1ull << 56, "808080808080808001");    /* the ninth byte: 8 bits */
	assert_varint(UINT64_MAX, "ffffffffffffffffff");
	assert_varint(1000000000000ull, "80a094a58d1d");
}

static void test_record_size(void **state)
{
	(void)state;
	/* the size counts its own bytes */
	assert_int_equal(jfr_record_size(0), 1);
	assert_int_equal(jfr_record_size(126), 127);
	assert_int_equal(jfr_record_size(127), 129);
	assert_int_equal(jfr_record_size(128), 130);
	assert_int_equal(jfr_record_size(16381), 16383);
	assert_int_equal(jfr_record_size(16382), 16385);
}

static void test_string_encoding(void **state)
{
	struct jfr_buf b = { 0 };
	static const uint8_t want[] = { 0, 1, 3, 2, 'h', 'i' };

	(void)state;
	jfr_put_string(&b, NULL, 0);
	jfr_put_string(&b, "", 0);
	jfr_put_string(&b, "hi", 2);
	assert_int_equal(b.len, sizeof want);
	assert_memory_equal(b.data, want, sizeof want);
	jfr_buf_free(&b);
}

/* ---- the chunk header */
static void assert_header(const uint8_t *h, uint64_t size, uint64_t start_ticks, uint64_t duration,
			  unsigned flags)
{
	static const uint8_t magic_version[] = { 'F', 'L', 'R', 0, 0, 2, 0, 1 };

	assert_memory_equal(h, magic_version, sizeof magic_version);
	assert_true(be64(h + 8) == size);
	assert_true(be64(h + 32) == JFR_STREAM_WALL + (start_ticks - JFR_STREAM_T0));   /* wall clock */
	assert_true(be64(h + 40) == duration);
	assert_true(be64(h + 48) == start_ticks);
	assert_true(be64(h + 56) == 1000000000u);       /* ticks: nanoseconds */
	assert_int_equal(h[64], 0);                      /* finished */
	assert_int_equal(h[65], 0);
	assert_int_equal(h[66], 0);
	assert_int_equal(h[67], flags);
}

/* The record at OFF has type TYPE. */
static void assert_record_type(const struct file *f, uint64_t off, uint64_t type)
{
	struct jfr_cursor c = { f->data, (size_t)off, f->len, false };

	jfr_get_varint(&c);
	assert_true(jfr_get_varint(&c) == type);
}

static void test_chunk_headers(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	uint64_t c1 = be64(f.data + 8), c2 = be64(f.data + c1 + 8), c3;

	(void)state;
	/* three chunks: closed at the two ticks and at the end */
	assert_true(c1 + c2 < f.len);
	c3 = be64(f.data + c1 + c2 + 8);
	assert_true(c1 + c2 + c3 == f.len);
	/* chunk 1: vm.init (+500) to the call of Shop.handle that returns at +6000 */
	assert_header(f.data, c1, JFR_STREAM_T0 + 500, 5500, 1);
	/* chunk 2: the GC that finished at +9000 to the compile at +32000 */
	assert_header(f.data + c1, c2, JFR_STREAM_T0 + 9000, 23000, 1);
	/* chunk 3, the last: from the call with no return (+30000) to +44500 */
	assert_header(f.data + c1 + c2, c3, JFR_STREAM_T0 + 30000, 14500, 3);
	for (uint64_t at = 0; at < f.len; at += be64(f.data + at + 8)) {
		assert_record_type(&f, at + be64(f.data + at + 16), 1);   /* constant pools */
		assert_record_type(&f, at + be64(f.data + at + 24), 0);   /* metadata */
	}
	free(f.data);
}

/* ---- values as text */
static void assert_values(const char *text, const char *types)
{
	struct wire_value v[16];
	struct jfr_buf b = { 0 };
	size_t n = strlen(types), bad = 0;
	char *arena = malloc(JFR_VALUES_ARENA(strlen(text), n));

	assert_int_equal(jfr_values_parse(text, strlen(text), types, n, v, arena, &bad), 0);
	/* the parsed values print as the text they came from */
	assert_int_equal(jfr_values_format(&b, v, n), 0);
	assert_int_equal(b.len, strlen(text));
	assert_memory_equal(b.data, text, b.len);
	jfr_buf_free(&b);
	free(arena);
}

static void assert_values_bad(const char *text, const char *types, size_t at)
{
	struct wire_value v[16];
	size_t bad = 99;
	char arena[256];

	assert_int_equal(jfr_values_parse(text, strlen(text), types, strlen(types), v, arena, &bad), -EINVAL);
	assert_int_equal(bad, at);
}

static void test_values(void **state)
{
	struct wire_value v[4];
	size_t bad;
	char arena[256];

	(void)state;
	assert_values("", "");
	assert_values("true, false, -128, 127, -32768, 2147483647, -9223372036854775808", "ZZBBSIJ");
	assert_values("'x', U+0027, U+FFFF, ','", "CCCC");
	assert_values("1.5, 0.100000001, NaN, -Infinity", "FFFD");
	assert_values("0.10000000000000001, 1e+22, -0", "DDD");
	assert_values("void, null, ?", "VN?");
	assert_values("\"a, \\\"b\\\"\\n\\\\\\x01\\xff\"..., \"\"", "TT");
	assert_values("java.lang.Object@beef#6, p.Odd,\\x20name@1#9", "LL");
	assert_values("int[3]#5, java.lang.String[][0]#7, p.Foo.0x12[1]#8", "[[[");
	/* what each letter holds */
	assert_int_equal(jfr_values_parse("-5, 'x', 1.5", 12, "BCF", 3, v, arena, &bad), 0);
	assert_int_equal(v[0].v.i, -5);
	assert_int_equal(v[1].v.i, 'x');
	assert_true(v[2].v.f == 1.5f);
	assert_int_equal(jfr_values_parse("int[3]#5", 8, "[", 1, v, arena, &bad), 0);
	assert_int_equal(v[0].str.len, 2);
	assert_memory_equal(v[0].str.ptr, "[I", 2);
	assert_int_equal(v[0].aux, 3);
	assert_true(v[0].object_id == 5);
	/* refused, where */
	assert_values_bad("128", "B", 0);
	assert_values_bad("1,2", "II", 0);
	assert_values_bad("1, x", "II", 3);
	assert_values_bad("maybe", "Z", 0);
	assert_values_bad("\"open", "T", 5);
	assert_values_bad("\"\\q\"", "T", 3);
	assert_values_bad("Object#6", "L", 0);
	assert_values_bad("1", "Q", 0);
	assert_values_bad("1, 2", "I", 1);
}

/* ---- the round trip */
static void assert_lines(const struct lines *l, const char *const *want, size_t n)
{
	for (size_t i = 0; i < l->n && i < n; i++)
		if (strcmp(l->text[i], want[i]) != 0)
			fail_msg("line %zu:\n got: %s\nwant: %s", i, l->text[i], want[i]);
	assert_int_equal(l->n, n);
}

static void test_round_trip(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	struct lines l = { 0 };
	struct record_error err;

	(void)state;
	assert_int_equal(read_jfr(f.data, f.len, &l, &err), 0);
	assert_lines(&l, jfr_stream_expected, jfr_stream_expected_count);
	free_lines(&l);
	free(f.data);
}

/* The same, from the other side: the stream's own --print lines (it is in
 * time order), and the bridge's loss, which has none. */
static void test_round_trip_is_print(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	struct lines got = { 0 }, want = { 0 };
	struct record_error err;
	struct jfr_step *s = malloc(sizeof *s);

	(void)state;
	for (size_t i = 0; jfr_stream_step(i, s); i++) {
		if (s->kind == JFR_STEP_EVENT && print_event_label(s->ev.code)) {
			collect(&want, &s->meta, &s->ev);
		} else if (s->kind == JFR_STEP_LOST) {
			struct print_meta m = { .ts_ns = s->meta.ts_ns };
			struct wire_event *ev = calloc(1, sizeof *ev);

			ev->code = WIRE_EV_LOST;
			ev->lost = s->count;
			collect(&want, &m, ev);
			free(ev);
		}
	}
	assert_int_equal(read_jfr(f.data, f.len, &got, &err), 0);
	assert_lines(&got, (const char *const *)want.text, want.n);
	free_lines(&got);
	free_lines(&want);
	free(s);
	free(f.data);
}

/* ---- cut short */
/* The lines of the chunks closed by the two ticks: all but what was
 * written after the second (a call open then, and what came later). */
static size_t complete_chunks_lines(const char **want)
{
	size_t n = 0;

	for (size_t i = 0; i < jfr_stream_expected_count; i++) {
		const char *ts = strstr(jfr_stream_expected[i], " ts=");

		if (strtoull(ts + 4, NULL, 10) >= JFR_STREAM_T0 + 32500 ||
		    strstr(jfr_stream_expected[i], "Shop.loop()V"))
			continue;
		want[n++] = jfr_stream_expected[i];
	}
	return n;
}

static void test_killed(void **state)
{
	/* steps up to the second tick: what a bridge killed then leaves */
	struct file f = record_stream(30, false);
	struct lines l = { 0 };
	struct record_error err;
	const char *want[64];
	size_t n = complete_chunks_lines(want);

	(void)state;
	assert_int_equal(n, 26);
	assert_int_equal(read_jfr(f.data, f.len, &l, &err), 0);
	assert_lines(&l, want, n);
	free_lines(&l);
	free(f.data);
}

static void test_truncated(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	uint64_t c1 = be64(f.data + 8), c2 = be64(f.data + c1 + 8);
	struct lines l = { 0 };
	struct record_error err;
	const char *want[64];
	size_t n = complete_chunks_lines(want);

	(void)state;
	/* cut in the middle of the last chunk */
	assert_int_equal(read_jfr(f.data, (size_t)(c1 + c2 + (f.len - c1 - c2) / 2), &l, &err), -EINVAL);
	assert_lines(&l, want, n);
	assert_true(err.offset == c1 + c2);
	assert_non_null(strstr(err.text, "the file was cut short (the "));
	assert_non_null(strstr(err.text, " bytes before it are whole chunks)"));
	free_lines(&l);
	/* cut in its header */
	assert_int_equal(read_jfr(f.data, (size_t)(c1 + c2 + 20), &l, &err), -EINVAL);
	assert_lines(&l, want, n);
	assert_true(err.offset == c1 + c2);
	assert_string_equal(err.text, "a chunk header needs 68 bytes, 20 remain (the file was cut short)");
	free_lines(&l);
	/* every prefix: the lines of its whole chunks, then an error, never more */
	for (size_t len = 0; len < f.len; len++) {
		int rc = read_jfr(f.data, len, &l, &err);
		size_t whole = len >= c1 + c2 ? n : 0;

		if (len == c1 || len == c1 + c2) {   /* chunk ends: a whole file */
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -EINVAL);
			assert_true(err.offset <= len);
		}
		if (len < c1 + c2)
			assert_true(l.n < n);
		else
			assert_int_equal(l.n, whole);
		free_lines(&l);
	}
	free(f.data);
}

/* ---- bad input */
struct corruption {
	const char *what;
	size_t at;                 /* where to write, from the first chunk's start */
	uint8_t bytes[8];
	size_t n;
	size_t offset;             /* what the error names */
	const char *text;          /* a part of its message */
};

static void test_malformed(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	uint64_t cp = be64(f.data + 16), meta = be64(f.data + 24);
	struct jfr_cursor c1 = { f.data, (size_t)cp, f.len, false }, c2 = { f.data, (size_t)meta, f.len, false };
	size_t cp_type = (size_t)cp + jfr_varint_len(jfr_get_varint(&c1));
	size_t meta_type = (size_t)meta + jfr_varint_len(jfr_get_varint(&c2));
	const struct corruption cases[] = {
		{ "magic", 0, { 'F', 'L', 'X' }, 3, 0, "no JFR chunk starts here" },
		{ "version", 4, { 0, 3 }, 2, 4, "JFR chunk version 3.1: only version 2 is read" },
		{ "size", 8, { 0x7f }, 1, 0, "remain: the file was cut short (the 0 bytes before it" },
		{ "size 0", 8, { 0, 0, 0, 0, 0, 0, 0, 0 }, 8, 8, "the chunk here says it is 0 bytes" },
		{ "pool offset", 16, { 0x7f }, 1, 16, "the constant pool offset" },
		{ "metadata offset", 24, { 0, 0, 0, 0, 0, 0, 0, 3 }, 8, 24, "the metadata offset 3 is outside" },
		{ "clock", 56, { 0, 0, 0, 0, 0, 0, 0, 0 }, 8, 56, "0 ticks per second" },
		{ "state", 64, { 1 }, 1, 64, "was never finished" },
		{ "flags", 66, { 0, 0 }, 2, 66, "not compressed" },
		{ "metadata type", meta_type, { 5 }, 1, (size_t)meta, "has type 5, not 0" },
		{ "pool type", cp_type, { 7 }, 1, (size_t)cp, "has type 7, not 1" },
		{ "first record's size", 68, { 0 }, 1, 68, "a record whose size (0)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct corruption *c = &cases[i];
		uint8_t *copy = malloc(f.len);
		struct lines l = { 0 };
		struct record_error err;

		memcpy(copy, f.data, f.len);
		memcpy(copy + c->at, c->bytes, c->n);
		if (read_jfr(copy, f.len, &l, &err) != -EINVAL || err.offset != c->offset || !strstr(err.text, c->text))
			fail_msg("%s: offset %llu, \"%s\"", c->what, (unsigned long long)err.offset, err.text);
		assert_int_equal(l.n, 0);   /* the first chunk is bad: nothing before it */
		free(copy);
	}
	free(f.data);
}

/* Values that do not parse are refused at their field, and the message
 * quotes the bytes where it stopped escaped: a newline from the file does
 * not end the message's line (the fuzzer found one that did). */
static void test_bad_values(void **state)
{
	static const char text[] = "\"a, \\\"b\\\"\\n\\\\\", p.Odd,\\x20name@1#9";
	struct file f = record_stream(SIZE_MAX, true);
	uint8_t *at = memmem(f.data, f.len, text, strlen(text));
	size_t field = (size_t)(at - f.data) - 1 - jfr_varint_len(strlen(text));
	struct lines l = { 0 };
	struct record_error err;

	(void)state;
	assert_non_null(at);
	at[strlen("\"a, \\\"b\\\"\\n\\\\\", p.Odd,\\x")] = '\n';   /* \x20 made \x\n0 */
	assert_int_equal(read_jfr(f.data, f.len, &l, &err), -EINVAL);
	assert_true(err.offset == field);
	assert_string_equal(err.text, "values not as --print writes them (2 of them): at character 16, "
				      "\"p.Odd,\\x5cx\\x0a0name@1#9\"");
	free_lines(&l);
	free(f.data);
}

/* Any byte changed: the reader still stays in its bounds (ASan checks
 * that in the unit-asan tier) and answers 0 or -EINVAL with an offset in
 * the file. A fixed seed: the same run every time. */
static void test_flipped_bytes(void **state)
{
	struct file f = record_stream(SIZE_MAX, true);
	uint8_t *copy = malloc(f.len);
	uint64_t seed = 0x5eed;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct lines l = { 0 };
		struct record_error err;
		int rc;

		memcpy(copy, f.data, f.len);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			copy[(seed >> 33) % f.len] ^= (uint8_t)(1u << ((seed >> 20) & 7));
		}
		rc = read_jfr(copy, f.len, &l, &err);
		assert_true(rc == 0 || rc == -EINVAL);
		if (rc == -EINVAL)
			assert_true(err.offset <= f.len);
		free_lines(&l);
	}
	free(copy);
	free(f.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_record_size),
		cmocka_unit_test(test_string_encoding),
		cmocka_unit_test(test_chunk_headers),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_is_print),
		cmocka_unit_test(test_killed),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_flipped_bytes),
	};

	return cmocka_run_group_tests_name("rec_jfr", tests, NULL, NULL);
}
