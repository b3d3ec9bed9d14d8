/* rec_jfr_bytes.c: see rec_jfr_bytes.h. */
#include "rec_jfr_bytes.h"

#include <errno.h>
#include <stdlib.h>

bool jfr_buf_grow(struct jfr_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *grown;

	if (b->error)
		return false;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	grown = realloc(b->data, cap);
	if (!grown)
		goto fail;
	b->data = grown;
	b->cap = cap;
	return true;
fail:
	b->error = -ENOMEM;
	return false;
}

void jfr_buf_free(struct jfr_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t jfr_text_utf8(const struct jfr_text *t, char *out)
{
	struct jfr_cursor c = { t->ptr, 0, t->len, false };
	size_t n = 0;

	if (t->enc == JFR_STR_LATIN1) {
		for (size_t i = 0; i < t->len; i++)
			n += put_utf8(out + n, t->ptr[i]);
		return n;
	}
	if (t->enc != JFR_STR_UTF16) {
		if (t->len)
			memcpy(out, t->ptr, t->len);
		return t->len;
	}
	for (size_t i = 0; i < t->units; i++) {
		uint32_t u;

		if (c.pos < c.end && c.base[c.pos] < 0x80) {   /* a unit of one byte: ASCII, as it is */
			out[n++] = (char)c.base[c.pos++];
			continue;
		}
		u = (uint32_t)jfr_get_varint(&c) & 0xFFFF;

		if (u >= 0xD800 && u < 0xDC00 && i + 1 < t->units) {
			struct jfr_cursor peek = c;
			uint32_t low = (uint32_t)jfr_get_varint(&peek) & 0xFFFF;

			if (low >= 0xDC00 && low < 0xE000) {
				u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
				c = peek;
				i++;
			}
		}
		n += put_utf8(out + n, u);
	}
	return n;
}
