/* sj_buf.h: a growable byte buffer for building text.
 *
 * Contract: the text is always NUL-terminated (data may be NULL while empty).
 * Appending returns 0 or -ENOMEM; after a failure the buffer keeps what it had.
 */
#ifndef STAPJAVA_SJ_BUF_H
#define STAPJAVA_SJ_BUF_H

#include <stddef.h>

struct sj_buf {
	char *data;
	size_t len, cap;
};

int sj_buf_add(struct sj_buf *b, const char *s, size_t n);
int sj_buf_puts(struct sj_buf *b, const char *s);
int sj_buf_printf(struct sj_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append everything readable from fd up to end of file: 0, -errno or -ENOMEM. */
int sj_buf_read_fd(struct sj_buf *b, int fd);
/* The text, "" while empty. */
const char *sj_buf_str(const struct sj_buf *b);
void sj_buf_free(struct sj_buf *b);

#endif
