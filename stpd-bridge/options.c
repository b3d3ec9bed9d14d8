/* options.c: see options.h. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "events.h"
#include "jvmsel.h"
#include "log.h"

static const char usage_text[] =
	"Usage: stpd-bridge [OPTION]...\n"
	"Connect to the stapjava agents of running JVMs, register probes, and print\n"
	"their events (see stpd-bridge/README.md and doc/agent-bridge.md).\n"
	"\n"
	"Which JVMs:\n"
	"  -x, --pid PID            serve this JVM (repeatable); default: every JVM,\n"
	"                           including those that start later\n"
	"  -l, --list               print the JVMs this user can see and exit\n"
	"      --matches            with -x: list the loaded methods (-m) and classes (-c,\n"
	"                           -e) each pattern selects now, one per line, then exit\n"
	"      --jfr-types          with -x: list the JFR event types each --jfr pattern\n"
	"                           selects, with their fields, one per line, then exit\n"
	"      --check              say whether each -x PID is a JVM this bridge may\n"
	"                           serve, and exit (0: all are)\n"
	"      --sockdir DIR        where agents given sockdir=DIR listen, under\n"
	"                           /proc/PID/root; %u stands for the JVM's uid (others\n"
	"                           are found among the JVM's own sockets)\n"
	"      --rescan-ms N        look for new JVMs every N ms (default 500)\n"
	"      --hello-timeout-ms N wait N ms for the agent's Hello before speaking\n"
	"                           Appendix B only (default 1000)\n"
	"      --agent PATH         the agent a JVM named with -x gets through HotSpot's\n"
	"                           attach mechanism when it runs without one (default\n"
	"                           $STAPJAVA_AGENT, else " SJ_AGENT_PATH ")\n"
	"      --agent-options OPTS more options for an agent loaded that way\n"
	"                           (agent/README.md; default: loglevel=error)\n"
	"      --no-attach          never load the agent into a JVM: wait for its socket\n"
	"      --jvm NAME|PID       serve only the JVMs jps names NAME (main class or\n"
	"                           jar, whole or short) and the JVM PID, now or when\n"
	"                           they start, loading the agent as for -x (repeatable)\n"
	"\n"
	"What to register (patterns: doc/patterns.md):\n"
	"  -m, --method PATTERN[:enter,return,compile]    (default enter,return)\n"
	"  -c, --class PATTERN[:load,prepare,unload]      (default load,prepare,unload)\n"
	"  -e, --exception PATTERN[:thrown,catch]         (default thrown,catch)\n"
	"      --gc, --threads, --monitors, --vm          event families\n"
	"      --args, --return, --stack                  optional data\n"
	"      --jfr TYPE[#NAME=VALUE[;NAME=VALUE]][,TYPE...]\n"
	"                           the JVM's JFR events of these types ('*' a\n"
	"                           wildcard), with JFR settings (threshold=1 ms)\n"
	"      --jfr-slot N:TYPE[#NAME=VALUE[;NAME=VALUE]]\n"
	"                           the same, for java.jfr probe point N (0-63): bit\n"
	"                           N of the jfr marker's $arg10 (doc/markers.md)\n"
	"      --monitor-detail     monitor events say the monitor's class, and who\n"
	"                           holds it on a contended enter\n"
	"      --sync[=TIMEOUT_US]  synchronous dispatch: the Java thread waits for\n"
	"                           the bridge, at most TIMEOUT_US (default 100000)\n"
	"      --slot N:KIND.EVENT:PATTERN\n"
	"                           probe slot N (0-255) for --fire; KIND.EVENT is one\n"
	"                           of method.enter, method.return, method.compile,\n"
	"                           class.load, class.prepare, class.unload,\n"
	"                           exception.thrown, exception.catch (doc/markers.md)\n"
	"\n"
	"Output and life:\n"
	"  -p, --print              print one line per event\n"
	"      --fire               fire the SDT markers of matching slots and of the\n"
	"                           families switched on (doc/markers.md)\n"
	"      --in-thread          with --fire: each agent fires the markers itself, in\n"
	"                           the Java thread, at the event (its libstapjava.so's\n"
	"                           markers; slots and families only)\n"
	"      --session N          in-thread markers carry N in $arg1 >> 16 (default:\n"
	"                           the --parent PID): a script's handlers skip the\n"
	"                           events of other sessions\n"
	"  -o, --output FILE        print to FILE (appended) instead of stdout\n"
	"      --record FILE        write every event to FILE, in the format its\n"
	"                           extension names (doc/recording.md)\n"
	"      --format NAME        the format of --record or --read FILE, whatever\n"
	"                           its extension\n"
	"      --force              --record may overwrite an existing FILE\n"
	"      --record-max BYTES   stop recording before FILE would pass BYTES\n"
	"                           (suffixes K, M, G: KiB, MiB, GiB)\n"
	"      --read FILE          print the events of a recording as --print lines,\n"
	"                           and exit\n"
	"      --parent PID         exit (unregistering first) when PID exits\n"
	"      --log-level LEVEL    error, warn (default), info or debug\n"
	"      --log-file FILE      log to FILE (appended) instead of stderr\n"
	"  -h, --help               show this help\n"
	"  -V, --version            show the version\n"
	"\n"
	"Exit status: 0 done, 1 failure, 2 bad command line.\n";

enum {
	OPT_GC = 256, OPT_THREADS, OPT_MONITORS, OPT_VM, OPT_ARGS, OPT_RETURN, OPT_STACK,
	OPT_SYNC, OPT_PARENT, OPT_SOCKDIR, OPT_RESCAN, OPT_HELLO_TIMEOUT, OPT_LOG_LEVEL,
	OPT_LOG_FILE, OPT_FIRE, OPT_SLOT, OPT_AGENT, OPT_AGENT_OPTIONS, OPT_NO_ATTACH,
	OPT_IN_THREAD, OPT_SESSION, OPT_CHECK, OPT_MONITOR_DETAIL, OPT_MATCHES, OPT_RECORD,
	OPT_FORMAT, OPT_FORCE, OPT_RECORD_MAX, OPT_READ, OPT_JFR, OPT_JFR_SLOT, OPT_JFR_TYPES,
	OPT_JVM = 400,
};

static const struct option long_options[] = {
	{ "pid", required_argument, NULL, 'x' },
	{ "list", no_argument, NULL, 'l' },
	{ "method", required_argument, NULL, 'm' },
	{ "class", required_argument, NULL, 'c' },
	{ "exception", required_argument, NULL, 'e' },
	{ "print", no_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "gc", no_argument, NULL, OPT_GC },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "monitors", no_argument, NULL, OPT_MONITORS },
	{ "vm", no_argument, NULL, OPT_VM },
	{ "args", no_argument, NULL, OPT_ARGS },
	{ "return", no_argument, NULL, OPT_RETURN },
	{ "stack", no_argument, NULL, OPT_STACK },
	{ "monitor-detail", no_argument, NULL, OPT_MONITOR_DETAIL },
	{ "sync", optional_argument, NULL, OPT_SYNC },
	{ "parent", required_argument, NULL, OPT_PARENT },
	{ "sockdir", required_argument, NULL, OPT_SOCKDIR },
	{ "rescan-ms", required_argument, NULL, OPT_RESCAN },
	{ "hello-timeout-ms", required_argument, NULL, OPT_HELLO_TIMEOUT },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "log-file", required_argument, NULL, OPT_LOG_FILE },
	{ "fire", no_argument, NULL, OPT_FIRE },
	{ "slot", required_argument, NULL, OPT_SLOT },
	{ "agent", required_argument, NULL, OPT_AGENT },
	{ "agent-options", required_argument, NULL, OPT_AGENT_OPTIONS },
	{ "no-attach", no_argument, NULL, OPT_NO_ATTACH },
	{ "in-thread", no_argument, NULL, OPT_IN_THREAD },
	{ "session", required_argument, NULL, OPT_SESSION },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "matches", no_argument, NULL, OPT_MATCHES },
	{ "jfr-types", no_argument, NULL, OPT_JFR_TYPES },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "record-max", required_argument, NULL, OPT_RECORD_MAX },
	{ "read", required_argument, NULL, OPT_READ },
	{ "jvm", required_argument, NULL, OPT_JVM },
	{ "jfr", required_argument, NULL, OPT_JFR },
	{ "jfr-slot", required_argument, NULL, OPT_JFR_SLOT },
	{ NULL, 0, NULL, 0 },
};

static const uint8_t default_events[] = {
	[WIRE_KIND_METHOD] = WIRE_METHOD_ENTER | WIRE_METHOD_RETURN,
	[WIRE_KIND_CLASS] = WIRE_CLASS_LOAD | WIRE_CLASS_PREPARE | WIRE_CLASS_UNLOAD,
	[WIRE_KIND_EXCEPTION] = WIRE_EXCEPTION_THROWN | WIRE_EXCEPTION_CATCH,
};

/* "enter,return" -> bits; 0 when some word is not an event of KIND. */
static uint8_t parse_event_list(uint8_t kind, const char *list)
{
	uint8_t bits = 0;
	const char *p = list;

	if (*p == '\0')
		return 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		const struct event_desc *d = events_by_kind_word(kind, p, n);

		if (!d)
			return 0;
		bits |= d->bit;
		p += n;
		if (*p == ',' && *++p == '\0')
			return 0;
	}
	return bits;
}

