/* discovery.c: see discovery.h. */
#define _GNU_SOURCE /* O_PATH */
#include "discovery.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int expand_sockdir(const char *tmpl, uid_t uid, char *out, size_t cap)
{
	size_t pos = 0;

	for (const char *p = tmpl; *p; p++) {
		int n;

		if (p[0] == '%' && p[1] == 'u') {
			n = snprintf(out + pos, cap - pos, "%lu", (unsigned long)uid);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			n = snprintf(out + pos, cap - pos, "%%");
			p++;
		} else
			n = snprintf(out + pos, cap - pos, "%c", *p);
		if (n < 0 || (size_t)n >= cap - pos)
			return -ENAMETOOLONG;
		pos += (size_t)n;
	}
	return 0;
}

int discovery_socket_path(const struct jvm_id *id, const char *sockdir_template,
			  char *dir, size_t dircap, char *name, size_t namecap)
{
	char sockdir[4096];
	int n, rc;

	rc = expand_sockdir(sockdir_template ? sockdir_template : "/tmp/stapjava-%u", id->uid,
			    sockdir, sizeof sockdir);
	if (rc < 0)
		return rc;
	n = snprintf(dir, dircap, "/proc/%d/root%s", (int)id->pid, sockdir);
	if (n < 0 || (size_t)n >= dircap)
		return -ENAMETOOLONG;
	n = snprintf(name, namecap, "jvm-%" PRIu64 "-%d-%" PRIu64 ".sock", id->pidns,
		     (int)id->nspid, id->starttime);
	if (n < 0 || (size_t)n >= namecap)
		return -ENAMETOOLONG;
	return 0;
}

int discovery_sockdir(const struct jvm_id *id, const char *sockdir_template, char *out, size_t cap)
{
	return expand_sockdir(sockdir_template ? sockdir_template : "/tmp/stapjava-%u", id->uid, out, cap);
}

int discovery_open_path_in_root(int rootfd, const char *path, int flags, int *fd)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (uint64_t)flags,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int f = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof how);

	if (f < 0 && errno == ENOSYS) { /* before Linux 5.6: plain lookup */
		char full[4200];

		snprintf(full, sizeof full, "/proc/self/fd/%d/%s", rootfd, path);
		f = open(full, O_PATH | O_CLOEXEC | flags);
	}
	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

int discovery_open_in_root(int rootfd, const char *dir, int *dirfd)
{
	return discovery_open_path_in_root(rootfd, dir, O_DIRECTORY, dirfd);
}

int discovery_open_sockdir_at(int rootfd, const struct jvm_id *id, const char *sockdir_template,
			      int *dirfd)
{
	char sockdir[4096];
	int rc = discovery_sockdir(id, sockdir_template, sockdir, sizeof sockdir);

	return rc < 0 ? rc : discovery_open_in_root(rootfd, sockdir, dirfd);
}

int discovery_open_root(const struct jvm_id *id, int *rootfd)
{
	char root[64];

	snprintf(root, sizeof root, "/proc/%d/root", (int)id->pid);
	*rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *rootfd < 0 ? -errno : 0;
}

int discovery_open_sockdir(const struct jvm_id *id, const char *sockdir_template, int *dirfd)
{
	int rootfd, rc = discovery_open_root(id, &rootfd);

	if (rc < 0)
		return rc;
	rc = discovery_open_sockdir_at(rootfd, id, sockdir_template, dirfd);
	close(rootfd);
	return rc;
}

bool discovery_socket_exists(const struct jvm_id *id, int dirfd)
{
	char name[128];
	struct stat st;
	int n = snprintf(name, sizeof name, "jvm-%" PRIu64 "-%d-%" PRIu64 ".sock", id->pidns,
			 (int)id->nspid, id->starttime);

	if (n < 0 || (size_t)n >= sizeof name)
		return false;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(st.st_mode);
}

