/* replay_corpus.c: run every input of a committed fuzz corpus through its
 * fuzz target's oracles with the ordinary compiler, so the unit tiers (plain
 * and ASan/UBSan) check the corpus on every run, not only `make fuzz` or
 * `make fuzz-classfile`. One program per target (local.mk), set with:
 *   CORPUS_DIR         the corpus (argv[1] overrides it)
 *   CORPUS_MIN_FILES   fewer inputs than this fail (a corpus gone missing)
 *   REPLAY_GROUP       the cmocka group's name
 *   REPLAY_ACCEPTED    optional: a counter the target increments for each input
 *                      it accepts; then every corpus input must be accepted
 * An oracle failure aborts, and the runner counts the test as failed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef REPLAY_ACCEPTED
extern size_t REPLAY_ACCEPTED;
#endif

static const char *corpus_dir = CORPUS_DIR;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			uint8_t *grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = grown;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static void test_replay_every_corpus_input(void **state)
{
	(void)state;
	DIR *d = opendir(corpus_dir);
	if (!d)
		fail_msg("cannot open the corpus directory %s", corpus_dir);
	size_t files = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", corpus_dir, e->d_name);
#ifdef REPLAY_ACCEPTED
		size_t before = REPLAY_ACCEPTED;
#endif
		if (replay_file(path) != 0)
			fail_msg("cannot read corpus input %s", path);
#ifdef REPLAY_ACCEPTED
		if (REPLAY_ACCEPTED != before + 1)
			fail_msg("corpus input %s was not accepted by the target", path);
#endif
		files++;
	}
	closedir(d);
	if (files < CORPUS_MIN_FILES)
		fail_msg("only %zu corpus inputs in %s (expected at least %d)", files, corpus_dir,
			 CORPUS_MIN_FILES);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		corpus_dir = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_every_corpus_input),
	};
	return cmocka_run_group_tests_name(REPLAY_GROUP, tests, NULL, NULL);
}
