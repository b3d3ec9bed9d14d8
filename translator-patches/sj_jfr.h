/* sj_jfr.h: java.jfr("TYPE"[, "SETTINGS"]) probe points (issue 15).
 *
 * Contract: sj_jfr_spec() makes the bridge's --jfr-slot entry of one point
 * (runtime/jfrspec.h): TYPE as written ('*' a wildcard), then '#' and
 * SETTINGS ("threshold=1 ms;stackTrace=true", ',' taken for ';') with the
 * spaces of its values dropped ("1ms": JFR reads both, and the bridge's
 * words must hold no space); a fault is said in ERR. sj_jfr_point_for()
 * numbers the distinct entries of a script in order of first use, at most
 * SJ_MAX_JFR (bits of the jfr marker's $arg10); each becomes the alias
 * SJ_JFR_PREFIX"N", on the jfr marker (the bridge's; in-thread the agent's,
 * which its own thread fires for the bridge: doc/jfr.md), that keeps the
 * events whose bit N is set and, in-thread, whose session is the script's
 * (sj_emit_jfr_aliases), and the bridge's --jfr-slot N:ENTRY.
 * Functions return 0 or a negative errno (-ENOSPC: no number left).
 */
#ifndef STAPJAVA_SJ_JFR_H
#define STAPJAVA_SJ_JFR_H

#include <stdbool.h>
#include <stddef.h>

#include "sj_buf.h"

#define SJ_MAX_JFR 64
#define SJ_JFR_PREFIX "__stapjava_j"

struct sj_jfr_point {
	char *spec;      /* "jdk.JavaMonitorEnter#threshold=1ms" */
	bool used;       /* registered: in a probe point stap keeps */
};

struct sj_jfr_points {
	struct sj_jfr_point p[SJ_MAX_JFR];
	size_t n;
};

int sj_jfr_spec(const char *type, size_t tlen, const char *settings, size_t slen, char *out, size_t outlen,
		char *err, size_t errlen);
int sj_jfr_point_for(struct sj_jfr_points *j, const char *spec);
void sj_jfr_points_free(struct sj_jfr_points *j);
bool sj_jfr_any_used(const struct sj_jfr_points *j);
/* The aliases, each on BINARY's jfr marker: the bridge's, or IN_THREAD the
 * agent's. */
int sj_emit_jfr_aliases(const struct sj_jfr_points *j, const char *binary, bool in_thread, struct sj_buf *out);

/* -l/-L of java.jfr points: POINTS (the argument, NUL-terminated) is one or
 * more java.jfr("TYPE") points joined by ',', and nothing else: their TYPEs
 * into TYPES (NULL-ended, the caller frees them), 1 ("" no java.jfr at all:
 * 0), or -EINVAL after ERR says what is wrong. */
int sj_jfr_list_parse(const char *points, char ***types, char *err, size_t errlen);
/* The lines of `stpd-bridge --jfr-types` (FOUND: "jfr TYPE PATH ...",
 * NULL-ended) as stap -l/-L prints probe points, sorted: "java.jfr(\"TYPE\")",
 * with VARS the alias's variables " NAME:TYPE" and each field as
 * " @jfr_field(\"PATH\")". Returns how many, or -ENOMEM. */
int sj_jfr_list_print(char *const *found, bool vars);

#endif
