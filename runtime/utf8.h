/* utf8.h: where text from a peer is well-formed UTF-8.
 *
 * Contract: utf8_sequence() gives the length (1 to 4) of the well-formed
 * UTF-8 sequence that starts at P within its N bytes (N >= 1), or 0 when
 * the bytes there are not one (RFC 3629: no overlongs, no surrogates, no
 * code point past U+10FFFF). Writers of logs and of --print escape what
 * gets 0, so a peer's bytes can neither forge a line nor make it binary.
 */
#ifndef STAPJAVA_UTF8_H
#define STAPJAVA_UTF8_H

#include <stddef.h>
#include <stdint.h>

size_t utf8_sequence(const uint8_t *p, size_t n);

#endif
