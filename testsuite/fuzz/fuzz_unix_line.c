/* fuzz_unix_line.c: libFuzzer target for procfs_parse_unix_line
 * (stpd-bridge/procfs.c), which reads lines of /proc/PID/net/unix: their
 * paths are any local process's bytes, newlines included.
 *
 * Input: any bytes, taken as one line. Oracles:
 *  - an accepted line's path lies inside the line, starts with '/', and
 *    runs to the line's end;
 *  - an independent reading with sscanf agrees: the same flags say
 *    listening, the type stream, the same inode, the path where it ends;
 *  - the line the kernel would print for that inode and path reads back
 *    the same.
 * Any failure aborts (libFuzzer reports a crash); and ASan/UBSan.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 512

static void die(const char *what)
{
	fprintf(stderr, "fuzz_unix_line: %s\n", what);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[MAX_IN + 1], again[MAX_IN + 128];
	unsigned long long num, refs, proto, flags, type, st, ino;
	const char *path, *path2;
	size_t plen, plen2;
	uint64_t inode, inode2;
	int end = -1;

	if (size > MAX_IN)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (procfs_parse_unix_line(line, size, &inode, &path, &plen) != 1)
		return 0;
	if (path < line || path + plen != line + size || plen == 0 || path[0] != '/')
		die("the path is not the line's tail, or not absolute");
	/* sscanf stops at a NUL: only a line without one is compared */
	if (memchr(line, '\0', size) == NULL) {
		if (sscanf(line, "%llx: %llx %llx %llx %llx %llx %llu%n", &num, &refs, &proto, &flags, &type,
			   &st, &ino, &end) != 7 || end < 0)
			die("sscanf does not read an accepted line");
		if (!(flags & 0x10000) || type != 1 || ino != inode || line + end + 1 != path)
			die("sscanf reads an accepted line otherwise");
	}
	int n = snprintf(again, sizeof again, "0000000000000000: 00000002 00000000 00010000 0001 01 %5llu ",
			 (unsigned long long)inode);
	memcpy(again + n, path, plen);
	if (procfs_parse_unix_line(again, (size_t)n + plen, &inode2, &path2, &plen2) != 1 || inode2 != inode ||
	    plen2 != plen || memcmp(path2, path, plen) != 0)
		die("the kernel's line for an accepted one does not read back the same");
	return 0;
}
