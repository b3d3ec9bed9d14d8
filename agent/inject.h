/* inject.h: method.enter by a call injected at the start of each matched method.
 *
 * Why: MethodEntry interprets every method of the VM and a breakpoint keeps
 * its method interpreted; an injected call (classfile.h) costs one native
 * call per invocation of a matched method only, and the method stays
 * JIT-compiled, so method.compile can be watched at the same time.
 *
 * Contract: the call goes to stapjava.Probe.enter(int site), a class of ours
 * defined in the boot loader (visible from every loader; each named module
 * that gets a call is made to read it). The site id leads to the method
 * (resolved on its first call, from the caller's frame).
 *
 * inject_update() runs with JNI (I/O thread or a ClassPrepare callback) after
 * registrations change. Classes are only changed when MAY_RETRANSFORM, which
 * the caller gives while no method.return (MethodExit) is wanted: on JDK 17 a
 * MethodExit event from a method version that a retransformation made
 * obsolete crashed the VM now and then (a 10-round kill test, about 1 run in
 * 60). Under MethodExit every method is interpreted anyway, so injected calls
 * would gain nothing there: method.enter falls back to breakpoints, and calls
 * already in place stay, returning at once. With WANT_ENTER it turns the ClassFileLoadHook on, so
 * classes loaded from now on get their calls, and retransforms the loaded
 * classes in which a wanted method has no call yet; it returns true when
 * injection cannot report every wanted method.enter (no
 * can_retransform_classes, a wanted native method, a class the rewriter
 * refuses or the VM fails to retransform): it then leaves no call in place and
 * the caller falls back to breakpoints (bpentry.h). A class the VM does not
 * let anyone change (IsModifiableClass: hidden classes) is no reason to fall
 * back: its methods get breakpoints beside the calls
 * (inject_needs_breakpoints). Without WANT_ENTER, every class we changed goes
 * back to its original bytes. Calls left in methods no longer wanted cost a
 * native call that returns at once, until the last method.enter goes.
 */
#ifndef STAPJAVA_AGENT_INJECT_H
#define STAPJAVA_AGENT_INJECT_H

#include <jvmti.h>
#include <stdbool.h>

bool inject_update(JNIEnv *jni, bool want_enter, bool may_retransform);
/* From ClassPrepare: module readability for a class we changed. Returns true
 * when a full update is needed (a wanted method could not get its call). */
bool inject_class_prepared(JNIEnv *jni, jclass klass, const char *sig);
/* Injected calls are how method.enter is reported right now. */
bool inject_active(void);
/* Calls are on and cover KLASS: it needs no breakpoint. */
bool inject_covers(jclass klass);
/* Calls are on, and some wanted class cannot be changed (a hidden class, such
 * as a lambda's): its methods need breakpoints (bpentry.h) beside the calls. */
bool inject_needs_breakpoints(void);
/* Capabilities injection needs (those the VM can give). */
void inject_want_capabilities(jvmtiCapabilities *want, const jvmtiCapabilities *potential);
void JNICALL cb_class_file_load_hook(jvmtiEnv *jv, JNIEnv *jni, jclass class_being_redefined,
				     jobject loader, const char *name, jobject protection_domain,
				     jint class_data_len, const unsigned char *class_data,
				     jint *new_class_data_len, unsigned char **new_class_data);
struct mmatch;
/* The method of an injected call's SITE (found from the calling frame once)
 * and who wants its method.enter (conns[MC_ENTER] only). 0 or -errno. */
int inject_site_match(jint site, struct mmatch *m);

#endif
