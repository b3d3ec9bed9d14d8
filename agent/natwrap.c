/* natwrap.c: see natwrap.h. */
#include "natwrap.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "log.h"

/* SetNativeMethodPrefix took ours: natives of classes loaded from now on can be wrapped */
static bool prefix_set;
static atomic_bool wrapped_any;

/* A class whose natives were wrapped at its first definition, and which
 * ones: what every retransformation of it must wrap again. Not the VM's
 * list of its methods: GetClassMethods refuses a class that is loaded but
 * not yet linked, which another agent may retransform (HotSpot links it
 * only after the hooks ran). An entry goes when its loader is collected
 * (looked at as entries come and are looked for). */
struct wrapped_class {
	struct wrapped_class *next;
	jweak loader;
	char *sig;               /* "Lcom/acme/Shop;" */
	char **natives;          /* name, descriptor, ...: modified UTF-8, as the class file's */
	size_t n;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wrapped_class *table;

void natwrap_setup(void)
{
	jvmtiEnv *jv = agent.jvmti;

	if (agent.opt.methods == OPT_METHODS_JVMTI)
		return;
	if (!agent.caps.can_set_native_method_prefix ||
	    (*jv)->SetNativeMethodPrefix(jv, CFWRAP_AGENT_PREFIX) != JVMTI_ERROR_NONE) {
		sj_info("no native-method prefix: matched native methods are said, not wrapped");
		return;
	}
	prefix_set = true;
}

bool natwrap_enabled(void)
{
	return prefix_set;
}

bool natwrap_any(void)
{
	return atomic_load(&wrapped_any);
}

static void free_natives(char **natives, size_t n)
{
	for (size_t i = 0; natives && i < 2 * n; i++)
		free(natives[i]);
	free(natives);
}

static void free_entry(JNIEnv *jni, struct wrapped_class *e)
{
	(*jni)->DeleteWeakGlobalRef(jni, e->loader);
	free(e->sig);
	free_natives(e->natives, e->n);
	free(e);
}

/* Under table_lock: the entries whose loader was collected go. */
static void table_prune(JNIEnv *jni)
{
	struct wrapped_class **pp = &table, *e;

	while ((e = *pp)) {
		if ((*jni)->IsSameObject(jni, e->loader, NULL)) {
			*pp = e->next;
			sj_info("class %.*s: its natives' wrappers forgotten (its class loader was collected)",
				(int)strlen(e->sig) - 2, e->sig + 1);
			free_entry(jni, e);
		} else {
			pp = &e->next;
		}
	}
}

/* Under table_lock: the entry of SIG defined by LOADER, or NULL. */
static struct wrapped_class *table_find(JNIEnv *jni, const char *sig, jobject loader)
{
	table_prune(jni);
	for (struct wrapped_class *e = table; e; e = e->next)
		if (strcmp(e->sig, sig) == 0 && (*jni)->IsSameObject(jni, e->loader, loader))
			return e;
	return NULL;
}

/* The natives picked at a first definition, as cfwrap asks about them. */
struct picks {
	cfwrap_select_fn select;
	void *ctx;
	char **natives;
	size_t n, cap;
	bool nomem;
};

static bool select_first(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
			 uint16_t access)
{
	struct picks *p = arg;

	if (!p->select(p->ctx, name, nl, desc, dl, access))
		return false;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4;
		char **grown = realloc(p->natives, 2 * cap * sizeof(char *));
		if (!grown)
			return p->nomem = true, false;
		p->natives = grown;
		p->cap = cap;
	}
	/* modified UTF-8 has no NUL byte: strndup copies the whole name */
	char *n = strndup(name, nl), *d = strndup(desc, dl);
	if (!n || !d) {
		free(n);
		free(d);
		return p->nomem = true, false;
	}
	p->natives[2 * p->n] = n;
	p->natives[2 * p->n + 1] = d;
	p->n++;
	return true;
}

static bool same(const char *s, const char *p, size_t n)
{
	return strlen(s) == n && memcmp(s, p, n) == 0;
}

