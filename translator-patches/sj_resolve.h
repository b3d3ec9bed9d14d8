/* sj_resolve.h: asking stap's pass 1 which probe points a script really has.
 *
 * Contract: sj_resolve() runs ARGV, stap -p1 on the translated scripts with the
 * user's options that %( %) conditions and macros depend on (-r, -a, -B, -g, -I,
 * --privilege, --compatible, --runtime, ..., and the script's arguments).  Its
 * stdout and stderr go to files in DIR, removed afterwards.  When stap succeeds,
 * the parse tree it printed goes to sj_translation_resolve(), its warnings are
 * dropped (the real run prints them again), and 0 is returned with *STATUS 0.
 * When it fails, its messages are written to stderr through MAP, as the real run's
 * would be, *STATUS is its exit status (non-zero), and 0 is returned.  Otherwise
 * -errno, with a message.
 */
#ifndef STAPJAVA_SJ_RESOLVE_H
#define STAPJAVA_SJ_RESOLVE_H

#include "sj_srcmap.h"
#include "sj_translate.h"

int sj_resolve(struct sj_translation *t, char *const argv[], const char *dir,
	       struct sj_srcmap *map, int *status);

#endif
