/* rec_jfr_value.h: argument and return values in a JFR file, as --print
 * shows them ("42, \"hi\"", print_value's text joined by ", ") with their
 * wire type letters beside them ("IT"), and back (doc/recording-jfr.md).
 *
 * Why text: the JDK's `jfr print` fails on an array of anything but its own
 * types, so values cannot be an array of structs; and text is what a user
 * of `jfr print` or JDK Mission Control wants to read.
 *
 * Contract: jfr_values_format appends the text to a jfr_buf. jfr_values_parse
 * reads such a text back, given the letters, into wire values whose
 * print_value text is the text read: strings with their bytes and the
 * truncation mark, F and D the same number, L and [ their class in a form
 * print_value shows as it was shown. It parses untrusted bytes: bounded,
 * -EINVAL with *BAD_AT the offset in TEXT where it went wrong. Strings and
 * class names are written into ARENA (JFR_VALUES_ARENA(len, n) bytes), which
 * the values then point into.
 */
#ifndef STPD_BRIDGE_REC_JFR_VALUE_H
#define STPD_BRIDGE_REC_JFR_VALUE_H

#include <stddef.h>

#include "rec_jfr_bytes.h"
#include "wire.h"

#define JFR_VALUES_SEPARATOR ", "
#define JFR_VALUES_ARENA(len, n) (2 * (len) + 4 * (n) + 16)

/* 0 or -ENOMEM. */
int jfr_values_format(struct jfr_buf *b, const struct wire_value *v, size_t n);
int jfr_values_parse(const char *text, size_t len, const char *types, size_t n, struct wire_value *out,
		     char *arena, size_t *bad_at);

#endif
