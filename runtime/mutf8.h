/* mutf8.h: Java's modified UTF-8 made standard UTF-8.
 *
 * Why: JVMTI and class files give names and strings in modified UTF-8
 * (JVMS 4.4.7): a character outside the BMP is a surrogate pair, each half
 * three bytes (ED A0-AF xx, then ED B0-BF xx), and U+0000 is C0 80. Sent on
 * as they come, such a method's name printed as escaped bytes and no
 * pattern written in UTF-8 could match it.
 *
 * Contract: mutf8_to_utf8() rewrites S[0..N) in place and returns its new
 * length, never more than N. It reads and writes only S[0..N), allocates
 * nothing, and does not write S when no byte is 0x80 or above (checked a
 * word at a time: pure ASCII names cost a scan).
 *  - A high surrogate followed at once by a low one becomes the 4-byte UTF-8
 *    of their character.
 *  - MUTF8_TEXT, for a Java String's characters (a thread's name): C0 80
 *    becomes a 0 byte and a lone surrogate U+FFFD (EF BF BD), as a captured
 *    String value is written (agent/capture.c).
 *  - MUTF8_NAME, for names of classes, methods and descriptors, which are C
 *    strings everywhere (caches, records, markers) and must stay distinct:
 *    C0 80 and a lone surrogate are left as they are. Standard UTF-8 has no
 *    form for either that keeps a name both; printers show them escaped
 *    (\xc0\x80).
 *  - Every other byte is kept, so well-formed UTF-8 comes out unchanged and
 *    converting twice gives what converting once gave.
 */
#ifndef STAPJAVA_MUTF8_H
#define STAPJAVA_MUTF8_H

#include <stddef.h>

enum mutf8_mode {
	MUTF8_NAME,
	MUTF8_TEXT,
};

size_t mutf8_to_utf8(char *s, size_t n, enum mutf8_mode mode);

#endif
