/* cfwrap.h: native methods wrapped in Java methods, so that injected calls can report them.
 *
 * Why: a native method has no bytecode for a call to go into. With JVMTI's
 * native-method prefix (SetNativeMethodPrefix), an agent renames a native to
 * PREFIX+name and puts a Java method of the old name in front of it; the VM
 * still binds the renamed native to the old name's JNI function or
 * RegisterNatives entry. That adds a method, which only a class's first
 * definition may do: every later retransformation must wrap the same natives
 * again (natwrap.h).
 *
 * Contract: cfwrap_natives() reads IN with cfmethods_read() (a class it
 * refuses is refused with its reason, whether or not a native is at fault:
 * the VM's format check refuses such a class too) and asks SELECT about each
 * native method of a class that is not an interface (not an initializer,
 * whose flags the VM ignores but static's, nor one whose name has the
 * prefix already). Each one picked is
 * renamed PREFIX+name and made private and synthetic (static kept; nothing
 * else, no attributes), and a method with the old name, descriptor, access
 * (all but native) and attributes is appended whose code passes its
 * parameters to the renamed one (invokestatic, or invokespecial: this class's
 * own, never an override) and returns what it returns. Constants are
 * appended, never renumbered; nothing else changes. Returns the number of
 * natives wrapped (0: *OUT untouched), -EINVAL for a malformed class file,
 * -ENOTSUP for one this will not change (the pool, the methods or a name
 * would overflow), -ENOMEM. *OUT is malloc()ed; *WHY says in a few words
 * what was wrong. Pure: no JVMTI, no global state.
 */
#ifndef STAPJAVA_AGENT_CFWRAP_H
#define STAPJAVA_AGENT_CFWRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The agent's prefix (SetNativeMethodPrefix): a method whose name starts
 * with it is a wrapped native, which nothing matches, lists or reports. */
#define CFWRAP_AGENT_PREFIX "$$stapjava$$"

/* NAME and DESC are the native's modified-UTF-8 bytes (not NUL-terminated). */
typedef bool (*cfwrap_select_fn)(void *ctx, const char *name, size_t name_len, const char *desc,
				 size_t desc_len, uint16_t access);

int cfwrap_natives(const uint8_t *in, size_t len, const char *prefix, cfwrap_select_fn select,
		   void *ctx, uint8_t **out, size_t *out_len, const char **why);

#endif
