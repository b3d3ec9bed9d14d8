/* fuzz_mutf8.c: libFuzzer target for runtime/mutf8.c, which rewrites the
 * names and thread names a JVM hands the agent (and a class file's constant
 * pool, whatever bytes it holds) in place.
 *
 * Input: any bytes, read two ways.
 *  1. As modified UTF-8, in both modes: the in-place result must equal an
 *     independent reference (tokenise into NUL / surrogate / other byte,
 *     then pair and write into a second buffer); it is never longer;
 *     converting it again changes nothing; well-formed UTF-8 comes out
 *     unchanged.
 *  2. As UTF-16LE code units (what a Java String holds): encoded into
 *     modified UTF-8 as the JVM does, then converted; MUTF8_TEXT must give
 *     exactly the UTF-16 to UTF-8 conversion of a String value (pairs
 *     joined, a lone surrogate U+FFFD, U+0000 a 0 byte), which is
 *     well-formed UTF-8; MUTF8_NAME the same with U+0000 and lone
 *     surrogates in their modified form.
 * Any failure aborts (libFuzzer reports a crash); and ASan/UBSan.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutf8.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 4096

static uint8_t work[3 * MAX_IN], again[3 * MAX_IN], want[3 * MAX_IN];

static void die(const char *what, enum mutf8_mode mode)
{
	fprintf(stderr, "fuzz_mutf8: %s (%s)\n", what, mode == MUTF8_TEXT ? "MUTF8_TEXT" : "MUTF8_NAME");
	abort();
}

/* ---- the reference: tokens, then output */
enum { TOK_BYTE, TOK_NUL, TOK_SURROGATE };
struct token {
	int kind;
	uint16_t unit;       /* TOK_SURROGATE */
	const uint8_t *at;   /* its bytes in the input */
	size_t len;
};

static struct token tokens[MAX_IN];

static size_t tokenise(const uint8_t *in, size_t n)
{
	size_t t = 0;

	for (size_t i = 0; i < n; t++) {
		struct token *k = &tokens[t];
		k->at = in + i;
		if (i + 1 < n && in[i] == 0xC0 && in[i + 1] == 0x80) {
			k->kind = TOK_NUL;
			k->len = 2;
		} else if (i + 2 < n && in[i] == 0xED && in[i + 1] >= 0xA0 && in[i + 1] <= 0xBF &&
			   in[i + 2] >= 0x80 && in[i + 2] <= 0xBF) {
			k->kind = TOK_SURROGATE;
			k->unit = (uint16_t)(((in[i] & 0x0F) << 12) | ((in[i + 1] & 0x3F) << 6) | (in[i + 2] & 0x3F));
			k->len = 3;
		} else {
			k->kind = TOK_BYTE;
			k->len = 1;
		}
		i += k->len;
	}
	return t;
}

static size_t put_utf8(uint8_t *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (uint8_t)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (uint8_t)(0xC0 | cp >> 6);
		out[1] = (uint8_t)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (uint8_t)(0xE0 | cp >> 12);
		out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (uint8_t)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (uint8_t)(0xF0 | cp >> 18);
	out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (uint8_t)(0x80 | (cp & 0x3F));
	return 4;
}

static bool is_high(const struct token *k) { return k->kind == TOK_SURROGATE && k->unit < 0xDC00; }
static bool is_low(const struct token *k) { return k->kind == TOK_SURROGATE && k->unit >= 0xDC00; }

static size_t reference(const uint8_t *in, size_t n, enum mutf8_mode mode, uint8_t *out)
{
	size_t nt = tokenise(in, n), o = 0;

	for (size_t t = 0; t < nt; t++) {
		const struct token *k = &tokens[t];
		if (is_high(k) && t + 1 < nt && is_low(&tokens[t + 1])) {
			uint32_t cp = 0x10000 + ((uint32_t)(k->unit - 0xD800) << 10) + (tokens[t + 1].unit - 0xDC00u);
			o += put_utf8(out + o, cp);
			t++;
		} else if (k->kind == TOK_NUL && mode == MUTF8_TEXT) {
			out[o++] = 0;
		} else if (k->kind == TOK_SURROGATE && mode == MUTF8_TEXT) {
			o += put_utf8(out + o, 0xFFFD);
		} else {
			memcpy(out + o, k->at, k->len);
			o += k->len;
		}
	}
	return o;
}

static bool well_formed(const uint8_t *p, size_t n)
{
	for (size_t i = 0, len; i < n; i += len)
		if ((len = utf8_sequence(p + i, n - i)) == 0)
			return false;
	return true;
}

static size_t convert(const uint8_t *in, size_t n, enum mutf8_mode mode)
{
	memcpy(work, in, n);
	return mutf8_to_utf8((char *)work, n, mode);
}

static void as_modified_utf8(const uint8_t *data, size_t size, enum mutf8_mode mode)
{
	size_t got = convert(data, size, mode);
	size_t ref = reference(data, size, mode, want);

	if (got > size)
		die("the result is longer than the input", mode);
	if (got != ref || memcmp(work, want, got) != 0)
		die("the result differs from the reference", mode);
	memcpy(again, work, got);
	if (mutf8_to_utf8((char *)again, got, mode) != got || memcmp(again, work, got) != 0)
		die("converting twice changes the result", mode);
	if (well_formed(data, size) && (got != size || memcmp(work, data, size) != 0))
		die("well-formed UTF-8 was changed", mode);
}

/* ---- UTF-16 units, as a Java String holds them */
static size_t units_to_modified(const uint16_t *u, size_t n, uint8_t *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (u[i] == 0) {
			out[o++] = 0xC0;
			out[o++] = 0x80;
		} else {
			o += put_utf8(out + o, u[i]);   /* each unit alone: surrogates too */
		}
	}
	return o;
}

static size_t units_to_utf8(const uint16_t *u, size_t n, enum mutf8_mode mode, uint8_t *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t c = u[i];
		if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
			o += put_utf8(out + o, 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00u));
			i++;
		} else if (c >= 0xD800 && c <= 0xDFFF) {
			o += put_utf8(out + o, mode == MUTF8_TEXT ? 0xFFFD : c);
		} else if (c == 0 && mode == MUTF8_NAME) {
			out[o++] = 0xC0;
			out[o++] = 0x80;
		} else {
			o += put_utf8(out + o, c);
		}
	}
	return o;
}

static uint16_t units[MAX_IN / 2];
static uint8_t encoded[3 * MAX_IN / 2];

static void as_utf16(const uint8_t *data, size_t size, enum mutf8_mode mode)
{
	size_t nu = size / 2;

	for (size_t i = 0; i < nu; i++)
		units[i] = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
	size_t n = units_to_modified(units, nu, encoded);
	size_t got = convert(encoded, n, mode);
	size_t ref = units_to_utf8(units, nu, mode, want);

	if (got != ref || memcmp(work, want, got) != 0)
		die("a String's modified UTF-8 did not give its UTF-8", mode);
	if (mode == MUTF8_TEXT && !well_formed(work, got))
		die("a String's text is not well-formed UTF-8", mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_IN)
		return 0;
	as_modified_utf8(data, size, MUTF8_NAME);
	as_modified_utf8(data, size, MUTF8_TEXT);
	as_utf16(data, size, MUTF8_NAME);
	as_utf16(data, size, MUTF8_TEXT);
	return 0;
}
