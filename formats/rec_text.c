/* rec_text.c: see rec_text.h. */
#include "rec_text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void rec_method_split(const char *s, size_t len, struct rec_method_name *out)
{
	const char *paren = memchr(s, '(', len);
	size_t head = paren ? (size_t)(paren - s) : len, dot = head;

	while (dot > 0 && s[dot - 1] != '.')
		dot--;
	out->cls = (struct wire_str){ s, dot ? (uint32_t)(dot - 1) : 0 };
	out->name = (struct wire_str){ s + dot, (uint32_t)(head - dot) };
	out->sig = (struct wire_str){ s + head, (uint32_t)(len - head) };
}

size_t rec_method_join(char *out, const struct rec_method_name *m)
{
	size_t n = 0;

	memcpy(out, m->cls.ptr, m->cls.len);
	n += m->cls.len;
	if (m->cls.len)
		out[n++] = '.';
	memcpy(out + n, m->name.ptr, m->name.len);
	n += m->name.len;
	memcpy(out + n, m->sig.ptr, m->sig.len);
	return n + m->sig.len;
}

static void replace_byte(char *out, const char *in, size_t len, char from, char to)
{
	for (size_t i = 0; i < len; i++)
		out[i] = in[i] == from ? to : in[i];
}

static bool is_object_signature(const char *sig, size_t len)
{
	return len >= 3 && sig[0] == 'L' && sig[len - 1] == ';';
}

size_t rec_class_key_from_signature(const char *sig, size_t len, char *out)
{
	if (!is_object_signature(sig, len)) {
		memcpy(out, sig, len);
		return len;
	}
	replace_byte(out, sig + 1, len - 2, '/', '.');
	return len - 2;
}

size_t rec_class_signature_from_key(const char *key, size_t len, char *out)
{
	if ((len > 0 && key[0] == '[') || is_object_signature(key, len)) {
		/* a signature that was its own key: "LFoo;" never came from a dotted key */
		memcpy(out, key, len);
		return len;
	}
	out[0] = 'L';
	replace_byte(out + 1, key, len, '.', '/');
	out[len + 1] = ';';
	return len + 2;
}

void rec_class_key_to_internal(const char *key, size_t len, char *out)
{
	if (len > 0 && key[0] == '[')
		memcpy(out, key, len);
	else
		replace_byte(out, key, len, '.', '/');
}

void rec_class_internal_to_key(const char *name, size_t len, char *out)
{
	if (len > 0 && name[0] == '[')
		memcpy(out, name, len);
	else
		replace_byte(out, name, len, '/', '.');
}

size_t rec_note_format(char *buf, const char *const keys[], const uint64_t values[], size_t n)
{
	size_t at = strlen(REC_NOTE_PREFIX);

	memcpy(buf, REC_NOTE_PREFIX, at);
	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(buf + at, 128 - at, "%s%s=%" PRIu64, i ? " " : "", keys[i], values[i]);
	return at;
}

int rec_note_parse(const char *text, size_t len, struct rec_note *note)
{
	size_t plen = strlen(REC_NOTE_PREFIX), at = plen;

	if (len < plen || memcmp(text, REC_NOTE_PREFIX, plen) != 0)
		return 0;
	note->n = 0;
	while (at < len) {
		size_t key = at, digits = 0;
		uint64_t v = 0;

		if (note->n == REC_NOTE_MAX)
			return -EINVAL;
		while (at < len && text[at] != '=' && text[at] != ' ')
			at++;
		if (at == key || at == len || text[at] != '=')
			return -EINVAL;
		note->kv[note->n].key = (struct wire_str){ text + key, (uint32_t)(at - key) };
		for (at++; at < len && text[at] >= '0' && text[at] <= '9'; at++, digits++) {
			if (v > (UINT64_MAX - (uint64_t)(text[at] - '0')) / 10)
				return -EINVAL;
			v = v * 10 + (uint64_t)(text[at] - '0');
		}
		if (digits == 0 || (at < len && (text[at] != ' ' || at + 1 == len)))
			return -EINVAL;
		note->kv[note->n++].value = v;
		if (at < len)
			at++;
	}
	return note->n ? 1 : -EINVAL;
}

bool rec_note_is(const struct rec_note *note, const char *keys)
{
	size_t i = 0;

	for (const char *k = keys; *k; i++) {
		size_t n = strcspn(k, " ");

		if (i >= note->n || note->kv[i].key.len != n || memcmp(note->kv[i].key.ptr, k, n) != 0)
			return false;
		k += n;
		if (*k == ' ')
			k++;
	}
	return i == note->n;
}
