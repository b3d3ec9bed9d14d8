/* sj_cmdline.h: stap's command line, as stap-java needs to see it.
 *
 * Contract: sj_cmdline_parse() splits ARGV the way stap's getopt_long does
 * (options may follow the script; `--` ends them): stap's options are kept, in
 * order, as the words to pass on; the script (a file, "-" or -e TEXT), the -E
 * scripts and the script's arguments are taken out, and the options stap-java
 * itself looks at are noted.  stap-java's own options (--dump, --java-sync,
 * --java-async, --classpath CP) are removed; --target-command CMD counts as -c CMD.  Returns 0, or -EINVAL with a message in ERR
 * (an option that lacks its argument).
 */
#ifndef STAPJAVA_SJ_CMDLINE_H
#define STAPJAVA_SJ_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

enum sj_sync_choice { SJ_SYNC_AUTO, SJ_SYNC_ON, SJ_SYNC_OFF };

struct sj_cmdline {
	char **pass;		/* stap options to pass on, in order */
	size_t npass;
	const char *script_file;	/* FILE or "-", NULL with -e */
	const char *script_text;	/* -e TEXT */
	char **extra_scripts;	/* -E TEXT, in order */
	size_t nextra;
	char **script_args;	/* after the script */
	size_t nargs;
	int pass_stop;		/* -p N, 5 without -p */
	const char *kernel;	/* -r */
	const char *target_pid;	/* -x */
	const char *command;	/* -c */
	size_t x_at, c_at;	/* 1 + index in pass of the -x / -c word; 0: none */
	bool print_target;	/* --target-command */
	bool runtime_given;	/* -R */
	bool non_kernel_runtime;	/* --runtime=bpf|dyninst, --bpf, --dyninst */
	bool listing;		/* -l, -L, -h, -V, --dump-*: nothing to translate */
	const char *list_point;	/* -l / -L's probe point(s) */
	size_t list_at;		/* 1 + index in pass of that word; 0: none */
	bool list_vars;		/* it is -L's */
	const char *classpath;	/* --classpath */
	bool dump;		/* --dump */
	enum sj_sync_choice sync;	/* --java-sync / --java-async */
	size_t *pass1_drop;	/* indices in pass of words stap -p1 is not given */
	size_t npass1_drop;
};

int sj_cmdline_parse(struct sj_cmdline *c, int argc, char **argv, char *err, size_t errlen);
void sj_cmdline_free(struct sj_cmdline *c);
/* Is pass[I] left out of stap-java's pass-1 run (-p, -o, -c, -x, -k, -i and their values)? */
bool sj_cmdline_pass1_drops(const struct sj_cmdline *c, size_t i);
/* Append S (not copied) to the NULL-terminated argv *V of *N words: 0 or -ENOMEM. */
int sj_argv_push(char ***v, size_t *n, const char *s);
/* Append C's script arguments, after "--" when there are any (stap's own
 * argument tail). 0, or -ENOMEM. */
int sj_argv_push_script_args(char ***v, size_t *n, const struct sj_cmdline *c);

#endif
