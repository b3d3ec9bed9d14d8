/* log.h: the one logging helper of the agent and the bridge.
 *
 * Contract: sj_log() writes one line "<ident>[<pid>]: <level>: <message>\n"
 * with a single write(2) (lines from threads never interleave) to the sink
 * chosen by sj_log_open(), stderr by default. Control bytes and bytes that
 * are not well-formed UTF-8 in the message are written as \xHH, so text from
 * a peer (a pattern, a name) can neither forge a line nor make the log
 * binary. Messages above the configured level are dropped before formatting. Safe to call from any thread; never
 * allocates, never exits, keeps errno.
 */
#ifndef STAPJAVA_LOG_H
#define STAPJAVA_LOG_H

enum sj_log_level { SJ_LOG_ERROR = 0, SJ_LOG_WARN = 1, SJ_LOG_INFO = 2, SJ_LOG_DEBUG = 3 };

/* ident is copied (truncated to 31 bytes); fd < 0 means stderr. */
void sj_log_open(const char *ident, int fd, enum sj_log_level level);
void sj_log_set_level(enum sj_log_level level);
enum sj_log_level sj_log_get_level(void);
/* "error", "warn", "info", "debug" -> level; -EINVAL for anything else. */
int sj_log_parse_level(const char *text);
void sj_log(enum sj_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failure that can come back many times a second (no descriptor left for
 * accept or pipe) is said once per peer and cause while it lasts, and
 * counted: one struct per peer and cause, zeroed to start, used by one
 * thread. sj_log_repeat(): a failure with errno ERR of what FMT names; the
 * first of a run is logged at LEVEL ("WHAT: strerror (said once while it
 * lasts)"), the same ERR again is only counted (and said at debug level:
 * "WHAT: strerror (again: N so far)"), another ERR ends the run
 * and begins its own. sj_log_repeat_end(): it works again. A run ends with
 * one line at its level ("WHAT: strerror: N times in M ms, now over"). */
struct sj_log_repeat {
	int err;                  /* the run's errno; 0: no run */
	int level;
	unsigned long failures;
	unsigned long long since_ms;
	char what[128];
};
void sj_log_repeat(struct sj_log_repeat *r, enum sj_log_level level, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void sj_log_repeat_end(struct sj_log_repeat *r);

#define sj_error(...) sj_log(SJ_LOG_ERROR, __VA_ARGS__)
#define sj_warn(...)  sj_log(SJ_LOG_WARN, __VA_ARGS__)
#define sj_info(...)  sj_log(SJ_LOG_INFO, __VA_ARGS__)
#define sj_debug(...) sj_log(SJ_LOG_DEBUG, __VA_ARGS__)

#endif
