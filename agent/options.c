/* options.c: see options.h. */
#include "options.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

void options_defaults(struct agent_options *o)
{
	memset(o, 0, sizeof(*o));
	o->loglevel = SJ_LOG_WARN;
	o->bufsize = OPT_BUFSIZE_DEFAULT;
	o->timeout_us = OPT_TIMEOUT_DEFAULT;
	o->strmax = OPT_STRMAX_DEFAULT;
	o->stackmax = OPT_STACKMAX_DEFAULT;
	o->threadbuf = OPT_THREADBUF_DEFAULT;
}

static int parse_u32(const char *v, size_t n, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char buf[24];
	char *end;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, n);
	buf[n] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	unsigned long long x = strtoull(buf, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return -EINVAL;
	*out = (uint32_t)x;
	return 0;
}

static int copy_path(const char *v, size_t n, char *out, size_t outlen)
{
	if (n == 0 || n >= outlen || v[0] != '/')
		return -EINVAL;
	memcpy(out, v, n);
	out[n] = '\0';
	return 0;
}

/* The options, one row each: what a value must be and where it goes. The
 * "unknown option" message lists the keys from here. */
enum option_type { OPTION_PATH, OPTION_LOGLEVEL, OPTION_NUMBER, OPTION_WORD };

/* OPTION_WORD: the value is the index of its word (an int field). */
static const char *const methods_words[] = { [OPT_METHODS_INJECT] = "inject", [OPT_METHODS_JVMTI] = "jvmti",
					     [OPT_METHODS_FALLBACK] = "fallback", NULL };
static const char *const clock_words[] = { [OPT_CLOCK_AUTO] = "auto", [OPT_CLOCK_TSC] = "tsc",
					   [OPT_CLOCK_MONOTONIC] = "monotonic", NULL };

static const struct option_desc {
	const char *key;
	enum option_type type;
	size_t offset;            /* in struct agent_options */
	size_t size;              /* OPTION_PATH: the buffer's */
	uint32_t lo, hi;          /* OPTION_NUMBER */
	const char *unit;         /* OPTION_NUMBER: "bytes" ... */
	const char *const *words; /* OPTION_WORD, NULL-terminated */
} option_table[] = {
#define FIELD(f) offsetof(struct agent_options, f), sizeof(((struct agent_options *)0)->f)
	{ "sockdir", OPTION_PATH, FIELD(sockdir), 0, 0, NULL, NULL },
	{ "loglevel", OPTION_LOGLEVEL, FIELD(loglevel), 0, 0, NULL, NULL },
	{ "logfile", OPTION_PATH, FIELD(logfile), 0, 0, NULL, NULL },
	{ "bufsize", OPTION_NUMBER, FIELD(bufsize), OPT_BUFSIZE_MIN, OPT_BUFSIZE_MAX, "bytes", NULL },
	{ "timeout_us", OPTION_NUMBER, FIELD(timeout_us), 0, OPT_TIMEOUT_MAX, "microseconds", NULL },
	{ "strmax", OPTION_NUMBER, FIELD(strmax), 0, OPT_STRMAX_MAX, "bytes", NULL },
	{ "stackmax", OPTION_NUMBER, FIELD(stackmax), 1, 256, "frames", NULL },
	{ "wait_ms", OPTION_NUMBER, FIELD(wait_ms), 0, OPT_WAIT_MAX, "milliseconds", NULL },
	{ "threadbuf", OPTION_NUMBER, FIELD(threadbuf), OPT_THREADBUF_MIN, OPT_THREADBUF_MAX, "bytes", NULL },
	{ "methods", OPTION_WORD, FIELD(methods), 0, 0, NULL, methods_words },
	{ "clock", OPTION_WORD, FIELD(clock), 0, 0, NULL, clock_words },
#undef FIELD
};
#define N_OPTIONS (sizeof option_table / sizeof option_table[0])

static int parse_value(const struct option_desc *d, const char *v, size_t vlen, void *field,
		       char *err, size_t errlen)
{
	char lv[8];
	int n = -1;

	switch (d->type) {
	case OPTION_PATH:
		if (copy_path(v, vlen, field, d->size) == 0)
			return 0;
		snprintf(err, errlen, "option %s='%.*s': needs an absolute path", d->key, (int)vlen, v);
		return -EINVAL;
	case OPTION_LOGLEVEL:
		if (vlen < sizeof(lv)) {
			memcpy(lv, v, vlen);
			lv[vlen] = '\0';
			n = sj_log_parse_level(lv);
		}
		if (n >= 0) {
			*(int *)field = n;
			return 0;
		}
		snprintf(err, errlen, "option %s='%.*s': not one of error, warn, info, debug", d->key,
			 (int)vlen, v);
		return -EINVAL;
	case OPTION_NUMBER:
		if (parse_u32(v, vlen, d->lo, d->hi, field) == 0)
			return 0;
		snprintf(err, errlen, "option %s='%.*s': not a number of %s from %u to %u", d->key,
			 (int)vlen, v, d->unit, d->lo, d->hi);
		return -EINVAL;
	case OPTION_WORD: {
		int k = snprintf(err, errlen, "option %s='%.*s': not one of ", d->key, (int)vlen, v);
		for (int i = 0; d->words[i]; i++) {
			if (vlen == strlen(d->words[i]) && memcmp(v, d->words[i], vlen) == 0) {
				*(int *)field = i;
				err[0] = '\0';
				return 0;
			}
			if (k >= 0 && (size_t)k < errlen)
				k += snprintf(err + k, errlen - (size_t)k, "%s%s", i ? ", " : "", d->words[i]);
		}
		return -EINVAL;
	}
	}
	return -EINVAL;
}

static int parse_one(const char *key, size_t klen, const char *v, size_t vlen,
		     struct agent_options *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_desc *d = &option_table[i];
		if (strlen(d->key) == klen && memcmp(d->key, key, klen) == 0)
			return parse_value(d, v, vlen, (char *)o + d->offset, err, errlen);
	}
	int n = snprintf(err, errlen, "unknown option '%.*s' (known: ", (int)klen, key);
	for (size_t i = 0; i < N_OPTIONS && n >= 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, "%s%s", option_table[i].key,
			      i + 1 < N_OPTIONS ? ", " : ")");
	return -EINVAL;
}

int options_parse(const char *text, struct agent_options *o, char *err, size_t errlen)
{
	options_defaults(o);
	if (!text)
		return 0;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', n);
		if (n == 0) {
			snprintf(err, errlen, "empty option in '%s'", text);
			return -EINVAL;
		}
		if (!eq) {
			snprintf(err, errlen, "option '%.*s' has no value (write key=value)", (int)n, p);
			return -EINVAL;
		}
		int rc = parse_one(p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1, o, err, errlen);
		if (rc)
			return rc;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}
