/* mcache.c: see mcache.h. Open addressing on jmethodID under a rwlock. */
#include "mcache.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cfwrap.h"
#include "conn.h"
#include "descriptor.h"
#include "mutf8.h"
#include "pattern.h"

/* The return type's kind of the wire name NAME (LEN bytes, its descriptor
 * at DESC_OFF), '?' when the descriptor is malformed. */
static char ret_kind_of(const char *name, size_t len, size_t desc_off)
{
	char k = descriptor_ret_kind(name + desc_off, len - desc_off);

	return k ? k : '?';
}

static pthread_rwlock_t cache_lock = PTHREAD_RWLOCK_INITIALIZER;
/* Entries' numbers: each entry its own, for as long as the agent lives. */
static atomic_uint numbers;
/* Open addressing over entries, by a key the table's slot function reads
 * from an entry: jmethodIDs (methods the VM named) and wire names (sites). */
struct etable {
	struct mentry **v;
	size_t cap, used;
	size_t (*slot)(const struct mentry *e, size_t cap);
};

static size_t slot_of(jmethodID id, size_t cap)
{
	uintptr_t h = (uintptr_t)id;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h & (cap - 1);
}

static size_t name_slot(const char *name, size_t len, size_t cap)
{
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)name[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ h >> 29) & (cap - 1);
}

static size_t entry_id_slot(const struct mentry *e, size_t cap) { return slot_of(e->id, cap); }
static size_t entry_name_slot(const struct mentry *e, size_t cap) { return name_slot(e->name, e->name_len, cap); }

static struct etable table = { .slot = entry_id_slot };
static struct etable named = { .slot = entry_name_slot };

static void put(struct mentry **v, size_t cap, size_t slot, struct mentry *e)
{
	while (v[slot])
		slot = (slot + 1) & (cap - 1);
	v[slot] = e;
}

/* Room for one more entry (at most half full). */
static int reserve_locked(struct etable *t)
{
	if ((t->used + 1) * 2 <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct mentry **n = calloc(cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i])
			put(n, cap, t->slot(t->v[i], cap), t->v[i]);
	free(t->v);
	t->v = n;
	t->cap = cap;
	return 0;
}

static void insert_locked(struct etable *t, struct mentry *e)
{
	put(t->v, t->cap, t->slot(e, t->cap), e);
	t->used++;
}

static struct mentry *find_locked(jmethodID id)
{
	if (!table.v)
		return NULL;
	for (size_t i = slot_of(id, table.cap);; i = (i + 1) & (table.cap - 1)) {
		struct mentry *e = table.v[i];
		if (!e || e->id == id)
			return e;
	}
}

/* Build a new entry with JVMTI calls (no lock held). */
static struct mentry *build(jmethodID id)
{
	jvmtiEnv *jv = agent.jvmti;
	char *mname = NULL, *msig = NULL, *csig = NULL, *src = NULL;
	jclass cls = NULL;
	jint mods = 0;
	struct mentry *e = NULL;

