/* inject.c: see inject.h. */
#include "inject.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "callbacks.h"
#include "classfile.h"
#include "conn.h"
#include "log.h"
#include "mcache.h"
#include "pattern.h"

static atomic_bool active;
static atomic_bool refused;           /* a wanted class could not get its calls */
static atomic_bool uncovered;         /* a wanted class cannot be changed: breakpoints for it */
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;
static jclass probe_class;            /* global ref, once defined */
static jobject probe_module;          /* global ref; NULL before JDK 9 */
static bool hook_on;
static _Atomic size_t logged_n = (size_t)-1;

/* ---- sites: id -> method, chunks allocated once and never moved */
#define SITE_CHUNK 4096u
#define SITE_CHUNKS 1024u
struct site {
	_Atomic(const struct mentry *) e;
	/* (generation + 1) << 16 | the connections wanting method.enter: the
	 * method cache's answer for this generation, read without its lock */
	_Atomic uint64_t match;
};
_Static_assert(AGENT_MAX_CONNS <= 16, "a site's match packs 16 connection bits");
static struct site *_Atomic site_chunks[SITE_CHUNKS];
static atomic_uint next_site;
static pthread_mutex_t site_lock = PTHREAD_MUTEX_INITIALIZER;

static int32_t site_new(void)
{
	unsigned id = atomic_fetch_add(&next_site, 1);
	unsigned chunk = id / SITE_CHUNK;

	if (chunk >= SITE_CHUNKS)
		return -1;
	if (!atomic_load(&site_chunks[chunk])) {
		pthread_mutex_lock(&site_lock);
		if (!atomic_load(&site_chunks[chunk]))
			atomic_store(&site_chunks[chunk], calloc(SITE_CHUNK, sizeof(**site_chunks)));
		pthread_mutex_unlock(&site_lock);
		if (!atomic_load(&site_chunks[chunk]))
			return -1;
	}
	return (int32_t)id;
}

int inject_site_match(jint site, struct mmatch *m)
{
	if (site < 0 || (unsigned)site / SITE_CHUNK >= SITE_CHUNKS)
		return -EINVAL;
	struct site *chunk = atomic_load(&site_chunks[(unsigned)site / SITE_CHUNK]);
	if (!chunk)
		return -EINVAL;
	struct site *s = &chunk[(unsigned)site % SITE_CHUNK];
	const struct mentry *e = atomic_load_explicit(&s->e, memory_order_acquire);
	if (!e) {
		/* depth 0 is Probe.enter itself, depth 1 the method that called it */
		jmethodID method = NULL;
		jlocation loc = 0;
		if ((*agent.jvmti)->GetFrameLocation(agent.jvmti, NULL, 1, &method, &loc) != JVMTI_ERROR_NONE ||
		    !(e = mcache_entry(method)))
			return -ENOENT;
		atomic_store_explicit(&s->e, e, memory_order_release);
	}
	uint64_t gen = atomic_load(&conn_generation);
	uint64_t v = atomic_load_explicit(&s->match, memory_order_relaxed);
	if (v >> 16 == gen + 1) {
		memset(m, 0, sizeof(*m));
		m->e = e;
		m->conns[MC_ENTER] = (uint32_t)(v & 0xffff);
		m->gen = gen;
		return 0;
	}
	int rc = mcache_lookup(e->id, m);
	if (rc == 0 && m->gen == gen)
		atomic_store_explicit(&s->match, (gen + 1) << 16 | (m->conns[MC_ENTER] & 0xffff),
				      memory_order_relaxed);
	return rc;
}

/* ---- records: which methods of which class (name and loader) have a call */
struct record {
	struct record *next;
	uint32_t loader_hash;
	size_t nnames, size;
	char *names;              /* NUL-separated wire names */
	char sig[];               /* "Lpkg/Foo;" */
};

