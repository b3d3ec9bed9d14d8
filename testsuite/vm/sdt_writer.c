/* sdt_writer: a tiny program whose SDT markers and write(2) calls come in
 * a fixed order, so a SystemTap test can assert the exact interleaving of
 * user-space marker probes and kernel syscall probes.
 *
 * usage: sdt_writer [-o FILE] [COUNT]
 *
 * For i in 1..COUNT (default 3): marker stapjava_test:tick(i), then
 * write(1, "line i\n").  Then marker stapjava_test:done(COUNT).
 * -o FILE sends fd 1 to FILE first (staprun -c runs the command without a
 * shell, so a test cannot redirect; /dev/null keeps the program's own text
 * out of the script's output).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: sdt_writer [-o FILE] [COUNT]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long count = 3;
	int opt;

	while ((opt = getopt(argc, argv, "o:")) != -1) {
		if (opt != 'o')
			usage();
		int fd = open(optarg, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, "sdt_writer: cannot open %s: %s\n",
				optarg, strerror(errno));
			return 1;
		}
		if (fd != 1) {
			if (dup2(fd, 1) < 0) {
				fprintf(stderr, "sdt_writer: dup2: %s\n", strerror(errno));
				return 1;
			}
			close(fd);
		}
	}
	if (optind < argc) {
		char *end;
		errno = 0;
		count = strtol(argv[optind], &end, 10);
		if (errno || *end || end == argv[optind] || count < 0 || count > 1000000) {
			fprintf(stderr, "sdt_writer: bad COUNT: %s\n", argv[optind]);
			return 2;
		}
		if (optind + 1 < argc)
			usage();
	}

	for (long i = 1; i <= count; i++) {
		char line[64];
		int len = snprintf(line, sizeof line, "line %ld\n", i);

		STAP_PROBE1(stapjava_test, tick, i);
		if (write_all(1, line, (size_t)len) < 0) {
			fprintf(stderr, "sdt_writer: write: %s\n", strerror(errno));
			return 1;
		}
	}
	STAP_PROBE1(stapjava_test, done, count);
	return 0;
}
