/* nullagent.c: libnullagent.so, a JVMTI agent that asks for method events
 * and does nothing with them: the cost of JVMTI itself, the baseline the
 * stapjava agent's figures are read against.
 *
 *   java -agentpath:build/bench/libnullagent.so[=entry|=breakpoint=CLASS.METHOD] ...
 *
 * Contract: at load it adds can_generate_method_entry_events and
 * can_generate_method_exit_events and enables MethodEntry and MethodExit
 * for every thread, with empty callbacks. The option string "entry" asks
 * for MethodEntry only (the exit capability is not added either: holding it
 * already costs HotSpot something). "breakpoint=CLASS.METHOD" (CLASS in
 * internal or dotted form, no package wildcard) reports method entry the way
 * the stapjava agent does by default (agent/bpentry.h): a breakpoint at
 * bytecode index 0 of every method METHOD of CLASS, set when the class is
 * prepared, with an empty Breakpoint callback. Any other option string, or a JVMTI
 * failure, prints one line and fails the load (the JVM does not start),
 * as the real agent does with a mistyped option: a baseline that silently
 * measured nothing would mislead.
 */
#include <stdio.h>
#include <string.h>

#include <jvmti.h>

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
				    jmethodID method)
{
}

static void JNICALL on_method_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
				   jboolean popped, jvalue value)
{
}

static char bp_class_sig[512];    /* "LWorkload;" */
static const char *bp_method;

static void JNICALL on_breakpoint(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
				  jlocation location)
{
}

static void JNICALL on_class_prepare(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jclass klass)
{
	char *sig = NULL;
	jint n = 0;
	jmethodID *methods = NULL;

	if ((*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE)
		return;
	if (strcmp(sig, bp_class_sig) == 0 &&
	    (*jvmti)->GetClassMethods(jvmti, klass, &n, &methods) == JVMTI_ERROR_NONE) {
		for (jint i = 0; i < n; i++) {
			char *name = NULL;
			if ((*jvmti)->GetMethodName(jvmti, methods[i], &name, NULL, NULL) != JVMTI_ERROR_NONE)
				continue;
			if (strcmp(name, bp_method) == 0)
				(*jvmti)->SetBreakpoint(jvmti, methods[i], 0);
			(*jvmti)->Deallocate(jvmti, (unsigned char *)name);
		}
		(*jvmti)->Deallocate(jvmti, (unsigned char *)methods);
	}
	(*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
}

/* "breakpoint=a.b.C.m" -> bp_class_sig "La/b/C;", bp_method "m". */
static int parse_breakpoint(const char *spec)
{
	const char *dot = strrchr(spec, '.');
	size_t clen = dot ? (size_t)(dot - spec) : 0;

	if (!dot || clen == 0 || !dot[1] || clen + 3 > sizeof bp_class_sig)
		return -1;
	bp_class_sig[0] = 'L';
	for (size_t i = 0; i < clen; i++)
		bp_class_sig[i + 1] = spec[i] == '.' ? '/' : spec[i];
	bp_class_sig[clen + 1] = ';';
	bp_class_sig[clen + 2] = '\0';
	bp_method = dot + 1;
	return 0;
}

static jint fail(const char *what, jvmtiError err)
{
	fprintf(stderr, "libnullagent: %s failed (JVMTI error %d)\n", what, (int)err);
	return JNI_ERR;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	jvmtiEnv *jvmti = NULL;
	jvmtiCapabilities caps;
	jvmtiEventCallbacks cb;
	jvmtiError err;
	int exits = 1;

	if (options && strcmp(options, "entry") == 0)
		exits = 0;
	else if (options && strncmp(options, "breakpoint=", 11) == 0) {
		if (parse_breakpoint(options + 11) < 0) {
			fprintf(stderr, "libnullagent: breakpoint=%s: want CLASS.METHOD\n", options + 11);
			return JNI_ERR;
		}
	} else if (options && options[0]) {
		fprintf(stderr, "libnullagent: unknown option '%s' (only 'entry' or 'breakpoint=CLASS.METHOD')\n",
			options);
		return JNI_ERR;
	}
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK || !jvmti) {
		fprintf(stderr, "libnullagent: no JVMTI 1.2 environment\n");
		return JNI_ERR;
	}
	memset(&caps, 0, sizeof caps);
	if (bp_method) {
		caps.can_generate_breakpoint_events = 1;
		err = (*jvmti)->AddCapabilities(jvmti, &caps);
		if (err != JVMTI_ERROR_NONE)
			return fail("AddCapabilities", err);
		memset(&cb, 0, sizeof cb);
		cb.Breakpoint = on_breakpoint;
		cb.ClassPrepare = on_class_prepare;
		err = (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof cb);
		if (err != JVMTI_ERROR_NONE)
			return fail("SetEventCallbacks", err);
		err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_PREPARE, NULL);
		if (err == JVMTI_ERROR_NONE)
			err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_BREAKPOINT, NULL);
		return err == JVMTI_ERROR_NONE ? JNI_OK : fail("enabling ClassPrepare and Breakpoint", err);
	}
	caps.can_generate_method_entry_events = 1;
	caps.can_generate_method_exit_events = exits;
	err = (*jvmti)->AddCapabilities(jvmti, &caps);
	if (err != JVMTI_ERROR_NONE)
		return fail("AddCapabilities", err);
	memset(&cb, 0, sizeof cb);
	cb.MethodEntry = on_method_entry;
	if (exits)
		cb.MethodExit = on_method_exit;
	err = (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof cb);
	if (err != JVMTI_ERROR_NONE)
		return fail("SetEventCallbacks", err);
	err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_ENTRY, NULL);
	if (err != JVMTI_ERROR_NONE)
		return fail("enabling MethodEntry", err);
	if (exits) {
		err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_METHOD_EXIT,
							 NULL);
		if (err != JVMTI_ERROR_NONE)
			return fail("enabling MethodExit", err);
	}
	return JNI_OK;
}
