/* sj_run.c: see sj_run.h. */
#define _GNU_SOURCE /* pipe2 */
#include "sj_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "sj_buf.h"
#include "sj_srcmap.h"

static int status_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

int sj_run_lines(char *const argv[], char ***lines)
{
	int fds[2], status, rc;
	struct sj_buf out = { 0 };
	pid_t pid;

	*lines = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		execvp(argv[0], argv);
		sj_error("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	rc = sj_buf_read_fd(&out, fds[0]);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc < 0) {
		sj_buf_free(&out);
		return rc;
	}
	size_t n = 0, cap = 1;
	for (size_t i = 0; i < out.len; i++)
		cap += out.data[i] == '\n';
	char **v = calloc(cap + 1, sizeof *v);
	char *save = NULL;
	for (char *line = out.data ? strtok_r(out.data, "\n", &save) : NULL; v && line;
	     line = strtok_r(NULL, "\n", &save))
		if (!(v[n++] = strdup(line)))
			break;
	if (!v || (n && !v[n - 1])) {
		sj_run_free_lines(v);
		sj_buf_free(&out);
		return -ENOMEM;
	}
	sj_buf_free(&out);
	*lines = v;
	return status_of(status);
}

void sj_run_free_lines(char **lines)
{
	for (size_t i = 0; lines && lines[i]; i++)
		free(lines[i]);
	free(lines);
}

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* One whole line (or the rest at the end) through MAP to stderr. */
static void write_line(struct sj_srcmap *map, const char *line, size_t n)
{
	struct sj_buf out = { 0 };

	if (sj_srcmap_line(map, line, n, &out) < 0)
		write_all(2, line, n);	/* as it came, rather than not at all */
	else
		write_all(2, out.data, out.len);
	sj_buf_free(&out);
}

void sj_run_filter(int fd, struct sj_srcmap *map)
{
	struct sj_buf pending = { 0 };
	char chunk[4096];

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (sj_buf_add(&pending, chunk, (size_t)n) < 0) {
			if (pending.len)
				write_line(map, pending.data, pending.len);
			pending.len = 0;
			write_all(2, chunk, (size_t)n);
			continue;
		}
		/* Whole lines only: a path or a location split across reads is still seen.
		 * Each line goes out as soon as it is complete. */
		size_t done = 0;
		for (char *nl; (nl = memchr(pending.data + done, '\n', pending.len - done));) {
			size_t end = (size_t)(nl - pending.data) + 1;
			write_line(map, pending.data + done, end - done);
			done = end;
		}
		memmove(pending.data, pending.data + done, pending.len - done);
		pending.len -= done;
	}
	if (pending.len)
		write_line(map, pending.data, pending.len);
	sj_buf_free(&pending);
}

int sj_run_stap(char *const argv[], struct sj_srcmap *map, int out_fd, int err_fd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = forward };
	struct sigaction old_int, old_quit, old_term, old_hup;
	sigset_t forwarded, old_mask;
	int fds[2], status = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	/* Held until child_pid is set: a SIGTERM between fork() and then would
	 * otherwise find no child to go to, and be lost. */
	sigemptyset(&forwarded);
	sigaddset(&forwarded, SIGTERM);
	sigaddset(&forwarded, SIGHUP);
	sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigaction(SIGTERM, &fwd, &old_term);
	sigaction(SIGHUP, &fwd, &old_hup);
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		if (out_fd >= 0)
			dup2(out_fd, 1);
		dup2(err_fd >= 0 ? err_fd : fds[1], 2);
		execvp(argv[0], argv);
		sj_error("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	int err = pid < 0 ? -errno : 0;
	close(fds[1]);
	if (pid > 0)
		child_pid = pid;
	sigprocmask(SIG_SETMASK, &old_mask, NULL);	/* one held meanwhile goes to stap now */
	if (pid > 0) {
		sj_run_filter(fds[0], map);	/* until stap and its children close it */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		child_pid = 0;
	}
	close(fds[0]);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	return err ? err : status_of(status);
}
