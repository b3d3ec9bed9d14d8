/* log.c: see log.h. */
#include "log.h"
#include "utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = { "error", "warn", "info", "debug" };

/* Written once at start-up, read by every thread afterwards. */
static char log_ident[32] = "stapjava";
static int log_fd = -1;
static volatile int log_level = SJ_LOG_WARN;

/* A level outside the enum (a cast integer) must not index level_names. */
static int clamp_level(int level)
{
	return level < SJ_LOG_ERROR ? SJ_LOG_ERROR : level > SJ_LOG_DEBUG ? SJ_LOG_DEBUG : level;
}

void sj_log_open(const char *ident, int fd, enum sj_log_level level)
{
	snprintf(log_ident, sizeof log_ident, "%s", ident ? ident : "stapjava");
	log_fd = fd;
	log_level = clamp_level((int)level);
}

void sj_log_set_level(enum sj_log_level level)
{
	log_level = clamp_level((int)level);
}

enum sj_log_level sj_log_get_level(void)
{
	return (enum sj_log_level)log_level;
}

int sj_log_parse_level(const char *text)
{
	for (size_t i = 0; i < sizeof level_names / sizeof level_names[0]; i++)
		if (text && strcmp(text, level_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

/* MSG into OUT as text that stays one readable line: control bytes and
 * bytes that are not UTF-8 become \xHH, so a peer's pattern or name can
 * neither forge a log line nor make the log binary. Returns the length. */
static size_t escape_into(char *out, size_t cap, const char *msg, size_t n)
{
	const unsigned char *p = (const unsigned char *)msg;
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		size_t u = p[i] >= 0x80 ? utf8_sequence(p + i, n - i) : 0;
		if (u) {
			if (o + u > cap)
				break;
			memcpy(out + o, p + i, u);
			o += u;
			i += u;
		} else if (p[i] < 0x20 || p[i] >= 0x7f) {
			if (o + 4 > cap)
				break;
			static const char hex[] = "0123456789abcdef";
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[p[i] >> 4];
			out[o++] = hex[p[i] & 15];
			i++;
		} else {
			if (o + 1 > cap)
				break;
			out[o++] = (char)p[i++];
		}
	}
	return o;
}

void sj_log(enum sj_log_level level, const char *fmt, ...)
{
	if ((int)level > log_level)
		return;
	level = (enum sj_log_level)clamp_level((int)level);
	int saved_errno = errno;
	char line[1024], msg[1024];
	int head = snprintf(line, sizeof line, "%s[%ld]: %s: ", log_ident, (long)getpid(),
			    level_names[level]);
	va_list ap;
	va_start(ap, fmt);
	int body = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t mlen = body < 0 ? 0 : (size_t)body < sizeof msg ? (size_t)body : sizeof msg - 1;
	/* truncated: still one whole line */
	size_t len = (size_t)head + escape_into(line + head, sizeof line - (size_t)head - 2, msg, mlen);
	line[len++] = '\n';
	ssize_t ignored = write(log_fd >= 0 ? log_fd : STDERR_FILENO, line, len);
	(void)ignored;
	errno = saved_errno;
}

static unsigned long long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ull + (unsigned long long)ts.tv_nsec / 1000000ull;
}

void sj_log_repeat(struct sj_log_repeat *r, enum sj_log_level level, int err, const char *fmt, ...)
{
	int saved_errno = errno;
	va_list ap;

	if (r->err == err) {
		r->failures++;
		/* at debug level each one, so a test (or a user) can see it go on */
		sj_debug("%s: %s (again: %lu so far)", r->what, strerror(err), r->failures);
		errno = saved_errno;
		return;
	}
	sj_log_repeat_end(r);
	va_start(ap, fmt);
	vsnprintf(r->what, sizeof r->what, fmt, ap);
	va_end(ap);
	r->err = err;
	r->level = level;
	r->failures = 1;
	r->since_ms = monotonic_ms();
	sj_log(level, "%s: %s (said once while it lasts)", r->what, strerror(err));
	errno = saved_errno;
}

void sj_log_repeat_end(struct sj_log_repeat *r)
{
	if (!r->err)
		return;
	sj_log((enum sj_log_level)r->level, "%s: %s: %lu time%s in %llu ms, now over", r->what,
	       strerror(r->err), r->failures, r->failures == 1 ? "" : "s", monotonic_ms() - r->since_ms);
	r->err = 0;
}
