/* procfs.c: see procfs.h. */
#include "procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read a whole small /proc file into buf (NUL-terminated). */
static ssize_t read_file(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len + 1 < cap) {
		ssize_t n = read(fd, buf + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

int procfs_starttime(pid_t pid, uint64_t *starttime)
{
	char path[64], buf[1024];
	const char *p;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	n = read_file(path, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	/* comm (field 2) may hold spaces and ')': fields restart after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	p++;
	/* after ')' come field 3 (state) ... field 22 (starttime): skip 19 fields */
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	if (sscanf(p, " %" SCNu64, starttime) != 1)
		return -EINVAL;
	return 0;
}

/* Uid:, Gid: (real ids, the first numbers) and the last NSpid: number. */
static int read_status(pid_t pid, struct jvm_id *id)
{
	char path[64], buf[4096];
	bool have_uid = false, have_gid = false, have_nspid = false;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	n = read_file(path, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	for (char *line = buf, *next; line && *line; line = next) {
		unsigned long v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "Uid: %lu", &v) == 1) {
			id->uid = (uid_t)v;
			have_uid = true;
		} else if (sscanf(line, "Gid: %lu", &v) == 1) {
			id->gid = (gid_t)v;
			have_gid = true;
		} else if (strncmp(line, "NSpid:", 6) == 0) {
			char *last = strrchr(line, '\t');

			if (!last)
				last = strrchr(line, ' ');
			if (last && sscanf(last, " %lu", &v) == 1) {
				id->nspid = (pid_t)v;
				have_nspid = true;
			}
		}
	}
	if (!have_uid || !have_gid)
		return -EINVAL;
	if (!have_nspid) /* kernels before 4.1: no NSpid, same namespace */
		id->nspid = pid;
	return 0;
}

int procfs_read_jvm(pid_t pid, struct jvm_id *id)
{
	char path[64];
	struct stat st;
	uint64_t again;
	int rc;

	memset(id, 0, sizeof *id);
	id->pid = pid;
	rc = procfs_starttime(pid, &id->starttime);
	if (rc < 0)
		return rc;
	rc = read_status(pid, id);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof path, "/proc/%d/ns/pid", (int)pid);
	if (stat(path, &st) < 0)
		return -errno;
	id->pidns = (uint64_t)st.st_ino;
	/* the pid may have been reused while we read: the start time says */
	rc = procfs_starttime(pid, &again);
	if (rc < 0)
		return rc;
	return again == id->starttime ? 0 : -ESRCH;
}

bool procfs_same_process(const struct jvm_id *id)
{
	uint64_t st;

	return procfs_starttime(id->pid, &st) == 0 && st == id->starttime;
}

ssize_t procfs_cmdline(pid_t pid, char *buf, size_t cap)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	return read_file(path, buf, cap);
}

static bool maps_has_libjvm(pid_t pid)
{
	char path[64], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof line, f)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		found = n >= 10 && strcmp(line + n - 10, "/libjvm.so") == 0;
	}
	fclose(f);
	return found;
}

int procfs_is_jvm(pid_t pid)
{
	char path[64], exe[4096];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof exe - 1);
	if (n < 0)
		return errno == ENOENT ? -ENOENT : 0; /* kernel threads have no exe */
	exe[n] = '\0';
	const char *base = strrchr(exe, '/');

	base = base ? base + 1 : exe;
	if (strcmp(base, "java") == 0 || strcmp(base, "java (deleted)") == 0)
		return 1;
	return maps_has_libjvm(pid) ? 1 : 0;
}
