/* listener.c: see listener.h. */
#include "listener.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent.h"
#include "jvmsock.h"
#include "log.h"

static char sock_dir[PATH_MAX];
static char sock_name[JVMSOCK_NAME_MAX]; /* file name inside sock_dir (jvmsock.h) */
/* No sockdir= option: sock_dir is ours alone, made by mkdtemp under a name
 * nobody can guess, so no other user can take its place first; bridges find
 * the socket through our own /proc/PID/net/unix. */
static bool private_dir;
static char sock_path[PATH_MAX + 96];
static dev_t sock_dev;
static ino_t sock_ino;           /* identity of the file we renamed into place */
static bool recreate_failed;     /* log a failing re-creation only once */
static bool have_socket;         /* the first creation worked: keep it alive */

const char *listener_path(void)
{
	return sock_path;
}

/* Open sock_dir (creating it, unless it is our private one: its name is no
 * secret once made) and check it is safe; returns a dir fd or -errno. */
static int open_dir(bool quiet)
{
	if (!private_dir && mkdir(sock_dir, 0700) < 0 && errno != EEXIST) {
		int e = errno;
		if (!quiet)
			sj_error("socket directory %s: cannot create it: %s; no socket, the JVM runs on without probes",
				 sock_dir, strerror(e));
		return -e;
	}
	int dfd = open(sock_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	const char *why = NULL;
	char owner[64];
	int e = 0;
	if (dfd < 0) {
		e = errno;
		why = e == ELOOP || e == ENOTDIR ? "is a symlink or not a directory" : strerror(e);
	} else if (fstat(dfd, &st) < 0) {
		e = errno;
		why = strerror(e);
	} else if (!S_ISDIR(st.st_mode)) {
		e = ENOTDIR;
		why = "is not a directory";
	} else if (st.st_uid != geteuid()) {
		e = EPERM;
		snprintf(owner, sizeof owner, "is owned by uid %lu, not %lu", (unsigned long)st.st_uid,
			 (unsigned long)geteuid());
		why = owner;
	} else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		e = EPERM;
		why = "is writable by group or others";
	}
	if (why) {
		if (!quiet)
			sj_error("socket directory %s %s: refused, no socket, the JVM runs on without probes",
				 sock_dir, why);
		if (dfd >= 0)
			close(dfd);
		return -e;
	}
	return dfd;
}

/* Bind in DFD, chmod 0600, listen. With sockdir=: under a temporary name,
 * through /proc/self/fd/DFD (short, and resolved from the directory we
 * checked), then renamed into place. In our private directory: at its real
 * path, which /proc/net/unix then shows to a bridge (a renamed socket shows
 * its temporary name there); nobody else can enter it, so neither detour is
 * needed. */
