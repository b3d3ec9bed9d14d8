/* sj_diag.h: error messages in stap's own format.
 *
 * Contract: sj_diag_error() appends to OUT
 *     parse error: MESSAGE
 *             saw: <token> at FILE:LINE:COL
 *          source: <the token's source line>
 *                  ^
 * followed by an empty line, like stap's pass-1 errors, so users read one style.
 */
#ifndef STAPJAVA_SJ_DIAG_H
#define STAPJAVA_SJ_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "sj_buf.h"
#include "sj_lex.h"

int sj_diag_error(struct sj_buf *out, const char *file, const char *buf, size_t len,
		  const struct sj_token *tok, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/* "1 parse error.\n" / "N parse errors.\n" */
int sj_diag_summary(struct sj_buf *out, unsigned nerrors);

#endif
