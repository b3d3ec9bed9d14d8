/* inject.c: see inject.h. */
#include "inject.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "classfile.h"
#include "codeattr.h"
#include "conn.h"
#include "emit.h"
#include "io.h"
#include "lineage.h"
#include "lineage_jvm.h"
#include "log.h"
#include "mcache.h"
#include "mutf8.h"
#include "natwrap.h"
#include "nomatch.h"
#include "notifysites.h"
#include "overflow.h"
#include "pattern.h"
#include "probe.h"
#include "records.h"
#include "sites.h"

#define METHOD_EVENTS (WIRE_METHOD_ENTER | WIRE_METHOD_RETURN)

static atomic_bool active;
static pthread_mutex_t update_lock = PTHREAD_MUTEX_INITIALIZER;
static bool hook_on;
/* a leaf lock: log_count() runs from ClassPrepare too, maybe on the thread
 * that holds update_lock (a class the VM prepares inside a JVMTI call) */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t logged_n = (size_t)-1;

static uint8_t rec_flags(uint8_t events)
{
	return (uint8_t)((events & WIRE_METHOD_ENTER ? REC_ENTER : 0) |
			 (events & WIRE_METHOD_RETURN ? REC_EXIT : 0));
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

static bool class_modifiable(jclass klass)
{
	jboolean m = JNI_FALSE;
	return (*agent.jvmti)->IsModifiableClass(agent.jvmti, klass, &m) == JVMTI_ERROR_NONE && m;
}

/* ---- the class-file hook */
struct hook_ctx {
	JNIEnv *jni;
	const char *sig;
	const char *dotted;
	bool methods;            /* a registration may select a method of the class */
	unsigned notify;         /* notifysites_wanted() */
	struct record_names rn;
};

/* NAME+DESC of the class being rewritten as a malloc()ed wire name, as long
 * as it is (mcache.c's names have no limit either: a name cut here would
 * never match its record, and its class would be retransformed at every
 * update). NULL: out of memory, said through rn.nomem. */
static char *wire_name(struct hook_ctx *h, const char *name, size_t nl, const char *desc, size_t dl,
		       size_t *len)
{
	size_t cap = strlen(h->sig) + nl + dl + 4;
	char *wire = malloc(cap);
	ssize_t n = wire ? name_method_wire_n(wire, cap, h->sig, name, nl, desc, dl) : -ENOMEM;

	if (n < 0) {
		free(wire);
		h->rn.nomem = true;
		return NULL;
	}
	*len = (size_t)n;
	return wire;
}

/* A new site for the method or line named WIRE[0..N); < 0 (said, and
 * WIRE recorded refused) when there is none. */
static int32_t new_site(struct hook_ctx *h, const char *wire, size_t n, const char *what)
{
	const struct mentry *e = mcache_named(wire, n);
	int32_t site = e ? sites_new(e) : -ENOMEM;

	if (site < 0) {
		sj_warn("%s %s cannot have injected calls (%s)", what, wire,
			site == -ENOSPC ? "no site ids left" : "out of memory");
		record_names_add(&h->rn, wire, n, REC_REFUSED);
	}
	return site;
}

static void pick_method(struct hook_ctx *h, const char *wire, size_t n, const char *name, size_t nl,
			const char *desc, size_t dl, uint8_t events, struct classfile_pick *pick)
{
	/* HotSpot takes a finalize()V that only returns for no finalizer (and
	 * then never calls it): a call in it would make every object of the
	 * class finalizable. Said once by fallback.h, never probed. A finalizer
	 * with a body is probed like any method. */
	if (pick->lone_return && nl == 8 && memcmp(name, "finalize", 8) == 0 && dl == 3 &&
	    memcmp(desc, "()V", 3) == 0) {
		record_names_add(&h->rn, wire, n, REC_SKIPPED);
		return;
	}
	int32_t site = new_site(h, wire, n, "method");
	if (site < 0)
		return;
	/* the count of its returns that find no stack to report (overflow.h) */
	if ((events & WIRE_METHOD_RETURN) && overflow_row_ready(h->jni, site) < 0) {
		sj_warn("method %s cannot have injected calls (out of memory)", wire);
		record_names_add(&h->rn, wire, n, REC_REFUSED);
		return;
	}
	pick->site = site;
	pick->enter = events & WIRE_METHOD_ENTER;
	pick->exit = events & WIRE_METHOD_RETURN;
	record_names_add(&h->rn, wire, n, rec_flags(events));
}

static void hook_select(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
			uint16_t access, struct classfile_pick *pick)
{
	struct hook_ctx *h = arg;
	size_t n;

	if ((access & 0x0500) || !h->methods)
		return;
	char *wire = wire_name(h, name, nl, desc, dl, &n);
	if (!wire)
		return;
	uint8_t events = conns_method_events(wire, n, NULL, NULL) & METHOD_EVENTS;
	if (events)
		pick_method(h, wire, n, name, nl, desc, dl, events, pick);
	free(wire);
}

struct no_code {
	const char *wire;              /* the method */
	const uint32_t *lines;         /* its lines, increasing */
	size_t n;
	unsigned conn;
};

static void say_no_code(void *arg, const char *text, uint32_t line)
{
	const struct no_code *nc = arg;
	uint32_t below = 0, above = 0;

	for (size_t k = 0; k < nc->n; k++)
		if (nc->lines[k] < line)
			below = nc->lines[k];
		else if (!above)
			above = nc->lines[k];
	nomatch_say_line(1u << nc->conn, text, line, nc->wire, below, above);
}

/* A line's site is named as the method with ":LINE" (pattern.h): only
 * line patterns select it. Its call reports a method.enter of that name. */
static void hook_select_lines(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
			      uint16_t access, const uint32_t *lines, size_t nlines, int32_t *sites)
{
	struct hook_ctx *h = arg;
	size_t n;

	if ((access & 0x0500) || !h->methods)
		return;
	char *wire = wire_name(h, name, nl, desc, dl, &n);
	char *named = wire ? malloc(n + 12) : NULL;
	if (!named) {
		h->rn.nomem = true;
		free(wire);
		return;
	}
	memcpy(named, wire, n);
	for (size_t k = 0; k < nlines; k++) {
		size_t len = n + (size_t)snprintf(named + n, 12, ":%" PRIu32, lines[k]);
		if (!(conns_method_events(named, len, NULL, NULL) & WIRE_METHOD_ENTER))
			continue;
		int32_t site = new_site(h, named, len, "line");
		if (site < 0)
			continue;
		sites[k] = site;
		record_names_add(&h->rn, named, len, REC_ENTER);
	}
	/* a registered line this method has no code on: never reached, said */
	struct no_code nc = { wire, lines, nlines, 0 };
	for (nc.conn = 0; nc.conn < AGENT_MAX_CONNS; nc.conn++)
		if (__atomic_load_n(&conns[nc.conn].active, __ATOMIC_ACQUIRE))
			regset_lines_without_code(&conns[nc.conn].regs, wire, n, lines, nlines, say_no_code, &nc);
	free(named);
	free(wire);
}

/* The class invokes Object.notify()V (ALL: notifyAll()V): a site of
 * Object's method for its calls, recorded under that name so that the
 * update knows the class has them and restores it when they go. */
static int32_t hook_select_notify(void *arg, bool all)
{
	struct hook_ctx *h = arg;
	size_t n;

	if (!(h->notify & (1u << all)))
		return -1;
	const char *wire = notifysites_wire(all, &n);
	int32_t site = new_site(h, wire, n, "the calls of");
	if (site >= 0)
		record_names_add(&h->rn, wire, n, REC_ENTER);
	return site;
}

/* Why the method named WIRE[0..N) has no injected calls, for what
 * fallback.h tells (WHY: a string literal). */
static void remember_refusal(const char *wire, size_t n, const char *why)
{
	struct mentry *e = (struct mentry *)mcache_named(wire, n);

	if (e)
		__atomic_store_n(&e->refused_why, why, __ATOMIC_RELEASE);
}

/* Mark NAME refused in the record being built. */
static void mark_refused(struct record_names *rn, const char *name)
{
	for (size_t off = 0; off < rn->size;) {
		size_t n = strlen(rn->buf + off);
		if (strcmp(rn->buf + off, name) == 0)
			rn->buf[off + n + 1] = REC_REFUSED;
		off += n + 2;
	}
}

static void hook_refused(void *arg, const char *name, size_t nl, const char *desc, size_t dl,
			 const char *why)
{
	struct hook_ctx *h = arg;
	size_t n;
	char *wire = wire_name(h, name, nl, desc, dl, &n);

	if (!wire)
		return;
	sj_warn("method %s cannot have injected calls (%s)", wire, why);
	remember_refusal(wire, n, why);
	mark_refused(&h->rn, wire);
	free(wire);
}

/* Every method of the record refused (the class could not be changed at all). */
static void refuse_all(struct record_names *rn, const char *why)
{
	for (size_t off = 0; off < rn->size;) {
		size_t n = strlen(rn->buf + off);
		remember_refusal(rn->buf + off, n, why);
		rn->buf[off + n + 1] = REC_REFUSED;
		off += n + 2;
	}
}

/* At a class's first definition: a native some registration selects for
 * method events (natwrap.h). */
static bool wrap_select(void *arg, const char *name, size_t nl, const char *desc, size_t dl, uint16_t access)
{
	struct hook_ctx *h = arg;
	size_t n;

	(void)access;
	char *wire = wire_name(h, name, nl, desc, dl, &n);
	bool pick = wire && (conns_method_events(wire, n, NULL, NULL) & METHOD_EVENTS);
	free(wire);
	return pick;
}

/* Hand BYTES[0..LEN) to the VM as the class's new definition. */
static bool hand_over(jvmtiEnv *jv, const uint8_t *bytes, size_t len, jint *new_len, unsigned char **new_data)
{
	unsigned char *copy = NULL;

	if ((*jv)->Allocate(jv, (jlong)len, &copy) != JVMTI_ERROR_NONE)
		return false;
	memcpy(copy, bytes, len);
	*new_data = copy;
	*new_len = (jint)len;
	return true;
}

void JNICALL cb_class_file_load_hook(jvmtiEnv *jv, JNIEnv *jni, jclass class_being_redefined,
				     jobject loader, const char *name, jobject protection_domain,
				     jint class_data_len, const unsigned char *class_data,
				     jint *new_class_data_len, unsigned char **new_class_data)
{
	bool act = atomic_load(&active);

	(void)protection_domain;
	/* the calls' own class, and the root of every class and of the VM's
	 * object layout, are never changed; with injection off, only a class
	 * being retransformed may need its natives wrapped again */
	if ((!act && !(class_being_redefined && natwrap_any())) || !name ||
	    strcmp(name, CLASSFILE_PROBE_CLASS) == 0 || strcmp(name, "java/lang/Object") == 0)
		return;
	/* on the heap, whatever the name's length: a class skipped here would
	 * have no record and be retransformed again at every update */
	size_t len = strlen(name);
	char *sig = malloc(len + 3);
	if (!sig) {
		sj_warn("class %s cannot have injected calls (out of memory)", name);
		return;
	}
	sig[0] = 'L';
	memcpy(sig + 1, name, len);
	memcpy(sig + 1 + len, ";", 2);
	/* as agent_class_signature() gives it for the same class */
	len = mutf8_to_utf8(sig, len + 2, MUTF8_NAME) - 2;
	sig[len + 2] = '\0';
	struct hook_ctx h = { .jni = jni, .sig = sig, .methods = act && conns_want_method_class(sig, METHOD_EVENTS),
			      .notify = act ? notifysites_wanted() : 0 };
	uint8_t *wrapped = NULL, *out = NULL;
	size_t wrapped_len = 0, out_len = 0;
	const uint8_t *data = class_data;
	size_t data_len = (size_t)class_data_len;
	if (natwrap_class(jni, sig, class_being_redefined, loader, h.methods ? wrap_select : NULL, &h, &active,
			  class_data, data_len, &wrapped, &wrapped_len) > 0) {
		data = wrapped;
		data_len = wrapped_len;
	}
	if (!act) {
		/* no calls, no record: the natives wrapped again, nothing else */
		if (wrapped && !hand_over(jv, wrapped, wrapped_len, new_class_data_len, new_class_data))
			sj_warn("class %.*s: its native methods cannot be wrapped again (out of memory)",
				(int)strlen(sig) - 2, sig + 1);
		free(wrapped);
		free(sig);
		return;
	}
	uint32_t lh = loader_hash_of(loader);
	int rc = 0;
	const char *why = NULL;
	if (h.methods || h.notify) {
		struct classfile_hooks hooks = { &h, hook_select, hook_refused, hook_select_lines,
						 hook_select_notify };
		rc = classfile_inject(data, data_len, &hooks, &out, &out_len, &why);
	}
	if (rc > 0 && !h.rn.nomem && hand_over(jv, out, out_len, new_class_data_len, new_class_data)) {
		/* given */
	} else {
		if (rc != 0 || h.rn.nomem) {
			why = rc < 0 && why ? why : "out of memory";
			sj_warn("class %.*s cannot have injected calls (%s)", (int)len, sig + 1, why);
			refuse_all(&h.rn, why);
		}
		/* a class with wrapped natives keeps them, calls or none */
		if (wrapped && !hand_over(jv, wrapped, wrapped_len, new_class_data_len, new_class_data))
			sj_warn("class %.*s: its native methods cannot be wrapped (out of memory)", (int)len, sig + 1);
	}
	/* no calls wanted: retransformed back, no record */
	records_set(sig, lh, &h.rn);
	free(sig);
	free(out);
	free(wrapped);
}

/* A named module that calls Probe must read its (unnamed) module. */
static void module_reads(JNIEnv *jni, jclass klass)
{
	jobject pm = probe_module();

	if (!pm)
		return;
	jobject m = (*jni)->GetModule(jni, klass);
	if (m) {
		(*agent.jvmti)->AddModuleReads(agent.jvmti, m, pm);
		(*jni)->DeleteLocalRef(jni, m);
	}
}

bool inject_active(void)
{
	return atomic_load(&active);
}

enum inject_cover inject_covers(JNIEnv *jni, jclass klass, const char *sig, const struct mentry *e,
			       uint8_t events)
{
	if (!atomic_load(&active))
		return INJECT_NOT;
	/* reported from their callers' calls (notifysites.h) */
	if (events == WIRE_METHOD_ENTER && notifysites_is(e->name, e->name_len) &&
	    strcmp(sig, "Ljava/lang/Object;") == 0)
		return INJECT_COVERED;
	if (!class_modifiable(klass))
		return INJECT_HIDDEN;
	int f = records_flags(sig, class_loader_hash(jni, klass), e->name);
	uint8_t need = rec_flags(events);
	/* < 0: the class has no record (one without the method gives 0). Every
	 * class the hook or a retransformation saw has one, refused ones too:
	 * none is one whose ClassPrepare is still to come or under way on its
	 * own thread (a fallback scan can see it prepared first) */
	if (f < 0)
		return INJECT_PENDING;
	if (f & REC_SKIPPED)
		return INJECT_SKIPPED;
	return !(f & REC_REFUSED) && (f & need) == need ? INJECT_COVERED : INJECT_NOT;
}

static void log_count(void);

static bool class_needs_calls(jclass klass, const char *sig, uint32_t lh);
static size_t retransform_chunk(JNIEnv *jni, jclass *v, size_t n, bool want);

static void say_notify_unreported(const char *sig, unsigned kinds)
{
	char dotted[1024];
	ssize_t dn = name_class_signature_to_dotted(sig, strlen(sig), dotted, sizeof(dotted));

	emit_notice(notifysites_conns(kinds), "method.enter of %s called from %s cannot be reported: a "
		    "class the VM will not change (a hidden class)",
		    kinds == 3 ? "java.lang.Object.notify()V and notifyAll()V"
		    : kinds == 2 ? "java.lang.Object.notifyAll()V" : "java.lang.Object.notify()V",
		    dn < 0 ? sig : dotted);
}

void inject_class_prepared(JNIEnv *jni, jclass klass, const char *sig)
{
	if (!atomic_load(&active) || sig[0] == '[')
		return;
	uint32_t lh = class_loader_hash(jni, klass);
	/* with a root pattern, a class the hook changed for one pattern may
	 * have methods another selects only now that its ancestry is known */
	bool roots = lineage_wanted();
	if (records_flags(sig, lh, "") < 0 || roots) {
		/* most classes: no registration can name a method of theirs, and
		 * their pool names no notify (read without update_lock: while
		 * notify is wanted, every class prepared is asked) */
		unsigned notify = notifysites_wanted() ? notifysites_in_pool(klass) : 0;
		if (!conns_want_method_class(sig, METHOD_EVENTS) && records_flags(sig, lh, "") < 0 && !notify)
			return;
		/* a class the VM will not change (a hidden class: no class-file
		 * hook ran either) keeps its calls of notify unreported: said to
		 * those that want them, once (a class is prepared once) */
		if (notify && !class_modifiable(klass))
			say_notify_unreported(sig, notify);
		/* Its bytes went past the hook before the registration, and the
		 * update's scan of the prepared classes came before its
		 * preparation: retransform it now, before any of its code runs
		 * (after an update under way, which may have done it). */
		pthread_mutex_lock(&update_lock);
		if (atomic_load(&active) && (roots || records_flags(sig, lh, "") < 0) && class_modifiable(klass) &&
		    class_needs_calls(klass, sig, lh))
			retransform_chunk(jni, &klass, 1, true);
		pthread_mutex_unlock(&update_lock);
		if (records_flags(sig, lh, "") < 0)
			return;
	}
	module_reads(jni, klass);
	log_count();
}

bool inject_own_handler(jmethodID method, jlocation location, bool rethrow)
{
	const jlocation len = CODEATTR_HANDLER_LEN;
	jvmtiEnv *jv = agent.jvmti;
	jlocation start = 0, end = 0;
	unsigned char *code = NULL;
	jint n = 0;
	bool ours = false;

	if (!records_count() || !method ||
	    (*jv)->GetMethodLocation(jv, method, &start, &end) != JVMTI_ERROR_NONE)
		return false;
	/* the last copy ends the code; a constructor's other copy is just before it */
	const jlocation last = end + 1 - len;
	const bool other = location < last;
	const jlocation at = location - (other ? last - len : last);
	const bool where = at >= 0 && (rethrow ? at == CODEATTR_THROWN_CALL_AT || at == CODEATTR_COUNT_AT - 1 ||
							 at == len - 1
					       : at == 0 || at == CODEATTR_COUNT_AT);
	if (!where || !agent.caps.can_get_bytecodes ||
	    (*jv)->GetBytecodes(jv, method, &n, &code) != JVMTI_ERROR_NONE)
		return false;
	if (n >= len && end == n - 1) {
		ours = codeattr_is_handler(code + n - len);
		if (ours && other)
			ours = n >= 2 * len && memcmp(code + n - 2 * len, code + n - len, (size_t)len) == 0;
	}
	(*jv)->Deallocate(jv, code);
	return ours;
}

void inject_want_capabilities(jvmtiCapabilities *w, const jvmtiCapabilities *p)
{
	w->can_retransform_classes = p->can_retransform_classes;
	w->can_get_constant_pool = p->can_get_constant_pool;     /* notifysites.h */
	/* the handler's own catch and rethrow are known by their code; and
	 * fallback.c's loop check */
	w->can_get_bytecodes = p->can_get_bytecodes;
	w->can_set_native_method_prefix = p->can_set_native_method_prefix;   /* natwrap.h */
}

static void hook_enable(bool on)
{
	if (hook_on == on)
		return;
	if ((*agent.jvmti)->SetEventNotificationMode(agent.jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE,
						     JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL) == JVMTI_ERROR_NONE)
		hook_on = on;
}

/* Does a wanted line of METHOD (named E) lack its call? */
static bool lines_need_calls(jmethodID method, const struct mentry *e, const char *sig, uint32_t lh)
{
	jvmtiEnv *jv = agent.jvmti;
	jvmtiLineNumberEntry *t = NULL;
	jint n = 0;
	bool need = false;
	char *named = agent.caps.can_get_line_numbers ? malloc(e->name_len + 12) : NULL;

	if (!named || (*jv)->GetLineNumberTable(jv, method, &n, &t) != JVMTI_ERROR_NONE) {
		free(named);
		return false;
	}
	memcpy(named, e->name, e->name_len);
	for (jint i = 0; i < n && !need; i++) {
		size_t len = e->name_len + (size_t)snprintf(named + e->name_len, 12, ":%" PRIu32,
							    (uint32_t)t[i].line_number);
		if (!(conns_method_events(named, len, NULL, NULL) & WIRE_METHOD_ENTER))
			continue;
		int f = records_flags(sig, lh, named);
		need = f < 0 || !(f & (REC_ENTER | REC_REFUSED));
	}
	(*jv)->Deallocate(jv, (unsigned char *)t);
	free(named);
	return need;
}

/* Does KLASS lack the calls in front of its invocations of the wanted
 * kinds of notify? Its record first (a class changed already has them),
 * then its constant pool (most classes name neither). */
static bool notify_needs_calls(jclass klass, const char *sig, uint32_t lh)
{
	unsigned want = notifysites_wanted(), lack = 0;
	size_t n;

	for (int k = 0; k < 2; k++) {
		int f = want & (1u << k) ? records_flags(sig, lh, notifysites_wire(k, &n)) : REC_ENTER;
		if (f < 0 || !(f & (REC_ENTER | REC_REFUSED)))
			lack |= 1u << k;
	}
	return lack && (notifysites_in_pool(klass) & lack);
}

/* Does a wanted method of KLASS lack a call it needs? */
static bool class_needs_calls(jclass klass, const char *sig, uint32_t lh)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jmethodID *methods = NULL;
	bool need = false;

	if (notify_needs_calls(klass, sig, lh))
		return true;
	if (!conns_want_method_class(sig, METHOD_EVENTS))
		return false;
	if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return false;
	for (jint i = 0; i < n && !need; i++) {
		struct mmatch m;
		if (mcache_lookup(methods[i], &m) < 0 || m.e->is_abstract || m.e->is_native)
			continue;
		if (lines_need_calls(methods[i], m.e, sig, lh)) {
			need = true;
			break;
		}
		uint8_t events = (m.conns[MC_ENTER] ? WIRE_METHOD_ENTER : 0) |
				 (m.conns[MC_RETURN] ? WIRE_METHOD_RETURN : 0);
		if (!events)
			continue;
		int f = records_flags(sig, lh, m.e->name);
		uint8_t want = rec_flags(events);
		need = f < 0 || (!(f & (REC_REFUSED | REC_SKIPPED)) && (f & want) != want);
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
	/* global: a list of thousands of classes would overflow the I/O
	 * thread's local frame (JNI guarantees 16 local references) */
	jclass ref = (*jni)->NewGlobalRef(jni, k);
	if (!ref)
		return -ENOMEM;
	l->v[l->n++] = ref;
	return 0;
}

static void class_list_free(JNIEnv *jni, struct class_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		(*jni)->DeleteGlobalRef(jni, l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void refuse_class(JNIEnv *jni, jclass klass, const char *why, const char *told);

/* Is an event of a method of Object wanted that calls in its callers do
 * not report (all but the enter of notify and notifyAll)? */
static bool object_wants_calls(jclass klass)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jmethodID *methods = NULL;
	bool want = false;

	if ((*jv)->GetClassMethods(jv, klass, &n, &methods) != JVMTI_ERROR_NONE)
		return true;
	for (jint i = 0; i < n && !want; i++) {
		struct mmatch m;
		if (mcache_lookup(methods[i], &m) == 0)
			want = m.conns[MC_RETURN] ||
			       (m.conns[MC_ENTER] && !notifysites_is(m.e->name, m.e->name_len));
	}
	(*jv)->Deallocate(jv, (unsigned char *)methods);
	return want;
}

struct collect_ctx {
	bool want;
	struct class_list *l;
	unsigned notify;         /* notifysites_wanted(), once per update */
};

/* A loaded class: does it need a retransform (WANT: for calls; else back)? */
static int collect_class(void *arg, JNIEnv *jni, jclass klass, const char *sig)
{
	struct collect_ctx *cc = arg;
	uint32_t lh = class_loader_hash(jni, klass);
	bool keep;

	if (!cc->want) {
		keep = records_flags(sig, lh, "") >= 0;
	} else if (strcmp(sig, "L" CLASSFILE_PROBE_CLASS ";") == 0) {
		keep = false;     /* ours: fallback.h leaves it alone too */
	} else if (strcmp(sig, "Ljava/lang/Object;") == 0) {
		/* never changed (see the hook): recorded refused, so fallback.h reports them */
		if (records_flags(sig, lh, "") < 0 && conns_want_method_class(sig, METHOD_EVENTS) &&
		    object_wants_calls(klass))
			refuse_class(jni, klass, "the VM's root class is left alone", "the VM's root class is left alone");
		keep = false;
	} else {
		if (lineage_wanted()) {
			lineage_learn(jni, klass, sig);
			lineage_tell(sig, false);
		}
		keep = (cc->notify || conns_want_method_class(sig, METHOD_EVENTS)) && class_modifiable(klass) &&
		       class_needs_calls(klass, sig, lh);
	}
	if (keep && cc->want)
		module_reads(jni, klass);
	return keep ? class_list_add(jni, cc->l, klass) : 0;
}

/* A class the VM would not retransform: its wanted methods are recorded
 * refused, so fallback.h reports them (TOLD, a string literal, says why)
 * and no update tries again. WHY is the log's. */
static void refuse_class(JNIEnv *jni, jclass klass, const char *why, const char *told)
{
	jvmtiEnv *jv = agent.jvmti;
	char *sig = NULL;
	jint n = 0;
	jmethodID *methods = NULL;
	struct record_names rn = { 0 };

	if (agent_class_signature(klass, &sig, NULL) < 0)
		return;
	if ((*jv)->GetClassMethods(jv, klass, &n, &methods) == JVMTI_ERROR_NONE) {
		for (jint i = 0; i < n; i++) {
			const struct mentry *e = mcache_entry(methods[i]);
			if (!e)
				continue;
			record_names_add(&rn, e->name, e->name_len, REC_REFUSED);
			remember_refusal(e->name, e->name_len, told);
		}
		(*jv)->Deallocate(jv, (unsigned char *)methods);
	}
	sj_warn("class %s cannot have injected calls (%s)", sig, why);
	records_set(sig, class_loader_hash(jni, klass), &rn);
	(*jv)->Deallocate(jv, (unsigned char *)sig);
}

/* RETRANSFORM_CHUNK classes a call, what is queued written between two
 * calls: a pattern like `*` retransforms thousands of classes, seconds in
 * all, and meanwhile the events of every session wait in their buffers. */
#define RETRANSFORM_CHUNK 64

/* A chunk at once; if the VM refuses it, one by one, so one class it will
 * not take keeps no other from its calls. */
static size_t retransform_chunk(JNIEnv *jni, jclass *v, size_t n, bool want)
{
	jvmtiEnv *jv = agent.jvmti;
	size_t done = 0;

	if ((*jv)->RetransformClasses(jv, (jint)n, v) == JVMTI_ERROR_NONE)
		return n;
	for (size_t i = 0; i < n; i++) {
		jvmtiError err = (*jv)->RetransformClasses(jv, 1, &v[i]);
		if (err == JVMTI_ERROR_NONE)
			done++;
		else if (want) {
			char why[64];
			snprintf(why, sizeof(why), "the VM refused to retransform it: JVMTI error %d", (int)err);
			refuse_class(jni, v[i], why, "the VM refused to retransform its class");
		}
		else
			sj_warn("a class with injected calls could not be restored (JVMTI error %d): its "
				"calls stay, returning at once", (int)err);
	}
	return done;
}

static size_t retransform(JNIEnv *jni, struct class_list *l, bool want)
{
	size_t done = 0;

	for (size_t i = 0; i < l->n; i += RETRANSFORM_CHUNK) {
		size_t n = l->n - i < RETRANSFORM_CHUNK ? l->n - i : RETRANSFORM_CHUNK;
		if (i)
			io_flush_now();
		done += retransform_chunk(jni, l->v + i, n, want);
	}
	if (l->n)
		sj_debug("%zu of %zu class%s retransformed %s", done, l->n, l->n == 1 ? "" : "es",
			 want ? "for calls" : "to their original code");
	return done;
}

static void log_count(void)
{
	pthread_mutex_lock(&log_lock);
	size_t n = atomic_load(&active) ? records_count() : (size_t)-1;
	if (n != logged_n) {
		if (n == (size_t)-1)
			sj_info("method injection off");
		else
			sj_info("method calls injected in %zu class%s", n, n == 1 ? "" : "es");
		logged_n = n;
	}
	pthread_mutex_unlock(&log_lock);
}

/* Under update_lock: calls off; with JNI every changed class back to its original bytes. */
static void restore_all(JNIEnv *jni)
{
	struct class_list l = { 0 };
	struct collect_ctx cc = { false, &l, 0 };

	/* in this order: natwrap.c's wrap_first() stores the other way round */
	atomic_store(&active, false);
	if (!natwrap_any())
		hook_enable(false);
	/* at VM death the calls stay: they return at once, and the VM is going */
	if (jni && records_count() && !atomic_load(&agent.dying)) {
		agent_each_prepared_class(jni, false, collect_class, &cc);
		/* injection is off: each class is rebuilt from its original bytes
		 * (its natives wrapped again, if they were) */
		size_t n = retransform(jni, &l, false);
		if (n)
			sj_info("injected calls removed: %zu class%s back to %s original code", n,
				n == 1 ? "" : "es", n == 1 ? "its" : "their");
		class_list_free(jni, &l);
	}
	records_clear();
}

void inject_update(JNIEnv *jni, bool want)
{
	pthread_mutex_lock(&update_lock);
	if (!want || !jni || !agent.caps.can_retransform_classes || probe_define(jni) < 0) {
		restore_all(jni);
	} else {
		struct class_list l = { 0 };
		struct collect_ctx cc = { true, &l, notifysites_wanted() };
		/* on first, so classes loaded during the scan get their calls from the hook */
		atomic_store(&active, true);
		hook_enable(true);
		if (agent_each_prepared_class(jni, false, collect_class, &cc) < 0)
			sj_warn("method injection: the VM lists no loaded classes; only classes "
				"loaded from now on get calls");
		retransform(jni, &l, true);
		class_list_free(jni, &l);
	}
	log_count();
	pthread_mutex_unlock(&update_lock);
}
