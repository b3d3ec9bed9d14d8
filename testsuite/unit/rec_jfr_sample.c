/* rec_jfr_sample.c: writes the synthetic stream (jfr_stream.c) as a JFR
 * file, and reads one back, for testsuite/record_jfr.bats:
 *
 *   rec_jfr_sample write FILE [--until N]   steps [0, N) only, then as if the
 *                                           bridge were killed (no end)
 *   rec_jfr_sample read FILE                the --print line of each event the
 *                                           reader gives back; on bad input the
 *                                           error on stderr ("offset N: ...") and
 *                                           status 1 after the lines before it
 *   rec_jfr_sample expected                 the lines `read` gives for the whole stream
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfr_stream.h"
#include "record.h"

static char line[PRINT_LINE_MAX];

static int print(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	ssize_t n = print_event_line(line, sizeof line, meta, ev);

	(void)ctx;
	if (n < 0)
		return (int)n;
	fwrite(line, 1, (size_t)n, stdout);
	return 0;
}

static int write_file(const char *path, size_t until)
{
	struct record_out out = { .fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) };
	int rc;

	if (out.fd < 0) {
		perror(path);
		return 1;
	}
	rc = jfr_stream_write(&record_format_jfr, &out, until, until == SIZE_MAX);
	record_out_release(&out);
	if (close(out.fd) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		fprintf(stderr, "rec_jfr_sample: writing %s: %s\n", path, strerror(-rc));
	return rc < 0;
}

static int read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct record_error err = { 0 };
	uint8_t *data;
	struct stat st;
	int rc;

	if (!f || fstat(fileno(f), &st) != 0) {
		perror(path);
		return 1;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data || fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		perror(path);
		return 1;
	}
	fclose(f);
	rc = record_format_jfr.read(data, (size_t)st.st_size, print, NULL, &err);
	free(data);
	fflush(stdout);
	if (rc == -EINVAL)
		fprintf(stderr, "offset %llu: %s\n", (unsigned long long)err.offset, err.text);
	else if (rc < 0)
		fprintf(stderr, "rec_jfr_sample: %s\n", strerror(-rc));
	return rc < 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "write") == 0) {
		size_t until = argc == 5 && strcmp(argv[3], "--until") == 0 ? strtoul(argv[4], NULL, 10) : SIZE_MAX;

		return write_file(argv[2], until);
	}
	if (argc == 3 && strcmp(argv[1], "read") == 0)
		return read_file(argv[2]);
	if (argc == 2 && strcmp(argv[1], "expected") == 0) {
		for (size_t i = 0; i < jfr_stream_expected_count; i++)
			puts(jfr_stream_expected[i]);
		return 0;
	}
	fprintf(stderr, "usage: rec_jfr_sample write FILE [--until N] | read FILE | expected\n");
	return 2;
}
