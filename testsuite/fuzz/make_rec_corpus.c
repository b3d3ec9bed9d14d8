/* make_rec_corpus.c: the fuzz corpus of a seed trace format's reader
 * (fuzz_rec_read.c), made from the known stream of testsuite/unit/rec_samples.c
 * with the format's own writer.
 *
 *   make_rec_corpus FORMAT DIR     (FORMAT: trc or trcbin)
 *
 * Writes into DIR: the whole stream's file; the files of its first N events
 * for a few N (each a whole, valid file); the whole file cut at a few
 * places; and copies with one byte of the header or of a message changed.
 * Exits 1 with a message on failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_samples.h"
#include "record.h"

static int put(const char *dir, const char *name, const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "make_rec_corpus: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t prefixes[] = { 0, 2, 5, 9, 12, 16, 21, 26 };
	static const size_t flips[] = { 0, 5, 9, 21, 60, 100, 200, 400, 700 };
	const struct record_format *f = argc == 3 ? record_format_by_name(argv[1]) : NULL;
	char name[64];
	uint8_t *data;
	size_t len;

	if (!f || (strcmp(f->name, "trc") != 0 && strcmp(f->name, "trcbin") != 0)) {
		fprintf(stderr, "usage: make_rec_corpus trc|trcbin DIR\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		if (rec_sample_record(f, prefixes[i], &data, &len) < 0)
			return 1;
		snprintf(name, sizeof name, "events-%02zu", prefixes[i]);
		if (put(argv[2], name, data, len) < 0)
			return 1;
		free(data);
	}
	if (rec_sample_record(f, REC_SAMPLE_EVENTS, &data, &len) < 0 || put(argv[2], "sample", data, len) < 0)
		return 1;
	for (size_t k = 1; k <= 4; k++) {
		snprintf(name, sizeof name, "cut-%zu-of-5", k);
		if (put(argv[2], name, data, len * k / 5) < 0)
			return 1;
	}
	for (size_t i = 0; i < sizeof flips / sizeof flips[0] && flips[i] < len; i++) {
		data[flips[i]] ^= 0x41;
		snprintf(name, sizeof name, "flip-%zu", flips[i]);
		if (put(argv[2], name, data, len) < 0)
			return 1;
		data[flips[i]] ^= 0x41;
	}
	free(data);
	return 0;
}
