/* fuzz_proc_stat.c: libFuzzer target for jvmsock_stat_starttime
 * (runtime/jvmsock.c), which reads field 22 of /proc/PID/stat texts: the
 * bridge reads any local process's, whose command name (field 2) that
 * process chooses, spaces and parentheses included.
 *
 * Input: any bytes, taken as the file's text. Oracles:
 *  - an independent reading (the text after its last ')' split at each
 *    space, the 21st piece's leading digits, in 128 bits) agrees: the same
 *    texts accepted, the same start time;
 *  - the kernel's line for the accepted start time, with the input's first
 *    15 bytes as command name, reads back the same.
 * Any failure aborts (libFuzzer reports a crash); and ASan/UBSan.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jvmsock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 1024

static void die(const char *what)
{
	fprintf(stderr, "fuzz_proc_stat: %s\n", what);
	abort();
}

static bool read_otherwise(const char *text, size_t size, uint64_t *out)
{
	const char *close = NULL, *piece, *end = text + size;
	unsigned __int128 v = 0;
	size_t digits = 0;

	for (size_t i = 0; i < size; i++)
		if (text[i] == ')')
			close = text + i;
	if (!close)
		return false;
	/* piece 0 is what stands between ')' and the first space */
	piece = close + 1;
	for (int k = 0; k < 20; k++) {
		const char *sp = memchr(piece, ' ', (size_t)(end - piece));
		if (!sp)
			return false;
		piece = sp + 1;
	}
	while (piece + digits < end && piece[digits] >= '0' && piece[digits] <= '9') {
		v = v * 10 + (unsigned)(piece[digits] - '0');
		if (v > UINT64_MAX)
			return false;
		digits++;
	}
	if (!digits)
		return false;
	*out = (uint64_t)v;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[MAX_IN], line[256], comm[16];
	uint64_t start = 0, other = 0, again = 0;

	if (size > MAX_IN)
		return 0;
	memcpy(text, data, size);
	int rc = jvmsock_stat_starttime(text, size, &start);
	bool ok = read_otherwise(text, size, &other);
	if ((rc == 0) != ok)
		die(ok ? "an independent reading accepts what it refuses" : "it accepts what an independent reading refuses");
	if (rc != 0 && rc != -22)
		die("a refusal other than -EINVAL");
	if (!ok)
		return 0;
	if (start != other)
		die("an independent reading finds another start time");
	size_t clen = size < 15 ? size : 15;
	memcpy(comm, data, clen);
	comm[clen] = '\0';
	/* a NUL ends the kernel's command name */
	int n = snprintf(line, sizeof line, "1 (%s) S 0 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 %" PRIu64 " 0\n",
			 comm, start);
	if (jvmsock_stat_starttime(line, (size_t)n, &again) != 0 || again != start)
		die("the kernel's line for an accepted start time does not read back the same");
	return 0;
}
