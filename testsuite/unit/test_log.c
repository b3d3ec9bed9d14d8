/* test_log.c: the one logging helper (runtime/log.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

/* Log through a pipe and return what one call wrote. */
static void capture(char *out, size_t outlen, void (*emit)(void))
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	sj_log_open("t", fds[1], SJ_LOG_INFO);
	emit();
	close(fds[1]);
	ssize_t n = read(fds[0], out, outlen - 1);
	out[n < 0 ? 0 : n] = '\0';
	close(fds[0]);
}

static void emit_warn(void) { sj_warn("value %d", 42); }
static void emit_debug(void) { sj_debug("hidden"); }
static void emit_long(void)
{
	char big[3000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	sj_error("%s", big);
}

/* a newline would forge a second line; 0xff, a lone continuation byte, a
 * surrogate and an overlong are not UTF-8; é and U+1F600 are kept */
static void emit_hostile(void) { sj_warn("pattern \"a\nt[1]: error: forged\x7f\xff\x80\xed\xa0\x80\xc0\xaf \xc3\xa9 \xf0\x9f\x98\x80\""); }

static void test_hostile_bytes_escaped(void **state)
{
	(void)state;
	char out[2048], want[256];
	capture(out, sizeof out, emit_hostile);
	snprintf(want, sizeof want, "t[%ld]: warn: pattern \"a\\x0at[1]: error: forged\\x7f\\xff\\x80"
		 "\\xed\\xa0\\x80\\xc0\\xaf \xc3\xa9 \xf0\x9f\x98\x80\"\n", (long)getpid());
	assert_string_equal(out, want);
}

static void test_line_format(void **state)
{
	(void)state;
	char out[2048], want[64];
	capture(out, sizeof out, emit_warn);
	snprintf(want, sizeof want, "t[%ld]: warn: value 42\n", (long)getpid());
	assert_string_equal(out, want);
}

static void test_level_filters(void **state)
{
	(void)state;
	char out[64];
	capture(out, sizeof out, emit_debug);
	assert_string_equal(out, "");
}

static void test_long_message_is_one_line(void **state)
{
	(void)state;
	char out[4096];
	capture(out, sizeof out, emit_long);
	assert_int_equal(strlen(out), 1023);
	assert_int_equal(out[1022], '\n');
	assert_null(memchr(out, '\n', 1022));
}

/* Levels outside the enum are clamped: no read past the level names. */
static void test_out_of_range_levels(void **state)
{
	(void)state;
	sj_log_set_level((enum sj_log_level)9);
	assert_int_equal(sj_log_get_level(), SJ_LOG_DEBUG);
	sj_log_set_level((enum sj_log_level)-3);
	assert_int_equal(sj_log_get_level(), SJ_LOG_ERROR);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	sj_log_open("t", fds[1], (enum sj_log_level)7);
	sj_log((enum sj_log_level)5, "five");	/* more verbose than debug: dropped */
	sj_log((enum sj_log_level)-2, "minus");	/* below error: shown as error */
	close(fds[1]);
	char out[128], want[64];
	ssize_t n = read(fds[0], out, sizeof out - 1);
	out[n < 0 ? 0 : n] = '\0';
	close(fds[0]);
	snprintf(want, sizeof want, "t[%ld]: error: minus\n", (long)getpid());
	assert_string_equal(out, want);
}

/* A run's length in ms varies: " in 12 ms" reads " in N ms". */
static void mask_run_ms(char *out)
{
	char *ms;

	for (char *p = out; (ms = strstr(p, " in ")) != NULL; p = ms + 4) {
		char *d = ms + 4, *e = d;
		while (*e >= '0' && *e <= '9')
			e++;
		if (e > d && strncmp(e, " ms", 3) == 0) {
			*d = 'N';
			memmove(d + 1, e, strlen(e) + 1);
		}
	}
}

/* A failure repeated 140 times is one line, and one more when the run ends
 * (another cause, or it works again), with the count. */
static void emit_repeats(void)
{
	struct sj_log_repeat r = { 0 };

	for (int i = 0; i < 140; i++)
		sj_log_repeat(&r, SJ_LOG_ERROR, EMFILE, "pid %d: pipe", 42);
	sj_log_repeat(&r, SJ_LOG_ERROR, ENFILE, "pid %d: pipe", 42);
	sj_log_repeat_end(&r);
	sj_log_repeat_end(&r);   /* no run: nothing */
}

static void test_repeats_said_once_then_counted(void **state)
{
	(void)state;
	char out[2048], want[1024];
	capture(out, sizeof out, emit_repeats);
	mask_run_ms(out);
	long pid = (long)getpid();
	snprintf(want, sizeof want,
		 "t[%ld]: error: pid 42: pipe: Too many open files (said once while it lasts)\n"
		 "t[%ld]: error: pid 42: pipe: Too many open files: 140 times in N ms, now over\n"
		 "t[%ld]: error: pid 42: pipe: Too many open files in system (said once while it lasts)\n"
		 "t[%ld]: error: pid 42: pipe: Too many open files in system: 1 time in N ms, now over\n",
		 pid, pid, pid, pid);
	assert_string_equal(out, want);
}

/* At debug level each repeat is said too, with the count so far: what a
 * test waits for instead of guessing how many came in a second. */
static void emit_repeats_debug(void)
{
	struct sj_log_repeat r = { 0 };

	sj_log_set_level(SJ_LOG_DEBUG);
	for (int i = 0; i < 3; i++)
		sj_log_repeat(&r, SJ_LOG_WARN, EAGAIN, "fork");
	sj_log_set_level(SJ_LOG_INFO);
	sj_log_repeat_end(&r);
}

static void test_repeats_said_at_debug_level(void **state)
{
	(void)state;
	char out[2048], want[1024];
	capture(out, sizeof out, emit_repeats_debug);
	mask_run_ms(out);
	long pid = (long)getpid();
	snprintf(want, sizeof want,
		 "t[%ld]: warn: fork: Resource temporarily unavailable (said once while it lasts)\n"
		 "t[%ld]: debug: fork: Resource temporarily unavailable (again: 2 so far)\n"
		 "t[%ld]: debug: fork: Resource temporarily unavailable (again: 3 so far)\n"
		 "t[%ld]: warn: fork: Resource temporarily unavailable: 3 times in N ms, now over\n",
		 pid, pid, pid, pid);
	assert_string_equal(out, want);
}

static void test_parse_level(void **state)
{
	(void)state;
	assert_int_equal(sj_log_parse_level("error"), SJ_LOG_ERROR);
	assert_int_equal(sj_log_parse_level("warn"), SJ_LOG_WARN);
	assert_int_equal(sj_log_parse_level("info"), SJ_LOG_INFO);
	assert_int_equal(sj_log_parse_level("debug"), SJ_LOG_DEBUG);
	assert_int_equal(sj_log_parse_level("verbose"), -EINVAL);
	assert_int_equal(sj_log_parse_level(NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_format),
		cmocka_unit_test(test_hostile_bytes_escaped),
		cmocka_unit_test(test_level_filters),
		cmocka_unit_test(test_long_message_is_one_line),
		cmocka_unit_test(test_out_of_range_levels),
		cmocka_unit_test(test_parse_level),
		cmocka_unit_test(test_repeats_said_once_then_counted),
		cmocka_unit_test(test_repeats_said_at_debug_level),
	};
	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
