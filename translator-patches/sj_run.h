/* sj_run.h: running the helpers and stap itself.
 *
 * Contract:
 *  - sj_run_lines() runs ARGV (execvp), stdin /dev/null, stderr inherited, and
 *    returns its stdout split into lines in *LINES (NULL-terminated, malloc'ed,
 *    free with sj_run_free_lines).  Returns the exit status (0..255), or a negative
 *    errno when it could not run or was killed.
 *  - sj_run_stap() runs ARGV and waits for it; stap's stderr passes through us so
 *    that FROM (the translated script's temporary path) reads as TO (the user's
 *    file) in stap's messages.  SIGINT and SIGQUIT are left to stap (they reach the
 *    whole foreground process group); SIGTERM and SIGHUP are forwarded.  Returns the
 *    exit status to use (128+signal for a killed stap), or a negative errno.
 */
#ifndef STAPJAVA_SJ_RUN_H
#define STAPJAVA_SJ_RUN_H

int sj_run_lines(char *const argv[], char ***lines);
void sj_run_free_lines(char **lines);
int sj_run_stap(char *const argv[], const char *from, const char *to);

#endif
