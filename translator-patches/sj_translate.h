/* sj_translate.h: rewriting java.method/class/exception probe points into slot probes.
 *
 * Contract: sj_translate_text() is called once per script text of a stap run (the
 * main script first, then each -E script), all with the same translation, which
 * collects what the generated code needs: the slot table (one slot per distinct
 * kind, event and normalised pattern, in order of first use), the event families
 * and optional data the script uses, and whether it has probes that need
 * synchronous dispatch.  The rewritten text has every byte of the input at the
 * same line and column, except on the first line of a rewritten point.
 * Errors in the Java syntax are appended to t->errors in stap's format and
 * counted in t->nerrors; the return value is only about memory (0 or -ENOMEM).
 *
 * Slots are numbered when their text is rewritten, in every branch of every %( %)
 * conditional and in every @define body, so at most SJ_MAX_SLOTS over all of them.
 * Which of them stap keeps, and what the kept probe points are, only stap's
 * preprocessor knows: when a script has a %( (a conditional or a macro) or a probe
 * point starting with @ or $ (a macro, an argument pasted in), t->needs_resolution
 * is set, and the caller gives stap -p1's parse tree of the translated scripts to
 * sj_translation_resolve(), which recomputes the slots used, families, optional
 * data and the points that decide dispatch from it.  Otherwise the user's text
 * decides alone, and every slot is used.
 *
 * SystemTap's own java("PNAME"|PID).class("C").method("M")[.return] points
 * (sj_java.h) get a slot each (one per point text, so that pn() is the point's),
 * and in the handler of a probe that has one, stap's Java variables and
 * functions are rewritten in place, never longer than the user's text;
 * a .return whose handler reads the arguments gets an enter slot of its own
 * (a companion, used exactly when its return slot is) that keeps them.
 */
#ifndef STAPJAVA_SJ_TRANSLATE_H
#define STAPJAVA_SJ_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sj_buf.h"
#include "sj_java.h"
#include "sj_jfr.h"

#define SJ_MAX_SLOTS 256	/* markers slot0 .. slot255 of stpd-bridge */
#define SJ_SLOT_PREFIX "__stapjava_s"

enum sj_kind { SJ_KIND_METHOD, SJ_KIND_CLASS, SJ_KIND_EXCEPTION };

enum sj_optional { SJ_OPT_ARGS = 1, SJ_OPT_RETURN = 2, SJ_OPT_STACK = 4, SJ_OPT_MONITOR = 8 };

/* The optional data a script asks for by using its variables: an
 * identifier that contains WORD asks the bridge for OPTION. */
struct sj_optional_desc {
	const char *word;	/* "java_stack" */
	enum sj_optional bit;
	const char *option;	/* "--stack" */
};
#define SJ_N_OPTIONAL 4u
extern const struct sj_optional_desc sj_optional_data[SJ_N_OPTIONAL];

struct sj_slot {
	enum sj_kind kind;
	const char *event;	/* static: "enter", "load", ... */
	char *pattern;		/* normalised by pattern_compile */
	bool used;		/* registered with the bridge: in a probe point stap keeps */
	struct sj_java_point *java;	/* SystemTap's java(...) form (sj_java.h), NULL: ours */
};

struct sj_translation {
	struct sj_slot slots[SJ_MAX_SLOTS];
	size_t nslots;
	unsigned families;	/* EVENT_FAMILY_BIT()s of the java.gc/thread/monitor/vm points (events.h) */
	unsigned optional;	/* enum sj_optional bits */
	char **other_points;	/* first components of non-Java probe points */
	size_t nother;
	char **aliases;		/* names the script defines as probe aliases */
	size_t naliases;
	struct sj_buf errors;
	unsigned nerrors;
	char *const *script_args;	/* for @1 .. @N */
	size_t nscript_args;
	bool needs_resolution;	/* see above */
	struct sj_jfr_points jfr;	/* the java.jfr points (sj_jfr.h) */
};

void sj_translation_init(struct sj_translation *t, char *const *script_args, size_t nargs);
void sj_translation_free(struct sj_translation *t);

/* Rewrite BUF[0..LEN), named NAME in messages, appending the result to OUT. */
int sj_translate_text(struct sj_translation *t, const char *name, const char *buf, size_t len,
		      struct sj_buf *out);

/* Recompute t's slots used, families, optional data, other points and aliases from
 * PARSED, stap -p1's output for the translated scripts (no conditional, no macro
 * left): 0 or -ENOMEM. */
int sj_translation_resolve(struct sj_translation *t, const char *parsed, size_t len);

/* Is a slot or a java.jfr point used, or a java.gc/vm/thread/monitor family? */
bool sj_translation_uses_java(const struct sj_translation *t);

/* Does the script have a probe point that is neither Java nor one of begin, end,
 * error, never, timer.* (an alias the script defines counts by its definition)? */
bool sj_translation_wants_sync(const struct sj_translation *t);

/* "method", "class", "exception" */
const char *sj_kind_name(enum sj_kind kind);

#endif