/* Append ARG (escaped) to out; false when it does not fit. */
static bool append_escaped(char *out, size_t cap, size_t *pos, const char *arg)
{
	for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
		int n = (*p < 0x20 || *p == 0x7F) ? snprintf(out + *pos, cap - *pos, "\\x%02x", *p)
						   : snprintf(out + *pos, cap - *pos, "%c", *p);

		if (n < 0 || (size_t)n >= cap - *pos)
			return false;
		*pos += (size_t)n;
	}
	return true;
}

/* Launcher options whose value is the next argument. */
static bool takes_value(const char *opt)
{
	static const char *const with_value[] = {
		"-cp", "-classpath", "--class-path", "-p", "--module-path",
		"--upgrade-module-path", "--add-modules", "--limit-modules", "--add-reads",
		"--add-exports", "--add-opens", "--patch-module", "--enable-native-access",
		"--source", "-d", "--describe-module",
	};

	for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
		if (strcmp(opt, with_value[i]) == 0)
			return true;
	return false;
}

int discovery_main_class(const char *cmdline, size_t len, char *out, size_t cap)
{
	const char *end = cmdline + len, *arg;
	size_t pos = 0;

	if (cap == 0)
		return -ENOSPC;
	out[0] = '\0';
	if (len == 0)
		return 0;
	/* argv[0] is the launcher; a truncated last argument has no NUL */
	for (arg = cmdline + strnlen(cmdline, len) + 1; arg < end; arg += strnlen(arg, (size_t)(end - arg)) + 1) {
		if (memchr(arg, '\0', (size_t)(end - arg)) == NULL)
			break;
		if (strcmp(arg, "-jar") == 0 || strcmp(arg, "-m") == 0 || strcmp(arg, "--module") == 0) {
			arg += strlen(arg) + 1;
			if (arg >= end || !memchr(arg, '\0', (size_t)(end - arg)))
				break;
			return append_escaped(out, cap, &pos, arg) ? 0 : -ENOSPC;
		}
		if (strncmp(arg, "--module=", 9) == 0)
			return append_escaped(out, cap, &pos, arg + 9) ? 0 : -ENOSPC;
		if (arg[0] == '-') {
			if (takes_value(arg))
				arg += strlen(arg) + 1;
			continue;
		}
		return append_escaped(out, cap, &pos, arg) ? 0 : -ENOSPC;
	}
	return 0;
}

int discovery_command(const char *cmdline, size_t len, char *out, size_t cap)
{
	const char *end = cmdline + len;
	size_t pos = 0;

	if (cap == 0)
		return -ENOSPC;
	out[0] = '\0';
	for (const char *arg = cmdline; arg < end;) {
		size_t n = strnlen(arg, (size_t)(end - arg));
		char one[4096];

		if (n >= sizeof one)
			n = sizeof one - 1;
		memcpy(one, arg, n);
		one[n] = '\0';
		if (pos && !append_escaped(out, cap, &pos, " "))
			return -ENOSPC;
		if (!append_escaped(out, cap, &pos, one))
			return -ENOSPC;
		arg += strnlen(arg, (size_t)(end - arg)) + 1;
	}
	return 0;
}

/* ---------------------------------------------------------------- scanning */

/* A process found not to be a JVM. Re-examined a few times first, because a
 * launcher may map libjvm.so a moment after it starts. */
#define NOT_JVM_CHECKS 5

struct verdict {
	pid_t pid;
	uint64_t starttime;
	unsigned checks;
};

struct discovery {
	struct verdict *not_jvm;
	size_t n, cap;
};

struct discovery *discovery_new(void)
{
	return calloc(1, sizeof(struct discovery));
}

void discovery_free(struct discovery *d)
{
	if (d)
		free(d->not_jvm);
	free(d);
}

static struct verdict *find_verdict(struct discovery *d, pid_t pid)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->not_jvm[i].pid == pid)
			return &d->not_jvm[i];
	return NULL;
}

