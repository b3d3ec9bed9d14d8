/* fuzz_rec_jfr.c: libFuzzer target for the JFR reader (formats/rec_jfr_read.c
 * and rec_jfr_parse.c, rec_jfr_value.c): `stpd-bridge --read` parses any
 * file it is given, whoever wrote it.
 *
 * Input: the bytes of a .jfr file.
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - the reader returns 0, or -EINVAL with an offset within the input and a
 *    message, or -ENOMEM;
 *  - the events it hands back come in time order;
 *  - each is one the wire protocol can carry: the encoder takes it (no
 *    limit broken, no unknown type or flag), the decoder gives it back,
 *    and both print the same --print line, within PRINT_LINE_MAX;
 *  - and ASan/UBSan.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "rec_jfr_read.h"
#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (1u << 20)

static char line[PRINT_LINE_MAX], again[PRINT_LINE_MAX];
static uint8_t message[WIRE_MAX_MESSAGE];
static struct wire_event decoded;
static uint64_t last_ts;

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_rec_jfr: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static int check_event(void *ctx, const struct print_meta *meta, const struct wire_event *ev)
{
	struct wire_peer peer = { .swap = false, .hello = true, .caps = WIRE_CAP_ALL };
	struct wire_buf b = { message, sizeof message, 0 };
	struct wire_error werr;
	size_t used;
	ssize_t n, m;

	(void)ctx;
	if (meta->ts_ns < last_ts)
		die("events out of time order", NULL);
	last_ts = meta->ts_ns;
	n = print_event_line(line, sizeof line, meta, ev);
	if (n <= 0)
		die("an event with no --print line", NULL);
	if (wire_encode_event(&b, &peer, ev) != 0)
		die("an event the wire cannot carry", line);
	if (wire_decode_event(&peer, message, b.len, &decoded, &used, &werr) != 0 || used != b.len)
		die("an event the decoder refuses", werr.text);
	m = print_event_line(again, sizeof again, meta, &decoded);
	if (m != n || memcmp(line, again, (size_t)n) != 0)
		die("the decoded event prints another line", again);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record_error err;
	int rc;

	if (size > MAX_INPUT)
		return 0;
	memset(&err, 0, sizeof err);
	last_ts = 0;
	rc = jfr_read(data, size, check_event, NULL, &err);
	if (rc != 0 && rc != -EINVAL && rc != -ENOMEM)
		die("an unexpected return code", NULL);
	if (rc == -EINVAL && (err.offset > size || !err.text[0] || !memchr(err.text, '\0', sizeof err.text) ||
			      strchr(err.text, '\n')))
		die("a refusal without an offset in the file and a one-line message", err.text);
	return 0;
}
