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
#include <sys/un.h>
#include <unistd.h>

#include "jvmsock.h"

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

int discovery_socket_name(const struct jvm_id *id, char *name, size_t cap)
{
	return jvmsock_name(name, cap, id->pidns, id->nspid, id->starttime);
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

int discovery_open_root(const struct jvm_id *id, int *rootfd)
{
	char root[64];

	snprintf(root, sizeof root, "/proc/%d/root", (int)id->pid);
	*rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return *rootfd < 0 ? -errno : 0;
}

/* ------------------------------------------------------------ the agent's socket */

/* A listening socket of the JVM's network namespace that bears the agent's
 * name, from /proc/PID/net/unix: its inode and the directory of its path. */
struct candidate {
	uint64_t inode;
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
};

/* Look at DIR/NAME inside ROOTFD. STRICT (a place found without being
 * told): the directory must be the JVM's uid's and writable by nobody else,
 * and the socket its; then only that uid (or root) can have made it. */
static int check_place(const struct jvm_id *id, int rootfd, const char *dir, const char *name, bool strict,
		       struct agent_socket *out, char *why, size_t cap)
{
	struct stat st;
	int dfd, rc = discovery_open_in_root(rootfd, dir, &dfd);

	if (rc < 0) {
		snprintf(why, cap, "%s: %s", dir, strerror(-rc));
		return rc == -ELOOP || rc == -ENOTDIR ? rc : -ENOENT;
	}
	if (strict && fstat(dfd, &st) < 0) {
		rc = -errno;
		snprintf(why, cap, "%s: %s", dir, strerror(-rc));
	} else if (strict && st.st_uid != id->uid) {
		snprintf(why, cap, "the socket directory %s is owned by uid %lu, not %lu (the JVM's)", dir,
			 (unsigned long)st.st_uid, (unsigned long)id->uid);
		rc = -EPERM;
	} else if (strict && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(why, cap, "the socket directory %s is writable by group or others", dir);
		rc = -EPERM;
	} else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		rc = errno == ENOENT ? -ENOENT : -errno;
		snprintf(why, cap, "%s/%s: %s", dir, name, strerror(-rc));
	} else if (S_ISLNK(st.st_mode)) {
		snprintf(why, cap, "%s/%s is a symlink, not a socket", dir, name);
		rc = -ELOOP;
	} else if (!S_ISSOCK(st.st_mode)) {
		snprintf(why, cap, "%s/%s is not a socket", dir, name);
		rc = -ENOTSOCK;
	} else if (strict && st.st_uid != id->uid) {
		snprintf(why, cap, "the socket %s/%s is owned by uid %lu, not %lu (the JVM's)", dir, name,
			 (unsigned long)st.st_uid, (unsigned long)id->uid);
		rc = -EPERM;
	}
	if (rc < 0) {
		close(dfd);
		return rc;
	}
	out->dirfd = dfd;
	snprintf(out->dir, sizeof out->dir, "%s", dir);
	snprintf(out->name, sizeof out->name, "%s", name);
	return 0;
}

#define MAX_CANDIDATES 8

/* The listening sockets named NAME in F (the JVM's /proc/PID/net/unix)
 * whose place passes the ownership checks; at most MAX_CANDIDATES of those.
 * Lines that fail them (another user's sockets, forged lines) are read past
 * however many there are, so they cannot crowd out the JVM's own; the first
 * failure is kept in *BAD and WHY. */
static size_t read_candidates(FILE *f, const struct jvm_id *id, int rootfd, const char *name,
			      struct candidate *c, int *bad, char *why, size_t cap)
{
	char line[512], one[600];
	size_t n = 0, nlen = strlen(name);
	bool cut = false;

	while (n < MAX_CANDIDATES && fgets(line, sizeof line, f)) {
		size_t len = strlen(line);
		bool whole = len && line[len - 1] == '\n';
		bool was_cut = cut;
		struct agent_socket place;
		const char *p;
		size_t plen;
		uint64_t ino;

		cut = !whole;   /* the rest of an overlong line is no line of its own */
		if (was_cut)
			continue;
		if (whole)
			line[--len] = '\0';
		if (procfs_parse_unix_line(line, len, &ino, &p, &plen) != 1 || plen >= sizeof c[n].dir ||
		    plen <= nlen + 1 || p[plen - nlen - 1] != '/' || memcmp(p + plen - nlen, name, nlen) != 0)
			continue;
		memcpy(c[n].dir, p, plen - nlen - 1);   /* the directory */
		c[n].dir[plen - nlen - 1] = '\0';
		if (c[n].dir[0] == '\0')
			continue;
		int rc = check_place(id, rootfd, c[n].dir, name, true, &place, one, sizeof one);
		if (rc == 0) {
			close(place.dirfd);
			c[n++].inode = ino;
		} else if (rc != -ENOENT && *bad == -ENOENT) {
			/* the first thing wrong is worth saying; a vanished one is not */
			*bad = rc;
			snprintf(why, cap, "%s", one);
		}
	}
	return n;
}

/* Among the JVM's own listening sockets. A line of net/unix can be forged
 * (a path holding a newline), so a socket counts only in a place only the
 * JVM's uid can make (check_place) and when the JVM holds its inode: nobody
 * else can put a socket in the JVM's private directory, or add one to its
 * descriptors. A worker that cannot read /proc/PID/fd (a root JVM: the
 * worker has no capability) has the first check alone. */
