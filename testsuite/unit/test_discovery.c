/* test_discovery.c: how stpd-bridge/discovery.c picks an agent's socket out
 * of a JVM's /proc/PID/net/unix, here this process's, with lines written as
 * a local user could forge them (a bound path may hold a newline). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "discovery.h"

static char top[64], name[128];
static struct jvm_id self;
static int rootfd;

/* A listening socket at DIR/name (DIR made with MODE); its socket inode. */
static uint64_t listen_in(const char *dir, mode_t mode, int *fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;

	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, mode), 0);
	int n = snprintf(sa.sun_path, sizeof sa.sun_path, "%.60s/%.40s", dir, name);
	assert_true(n > 0 && (size_t)n == strlen(dir) + 1 + strlen(name));
	*fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(*fd >= 0);
	assert_int_equal(bind(*fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(listen(*fd, 1), 0);
	assert_int_equal(fstat(*fd, &st), 0);
	return st.st_ino;
}

/* A net/unix line as the kernel writes it, for INODE bound at DIR/name. */
static void line(FILE *f, uint64_t inode, const char *dir)
{
	fprintf(f, "0000000000000000: 00000002 00000000 00010000 0001 01 %" PRIu64 " %s/%s\n", inode, dir, name);
}

static int find(FILE *f, const char *tmpl, struct agent_socket *out, char *why, size_t cap)
{
	rewind(f);
	return discovery_find_socket_in(&self, rootfd, tmpl, f, out, why, cap);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof top, "/tmp/test_discovery.XXXXXX");
	assert_non_null(mkdtemp(top));
	assert_int_equal(procfs_read_jvm(getpid(), &self), 0);
	assert_int_equal(discovery_socket_name(&self, name, sizeof name), 0);
	rootfd = open("/", O_PATH | O_DIRECTORY);
	return rootfd < 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	close(rootfd);
	snprintf(cmd, sizeof cmd, "rm -rf %s", top);
	return system(cmd) != 0;
}

/* Forged lines give the JVM's own inode to a place someone else may write:
 * however many come first, they are passed over, and the real one is used;
 * with only them, the first is named. */
static void test_forged_lines_before_the_real_one(void **state)
{
	(void)state;
	char real[128], open_dir[128], none[128], why[1024];
	struct agent_socket s;
	int rfd, ofd;

	snprintf(real, sizeof real, "%s/real", top);
	snprintf(open_dir, sizeof open_dir, "%s/open", top);
	snprintf(none, sizeof none, "%s/none", top);
	uint64_t inode = listen_in(real, 0700, &rfd);
	listen_in(open_dir, 0777, &ofd);
	FILE *f = tmpfile();
	fprintf(f, "Num       RefCount Protocol Flags    Type St Inode Path\n");
	for (int i = 0; i < 20; i++)
		line(f, inode, open_dir);
	line(f, inode, real);
	assert_int_equal(find(f, none, &s, why, sizeof why), 0);
	assert_string_equal(s.dir, real);
	assert_string_equal(s.name, name);
	close(s.dirfd);
	fclose(f);

	f = tmpfile();
	line(f, inode, open_dir);
	assert_int_equal(find(f, none, &s, why, sizeof why), -EPERM);
	char want[1024];
	snprintf(want, sizeof want, "the socket directory %s is writable by group or others", open_dir);
	assert_string_equal(why, want);
	/* nor do they hide the socket at the --sockdir place (an older agent's) */
	assert_int_equal(find(f, real, &s, why, sizeof why), 0);
	assert_string_equal(s.dir, real);
	close(s.dirfd);
	fclose(f);
	close(rfd);
	close(ofd);
}

/* A socket of the right name in a place of the right owner, but not one
 * the JVM holds, is not taken; then the --sockdir place is looked at, and
 * the message says both. */
static void test_not_held(void **state)
{
	(void)state;
	char dir[128], none[128], why[1024], want[1024];
	struct agent_socket s;
	int fd;

	snprintf(dir, sizeof dir, "%s/notheld", top);
	snprintf(none, sizeof none, "%s/none", top);
	uint64_t inode = listen_in(dir, 0700, &fd);
	FILE *f = tmpfile();
	line(f, inode + 1000000007u, dir);
	assert_int_equal(find(f, none, &s, why, sizeof why), -ENOENT);
	snprintf(want, sizeof want, "no listening socket named %s among the JVM's own (/proc/%d/net/unix), nor in %s",
		 name, (int)getpid(), none);
	assert_string_equal(why, want);
	fclose(f);
	close(fd);
}

/* A symlink, or a file that is no socket, at the --sockdir place is named. */
static void test_symlink_and_file(void **state)
{
	(void)state;
	char dir[128], path[300], why[1024], want[1024];
	struct agent_socket s;

	snprintf(dir, sizeof dir, "%s/links", top);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(symlink("/dev/null", path), 0);
	FILE *f = tmpfile();
	assert_int_equal(find(f, dir, &s, why, sizeof why), -ELOOP);
	snprintf(want, sizeof want, "%s/%s is a symlink, not a socket", dir, name);
	assert_string_equal(why, want);
	assert_int_equal(unlink(path), 0);
	int fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(find(f, dir, &s, why, sizeof why), -ENOTSOCK);
	snprintf(want, sizeof want, "%s/%s is not a socket", dir, name);
	assert_string_equal(why, want);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forged_lines_before_the_real_one),
		cmocka_unit_test(test_not_held),
		cmocka_unit_test(test_symlink_and_file),
	};

	return cmocka_run_group_tests_name("discovery", tests, setup, teardown);
}
