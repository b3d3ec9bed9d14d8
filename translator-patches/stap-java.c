/* stap-java: run a SystemTap script that has Java probe points.
 *
 * Takes stap's command line, rewrites java.method/class/exception probe points into
 * probes on stpd-bridge's slot markers (doc/markers.md), starts the bridge (a
 * `probe begin` with system(), or with -c inside the target command, since stap
 * fires uprobes only in the target's process tree then), adds a probe that reports
 * the bridge's end, the tapset directory, and SystemTap's runtime fix when the
 * kernel needs it, then runs stock stap.  The tapset's aliases take the bridge's
 * and the agent's paths from macros: stap-java gives stap its own definitions of
 * them (the paths it uses, STAPJAVA_BRIDGE and STAPJAVA_AGENT or the installed
 * ones), so a staged install (DESTDIR) runs as well as an installed one.  When
 * %( %) conditionals or macros leave the probe points undecided, stap's own pass 1
 * decides first (sj_resolve.h).
 * stap's messages show the user's file names and lines (sj_srcmap.h).
 * `--dump` prints what would run instead.  -l and -L list probe points:
 * stap the tapset's, sj_list.h those that take a pattern, from a class path.
 * The user's manual: man/stap-java.1.
 */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <wordexp.h>

#include "log.h"
#include "sj_buf.h"
#include "sj_cmdline.h"
#include "sj_diag.h"
#include "sj_emit.h"
#include "sj_java_stap.h"
#include "sj_files.h"
#include "sj_list.h"
#include "sj_resolve.h"
#include "sj_run.h"
#include "sj_srcmap.h"
#include "sj_translate.h"

#ifndef SJ_BRIDGE_PATH
#define SJ_BRIDGE_PATH "/usr/local/bin/stpd-bridge"
#endif
#ifndef SJ_AGENT_PATH
#define SJ_AGENT_PATH "/usr/local/lib/libstapjava.so"
#endif
#ifndef SJ_TAPSET_DIR
#define SJ_TAPSET_DIR "/usr/local/share/stapjava/tapset"
#endif
#ifndef SJ_RUNTIME_FIX
#define SJ_RUNTIME_FIX "/usr/local/share/stapjava/runtime-fix/stap-runtime-fix"
#endif

#define SLOTS_TAPSET "stapjava_slots.stp"

/* The agent's wait_ms with -c: how long a JVM's main waits for a bridge's
 * registrations at most (STAPJAVA_WAIT_MS); the bridge rescans every 500 ms. */
#define WAIT_MS_DEFAULT "10000"
#define WAIT_MS_MAX 600000	/* the agent's limit */

struct paths {
	const char *bridge, *agent, *tapset, *fix, *stap;
};

struct job {
	struct sj_cmdline cmd;
	struct paths paths;
	struct sj_translation tr;
	struct sj_buf main_text;	/* translated main script, begin probe appended */
	struct sj_buf *extra;		/* translated -E scripts */
	struct sj_buf aliases;		/* the generated tapset of the slots */
	struct sj_buf paths_text;	/* the generated SJ_PATHS_TAPSET */
	struct sj_buf bridge_args;	/* quoted, for a command line */
	struct sj_buf bridge_words;	/* one per line, for the arguments file */
	struct sj_buf target_cmd;	/* -c's command, rewritten */
	char *java_opts;		/* JAVA_TOOL_OPTIONS for -c */
	char *opts_copy;		/* STAPJAVA_BRIDGE_OPTS, split in place */
	char **opts;			/* ... into words */
	size_t nopts;
	char *args_file;		/* set when the arguments do not fit in system() */
	char **fix;			/* stap-runtime-fix's options */
	bool uses_java;
	bool in_thread;			/* the agents fire the markers (--in-thread) */
	char **slot_points;		/* slot N as the user wrote it, for stap's messages */
	const char *main_name;		/* the main script as stap names it */
	struct sj_buf source;		/* the main script as the user wrote it */
	char dir[4096];			/* temporary directory, "" until made */
	char script[4300];		/* the translated main script there, "" with -e or stdin */
	char tapset_dir[4200];		/* the generated tapset files there: */
	char slots[4300], paths_file[4300];	/* SLOTS_TAPSET, SJ_PATHS_TAPSET */
	struct sj_srcmap_file *mapped;	/* the main script and each -E, for map */
	struct sj_srcmap map;
	char stap[4096];		/* the real stap (sj_java_stap.h) */
};

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

static int read_script(const char *file, struct sj_buf *b)
{
	if (strcmp(file, "-") == 0)
		return sj_buf_read_fd(b, 0);
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = sj_buf_read_fd(b, fd);
	close(fd);
	return rc;
}

/* Paths go into single-quoted shell words and stap string literals (the
 * generated tapset's macros too). */
static int check_path(const char *what, const char *path)
{
	if (path[0] != '/' || strpbrk(path, "'\"\\\n")) {
		sj_error("%s path '%s' must be absolute and free of quotes, backslashes and newlines",
			 what, path);
		return -EINVAL;
	}
	return 0;
}

/* The bridge or the agent at PATH (from the variable VAR, or compiled in when
 * VAR is unset) can be used: a regular file, with MODE (access(2)) for us.  stap
 * would otherwise fail at a line of a tapset that names it ("no match"), the
 * generated tapset of the slots being a temporary file gone when read. */
