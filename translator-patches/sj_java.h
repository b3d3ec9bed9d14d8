/* sj_java.h: SystemTap's own Java probe points (stapprobes(3stap), JAVA),
 *     java("PNAME").class("CLASSNAME").method("PATTERN")[.return]
 *     java(PID).class("CLASSNAME").method("PATTERN")[.return]
 * read into what stap-java's slots need (man/stapprobes-java.3stap, "SystemTap's
 * java() probe points").
 *
 * Contract:
 *  - sj_java_parse() reads the point whose `java` token is TK[I] (TK[I+1] is
 *    `(`): on success it fills *P (owned: sj_java_point_free) and returns the
 *    index of the first token after it; on a fault it returns the index where
 *    scanning goes on, with ERR->tok the token to blame and ERR->msg stap's
 *    wording where stap has one.  The method pattern becomes one of our method
 *    patterns (pattern.h): a Java-source signature "m(int,String,Foo[])" its
 *    descriptor ("m(ILjava/lang/String;[L*Foo;)*"), "m" every overload; what
 *    a pattern cannot say exactly (a class or a parameter type without its
 *    package, but for java.lang's) is said by P->check, a regular expression
 *    (stap's =~) the method's wire name must match.  ARGS: the script's
 *    arguments, for @N.
 *  - sj_java_rewrite() looks at TK[I] inside the handler of a probe with such a
 *    point: when it starts one of stap's Java variables or functions ($argN,
 *    user_string*($argN), pn(), pp(), [s]print_java_backtrace()) it returns how
 *    many tokens that is and writes the replacement into OUT, never longer than
 *    the text it replaces (the caller pads with spaces, so columns stay); else 0.
 *    *NEEDS gets the SJ_OPT_* data the handler then asks for, whether it
 *    rewrote or not (arg1..arg10 ask for the arguments).
 *    user_string*($name) is the method as written in .method("...") (what
 *    stap's own tests print); sj_java_unservable() names what a handler may
 *    not use (a bare $name: stap's is a pointer, which we have not), NULL
 *    for anything else.
 *  - sj_java_alias_prologue() writes the statements a slot's alias adds for P:
 *    the JVM and signature checks, pn() and pp(), arg1..arg10 and their
 *    numbers (ARGS_FROM: the expression of the arguments' text).
 */
#ifndef STAPJAVA_SJ_JAVA_H
#define STAPJAVA_SJ_JAVA_H

#include <stdbool.h>
#include <stddef.h>

#include "sj_buf.h"
#include "sj_lex.h"

#define SJ_JAVA_MAX_PARAMS 10	/* stap's limit: arg1 .. arg10 */

struct sj_java_point {
	char *text;		/* the point as stap prints it: pn() and pp() */
	char *name;		/* user_string($name): the method as written in .method("...") */
	char *jvm;		/* PNAME, or the PID's digits */
	bool by_pid;
	bool ret;		/* .return */
	char *pattern;		/* our method pattern */
	char *check;		/* a regular expression for java_name, NULL: none needed */
	int nparams;		/* -1: every overload, types unknown */
	unsigned line;		/* method("m(...):LINE"): that line's probe; 0: the method's */
	int companion;		/* .return: the enter slot that keeps the arguments, -1: none */
	bool is_companion;	/* this slot is such an enter slot */
	unsigned optional;	/* enum sj_optional bits its handlers need */
};

struct sj_java_error {
	size_t tok;		/* index of the token to blame */
	char msg[256];
};

size_t sj_java_parse(const struct sj_token *tk, size_t n, size_t i, char *const *args, size_t nargs,
		     struct sj_java_point *p, struct sj_java_error *err);
void sj_java_point_free(struct sj_java_point *p);
/* A deep copy of P (for the companion slot): 0 or -ENOMEM. */
int sj_java_point_copy(struct sj_java_point *to, const struct sj_java_point *p);

size_t sj_java_rewrite(const struct sj_token *tk, size_t n, size_t i, char *out, size_t outlen,
		       unsigned *needs);
const char *sj_java_unservable(const struct sj_token *tk, size_t n, size_t i);

/* The key under which the arguments of a method entry of companion slot
 * COMPANION are kept until its return (a stap expression). */
int sj_java_alias_prologue(const struct sj_java_point *p, int slot, struct sj_buf *out);

#endif
