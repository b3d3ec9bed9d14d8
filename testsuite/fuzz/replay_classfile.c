/* replay_classfile.c: run every class file of the committed corpus
 * (testsuite/fuzz/corpus-classfile/) through the fuzz target's oracles
 * (fuzz_classfile.c) with the ordinary compiler, so the unit tiers (plain
 * and ASan/UBSan) check the corpus on every run, not only `make
 * fuzz-classfile`. Every corpus file is a class with code: each must be
 * rewritten. An oracle failure aborts, and the runner counts the test as
 * failed. CORPUS_DIR is compiled in; argv[1] overrides it.
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
extern size_t fuzz_classfile_rewritten;

static const char *corpus_dir = CORPUS_DIR;

#define CORPUS_MIN_FILES 12

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

static void test_replay_every_class_file(void **state)
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
		size_t before = fuzz_classfile_rewritten;
		if (replay_file(path) != 0)
			fail_msg("cannot read corpus input %s", path);
		if (fuzz_classfile_rewritten != before + 1)
			fail_msg("corpus input %s was not rewritten", path);
		files++;
	}
	closedir(d);
	if (files < CORPUS_MIN_FILES)
		fail_msg("only %zu class files in %s (expected at least %d)", files, corpus_dir,
			 CORPUS_MIN_FILES);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		corpus_dir = argv[1];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_every_class_file),
	};
	return cmocka_run_group_tests_name("fuzz_classfile_corpus", tests, NULL, NULL);
}
