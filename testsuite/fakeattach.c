/* fakeattach.c: see fakeattach.h. */
#define _GNU_SOURCE
#include "fakeattach.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t quits;

static void on_quit(int sig)
{
	(void)sig;
	quits++;
}

int fakeattach_catch_quits(void)
{
	struct sigaction sa = { .sa_handler = on_quit };

	sigemptyset(&sa.sa_mask);
	return sigaction(SIGQUIT, &sa, NULL) < 0 ? -errno : 0;
}

/* The next SIGQUIT: the count of them so far. */
static unsigned next_quit(unsigned seen)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);
	while ((unsigned)quits == seen)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return (unsigned)quits;
}

/* The request's NUL-terminated fields into BUF: how many bytes, once its
 * fifth field (the options) ended, or -errno. */
static ssize_t read_request(int fd, char *buf, size_t cap)
{
	size_t len = 0, nuls = 0;

	while (nuls < 5) {
		if (len == cap)
			return -E2BIG;
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPROTO;
		for (size_t i = len; i < len + (size_t)r; i++)
			nuls += buf[i] == '\0';
		len += (size_t)r;
	}
	return (ssize_t)len;
}

int fakeattach_wait_load(unsigned ignore, char *options, size_t cap, fakeattach_note_fn note)
{
	char line[600], trigger[64], req[8192];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	unsigned n = 0;

	snprintf(trigger, sizeof trigger, "/tmp/.attach_pid%d", (int)getpid());
	snprintf(sa.sun_path, sizeof sa.sun_path, "/tmp/.java_pid%d", (int)getpid());
	for (;;) {
		n = next_quit(n);
		if (n <= ignore) {
			snprintf(line, sizeof line, "sigquit %u: ignored", n);
			note(line);
			continue;
		}
		if (access(trigger, F_OK) == 0)
			break;
		snprintf(line, sizeof line, "sigquit %u: no trigger file", n);
		note(line);
	}
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	unlink(sa.sun_path);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 1) < 0)
		return -errno;
	snprintf(line, sizeof line, "sigquit %u: listening", n);
	note(line);
	int fd = accept(lfd, NULL, NULL);
	close(lfd);
	unlink(sa.sun_path);
	if (fd < 0)
		return -errno;
	ssize_t len = read_request(fd, req, sizeof req - 1);
	if (len < 0) {
		close(fd);
		return (int)len;
	}
	/* "1" load PATH true OPTIONS */
	const char *f[5];
	size_t at = 0;
	for (int i = 0; i < 5; i++) {
		f[i] = req + at;
		at += strlen(req + at) + 1;
	}
	snprintf(line, sizeof line, "request: %.16s %.16s %.250s %.16s %.250s", f[0], f[1], f[2], f[3], f[4]);
	note(line);
	snprintf(options, cap, "%s", f[4]);
	static const char answer[] = "0\nreturn code: 0\n";
	ssize_t w = write(fd, answer, sizeof answer - 1);
	close(fd);
	return w == (ssize_t)sizeof answer - 1 ? 0 : -EIO;
}
