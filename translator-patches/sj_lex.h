/* sj_lex.h: a tokenizer for SystemTap script text, just good enough for stap-java.
 *
 * Contract: sj_lex_all() splits BUF[0..LEN) into tokens the way stap's own lexer
 * does for the purposes of finding probe points: comments (#, //, / * * /) and
 * whitespace are skipped, strings are one token (escapes kept), embedded C
 * (%{ ... %}) is one token, the preprocessor brackets %( %? %: %) are tokens
 * of their own, and so are $# and @# (the number of script arguments, which stap
 * pastes in before it looks for comments).  Every token knows its byte offset, 1-based line and column (bytes,
 * as stap counts them).  The lexer never fails: an unterminated string or comment
 * ends at the end of the buffer and is left for stap to report.
 */
#ifndef STAPJAVA_SJ_LEX_H
#define STAPJAVA_SJ_LEX_H

#include <stddef.h>

enum sj_tok_kind {
	SJ_TOK_EOF = 0,
	SJ_TOK_IDENT,	/* identifiers, keywords, $vars, @macros */
	SJ_TOK_NUMBER,
	SJ_TOK_STRING,	/* text includes the quotes */
	SJ_TOK_OP,	/* operators and punctuation, longest match */
	SJ_TOK_EMBEDDED,	/* %{ ... %} */
	SJ_TOK_PP_IF,	/* %( */
	SJ_TOK_PP_THEN,	/* %? */
	SJ_TOK_PP_ELSE,	/* %: */
	SJ_TOK_PP_END,	/* %) */
};

struct sj_token {
	enum sj_tok_kind kind;
	const char *text;	/* points into the lexed buffer */
	size_t len;
	size_t off;
	unsigned line, col;
};

/* Tokenize; *TOKS (malloc'ed, ends with an SJ_TOK_EOF token) and *NTOKS (without
 * the EOF) are set.  Returns 0 or -ENOMEM. */
int sj_lex_all(const char *buf, size_t len, struct sj_token **toks, size_t *ntoks);

/* Does token T have kind KIND and exactly the text S? */
int sj_tok_is(const struct sj_token *t, enum sj_tok_kind kind, const char *s);

#endif
