/* classfile.h: calls to stapjava.Probe injected into chosen methods of a class file.
 *
 * Why: method events by injected bytecode cost only the calls of the
 * matched methods, which stay JIT-compiled (design.md, the seed's "third
 * way"); JVMTI MethodEntry/MethodExit make HotSpot interpret every method of
 * the VM, and a breakpoint keeps its method interpreted.
 *
 * Contract: classfile_inject() parses IN (JVMS chapter 4) and asks SELECT
 * about each method with code. A picked method gets, as it asks:
 *  - enter: at offset 0 (branches to 0 jump over it, so it runs once per
 *    call), `Probe.enter(site)`; with parameters `if (Probe.enterArgs(site))
 *    { Probe.argX(p1); ...; Probe.entered(site); }`, each argX by the
 *    parameter's kind (int-like, long, float, double, reference);
 *  - exit: before every return, the value duplicated and passed with the
 *    site to `Probe.retX(value, site)` (retV for void); and a handler for any
 *    throwable over the whole body (in a constructor only where `this` is
 *    initialized, preinit.h) that calls `Probe.thrown(throwable, site)` and
 *    rethrows it. A report that fails there (a StackOverflowError: the call
 *    found no stack left) is counted without a call by a second handler
 *    over that call: `Probe.lost[site / CLASSFILE_LOST_ROW][site %
 *    CLASSFILE_LOST_ROW] += 1; Probe.overflows += 1`, then it rethrows what
 *    the call threw. An exit's site must be below CLASSFILE_SITES_MAX (the
 *    method is refused otherwise); the agent makes the rows before a class
 *    with the site is defined.
 *  - lines: SELECT_LINES, when given, is asked once per method with code and
 *    a LineNumberTable about its lines (each distinct line once, by
 *    increasing number); a line given a site gets `Probe.enter(site)` in front
 *    of its first instruction (the lowest offset the table gives it), where
 *    branches to that instruction now land, so it runs each time the line
 *    is reached there (every turn of a loop that starts at it). The values
 *    on the operand stack and the locals are left as they were.
 *  - notify: SELECT_NOTIFY, when given, is asked once per kind (notify()V,
 *    notifyAll()V) that some method of the class invokes (invokevirtual,
 *    invokespecial or invokeinterface of a method reference whose
 *    NameAndType is that name and descriptor, whatever class it names: both
 *    are final in Object). With a site, each such invocation gets in front
 *    of it `dup; Probe.notify(receiver, site)`, labelled like a line's call;
 *    the operand stack is as it was after it. Object.notify is native, so
 *    its callers are where a call can report it.
 * Everything else is relocated (codeedit.h): branches, switches, the
 * exception table, StackMapTable (stackmap.h, with the frames the new code
 * needs), LineNumberTable, LocalVariable(Type)Table and type annotations in
 * code. max_stack grows by what the calls need. Constants are appended to the
 * pool, never renumbered. A picked method this cannot rewrite (a conditional
 * branch that would no longer reach, code near 64 KiB, an unknown attribute
 * in its code, malformed code) is left as it was and reported through
 * REFUSED with the reason; the rest of the class is still rewritten.
 *
 * Returns the number of methods rewritten (0: *OUT untouched), -EINVAL for
 * a malformed class file, -ENOTSUP for one this will not change at all (the
 * pool would overflow), -ENOMEM. *OUT is malloc()ed; *WHY says in a few
 * words what was wrong. Pure: no JVMTI, no global state.
 */
#ifndef STAPJAVA_AGENT_CLASSFILE_H
#define STAPJAVA_AGENT_CLASSFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLASSFILE_PROBE_CLASS "stapjava/Probe"
/* Probe's static fields that count the exits whose report failed (above) */
#define CLASSFILE_LOST_NAME "lost"
#define CLASSFILE_LOST_DESC "[[I"
#define CLASSFILE_OVERFLOWS_NAME "overflows"
#define CLASSFILE_OVERFLOWS_DESC "I"
#define CLASSFILE_LOST_ROW 4096u
#define CLASSFILE_SITES_MAX (4096u * 1024u)

/* The static native methods of stapjava.Probe, in one table that the
 * rewriter (constants, calls) and the agent (RegisterNatives) both read. */
enum classfile_probe_fn {
	CF_ENTER, CF_ENTER_ARGS, CF_ARG_I, CF_ARG_J, CF_ARG_F, CF_ARG_D, CF_ARG_L, CF_ENTERED,
	CF_RET_V, CF_RET_I, CF_RET_J, CF_RET_F, CF_RET_D, CF_RET_L, CF_THROWN,
	CF_NOTIFY, CF_NPROBE
};
/* The functions whose constants every rewritten class gets; CF_NOTIFY's
 * are appended only to a class that gets notify calls. */
#define CF_NFIXED CF_NOTIFY
struct classfile_probe_method {
	const char *name, *desc;
};
extern const struct classfile_probe_method classfile_probe_methods[CF_NPROBE];

struct classfile_pick {
	int32_t site;            /* out: < 0 leaves the method alone */
	bool enter, exit;
	bool lone_return;        /* in: the code is one `return` and nothing else */
};

struct classfile_hooks {
	void *ctx;
	/* NAME and DESC are the method's modified-UTF-8 bytes (not NUL-terminated). */
	void (*select)(void *ctx, const char *name, size_t name_len, const char *desc,
		       size_t desc_len, uint16_t access, struct classfile_pick *pick);
	void (*refused)(void *ctx, const char *name, size_t name_len, const char *desc,
			size_t desc_len, const char *why);
	/* Optional. LINES[0..N): the method's lines; the hook sets SITES[k] to
	 * line k's site, or leaves it -1 (no call). */
	void (*select_lines)(void *ctx, const char *name, size_t name_len, const char *desc,
			     size_t desc_len, uint16_t access, const uint32_t *lines, size_t n,
			     int32_t *sites);
	/* Optional. The site of the calls in front of the class's invocations
	 * of notify()V (ALL false) or notifyAll()V (ALL true); < 0 for none. */
	int32_t (*select_notify)(void *ctx, bool all);
};

int classfile_inject(const uint8_t *in, size_t len, const struct classfile_hooks *hooks,
		     uint8_t **out, size_t *out_len, const char **why);

/* The class the calls go to: public final stapjava.Probe (version 52) with
 * the methods of classfile_probe_methods, all public static native, and the
 * public static fields `lost` and `overflows` (null and 0 until the agent
 * sets them). *OUT is
 * malloc()ed; 0 or -ENOMEM. */
int classfile_probe_class(uint8_t **out, size_t *out_len);

#endif
