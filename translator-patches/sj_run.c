/* sj_run.c: see sj_run.h. */
#define _GNU_SOURCE /* memmem, memrchr, pipe2 */
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

/* Write LINE[0..N) to stderr with every FROM replaced by TO. */
static void write_filtered(const char *line, size_t n, const char *from, const char *to)
{
	size_t flen = strlen(from);
	while (n > 0) {
		const char *hit = flen ? memmem(line, n, from, flen) : NULL;
		size_t keep = hit ? (size_t)(hit - line) : n;
		write_all(2, line, keep);
		if (!hit)
			return;
		write_all(2, to, strlen(to));
		line += keep + flen;
		n -= keep + flen;
	}
}

static void filter_stderr(int fd, const char *from, const char *to)
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
			write_all(2, chunk, (size_t)n);
			continue;
		}
		/* Whole lines only, so a path split across reads is still replaced. */
		char *nl = memrchr(pending.data, '\n', pending.len);
		if (!nl)
			continue;
		size_t done = (size_t)(nl - pending.data) + 1;
		write_filtered(pending.data, done, from, to);
		memmove(pending.data, pending.data + done, pending.len - done);
		pending.len -= done;
	}
	write_filtered(sj_buf_str(&pending), pending.len, from, to);
	sj_buf_free(&pending);
}

int sj_run_stap(char *const argv[], const char *from, const char *to)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = forward };
	struct sigaction old_int, old_quit, old_term, old_hup;
	int fds[2], status = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
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
		dup2(fds[1], 2);
		execvp(argv[0], argv);
		sj_error("cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	int err = pid < 0 ? -errno : 0;
	close(fds[1]);
	if (pid > 0) {
		child_pid = pid;
		filter_stderr(fds[0], from, to);
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
