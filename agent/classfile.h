/* classfile.h: put a call to stapjava.Probe.enter(int) in front of chosen methods of a class file.
 *
 * Why: method.enter by injected bytecode costs only the calls of the matched
 * methods, and those methods stay JIT-compiled (design.md, the seed's "third
 * way"); breakpoints keep them interpreted, MethodEntry slows every method.
 *
 * Contract: classfile_inject_enter() parses IN (JVMS chapter 4). For each
 * method with a Code attribute it asks SELECT, which returns a site id >= 0
 * to instrument the method or -1 to leave it. An instrumented method's code
 * starts with
 *     ldc_w <Integer id>; invokestatic stapjava/Probe.enter(I)V; nop; nop
 * 8 bytes, a multiple of 4, so tableswitch/lookupswitch padding is unchanged.
 * Branches are relative and need nothing; a branch to the old first
 * instruction now lands after the call, so the call runs once per invocation.
 * Absolute offsets move by 8: the exception table, the first StackMapTable
 * frame's offset and every Uninitialized(offset) type in any frame,
 * LineNumberTable and LocalVariable(Type)Table, where ranges that began at 0
 * still begin at 0 (the call has the method's first line and sees its
 * parameters). Constant-pool entries are appended, never renumbered.
 *
 * Returns the number of methods instrumented (0: *OUT untouched), -EINVAL for
 * a malformed class file, -ENOTSUP for one this rewriter will not change (a
 * Code attribute it cannot shift, such as type annotations, or a JVMS limit),
 * -ENOMEM. *OUT is malloc()ed; *WHY says in a few words what was wrong.
 * Pure: no JVMTI, no global state.
 */
#ifndef STAPJAVA_AGENT_CLASSFILE_H
#define STAPJAVA_AGENT_CLASSFILE_H

#include <stddef.h>
#include <stdint.h>

#define CLASSFILE_PROBE_CLASS "stapjava/Probe"
#define CLASSFILE_PROBE_METHOD "enter"
#define CLASSFILE_PROBE_DESC "(I)V"
#define CLASSFILE_INJECT_LEN 8

/* NAME and DESC are the method's modified-UTF-8 bytes (not NUL-terminated). */
typedef int32_t (*classfile_select_fn)(void *ctx, const char *name, size_t name_len,
				       const char *desc, size_t desc_len, uint16_t access);

int classfile_inject_enter(const uint8_t *in, size_t len, classfile_select_fn select, void *ctx,
			   uint8_t **out, size_t *out_len, const char **why);

/* The class the calls go to: public final stapjava.Probe (version 52) with one
 * method, public static native enter(I)V. *OUT is malloc()ed; 0 or -ENOMEM. */
int classfile_probe_class(uint8_t **out, size_t *out_len);

#endif
