/* options.c: see options.h. */
#include "options.h"

#include <errno.h>
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

static int parse_one(const char *key, size_t klen, const char *v, size_t vlen,
		     struct agent_options *o, char *err, size_t errlen)
{
#define KEY(s) (klen == sizeof(s) - 1 && memcmp(key, s, klen) == 0)
#define BAD(fmt, ...) (snprintf(err, errlen, fmt, __VA_ARGS__), -EINVAL)
	if (KEY("sockdir")) {
		if (copy_path(v, vlen, o->sockdir, sizeof(o->sockdir)))
			return BAD("option sockdir='%.*s': needs an absolute path", (int)vlen, v);
	} else if (KEY("logfile")) {
		if (copy_path(v, vlen, o->logfile, sizeof(o->logfile)))
			return BAD("option logfile='%.*s': needs an absolute path", (int)vlen, v);
	} else if (KEY("loglevel")) {
		char lv[8];
		int lvl = -EINVAL;
		if (vlen < sizeof(lv)) {
			memcpy(lv, v, vlen);
			lv[vlen] = '\0';
			lvl = sj_log_parse_level(lv);
		}
		if (lvl < 0)
			return BAD("option loglevel='%.*s': not one of error, warn, info, debug", (int)vlen, v);
		o->loglevel = lvl;
	} else if (KEY("bufsize")) {
		if (parse_u32(v, vlen, OPT_BUFSIZE_MIN, OPT_BUFSIZE_MAX, &o->bufsize))
			return BAD("option bufsize='%.*s': not a number of bytes from %u to %u",
				   (int)vlen, v, OPT_BUFSIZE_MIN, OPT_BUFSIZE_MAX);
	} else if (KEY("timeout_us")) {
		if (parse_u32(v, vlen, 0, OPT_TIMEOUT_MAX, &o->timeout_us))
			return BAD("option timeout_us='%.*s': not a number of microseconds from 0 to %u",
				   (int)vlen, v, OPT_TIMEOUT_MAX);
	} else if (KEY("strmax")) {
		if (parse_u32(v, vlen, 0, OPT_STRMAX_MAX, &o->strmax))
			return BAD("option strmax='%.*s': not a number of bytes from 0 to %u",
				   (int)vlen, v, OPT_STRMAX_MAX);
	} else if (KEY("stackmax")) {
		if (parse_u32(v, vlen, 1, 256, &o->stackmax))
			return BAD("option stackmax='%.*s': not a number of frames from 1 to 256", (int)vlen, v);
	} else if (KEY("wait_ms")) {
		if (parse_u32(v, vlen, 0, OPT_WAIT_MAX, &o->wait_ms))
			return BAD("option wait_ms='%.*s': not a number of milliseconds from 0 to %u",
				   (int)vlen, v, OPT_WAIT_MAX);
	} else if (KEY("methods")) {
		static const char *const ways[] = { [OPT_METHODS_INJECT] = "inject", [OPT_METHODS_JVMTI] = "jvmti" };
		int way = -1;
		for (int i = 0; i < 2; i++)
			if (vlen == strlen(ways[i]) && memcmp(v, ways[i], vlen) == 0)
				way = i;
		if (way < 0)
			return BAD("option methods='%.*s': not one of inject, jvmti", (int)vlen, v);
		o->methods = way;
	} else {
		return BAD("unknown option '%.*s' (known: sockdir, loglevel, logfile, bufsize, "
			   "timeout_us, strmax, stackmax, wait_ms, methods)", (int)klen, key);
	}
	return 0;
#undef KEY
#undef BAD
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
