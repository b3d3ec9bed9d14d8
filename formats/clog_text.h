/* clog_text.h: the fields of a concurrency log line (.clog, seed 004; the
 * file's grammar is doc/recording.md), one definition for the writer
 * (rec_clog.c) and the reader (rec_clog_read.c).
 *
 * Contract: fields are separated by ',' and a line ends with '\n'. A
 * number is hex (at least 8 upper-case digits, as the seed writes hash
 * codes; at most 16) or decimal; a timestamp is seconds with nine decimals
 * (CLOCK_MONOTONIC nanoseconds, exact); text (a name) has every byte below
 * 0x20, 0x7F, '\', ',' and every byte that is not UTF-8 as \xHH, so a
 * field never holds a separator. The put functions write
 * into a buffer the caller sized (CLOG_ESCAPED_MAX per input byte) and
 * return the bytes written; the parse functions take one field (without
 * its ',') and return 0, or -EINVAL when it is not of the kind.
 */
#ifndef STPD_BRIDGE_CLOG_TEXT_H
#define STPD_BRIDGE_CLOG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLOG_ESCAPED_MAX 4u   /* bytes per input byte, at most */
#define CLOG_HEX_MAX 16u
#define CLOG_TIME_MAX 30u

size_t clog_put_hex(char *p, uint64_t v);
size_t clog_put_time(char *p, uint64_t ns);
size_t clog_put_text(char *p, const char *s, size_t n);

int clog_parse_hex(const char *f, size_t n, uint64_t *v);
int clog_parse_dec(const char *f, size_t n, uint64_t *v);
/* -1 or a decimal from 0 (a line table's count) */
int clog_parse_count(const char *f, size_t n, int64_t *v);
int clog_parse_time(const char *f, size_t n, uint64_t *ns);
/* Undo clog_put_text into OUT (N bytes suffice): the length, or -EINVAL
 * for a '\' that starts no \xHH. */
long clog_unescape(const char *f, size_t n, char *out);

/* The fields of one line (without its '\n'), from the left. */
struct clog_cursor {
	const char *p, *end;
	bool done;           /* the last field was taken */
};
/* The next field in *F, *N: false when none is left. */
bool clog_next(struct clog_cursor *c, const char **f, size_t *n);

#endif
