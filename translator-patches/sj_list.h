/* sj_list.h: stap-java -l / -L for the probe points that take a pattern,
 * listed from the class files of a class path; the others are stap's.
 *
 * Contract:
 *  - SystemTap's java("PNAME").class("C").method("M")[.return] points
 *    (sj_java.h) are listed like java.method ones, each line in that form
 *    with the method's class and its parameters in Java source form
 *    (java("App").class("shop.Cart").method("add(int,java.lang.String)")),
 *    and with VARS also "argN:string $argN:long" for each parameter (none on a
 *    line); class("^C") lists C's and every override of the class path (or
 *    JVM) in its class.
 *  - sj_list_parse() reads -l/-L's argument POINTS as stap reads it, as
 *    "probe POINTS {}" named <input>: mistakes in the Java syntax go to
 *    L->errors in stap's format, counted in L->nerrors.  Each point
 *    java.method/class/exception("PATTERN")[.EVENT] goes to L->points, with
 *    its text as written, its kind, its event (the default one when none is
 *    written) and its compiled pattern; the other points, joined with ',',
 *    to L->others ("" when there are none).
 *  - sj_list_classpath() appends to LINES one line per method (java.method)
 *    or class (java.class, java.exception) of the class path CP
 *    (sj_classpath.h) that a point of L selects, as stap -l/-L prints a probe
 *    point: the point with the name for its pattern, ".EVENT", and with VARS
 *    the variables its slot's alias sets, " NAME:TYPE" each (sj_emit.h).
 *    Methods are named as the agent names them (pattern.h: dotted class,
 *    name, descriptor, in UTF-8), classes in Java form; abstract and native
 *    methods, which never fire, are left out, and so are, for
 *    java.exception, interfaces and the classes whose superclasses, as far
 *    as the class path has them, end at java.lang.Object without
 *    java.lang.Throwable.  What cannot be read, a malformed class file (named
 *    with its jar) and a point that selects nothing are said on stderr;
 *    returns how many there were, or -ENOMEM.
 *  - sj_list_jvm() does the same for the names FOUND (NULL-terminated)
 *    that `stpd-bridge --matches -x PID` printed for L's points: "method
 *    NAME", "class NAME" or "exception NAME", what the JVM has loaded now.
 *  - sj_list_strip_args() removes the words $argN:TYPE from the lines of
 *    LINES that start with "java." (the tapset's aliases do not offer the
 *    markers' arguments), keeping every other line as it is.
 *  - sj_list_print() prints LINES sorted, each once (and keeps them so);
 *    sj_lines_print() as they are.  0, or -EIO.
 */
#ifndef STAPJAVA_SJ_LIST_H
#define STAPJAVA_SJ_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "pattern.h"
#include "sj_buf.h"
#include "sj_translate.h"

struct sj_java_point;

struct sj_list_point {
	char *text;		/* as written: java.method("Shop.*").return */
	enum sj_kind kind;
	const char *event;	/* static: "enter" ... */
	struct pattern pattern;
	size_t matched;
	struct sj_java_point *java;	/* SystemTap's java(...) form (sj_java.h), NULL: ours */
	void *check;		/* its check (a regex_t), NULL: none */
};

struct sj_list {
	struct sj_list_point *points;
	size_t npoints;
	struct sj_buf others;
	struct sj_buf errors;
	unsigned nerrors;
};

struct sj_lines {
	char **v;
	size_t n, cap;
};

int sj_list_parse(struct sj_list *l, const char *points);
void sj_list_free(struct sj_list *l);
int sj_list_jvm(struct sj_list *l, char *const *found, const char *pid, bool vars, struct sj_lines *lines);
int sj_list_classpath(struct sj_list *l, const char *cp, bool vars, struct sj_lines *lines);
void sj_list_strip_args(struct sj_lines *lines);
/* Append a copy of S: 0 or -ENOMEM. */
int sj_lines_add(struct sj_lines *lines, const char *s);
int sj_list_print(struct sj_lines *lines);
int sj_lines_print(const struct sj_lines *lines);
void sj_lines_free(struct sj_lines *lines);

#endif
