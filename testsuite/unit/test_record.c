/* Unit tests for formats/record.c: struct record_out (buffering, the
 * --record-max cap, the first error kept, patching) and the lookups of the
 * table of formats. */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record.h"

static char got[4096];

static size_t file_text(int fd)
{
	ssize_t n = pread(fd, got, sizeof got - 1, 0);

	assert_true(n >= 0);
	got[n] = '\0';
	return (size_t)n;
}

/* A write that would pass the cap is not made, and what came before it is
 * written (it was once left in the buffer, and the file ended empty). */
static void test_cap_writes_what_came_before(void **state)
{
	(void)state;
	int fd = memfd_create("out", 0);
	struct record_out o = { .fd = fd, .max = 10 };

	assert_int_equal(record_out_write(&o, "abcd", 4), 0);
	assert_int_equal(record_out_write(&o, "efgh", 4), 0);
	assert_int_equal(file_text(fd), 0); /* buffered */
	assert_int_equal(record_out_write(&o, "ijk", 3), -EFBIG);
	assert_int_equal(o.error, -EFBIG);
	assert_int_equal(file_text(fd), 8);
	assert_string_equal(got, "abcdefgh");
	/* the error stays: nothing more is written */
	assert_int_equal(record_out_write(&o, "x", 1), -EFBIG);
	assert_int_equal(record_out_flush(&o), -EFBIG);
	assert_int_equal(file_text(fd), 8);
	record_out_release(&o);
	close(fd);
}

static void test_patch_buffered_and_written(void **state)
{
	(void)state;
	int fd = memfd_create("out", 0);
	struct record_out o = { .fd = fd };

	assert_int_equal(record_out_write(&o, "0000hello", 9), 0);
	assert_int_equal(record_out_patch(&o, 0, "12", 2), 0);       /* still buffered */
	assert_int_equal(record_out_flush(&o), 0);
	assert_int_equal(record_out_write(&o, "!", 1), 0);
	assert_int_equal(record_out_patch(&o, 2, "34", 2), 0);       /* written already */
	assert_int_equal(record_out_patch(&o, 9, "??", 2), -EINVAL); /* past what was written */
	record_out_release(&o);
	assert_int_equal(file_text(fd), 10);
	assert_string_equal(got, "1234hello!");
	close(fd);
}

/* A write error is kept, and said by every later call. */
static void test_first_error_kept(void **state)
{
	(void)state;
	int fd = open("/dev/full", O_WRONLY);
	struct record_out o = { .fd = fd };

	assert_true(fd >= 0);
	assert_int_equal(record_out_write(&o, "abc", 3), 0);
	assert_int_equal(record_out_flush(&o), -ENOSPC);
	assert_int_equal(record_out_write(&o, "d", 1), -ENOSPC);
	assert_int_equal(o.error, -ENOSPC);
	record_out_release(&o);
	close(fd);
}

static void test_format_lookups(void **state)
{
	(void)state;
	assert_ptr_equal(record_format_by_name("clog"), &record_format_clog);
	assert_null(record_format_by_name("clo"));
	assert_ptr_equal(record_format_for_path("/tmp/a.clog"), &record_format_clog);
	assert_null(record_format_for_path(".clog"));       /* a name, no extension */
	assert_null(record_format_for_path("/tmp/a.clog.txt"));
	assert_non_null(strstr(record_format_names(), "clog"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_writes_what_came_before),
		cmocka_unit_test(test_patch_buffered_and_written),
		cmocka_unit_test(test_first_error_kept),
		cmocka_unit_test(test_format_lookups),
	};
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