#define RECORD_BUCKETS 1024u
static struct record *records[RECORD_BUCKETS];
static size_t nrecords;
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned bucket_of(const char *sig, uint32_t loader_hash)
{
	uint32_t h = 2166136261u ^ loader_hash;
	for (const char *p = sig; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return h % RECORD_BUCKETS;
}

/* Under record_lock. */
static struct record **record_find_locked(const char *sig, uint32_t loader_hash)
{
	struct record **r = &records[bucket_of(sig, loader_hash)];
	while (*r && ((*r)->loader_hash != loader_hash || strcmp((*r)->sig, sig) != 0))
		r = &(*r)->next;
	return r;
}

/* Replace the record of SIG/LOADER_HASH by NAMES (NNAMES names); 0 names drops it. */
static void record_set(const char *sig, uint32_t loader_hash, char *names, size_t nnames, size_t size)
{
	pthread_mutex_lock(&record_lock);
	struct record **at = record_find_locked(sig, loader_hash), *old = *at;
	if (old) {
		*at = old->next;
		free(old->names);
		free(old);
		nrecords--;
	}
	struct record *r = nnames ? malloc(sizeof(*r) + strlen(sig) + 1) : NULL;
	if (r) {
		r->loader_hash = loader_hash;
		r->names = names;
		r->nnames = nnames;
		r->size = size;
		strcpy(r->sig, sig);
		at = &records[bucket_of(sig, loader_hash)];
		r->next = *at;
		*at = r;
		nrecords++;
		names = NULL;
	}
	pthread_mutex_unlock(&record_lock);
	free(names);
}

/* -1: the class has no record; 0: NAME has no call in it; 1: it has. */
static int record_has(const char *sig, uint32_t loader_hash, const char *name)
{
	int has = -1;

	pthread_mutex_lock(&record_lock);
	struct record *r = *record_find_locked(sig, loader_hash);
	if (r) {
		has = 0;
		for (size_t off = 0; off < r->size && !has; off += strlen(r->names + off) + 1)
			has = strcmp(r->names + off, name) == 0;
	}
	pthread_mutex_unlock(&record_lock);
	return has;
}

static size_t records_count(void)
{
	pthread_mutex_lock(&record_lock);
	size_t n = nrecords;
	pthread_mutex_unlock(&record_lock);
	return n;
}

static void records_clear(void)
{
	pthread_mutex_lock(&record_lock);
	for (unsigned b = 0; b < RECORD_BUCKETS; b++)
		while (records[b]) {
			struct record *r = records[b];
			records[b] = r->next;
			free(r->names);
			free(r);
		}
	nrecords = 0;
	pthread_mutex_unlock(&record_lock);
}

static uint32_t loader_hash_of(jobject loader)
{
	jint h = 0;

	if (loader)
		(*agent.jvmti)->GetObjectHashCode(agent.jvmti, loader, &h);
	return (uint32_t)h;
}

static uint32_t class_loader_hash(JNIEnv *jni, jclass klass)
{
	jobject loader = NULL;

	(*agent.jvmti)->GetClassLoader(agent.jvmti, klass, &loader);
	uint32_t h = loader_hash_of(loader);
	if (loader)
		(*jni)->DeleteLocalRef(jni, loader);
	return h;
}

/* ---- the class-file hook */
struct hook_ctx {
	const char *sig;
	char *names;             /* NUL-separated wire names that got a call */
	size_t size, cap, n;
	bool nomem;
	const char *refuse;      /* why the class must not be changed at all */
};

static int32_t hook_select(void *arg, const char *name, size_t name_len, const char *desc,
			   size_t desc_len, uint16_t access)
{
	struct hook_ctx *h = arg;
	char mname[512], mdesc[1024], wire[2048];

	if ((access & 0x0500) || name_len >= sizeof(mname) || desc_len >= sizeof(mdesc))
		return -1;   /* abstract or native: no code; too long: MethodEntry-free path not worth it */
	memcpy(mname, name, name_len);
	mname[name_len] = '\0';
	memcpy(mdesc, desc, desc_len);
	mdesc[desc_len] = '\0';
	ssize_t n = name_method_wire(wire, sizeof(wire), h->sig, mname, mdesc);
	if (n < 0 || !conns_want_enter_method(wire, (size_t)n))
		return -1;
	/* HotSpot takes a finalize()V that only returns for no finalizer: a call
	 * in it would make every object of the class finalizable */
	if (strcmp(mname, "finalize") == 0 && strcmp(mdesc, "()V") == 0) {
		h->refuse = "a call in finalize()V would make its objects finalizable";
		return -1;
	}
	if (h->cap - h->size < (size_t)n + 1) {
		size_t cap = h->cap ? h->cap * 2 : 1024;
		while (cap - h->size < (size_t)n + 1)
			cap *= 2;
		char *p = realloc(h->names, cap);
		if (!p) {
			h->nomem = true;
			return -1;
		}
		h->names = p;
		h->cap = cap;
	}
	int32_t id = site_new();
	if (id < 0) {
		h->nomem = true;
		return -1;
	}
	memcpy(h->names + h->size, wire, (size_t)n + 1);
	h->size += (size_t)n + 1;
	h->n++;
	return id;
}

void JNICALL cb_class_file_load_hook(jvmtiEnv *jv, JNIEnv *jni, jclass class_being_redefined,
				     jobject loader, const char *name, jobject protection_domain,
				     jint class_data_len, const unsigned char *class_data,
				     jint *new_class_data_len, unsigned char **new_class_data)
{
	char sig[1024];
	size_t len = name ? strlen(name) : 0;

	if (!atomic_load(&active) || !name || len + 3 > sizeof(sig) ||
	    strcmp(name, CLASSFILE_PROBE_CLASS) == 0)
		return;
	sig[0] = 'L';
	memcpy(sig + 1, name, len);
	memcpy(sig + 1 + len, ";", 2);
	if (!conns_want_enter_class(sig))
		return;
	struct hook_ctx h = { .sig = sig };
	uint8_t *out = NULL;
	size_t out_len = 0;
	const char *why = NULL;
	int rc = classfile_inject_enter(class_data, (size_t)class_data_len, hook_select, &h, &out,
					&out_len, &why);
	/* the root of every class and of the VM's own object layout: never changed */
	if (strcmp(name, "java/lang/Object") == 0 && (rc != 0 || h.refuse))
		h.refuse = "the VM's root class is left alone";
	if (h.refuse) {
		rc = -ENOTSUP;
		why = h.refuse;
	}
	uint32_t lh = loader_hash_of(loader);
	unsigned char *copy = NULL;
	if (rc > 0 && !h.nomem &&
	    (*jv)->Allocate(jv, (jlong)out_len, &copy) == JVMTI_ERROR_NONE) {
		memcpy(copy, out, out_len);
		*new_class_data = copy;
		*new_class_data_len = (jint)out_len;
		record_set(sig, lh, h.names, h.n, h.size);
	} else {
		record_set(sig, lh, NULL, 0, 0);
		free(h.names);
		if (rc != 0 || h.nomem) {
			sj_warn("method.enter cannot be injected into %s (%s): falls back to breakpoints",
				name, rc < 0 && why ? why : "out of memory");
			atomic_store(&refused, true);
		}
	}
	free(out);
}

static int probe_define(JNIEnv *jni)
{
	uint8_t *bytes = NULL;
	size_t len = 0;
	JNINativeMethod native = { (char *)CLASSFILE_PROBE_METHOD, (char *)CLASSFILE_PROBE_DESC,
				   (void *)cb_injected_enter };

	if (probe_class)
		return 0;
	if (classfile_probe_class(&bytes, &len) < 0) {
		sj_warn("method.enter cannot be injected: no memory for class %s", CLASSFILE_PROBE_CLASS);
		return -ENOMEM;
	}
	jclass cls = (*jni)->DefineClass(jni, CLASSFILE_PROBE_CLASS, NULL, (const jbyte *)bytes, (jsize)len);
	free(bytes);
	if (!cls) {
		/* defined by an earlier agent instance in this VM: use that one */
		(*jni)->ExceptionClear(jni);
		cls = (*jni)->FindClass(jni, CLASSFILE_PROBE_CLASS);
	}
	if (!cls || (*jni)->RegisterNatives(jni, cls, &native, 1) != 0) {
		(*jni)->ExceptionClear(jni);
		sj_warn("method.enter cannot be injected: class %s cannot be defined", CLASSFILE_PROBE_CLASS);
		return -EPERM;
	}
	probe_class = (*jni)->NewGlobalRef(jni, cls);
	if ((*jni)->GetVersion(jni) >= JNI_VERSION_9) {
		jobject m = (*jni)->GetModule(jni, cls);
		probe_module = m ? (*jni)->NewGlobalRef(jni, m) : NULL;
	}
	return probe_class ? 0 : -ENOMEM;
}

/* A named module that calls Probe must read its (unnamed) module. */
static void module_reads(JNIEnv *jni, jclass klass)
{
	if (!probe_module)
		return;
	jobject m = (*jni)->GetModule(jni, klass);
	if (m) {
		(*agent.jvmti)->AddModuleReads(agent.jvmti, m, probe_module);
		(*jni)->DeleteLocalRef(jni, m);
	}
}

static bool class_modifiable(jclass klass)
{
	jboolean m = JNI_FALSE;
	return (*agent.jvmti)->IsModifiableClass(agent.jvmti, klass, &m) == JVMTI_ERROR_NONE && m;
}

/* A class the VM will not let us change (a hidden class, such as a lambda's):
 * its wanted methods get breakpoints beside the calls elsewhere. Says so once
 * per class: ALWAYS_LOG from ClassPrepare, else only for the first such class
 * (an update's scan meets the same classes again). Returns true when it is
 * the first since the calls went on. */
static bool note_uncovered(const char *sig, bool always_log)
{
	char dotted[1024];
	ssize_t n = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));
	bool first = !atomic_exchange(&uncovered, true);

	if (first || always_log)
		sj_info("method.enter of %s by breakpoints (a class the VM will not change)",
			n < 0 ? sig : dotted);
	return first;
}