	if ((*jv)->GetMethodName(jv, id, &mname, &msig, NULL) != JVMTI_ERROR_NONE)
		return NULL;
	if ((*jv)->GetMethodDeclaringClass(jv, id, &cls) != JVMTI_ERROR_NONE ||
	    agent_class_signature(cls, &csig, NULL) < 0)
		goto out;
	(*jv)->GetMethodModifiers(jv, id, &mods);
	if (!agent.caps.can_get_source_file_name ||
	    (*jv)->GetSourceFileName(jv, cls, &src) != JVMTI_ERROR_NONE)
		src = NULL;
	size_t src_len = src ? mutf8_to_utf8(src, strlen(src), MUTF8_NAME) : 0;
	/* the method's name and descriptor are modified UTF-8: name_method_wire()
	 * makes the wire name UTF-8, as it does inject.c's from the class file */
	size_t cap = strlen(csig) + strlen(mname) + strlen(msig) + 4;
	e = calloc(1, sizeof(*e) + cap + src_len + 1);
	if (!e)
		goto out;
	char *source = (char *)(e + 1) + cap;
	if (src_len)
		memcpy(source, src, src_len);
	source[src_len] = '\0';
	e->source = source;
	e->source_len = (uint32_t)src_len;
	char *name = (char *)(e + 1);
	ssize_t n = name_method_wire(name, cap, csig, mname, msig);
	if (n < 0) {
		free(e);
		e = NULL;
		goto out;
	}
	e->id = id;
	e->number = atomic_fetch_add(&numbers, 1);
	e->name = name;
	e->name_len = (uint32_t)n;
	e->desc_off = (uint32_t)(strchr(name, '(') - name);
	e->ret_kind = ret_kind_of(name, n, e->desc_off);
	e->is_static = mods & 0x0008;
	e->is_native = mods & 0x0100;
	e->is_abstract = mods & 0x0400;
	e->is_wrapped_native = e->is_native &&
			       strncmp(mname, CFWRAP_AGENT_PREFIX, strlen(CFWRAP_AGENT_PREFIX)) == 0;
	e->bp_ok = -1;
	e->gen = 0;
out:
	if (cls) {
		JNIEnv *jni = NULL;
		/* a callback's local frame frees it anyway; delete early to keep loops small */
		if ((*agent.vm)->GetEnv(agent.vm, (void **)&jni, JNI_VERSION_1_6) == JNI_OK && jni)
			(*jni)->DeleteLocalRef(jni, cls);
	}
	(*jv)->Deallocate(jv, (unsigned char *)mname);
	(*jv)->Deallocate(jv, (unsigned char *)msig);
	if (csig)
		(*jv)->Deallocate(jv, (unsigned char *)csig);
	if (src)
		(*jv)->Deallocate(jv, (unsigned char *)src);
	return e;
}

