/* test_procfs.c: what stpd-bridge/procfs.h computes from /proc's numbers. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procfs.h"

/* /proc/uptime is cut to 10 ms, the start time counted in ticks: a process
 * started in the last tick can come out younger than 0, and a negative age
 * once meant "unknown", so a JVM just started counted as settled and the
 * bridge gave it up at once (found by bench/run: 3 runs of 60). */
static void test_age_never_negative(void **state)
{
	(void)state;
	assert_int_equal(procfs_age_from(100.00, 10001, 100), 0);
	assert_int_equal(procfs_age_from(100.00, 10000, 100), 0);
	assert_int_equal(procfs_age_from(112.34, 10000, 100), 12340);
	assert_int_equal(procfs_age_from(1.5, 1000, 1000), 500);
}

static void test_age_of_self(void **state)
{
	(void)state;
	struct jvm_id id;
	assert_int_equal(procfs_read_jvm(getpid(), &id), 0);
	int64_t age = procfs_age_ms(&id);
	assert_true(age >= 0);
	assert_true(age < 600000);
}

static void *wait_for_go(void *arg)
{
	int *fds = arg;
	char c;

	return (void *)(intptr_t)read(fds[0], &c, 1);
}

/* A thread found by its name (the agent's I/O thread, by the bridge): its
 * age, or -1 while there is none of that name. */
static void test_thread_age(void **state)
{
	(void)state;
	pthread_t t;
	int fds[2];

	assert_int_equal(procfs_thread_age_ms(getpid(), "sj-age-test"), -1);
	assert_false(procfs_has_thread(getpid(), "sj-age-test"));
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(pthread_create(&t, NULL, wait_for_go, fds), 0);
	assert_int_equal(pthread_setname_np(t, "sj-age-test"), 0);
	int64_t age = procfs_thread_age_ms(getpid(), "sj-age-test");
	assert_true(age >= 0);
	assert_true(age < 600000);
	assert_true(procfs_has_thread(getpid(), "sj-age-test"));
	assert_int_equal(write(fds[1], "g", 1), 1);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(procfs_thread_age_ms(getpid(), "sj-age-test"), -1);
	close(fds[0]);
	close(fds[1]);
}

/* parse LINE: its inode and path when accepted */
static int parse(const char *line, uint64_t *inode, char *path, size_t cap)
{
	const char *p;
	size_t n;
	int rc = procfs_parse_unix_line(line, strlen(line), inode, &p, &n);

	if (rc == 1)
		snprintf(path, cap, "%.*s", (int)n, p);
	return rc;
}

/* Only a listening stream socket bound to an absolute path counts: the
 * agent's, never the header, an unbound, abstract, connected, datagram or
 * seqpacket socket. */
static void test_unix_lines(void **state)
{
	(void)state;
	uint64_t ino = 0;
	char path[256] = "";

	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 4092696 "
			       "/tmp/stapjava-0-p5ws5f/jvm-4026531836-4833-6002267.sock", &ino, path, sizeof path), 1);
	assert_int_equal(ino, 4092696);
	assert_string_equal(path, "/tmp/stapjava-0-p5ws5f/jvm-4026531836-4833-6002267.sock");
	/* a path holds any byte but NUL: spaces are part of it */
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 12 /tmp/a b c", &ino, path,
			       sizeof path), 1);
	assert_int_equal(ino, 12);
	assert_string_equal(path, "/tmp/a b c");
	assert_int_equal(parse("Num       RefCount Protocol Flags    Type St Inode Path", &ino, path, sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000003 00000000 00000000 0001 03  1593", &ino, path, sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 31337 @/tmp/.X11-unix/X0", &ino,
			       path, sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00000000 0001 01 31337 /run/x.sock", &ino, path,
			       sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0002 01 31337 /run/x.sock", &ino, path,
			       sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0005 01 31337 /run/x.sock", &ino, path,
			       sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 31337 rel.sock", &ino, path,
			       sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 /a", &ino, path, sizeof path), 0);
	assert_int_equal(parse("0000000009cac9ce: 00000002 00000000 00010000 0001 01 99999999999999999999 /a", &ino,
			       path, sizeof path), 0);
	assert_int_equal(parse("00000000000000000: 00000002 00000000 00010000 0001 01 1 /a", &ino, path,
			       sizeof path), 0);
}

/* The sockets a process holds are found by inode in /proc/PID/fd. */
static void test_holds_sockets(void **state)
{
	(void)state;
	int sv[2];
	struct stat st;
	uint64_t inodes[2];
	bool held[2] = { false, true };

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(fstat(sv[0], &st), 0);
	inodes[0] = st.st_ino;
	inodes[1] = st.st_ino + 1000000007u;   /* no socket of ours */
	assert_int_equal(procfs_holds_sockets(getpid(), inodes, 2, held), 0);
	assert_true(held[0]);
	assert_false(held[1]);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_age_never_negative),
		cmocka_unit_test(test_age_of_self),
		cmocka_unit_test(test_thread_age),
		cmocka_unit_test(test_unix_lines),
		cmocka_unit_test(test_holds_sockets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
