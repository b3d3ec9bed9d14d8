/* test_fdio.c: fd_write_all, fd_send_all, fd_close_all_but (runtime/fdio.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdio.h"

/* More than a pipe holds, drained by a child reading in small pieces, so the
 * writer sees short writes: every byte arrives, in order. */
static void test_writes_everything_through_short_writes(void **state)
{
	(void)state;
	enum { N = 1 << 20 };
	unsigned char *buf = malloc(N);
	int fds[2];

	assert_non_null(buf);
	for (size_t i = 0; i < N; i++)
		buf[i] = (unsigned char)(i * 7);
	assert_int_equal(pipe(fds), 0);
	pid_t kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		close(fds[1]);
		unsigned char piece[1000];
		size_t got = 0;
		ssize_t n;
		while ((n = read(fds[0], piece, sizeof piece)) > 0) {
			for (ssize_t k = 0; k < n; k++)
				if (piece[k] != (unsigned char)((got + (size_t)k) * 7))
					_exit(2);
			got += (size_t)n;
		}
		_exit(got == N ? 0 : 1);
	}
	close(fds[0]);
	assert_int_equal(fd_write_all(fds[1], buf, N), 0);
	close(fds[1]);
	int status;
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	free(buf);
}

static void test_full_nonblocking_pipe_is_eagain(void **state)
{
	(void)state;
	int fds[2];
	static char big[1 << 20];

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[1], F_SETFL, O_NONBLOCK), 0);
	assert_int_equal(fd_write_all(fds[1], big, sizeof big), -EAGAIN);
	close(fds[0]);
	close(fds[1]);
}

static void test_bad_fd_is_ebadf(void **state)
{
	(void)state;
	assert_int_equal(fd_write_all(-1, "x", 1), -EBADF);
	assert_int_equal(fd_write_all(-1, "", 0), 0);
}

/* A socket whose peer is gone: -EPIPE, and the process lives (no SIGPIPE,
 * although its disposition here is the default, which would kill it). */
static void test_send_to_closed_peer_is_epipe(void **state)
{
	(void)state;
	int sv[2];

	assert_int_equal(signal(SIGPIPE, SIG_DFL) == SIG_ERR, 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(fd_send_all(sv[0], "ab", 2), 0);
	char got[2];
	assert_int_equal(read(sv[1], got, 2), 2);
	assert_memory_equal(got, "ab", 2);
	close(sv[1]);
	assert_int_equal(fd_send_all(sv[0], "cd", 2), -EPIPE);
	close(sv[0]);
}

/* In a child: the kept descriptors stay open (in any order, with a negative
 * one and 0-2 among them), every other one from 3 up is closed. */
static void test_close_all_but_keeps_only_those(void **state)
{
	(void)state;
	int fds[6];

	for (int i = 0; i < 6; i++)
		assert_true((fds[i] = open("/dev/null", O_RDONLY)) >= 3);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int keep[] = { fds[4], -1, fds[1], 2 };
		fd_close_all_but(keep, 4);
		for (int i = 0; i < 6; i++) {
			bool open_now = fcntl(fds[i], F_GETFD) >= 0;
			if (open_now != (i == 1 || i == 4))
				_exit(10 + i);
		}
		_exit(fcntl(2, F_GETFD) >= 0 ? 0 : 9);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	for (int i = 0; i < 6; i++)
		close(fds[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes_everything_through_short_writes),
		cmocka_unit_test(test_full_nonblocking_pipe_is_eagain),
		cmocka_unit_test(test_bad_fd_is_ebadf),
		cmocka_unit_test(test_send_to_closed_peer_is_epipe),
		cmocka_unit_test(test_close_all_but_keeps_only_those),
	};
	return cmocka_run_group_tests_name("fdio", tests, NULL, NULL);
}