static int bind_in(int dfd, bool quiet)
{
	char tmp[128];
	const char *bound = sock_name;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd = -1, e, n;

	if (private_dir) {
		n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	} else {
		snprintf(tmp, sizeof(tmp), ".%s.%ld.tmp", sock_name, (long)getpid());
		bound = tmp;
		n = snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", dfd, tmp);
	}
	if (n >= (int)sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	unlinkat(dfd, bound, 0);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail;
	/* the socket must be in the directory we checked, not one put in its place */
	errno = EEXIST;
	if (fstatat(dfd, bound, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISSOCK(st.st_mode) ||
	    fchmodat(dfd, bound, 0600, 0) < 0 || listen(fd, 16) < 0 ||
	    (bound != sock_name && renameat(dfd, bound, dfd, sock_name) < 0))
		goto fail_unlink;
	sock_dev = st.st_dev;
	sock_ino = st.st_ino;
	return fd;
fail_unlink:
	e = errno;
	unlinkat(dfd, bound, 0);
	errno = e;
fail:
	e = errno;
	if (!quiet)
		sj_error("socket %s: %s; no socket, the JVM runs on without probes", sock_path, strerror(e));
	if (fd >= 0)
		close(fd);
	return -e;
}

static int create(bool quiet)
{
	int dfd = open_dir(quiet);
	if (dfd < 0)
		return dfd;
	int fd = bind_in(dfd, quiet);
	close(dfd);
	return fd;
}

/* A new private directory: $TMPDIR (when absolute and the socket's path
 * still fits in sun_path) or /tmp, "stapjava-<uid>-XXXXXX", mode 0700. */
static int make_private_dir(bool quiet)
{
	const char *base = getenv("TMPDIR");
	struct sockaddr_un sa;
	char tmpl[PATH_MAX];

	/* the longest directory name we make, then "/" and the socket's name */
	if (!base || base[0] != '/' ||
	    strlen(base) + sizeof("/stapjava-4294967295-XXXXXX/") + strlen(sock_name) > sizeof(sa.sun_path))
		base = "/tmp";
	snprintf(tmpl, sizeof(tmpl), "%s/stapjava-%ld-XXXXXX", base, (long)getuid());
	if (!mkdtemp(tmpl)) {
		int e = errno;
		if (!quiet)
			sj_error("cannot create a socket directory %s: %s; no socket, the JVM runs on without probes",
				 tmpl, strerror(e));
		return -e;
	}
	snprintf(sock_dir, sizeof(sock_dir), "%s", tmpl);
	snprintf(sock_path, sizeof(sock_path), "%s/%s", sock_dir, sock_name);
	return 0;
}

static int create_private(bool quiet)
{
	int rc = make_private_dir(quiet);
	if (rc < 0)
		return rc;
	int fd = create(quiet);
	if (fd < 0)
		rmdir(sock_dir);
	return fd;
}

int listener_open(void)
{
	int rc;

	rc = jvmsock_self_name(sock_name, sizeof sock_name);
	if (rc < 0) {
		sj_error("cannot compute the socket name from /proc/self: %s; no socket", strerror(-rc));
		return rc;
	}
	private_dir = !agent.opt.sockdir[0];
	int fd;
	if (private_dir) {
		fd = create_private(false);
	} else {
		snprintf(sock_dir, sizeof(sock_dir), "%s", agent.opt.sockdir);
		snprintf(sock_path, sizeof(sock_path), "%s/%s", sock_dir, sock_name);
		fd = create(false);
	}
	if (fd >= 0) {
		have_socket = true;
		sj_info("listening on %s", sock_path);
	}
	return fd;
}

int listener_check(int fd)
{
	struct stat st;

	/* a directory refused at start stays refused: one log line, not one a second */
	if (!have_socket)
		return fd;
	if (fd >= 0 && lstat(sock_path, &st) == 0 && st.st_dev == sock_dev && st.st_ino == sock_ino)
		return fd;
	char old[sizeof(sock_path)];
	snprintf(old, sizeof(old), "%s", sock_path);
	int nfd = create(true);
	/* our private directory itself removed (a /tmp cleaner): a new one */
	if (nfd < 0 && private_dir) {
		rmdir(sock_dir);
		nfd = create_private(true);
	}
	if (nfd < 0) {
		if (!recreate_failed)
			sj_warn("socket %s is gone and cannot be re-created: %s; retrying every second",
				sock_path, strerror(-nfd));
		recreate_failed = true;
		return fd;
	}
	recreate_failed = false;
	if (fd >= 0)
		close(fd);
	if (strcmp(old, sock_path) == 0)
		sj_info("socket %s was removed or replaced; re-created it", sock_path);
	else
		sj_info("socket %s was removed or replaced; re-created it as %s", old, sock_path);
	return nfd;
}

void listener_remove(void)
{
	struct stat st;

	if (sock_ino && lstat(sock_path, &st) == 0 && st.st_dev == sock_dev && st.st_ino == sock_ino)
		unlink(sock_path);
	if (private_dir && sock_ino)
		rmdir(sock_dir);   /* only when empty: nothing of anyone else's goes */
}
