/* natwrap.h: native methods wrapped in the JVM, by JVMTI's native-method prefix.
 *
 * Why: a native has no bytecode for the injected calls, so a native a
 * registration selects gets a Java method in front of it (cfwrap.h writes
 * the class). Only a class's first definition may add a method; every later
 * retransformation of the class, ours or another agent's, must wrap the same
 * natives again, or the VM refuses it. Which ones comes from the VM's own
 * list of the class's methods, not from a table of ours.
 *
 * Contract: natwrap_setup(), once the capabilities are added, sets our
 * prefix (not with methods=jvmti, nor without the capability: said once).
 * natwrap_class(), from the class-file hook, for a class of a loader other
 * than the boot loader's (its natives may be intrinsics, or look at their
 * caller's frame, which a wrapper would move): at its first definition
 * (REDEFINED NULL) wraps the natives FIRST_SELECT picks (NULL: none, no
 * registration selects a method of the class), unless INJECTING is false by
 * then, and remembers which; at a retransformation of a class it wrapped,
 * those again. Returns the number wrapped with *OUT malloc()ed, or 0:
 * nothing to wrap, or a failure (logged; the class is then changed without
 * its natives wrapped). The table of wrapped classes holds one entry per
 * class with wrapped natives while its loader lives (an entry whose loader
 * was collected goes, said in the log, when the table is next used).
 * natwrap_any(): some class has wrapped natives, so the hook must see every
 * retransformation for the JVM's life. natwrap_enabled(): the prefix is set. Any thread.
 */
#ifndef STAPJAVA_AGENT_NATWRAP_H
#define STAPJAVA_AGENT_NATWRAP_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfwrap.h"

void natwrap_setup(void);
bool natwrap_enabled(void);
bool natwrap_any(void);
/* SIG is the class's JVM signature ("Lcom/acme/Shop;"). */
int natwrap_class(JNIEnv *jni, const char *sig, jclass redefined, jobject loader,
		  cfwrap_select_fn first_select, void *ctx, const atomic_bool *injecting,
		  const uint8_t *in, size_t len, uint8_t **out, size_t *out_len);

#endif
