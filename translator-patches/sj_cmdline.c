/* sj_cmdline.c: see sj_cmdline.h. */
#include "sj_cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stap 4.8's short options that take an argument (its getopt string). */
static const char short_with_arg[] = "pIeEoRramcxDsdlLSBJGT";

/* stap 4.8's long options that require an argument (so "--opt VALUE" is two words). */
static const char *const long_with_arg[] = {
	"vp", "modinfo", "runtime", "privilege", "compatible", "remote", "tmpdir",
	"sysroot", "sysenv", "target-namespace", "rlimit-as", "rlimit-cpu",
	"rlimit-nproc", "rlimit-stack", "rlimit-fsize", "benchmark-sdt-loops",
	"benchmark-sdt-threads",
};

int sj_argv_push(char ***v, size_t *n, const char *s)
{
	char **bigger = realloc(*v, (*n + 2) * sizeof **v);
	if (!bigger)
		return -ENOMEM;
	*v = bigger;
	bigger[(*n)++] = (char *)s;
	bigger[*n] = NULL;
	return 0;
}

int sj_argv_push_script_args(char ***v, size_t *n, const struct sj_cmdline *c)
{
	int rc = 0;

	if (c->nargs)
		rc |= sj_argv_push(v, n, "--");
	for (size_t i = 0; i < c->nargs; i++)
		rc |= sj_argv_push(v, n, c->script_args[i]);
	return rc ? -ENOMEM : 0;
}

static bool long_takes_arg(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof long_with_arg / sizeof long_with_arg[0]; i++)
		if (strlen(long_with_arg[i]) == len && memcmp(long_with_arg[i], name, len) == 0)
			return true;
	return false;
}

static void note_runtime(struct sj_cmdline *c, const char *mode)
{
	if (strcmp(mode, "kernel") != 0)
		c->non_kernel_runtime = true;
}

static int short_option(struct sj_cmdline *c, char opt, const char *value);

/* A long option ARG ("--name" or "--name=value"); *I moves past its value. */
static int long_option(struct sj_cmdline *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const char *value = eq ? eq + 1 : NULL;

	if (strcmp(arg, "--dump") == 0) {
		c->dump = true;
		return 0;
	}
	if (strcmp(arg, "--java-sync") == 0 || strcmp(arg, "--java-async") == 0) {
		c->sync = arg[7] == 's' ? SJ_SYNC_ON : SJ_SYNC_OFF;
		return 0;
	}
	if (len == 9 && memcmp(name, "classpath", 9) == 0) {
		if (!eq && *i + 1 >= argc) {
			snprintf(err, errlen, "option '%s' requires an argument", arg);
			return -EINVAL;
		}
		c->classpath = eq ? value : argv[++*i];
		return 0;
	}
	if (len == 14 && memcmp(name, "target-command", 14) == 0) {
		if (!eq && *i + 1 >= argc) {
			snprintf(err, errlen, "option '%s' requires an argument", arg);
			return -EINVAL;
		}
		c->print_target = true;
		return short_option(c, 'c', eq ? value : argv[++*i]);
	}
	int rc = sj_argv_push(&c->pass, &c->npass, arg);
	if (!eq && long_takes_arg(name, len)) {
		if (*i + 1 >= argc) {
			snprintf(err, errlen, "option '%s' requires an argument", arg);
			return -EINVAL;
		}
		value = argv[++*i];
		rc |= sj_argv_push(&c->pass, &c->npass, value);
	}
	if (len == 7 && memcmp(name, "runtime", 7) == 0 && value)
		note_runtime(c, value);
	if (strcmp(arg, "--bpf") == 0 || strcmp(arg, "--dyninst") == 0)
		c->non_kernel_runtime = true;
	if (strncmp(name, "dump-", 5) == 0 || strcmp(arg, "--help") == 0 ||
	    strcmp(arg, "--version") == 0 || strncmp(name, "list-servers", 12) == 0)
		c->listing = true;
	return rc ? -ENOMEM : 0;
}

