/* nullagent.c: libnullagent.so, a JVMTI agent that asks for method events
 * and does nothing with them: the cost of JVMTI itself, the baseline the
 * stapjava agent's figures are read against.
 *
 *   java -agentpath:build/bench/libnullagent.so[=entry|=breakpoint-capability|=breakpoint=CLASS.METHOD|=inject=PATTERN|=inject-return=PATTERN] ...
 *
 * Contract: at load it adds can_generate_method_entry_events and
 * can_generate_method_exit_events and enables MethodEntry and MethodExit
 * for every thread, with empty callbacks. The option string "entry" asks
 * for MethodEntry only (the exit capability is not added either: holding it
 * already costs HotSpot something). CLASS below is in internal or dotted
 * form, no package wildcard; only the capabilities a mode needs are added.
 *
 * "inject=PATTERN" reports method entry the way the stapjava agent does by
 * default (agent/inject.h): every method with code that the method pattern
 * PATTERN selects (runtime/pattern.h, as a java.method("PATTERN") probe
 * point or the bridge's --slot selects it: "Workload.hot", every overload of
 * hot in Workload; "org.hsqldb.jdbc.*", every method of that package) gets
 * agent/classfile.c's enter call (and, with "inject-return=PATTERN", its
 * return and exceptional-exit calls too) from a ClassFileLoadHook, enabled
 * in Agent_OnLoad so that no load is missed, whatever the phase. The
 * methods are those the agent's own hook picks for the same pattern: native
 * and abstract ones have no code, an empty finalize()V is left alone, and
 * neither java.lang.Object nor stapjava.Probe is touched. So a row with the
 * agent and a row with this agent differ by what the agent's natives do.
 * stapjava.Probe (public final, the static
 * natives of classfile_probe_methods) is defined in the boot loader with
 * JNI DefineClass at VMInit, the first moment JNI can define a class, and
 * its natives are registered with RegisterNatives as empty functions
 * (enterArgs answers "no arguments wanted"). This assumes no injected call runs
 * before VMInit: the call is resolved when it first runs, not when CLASS is
 * loaded, and application classes (the Workload, loaded by the application
 * class loader from main) run only after VMInit. A call that ran earlier
 * would throw NoClassDefFoundError, which fails the JVM too; so a class
 * loaded before VMInit (the JDK's own, for a pattern that reaches them) is
 * left alone, counted, and said at VMDeath. The class
 * bytes come from agent/classfile.c (classfile_probe_class), as the agent's
 * do: the same class the real agent defines.
 *
 * "breakpoint-capability" only holds can_generate_breakpoint_events and
 * enables nothing: what holding it costs a JVM (HotSpot then compiles every
 * method keeping all its locals alive; row 2b), the reason the stapjava
 * agent asks for it only with methods=fallback or jvmti.
 *
 * "breakpoint=CLASS.METHOD" reports method entry the way the stapjava agent
 * does where injection cannot reach (option methods=jvmti,
 * agent/fallback.h): a breakpoint at bytecode index 0 of every method METHOD
 * of CLASS, set when the class is prepared, with an empty Breakpoint
 * callback.
 *
 * Failing loudly: a baseline that silently measured nothing would mislead.
 * Any other option string, or a JVMTI failure at load, prints one line and
 * fails the load (the JVM does not start), as the real agent does with a
 * mistyped option. In inject mode, a malformed PATTERN fails the load; a
 * rewrite that fails, a Probe class that cannot be defined, and a VM that
 * ends without any method having got a call (checked at VMDeath: no class
 * that PATTERN selects was loaded after VMInit) each print one line and end
 * the JVM with exit status 1 at once. At VMDeath, stderr gets one line
 * "libnullagent: inject: N method(s) of M class(es) got calls" (and the classes
 * left alone before VMInit, when there were any).
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jvmti.h>

#include "classfile.h"
#include "mutf8.h"
#include "pattern.h"

static void JNICALL on_method_entry(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread,
				    jmethodID method)
{
}

static void JNICALL on_method_exit(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jmethodID method,
				   jboolean popped, jvalue value)
{
}

/* breakpoint= and inject=: the class and method */
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

/* ---- inject=PATTERN */
static int inject_mode;
static struct pattern inject_pattern;
static atomic_bool vm_started;    /* VMInit has defined stapjava.Probe */
static atomic_int injected;       /* methods that got a call, over every load */
static atomic_int injected_classes, early_classes;

/* One line, and the JVM ends with status 1 at once. */
__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libnullagent: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(1);
}