/* At a retransformation: exactly the natives wrapped at the first definition. */
static bool select_again(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
			 uint16_t access)
{
	const struct wrapped_class *e = arg;

	(void)access;
	for (size_t i = 0; i < e->n; i++)
		if (same(e->natives[2 * i], name, nl) && same(e->natives[2 * i + 1], desc, dl))
			return true;
	return false;
}

/* Under table_lock: P's natives of SIG, defined by LOADER, remembered (P's
 * list taken over); -ENOMEM. */
static int table_add(JNIEnv *jni, const char *sig, jobject loader, struct picks *p)
{
	table_prune(jni);
	struct wrapped_class *e = calloc(1, sizeof(*e));

	if (!e || !(e->sig = strdup(sig)) || !(e->loader = (*jni)->NewWeakGlobalRef(jni, loader))) {
		if (e)
			free(e->sig);
		free(e);
		return -ENOMEM;
	}
	e->natives = p->natives;
	e->n = p->n;
	p->natives = NULL;
	p->n = 0;
	e->next = table;
	table = e;
	return 0;
}

static int wrap_again(JNIEnv *jni, const char *sig, jobject loader, const uint8_t *in, size_t len,
		      uint8_t **out, size_t *out_len, const char **why)
{
	int n = 0;

	pthread_mutex_lock(&table_lock);
	struct wrapped_class *e = table_find(jni, sig, loader);
	if (e)
		n = cfwrap_natives(in, len, CFWRAP_AGENT_PREFIX, select_again, e, out, out_len, why);
	pthread_mutex_unlock(&table_lock);
	return n;
}

static int wrap_first(JNIEnv *jni, const char *sig, jobject loader, cfwrap_select_fn select, void *ctx,
		      const atomic_bool *injecting, const uint8_t *in, size_t len, uint8_t **out,
		      size_t *out_len, const char **why)
{
	struct picks p = { .select = select, .ctx = ctx };
	const int wrapped = cfwrap_natives(in, len, CFWRAP_AGENT_PREFIX, select_first, &p, out, out_len, why);
	int n = wrapped;

	if (wrapped > 0 || p.nomem) {
		/* with inject.c's restore_all(), which stores INJECTING false and
		 * then reads wrapped_any to leave the hook on or not: one of the
		 * two sees the other's store, so a class wrapped here never goes
		 * without the hook (its retransformations would drop the wrappers) */
		atomic_store(&wrapped_any, true);
		pthread_mutex_lock(&table_lock);
		if (p.nomem)
			n = -ENOMEM;
		else if (!atomic_load(injecting))
			n = 0;
		else if (table_add(jni, sig, loader, &p) < 0)
			n = -ENOMEM;
		pthread_mutex_unlock(&table_lock);
		if (wrapped > 0 && n <= 0) {
			free(*out);
			*out = NULL;
		}
		if (n == -ENOMEM)
			*why = "out of memory";
	}
	free_natives(p.natives, p.n);
	return n;
}

int natwrap_class(JNIEnv *jni, const char *sig, jclass redefined, jobject loader,
		  cfwrap_select_fn first_select, void *ctx, const atomic_bool *injecting,
		  const uint8_t *in, size_t len, uint8_t **out, size_t *out_len)
{
	const char *why = NULL;
	int n;

	if (!prefix_set || !loader || !jni || (!redefined && (!first_select || !injecting)) ||
	    (redefined && !natwrap_any()))
		return 0;
	if (redefined)
		n = wrap_again(jni, sig, loader, in, len, out, out_len, &why);
	else
		n = wrap_first(jni, sig, loader, first_select, ctx, injecting, in, len, out, out_len, &why);
	/* named as the other lines of the class-file hook name a class: internal form */
	int cl = (int)strlen(sig) - 2;
	if (n < 0)
		sj_warn("class %.*s: its native methods cannot be wrapped (%s)", cl, sig + 1,
			why ? why : "out of memory");
	else if (n > 0 && !redefined)
		sj_info("class %.*s: %d native method%s wrapped (named %s... in the JVM's stack traces)",
			cl, sig + 1, n, n == 1 ? "" : "s", CFWRAP_AGENT_PREFIX);
	return n > 0 ? n : 0;
}
