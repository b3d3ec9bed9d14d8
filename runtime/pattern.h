/* pattern.h — names of Java methods and classes, and the patterns that select them.
 *
 * Contract (shared by the JVMTI agent and the bridge, so both agree byte for byte):
 *  - Wire names.  A method is "<dotted class>.<name><descriptor>", e.g.
 *    "java.io.BufferedWriter.write(I)V"; name_method_wire() builds it.  Classes and
 *    exceptions travel as JVMTI class signatures: "Ljava/lang/String;", "[I".
 *    Names are standard UTF-8 (the agent converts JVMTI's modified UTF-8), and
 *    patterns are matched byte for byte against them.
 *  - Patterns.  `*` is the only wildcard; it matches any run of bytes, empty included,
 *    '.', '/', '(', ')', ';' included.  Every other byte matches itself.
 *    pattern_compile() normalises what users write: for methods, '/' -> '.' before
 *    the '(' and '.' -> '/' from it on; a method pattern without '(' is matched
 *    against the part of the name before '(' (so it selects every overload).
 *    For classes, "L...;" is stripped, '/' -> '.', and an array signature ("[I") is
 *    turned into Java form ("int[]"); class patterns match the Java form of the
 *    signature: "java.lang.String", "int[]", "java.lang.String[][]", "Outer$Inner".
 *  - Lines.  A method pattern may end in ":LINE" (a positive decimal number): it
 *    selects the line's site, whose wire name is the method's followed by ":LINE"
 *    (the agent's line probes).  Without a '(' it is given "(*)*" before the line.
 *    A name with a line is selected only by a pattern with that line, never by a
 *    pattern without one (so "C.*" does not select the lines of C's methods).
 *  - Roots.  A method pattern "^CLASS.rest" (CLASS without '*') selects what
 *    "CLASS.rest" selects and the same method part in every class that
 *    descends from CLASS. Only pattern_match_method_via() knows descent (its
 *    caller says which class descends from which); pattern_match_method()
 *    and the index (patindex.h) see CLASS's own methods only, as '^' is the
 *    first byte of the text, which no name has.
 *  - Compiling validates and may fail; matching never allocates, never fails, and takes
 *    O(pattern * name) time at worst, with no backtracking blow-up.
 *  - Functions return 0, a length, or a negative errno value; they never print or exit.
 * User-facing rules: doc/patterns.md.
 */
#ifndef STAPJAVA_PATTERN_H
#define STAPJAVA_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Longest pattern accepted, in bytes, before and after normalisation. */
#define PATTERN_MAX_LEN 4096

enum pattern_kind {
	PATTERN_METHOD = 1,	/* java.method("...") */
	PATTERN_CLASS,		/* java.class("...") and java.exception("...") */
};

/* Caller-owned and fixed-size so matching needs no heap.  Fill only with
 * pattern_compile(); read only through the functions below. */
struct pattern {
	enum pattern_kind kind;
	bool has_descriptor;	/* method pattern contains '(' */
	bool has_star;
	size_t len;		/* of text, without the NUL */
	size_t prefix_len;	/* literal bytes before the first '*' */
	size_t suffix_len;	/* literal bytes after the last '*' */
	uint32_t line;		/* method pattern ending ":LINE" (0: none) */
	size_t root_len;	/* "^CLASS.m": CLASS's length (text[1..]); 0: not one */
	char text[PATTERN_MAX_LEN + 1];	/* normalised, NUL-terminated */
};

/* Compile TEXT[0..LEN) into *P.  Returns 0, or -EINVAL for a malformed pattern,
 * -ENAMETOOLONG for one longer than PATTERN_MAX_LEN; then ERR (if not NULL) holds a
 * NUL-terminated message naming the fault and its byte offset in TEXT. */
int pattern_compile(struct pattern *p, enum pattern_kind kind, const char *text,
		    size_t len, char *err, size_t errlen);

/* Does method pattern P select the wire method name NAME[0..LEN)? */
bool pattern_match_method(const struct pattern *p, const char *name, size_t len);

/* Does CLS[0..CLEN) (dotted) descend from ROOT[0..RLEN) (dotted, another
 * class)? Asked by pattern_match_method_via() for a root pattern. */
typedef bool (*pattern_descends_fn)(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen);
/* pattern_match_method(), but a root pattern ("^C.m") also selects the
 * method part in a class DESCENDS says descends from C (NULL: none does). */