/* stapjava.Probe's natives, each doing nothing (enterArgs: "no arguments wanted"). */
static void JNICALL p_site(JNIEnv *jni, jclass cls, jint site) { }
static jboolean JNICALL p_enter_args(JNIEnv *jni, jclass cls, jint site) { return JNI_FALSE; }
static void JNICALL p_arg_i(JNIEnv *jni, jclass cls, jint v) { }
static void JNICALL p_arg_j(JNIEnv *jni, jclass cls, jlong v) { }
static void JNICALL p_arg_f(JNIEnv *jni, jclass cls, jfloat v) { }
static void JNICALL p_arg_d(JNIEnv *jni, jclass cls, jdouble v) { }
static void JNICALL p_arg_l(JNIEnv *jni, jclass cls, jobject v) { }
static void JNICALL p_ret_i(JNIEnv *jni, jclass cls, jint v, jint site) { }
static void JNICALL p_ret_j(JNIEnv *jni, jclass cls, jlong v, jint site) { }
static void JNICALL p_ret_f(JNIEnv *jni, jclass cls, jfloat v, jint site) { }
static void JNICALL p_ret_d(JNIEnv *jni, jclass cls, jdouble v, jint site) { }
static void JNICALL p_ret_l(JNIEnv *jni, jclass cls, jobject v, jint site) { }
static void JNICALL p_thrown(JNIEnv *jni, jclass cls, jthrowable t, jint site) { }

static void *const probe_natives[CF_NPROBE] = {
	[CF_ENTER] = p_site, [CF_ENTER_ARGS] = p_enter_args, [CF_ARG_I] = p_arg_i,
	[CF_ARG_J] = p_arg_j, [CF_ARG_F] = p_arg_f, [CF_ARG_D] = p_arg_d, [CF_ARG_L] = p_arg_l,
	[CF_ENTERED] = p_site, [CF_RET_V] = p_site, [CF_RET_I] = p_ret_i, [CF_RET_J] = p_ret_j,
	[CF_RET_F] = p_ret_f, [CF_RET_D] = p_ret_d, [CF_RET_L] = p_ret_l, [CF_THROWN] = p_thrown,
};

struct select_ctx {
	const char *sig;     /* the class's signature, "Lorg/hsqldb/jdbc/JDBCConnection;" */
	int32_t next;
	bool failed;         /* a wire name that could not be made */
};

/* As agent/inject.c's hook_select and pick_method choose. */
static void select_method(void *arg, const char *name, size_t name_len, const char *desc,
			  size_t desc_len, uint16_t access, struct classfile_pick *pick)
{
	struct select_ctx *c = arg;
	char wire[2048];

	if (access & 0x0500)   /* native, abstract: no code */
		return;
	if (pick->lone_return && name_len == 8 && memcmp(name, "finalize", 8) == 0 && desc_len == 3 &&
	    memcmp(desc, "()V", 3) == 0)
		return;
	ssize_t n = name_method_wire_n(wire, sizeof wire, c->sig, name, name_len, desc, desc_len);
	if (n < 0) {
		c->failed = true;
		return;
	}
	if (!pattern_match_method(&inject_pattern, wire, (size_t)n))
		return;
	pick->site = c->next++;
	pick->enter = true;
	pick->exit = inject_mode == 2;
}

static void refused(void *arg, const char *name, size_t name_len, const char *desc,
		    size_t desc_len, const char *why)
{
	die("inject: cannot rewrite %.*s%.*s (%s)", (int)name_len, name, (int)desc_len, desc, why);
}

