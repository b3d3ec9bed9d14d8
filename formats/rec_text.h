/* rec_text.h: the texts the seed trace formats hold for us (rec_trc*.c,
 * rec_trcbin*.c): method and class names taken apart and put back, and
 * our notes.
 *
 * Contract. A wire method name "com.acme.Shop.price(I)J" splits at its
 * first '(' and the last '.' before it into class key "com.acme.Shop",
 * name "price" and signature "(I)J" (no '.': an empty class; no '(': an
 * empty signature); joining the parts gives the name back byte for byte.
 * A class key is the dotted class of a method name; a class signature
 * "Lcom/acme/Shop;" has the same key, and any other signature ("[I", or
 * one that is malformed) is its own key, so the two kinds of events name
 * one class alike. The internal form the JinsightLive format writes
 * ("com/acme/Shop") swaps '.' and '/' except in an array's key ("[...").
 * A note is "stapjava KEY=N KEY=N ...", N a decimal u64: the formats'
 * free-text messages carry the numbers they have no field for.
 * Buffers are the caller's; nothing allocates or fails but the parser.
 */
#ifndef STPD_BRIDGE_REC_TEXT_H
#define STPD_BRIDGE_REC_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

struct rec_method_name {
	struct wire_str cls, name, sig;
};

void rec_method_split(const char *s, size_t len, struct rec_method_name *out);
/* CLS + "." + NAME + SIG ("." left out for an empty CLS) into OUT, which
 * holds cls.len + name.len + sig.len + 1 bytes; returns the length. */
size_t rec_method_join(char *out, const struct rec_method_name *m);

/* The key of class signature SIG into OUT (>= len bytes); its length. */
size_t rec_class_key_from_signature(const char *sig, size_t len, char *out);
/* The signature of class KEY into OUT (>= len + 2 bytes); its length. */
size_t rec_class_signature_from_key(const char *key, size_t len, char *out);
/* Key <-> internal form, into OUT (>= len bytes). */
void rec_class_key_to_internal(const char *key, size_t len, char *out);
void rec_class_internal_to_key(const char *name, size_t len, char *out);

#define REC_NOTE_PREFIX "stapjava "
#define REC_NOTE_MAX 4

struct rec_note {
	size_t n;
	struct {
		struct wire_str key;
		uint64_t value;
	} kv[REC_NOTE_MAX];
};

/* The note of N (<= REC_NOTE_MAX) keys and values into BUF (>= 128 bytes); its length. */
size_t rec_note_format(char *buf, const char *const keys[], const uint64_t values[], size_t n);
/* 1 and *NOTE for a note, 0 for a text without the prefix (someone
 * else's), -EINVAL for a text with the prefix that is no note. */
int rec_note_parse(const char *text, size_t len, struct rec_note *note);
/* Does NOTE have exactly the keys KEYS ("lost pid tid"), in that order? */
bool rec_note_is(const struct rec_note *note, const char *keys);

#endif