static const char *kind_option(uint8_t kind)
{
	return kind == WIRE_KIND_METHOD ? "--method" : kind == WIRE_KIND_CLASS ? "--class" : "--exception";
}

/* PATTERN[:EVENTS]. The suffix counts only if every word after the last ':'
 * is an event word, so a ':' inside a pattern stays part of it. */
static int add_pattern(struct registry *reg, uint8_t kind, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	uint8_t events = default_events[kind];
	char text[PATTERN_MAX_LEN + 2];
	char err[256];
	size_t len = strlen(arg);
	int rc;

	if (colon) {
		uint8_t bits = parse_event_list(kind, colon + 1);

		if (bits) {
			events = bits;
			len = (size_t)(colon - arg);
		} else if (strspn(colon + 1, "abcdefghijklmnopqrstuvwxyz,") == strlen(colon + 1)) {
			const struct event_desc *ev;
			char words[64] = "";

			for (size_t i = 0; (ev = events_of_kind(kind, i)); i++)
				snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s",
					 i ? "," : "", events_word(ev));
			sj_error("%s '%s': unknown event list '%s' (events: %s)", kind_option(kind), arg,
				 colon + 1, words);
			return -EINVAL;
		}
	}
	if (len > PATTERN_MAX_LEN) {
		sj_error("%s '%.40s...': pattern longer than %d bytes", kind_option(kind), arg,
			 PATTERN_MAX_LEN);
		return -EINVAL;
	}
	memcpy(text, arg, len);
	text[len] = '\0';
	rc = registry_add(reg, kind, events, text, err, sizeof err);
	if (rc == -ENOMEM) {
		sj_error("out of memory");
		return rc;
	}
	if (rc < 0) {
		sj_error("%s '%s': %s", kind_option(kind), text, err);
		return -EINVAL;
	}
	return 0;
}

