/* options.h: stpd-bridge's command line (documented in stpd-bridge/README.md
 * and --help).
 *
 * Contract: options_parse() fills *o from argv, compiling every pattern on
 * the way, so a bad pattern is refused before anything else happens. It
 * returns 0 to go on, 1 when --help or --version was answered (exit 0),
 * or -EINVAL after logging one line that names the argument and the fault
 * (exit 2). It never exits itself.
 */
#ifndef STPD_BRIDGE_OPTIONS_H
#define STPD_BRIDGE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "record.h"
#include "registry.h"
#include "slots.h"

#define OPTIONS_DEFAULT_RESCAN_MS        500u
#define OPTIONS_DEFAULT_HELLO_TIMEOUT_MS 1000u
#define OPTIONS_DEFAULT_SYNC_TIMEOUT_US  100000u

struct bridge_options {
	pid_t *pids;               /* -x, repeatable; none: every JVM */
	size_t npids;
	struct registry reg;       /* -m -c -e --gc --threads --monitors --vm --args --return --stack --sync */
	struct slot_table slots;   /* --slot N:KIND.EVENT:PATTERN (their patterns are in reg too) */
	bool fire;                 /* --fire: fire the SDT markers (doc/markers.md) */
	bool in_thread;            /* --in-thread: the agents fire them, in the Java threads */
	uint32_t session;          /* --session, default --parent: $arg1 >> 16 of in-thread markers */
	bool session_given;
	bool print;                /* --print */
	bool list;                 /* --list */
	bool check;                /* --check: only say whether each -x pid can be served */
	bool matches;              /* --matches: list what each -m/-c/-e pattern selects now, then exit */
	bool jfr_types;            /* --jfr-types: list the JFR event types --jfr selects, then exit */
	pid_t parent;              /* --parent, 0: none */
	const char *sockdir;       /* --sockdir template ("%u": the JVM's uid), NULL: default */
	const char *output;        /* -o FILE, NULL: stdout */
	const char *log_file;      /* --log-file, NULL: stderr */
	int log_level;             /* enum sj_log_level */
	unsigned rescan_ms;        /* --rescan-ms */
	unsigned hello_timeout_ms; /* --hello-timeout-ms */
	const char *agent;         /* --agent, $STAPJAVA_AGENT or the installed one: for attach */
	const char *agent_options; /* --agent-options, NULL: none */
	bool no_attach;            /* --no-attach */
	const char *record;        /* --record FILE, NULL: none */
	const char *read;          /* --read FILE: print its events and exit */
	const char *format;        /* --format NAME, NULL: by FILE's extension */
	const struct record_format *record_fmt; /* of --record or --read: --format, else the extension */
	bool force;                /* --force: --record may overwrite FILE */
	uint64_t record_max;       /* --record-max BYTES, 0: no cap */
	const char **jvms;         /* --jvm NAME|PID, repeatable (jvmsel.h); none: every JVM */
	size_t njvms;
};

int options_parse(int argc, char **argv, struct bridge_options *o);
void options_free(struct bridge_options *o);

#endif
