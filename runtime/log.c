/* log.c: see log.h. */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

void sj_log(enum sj_log_level level, const char *fmt, ...)
{
	if ((int)level > log_level)
		return;
	level = (enum sj_log_level)clamp_level((int)level);
	int saved_errno = errno;
	char line[1024];
	int head = snprintf(line, sizeof line, "%s[%ld]: %s: ", log_ident, (long)getpid(),
			    level_names[level]);
	va_list ap;
	va_start(ap, fmt);
	int body = vsnprintf(line + head, sizeof line - (size_t)head - 1, fmt, ap);
	va_end(ap);
	size_t len = (size_t)head + (body < 0 ? 0 : (size_t)body);
	if (len > sizeof line - 2)
		len = sizeof line - 2; /* truncated: still one whole line */
	line[len++] = '\n';
	ssize_t ignored = write(log_fd >= 0 ? log_fd : STDERR_FILENO, line, len);
	(void)ignored;
	errno = saved_errno;
}
