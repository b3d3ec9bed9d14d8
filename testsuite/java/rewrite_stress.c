/* rewrite_stress.c: a JVMTI agent that puts enter, return and exceptional-exit
 * calls (agent/classfile.h) into EVERY method of every class the VM loads,
 * and counts the calls, so the JVM's own verifier (run with -Xverify:all)
 * checks the rewriter on real code: the JDK's modules and the application.
 * Every native method of a class a loader other than the boot loader
 * defines is wrapped first (agent/cfwrap.h, with the agent's prefix set as
 * the agent sets it), so its wrapper gets the calls too; the report counts
 * them ("wrapped N").
 *
 * Options (-agentpath:librewrite_stress.so=OPTS, comma-separated):
 *   report=FILE   at VM death, write "classes N\nmethods N\nrefused N\n
 *                 enter N\nreturn N\nthrown N\nbalance N\nwrapped N" (balance: enter -
 *                 return - thrown over the threads that ended, must be 0
 *                 when nothing was retransformed mid-call) and each refused
 *                 method as "refused CLASS.NAME DESC: WHY"
 *   retransform   at VMInit also retransform every class loaded before
 *                 (java.base's startup classes); calls running then are
 *                 not counted in the balance
 * Any class the rewriter refuses as a whole, and any method it refuses,
 * is listed; the test decides what may be refused.
 */
#include <jvmti.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfwrap.h"
#include "classfile.h"

static jvmtiEnv *jvmti;
static atomic_long n_classes, n_methods, n_refused, n_enter, n_return, n_thrown, n_unbalanced, n_wrapped;
static atomic_int next_site;
static char report_path[1024];
static int want_retransform;
static pthread_mutex_t refusals_lock = PTHREAD_MUTEX_INITIALIZER;
static char *refusals;
static size_t refusals_len;
/* per thread: calls entered minus calls left */
static __thread long depth;

static void note_refusal(const char *cls, const char *name, size_t nl, const char *desc, size_t dl,
			 const char *why)
{
	char line[2048];
	int n = snprintf(line, sizeof(line), "refused %s.%.*s%.*s: %s\n", cls, (int)nl, name, (int)dl,
			 desc, why);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	pthread_mutex_lock(&refusals_lock);
	char *p = realloc(refusals, refusals_len + (size_t)n + 1);
	if (p) {
		refusals = p;
		memcpy(refusals + refusals_len, line, (size_t)n + 1);
		refusals_len += (size_t)n;
	}
	pthread_mutex_unlock(&refusals_lock);
	atomic_fetch_add(&n_refused, 1);
}

struct ctx {
	const char *cls;
};

static void select_all(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
		       uint16_t access, struct classfile_pick *pick)
{
	/* HotSpot takes a finalize()V that only returns for no finalizer */
	if (nl == 8 && memcmp(name, "finalize", 8) == 0 && dl == 3 && memcmp(desc, "()V", 3) == 0)
		return;
	pick->site = atomic_fetch_add(&next_site, 1);
	pick->enter = pick->exit = true;
}

static void refused(void *arg, const char *name, size_t nl, const char *desc, size_t dl, const char *why)
{
	note_refusal(((struct ctx *)arg)->cls, name, nl, desc, dl, why);
}

/* Every native: at a retransformation too, so the set is the first definition's. */
static bool wrap_all(void *ctx, const char *name, size_t nl, const char *desc, size_t dl, uint16_t access)
{
	return true;
}

