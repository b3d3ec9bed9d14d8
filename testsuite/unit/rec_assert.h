/* rec_assert.h: the cmocka checks the recording formats' unit tests share
 * (test_rec_trc.c, test_rec_trcbin.c), over rec_samples.h.
 *
 * Contract: rec_assert_recorded() fails the test unless the script
 * (rec_script_*) recorded with F is exactly X's bytes; rec_assert_refused()
 * unless F's reader refuses DATA with -EINVAL, the byte OFFSET and TEXT;
 * rec_assert_round_trip() unless the sample stream recorded with F reads
 * back as LINES.
 * Include after cmocka.h.
 */
#ifndef STAPJAVA_REC_ASSERT_H
#define STAPJAVA_REC_ASSERT_H

#include <errno.h>
#include <stdlib.h>

#include "rec_samples.h"

static inline void rec_assert_recorded(const struct record_format *f, const struct rec_expect *x)
{
	size_t len;
	long d = rec_script_diff(f, x, &len);

	if (d >= 0)
		fail_msg("the file differs at offset %ld (%zu bytes written, %zu expected)", d, len, x->n);
}

static inline void rec_assert_refused(const struct record_format *f, const uint8_t *data, size_t len,
				      size_t offset, const char *text)
{
	struct record_error err;
	char *lines;

	assert_int_equal(rec_sample_read(f, data, len, &lines, &err), -EINVAL);
	assert_string_equal(err.text, text);
	assert_int_equal(err.offset, offset);
	free(lines);
}

/* The sample stream recorded with F and read back gives exactly LINES. */
static inline void rec_assert_round_trip(const struct record_format *f, const char *lines)
{
	struct record_error err;
	uint8_t *data;
	size_t len;
	char *got;

	assert_int_equal(rec_sample_record(f, REC_SAMPLE_EVENTS, &data, &len), 0);
	assert_int_equal(rec_sample_read(f, data, len, &got, &err), 0);
	assert_string_equal(got, lines);
	free(got);
	free(data);
}

#endif
