/* fuzz_jfrspec.c: libFuzzer target for the JFR wishes (runtime/jfrspec.c):
 * a bridge's JfrSettings lines are read there by the agent, so every byte
 * of them is untrusted.
 *
 * Input: one entry, a NUL, then an event type name to match.
 *
 * Oracles (any failure aborts, which libFuzzer reports as a crash):
 *  - parsing returns 0, or -EINVAL with a one-line message;
 *  - a parsed entry's pattern, names and values lie inside the input, within
 *    their bounds, and the entry written back from them parses to the same;
 *  - a pattern without '*' selects exactly the name equal to it, and '*'
 *    alone selects every name;
 *  - every value parses as a duration or is refused, without overflow;
 *  - and ASan/UBSan.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void die(const char *what)
{
	fprintf(stderr, "fuzz_jfrspec: %s\n", what);
	abort();
}

static bool inside(const struct jfrspec_text *t, const char *s, size_t n, size_t max)
{
	return t->p >= s && t->p + t->n <= s + n && t->n >= 1 && t->n <= max;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nul = memchr(data, 0, size);
	size_t n = nul ? (size_t)(nul - s) : size;
	char name[600], err[400], back[1200];
	struct jfrspec_entry e, again;
	size_t nl = nul ? size - n - 1 : 0, bl;
	int rc;

	if (nl >= sizeof name)
		nl = sizeof name - 1;
	memcpy(name, nul ? nul + 1 : "", nl);
	name[nl] = '\0';
	err[0] = '\0';
	rc = jfrspec_parse(s, n, &e, err, sizeof err);
	if (rc != 0 && rc != -EINVAL)
		die("a return other than 0 and -EINVAL");
	if (rc) {
		if (!err[0] || strchr(err, '\n'))
			die("a refusal without a one-line message");
		return 0;
	}
	if (!inside(&e.pattern, s, n, JFRSPEC_MAX_PATTERN) || e.nsettings > JFRSPEC_MAX_SETTINGS)
		die("the pattern is outside the input or its bounds");
	bl = (size_t)snprintf(back, sizeof back, "%.*s", (int)e.pattern.n, e.pattern.p);
	for (size_t i = 0; i < e.nsettings; i++) {
		int64_t ns;
		if (!inside(&e.name[i], s, n, JFRSPEC_MAX_NAME) || !inside(&e.value[i], s, n, JFRSPEC_MAX_VALUE))
			die("a setting is outside the input or its bounds");
		if (jfrspec_duration_ns(&e.value[i], &ns) == 0 && ns < 0)
			die("a negative duration");
		bl += (size_t)snprintf(back + bl, sizeof back - bl, "%c%.*s=%.*s", i ? ';' : '#',
				       (int)e.name[i].n, e.name[i].p, (int)e.value[i].n, e.value[i].p);
	}
	if (bl != n || memcmp(back, s, n) != 0 || jfrspec_parse(back, bl, &again, err, sizeof err) != 0 ||
	    again.nsettings != e.nsettings)
		die("the entry written back is not the entry");
	if (!memchr(e.pattern.p, '*', e.pattern.n)) {
		bool same = strlen(name) == e.pattern.n && memcmp(name, e.pattern.p, e.pattern.n) == 0;
		if (jfrspec_match(&e.pattern, name) != same)
			die("a literal pattern selects a name other than itself");
	}
	struct jfrspec_text star = { "*", 1 };
	if (!jfrspec_match(&star, name))
		die("'*' does not select a name");
	jfrspec_match(&e.pattern, name);
	return 0;
}