static int add_slot(struct bridge_options *o, const char *arg)
{
	char err[PATTERN_MAX_LEN + 300];
	int rc = slots_add(&o->slots, &o->reg, arg, err, sizeof err);

	if (rc == -ENOMEM) {
		sj_error("out of memory");
		return rc;
	}
	if (rc < 0) {
		sj_error("--slot '%s': %s", arg, err);
		return -EINVAL;
	}
	return 0;
}

static int parse_uint(const char *opt, const char *arg, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > max) {
		sj_error("%s '%s': not a whole number from 0 to %lu", opt, arg, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* BYTES[K|M|G], at least 1. */
static int parse_bytes(const char *opt, const char *arg, uint64_t *out)
{
	static const char units[] = "KMG";
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!errno && end != arg && arg[0] != '-' && *end && !end[1] && strchr(units, *end)) {
		unsigned shift = 10u * (unsigned)(strchr(units, *end) - units + 1);
		if (v > (UINT64_MAX >> shift))
			errno = ERANGE;
		v <<= shift;
		end++;
	}
	if (errno || end == arg || *end || arg[0] == '-' || v == 0) {
		sj_error("%s '%s': not a size in bytes (a whole number from 1, or with K, M or G)", opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_pid(const char *opt, const char *arg, pid_t *pid)
{
	unsigned long v;

	if (parse_uint(opt, arg, INT_MAX, &v) < 0)
		return -EINVAL;
	if (v == 0) {
		sj_error("%s '%s': not a process id", opt, arg);
		return -EINVAL;
	}
	*pid = (pid_t)v;
	return 0;
}

static int add_pid(struct bridge_options *o, const char *arg)
{
	pid_t pid, *grown;

	if (parse_pid("--pid", arg, &pid) < 0)
		return -EINVAL;
	grown = realloc(o->pids, (o->npids + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	o->pids = grown;
	o->pids[o->npids++] = pid;
	return 0;
}

static int add_jvm(struct bridge_options *o, const char *arg)
{
	const char **grown;

	if (jvmsel_check(arg) < 0) {
		sj_error("--jvm '%s': not a pid (a positive number) or a main class or jar", arg);
		return -EINVAL;
	}
	grown = realloc(o->jvms, (o->njvms + 1) * sizeof *grown);
	if (!grown)
		return -ENOMEM;
	o->jvms = grown;
	o->jvms[o->njvms++] = arg;
	return 0;
}

/* --jfr: comma-separated entries (jfrspec.h). */
static int add_jfr(struct registry *r, const char *arg)
{
	char err[400];

	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		int rc = registry_add_jfr(r, p, len, -1, err, sizeof err);
		if (rc == -EINVAL)
			sj_error("--jfr '%s': %s", arg, err);
		if (rc < 0)
			return rc;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* --jfr-slot N:ENTRY */
static int add_jfr_slot(struct registry *r, const char *arg)
{
	char err[400], *end;
	unsigned long n = strtoul(arg, &end, 10);
	int rc;

	if (end == arg || *end != ':' || n >= REGISTRY_JFR_SLOTS || arg[0] == '-' || arg[0] == '+') {
		sj_error("--jfr-slot '%s': N:TYPE expected, N from 0 to %u", arg, REGISTRY_JFR_SLOTS - 1);
		return -EINVAL;
	}
	for (size_t i = 0; i < r->jfr_entries; i++) {
		if (r->jfr_slots[i] == (int8_t)n) {
			sj_error("--jfr-slot '%s': slot %lu given twice", arg, n);
			return -EINVAL;
		}
	}
	rc = registry_add_jfr(r, end + 1, strlen(end + 1), (int)n, err, sizeof err);
	if (rc == -EINVAL)
		sj_error("--jfr-slot '%s': %s", arg, err);
	return rc;
}

static int parse_one(struct bridge_options *o, int c, const char *arg)
{
	unsigned long v;
	int level;

	switch (c) {
	case 'x': return add_pid(o, arg);
	case 'l': o->list = true; return 0;
	case 'm': return add_pattern(&o->reg, WIRE_KIND_METHOD, arg);
	case 'c': return add_pattern(&o->reg, WIRE_KIND_CLASS, arg);
	case 'e': return add_pattern(&o->reg, WIRE_KIND_EXCEPTION, arg);
	case 'p': o->print = true; return 0;
	case OPT_FIRE: o->fire = true; return 0;
	case OPT_SLOT: return add_slot(o, arg);
	case 'o': o->output = arg; return 0;
	case OPT_GC: o->reg.families |= EVENT_FAMILY_BIT(EVENT_FAMILY_GC); return 0;
	case OPT_THREADS: o->reg.families |= EVENT_FAMILY_BIT(EVENT_FAMILY_THREADS); return 0;
	case OPT_MONITORS: o->reg.families |= EVENT_FAMILY_BIT(EVENT_FAMILY_MONITORS); return 0;
	case OPT_VM: o->reg.families |= EVENT_FAMILY_BIT(EVENT_FAMILY_VM); return 0;
	case OPT_ARGS: o->reg.opt_mask |= WIRE_OPT_ARGUMENTS; return 0;
	case OPT_RETURN: o->reg.opt_mask |= WIRE_OPT_RETURN_VALUE; return 0;
	case OPT_STACK: o->reg.opt_mask |= WIRE_OPT_STACK; return 0;
	case OPT_MONITOR_DETAIL: o->reg.opt_mask |= WIRE_OPT_MONITOR; return 0;
	case OPT_SYNC:
		o->reg.sync = true;
		if (arg && parse_uint("--sync", arg, UINT32_MAX, &v) < 0)
			return -EINVAL;
		o->reg.sync_timeout_us = arg ? (uint32_t)v : OPTIONS_DEFAULT_SYNC_TIMEOUT_US;
		return 0;
	case OPT_JFR: return add_jfr(&o->reg, arg);
	case OPT_JFR_SLOT: return add_jfr_slot(&o->reg, arg);
	case OPT_PARENT: return parse_pid("--parent", arg, &o->parent);
	case OPT_SOCKDIR:
		if (arg[0] != '/') {
			sj_error("--sockdir '%s': not an absolute path", arg);
			return -EINVAL;
		}
		o->sockdir = arg;
		return 0;
	case OPT_RESCAN:
		if (parse_uint("--rescan-ms", arg, 3600000, &v) < 0)
			return -EINVAL;
		if (v < 10) {
			sj_error("--rescan-ms '%s': less than 10", arg);
			return -EINVAL;
		}
		o->rescan_ms = (unsigned)v;
		return 0;
	case OPT_HELLO_TIMEOUT:
		if (parse_uint("--hello-timeout-ms", arg, 3600000, &v) < 0)
			return -EINVAL;
		o->hello_timeout_ms = (unsigned)v;
		return 0;
	case OPT_LOG_LEVEL:
		level = sj_log_parse_level(arg);
		if (level < 0) {
			sj_error("--log-level '%s': not one of error, warn, info, debug", arg);
			return -EINVAL;
		}
		o->log_level = level;
		sj_log_set_level(level);
		return 0;
	case OPT_LOG_FILE: o->log_file = arg; return 0;
	case OPT_AGENT:
		if (arg[0] != '/') {
			sj_error("--agent '%s': not an absolute path", arg);
			return -EINVAL;
		}
		o->agent = arg;
		return 0;
	case OPT_AGENT_OPTIONS: o->agent_options = arg; return 0;
	case OPT_NO_ATTACH: o->no_attach = true; return 0;
	case OPT_JVM: return add_jvm(o, arg);
	case OPT_IN_THREAD: o->in_thread = true; return 0;
	case OPT_CHECK: o->check = true; return 0;
	case OPT_MATCHES: o->matches = true; return 0;
	case OPT_JFR_TYPES: o->jfr_types = true; return 0;
	case OPT_RECORD: o->record = arg; return 0;
	case OPT_READ: o->read = arg; return 0;
	case OPT_FORMAT: o->format = arg; return 0;
	case OPT_FORCE: o->force = true; return 0;
	case OPT_RECORD_MAX: return parse_bytes("--record-max", arg, &o->record_max);
	case OPT_SESSION:
		if (parse_uint("--session", arg, UINT32_MAX, &v) < 0)
			return -EINVAL;
		o->session = (uint32_t)v;
		o->session_given = true;
		return 0;
	}
	sj_error("unknown option (try --help)");
	return -EINVAL;
}

/* The format of --record or --read FILE, and what it needs registered. */
static int choose_format(struct bridge_options *o)
{
	const char *opt = o->record ? "--record" : "--read", *file = o->record ? o->record : o->read;

	if (o->format) {
		o->record_fmt = record_format_by_name(o->format);
		if (!o->record_fmt) {
			sj_error("--format '%s': no such format (formats: %s)", o->format, record_format_names());
			return -EINVAL;
		}
	} else if (!(o->record_fmt = record_format_for_path(file))) {
		sj_error("%s '%s': the file's extension names no format (formats: %s; or give --format)",
			 opt, file, record_format_names());
		return -EINVAL;
	}
	const struct record_needs *needs = o->record ? o->record_fmt->needs : NULL;
	if (!needs)
		return 0;
	o->reg.families |= needs->families;
	o->reg.opt_mask |= needs->opt_mask;
	for (const char *const *m = needs->methods; m && *m; m++)
		if (add_pattern(&o->reg, WIRE_KIND_METHOD, *m) < 0)
			return -EINVAL;
	return 0;
}

/* What goes with --record and --read, and what does not. */
static int check_recording(struct bridge_options *o)
{
	if (!o->record && !o->read) {
		const char *alone = o->format ? "--format" : o->force ? "--force" : o->record_max ? "--record-max" : NULL;
		if (alone) {
			sj_error("%s: give --record FILE%s", alone, o->format ? " or --read FILE" : "");
			return -EINVAL;
		}
		return 0;
	}
	if (o->read && (o->record || o->npids || o->list || o->check || o->matches || o->print || o->fire ||
			o->force || o->record_max || !registry_is_empty(&o->reg))) {
		sj_error("--read: it only prints FILE's events: no -x, --record, --print, --fire, --list, "
			 "--check, --matches or registrations");
		return -EINVAL;
	}
	if (o->record && (o->in_thread || o->matches || o->list || o->check)) {
		sj_error("--record: %s", o->in_thread ? "the agents fire the markers, nothing reaches the bridge to record: no --in-thread"
			 : "it records a session: no --matches, --list or --check");
		return -EINVAL;
	}
	return choose_format(o);
}

int options_parse(int argc, char **argv, struct bridge_options *o)
{
	int c, rc;

	memset(o, 0, sizeof *o);
	registry_init(&o->reg);
	slots_init(&o->slots);
	o->log_level = SJ_LOG_WARN;
	o->rescan_ms = OPTIONS_DEFAULT_RESCAN_MS;
	o->hello_timeout_ms = OPTIONS_DEFAULT_HELLO_TIMEOUT_MS;
	o->agent = getenv("STAPJAVA_AGENT");
	if (!o->agent || o->agent[0] != '/')
		o->agent = SJ_AGENT_PATH;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":x:lm:c:e:po:hV", long_options, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		if (c == 'V') {
			printf("stpd-bridge (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 1;
		}
		if (c == '?' || c == ':') {
			const char *what = argv[optind - 1];

			sj_error("%s '%s' (try --help)",
				 c == ':' ? "missing argument for" : "unknown option", what);
			return -EINVAL;
		}
		rc = parse_one(o, c, optarg);
		if (rc < 0)
			return -EINVAL;
	}
	if (optind < argc) {
		sj_error("unexpected argument '%s' (try --help)", argv[optind]);
		return -EINVAL;
	}
	if (o->sockdir && strchr(o->sockdir, ',') && !o->no_attach && o->npids) {
		sj_error("--sockdir '%s': a ',' cannot reach an attached agent's options (or give --no-attach)",
			 o->sockdir);
		return -EINVAL;
	}
	if (o->in_thread && (!o->fire || o->print || o->reg.sync || o->reg.n != o->slots.n)) {
		sj_error("--in-thread: %s", !o->fire ? "needs --fire"
			 : o->print ? "the agents fire the markers, nothing reaches the bridge to print: no --print"
			 : o->reg.sync ? "already ordered with the Java thread: no --sync"
			 : "only --slot patterns fire in the Java thread: no -m, -c or -e");
		return -EINVAL;
	}
	if (!o->session_given)
		o->session = (uint32_t)o->parent;
	if (o->matches && (!o->npids || !o->reg.n || o->print || o->fire || o->in_thread)) {
		sj_error("--matches: %s", !o->npids ? "give the JVMs to list with -x"
			 : !o->reg.n ? "give the patterns to list with -m, -c or -e"
			 : "it only lists: no --print, --fire or --in-thread");
		return -EINVAL;
	}
	if (o->jfr_types && (!o->npids || !o->reg.jfr_len || o->print || o->fire || o->in_thread || o->matches)) {
		sj_error("--jfr-types: %s", !o->npids ? "give the JVMs to list with -x"
			 : !o->reg.jfr_len ? "give the event types to list with --jfr"
			 : "it only lists: no --print, --fire, --in-thread or --matches");
		return -EINVAL;
	}
	if (o->jfr_types && registry_jfr_disable(&o->reg) < 0)
		return -ENOMEM;
	/* a listing run like --matches's: the supervisor ends it when every
	 * named JVM's worker has listed (or failed); the worker tells them apart */
	o->matches |= o->jfr_types;
	if (o->check && !o->npids) {
		sj_error("--check: give the JVMs to check with -x");
		return -EINVAL;
	}
	if (check_recording(o) < 0)
		return -EINVAL;
	if (!o->list && !o->check && !o->read && registry_is_empty(&o->reg)) {
		sj_error("nothing to register: give --slot, -m, -c, -e, --gc, --threads, --monitors, --vm or --jfr (try --help)");
		return -EINVAL;
	}
	return 0;
}

void options_free(struct bridge_options *o)
{
	free(o->pids);
	free(o->jvms);
	o->jvms = NULL;
	o->njvms = 0;
	registry_free(&o->reg);
	o->pids = NULL;
	o->npids = 0;
}
