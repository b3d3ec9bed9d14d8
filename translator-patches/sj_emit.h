/* sj_emit.h: the stap code and the bridge command line stap-java generates.
 *
 * Contract (doc/markers.md):
 *  - sj_emit_aliases(): one probe alias per slot,
 *        probe __stapjava_sN = process("BINARY").mark("slotN") { java_... = $argK; ... }
 *    setting the variables sj_slot_vars() names from the marker's twelve
 *    arguments, in its order (stap -L lists them so); BINARY is
 *    the agent's library in-thread (and the alias skips other sessions' events:
 *    $arg1 >> 16 is not stp_pid()), the bridge otherwise.  It goes in
 *    a generated tapset file, so stap elides the variables a handler does not use
 *    without warning about it.  Slots not used (t->slots[i].used) get their alias
 *    too, marked in its comment: a branch stap leaves out may still name it.
 *  - sj_emit_family_alias(): the tapset's alias of a family event (the
 *    event's label, its marker):
 *        probe java.LABEL = process(@__stapjava_bridge).mark("MARKER"),
 *        	process(@__stapjava_agent).mark("MARKER")
 *        {
 *        	if (($arg1 >> 16) && ($arg1 >> 16) != stp_pid()) next
 *        	java_... = $argK
 *        	...
 *        }
 *    the variables sj_alias_vars() names, one a line; the agent's marker
 *    only for an event the agent fires in the Java thread (events.h,
 *    events_fired_in_thread()), and the session check skips in-thread events
 *    of other sessions (the bridge's have 0 there).
 *  - sj_emit_paths(): the macros the tapset's aliases name the bridge and the
 *    agent with (tapset/stapjava_paths.stpm.in), for SJ_PATHS_TAPSET:
 *        @define __stapjava_bridge %( "BRIDGE" %)
 *        @define __stapjava_agent %( "AGENT" %)
 *    The paths hold no quote, backslash or newline (stap-java checks them).
 *  - sj_emit_bridge_args(): the bridge's arguments after "--parent PID": --slot
 *    N:KIND.EVENT:PATTERN for each slot used, family switches, optional data, --in-thread, -x PID, then
 *    the extra words (STAPJAVA_BRIDGE_OPTS, which hold no quote or backslash).
 *    Without -x, when every Java point used is a java("PNAME"|PID) one
 *    (sj_java.h), --jvm NAME|PID for each JVM they name, once, and --agent.
 *  - sj_emit_companions(): a `probe __stapjava_sN {}` for each companion slot
 *    used (the enter slots that keep a java(...).return's arguments: their
 *    aliases do the work), each after a newline.
 *  - sj_emit_begin(): without -c (and with -c in-thread), the `probe begin` that
 *    starts the bridge with system() (and notes stapio's process group for
 *    sj_emit_watch).  stapio runs
 *    the command with `sh -c`; it must be short (the runtime's control messages
 *    hold 384 bytes), so longer argument lists are read from ARGS_FILE.
 *  - sj_emit_target_command(): with -c, the command to give stap instead, one
 *    that starts the bridge inside the target's process tree, sets the agent's
 *    JAVA_TOOL_OPTIONS and runs the user's command:
 *        sh -c 'exec BRIDGE --parent $PPID ARGS </dev/null & export JAVA_TOOL_OPTIONS=V; [exec ]CMD'
 *    stapio splits it with wordexp(3) into sh, -c and the text inside the quotes.
 *    Without a BRIDGE (in-thread: the begin probe starts it, outside the
 *    target's tree) only the export and the command.
 *  - sj_emit_watch(): a `process("BRIDGE").end` probe that warns when the bridge's
 *    supervisor exits while the session runs (IN_TARGET: started by the target
 *    command; else by sj_emit_begin's system()).
 * All return 0 or -ENOMEM (sj_emit_begin: -E2BIG when the command cannot fit).
 */
#ifndef STAPJAVA_SJ_EMIT_H
#define STAPJAVA_SJ_EMIT_H

#include <stdbool.h>

#include "events.h"
#include "sj_buf.h"
#include "sj_translate.h"

/* Longest command given to system(), with room for the pid's digits. */
#define SJ_SYSTEM_CMD_MAX 360