bool inject_covers(jclass klass)
{
	return atomic_load(&active) && class_modifiable(klass);
}

bool inject_needs_breakpoints(void)
{
	return atomic_load(&active) && atomic_load(&uncovered);
}

/* ---- update */
void inject_want_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	w->can_retransform_classes = p->can_retransform_classes;
}

bool inject_active(void)
{
	return atomic_load(&active);
}

static void hook_enable(bool on)
{
	if (hook_on == on)
		return;
	if ((*agent.jvmti)->SetEventNotificationMode(agent.jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE,
						     JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL) == JVMTI_ERROR_NONE)
		hook_on = on;
}

/* Does KLASS (signature SIG) need a retransform to give every wanted method its call?
 * Sets *NATIVE when a wanted method is native (no call possible). */
static bool class_needs_calls(jclass klass, const char *sig, uint32_t lh, bool *native)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jmethodID *methods = NULL;
	bool need = false;

	if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return false;
	for (jint i = 0; i < n && !*native; i++) {
		struct mmatch m;
		if (mcache_lookup(methods[i], &m) < 0 || !m.conns[MC_ENTER] || m.e->is_abstract)
			continue;
		if (m.e->is_native) {
			sj_info("method.enter of %s cannot be injected (native)", m.e->name);
			*native = true;
		} else if (record_has(sig, lh, m.e->name) != 1) {
			need = true;
		}
	}
	(*jv)->Deallocate(jv, (unsigned char *)methods);
	return need;
}

