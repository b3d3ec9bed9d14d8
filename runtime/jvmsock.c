/* jvmsock.c: see jvmsock.h. */
#include "jvmsock.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdio.h"

int jvmsock_name(char *name, size_t cap, uint64_t pidns, int64_t nspid, uint64_t starttime)
{
	int n = snprintf(name, cap, "jvm-%" PRIu64 "-%" PRId64 "-%" PRIu64 ".sock", pidns, nspid,
			 starttime);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

int jvmsock_stat_starttime(const char *stat, size_t len, uint64_t *starttime)
{
	const char *p = NULL, *end = stat + len;
	uint64_t v = 0;
	int field = 2;

	for (const char *q = stat; q < end; q++)
		if (*q == ')')
			p = q;
	if (!p)
		return -EINVAL;
	/* after ')' each space starts the next field: field 3 (state) ... 22 */
	for (p++; p < end && field < 22; p++)
		if (*p == ' ')
			field++;
	if (field != 22 || p >= end || *p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*starttime = v;
	return 0;
}

int jvmsock_self_name(char *name, size_t cap)
{
	char buf[1024];
	struct stat st;
	uint64_t start;
	ssize_t n;
	int rc;

	if (stat("/proc/self/ns/pid", &st) < 0)
		return -errno;
	n = fd_read_small_file("/proc/self/stat", buf, sizeof buf);
	if (n < 0)
		return (int)n;
	rc = jvmsock_stat_starttime(buf, (size_t)n, &start);
	if (rc < 0)
		return rc;
	/* getpid() is the pid in the caller's own, innermost, namespace: the
	 * last number of NSpid in /proc/self/status */
	return jvmsock_name(name, cap, (uint64_t)st.st_ino, (int64_t)getpid(), start);
}
