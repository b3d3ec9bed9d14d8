/* wire_samples.h: one sample of every wire message, a reference encoder
 * written from the seed's Appendix A/B/C tables (independent of
 * runtime/wire_encode.c), and field-by-field comparison of decoded messages.
 * Shared by the unit tests, the fuzz target and the corpus generator. */
#ifndef STAPJAVA_WIRE_SAMPLES_H
#define STAPJAVA_WIRE_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* Samples. Each comes with the peer state its bytes are meant for (the
 * decoder's view of the sender: caps negotiated, host order). Names are
 * unique and safe as file names. Strings point to static storage. */
size_t wire_sample_event_count(void);
const char *wire_sample_event(size_t i, struct wire_event *ev, struct wire_peer *peer);
size_t wire_sample_command_count(void);
const char *wire_sample_command(size_t i, struct wire_command *cmd, struct wire_peer *peer);

/* Reference encoder: writes the message in the given byte order (big or
 * little endian, whatever the host's), with a trailer iff
 * peer->caps & WIRE_CAP_TRAILER (never for HELLO). It checks nothing and
 * writes hello.order as given. Returns the length, or 0 if cap is too small. */
size_t wire_ref_encode_event(const struct wire_event *ev, const struct wire_peer *peer,
			     bool big_endian, uint8_t *out, size_t cap);
size_t wire_ref_encode_command(const struct wire_command *cmd, bool big_endian,
			       uint8_t *out, size_t cap);

/* Where the fields that a decoder validates sit in the reference encoding
 * (same offsets in both byte orders), for the malformed-input tests. */
enum wire_ref_kind {
	WIRE_REF_STRLEN = 's',  /* u32 string length */
	WIRE_REF_BOOL = 'b',    /* u8 0 or 1 */
	WIRE_REF_TYPE = 't',    /* value type */
	WIRE_REF_FLAGS = 'f',   /* trailer flags */
	WIRE_REF_DEPTH = 'd',   /* u16 stack depth */
	WIRE_REF_KIND = 'k',    /* REGISTER/UNREGISTER kind */
	WIRE_REF_EVENTS = 'e',  /* REGISTER events */
	WIRE_REF_MODE = 'm',    /* DISPATCH_MODE mode */
	WIRE_REF_ORDER = 'o',   /* Hello byte order */
	WIRE_REF_VERSION = 'v', /* Hello u16 version */
	WIRE_REF_MAGIC = 'g',   /* event Hello "STPJ" */
	WIRE_REF_JFR_FLAGS = 'j', /* JfrData flags */
	WIRE_REF_NOTICE_SCOPE = 'n', /* Notice scope */
};
struct wire_ref_field {
	size_t offset;
	char kind;              /* enum wire_ref_kind */
	unsigned size;
	const char *hint;       /* a word the decoder's field name contains */
};
size_t wire_ref_event_fields(const struct wire_event *ev, const struct wire_peer *peer,
			     struct wire_ref_field *fields, size_t max);
size_t wire_ref_command_fields(const struct wire_command *cmd, struct wire_ref_field *fields,
			       size_t max);
bool wire_host_is_big_endian(void);
uint8_t wire_host_order(void);    /* WIRE_ORDER_LITTLE or WIRE_ORDER_BIG */
uint8_t wire_foreign_order(void); /* the other one */

/* Compare the fields that the message's code defines (other fields are
 * ignored). Return true when equal; otherwise write which field differs. */
bool wire_event_equal(const struct wire_event *a, const struct wire_event *b,
		      char *why, size_t why_len);
/* Every field of every value of A and B (their values, their return
 * value), whatever the type: what each reading clears a value of a type
 * does not carry is held too (wire_event_equal compares what it carries). */
bool wire_values_identical(const struct wire_event *a, const struct wire_event *b);
bool wire_command_equal(const struct wire_command *a, const struct wire_command *b,
			char *why, size_t why_len);

/* A decoder's error names the field and its offset: err->field contains
 * `field` (case-insensitive; NULL: any), err->offset == offset, and the text
 * contains both err->field and "offset <offset>". On failure writes why. */
bool wire_error_is(const struct wire_error *err, const char *field, size_t offset,
		   char *why, size_t why_len);

#endif