struct class_list {
	jclass *v;
	size_t n, cap;
};

static int class_list_add(JNIEnv *jni, struct class_list *l, jclass k)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		jclass *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	jclass ref = (*jni)->NewLocalRef(jni, k);
	if (!ref)
		return -ENOMEM;
	l->v[l->n++] = ref;
	return 0;
}

struct collect_ctx {
	bool want;
	struct class_list *l;
};

/* A loaded class for collect(): -ENOTSUP stops the scan. */
static int collect_class(void *arg, JNIEnv *jni, jclass klass, const char *sig)
{
	struct collect_ctx *cc = arg;
	bool keep = false;

	if (!cc->want) {
		keep = record_has(sig, class_loader_hash(jni, klass), "") >= 0;
	} else if (conns_want_enter_class(sig)) {
		bool native = false;
		keep = class_needs_calls(klass, sig, class_loader_hash(jni, klass), &native);
		if (native)
			return -ENOTSUP;
		if (keep && !class_modifiable(klass)) {
			keep = false;
			note_uncovered(sig, false);
		}
		if (keep)
			module_reads(jni, klass);
	}
	return keep && class_list_add(jni, cc->l, klass) < 0 ? -ENOTSUP : 0;
}

/* The loaded classes to retransform: those missing a wanted call (WANT), or
 * every class we changed (!WANT). Returns 0, or -ENOTSUP when injection cannot
 * cover a wanted method. */
