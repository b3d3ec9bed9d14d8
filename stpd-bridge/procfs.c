/* procfs.c: see procfs.h. */
#include "procfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdio.h"
#include "jvmsock.h"

int procfs_starttime(pid_t pid, uint64_t *starttime)
{
	char path[64], buf[1024];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	n = fd_read_small_file(path, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	return jvmsock_stat_starttime(buf, (size_t)n, starttime);
}

/* Uid:, Gid: (real ids, the first numbers) and the last NSpid: number. */
static int read_status(pid_t pid, struct jvm_id *id)
{
	char path[64], buf[4096];
	bool have_uid = false, have_gid = false, have_nspid = false, have_tgid = false;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	n = fd_read_small_file(path, buf, sizeof buf);
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
		} else if (sscanf(line, "Tgid: %lu", &v) == 1) {
			id->tgid = (pid_t)v;
			have_tgid = true;
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
	if (!have_tgid)
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

int64_t procfs_age_from(double uptime_s, uint64_t starttime, long hz)
{
	int64_t age = (int64_t)(uptime_s * 1000.0) - (int64_t)(starttime * 1000 / (uint64_t)hz);

	/* /proc/uptime is cut to 10 ms and the start time rounded to a tick: a
	 * process started within the last 10 ms can come out a little before
	 * now, which is not "unknown" (that made a JVM just started look settled) */
	return age < 0 ? 0 : age;
}

static int64_t age_of(uint64_t starttime)
{
	char buf[128];
	double up;
	long hz = sysconf(_SC_CLK_TCK);

	if (fd_read_small_file("/proc/uptime", buf, sizeof buf) < 0 || sscanf(buf, "%lf", &up) != 1 || hz <= 0)
		return -1;
	return procfs_age_from(up, starttime, hz);
}

int64_t procfs_age_ms(const struct jvm_id *id)
{
	return age_of(id->starttime);
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
	return fd_read_small_file(path, buf, cap);
}

bool procfs_maps_file(pid_t pid, const char *base)
{
	char path[64], line[4096];
	size_t blen = strlen(base);
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
		/* a library replaced or removed since it was loaded is still there */
		if (n > 10 && strcmp(line + n - 10, " (deleted)") == 0)
			line[n -= 10] = '\0';
		found = n > blen && line[n - blen - 1] == '/' && strcmp(line + n - blen, base) == 0;
	}
	fclose(f);
	return found;
}

/* The last -XX:+NAME or -XX:-NAME in the NUL- (or space-) separated WORDS. */
static int last_flag(const char *words, size_t len, const char *plus, const char *minus, int cur)
{
	size_t pl = strlen(plus);

	for (size_t i = 0; i + pl <= len; i++) {
		bool start = i == 0 || words[i - 1] == '\0' || words[i - 1] == ' ';
		bool end = i + pl == len || words[i + pl] == '\0' || words[i + pl] == ' ';
		if (start && end && memcmp(words + i, plus, pl) == 0)
			cur = 1;
		else if (start && end && memcmp(words + i, minus, pl) == 0)
			cur = 0;
	}
	return cur;
}

int procfs_jvm_flag(pid_t pid, const char *name)
{
	static const char *const vars[] = { "JAVA_TOOL_OPTIONS=", "_JAVA_OPTIONS=", "JDK_JAVA_OPTIONS=" };
	char path[64], plus[128], minus[128], buf[65536];
	int cur = 0;
	ssize_t n;

	snprintf(plus, sizeof plus, "-XX:+%s", name);
	snprintf(minus, sizeof minus, "-XX:-%s", name);
	/* the launcher reads the environment's options before the command line's */
	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	n = fd_read_small_file(path, buf, sizeof buf);
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1)
		for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++)
			if (strncmp(buf + i, vars[v], strlen(vars[v])) == 0) {
				const char *val = buf + i + strlen(vars[v]);
				cur = last_flag(val, strlen(val), plus, minus, cur);
			}
	n = procfs_cmdline(pid, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	return last_flag(buf, (size_t)n, plus, minus, cur);
}

bool procfs_jvm_mentions(pid_t pid, const char *needle)
{
	static const char *const vars[] = { "JAVA_TOOL_OPTIONS=", "_JAVA_OPTIONS=", "JDK_JAVA_OPTIONS=" };
	char path[64], buf[65536];
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	n = fd_read_small_file(path, buf, sizeof buf);
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1)
		for (size_t v = 0; v < sizeof vars / sizeof vars[0]; v++)
			if (strncmp(buf + i, vars[v], strlen(vars[v])) == 0 && strstr(buf + i, needle))
				return true;
	n = procfs_cmdline(pid, buf, sizeof buf);
	for (ssize_t i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (strstr(buf + i, needle))
			return true;
	return false;
}