bool mcache_each_method(const struct pattern *pat, jclass klass, const char *sig,
			bool (*fn)(void *ctx, const struct mentry *e), void *ctx)
{
	jvmtiEnv *jv = agent.jvmti;
	char dotted[1024];
	ssize_t dn = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));
	jint n = 0;
	jmethodID *methods = NULL;

	if (dn < 0 || (pat && !pattern_method_may_select_class(pat, dotted, (size_t)dn)) ||
	    (*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return false;
	for (jint i = 0; i < n; i++) {
		const struct mentry *e = mcache_entry(methods[i]);
		if (e && !e->is_wrapped_native && !fn(ctx, e))
			break;
	}
	(*jv)->Deallocate(jv, (unsigned char *)methods);
	return true;
}

const struct mentry *mcache_find(jmethodID id)
{
	pthread_rwlock_rdlock(&cache_lock);
	struct mentry *e = find_locked(id);
	pthread_rwlock_unlock(&cache_lock);
	return e;
}

const struct mentry *mcache_entry(jmethodID id)
{
	pthread_rwlock_rdlock(&cache_lock);
	struct mentry *e = find_locked(id);
	pthread_rwlock_unlock(&cache_lock);
	if (e)
		return e;
	struct mentry *fresh = build(id);
	if (!fresh)
		return NULL;
	pthread_rwlock_wrlock(&cache_lock);
	e = find_locked(id);
	if (!e && reserve_locked(&table) < 0) {
		pthread_rwlock_unlock(&cache_lock);
		free(fresh);
		return NULL;
	}
	if (!e) {
		insert_locked(&table, fresh);
		e = fresh;
		fresh = NULL;
	}
	pthread_rwlock_unlock(&cache_lock);
	free(fresh);
	return e;
}

/* Which connections want E's events, for generation GEN; stored in E. No
 * connection's lock: the registrations are matched under their own read
 * lock (regset.h), so a method matched here never waits for a connection's
 * events, nor they for it. */
static void match_entry(struct mentry *e, uint64_t gen, struct mmatch *m)
{
	uint32_t want[3];
	struct fire_set fire[3];

	if (e->is_wrapped_native) {
		memset(want, 0, sizeof(want));
		memset(fire, 0, sizeof(fire));
	} else {
		conns_method_events(e->name, e->name_len, want, fire);
	}
	pthread_rwlock_wrlock(&cache_lock);
	/* a newer generation may have been stored meanwhile; never go back */
	if (e->gen <= gen) {
		memcpy(e->conns, want, sizeof(want));
		for (unsigned ev = 0; ev < 3; ev++)
			for (unsigned w = 0; w < INTHREAD_MAX_IDS / 64; w++)
				__atomic_store_n(&e->fire[ev].w[w], fire[ev].w[w], __ATOMIC_RELAXED);
		e->gen = gen;
	}
	pthread_rwlock_unlock(&cache_lock);
	m->e = e;
	memcpy(m->conns, want, sizeof(want));
	memcpy(m->fire, fire, sizeof(fire));
	m->gen = gen;
}

void mcache_fire_sets(const struct mentry *e, struct mmatch *m)
{
	for (unsigned ev = MC_ENTER; ev <= MC_RETURN; ev++)
		for (unsigned w = 0; w < INTHREAD_MAX_IDS / 64; w++)
			m->fire[ev].w[w] = __atomic_load_n(&e->fire[ev].w[w], __ATOMIC_RELAXED);
}

/* E's answer when it is of generation GEN already. */
static bool cached_locked(const struct mentry *e, uint64_t gen, struct mmatch *m)
{
	if (!e || e->gen != gen)
		return false;
	m->e = e;
	memcpy(m->conns, e->conns, sizeof(m->conns));
	memcpy(m->fire, e->fire, sizeof(m->fire));
	m->gen = gen;
	return true;
}

int mcache_lookup(jmethodID id, struct mmatch *m)
{
	uint64_t gen = atomic_load(&conn_generation);

	pthread_rwlock_rdlock(&cache_lock);
	struct mentry *e = find_locked(id);
	bool hit = cached_locked(e, gen, m);
	pthread_rwlock_unlock(&cache_lock);
	if (hit)
		return 0;
	if (!e)
		e = (struct mentry *)mcache_entry(id);
	if (!e) {
		m->e = NULL;
		return -ENOENT;
	}
	match_entry(e, gen, m);
	return 0;
}

int mcache_match(const struct mentry *e, struct mmatch *m)
{
	uint64_t gen = atomic_load(&conn_generation);

	pthread_rwlock_rdlock(&cache_lock);
	bool hit = cached_locked(e, gen, m);
	pthread_rwlock_unlock(&cache_lock);
	if (!hit)
		match_entry((struct mentry *)e, gen, m);
	return 0;
}

/* ---- entries by wire name (injected calls' sites) */
static struct mentry *named_find_locked(const char *name, size_t len)
{
	if (!named.v)
		return NULL;
	for (size_t i = name_slot(name, len, named.cap);; i = (i + 1) & (named.cap - 1)) {
		struct mentry *e = named.v[i];
		if (!e || (e->name_len == len && memcmp(e->name, name, len) == 0))
			return e;
	}
}

const char *mcache_refused_why(const struct mentry *e)
{
	const char *why;

	pthread_rwlock_rdlock(&cache_lock);
	const struct mentry *n = named_find_locked(e->name, e->name_len);
	why = n ? __atomic_load_n(&n->refused_why, __ATOMIC_ACQUIRE) : NULL;
	pthread_rwlock_unlock(&cache_lock);
	return why;
}

const struct mentry *mcache_named(const char *wire, size_t len)
{
	const char *open = memchr(wire, '(', len);

	if (!open)
		return NULL;
	pthread_rwlock_wrlock(&cache_lock);
	struct mentry *e = named_find_locked(wire, len);
	if (!e && reserve_locked(&named) < 0)
		goto out;
	if (!e && (e = calloc(1, sizeof(*e) + len + 1))) {
		char *name = (char *)(e + 1);
		memcpy(name, wire, len);
		name[len] = '\0';
		e->number = atomic_fetch_add(&numbers, 1);
		e->name = name;
		e->name_len = (uint32_t)len;
		e->desc_off = (uint32_t)(open - wire);
		e->ret_kind = ret_kind_of(name, len, e->desc_off);
		e->source = "";
		e->bp_ok = 0;   /* no jmethodID: never a breakpoint's */
		insert_locked(&named, e);
	}
out:
	pthread_rwlock_unlock(&cache_lock);
	return e;
}