/* 1 JVM, 0 not (or gone). exec keeps pid and start time, so a cached "no"
 * would miss `exec java`; we accept that after NOT_JVM_CHECKS looks. */
static int classify(struct discovery *d, pid_t pid)
{
	struct verdict *v = find_verdict(d, pid);
	uint64_t st;
	int is;

	if (procfs_starttime(pid, &st) < 0)
		return 0;
	if (v && v->starttime == st && v->checks >= NOT_JVM_CHECKS)
		return 0;
	is = procfs_is_jvm(pid);
	if (is == 1)
		return 1;
	if (!v) {
		if (d->n == d->cap) {
			size_t cap = d->cap ? 2 * d->cap : 256;
			struct verdict *grown = realloc(d->not_jvm, cap * sizeof *grown);

			if (!grown)
				return 0;
			d->not_jvm = grown;
			d->cap = cap;
		}
		v = &d->not_jvm[d->n++];
		v->pid = pid;
		v->checks = 0;
	} else if (v->starttime != st)
		v->checks = 0;
	v->starttime = st;
	v->checks++;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int discovery_scan(struct discovery *d, pid_t **pids, size_t *n)
{
	pid_t self = getpid();
	size_t cap = 0, count = 0;
	pid_t *list = NULL;
	struct dirent *e;
	DIR *proc = opendir("/proc");

	*pids = NULL;
	*n = 0;
	if (!proc)
		return -errno;
	while ((e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || pid == self || classify(d, (pid_t)pid) != 1)
			continue;
		if (count == cap) {
			pid_t *grown;

			cap = cap ? 2 * cap : 16;
			grown = realloc(list, cap * sizeof *grown);
			if (!grown) {
				free(list);
				closedir(proc);
				return -ENOMEM;
			}
			list = grown;
		}
		list[count++] = (pid_t)pid;
	}
	closedir(proc);
	/* forget verdicts of processes that are gone, so the cache stays small */
	for (size_t i = 0; i < d->n;) {
		uint64_t st;

		if (procfs_starttime(d->not_jvm[i].pid, &st) < 0 || st != d->not_jvm[i].starttime)
			d->not_jvm[i] = d->not_jvm[--d->n];
		else
			i++;
	}
	if (count)
		qsort(list, count, sizeof *list, cmp_pid);
	*pids = list;
	*n = count;
	return 0;
}

int discovery_list(struct discovery *d, FILE *out, const char *sockdir_template)
{
	static char cmdline[65536];
	char main_class[4096], user[64];
	pid_t *pids;
	size_t n;
	int rc = discovery_scan(d, &pids, &n);

	if (rc < 0)
		return rc;
	fprintf(out, "%-7s %-12s %-5s %s\n", "PID", "USER", "AGENT", "MAIN");
	for (size_t i = 0; i < n; i++) {
		struct jvm_id id;
		struct passwd *pw;
		ssize_t len;

		if (procfs_read_jvm(pids[i], &id) < 0)
			continue; /* gone meanwhile */
		len = procfs_cmdline(pids[i], cmdline, sizeof cmdline);
		if (len < 0)
			continue;
		if (discovery_main_class(cmdline, (size_t)len, main_class, sizeof main_class) < 0 ||
		    main_class[0] == '\0')
			discovery_command(cmdline, (size_t)len, main_class, sizeof main_class);
		pw = getpwuid(id.uid);
		if (pw)
			snprintf(user, sizeof user, "%s", pw->pw_name);
		else
			snprintf(user, sizeof user, "%lu", (unsigned long)id.uid);
		int dirfd;
		bool agent = discovery_open_sockdir(&id, sockdir_template, &dirfd) == 0;

		if (agent) {
			agent = discovery_socket_exists(&id, dirfd);
			close(dirfd);
		}
		fprintf(out, "%-7d %-12s %-5s %s\n", (int)id.pid, user, agent ? "yes" : "no", main_class);
	}
	free(pids);
	return fflush(out) == 0 ? 0 : -EIO;
}