static void JNICALL hook(jvmtiEnv *jv, JNIEnv *jni, jclass redefined, jobject loader, const char *name,
			 jobject pd, jint len, const unsigned char *data, jint *new_len,
			 unsigned char **new_data)
{
	struct ctx c = { name ? name : "?" };
	struct classfile_hooks h = { &c, select_all, refused, NULL, NULL };
	uint8_t *out = NULL, *wrapped = NULL;
	size_t out_len = 0, in_len = (size_t)len;
	const uint8_t *in = data;
	const char *why = NULL;

	/* the calls go to Probe and the VM's root class is never changed */
	if (!name || strcmp(name, CLASSFILE_PROBE_CLASS) == 0 || strcmp(name, "java/lang/Object") == 0)
		return;
	if (loader) {
		int nw = cfwrap_natives(data, in_len, CFWRAP_AGENT_PREFIX, wrap_all, NULL, &wrapped, &in_len, &why);
		if (nw < 0) {
			note_refusal(c.cls, "", 0, "", 0, why ? why : "natives refused");
			return;
		}
		if (nw > 0) {
			in = wrapped;
			if (!redefined)
				atomic_fetch_add(&n_wrapped, nw);
		}
	}
	int rc = classfile_inject(in, in_len, &h, &out, &out_len, &why);
	if (rc < 0) {
		note_refusal(c.cls, "", 0, "", 0, why ? why : "refused");
		free(wrapped);
		return;
	}
	atomic_fetch_add(&n_classes, 1);
	atomic_fetch_add(&n_methods, rc);
	const uint8_t *give = rc > 0 ? out : wrapped;
	size_t give_len = rc > 0 ? out_len : in_len;
	unsigned char *copy = NULL;
	if (give && (*jv)->Allocate(jv, (jlong)give_len, &copy) == JVMTI_ERROR_NONE) {
		memcpy(copy, give, give_len);
		*new_data = copy;
		*new_len = (jint)give_len;
	}
	free(out);
	free(wrapped);
}

static void JNICALL p_enter(JNIEnv *e, jclass c, jint site) { atomic_fetch_add(&n_enter, 1); depth++; }
static jboolean JNICALL p_enter_args(JNIEnv *e, jclass c, jint site)
{
	atomic_fetch_add(&n_enter, 1);
	depth++;
	return site & 1;   /* half of the methods also pass their arguments */
}
static void JNICALL p_arg_i(JNIEnv *e, jclass c, jint v) { }
static void JNICALL p_arg_j(JNIEnv *e, jclass c, jlong v) { }
static void JNICALL p_arg_f(JNIEnv *e, jclass c, jfloat v) { }
static void JNICALL p_arg_d(JNIEnv *e, jclass c, jdouble v) { }
static void JNICALL p_arg_l(JNIEnv *e, jclass c, jobject v) { }
static void JNICALL p_entered(JNIEnv *e, jclass c, jint site) { }
static void ret(void) { atomic_fetch_add(&n_return, 1); depth--; }
static void JNICALL p_ret_v(JNIEnv *e, jclass c, jint site) { ret(); }
static void JNICALL p_ret_i(JNIEnv *e, jclass c, jint v, jint site) { ret(); }
static void JNICALL p_ret_j(JNIEnv *e, jclass c, jlong v, jint site) { ret(); }
static void JNICALL p_ret_f(JNIEnv *e, jclass c, jfloat v, jint site) { ret(); }
static void JNICALL p_ret_d(JNIEnv *e, jclass c, jdouble v, jint site) { ret(); }
static void JNICALL p_ret_l(JNIEnv *e, jclass c, jobject v, jint site) { ret(); }
static void JNICALL p_thrown(JNIEnv *e, jclass c, jthrowable t, jint site)
{
	atomic_fetch_add(&n_thrown, 1);
	depth--;
}

static void *const natives[CF_NPROBE] = {
	[CF_ENTER] = p_enter, [CF_ENTER_ARGS] = p_enter_args, [CF_ARG_I] = p_arg_i,
	[CF_ARG_J] = p_arg_j, [CF_ARG_F] = p_arg_f, [CF_ARG_D] = p_arg_d, [CF_ARG_L] = p_arg_l,
	[CF_ENTERED] = p_entered, [CF_RET_V] = p_ret_v, [CF_RET_I] = p_ret_i, [CF_RET_J] = p_ret_j,
	[CF_RET_F] = p_ret_f, [CF_RET_D] = p_ret_d, [CF_RET_L] = p_ret_l, [CF_THROWN] = p_thrown,
};

static void JNICALL thread_end(jvmtiEnv *jv, JNIEnv *jni, jthread t)
{
	if (depth)
		atomic_fetch_add(&n_unbalanced, depth);
}

