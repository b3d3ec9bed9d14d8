/* make_jfr_live_corpus: the hand-built part of testsuite/fuzz/corpus-jfr-live/
 * (the live JFR parser's fuzz target): the unit tests' chunks
 * (testsuite/unit/jfr_live_chunk.c), each after a piece-size byte.
 *
 *   make_jfr_live_corpus DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_live_chunk.h"

static int save(const char *dir, const char *name, uint8_t piece, const struct jfr_buf *b)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(&piece, 1, 1, f) != 1 || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct jfr_buf b = { 0 };
	int bad = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: make_jfr_live_corpus DIR\n");
		return 2;
	}
	jlc_usual(&b);
	bad |= save(argv[1], "usual", 0, &b);
	bad |= save(argv[1], "usual-pieces-7", 6, &b);
	jlc_every(&b, 1);
	jlc_every(&b, 2);                    /* after the last checkpoint, thread 2 in no pool */
	bad |= save(argv[1], "unresolved", 3, &b);
	b.len -= 3;
	bad |= save(argv[1], "cut", 1, &b);
	b.len = 0;
	jlc_header(&b);
	jlc_constants(&b);
	jlc_every(&b, 1);
	jlc_metadata(&b);
	jlc_constants(&b);
	bad |= save(argv[1], "metadata-late", 12, &b);
	b.len = 0;
	jlc_begin(&b);
	jlc_constants(&b);
	jlc_cycle(&b);
	jlc_constants(&b);
	bad |= save(argv[1], "cycle", 30, &b);
	b.len = 0;
	jlc_begin(&b);
	jlc_every(&b, 2);
	jlc_constants(&b);
	jlc_thread(&b, 2, "later");
	bad |= save(argv[1], "later-constant", 1, &b);
	b.len = 0;
	jlc_header(&b);
	bad |= save(argv[1], "header", 0, &b);
	jfr_buf_free(&b);
	return bad;
}
