/* sjprint.h: one decoded event as one `stpd-bridge --print` line (doc/agent-bridge.md).
 *
 * Contract: formatting only; the caller keeps thread names (from ThreadName
 * events) in a struct sjprint_names and passes the pid and a timestamp for
 * events that have no trailer. Kept apart from sjclient.c so the bridge can
 * take it over. Never allocates.
 */
#ifndef STAPJAVA_SJPRINT_H
#define STAPJAVA_SJPRINT_H

#include <stdint.h>
#include <stdio.h>

#include "wire.h"

#define SJPRINT_MAX_NAMES 8192

struct sjprint_names {
	size_t n;
	struct {
		uint64_t tid;
		char name[64];
	} e[SJPRINT_MAX_NAMES];
};

/* Remember the name of a ThreadName event (no output). */
void sjprint_thread_name(struct sjprint_names *names, const struct wire_event *ev);
/* Print EV as one line. Returns 1 if printed, 0 if the event prints nothing (Hello, ThreadName). */
int sjprint_event(FILE *out, const struct wire_event *ev, uint32_t pid, uint64_t ts_fallback,
		  const struct sjprint_names *names);
/* The event's name in --print output ("method.enter"), or NULL. */
const char *sjprint_event_name(unsigned code);

#endif