/* The value of short option OPT: what follows it in the same word, or the next word. */
static int short_value(int argc, char **argv, int *i, const char *rest, char opt,
		       const char **value, char *err, size_t errlen)
{
	if (*rest) {
		*value = rest;
		return 0;
	}
	if (*i + 1 >= argc) {
		snprintf(err, errlen, "option requires an argument -- '%c'", opt);
		return -EINVAL;
	}
	*value = argv[++*i];
	return 0;
}

static int short_option(struct sj_cmdline *c, char opt, const char *value)
{
	static char words[64][3];	/* "-X" for each option letter passed on */
	static size_t nwords;
	char *word = NULL;

	switch (opt) {
	case 'e': c->script_text = value; return 0;
	case 'E': return sj_argv_push(&c->extra_scripts, &c->nextra, value);
	case 'p': c->pass_stop = atoi(value); break;
	case 'r': c->kernel = value; break;
	case 'x': c->target_pid = value; c->x_at = c->npass + 1; break;
	case 'c': c->command = value; c->c_at = c->npass + 1; break;
	case 'R': c->runtime_given = true; break;
	case 'l': case 'L': case 'h': case 'V': c->listing = true; break;
	default: break;
	}
	for (size_t k = 0; k < nwords && !word; k++)
		if (words[k][1] == opt)
			word = words[k];
	if (!word && nwords < 64) {
		word = words[nwords++];
		word[0] = '-';
		word[1] = opt;
		word[2] = '\0';
	}
	size_t at = c->npass;
	int rc = sj_argv_push(&c->pass, &c->npass, word);
	if (value)
		rc |= sj_argv_push(&c->pass, &c->npass, value);
	if (!rc && (opt == 'l' || opt == 'L')) {
		c->list_point = value;
		c->list_at = c->npass;
		c->list_vars = opt == 'L';
	}
	/* stap-java's pass-1 run sets its own -p; -o, -c, -x, -k and -i are about
	 * later passes and would only get in its way */
	if (!rc && strchr("pocxki", opt)) {
		size_t *bigger = realloc(c->pass1_drop, (c->npass1_drop + 2) * sizeof *bigger);
		if (!bigger)
			return -ENOMEM;
		c->pass1_drop = bigger;
		for (size_t k = at; k < c->npass; k++)
			c->pass1_drop[c->npass1_drop++] = k;
	}
	return rc;
}

bool sj_cmdline_pass1_drops(const struct sj_cmdline *c, size_t i)
{
	for (size_t k = 0; k < c->npass1_drop; k++)
		if (c->pass1_drop[k] == i)
			return true;
	return false;
}

int sj_cmdline_parse(struct sj_cmdline *c, int argc, char **argv, char *err, size_t errlen)
{
	char **words = NULL;	/* non-option words: the script, then its arguments */
	size_t nwords = 0;
	int rc = 0;

	memset(c, 0, sizeof *c);
	c->pass_stop = 5;
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--") == 0) {
			while (++i < argc && rc == 0)
				rc = sj_argv_push(&words, &nwords, argv[i]);
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0') {
			rc = sj_argv_push(&words, &nwords, arg);
			continue;
		}
		if (arg[1] == '-') {
			rc = long_option(c, argc, argv, &i, err, errlen);
			continue;
		}
		for (const char *p = arg + 1; *p && rc == 0; p++) {
			const char *value = NULL;
			if (strchr(short_with_arg, *p)) {
				rc = short_value(argc, argv, &i, p + 1, *p, &value, err, errlen);
				if (rc == 0)
					rc = short_option(c, *p, value);
				break;
			}
			rc = short_option(c, *p, NULL);
		}
	}
	if (rc == 0) {
		size_t first = 0;
		if (!c->script_text && nwords > 0)
			c->script_file = words[first++];
		for (size_t k = first; k < nwords && rc == 0; k++)
			rc = sj_argv_push(&c->script_args, &c->nargs, words[k]);
	}
	free(words);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

void sj_cmdline_free(struct sj_cmdline *c)
{
	free(c->pass);
	free(c->pass1_drop);
	free(c->extra_scripts);
	free(c->script_args);
	memset(c, 0, sizeof *c);
}
