/* errtext.h: the one-sentence error texts of the parsers that compile what a
 * user or a peer wrote (pattern.c, signature.c).
 *
 * Contract: errtext_fail() formats FMT into ERR (ERRLEN bytes, cut and
 * NUL-terminated; nothing when ERR is NULL or ERRLEN 0) and returns CODE,
 * so a parser can `return errtext_fail(err, errlen, -EINVAL, "...", ...)`.
 */
#ifndef STAPJAVA_ERRTEXT_H
#define STAPJAVA_ERRTEXT_H

#include <stddef.h>

int errtext_fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