/* The start time of PID's first thread named COMM: 0, -ENOENT (none). */
static int thread_starttime(pid_t pid, const char *comm, uint64_t *starttime)
{
	char path[64], name[64];
	int rc = -ENOENT;
	struct dirent *d;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return -ENOENT;
	while (rc && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		char cpath[320];
		snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/comm", (int)pid, d->d_name);
		ssize_t n = fd_read_small_file(cpath, name, sizeof name);
		if (n > 0 && name[n - 1] == '\n')
			name[--n] = '\0';
		if (n > 0 && strcmp(name, comm) == 0)
			rc = procfs_starttime((pid_t)atoi(d->d_name), starttime) == 0 ? 0 : -ENOENT;
	}
	closedir(dir);
	return rc;
}

bool procfs_has_thread(pid_t pid, const char *comm)
{
	uint64_t st;

	return thread_starttime(pid, comm, &st) == 0;
}

int64_t procfs_thread_age_ms(pid_t pid, const char *comm)
{
	uint64_t st;

	return thread_starttime(pid, comm, &st) == 0 ? age_of(st) : -1;
}

bool procfs_catches_signal(pid_t pid, int sig)
{
	char path[64], buf[4096];
	unsigned long long mask;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (fd_read_small_file(path, buf, sizeof buf) < 0)
		return false;
	const char *p = strstr(buf, "\nSigCgt:");
	return p && sscanf(p + 8, " %llx", &mask) == 1 && (mask >> (sig - 1) & 1);
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
	return procfs_maps_file(pid, "libjvm.so") ? 1 : 0;
}

/* The kernel writes "%pK: %08X %08X %08X %04X %02X %5lu" then " PATH" when bound. */
#define UNIX_ACCEPTCON 0x10000 /* __SO_ACCEPTCON: listening */
#define UNIX_STREAM 1

static bool hex_field(const char **p, const char *end, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;

	while (q < end && *q == ' ')
		q++;
	const char *start = q;
	for (; q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F')); q++) {
		if (q - start >= 16)
			return false;
		x = x << 4 | (unsigned long long)(*q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10);
	}
	if (q == start)
		return false;
	*v = x;
	*p = q;
	return true;
}

int procfs_parse_unix_line(const char *line, size_t len, uint64_t *inode, const char **path,
			   size_t *pathlen)
{
	const char *p = line, *end = line + len;
	unsigned long long num, refs, proto, flags, type, st, ino = 0;

	if (!hex_field(&p, end, &num) || p == end || *p++ != ':')
		return 0;
	if (!hex_field(&p, end, &refs) || !hex_field(&p, end, &proto) || !hex_field(&p, end, &flags) ||
	    !hex_field(&p, end, &type) || !hex_field(&p, end, &st))
		return 0;
	/* the inode is decimal */
	while (p < end && *p == ' ')
		p++;
	const char *digits = p;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (p - digits >= 19)
			return 0;
		ino = ino * 10 + (unsigned long long)(*p - '0');
	}
	if (p == digits || !(flags & UNIX_ACCEPTCON) || type != UNIX_STREAM)
		return 0;
	/* then one space and the path; an abstract name starts with '@' */
	if (p + 2 > end || p[0] != ' ' || p[1] != '/')
		return 0;
	*inode = ino;
	*path = p + 1;
	*pathlen = (size_t)(end - p - 1);
	return 1;
}

int procfs_holds_sockets(pid_t pid, const uint64_t *inodes, size_t n, bool *held)
{
	char path[64], link[64];
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return -errno;
	for (size_t i = 0; i < n; i++)
		held[i] = false;
	while ((e = readdir(dir))) {
		unsigned long long ino;
		ssize_t len = readlinkat(dirfd(dir), e->d_name, link, sizeof link - 1);

		/* the directory may be listed where its links cannot be read */
		if (len < 0 && (errno == EACCES || errno == EPERM)) {
			int err = -errno;
			closedir(dir);
			return err;
		}
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%llu]", &ino) != 1)
			continue;
		for (size_t i = 0; i < n; i++)
			if (inodes[i] == ino)
				held[i] = true;
	}
	closedir(dir);
	return 0;
}
