/* jfrspec.h: what a session asks of JFR, in the one syntax the bridge's
 * --jfr, the wire's JfrSettings lines and the agent all read (PROTOCOL.md,
 * JfrSettings; stpd-bridge(8), --jfr).
 *
 * Contract: an entry is "PATTERN[#NAME=VALUE[;NAME=VALUE]...]": PATTERN an
 * event type name ("jdk.GarbageCollection") where '*' matches any run of
 * characters (jdk.Socket*), NAME a JFR setting (threshold, stackTrace,
 * period ...), VALUE what JFR takes for it ("1 ms", "true"). jfrspec_parse()
 * checks one entry against the bounds below and points into it (nothing is
 * copied); a fault gets ERR naming it and where. Pure; no allocation.
 */
#ifndef STAPJAVA_JFRSPEC_H
#define STAPJAVA_JFRSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JFRSPEC_MAX_PATTERN  256u
#define JFRSPEC_MAX_SETTINGS 8u
#define JFRSPEC_MAX_NAME     32u
#define JFRSPEC_MAX_VALUE    64u
#define JFRSPEC_MAX_ENTRIES  256u   /* entries of one session (lines of one JfrSettings) */

struct jfrspec_text {
	const char *p;
	size_t n;
};

struct jfrspec_entry {
	struct jfrspec_text pattern;
	struct jfrspec_text name[JFRSPEC_MAX_SETTINGS];
	struct jfrspec_text value[JFRSPEC_MAX_SETTINGS];
	size_t nsettings;
};

/* 0, or -EINVAL with ERR ("... at byte N of 'ENTRY'"). */
int jfrspec_parse(const char *s, size_t len, struct jfrspec_entry *e, char *err, size_t errlen);
/* Does PATTERN select the event type NAME (NUL-terminated)? */
bool jfrspec_match(const struct jfrspec_text *pattern, const char *name);
/* The setting called NAME of E, NULL if it has none. */
const struct jfrspec_text *jfrspec_setting(const struct jfrspec_entry *e, const char *name);
/* A JFR duration ("0", "20 ms", "1 s", "500 us", "10 ns", "2 m", "1 h")
 * in ns: 0, or -EINVAL. */
int jfrspec_duration_ns(const struct jfrspec_text *v, int64_t *ns);

#endif
