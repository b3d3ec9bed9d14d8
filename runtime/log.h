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

#define sj_error(...) sj_log(SJ_LOG_ERROR, __VA_ARGS__)
#define sj_warn(...)  sj_log(SJ_LOG_WARN, __VA_ARGS__)
#define sj_info(...)  sj_log(SJ_LOG_INFO, __VA_ARGS__)
#define sj_debug(...) sj_log(SJ_LOG_DEBUG, __VA_ARGS__)

#endif
