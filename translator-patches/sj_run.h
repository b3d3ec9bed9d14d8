/* sj_run.h: running the helpers and stap itself.
 *
 * Contract:
 *  - sj_run_lines() runs ARGV (execvp), stdin /dev/null, stderr inherited, and
 *    returns its stdout split into lines in *LINES (NULL-terminated, malloc'ed,
 *    free with sj_run_free_lines).  Returns the exit status (0..255), or a negative
 *    errno when it could not run or was killed.
 *  - sj_run_stap() runs ARGV and waits for it.  Its stdout is OUT_FD (-1: ours).
 *    Its stderr is ERR_FD, or with -1 passes through us, line by line as it comes,
 *    through MAP (sj_srcmap.h: the user's file names and lines in stap's messages);
 *    a last line without a newline is not lost.  SIGINT and SIGQUIT are left to stap
 *    (they reach the whole foreground process group); SIGTERM and SIGHUP are
 *    forwarded.  Returns the exit status to use (128+signal for a killed stap), or a
 *    negative errno.
 *  - sj_run_filter() copies FD to stderr through MAP that way, until end of file.
 */
#ifndef STAPJAVA_SJ_RUN_H
#define STAPJAVA_SJ_RUN_H

#include "sj_srcmap.h"

int sj_run_lines(char *const argv[], char ***lines);
void sj_run_free_lines(char **lines);
int sj_run_stap(char *const argv[], struct sj_srcmap *map, int out_fd, int err_fd);
void sj_run_filter(int fd, struct sj_srcmap *map);

#endif