static int collect(JNIEnv *jni, bool want, struct class_list *l)
{
	struct collect_ctx cc = { want, l };

	return agent_each_prepared_class(jni, false, collect_class, &cc) < 0 ? -ENOTSUP : 0;
}

static void class_list_free(JNIEnv *jni, struct class_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		(*jni)->DeleteLocalRef(jni, l->v[i]);
	free(l->v);
	l->n = l->cap = 0;
	l->v = NULL;
}

static int retransform(struct class_list *l)
{
	if (!l->n)
		return 0;
	jvmtiError err = (*agent.jvmti)->RetransformClasses(agent.jvmti, (jint)l->n, l->v);
	if (err != JVMTI_ERROR_NONE) {
		sj_warn("method.enter: retransforming %zu class%s failed (JVMTI error %d)", l->n,
			l->n == 1 ? "" : "es", (int)err);
		return -EPERM;
	}
	return 0;
}

/* Under update_lock: calls off; with MAY_RETRANSFORM every changed class back
 * to its original bytes, else the calls stay in place, returning at once. */
static void restore_all(JNIEnv *jni, bool may_retransform)
{
	struct class_list l = { 0 };

	atomic_store(&active, false);
	atomic_store(&uncovered, false);
	hook_enable(false);
	if (!may_retransform) {
		size_t n = records_count();
		if (n && atomic_load(&logged_n) != (size_t)-1)
			sj_info("method.enter calls left in %zu class%s (no class is changed while "
				"method.return is on)", n, n == 1 ? "" : "es");
		return;
	}
	/* at VM death the calls stay: they return at once, and the VM is going */
	if (jni && records_count() && !atomic_load(&agent.dying)) {
		collect(jni, false, &l);
		/* our hook is off: each class is rebuilt from its original bytes */
		if (l.n && retransform(&l) == 0)
			sj_info("method.enter calls removed: %zu class%s back to %s original code", l.n,
				l.n == 1 ? "" : "es", l.n == 1 ? "its" : "their");
		class_list_free(jni, &l);
	}
	records_clear();
}

static void log_count(void)
{
	size_t n = atomic_load(&active) ? records_count() : (size_t)-1;

	if (n == logged_n)
		return;
	if (n == (size_t)-1)
		sj_info("method.enter injection off");
	else
		sj_info("method.enter by injected calls in %zu class%s", n, n == 1 ? "" : "es");
	logged_n = n;
}

bool inject_update(JNIEnv *jni, bool want_enter, bool may_retransform)
{
	bool fallback = false;

	pthread_mutex_lock(&update_lock);
	if (!want_enter || !may_retransform || !agent.caps.can_retransform_classes || !jni ||
	    atomic_load(&refused) || probe_define(jni) < 0) {
		fallback = want_enter;
		restore_all(jni, may_retransform);
		if (!want_enter)
			atomic_store(&refused, false);
	} else {
		struct class_list l = { 0 };
		/* on first, so classes loaded during the scan get their calls from the hook */
		atomic_store(&active, true);
		hook_enable(true);
		if (!hook_on || collect(jni, true, &l) < 0 || retransform(&l) < 0 || atomic_load(&refused))
			fallback = true;
		class_list_free(jni, &l);
		if (fallback)
			restore_all(jni, true);
	}
	log_count();
	pthread_mutex_unlock(&update_lock);
	return fallback;
}

bool inject_class_prepared(JNIEnv *jni, jclass klass, const char *sig)
{
	if (!atomic_load(&active) || sig[0] == '[')
		return false;
	if (atomic_load(&refused))
		return true;
	uint32_t lh = class_loader_hash(jni, klass);
	if (record_has(sig, lh, "") >= 0)
		module_reads(jni, klass);
	else if (!conns_want_enter_class(sig))
		return false;
	bool native = false;
	bool need = class_needs_calls(klass, sig, lh, &native);
	bool first_uncovered = need && !native && !class_modifiable(klass) && note_uncovered(sig, true);
	pthread_mutex_lock(&update_lock);
	log_count();
	pthread_mutex_unlock(&update_lock);
	/* a native wanted: fall back; the first class to need breakpoints: switch them on */
	return native || first_uncovered;
}
