/* inject.h: method.enter and method.return by calls injected into the matched methods.
 *
 * Why: JVMTI MethodEntry and MethodExit make HotSpot interpret every method
 * of the VM while they are on (a real database workload ran at 0.008x with
 * one return probe), and a breakpoint keeps its method interpreted. Calls
 * injected into the matched methods only (classfile.h) cost a native call
 * per event; everything else, and those methods too, stay JIT-compiled.
 *
 * Contract: inject_update() runs with JNI on the I/O thread after
 * registrations change. While some connection wants method enter or return
 * events it keeps the ClassFileLoadHook on, so classes loaded from then on
 * get their calls as they load, and retransforms the loaded classes in which
 * a wanted method lacks a call it needs (enter: a prologue with the
 * arguments; return: code before every return and a handler for the
 * exceptional exit). Each class gets calls for the union of what every
 * connection wants, so one session's registrations never take away another's
 * calls; calls no longer wanted stay until the last registration goes and
 * return at once. When none is wanted any more, every changed class goes back
 * to its original code. A class the VM refuses to retransform, or a method the
 * rewriter refuses, is recorded (records.h) and logged once; fallback.h
 * reports what it can of it, as of classes the VM will not let anyone
 * change (hidden classes). The class-file hook runs on the loading thread; nothing
 * here waits on a Java thread.
 *
 * Natives: when a class other than the boot loader's is first defined while
 * a registration selects one of its native methods for method events, that
 * native is wrapped (natwrap.h) and its wrapper gets the calls like any
 * method. Every later retransformation of the class wraps the same natives
 * again (natwrap.h remembers which), so the hook
 * stays on for the JVM's life once any native was wrapped, and the wrappers
 * stay, calling through, when no registration wants them any more. A native
 * of a class loaded before the registration, or of the boot loader's, is
 * said by fallback.h.
 */
#ifndef STAPJAVA_AGENT_INJECT_H
#define STAPJAVA_AGENT_INJECT_H

#include <jvmti.h>
#include <stdbool.h>
#include <stdint.h>

struct mentry;

/* WANT: some connection wants method enter or return events. JNI NULL at VM
 * death: the hook goes off, nothing is retransformed. */
void inject_update(JNIEnv *jni, bool want);
/* Injected calls report method events now. */
bool inject_active(void);
/* Do injected calls report EVENTS (WIRE_METHOD_ENTER / _RETURN) of method E
 * of KLASS (signature SIG)? If not, fallback.h must, and knows why. */
enum inject_cover {
	INJECT_COVERED,
	INJECT_NOT,          /* injection off, or the class or method refused (logged) */
	INJECT_HIDDEN,       /* a class the VM lets nobody change */
	INJECT_SKIPPED,      /* an empty finalize(): never called by the VM, never probed */
	/* not yet: a class the hook has not seen since injection went on (no
	 * record), so loaded before and prepared after the update's scan; its
	 * ClassPrepare gives it its calls (inject_class_prepared), then
	 * fallback_class_prepared looks at it again */
	INJECT_PENDING,
};
enum inject_cover inject_covers(JNIEnv *jni, jclass klass, const char *sig, const struct mentry *e,
				uint8_t events);
/* Is LOCATION of METHOD a catch (the start of the catch-all or of its
 * count) or, with RETHROW, a throw (the call of Probe.thrown that found no
 * stack, either athrow) of the handler that reports an exceptional exit
 * (either copy in a constructor; codeattr.h)? Its Exception and
 * ExceptionCatch events are not the program's: cb_exception.c drops them. */
bool inject_own_handler(jmethodID method, jlocation location, bool rethrow);
/* From ClassPrepare, before fallback.h looks at the class: a class whose
 * bytes went past the class-file hook before the registration (loaded
 * before, prepared after the update that scanned the prepared classes) and
 * that lacks calls a wanted method needs is retransformed now, before any
 * of its code runs (waiting for an update under way); a class we changed
 * in a named module must read Probe's. */
void inject_class_prepared(JNIEnv *jni, jclass klass, const char *sig);
/* Capabilities injection needs (those the VM can give). */
void inject_want_capabilities(jvmtiCapabilities *want, const jvmtiCapabilities *potential);
void JNICALL cb_class_file_load_hook(jvmtiEnv *jv, JNIEnv *jni, jclass class_being_redefined,
				     jobject loader, const char *name, jobject protection_domain,
				     jint class_data_len, const unsigned char *class_data,
				     jint *new_class_data_len, unsigned char **new_class_data);

#endif