struct sj_bridge_opts {
	bool in_thread;		/* the agents fire the markers in the Java threads */
	const char *target_pid;	/* -x, NULL: none */
	const char *agent;	/* with -x: the agent the bridge loads into a JVM without one */
	char *const *extra;	/* more words for the bridge */
	size_t nextra;
};

/* How sj_emit_bridge_args() writes each word. */
enum sj_args_form {
	SJ_ARGS_SYSTEM,	/* 'WORD', space-separated, for system() */
	SJ_ARGS_LINES,	/* one bare word a line, for the arguments file */
	SJ_ARGS_SHELL,	/* WORD or "WORD" (no single quote), for a target command */
};

struct sj_target_cmd {
	const char *bridge;		/* NULL: started elsewhere */
	const char *bridge_args;	/* SJ_ARGS_SHELL */
	const char *java_tool_options;	/* the value to export */
	const char *command;	/* the user's -c, as given */
	bool exec;		/* a simple command (wordexp splits it): exec it */
};

/* A variable an alias of a Java probe point sets: its name, its type as
 * stap -L prints it, and the expression it is set to (NULL: the event's
 * label, "KIND.EVENT" or "FAMILY.EVENT", as a string literal). */
struct sj_alias_var {
	const char *name, *type, *expr;
};
#define SJ_MAX_ALIAS_VARS 24
/* The variables the alias of the event labelled LABEL (events.h:
 * "method.return", "gc.start") sets, in the order it sets them: the first
 * MAX into VARS; returns how many there are, 0 when no event has that label.
 * The one table the slots' aliases, the tapset's family aliases
 * (sj_emit_family_alias) and stap-java's listing (sj_list.h) read. */
size_t sj_alias_vars(const char *label, const struct sj_alias_var **vars, size_t max);
/* The same for a slot of KIND and EVENT ("return"). */
size_t sj_slot_vars(enum sj_kind kind, const char *event, const struct sj_alias_var **vars,
		    size_t max);

/* The name of tapset/stapjava_paths.stpm.in's file once generated: stap-java's
 * copy must have it, to replace the one in the tapset directory. */
#define SJ_PATHS_TAPSET "stapjava_paths.stpm"
int sj_emit_paths(const char *bridge, const char *agent, struct sj_buf *out);
/* BINARY: the agent's library when IN_THREAD, else the bridge. */
int sj_emit_aliases(const struct sj_translation *t, const char *binary, bool in_thread,
		    struct sj_buf *out);
/* The tapset's alias of an event D with a family marker, for stapjava.stp
 * (tapset/gen-tapset writes them at build time): -EINVAL when D has none. */
int sj_emit_family_alias(const struct event_desc *d, struct sj_buf *out);
/* Each used slot's alias counts its events into the aggregate SJ_FIRED_PREFIX
 * and the slot number; this `probe end` (two lines, last in the script)
 * warns, once per Java probe point that none reached,
 * "java.method(\"P\").return never fired: ...", and declares the
 * aggregates. Nothing when no slot is used. */
#define SJ_FIRED_PREFIX "__stapjava_fired"
int sj_emit_fired_report(const struct sj_translation *t, struct sj_buf *out);
int sj_emit_bridge_args(const struct sj_translation *t, const struct sj_bridge_opts *o,
			enum sj_args_form form, struct sj_buf *out);
/* ARGS_FILE NULL: the arguments go inline (-E2BIG if that is too long). */
/* WATCHED: sj_emit_watch() follows (the begin probe notes stapio's process group). */
int sj_emit_begin(const char *bridge, const char *args, const char *args_file, bool watched,
		  struct sj_buf *out);
int sj_emit_companions(const struct sj_translation *t, struct sj_buf *out);
int sj_emit_target_command(const struct sj_target_cmd *tc, struct sj_buf *out);
/* TARGET_PID: -x's, named in the message (the bridge ends with that JVM). */
int sj_emit_watch(const char *bridge, bool in_target, const char *target_pid, struct sj_buf *out);

/* The assignments of the alias of the event labelled LABEL (the table of
 * variables), each "NAME = EXPR" and END, SEP between them: the slots', the
 * families' and the java.jfr points' aliases (sj_jfr.h). 0 or nonzero. */
int sj_emit_assignments(struct sj_buf *out, const char *label, const char *sep, const char *end);

#endif
