/* sj_emit.h: the stap code and the bridge command line stap-java generates.
 *
 * Contract (doc/markers.md):
 *  - sj_emit_aliases(): one probe alias per slot,
 *        probe __stapjava_sN = process("BRIDGE").mark("slotN") { java_... = $argK; ... }
 *    setting the tapset's variables from the marker's twelve arguments.  It goes in
 *    a generated tapset file, so stap elides the variables a handler does not use
 *    without warning about it.
 *  - sj_emit_bridge_args(): the bridge's arguments after "--parent PID": --slot N:KIND.EVENT:PATTERN ..., family
 *    switches, optional data, --sync, -x PID.
 *  - sj_emit_begin(): the `probe begin` that starts the bridge with system().
 *    stapio runs the command with `sh -c`; it must be short (the runtime's control
 *    messages hold 384 bytes), so longer argument lists are read from ARGS_FILE.
 * All return 0 or -ENOMEM (sj_emit_begin: -E2BIG when the command cannot fit).
 */
#ifndef STAPJAVA_SJ_EMIT_H
#define STAPJAVA_SJ_EMIT_H

#include <stdbool.h>

#include "sj_buf.h"
#include "sj_translate.h"

/* Longest command given to system(), with room for the pid's digits. */
#define SJ_SYSTEM_CMD_MAX 360

struct sj_bridge_opts {
	bool sync;
	const char *target_pid;	/* -x, NULL: none */
};

int sj_emit_aliases(const struct sj_translation *t, const char *bridge, struct sj_buf *out);
/* QUOTED: for the command line; else one bare word per line, for the arguments file. */
int sj_emit_bridge_args(const struct sj_translation *t, const struct sj_bridge_opts *o,
			bool quoted, struct sj_buf *out);
/* ARGS_FILE NULL: the arguments go inline (-E2BIG if that is too long). */
int sj_emit_begin(const char *bridge, const char *args, const char *args_file,
		  struct sj_buf *out);

#endif
