/* options.h: the agent's option string (-agentpath:...=OPTIONS).
 *
 * Contract: "key=value,key=value"; every key is documented in agent/README.md.
 * An unknown key or a bad value is an error: options_parse() returns -EINVAL
 * and fills err with one sentence naming the option, so the JVM can refuse to
 * start with that message (see README, "Options"). Never allocates.
 */
#ifndef STAPJAVA_AGENT_OPTIONS_H
#define STAPJAVA_AGENT_OPTIONS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#define OPT_BUFSIZE_DEFAULT   (1u << 20)  /* bytes of queued events per connection */
#define OPT_BUFSIZE_MIN       4096u
#define OPT_BUFSIZE_MAX       (256u << 20)
#define OPT_TIMEOUT_DEFAULT   100000u     /* µs a Java thread waits for an Ack */
#define OPT_TIMEOUT_MAX       10000000u
#define OPT_STRMAX_DEFAULT    256u        /* bytes of a String value */
#define OPT_STRMAX_MAX        16384u
#define OPT_STACKMAX_DEFAULT  64u         /* frames of a stack trace */
#define OPT_WAIT_MAX          600000u     /* ms */
#define OPT_THREADBUF_DEFAULT (256u << 10) /* bytes of each thread's own event buffer */
#define OPT_THREADBUF_MIN     4096u
#define OPT_THREADBUF_MAX     (256u << 20)

struct agent_options {
	char sockdir[PATH_MAX];   /* "": a private mkdtemp directory (listener.h) */
	int loglevel;             /* enum sj_log_level */
	char logfile[PATH_MAX];   /* "" = stderr */
	uint32_t bufsize;
	uint32_t timeout_us;
	uint32_t strmax;
	uint32_t stackmax;
	uint32_t wait_ms;         /* at VM start, wait this long for a first bridge */
	int methods;              /* enum opt_methods: how method events are reported */
	uint32_t threadbuf;       /* bytes of each thread's asynchronous buffer (tbuf.h) */
	int clock;                /* enum opt_clock: what event timestamps are read from */
};

/* methods=: inject (calls in the matched methods, inject.h; what they cannot
 * reach is said, not probed), fallback (the same, and breakpoints where the
 * calls cannot be, fallback.h) or jvmti (breakpoints and MethodExit for every
 * method, fallback.h). Only fallback and jvmti ask for the breakpoint and
 * MethodExit capabilities: HotSpot keeps every local of every compiled
 * method alive for the JVM's whole life once an agent may set breakpoints. */
enum opt_methods { OPT_METHODS_INJECT = 0, OPT_METHODS_JVMTI = 1, OPT_METHODS_FALLBACK = 2 };
/* clock=: auto (the TSC where the kernel's clock runs on it, clock.h), tsc
 * (the same, said when it cannot be), monotonic (clock_gettime). */
enum opt_clock { OPT_CLOCK_AUTO = 0, OPT_CLOCK_TSC = 1, OPT_CLOCK_MONOTONIC = 2 };

void options_defaults(struct agent_options *o);
/* Parse TEXT (NULL or "" = defaults) into *O. Returns 0 or -EINVAL with ERR set. */
int options_parse(const char *text, struct agent_options *o, char *err, size_t errlen);

#endif