bool pattern_match_method_via(const struct pattern *p, const char *name, size_t len,
			      pattern_descends_fn descends, void *ctx);
/* The root class of a root pattern (dotted, not NUL-terminated), NULL for
 * any other pattern. */
const char *pattern_root(const struct pattern *p, size_t *len);

/* Does class pattern P select the class whose JVMTI signature is SIG[0..LEN)?
 * A malformed signature matches nothing. */
bool pattern_match_class(const struct pattern *p, const char *sig, size_t len);
/* The same for a class name from a peer, in any of the forms the seed and
 * JVMTI use: "Ljava/lang/Object;", the seed's "Ljava/lang/Object", or the
 * Java form "java.lang.Object". */
bool pattern_match_class_name(const struct pattern *p, const char *name, size_t len);

/* Might method pattern P select some method of the class DOTTED[0..LEN) (Java form,
 * "java.io.BufferedWriter")?  False only when none can match: a cheap test on the
 * pattern's literal prefix, for callers that would otherwise name every method. */
bool pattern_method_may_select_class(const struct pattern *p, const char *dotted, size_t len);

/* What an index of patterns files P under (patindex.h): its kind; the literal
 * bytes before its first '*' (all of it without one) and after its last
 * (into *LEN; pointers into P's text); whether it is a method pattern with
 * a descriptor (without one it is matched against the name before '('). */
enum pattern_kind pattern_kind_of(const struct pattern *p);
const char *pattern_prefix(const struct pattern *p, size_t *len);
const char *pattern_suffix(const struct pattern *p, size_t *len);
bool pattern_has_descriptor(const struct pattern *p);

/* A compiled pattern takes PATTERN_MAX_LEN bytes of text whatever its length:
 * a table of thousands (an agent connection's registrations) keeps copies
 * that hold the text only as far as its NUL. pattern_size() is the bytes
 * such a copy takes; pattern_dup() makes one with malloc (NULL: no memory),
 * which every function here takes as it takes P, and which free() ends. A
 * copy is used through its pointer only: never copied by value. */
size_t pattern_size(const struct pattern *p);
struct pattern *pattern_dup(const struct pattern *p);

/* The normalised text of P (NUL-terminated); *LEN gets its length if LEN is not NULL.
 * Compiling it again gives the same pattern, so it is what the bridge sends on. */
const char *pattern_text(const struct pattern *p, size_t *len);

/* The line a method pattern ends with, 0 for none. */
uint32_t pattern_line(const struct pattern *p);

/* True when P has no '*': it names exactly one class, or one method (or, without a
 * descriptor, one method name with all its overloads). */
bool pattern_is_literal(const struct pattern *p);

/* Java form of a JVMTI class signature into OUT (NUL-terminated):
 * "Ljava/lang/String;" -> "java.lang.String", "[I" -> "int[]", "[[LA$B;" -> "A$B[][]".
 * Returns the length, -EINVAL for a malformed signature, -ENAMETOOLONG if OUT is short. */
ssize_t name_class_signature_to_dotted(const char *sig, size_t len, char *out, size_t outlen);
/* The same for a class name in any form pattern_match_class_name() takes. */
ssize_t name_class_any_to_dotted(const char *name, size_t len, char *out, size_t outlen);

/* The wire name of method METHOD with DESCRIPTOR (which starts with '(') declared by
 * the class with JVMTI signature CLASS_SIG, into OUT (NUL-terminated). The pieces are
 * as JVMTI and class files give them, in modified UTF-8; the wire name is standard
 * UTF-8 (mutf8.h, MUTF8_NAME), so the agent's two sources of names agree.
 * Returns the length, -EINVAL for bad arguments, -ENAMETOOLONG if OUT is short
 * (OUT must hold the pieces before conversion). */
ssize_t name_method_wire(char *out, size_t outlen, const char *class_sig,
			 const char *method, const char *descriptor);
/* The same with METHOD and DESCRIPTOR given by length (not NUL-terminated:
 * straight from a class file's constant pool). */
ssize_t name_method_wire_n(char *out, size_t outlen, const char *class_sig, const char *method,
			   size_t mlen, const char *descriptor, size_t dlen);

#endif /* STAPJAVA_PATTERN_H */
