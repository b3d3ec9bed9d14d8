/* fuzz_rec_read.c: libFuzzer target for the readers of the seed trace
 * formats (formats/rec_trc_read.c, rec_trcbin_read.c), which parse
 * files a user hands to `stpd-bridge --read`. Built once per format:
 * REC_FORMAT is the format's descriptor (testsuite/fuzz/local.mk).
 *
 * Input: a file, any bytes. Oracles:
 *  1. The reader returns 0 or -EINVAL; with -EINVAL the error's offset
 *     lies inside the input and its text is a sentence.
 *  2. Every event handed back prints as one --print line.
 *  3. The events read, recorded again with the format's own writer, make a
 *     file the reader accepts whole; and recording that file's events once
 *     more gives the same lines: what the format keeps is a fixed point
 *     after one pass (the first may normalise what a foreign file says,
 *     such as two threads that share a tid).
 * Any failure aborts; and ASan/UBSan.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "print.h"
#include "record.h"

#ifndef REC_FORMAT
#error "REC_FORMAT: the format's descriptor, record_format_trc or record_format_trcbin"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 65536

static void die(const char *what)
{
	fprintf(stderr, "fuzz_rec_read (%s): %s\n", REC_FORMAT.name, what);
	abort();
}

/* One pass: read, print each event, record it again. */
struct pass {
	void *state;
	struct record_out out;
	char *lines;
	size_t len, cap;
};

static char *line;

static int each_event(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	struct pass *p = ctx;
	ssize_t n = print_event_line(line, PRINT_LINE_MAX, meta, ev);

	if (n <= 0)
		die("an event read does not print as a line");
	if (p->len + (size_t)n > p->cap) {
		p->cap = 2 * (p->len + (size_t)n);
		if (!(p->lines = realloc(p->lines, p->cap)))
			die("out of memory");
	}
	memcpy(p->lines + p->len, line, (size_t)n);
	p->len += (size_t)n;
	if (REC_FORMAT.event(p->state, &p->out, meta, ev) < 0)
		die("the writer failed on an event read");
	return 0;
}

/* Read DATA through P; the file P recorded into *OUT (malloc'd). Returns the reader's result. */
static int run_pass(struct pass *p, const uint8_t *data, size_t size, uint8_t **out, size_t *out_len)
{
	static const struct record_info info = { 1000000000ull, 1700000000000000000ull };
	struct record_error err;
	struct stat st;
	int rc;

	memset(p, 0, sizeof *p);
	if ((p->out.fd = memfd_create("fuzz-rec", MFD_CLOEXEC)) < 0 || !(p->state = calloc(1, REC_FORMAT.state_size)))
		die("no memfd or memory");
	if (REC_FORMAT.begin(p->state, &p->out, &info) < 0)
		die("the writer failed to begin");
	memset(&err, 0xAA, sizeof err);
	rc = REC_FORMAT.read(data, size, each_event, p, &err);
	if (rc != 0 && rc != -EINVAL)
		die("the reader returned neither 0 nor -EINVAL");
	if (rc == -EINVAL && (err.offset > size || !memchr(err.text, 0, sizeof err.text) || strlen(err.text) < 10))
		die("a refusal without an offset in the input or a sentence");
	if (REC_FORMAT.end(p->state, &p->out) < 0 || record_out_flush(&p->out) < 0)
		die("the writer failed to end");
	record_out_release(&p->out);
	free(p->state);
	if (fstat(p->out.fd, &st) < 0 || !(*out = malloc((size_t)st.st_size + 1)) ||
	    pread(p->out.fd, *out, (size_t)st.st_size, 0) != st.st_size)
		die("cannot read the recorded file back");
	*out_len = (size_t)st.st_size;
	close(p->out.fd);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pass first, second, third;
	uint8_t *f2, *f3, *f4;
	size_t n2, n3, n4;

	if (size > MAX_IN)
		return 0;
	if (!line && !(line = malloc(PRINT_LINE_MAX)))
		die("out of memory");
	run_pass(&first, data, size, &f2, &n2);
	if (run_pass(&second, f2, n2, &f3, &n3) != 0)
		die("the reader refused a file the writer made");
	if (run_pass(&third, f3, n3, &f4, &n4) != 0)
		die("the reader refused a file the writer made of the writer's file");
	if (second.len != third.len || (second.len && memcmp(second.lines, third.lines, second.len) != 0))
		die("recording what was read again changed it a second time");
	free(first.lines);
	free(second.lines);
	free(third.lines);
	free(f2);
	free(f3);
	free(f4);
	return 0;
}
