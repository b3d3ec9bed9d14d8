/* sj_diag.c: see sj_diag.h. */
#include "sj_diag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int describe(struct sj_buf *out, const struct sj_token *tok)
{
	int len = (int)tok->len;

	switch (tok->kind) {
	case SJ_TOK_EOF: return sj_buf_puts(out, "end of input");
	case SJ_TOK_IDENT: return sj_buf_printf(out, "identifier '%.*s'", len, tok->text);
	case SJ_TOK_NUMBER: return sj_buf_printf(out, "number '%.*s'", len, tok->text);
	case SJ_TOK_STRING: return sj_buf_printf(out, "string %.*s", len, tok->text);
	case SJ_TOK_EMBEDDED: return sj_buf_puts(out, "embedded-code");
	case SJ_TOK_OP:
	case SJ_TOK_PP_IF:
	case SJ_TOK_PP_THEN:
	case SJ_TOK_PP_ELSE:
	case SJ_TOK_PP_END:
		break;
	}
	return sj_buf_printf(out, "operator '%.*s'", len, tok->text);
}

int sj_diag_error(struct sj_buf *out, const char *file, const char *buf, size_t len,
		  const struct sj_token *tok, const char *fmt, va_list ap)
{
	size_t start = tok->off, end = tok->off;
	int rc = 0;

	while (start > 0 && buf[start - 1] != '\n')
		start--;
	while (end < len && buf[end] != '\n')
		end++;

	rc |= sj_buf_puts(out, "parse error: ");
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	rc |= sj_buf_puts(out, msg);
	rc |= sj_buf_puts(out, "\n        saw: ");
	rc |= describe(out, tok);
	rc |= sj_buf_printf(out, " at %s:%u:%u\n     source: ", file, tok->line, tok->col);
	rc |= sj_buf_add(out, buf + start, end - start);
	rc |= sj_buf_puts(out, "\n             ");
	/* Copy tabs from the source line so the caret lines up under it. */
	for (size_t i = start; i < tok->off; i++)
		rc |= sj_buf_add(out, buf[i] == '\t' ? "\t" : " ", 1);
	rc |= sj_buf_puts(out, "^\n\n");
	return rc ? -ENOMEM : 0;
}

int sj_diag_summary(struct sj_buf *out, unsigned nerrors)
{
	return sj_buf_printf(out, "%u parse error%s.\n", nerrors, nerrors == 1 ? "" : "s");
}