static int from_own_sockets(const struct jvm_id *id, int rootfd, const char *name, FILE *net_unix,
			    struct agent_socket *out, char *why, size_t cap)
{
	struct candidate c[MAX_CANDIDATES];
	uint64_t inodes[MAX_CANDIDATES];
	bool held[MAX_CANDIDATES];
	int bad = -ENOENT;
	FILE *f = net_unix;

	if (!f) {
		char path[64];

		snprintf(path, sizeof path, "/proc/%d/net/unix", (int)id->pid);
		f = fopen(path, "re");
		if (!f)
			return -ENOENT;
	}
	size_t n = read_candidates(f, id, rootfd, name, c, &bad, why, cap);
	if (f != net_unix)
		fclose(f);
	for (size_t i = 0; i < n; i++)
		inodes[i] = c[i].inode;
	if (n && procfs_holds_sockets(id->pid, inodes, n, held) < 0)
		for (size_t i = 0; i < n; i++)
			held[i] = true;
	for (size_t i = 0; i < n; i++) {
		char one[600];

		if (held[i] && check_place(id, rootfd, c[i].dir, name, true, out, one, sizeof one) == 0)
			return 0;
	}
	return bad;
}

int discovery_find_socket(const struct jvm_id *id, int rootfd, const char *sockdir_template,
			  struct agent_socket *out, char *why, size_t cap)
{
	return discovery_find_socket_in(id, rootfd, sockdir_template, NULL, out, why, cap);
}

int discovery_find_socket_in(const struct jvm_id *id, int rootfd, const char *sockdir_template,
			     FILE *net_unix, struct agent_socket *out, char *why, size_t cap)
{
	char name[128], dir[4096], there[600];
	int own = -1, rc;

	out->dirfd = -1;
	why[0] = '\0';
	if (discovery_socket_name(id, name, sizeof name) < 0 ||
	    discovery_sockdir(id, sockdir_template, dir, sizeof dir) < 0) {
		snprintf(why, cap, "the socket's path is too long");
		return -ENAMETOOLONG;
	}
	if (rootfd < 0) {
		rc = discovery_open_root(id, &own);
		if (rc < 0) {
			snprintf(why, cap, "cannot open /proc/%d/root: %s", (int)id->pid, strerror(-rc));
			return rc;
		}
		rootfd = own;
	}
	char own_why[600] = "";
	int own_rc = from_own_sockets(id, rootfd, name, net_unix, out, own_why, sizeof own_why);
	/* then --sockdir: the place the user chose; without, where older
	 * agents listened, taken only when the JVM's uid made it */
	rc = own_rc == 0 ? 0 : check_place(id, rootfd, dir, name, sockdir_template == NULL, out, there,
					   sizeof there);
	if (rc == -ELOOP || rc == -ENOTSOCK) {
		snprintf(why, cap, "%s", there);
	} else if (rc < 0 && own_rc != -ENOENT) {
		/* something that is no socket of the JVM's, where its own say */
		snprintf(why, cap, "%s", own_why);
		rc = own_rc;
	} else if (rc == -EPERM) {
		/* squatted: a note on why an older agent had no socket */
		snprintf(why, cap, "no listening socket named %s among the JVM's own "
			 "(/proc/%d/net/unix), and %s", name, (int)id->pid, there);
		rc = -ENOENT;
	} else if (rc < 0) {
		snprintf(why, cap, "no listening socket named %s among the JVM's own "
			 "(/proc/%d/net/unix), nor in %s", name, (int)id->pid, dir);
		rc = -ENOENT;
	}
	if (own >= 0)
		close(own);
	return rc;
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
	unsigned seen;           /* the scan that last found its pid in /proc */
};

/* The verdicts sorted by pid: a scan looks each process up (a host has
 * hundreds to thousands), and forgets those it did not find, without
 * reading /proc again for them (a second read of every process's stat was
 * half of what a scan cost). */
struct discovery {
	struct verdict *not_jvm;
	size_t n, cap;
	unsigned scan;
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

/* Where PID's verdict is, or would go to keep the order. */
static size_t verdict_at(const struct discovery *d, pid_t pid)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->not_jvm[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* 1 JVM, 0 not (or gone). exec keeps pid and start time, so a cached "no"
 * would miss `exec java`; we accept that after NOT_JVM_CHECKS looks. */
static int classify(struct discovery *d, pid_t pid)
{
	size_t at = verdict_at(d, pid);
	struct verdict *v = at < d->n && d->not_jvm[at].pid == pid ? &d->not_jvm[at] : NULL;
	uint64_t st;
	int is;

	if (procfs_starttime(pid, &st) < 0)
		return 0;
	if (v)
		v->seen = d->scan;
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
		memmove(&d->not_jvm[at + 1], &d->not_jvm[at], (d->n - at) * sizeof *v);
		d->n++;
		v = &d->not_jvm[at];
		*v = (struct verdict){ .pid = pid, .seen = d->scan };
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
	d->scan++;
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
	/* forget the verdicts of processes that are gone, so the cache stays
	 * small (a pid reused since has a new start time: classify saw it) */
	size_t kept = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->not_jvm[i].seen == d->scan)
			d->not_jvm[kept++] = d->not_jvm[i];
	d->n = kept;
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
		struct agent_socket sock;
		char why[1024];
		bool agent = discovery_find_socket(&id, -1, sockdir_template, &sock, why, sizeof why) == 0;

		if (agent)
			close(sock.dirfd);
		fprintf(out, "%-7d %-12s %-5s %s\n", (int)id.pid, user, agent ? "yes" : "no", main_class);
	}
	free(pids);
	return fflush(out) == 0 ? 0 : -EIO;
}
