/* mutf8.c: see mutf8.h. */
#include "mutf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The end of the run of ASCII bytes from S[I] on. */
static size_t ascii_run(const uint8_t *s, size_t i, size_t n)
{
	uint64_t w;

	while (i + 8 <= n) {
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			break;
		i += 8;
	}
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

static inline bool continuation(uint8_t c)
{
	return (c & 0xC0) == 0x80;
}

/* The surrogate (0xD800 to 0xDFFF) whose 3-byte form starts at S[I], or 0. */
static uint32_t surrogate_at(const uint8_t *s, size_t i, size_t n)
{
	if (i >= n || n - i < 3 || s[i] != 0xED || s[i + 1] < 0xA0 || s[i + 1] > 0xBF || !continuation(s[i + 2]))
		return 0;
	return 0xD000u | (uint32_t)(s[i + 1] & 0x3F) << 6 | (uint32_t)(s[i + 2] & 0x3F);
}

size_t mutf8_to_utf8(char *str, size_t n, enum mutf8_mode mode)
{
	uint8_t *s = (uint8_t *)str;
	size_t i = ascii_run(s, 0, n), o = i;

	while (i < n) {
		uint32_t hi = surrogate_at(s, i, n), lo;

		if (hi >= 0xD800 && hi <= 0xDBFF && (lo = surrogate_at(s, i + 3, n)) >= 0xDC00) {
			uint32_t cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);

			s[o++] = (uint8_t)(0xF0 | cp >> 18);
			s[o++] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
			s[o++] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
			s[o++] = (uint8_t)(0x80 | (cp & 0x3F));
			i += 6;
		} else if (hi && mode == MUTF8_TEXT) {
			s[o++] = 0xEF;
			s[o++] = 0xBF;
			s[o++] = 0xBD;
			i += 3;
		} else if (mode == MUTF8_TEXT && s[i] == 0xC0 && i + 1 < n && s[i + 1] == 0x80) {
			s[o++] = 0;
			i += 2;
		} else {
			s[o++] = s[i++];
			/* the rest of an ASCII run in one go (moved only once something shrank) */
			size_t end = ascii_run(s, i, n);
			if (o != i)
				memmove(s + o, s + i, end - i);
			o += end - i;
			i = end;
		}
	}
	return o;
}