static void JNICALL on_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni, jclass redefined, jobject loader,
				       const char *name, jobject protection_domain, jint len,
				       const unsigned char *data, jint *new_len, unsigned char **new_data)
{
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = NULL;
	char sig[1024];
	struct select_ctx sc = { sig, 0, false };
	struct classfile_hooks hooks = { &sc, select_method, refused, NULL, NULL };
	unsigned char *copy = NULL;
	size_t nlen = name ? strlen(name) : 0;

	if (!name || strcmp(name, CLASSFILE_PROBE_CLASS) == 0 || strcmp(name, "java/lang/Object") == 0)
		return;
	if (nlen + 3 > sizeof sig)
		die("inject: class name %.80s... longer than %zu bytes", name, sizeof sig - 3);
	/* the signature the agent matches by: standard UTF-8 (inject.c) */
	sig[0] = 'L';
	memcpy(sig + 1, name, nlen);
	memcpy(sig + 1 + nlen, ";", 2);
	nlen = (size_t)mutf8_to_utf8(sig, nlen + 2, MUTF8_NAME);
	sig[nlen] = '\0';
	int n = classfile_inject(data, (size_t)len, &hooks, &out, &out_len, &why);
	if (sc.failed)
		die("inject: cannot name a method of %s", name);
	if (n < 0)
		die("inject: cannot rewrite %s (%s)", name, why ? why : "?");
	if (n == 0) {
		free(out);
		return;
	}
	if (!atomic_load(&vm_started)) {   /* its calls would run before stapjava.Probe exists */
		free(out);
		atomic_fetch_add(&early_classes, 1);
		return;
	}
	if ((*jvmti)->Allocate(jvmti, (jlong)out_len, &copy) != JVMTI_ERROR_NONE)
		die("inject: no memory for %s", name);
	memcpy(copy, out, out_len);
	free(out);
	*new_data = copy;
	*new_len = (jint)out_len;
	atomic_fetch_add(&injected, n);
	atomic_fetch_add(&injected_classes, 1);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
	JNINativeMethod m[CF_NPROBE];
	uint8_t *bytes = NULL;
	size_t len = 0;

	if (classfile_probe_class(&bytes, &len) < 0)
		die("inject: no memory for %s", CLASSFILE_PROBE_CLASS);
	jclass cls = (*jni)->DefineClass(jni, CLASSFILE_PROBE_CLASS, NULL, (const jbyte *)bytes, (jsize)len);
	free(bytes);
	for (int i = 0; i < CF_NPROBE; i++)
		m[i] = (JNINativeMethod){ (char *)classfile_probe_methods[i].name,
					  (char *)classfile_probe_methods[i].desc, probe_natives[i] };
	if (!cls || (*jni)->RegisterNatives(jni, cls, m, CF_NPROBE) != 0) {
		(*jni)->ExceptionDescribe(jni);
		die("inject: cannot define %s in the boot loader", CLASSFILE_PROBE_CLASS);
	}
	atomic_store(&vm_started, true);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
	int early = atomic_load(&early_classes);

	if (!atomic_load(&injected))
		die("inject: no method that %s selects got a call (no class of it loaded after VMInit%s): "
		    "nothing measured", inject_pattern.text, early ? ", some before it" : "");
	fprintf(stderr, "libnullagent: inject: %d method(s) of %d class(es) got calls", atomic_load(&injected),
		atomic_load(&injected_classes));
	if (early)
		fprintf(stderr, " (%d class(es) that %s selects loaded before VMInit, left alone)", early,
			inject_pattern.text);
	fputc('\n', stderr);
}

/* "a.b.C.m" -> bp_class_sig "La/b/C;", bp_method "m". */
static int parse_spec(const char *spec)
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
	int exits = 1, hold_only = 0;

	if (options && strcmp(options, "entry") == 0)
		exits = 0;
	else if (options && strcmp(options, "breakpoint-capability") == 0)
		hold_only = 1;
	else if (options && strncmp(options, "breakpoint=", 11) == 0) {
		if (parse_spec(options + 11) < 0) {
			fprintf(stderr, "libnullagent: breakpoint=%s: want CLASS.METHOD\n", options + 11);
			return JNI_ERR;
		}
	} else if (options && (strncmp(options, "inject=", 7) == 0 || strncmp(options, "inject-return=", 14) == 0)) {
		const char *text = strchr(options, '=') + 1;
		char why[256];

		if (pattern_compile(&inject_pattern, PATTERN_METHOD, text, strlen(text), why, sizeof why) < 0) {
			fprintf(stderr, "libnullagent: %s: not a method pattern: %s\n", options, why);
			return JNI_ERR;
		}
		inject_mode = options[6] == '=' ? 1 : 2;
	} else if (options && options[0]) {
		fprintf(stderr, "libnullagent: unknown option '%s' (only 'entry', 'breakpoint=CLASS.METHOD', "
			"'breakpoint-capability', 'inject=PATTERN' or 'inject-return=PATTERN')\n", options);
		return JNI_ERR;
	}
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK || !jvmti) {
		fprintf(stderr, "libnullagent: no JVMTI 1.2 environment\n");
		return JNI_ERR;
	}
	memset(&caps, 0, sizeof caps);
	if (hold_only) {
		caps.can_generate_breakpoint_events = 1;
		err = (*jvmti)->AddCapabilities(jvmti, &caps);
		return err == JVMTI_ERROR_NONE ? JNI_OK : fail("AddCapabilities", err);
	}
	if (inject_mode) {
		/* A ClassFileLoadHook at load time needs no capability. */
		memset(&cb, 0, sizeof cb);
		cb.ClassFileLoadHook = on_class_file_load;
		cb.VMInit = on_vm_init;
		cb.VMDeath = on_vm_death;
		err = (*jvmti)->SetEventCallbacks(jvmti, &cb, (jint)sizeof cb);
		if (err != JVMTI_ERROR_NONE)
			return fail("SetEventCallbacks", err);
		err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK,
							 NULL);
		if (err == JVMTI_ERROR_NONE)
			err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
		if (err == JVMTI_ERROR_NONE)
			err = (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
		return err == JVMTI_ERROR_NONE ? JNI_OK
					       : fail("enabling ClassFileLoadHook, VMInit and VMDeath", err);
	}
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
