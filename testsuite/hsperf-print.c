/* hsperf-print: a HotSpot performance-data file's constants, as
 * `jcmd PID PerfCounter.print` prints them (name=value, strings quoted), one
 * per line in the file's order, so that agent.bats can check
 * stpd-bridge/hsperf.c's reading against the JDK's own.
 *
 * usage: hsperf-print FILE */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsperf.h"

static int print_constant(void *ctx, const struct hsperf_entry *e)
{
	(void)ctx;
	if (e->variability != 1)
		return 0;
	if (e->type == 'J' && !e->vector_length) {
		printf("%s=%" PRId64 "\n", e->name, hsperf_long(e));
	} else if (e->type == 'B' && e->vector_length) {
		const uint8_t *nul = memchr(e->data, '\0', e->data_len);
		int n = (int)(nul ? (size_t)(nul - e->data) : e->data_len);
		printf("%s=\"%.*s\"\n", e->name, n, (const char *)e->data);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t buf[HSPERF_MAX_SIZE];
	const char *why = NULL;

	if (argc != 2) {
		fprintf(stderr, "usage: hsperf-print FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "hsperf-print: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	int rc = hsperf_each(buf, len, print_constant, NULL, &why);
	if (rc < 0) {
		fprintf(stderr, "hsperf-print: %s: %s\n", argv[1], why);
		return 1;
	}
	return 0;
}