static int check_file(const char *what, const char *path, const char *var, int mode)
{
	const char *v = getenv(var);
	struct stat st;
	char why[128];

	if (stat(path, &st) < 0)
		snprintf(why, sizeof why, "%s", errno == ENOENT || errno == ENOTDIR ? "does not exist"
						: strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(why, sizeof why, "is not a regular file");
	else if (access(path, mode) < 0)
		snprintf(why, sizeof why, "is not %s", mode == X_OK ? "executable" : "readable");
	else
		return 0;
	if (v && *v)
		sj_error("the %s %s (%s) %s", what, path, var, why);
	else
		sj_error("the %s %s (the installed one: %s is not set) %s", what, path, var, why);
	return -ENOENT;
}

/* The bridge, and with AGENT the agent, can be used (check_file): 0 or -ENOENT. */
static int check_programs(const struct job *j, bool agent)
{
	if (check_file("bridge", j->paths.bridge, "STAPJAVA_BRIDGE", X_OK) < 0)
		return -ENOENT;
	return agent ? check_file("agent", j->paths.agent, "STAPJAVA_AGENT", R_OK) : 0;
}

/* From pass 2 on, stap reads the bridge and the agent the script's probes name
 * (the slots', the families' aliases: both), and the bridge is started; with
 * -c and -x, the agent is loaded into JVMs. */
static int check_installed(const struct job *j)
{
	if (!j->uses_java || j->cmd.pass_stop < 2)
		return 0;
	return check_programs(j, j->tr.families || j->in_thread || j->cmd.command || j->cmd.target_pid);
}

static int translate(struct job *j)
{
	struct sj_buf *src = &j->source;
	char name[32];
	int rc;

	if (j->cmd.script_file) {
		rc = read_script(j->cmd.script_file, src);
		if (rc < 0) {
			sj_error("cannot read '%s': %s", j->cmd.script_file, strerror(-rc));
			return rc;
		}
		j->main_name = strcmp(j->cmd.script_file, "-") == 0 ? "<input>" : j->cmd.script_file;
	} else {
		rc = sj_buf_puts(src, j->cmd.script_text);
		j->main_name = "<input>";
	}
	if (rc == 0)
		rc = sj_translate_text(&j->tr, j->main_name, sj_buf_str(src), src->len, &j->main_text);
	j->extra = calloc(j->cmd.nextra + 1, sizeof *j->extra);
	if (!j->extra)
		return -ENOMEM;
	for (size_t i = 0; i < j->cmd.nextra && rc == 0; i++) {
		snprintf(name, sizeof name, "<input%zu>", i + 1);
		rc = sj_translate_text(&j->tr, name, j->cmd.extra_scripts[i],
				       strlen(j->cmd.extra_scripts[i]), &j->extra[i]);
	}
	return rc;
}

/* Where the bridge's arguments live when they are too long for system(). */
static int args_file_path(struct job *j)
{
	int rc = sj_args_file_path(j->bridge_words.data, j->bridge_words.len, &j->args_file);
	return rc < 0 ? rc : check_path("cache", j->args_file);
}

/* STAPJAVA_BRIDGE_OPTS and STAPJAVA_AGENT_OPTS go into single- and double-quoted
 * shell words and stap strings unescaped, so quotes, backslashes, `$`, backquotes
 * and control characters (but tabs between words) are refused. */
static int check_opts(const char *name, const char *v)
{
	for (const char *p = v; *p; p++) {
		if (strchr("'\"\\$`", *p) || ((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f) {
			sj_error("%s '%s': quotes, backslashes, '$', '`' and control characters are not allowed",
				 name, v);
			return -EINVAL;
		}
	}
	return 0;
}

/* STAPJAVA_BRIDGE_OPTS: words for the bridge, separated by spaces or tabs. */
static int bridge_opts(struct job *j)
{
	const char *v = getenv("STAPJAVA_BRIDGE_OPTS");
	char *save = NULL;

	if (!v || !*v)
		return 0;
	if (check_opts("STAPJAVA_BRIDGE_OPTS", v) < 0)
		return -EINVAL;
	j->opts_copy = strdup(v);
	if (!j->opts_copy)
		return -ENOMEM;
	for (char *w = strtok_r(j->opts_copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char **bigger = realloc(j->opts, (j->nopts + 1) * sizeof *bigger);
		if (!bigger)
			return -ENOMEM;
		j->opts = bigger;
		j->opts[j->nopts++] = w;
	}
	return 0;
}

/* -c's JAVA_TOOL_OPTIONS: the agent with wait_ms and STAPJAVA_AGENT_OPTS (e.g. a
 * sockdir= to match the bridge's --sockdir), then any value it had. */
static int java_tool_options(struct job *j)
{
	const char *old = getenv("JAVA_TOOL_OPTIONS"), *wait = env_or("STAPJAVA_WAIT_MS", WAIT_MS_DEFAULT);
	const char *more = env_or("STAPJAVA_AGENT_OPTS", "");

	if (strspn(wait, "0123456789") != strlen(wait) || strlen(wait) > 6 || atol(wait) > WAIT_MS_MAX) {
		sj_error("STAPJAVA_WAIT_MS '%s': not a number of milliseconds from 0 to %d", wait, WAIT_MS_MAX);
		return -EINVAL;
	}
	if (check_opts("STAPJAVA_AGENT_OPTS", more) < 0 || strpbrk(more, " \t")) {
		if (strpbrk(more, " \t"))
			sj_error("STAPJAVA_AGENT_OPTS '%s': the agent's options are separated by commas", more);
		return -EINVAL;
	}
	if (asprintf(&j->java_opts, "-agentpath:%s=wait_ms=%ld%s%s%s%s", j->paths.agent, atol(wait),
		     *more ? "," : "", more, old && *old ? " " : "", old ? old : "") < 0) {
		j->java_opts = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* Does stapio exec CMD itself (wordexp splits it: *SIMPLE), or run it with
 * `sh -c` (a shell metacharacter)?  Stap's flags but WRDE_UNDEF, since a later
 * staprun may have another environment; its errors are stap's. */
static int classify_command(const char *cmd, bool *simple)
{
	wordexp_t w;
	int rc = wordexp(cmd, &w, WRDE_NOCMD);

	*simple = rc == 0;
	if (rc == 0) {
		size_t n = w.we_wordc;
		wordfree(&w);
		if (n > 0)
			return 0;
		sj_error("-c '%s': empty command", cmd);
		return -EINVAL;
	}
	if (rc == WRDE_BADCHAR)
		return 0;
	if (rc == WRDE_NOSPACE)
		return -ENOMEM;
	sj_error("-c '%s': %s", cmd, rc == WRDE_CMDSUB ?
		 "command substitution ($(...), `...`), which stap refuses" :
		 "syntax error (unmatched quotes?)");
	return -EINVAL;
}

/* With -c: the command that loads the agent into the command's JVMs and,
 * asynchronously, starts the bridge in the target's process tree (where its
 * markers must fire). In-thread the markers are the JVM's: the bridge is
 * started by the begin probe, outside the tree, so that stap's process
 * probes see the command's processes alone, as with plain stap -c. */
static int target_command(struct job *j, const struct sj_bridge_opts *bo)
{
	struct sj_buf args = { 0 };
	/* in-thread, java.jfr points too fire in the JVM (the agent's thread) */
	struct sj_target_cmd tc = { .bridge = bo->in_thread ? NULL : j->paths.bridge,
				    .command = j->cmd.command };
	int rc = classify_command(j->cmd.command, &tc.exec);

	if (rc == 0)
		rc = java_tool_options(j);
	if (rc == 0 && tc.bridge)
		rc = sj_emit_bridge_args(&j->tr, bo, SJ_ARGS_SHELL, &args);
	if (rc == 0) {
		tc.bridge_args = sj_buf_str(&args);
		tc.java_tool_options = j->java_opts;
		rc = sj_emit_target_command(&tc, &j->target_cmd);
	}
	sj_buf_free(&args);
	return rc;
}

/* The aliases, the bridge's arguments, the begin probe or the target command,
 * and the probe on the bridge's end. */
static int generate(struct job *j)
{
	struct sj_bridge_opts bo = { .target_pid = j->cmd.target_pid, .agent = j->paths.agent };
	int rc;

	j->uses_java = sj_translation_uses_java(&j->tr);
	if (!j->uses_java)
		return 0;
	bo.in_thread = j->cmd.sync == SJ_SYNC_ON ||
		       (j->cmd.sync == SJ_SYNC_AUTO && sj_translation_wants_sync(&j->tr));
	j->in_thread = bo.in_thread;
	if (j->cmd.target_pid && strspn(j->cmd.target_pid, "0123456789") != strlen(j->cmd.target_pid)) {
		sj_error("-x '%s': not a process id", j->cmd.target_pid);
		return -EINVAL;
	}
	if (j->cmd.target_pid && j->cmd.command) {
		sj_error("-c and -x cannot be given together");
		return -EINVAL;
	}
	rc = bridge_opts(j);
	bo.extra = j->opts;
	bo.nextra = j->nopts;
	if (rc == 0)
		rc = sj_emit_companions(&j->tr, &j->main_text);
	if (rc == 0)
		rc = sj_emit_aliases(&j->tr, bo.in_thread ? j->paths.agent : j->paths.bridge,
				     bo.in_thread, &j->aliases);
	if (rc == 0)
		rc = sj_emit_jfr_aliases(&j->tr.jfr, bo.in_thread ? j->paths.agent : j->paths.bridge, bo.in_thread,
					 &j->aliases);
	if (rc == 0)
		rc = sj_emit_bridge_args(&j->tr, &bo, SJ_ARGS_SYSTEM, &j->bridge_args);
	if (rc == 0 && j->cmd.command) {
		rc = target_command(j, &bo);
		if (rc == 0 && !bo.in_thread) {
			rc = sj_emit_watch(j->paths.bridge, true, NULL, &j->main_text);
			if (rc == 0)
				rc = sj_emit_fired_report(&j->tr, &j->main_text);
			return rc;
		}
	}
	/* with -x or -c in-thread, stap's process probes are the target's: the
	 * bridge's end cannot be seen (and stap -x checks the pid at build time) */
	const bool watched = !(bo.in_thread && (j->cmd.target_pid || j->cmd.command));
	if (rc == 0)
		rc = sj_emit_bridge_args(&j->tr, &bo, SJ_ARGS_LINES, &j->bridge_words);
	if (rc == 0)
		rc = sj_emit_begin(j->paths.bridge, sj_buf_str(&j->bridge_args), NULL, watched, &j->main_text);
	if (rc == -E2BIG) {
		rc = args_file_path(j);
		if (rc == 0)
			rc = sj_emit_begin(j->paths.bridge, NULL, j->args_file, watched, &j->main_text);
	}
	if (rc == 0 && watched)
		rc = sj_emit_watch(j->paths.bridge, false, j->cmd.target_pid, &j->main_text);
	if (rc == 0)
		rc = sj_emit_fired_report(&j->tr, &j->main_text);
	return rc;
}

/* stap-runtime-fix's options, unless -R was given or no kernel module is built. */
static int runtime_fix(struct job *j)
{
	struct utsname u;
	const char *krel = j->cmd.kernel;

	if (j->cmd.runtime_given || j->cmd.non_kernel_runtime || j->cmd.pass_stop < 3)
		return 0;
	if (!krel) {
		if (uname(&u) < 0)
			return -errno;
		krel = u.release;
	}
	if (strchr(krel, '/'))
		return 0;	/* a build tree: its release is not ours to guess */
	char *argv[] = { (char *)j->paths.fix, "-r", (char *)krel, NULL };
	int rc = sj_run_lines(argv, &j->fix);
	if (rc != 0) {
		sj_warn("%s -r %s failed; running stap without the runtime fix", j->paths.fix, krel);
		sj_run_free_lines(j->fix);
		j->fix = NULL;
	}
	return 0;
}

/* -I TAPSET_DIR, before every other -I (the user's, the tapset directory):
 * stap reads only the first tapset file of a name over its -I directories, in
 * order ("Skipping tapset ..., duplicate name" with -vv), and the generated
 * SJ_PATHS_TAPSET must be the one read. */
static int push_generated_tapset(char ***v, size_t *n, const char *tapset_dir)
{
	return sj_argv_push(v, n, "-I") | sj_argv_push(v, n, tapset_dir);
}

/* stap's argv; TAPSET_DIR holds the generated tapset files; SCRIPT_PATH is the
 * translated main script's file (NULL: pass -e);
 * TARGET_CMD replaces -c's command.  With Java probes, -x goes to the bridge only:
 * with it, stap would fire the bridge's uprobes only in the PID's process tree.
 * PASS1: for sj_resolve(), stap -p1 with the options that matter to pass 1. */
static char **stap_argv(const struct job *j, const char *tapset_dir, const char *script_path,
			const char *target_cmd, bool pass1)
{
	char **v = NULL;
	size_t n = 0;
	int rc = sj_argv_push(&v, &n, j->paths.stap);

	rc |= push_generated_tapset(&v, &n, tapset_dir);
	for (size_t i = 0; i < j->cmd.npass; i++) {
		if (pass1 && sj_cmdline_pass1_drops(&j->cmd, i))
			continue;
		/* asynchronous, -x is the bridge's only: its markers fire in the
		 * bridge, outside the target's tree; in-thread, stap gets it too */
		if (!pass1 && j->uses_java && !j->in_thread && i + 1 == j->cmd.x_at) {
			i++;
			continue;
		}
		if (!pass1 && j->uses_java && i == j->cmd.c_at && j->target_cmd.len)
			rc |= sj_argv_push(&v, &n, target_cmd);
		else
			rc |= sj_argv_push(&v, &n, j->cmd.pass[i]);
	}
	if (pass1) {
		rc |= sj_argv_push(&v, &n, "-p");
		rc |= sj_argv_push(&v, &n, "1");
	}
	/* in-thread, the handlers run in the JVM's threads, on the agent's
	 * markers: its symbols and unwind data make ubacktrace() and usymname()
	 * name its frames */
	if (!pass1 && j->uses_java && j->in_thread) {
		rc |= sj_argv_push(&v, &n, "-d");
		rc |= sj_argv_push(&v, &n, j->paths.agent);
	}
	rc |= sj_argv_push(&v, &n, "-I");
	rc |= sj_argv_push(&v, &n, j->paths.tapset);
	for (size_t i = 0; !pass1 && j->fix && j->fix[i]; i++)
		rc |= sj_argv_push(&v, &n, j->fix[i]);
	if (script_path) {
		rc |= sj_argv_push(&v, &n, script_path);
	} else if (j->cmd.script_file || j->cmd.script_text) {
		rc |= sj_argv_push(&v, &n, "-e");
		rc |= sj_argv_push(&v, &n, sj_buf_str(&j->main_text));
	}
	for (size_t i = 0; i < j->cmd.nextra; i++) {
		rc |= sj_argv_push(&v, &n, "-E");
		rc |= sj_argv_push(&v, &n, sj_buf_str(&j->extra[i]));
	}
	rc |= sj_argv_push_script_args(&v, &n, &j->cmd);
	if (rc) {
		free(v);
		return NULL;
	}
	return v;
}

static void print_word(FILE *f, const char *w)
{
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") == strlen(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		*w == '\'' ? fputs("'\\''", f) : fputc(*w, f);
	fputc('\'', f);
}

static int dump(const struct job *j)
{
	printf("# stap-java --dump: script %s\n%s", j->main_name, sj_buf_str(&j->main_text));
	if (j->main_text.len && j->main_text.data[j->main_text.len - 1] != '\n')
		putchar('\n');
	for (size_t i = 0; i < j->cmd.nextra; i++)
		printf("# stap-java --dump: script <input%zu>\n%s\n", i + 1, sj_buf_str(&j->extra[i]));
	printf("# stap-java --dump: tapset <tmpdir>/" SJ_PATHS_TAPSET "\n%s", sj_buf_str(&j->paths_text));
	if (j->uses_java && (j->tr.nslots || j->tr.jfr.n))
		printf("# stap-java --dump: tapset <tmpdir>/" SLOTS_TAPSET "\n%s", sj_buf_str(&j->aliases));
	if (j->uses_java) {
		printf("# stap-java --dump: bridge\n");
		print_word(stdout, j->paths.bridge);
		printf(" --parent <stapio pid> %s\n", sj_buf_str(&j->bridge_args));
		if (j->args_file)
			printf("# stap-java --dump: bridge arguments read from %s\n%s", j->args_file,
			       sj_buf_str(&j->bridge_words));
	}
	if (j->target_cmd.len)
		printf("# stap-java --dump: target command\n%s\n", sj_buf_str(&j->target_cmd));
	char **argv = stap_argv(j, "<tmpdir>/tapset",
				j->cmd.script_file && strcmp(j->cmd.script_file, "-") ? "<tmpdir>/script.stp" : NULL,
				"<target command>", false);
	if (!argv)
		return -ENOMEM;
	printf("# stap-java --dump: stap\n");
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			putchar(' ');
		if (i > 0 && (strcmp(argv[i - 1], "-e") == 0 || strcmp(argv[i - 1], "-E") == 0))
			fputs("<script>", stdout);
		else if (strcmp(argv[i], "<target command>") == 0)
			fputs(argv[i], stdout);
		else
			print_word(stdout, argv[i]);
	}
	putchar('\n');
	free(argv);
	return fflush(stdout) == 0 ? 0 : -EIO;
}

/* The temporary directory, made once, with the generated tapset directory and
 * SJ_PATHS_TAPSET in it (the slots' tapset comes later, with run()). */
static int tmpdir_make(struct job *j)
{
	const char *tmp = env_or("TMPDIR", "/tmp");
	int rc;

	if (j->dir[0])
		return 0;
	snprintf(j->dir, sizeof j->dir, "%s/stap-java.XXXXXX", tmp);
	if (!mkdtemp(j->dir)) {
		rc = -errno;
		sj_error("cannot make a temporary directory in %s: %s", tmp, strerror(errno));
		j->dir[0] = '\0';
		return rc;
	}
	snprintf(j->tapset_dir, sizeof j->tapset_dir, "%s/tapset", j->dir);
	snprintf(j->slots, sizeof j->slots, "%s/" SLOTS_TAPSET, j->tapset_dir);
	snprintf(j->paths_file, sizeof j->paths_file, "%s/" SJ_PATHS_TAPSET, j->tapset_dir);
	rc = mkdir(j->tapset_dir, 0700) < 0 ? -errno : 0;
	if (rc == 0)
		rc = sj_write_file(j->paths_file, j->paths_text.data, j->paths_text.len, 0600);
	if (rc < 0)
		sj_error("cannot write %s: %s", j->paths_file, strerror(-rc));
	return rc;
}

/* The temporary directory, with the map of stap's messages: the translated main
 * script goes there under the user's base name, so that stap's messages name the
 * user's file, and the stderr filter (j->map) maps the whole path back. */
static int workdir(struct job *j)
{
	bool file = j->cmd.script_file && strcmp(j->cmd.script_file, "-") != 0;
	size_t nmapped = 1 + j->cmd.nextra;
	char name[32];
	int rc;

	if (j->mapped)
		return 0;
	rc = tmpdir_make(j);
	if (rc < 0)
		return rc;
	if (file) {
		const char *base = strrchr(j->cmd.script_file, '/');
		snprintf(j->script, sizeof j->script, "%s/%s", j->dir, base ? base + 1 : j->cmd.script_file);
	}
	j->mapped = calloc(nmapped, sizeof *j->mapped);
	if (!j->mapped)
		return -ENOMEM;
	j->mapped[0] = (struct sj_srcmap_file){
		.stap_name = file ? j->script : "<input>", .user_name = file ? j->cmd.script_file : NULL,
		.text = sj_buf_str(&j->source), .len = j->source.len,
	};
	for (size_t i = 0; i < j->cmd.nextra; i++) {
		snprintf(name, sizeof name, "<input%zu>", i + 1);
		j->mapped[i + 1] = (struct sj_srcmap_file){
			.stap_name = strdup(name), .text = j->cmd.extra_scripts[i],
			.len = strlen(j->cmd.extra_scripts[i]),
		};
		if (!j->mapped[i + 1].stap_name)
			return -ENOMEM;
	}
	sj_srcmap_init(&j->map, j->mapped, nmapped);
	j->map.slot_points = j->slot_points;
	j->map.nslots = j->slot_points ? j->tr.nslots : 0;
	return 0;
}

static void workdir_remove(struct job *j)
{
	if (!j->dir[0])
		return;
	if (j->script[0])
		unlink(j->script);
	unlink(j->slots);
	unlink(j->paths_file);
	rmdir(j->tapset_dir);
	rmdir(j->dir);
	for (size_t i = 1; j->mapped && i <= j->cmd.nextra; i++)
		free((char *)j->mapped[i].stap_name);
	free(j->mapped);
}

/* Where %( %) conditionals or macros leave the probe points undecided, stap's pass 1
 * decides: 0, or the exit status of a failed stap -p1 (its messages printed), or
 * -errno. */
static int resolve(struct job *j)
{
	int rc = workdir(j), status = 0;

	if (rc == 0 && j->script[0])
		rc = sj_write_file(j->script, j->main_text.data, j->main_text.len, 0600);
	char **argv = rc == 0 ? stap_argv(j, j->tapset_dir, j->script[0] ? j->script : NULL, NULL, true)
			      : NULL;
	if (rc == 0 && !argv)
		rc = -ENOMEM;
	if (rc == 0)
		rc = sj_resolve(&j->tr, argv, j->dir, &j->map, &status);
	free(argv);
	return rc < 0 ? rc : status;
}

static int run(struct job *j)
{
	int rc = workdir(j);

	if (rc == 0 && j->uses_java && (j->tr.nslots || j->tr.jfr.n))
		rc = sj_write_file(j->slots, j->aliases.data, j->aliases.len, 0600);
	if (rc == 0 && j->script[0])
		rc = sj_write_file(j->script, j->main_text.data, j->main_text.len, 0600);
	if (rc == 0 && j->args_file)
		rc = sj_store_private(j->args_file, j->bridge_words.data, j->bridge_words.len);
	char **argv = rc == 0 ? stap_argv(j, j->tapset_dir, j->script[0] ? j->script : NULL,
					  sj_buf_str(&j->target_cmd), false)
			      : NULL;
	if (rc == 0 && !argv)
		rc = -ENOMEM;
	if (rc < 0)
		sj_error("cannot prepare the translated script in %s: %s", j->dir, strerror(-rc));
	else
		rc = sj_run_stap(argv, &j->map, -1, -1);
	free(argv);
	return rc;
}

/* stap's argv for -l, -L, --dump-*, -h, -V into *ARGV: the user's, with our
 * tapset and the paths we use; POINTS, when not NULL, replaces -l/-L's
 * argument.  0 or -errno. */
static int listing_argv(struct job *j, const char *points, char ***argv)
{
	char **v = NULL;
	size_t n = 0;
	int rc = tmpdir_make(j);

	if (rc < 0)
		return rc;
	rc = sj_argv_push(&v, &n, j->paths.stap);
	rc |= push_generated_tapset(&v, &n, j->tapset_dir);
	for (size_t i = 0; i < j->cmd.npass; i++)
		rc |= sj_argv_push(&v, &n, points && i + 1 == j->cmd.list_at ? points : j->cmd.pass[i]);
	rc |= sj_argv_push(&v, &n, "-I");
	rc |= sj_argv_push(&v, &n, j->paths.tapset);
	if (j->cmd.script_text) {
		rc |= sj_argv_push(&v, &n, "-e");
		rc |= sj_argv_push(&v, &n, j->cmd.script_text);
	} else if (j->cmd.script_file) {
		rc |= sj_argv_push(&v, &n, j->cmd.script_file);
	}
	for (size_t i = 0; i < j->cmd.nextra; i++) {
		rc |= sj_argv_push(&v, &n, "-E");
		rc |= sj_argv_push(&v, &n, j->cmd.extra_scripts[i]);
	}
	rc |= sj_argv_push_script_args(&v, &n, &j->cmd);
	if (rc) {
		free(v);
		return -ENOMEM;
	}
	*argv = v;
	return 0;
}

/* Nothing to translate: stap answers, its output and stderr ours (there is
 * no text of the user's to show instead of a translation).  stap's exit
 * status, or -errno. */
static int run_stap_listing(struct job *j)
{
	char **v;
	int rc = listing_argv(j, NULL, &v);

	if (rc < 0)
		return rc;
	rc = sj_run_stap(v, &j->map, -1, 2);
	free(v);
	return rc;
}

/* stap -l/-L OTHERS, its output lines appended to LINES: stap's exit status,
 * or -errno. */
static int stap_lines(struct job *j, const char *others, struct sj_lines *lines)
{
	char **out = NULL, **v;
	int rc = listing_argv(j, others, &v);

	if (rc < 0)
		return rc;
	rc = sj_run_lines(v, &out);
	for (size_t i = 0; rc >= 0 && out && out[i]; i++)
		if (sj_lines_add(lines, out[i]) < 0)
			rc = -ENOMEM;
	sj_run_free_lines(out);
	free(v);
	return rc;
}

/* The names `stpd-bridge --matches -x PID` gives for L's points: what the
 * JVM has loaded (the bridge loads the agent into a JVM without one, and
 * says on stderr what went wrong).  Its exit status, or -errno. */
/* The bridge's command line that lists (MODE: --matches, --jfr-types) in
 * the JVM -x PID, loading the agent into it when it has none, with the
 * bridge options (STAPJAVA_BRIDGE_OPTS) at the end; the caller adds what to
 * list (ADD, ADD's context). 0 or nonzero. */
static int listing_bridge_argv(struct job *j, const char *mode,
			       int (*add)(const void *what, char ***v, size_t *n), const void *what,
			       char ***v, size_t *n)
{
	int rc = bridge_opts(j);

	rc |= sj_argv_push(v, n, j->paths.bridge);
	rc |= sj_argv_push(v, n, mode);
	rc |= sj_argv_push(v, n, "-x");
	rc |= sj_argv_push(v, n, j->cmd.target_pid);
	rc |= sj_argv_push(v, n, "--agent");
	rc |= sj_argv_push(v, n, j->paths.agent);
	rc |= add(what, v, n);
	for (size_t i = 0; i < j->nopts; i++)
		rc |= sj_argv_push(v, n, j->opts[i]);
	return rc;
}

/* Runs V (NULL-ended; RC: how making it went), its stdout lines into
 * *FOUND: the bridge's exit status, 1 when it cannot run (said), or -ENOMEM. */
static int run_listing_bridge(struct job *j, char **v, int rc, char ***found)
{
	if (rc) {
		free(v);
		return rc < 0 ? rc : -ENOMEM;
	}
	rc = sj_run_lines(v, found);
	if (rc < 0)
		sj_error("cannot run %s: %s", j->paths.bridge, strerror(-rc));
	free(v);
	return rc < 0 ? 1 : rc;
}

static int add_patterns(const void *what, char ***v, size_t *n)
{
	static const char *const flag[] = { [SJ_KIND_METHOD] = "-m", [SJ_KIND_CLASS] = "-c",
					    [SJ_KIND_EXCEPTION] = "-e" };
	const struct sj_list *l = what;
	int rc = 0;

	for (size_t i = 0; i < l->npoints; i++) {
		rc |= sj_argv_push(v, n, flag[l->points[i].kind]);
		rc |= sj_argv_push(v, n, pattern_text(&l->points[i].pattern, NULL));
	}
	return rc;
}

static int jvm_matches(struct job *j, const struct sj_list *l, char ***found)
{
	char **v = NULL;
	size_t n = 0;

	/* said as a run says it (the agent too: the bridge loads it into a JVM without one) */
	if (check_programs(j, true) < 0)
		return 1;
	int rc = listing_bridge_argv(j, "--matches", add_patterns, l, &v, &n);

	return run_listing_bridge(j, v, rc, found);
}

/* -l / -L of java.jfr("TYPE") points: the event types (and with -L their
 * variables and fields) of the running JVM -x PID, from `stpd-bridge
 * --jfr-types` (sj_jfr.h). Its exit status, 1 when nothing matched, or -errno. */
static int add_jfr_types(const void *what, char ***v, size_t *n)
{
	char *const *types = what;
	int rc = 0;

	for (size_t i = 0; types[i]; i++) {
		rc |= sj_argv_push(v, n, "--jfr");
		rc |= sj_argv_push(v, n, types[i]);
	}
	return rc;
}

static int run_jfr_listing(struct job *j, char **types)
{
	char **v = NULL, **found = NULL;
	size_t n = 0;
	int rc;

	if (!j->cmd.target_pid) {
		sj_error("%s %s lists the event types of a running JVM: give -x PID", j->cmd.list_vars ? "-L" : "-l",
			 j->cmd.list_point);
		return 1;
	}
	if (check_programs(j, true) < 0)
		return 1;
	rc = listing_bridge_argv(j, "--jfr-types", add_jfr_types, types, &v, &n);
	rc = run_listing_bridge(j, v, rc, &found);
	if (rc < 0)
		return rc;
	int listed = rc == 0 ? sj_jfr_list_print(found, j->cmd.list_vars) : 0;
	sj_run_free_lines(found);
	if (listed == -ENOMEM)
		return -ENOMEM;
	if (rc == 0 && listed == 0)
		sj_error("no JFR event type of JVM %s matches %s", j->cmd.target_pid, j->cmd.list_point);
	return rc ? rc : listed ? 0 : 1;
}

/* -l / -L with probe points: those that take a pattern listed from the class
 * path (sj_list.h) or, with -x PID, from what that JVM has loaded, the others
 * by stap, with -L the markers' $argN left out of the tapset's points.  The exit status: stap's when it failed, else 1
 * when something could not be read or a point selected nothing. */
static int run_point_listing(struct job *j)
{
	const char *opt = j->cmd.list_vars ? "-L" : "-l";
	struct sj_list l;
	struct sj_lines lines = { 0 };
	int rc = sj_list_parse(&l, j->cmd.list_point), status = 0, problems = 0;

	if (rc == 0 && l.nerrors) {
		fputs(sj_buf_str(&l.errors), stderr);
		status = 1;
	} else if (rc == 0 && !l.npoints && !j->cmd.list_vars) {
		status = run_stap_listing(j);	/* nothing of ours to add or take out */
		rc = status < 0 ? status : 0;
	} else if (rc == 0 && l.npoints && !j->cmd.classpath && !j->cmd.target_pid) {
		sj_error("%s %s lists from a class path or a running JVM: give --classpath CP (directories and jars, separated by ':') or -x PID",
			 opt, l.points[0].text);
		status = 1;
	} else if (rc == 0) {
		char **found = NULL;

		if (l.npoints && j->cmd.classpath)
			problems = rc = sj_list_classpath(&l, j->cmd.classpath, j->cmd.list_vars, &lines);
		else if (l.npoints) {
			/* what the bridge could not do, it said: its status is ours */
			rc = status = jvm_matches(j, &l, &found);
			if (rc == 0)
				problems = rc = sj_list_jvm(&l, found, j->cmd.target_pid, j->cmd.list_vars, &lines);
			sj_run_free_lines(found);
		}
		if (rc >= 0 && l.others.len)
			rc = status = stap_lines(j, sj_buf_str(&l.others), &lines);
		if (rc >= 0 && j->cmd.list_vars)
			sj_list_strip_args(&lines);
		/* stap sorts its lines: alone they stay as they are, with ours
		 * all are sorted together */
		if (rc >= 0)
			rc = l.npoints ? sj_list_print(&lines) : sj_lines_print(&lines);
	}
	sj_lines_free(&lines);
	sj_list_free(&l);
	if (rc == -ENOMEM)
		sj_error("out of memory");
	if (rc < 0)
		return rc;
	return status ? status : problems ? 1 : 0;
}

static int run_listing(struct job *j)
{
	char **types = NULL, err[400];
	int rc;

	if (!j->cmd.list_point)
		return run_stap_listing(j);
	rc = sj_jfr_list_parse(j->cmd.list_point, &types, err, sizeof err);
	if (rc == -EINVAL) {
		sj_error("%s", err);
		return 1;
	}
	if (rc <= 0)
		return rc < 0 ? rc : run_point_listing(j);
	rc = run_jfr_listing(j, types);
	for (size_t i = 0; types[i]; i++)
		free(types[i]);
	free(types);
	return rc;
}

/* With -x and a run to the end: a pid that is no JVM the bridge may serve
 * ends stap-java before stap builds anything (the bridge says why), instead
 * of a session that waits for events that cannot come. */
static int check_target(struct job *j)
{
	char *argv[] = { (char *)j->paths.bridge, "--check", "-x", (char *)j->cmd.target_pid, NULL };
	char **lines = NULL;

	if (!j->uses_java || !j->cmd.target_pid || j->cmd.pass_stop < 5)
		return 0;
	int rc = sj_run_lines(argv, &lines);
	sj_run_free_lines(lines);
	if (rc < 0)
		sj_error("cannot run %s --check: %s", j->paths.bridge, strerror(-rc));
	return rc;
}

/* What stap's messages call __stapjava_sN is java.KIND("PATTERN").EVENT. */
static int name_slot_points(struct job *j)
{
	if (!j->tr.nslots)
		return 0;
	j->slot_points = calloc(j->tr.nslots, sizeof *j->slot_points);
	if (!j->slot_points)
		return -ENOMEM;
	for (size_t i = 0; i < j->tr.nslots; i++) {
		const struct sj_slot *sl = &j->tr.slots[i];
		if (sl->java ? asprintf(&j->slot_points[i], "%s", sl->java->text) < 0 :
		    asprintf(&j->slot_points[i], "java.%s(\"%s\").%s", sj_kind_name(sl->kind),
			     sl->pattern, sl->event) < 0) {
			j->slot_points[i] = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

static void job_free(struct job *j)
{
	for (size_t i = 0; j->slot_points && i < j->tr.nslots; i++)
		free(j->slot_points[i]);
	free(j->slot_points);
	for (size_t i = 0; j->extra && i < j->cmd.nextra; i++)
		sj_buf_free(&j->extra[i]);
	free(j->extra);
	workdir_remove(j);
	sj_buf_free(&j->source);
	sj_buf_free(&j->main_text);
	sj_buf_free(&j->aliases);
	sj_buf_free(&j->paths_text);
	sj_buf_free(&j->bridge_args);
	sj_buf_free(&j->bridge_words);
	sj_buf_free(&j->target_cmd);
	free(j->java_opts);
	free(j->opts);
	free(j->opts_copy);
	free(j->args_file);
	sj_run_free_lines(j->fix);
	sj_translation_free(&j->tr);
	sj_cmdline_free(&j->cmd);
}

static int stap_java(struct job *j, int argc, char **argv)
{
	char err[256];
	int rc = sj_cmdline_parse(&j->cmd, argc, argv, err, sizeof err);

	if (rc < 0) {
		sj_error("%s", err);
		return 1;
	}
	j->paths = (struct paths){
		.bridge = env_or("STAPJAVA_BRIDGE", SJ_BRIDGE_PATH),
		.agent = env_or("STAPJAVA_AGENT", SJ_AGENT_PATH),
		.tapset = env_or("STAPJAVA_TAPSET", SJ_TAPSET_DIR),
		.fix = env_or("STAPJAVA_RUNTIME_FIX", SJ_RUNTIME_FIX),
	};
	rc = sj_real_stap(j->stap, sizeof j->stap);
	if (rc < 0) {
		sj_error("%s", rc == -ENOENT ? "no stap in PATH but stap-java itself: install SystemTap, or set STAPJAVA_STAP"
					     : "the path of stap is too long");
		return 1;
	}
	/* for what this run starts (stap-runtime-fix calls stap): the same one */
	if (rc == 1)
		setenv("STAPJAVA_STAP", j->stap, 1);
	j->paths.stap = j->stap;
	if (check_path("bridge", j->paths.bridge) < 0 || check_path("agent", j->paths.agent) < 0)
		return 1;
	if (sj_emit_paths(j->paths.bridge, j->paths.agent, &j->paths_text) < 0) {
		sj_error("out of memory");
		return 1;
	}
	if (j->cmd.classpath && !j->cmd.list_point) {
		sj_error("--classpath is for -l and -L: it says where their java.method, java.class and java.exception points are listed from");
		return 1;
	}
	if (j->cmd.listing || (!j->cmd.script_file && !j->cmd.script_text)) {
		rc = run_listing(j);
		return rc < 0 ? 1 : rc;
	}
	sj_translation_init(&j->tr, j->cmd.script_args, j->cmd.nargs);
	rc = translate(j);
	if (rc < 0) {
		if (rc == -ENOMEM)
			sj_error("out of memory");
		return 1;
	}
	if (j->tr.nerrors) {
		sj_diag_summary(&j->tr.errors, j->tr.nerrors);
		fprintf(stderr, "%sPass 1: parse failed.  [stap-java]\n", sj_buf_str(&j->tr.errors));
		return 1;
	}
	if (j->tr.needs_resolution) {
		rc = resolve(j);
		if (rc != 0)
			return rc < 0 ? 1 : rc;
	}
	rc = generate(j);
	if (rc == 0)
		rc = name_slot_points(j);
	if (rc == 0 && j->cmd.print_target) {
		/* for a harness that runs staprun -c elsewhere (testsuite/vm/stap-vm) */
		printf("%s\n", j->target_cmd.len ? sj_buf_str(&j->target_cmd) : j->cmd.command);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (rc == 0 && !j->cmd.dump && (check_installed(j) < 0 || check_target(j) != 0))
		return 1;
	if (rc == 0)
		rc = runtime_fix(j);
	if (rc < 0) {
		if (rc == -ENOMEM)
			sj_error("out of memory");
		return 1;
	}
	if (j->cmd.dump)
		return dump(j) < 0 ? 1 : 0;
	rc = run(j);
	return rc < 0 ? 1 : rc;
}

int main(int argc, char **argv)
{
	struct job j = { 0 };

	sj_log_open("stap-java", -1, SJ_LOG_WARN);
	int status = stap_java(&j, argc, argv);
	job_free(&j);
	return status;
}
