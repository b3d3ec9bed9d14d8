/* sj_lex.c: see sj_lex.h. */
#include "sj_lex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
	const char *buf;
	size_t len, pos;
	unsigned line, col;
};

static int peek(const struct lexer *lx, size_t ahead)
{
	return lx->pos + ahead < lx->len ? (unsigned char)lx->buf[lx->pos + ahead] : -1;
}

static void advance(struct lexer *lx, size_t n)
{
	while (n-- && lx->pos < lx->len) {
		if (lx->buf[lx->pos++] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
	}
}

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '@';
}

static int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void skip_blanks_and_comments(struct lexer *lx)
{
	for (;;) {
		int c = peek(lx, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx, 1);
		} else if (c == '#' || (c == '/' && peek(lx, 1) == '/')) {
			while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
				advance(lx, 1);
		} else if (c == '/' && peek(lx, 1) == '*') {
			advance(lx, 2);
			while (peek(lx, 0) >= 0 && !(peek(lx, 0) == '*' && peek(lx, 1) == '/'))
				advance(lx, 1);
			advance(lx, 2);
		} else {
			return;
		}
	}
}

/* Longest first within each length; stap's multi-character operators. */
static const char *const operators[] = {
	"<<<", "<<=", ">>=",
	"<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".=",
	"&&", "||", "++", "--", "->", "<<", ">>", "=~", "!~",
};

static size_t operator_length(const struct lexer *lx)
{
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		size_t n = strlen(operators[i]);
		if (lx->len - lx->pos >= n && memcmp(lx->buf + lx->pos, operators[i], n) == 0)
			return n;
	}
	return 1;
}

/* Length of the token starting at the lexer's position, and its kind. */
static size_t scan_token(const struct lexer *lx, enum sj_tok_kind *kind)
{
	const char *p = lx->buf + lx->pos;
	size_t rest = lx->len - lx->pos, n = 1;
	int c = (unsigned char)p[0];

	if (c == '"') {
		*kind = SJ_TOK_STRING;
		while (n < rest && p[n] != '"' && p[n] != '\n')
			n += (p[n] == '\\' && n + 1 < rest) ? 2 : 1;
		return n < rest && p[n] == '"' ? n + 1 : n;
	}
	if (c == '%' && rest >= 2) {
		switch (p[1]) {
		case '{':
			*kind = SJ_TOK_EMBEDDED;
			for (n = 2; n + 1 < rest && !(p[n] == '%' && p[n + 1] == '}'); n++)
				;
			return n + 1 < rest ? n + 2 : rest;
		case '(': *kind = SJ_TOK_PP_IF; return 2;
		case '?': *kind = SJ_TOK_PP_THEN; return 2;
		case ':': *kind = SJ_TOK_PP_ELSE; return 2;
		case ')': *kind = SJ_TOK_PP_END; return 2;
		default: break;
		}
	}
	if ((c == '$' || c == '@') && rest >= 2 && p[1] == '#') {
		/* $# and @#, the number of script arguments; not a comment */
		*kind = SJ_TOK_IDENT;
		return 2;
	}
	if (is_ident_start(c)) {
		*kind = SJ_TOK_IDENT;
		while (n < rest && is_ident_char((unsigned char)p[n]))
			n++;
		return n;
	}
	if (c >= '0' && c <= '9') {
		*kind = SJ_TOK_NUMBER;
		while (n < rest && is_ident_char((unsigned char)p[n]))
			n++;
		return n;
	}
	*kind = SJ_TOK_OP;
	return operator_length(lx);
}

int sj_lex_all(const char *buf, size_t len, struct sj_token **toks, size_t *ntoks)
{
	struct lexer lx = { .buf = buf, .len = len, .pos = 0, .line = 1, .col = 1 };
	size_t n = 0, cap = 64;
	struct sj_token *v = malloc(cap * sizeof *v);

	if (!v)
		return -ENOMEM;
	for (;;) {
		skip_blanks_and_comments(&lx);
		if (n + 1 >= cap) {
			struct sj_token *bigger = realloc(v, 2 * cap * sizeof *v);
			if (!bigger) {
				free(v);
				return -ENOMEM;
			}
			v = bigger;
			cap *= 2;
		}
		struct sj_token *t = &v[n];
		t->text = buf + lx.pos;
		t->off = lx.pos;
		t->line = lx.line;
		t->col = lx.col;
		if (lx.pos >= len) {
			t->kind = SJ_TOK_EOF;
			t->len = 0;
			break;
		}
		t->len = scan_token(&lx, &t->kind);
		advance(&lx, t->len);
		n++;
	}
	*toks = v;
	*ntoks = n;
	return 0;
}

int sj_tok_is(const struct sj_token *t, enum sj_tok_kind kind, const char *s)
{
	return t->kind == kind && t->len == strlen(s) && memcmp(t->text, s, t->len) == 0;
}
