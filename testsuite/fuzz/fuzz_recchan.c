/* fuzz_recchan.c: libFuzzer target for the record channel's decoder
 * (stpd-bridge/recchan.c): the recorder reads there what the workers,
 * which parse the JVMs' bytes, send it.
 *
 * Input: one message of the channel (records one after the other).
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - each record decodes with 0 < used <= what is left, or fails with
 *    -EBADMSG and a one-line message;
 *  - a decoded event put again (recchan_put_event) decodes to the same
 *    --print line and the same thread name;
 *  - and ASan/UBSan.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "recchan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wire_event ev, again;
static uint8_t copy[RECCHAN_MAX_RECORD];
static char line1[PRINT_LINE_MAX], line2[PRINT_LINE_MAX];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_recchan: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static void check_round_trip(const struct recchan_record *r)
{
	struct recchan_record r2;
	size_t len = 0, used;
	char why[256];

	if (recchan_put_event(copy, sizeof copy, &len, &r->meta, &ev) < 0)
		die("a decoded event cannot be put again", NULL);
	if (recchan_decode(copy, len, &r2, &again, &used, why, sizeof why) < 0 || used != len)
		die("an event put again does not decode", why);
	ssize_t n1 = print_event_line(line1, sizeof line1, &r->meta, &ev);
	ssize_t n2 = print_event_line(line2, sizeof line2, &r2.meta, &again);
	if (n1 < 0 || n1 != n2 || memcmp(line1, line2, (size_t)n1) != 0)
		die("an event put again prints otherwise", NULL);
	if (r->meta.thread_name_len != r2.meta.thread_name_len ||
	    (r->meta.thread_name_len && memcmp(r->meta.thread_name, r2.meta.thread_name, r->meta.thread_name_len)))
		die("the thread name changed", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	while (size) {
		struct recchan_record r;
		size_t used = 0;
		char why[256] = "";
		int rc = recchan_decode(data, size, &r, &ev, &used, why, sizeof why);

		if (rc == -EBADMSG) {
			if (!why[0] || strchr(why, '\n'))
				die("a fault without a one-line message", why);
			return 0;
		}
		if (rc != 0 || used == 0 || used > size)
			die("a record's size is wrong", NULL);
		if (r.kind == RECCHAN_EVENT)
			check_round_trip(&r);
		data += used;
		size -= used;
	}
	return 0;
}