static void retransform_loaded(void)
{
	jint n = 0;
	jclass *classes = NULL;

	if ((*jvmti)->GetLoadedClasses(jvmti, &n, &classes) != JVMTI_ERROR_NONE)
		return;
	for (jint i = 0; i < n; i++) {
		jboolean mod = JNI_FALSE;
		if ((*jvmti)->IsModifiableClass(jvmti, classes[i], &mod) == JVMTI_ERROR_NONE && mod)
			(*jvmti)->RetransformClasses(jvmti, 1, &classes[i]);
	}
	(*jvmti)->Deallocate(jvmti, (unsigned char *)classes);
}

static void JNICALL vm_init(jvmtiEnv *jv, JNIEnv *jni, jthread t)
{
	uint8_t *bytes = NULL;
	size_t len = 0;
	JNINativeMethod m[CF_NPROBE];

	if (classfile_probe_class(&bytes, &len) < 0)
		abort();
	jclass cls = (*jni)->DefineClass(jni, CLASSFILE_PROBE_CLASS, NULL, (const jbyte *)bytes, (jsize)len);
	free(bytes);
	for (int i = 0; i < CF_NPROBE; i++)
		m[i] = (JNINativeMethod){ (char *)classfile_probe_methods[i].name,
					  (char *)classfile_probe_methods[i].desc, natives[i] };
	if (!cls || (*jni)->RegisterNatives(jni, cls, m, CF_NPROBE) != 0) {
		fprintf(stderr, "rewrite_stress: cannot define %s\n", CLASSFILE_PROBE_CLASS);
		abort();
	}
	/* every module may call Probe (an unnamed module: reads are one-way) */
	jobject pm = (*jni)->GetModule(jni, cls);
	jint nmod = 0;
	jobject *mods = NULL;
	if ((*jvmti)->GetAllModules(jvmti, &nmod, &mods) == JVMTI_ERROR_NONE) {
		for (jint i = 0; i < nmod; i++)
			(*jvmti)->AddModuleReads(jvmti, mods[i], pm);
		(*jvmti)->Deallocate(jvmti, (unsigned char *)mods);
	}
	(*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
	if (want_retransform)
		retransform_loaded();
}

static void JNICALL vm_death(jvmtiEnv *jv, JNIEnv *jni)
{
	FILE *f = report_path[0] ? fopen(report_path, "w") : NULL;

	(*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
	if (!f)
		return;
	fprintf(f, "classes %ld\nmethods %ld\nrefused %ld\nenter %ld\nreturn %ld\nthrown %ld\nbalance %ld\n"
		"wrapped %ld\n", atomic_load(&n_classes), atomic_load(&n_methods), atomic_load(&n_refused),
		atomic_load(&n_enter), atomic_load(&n_return), atomic_load(&n_thrown),
		atomic_load(&n_unbalanced), atomic_load(&n_wrapped));
	pthread_mutex_lock(&refusals_lock);
	if (refusals)
		fputs(refusals, f);
	pthread_mutex_unlock(&refusals_lock);
	fclose(f);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	jvmtiCapabilities caps;
	jvmtiEventCallbacks cb;
	char *opts = options ? strdup(options) : NULL, *save = NULL;

	for (char *o = opts ? strtok_r(opts, ",", &save) : NULL; o; o = strtok_r(NULL, ",", &save)) {
		if (strncmp(o, "report=", 7) == 0)
			snprintf(report_path, sizeof(report_path), "%s", o + 7);
		else if (strcmp(o, "retransform") == 0)
			want_retransform = 1;
		else {
			fprintf(stderr, "rewrite_stress: unknown option %s\n", o);
			return JNI_ERR;
		}
	}
	free(opts);
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_11) != JNI_OK)
		return JNI_ERR;
	memset(&caps, 0, sizeof(caps));
	caps.can_retransform_classes = 1;
	caps.can_retransform_any_class = 1;
	caps.can_set_native_method_prefix = 1;
	if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE ||
	    (*jvmti)->SetNativeMethodPrefix(jvmti, CFWRAP_AGENT_PREFIX) != JVMTI_ERROR_NONE)
		return JNI_ERR;
	memset(&cb, 0, sizeof(cb));
	cb.ClassFileLoadHook = hook;
	cb.VMInit = vm_init;
	cb.VMDeath = vm_death;
	cb.ThreadEnd = thread_end;
	(*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof(cb));
	(*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
	(*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
	(*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_END, NULL);
	return JNI_OK;
}
