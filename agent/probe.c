/* probe.c: see probe.h. */
#include "probe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "callbacks.h"
#include "classfile.h"
#include "conn.h"
#include "emit.h"
#include "inject.h"
#include "log.h"
#include "overflow.h"
#include "sites.h"

static jclass probe_class;            /* global ref, once defined */
static jobject probe_mod;             /* global ref; NULL before JDK 9 */

jobject probe_module(void)
{
	return probe_mod;
}

/* The common case first, without the scratch (emit_plain_method): true
 * when it is done. The event's optional data OPT_NEEDED: asked for by any
 * wanting connection, the general path captures it. Inline in each native,
 * whose general path is a call of its own (noinline): the common case then
 * pays no frame for the general one's structs. */
static inline __attribute__((always_inline)) bool plain(jint site, int ev, unsigned code, uint32_t opt_needed)
{
	const struct mentry *e;
	uint32_t wanting;
	uint64_t gen;

	if (!inject_active())
		return true;
	if (sites_conns(site, ev, &e, &wanting, &gen) < 0)
		return false;
	return !wanting || emit_plain_method(site, &e->fire[ev], code, wanting, gen,
					     opt_needed | WIRE_OPT_STACK);
}

/* The connections that want event EV (MC_ENTER or MC_RETURN) of SITE. */
static bool site_wanted(jint site, int ev, struct mmatch *m)
{
	return inject_active() && sites_match(site, m) == 0 && m->conns[ev];
}

/* Start event EV (MC_ENTER or MC_RETURN) of M for the connections that want it. */
static struct scratch *begin(jint site, const struct mmatch *m, int ev, unsigned code,
			     struct emission *em)
{
	struct scratch *s = emission_begin(em, true);

	if (!s)
		return NULL;
	em->depth = 1;  /* the Probe native's caller is the method */
	em->site = site;
	em->want.conns = m->conns[ev];
	em->want.fire = m->fire[ev];
	em->want.gen = m->gen;
	emit_want_opt(&em->want);
	s->ev.code = code;
	s->ev.name.ptr = m->e->name;
	s->ev.name.len = m->e->name_len;
	s->ev.thread = em->tid;
	return s;
}

/* Event EV (MC_ENTER or MC_RETURN) at SITE, which plain() did not take:
 * the event begun for the connections that want it (NULL when none does). */
static struct scratch *begin_site(jint site, int ev, unsigned code, struct mmatch *m, struct emission *em)
{
	if (!site_wanted(site, ev, m))
		return NULL;
	return begin(site, m, ev, code, em);
}

static void finish(struct emission *em, struct scratch *s)
{
	emission_capture_stack(em, s, NULL);
	emit(em);
	scratch_leave();
}

static __attribute__((noinline)) void enter_general(jint site)
{
	struct mmatch m;
	struct emission em;
	struct scratch *s = begin_site(site, MC_ENTER, WIRE_EV_METHOD_ENTER, &m, &em);

	if (s)
		finish(&em, s);
}

static void JNICALL p_enter(JNIEnv *jni, jclass k, jint site)
{
	if (!plain(site, MC_ENTER, WIRE_EV_METHOD_ENTER, 0))
		enter_general(site);
}

/* The event waits for its arguments (the argX calls, then entered) only when
 * a connection wants them; otherwise it goes now and the bytecode skips them. */
static __attribute__((noinline)) jboolean enter_args_general(jint site)
{
	struct mmatch m;
	struct emission em;
	struct scratch *s;

	if (!site_wanted(site, MC_ENTER, &m) || !(s = begin(site, &m, MC_ENTER, WIRE_EV_METHOD_ENTER, &em)))
		return JNI_FALSE;
	if (!(em.want.opt & WIRE_OPT_ARGUMENTS)) {
		finish(&em, s);
		return JNI_FALSE;
	}
	s->pending_em = em;
	s->pending_site = site;
	s->pending_n = 0;
	s->pending_desc = m.e->desc_off + 1;
	scratch_leave();
	return JNI_TRUE;
}

static jboolean JNICALL p_enter_args(JNIEnv *jni, jclass k, jint site)
{
	if (plain(site, MC_ENTER, WIRE_EV_METHOD_ENTER, WIRE_OPT_ARGUMENTS))
		return JNI_FALSE;
	return enter_args_general(site);
}

/* Z B C S I travel as int: V.i read as the type the descriptor says. */
static jvalue from_int(char type, jvalue v)
{
	jint i = v.i;

	switch (type) {
	case 'Z': v.z = (jboolean)(i != 0); break;
	case 'B': v.b = (jbyte)i; break;
	case 'C': v.c = (jchar)i; break;
	case 'S': v.s = (jshort)i; break;
	default: break;
	}
	return v;
}

/* One argument of the pending event, its type from the method's descriptor. */
static void arg(JNIEnv *jni, jvalue v, bool is_int)
{
	struct scratch *s = scratch_resume();
	char type;

	if (!s)
		return;
	const char *name = s->pending_em.ev->name.ptr;
	const char *next = capture_next_param(name + s->pending_desc, &type);
	if (next && s->pending_n < WIRE_MAX_VALUES) {
		capture_value(jni, s, type, is_int ? from_int(type, v) : v, &s->ev.values[s->pending_n++]);
		s->pending_desc = (uint32_t)(next - name);
	}
	scratch_leave();
}

static void JNICALL p_arg_i(JNIEnv *jni, jclass k, jint v) { arg(jni, (jvalue){ .i = v }, true); }
static void JNICALL p_arg_j(JNIEnv *jni, jclass k, jlong v) { arg(jni, (jvalue){ .j = v }, false); }
static void JNICALL p_arg_f(JNIEnv *jni, jclass k, jfloat v) { arg(jni, (jvalue){ .f = v }, false); }
static void JNICALL p_arg_d(JNIEnv *jni, jclass k, jdouble v) { arg(jni, (jvalue){ .d = v }, false); }
static void JNICALL p_arg_l(JNIEnv *jni, jclass k, jobject v) { arg(jni, (jvalue){ .l = v }, false); }

static void JNICALL p_entered(JNIEnv *jni, jclass k, jint site)
{
	struct scratch *s = scratch_resume();

	if (!s)
		return;
	if (s->pending_site != site) {
		scratch_leave();
		return;
	}
	struct emission em = s->pending_em;
	s->pending_site = -1;
	s->ev.nvalues = s->pending_n;
	em.args_captured = true;
	finish(&em, s);
}

static __attribute__((noinline)) void ret_general(JNIEnv *jni, jint site, jvalue v, bool is_int)
{
	struct mmatch m;
	struct emission em;
	struct scratch *s = begin_site(site, MC_RETURN, WIRE_EV_METHOD_EXIT, &m, &em);

	if (!s)
		return;
	if (em.want.opt & WIRE_OPT_RETURN_VALUE) {
		char type = m.e->ret_kind;
		capture_value(jni, s, type, is_int ? from_int(type, v) : v, &s->ev.retval);
		em.ret_captured = true;
	}
	finish(&em, s);
}

/* A void method's return is plain even for a connection that wants return
 * values: its value is known (conn.c puts the void value in the message). */
static inline __attribute__((always_inline)) void ret(JNIEnv *jni, jint site, jvalue v, bool is_int,
						      bool is_void)
{
	if (!plain(site, MC_RETURN, WIRE_EV_METHOD_EXIT, is_void ? 0 : WIRE_OPT_RETURN_VALUE))
		ret_general(jni, site, v, is_int);
}

static void JNICALL p_ret_v(JNIEnv *jni, jclass k, jint site) { ret(jni, site, (jvalue){ .j = 0 }, false, true); }
static void JNICALL p_ret_i(JNIEnv *jni, jclass k, jint v, jint site) { ret(jni, site, (jvalue){ .i = v }, true, false); }
static void JNICALL p_ret_j(JNIEnv *jni, jclass k, jlong v, jint site) { ret(jni, site, (jvalue){ .j = v }, false, false); }
static void JNICALL p_ret_f(JNIEnv *jni, jclass k, jfloat v, jint site) { ret(jni, site, (jvalue){ .f = v }, false, false); }
static void JNICALL p_ret_d(JNIEnv *jni, jclass k, jdouble v, jint site) { ret(jni, site, (jvalue){ .d = v }, false, false); }
static void JNICALL p_ret_l(JNIEnv *jni, jclass k, jobject v, jint site) { ret(jni, site, (jvalue){ .l = v }, false, false); }

/* A frame whose call here finds no stack left (a StackOverflowError) is
 * counted by the handler over the call instead (overflow.h). */
static void JNICALL p_thrown(JNIEnv *jni, jclass k, jthrowable t, jint site)
{
	struct mmatch m;
	struct emission em;
	struct scratch *s;

	if (!site_wanted(site, MC_RETURN, &m) || !(s = begin(site, &m, MC_RETURN, WIRE_EV_METHOD_EXIT, &em)))
		return;
	s->ev.popped = true;
	capture_object(jni, s, t, &s->ev.retval);
	em.ret_captured = true;
	finish(&em, s);
}

/* In front of a call of Object.notify()V or notifyAll()V (notifysites.h):
 * SITE stands for Object's method, the stack starts at the caller, and the
 * receiver, the monitor notified, goes as the event's one value to those
 * that asked for monitor detail. */
static void JNICALL p_notify(JNIEnv *jni, jclass k, jobject receiver, jint site)
{
	struct mmatch m;
	struct emission em;
	struct scratch *s;

	if (plain(site, MC_ENTER, WIRE_EV_METHOD_ENTER, WIRE_OPT_MONITOR) ||
	    !(s = begin_site(site, MC_ENTER, WIRE_EV_METHOD_ENTER, &m, &em)))
		return;
	if (em.want.opt & WIRE_OPT_MONITOR) {
		capture_object(jni, s, receiver, &s->ev.values[0]);
		s->ev.nvalues = 1;
		em.receiver_captured = true;
	}
	finish(&em, s);
}

static void *const natives[CF_NPROBE] = {
	[CF_ENTER] = p_enter, [CF_ENTER_ARGS] = p_enter_args, [CF_ARG_I] = p_arg_i,
	[CF_ARG_J] = p_arg_j, [CF_ARG_F] = p_arg_f, [CF_ARG_D] = p_arg_d, [CF_ARG_L] = p_arg_l,
	[CF_ENTERED] = p_entered, [CF_RET_V] = p_ret_v, [CF_RET_I] = p_ret_i, [CF_RET_J] = p_ret_j,
	[CF_RET_F] = p_ret_f, [CF_RET_D] = p_ret_d, [CF_RET_L] = p_ret_l, [CF_THROWN] = p_thrown,
	[CF_NOTIFY] = p_notify,
};

int probe_define(JNIEnv *jni)
{
	uint8_t *bytes = NULL;
	size_t len = 0;
	JNINativeMethod m[CF_NPROBE];

	if (probe_class)
		return 0;
	if (classfile_probe_class(&bytes, &len) < 0) {
		sj_warn("method events cannot be injected: no memory for class %s", CLASSFILE_PROBE_CLASS);
		return -ENOMEM;
	}
	jclass cls = (*jni)->DefineClass(jni, CLASSFILE_PROBE_CLASS, NULL, (const jbyte *)bytes, (jsize)len);
	free(bytes);
	if (!cls) {
		/* defined by an earlier agent instance in this VM: use that one */
		(*jni)->ExceptionClear(jni);
		cls = (*jni)->FindClass(jni, CLASSFILE_PROBE_CLASS);
	}
	for (int i = 0; i < CF_NPROBE; i++)
		m[i] = (JNINativeMethod){ (char *)classfile_probe_methods[i].name,
					  (char *)classfile_probe_methods[i].desc, natives[i] };
	if (!cls || (*jni)->RegisterNatives(jni, cls, m, CF_NPROBE) != 0) {
		(*jni)->ExceptionClear(jni);
		sj_warn("method events cannot be injected: class %s cannot be defined (another "
			"version of it is loaded?)", CLASSFILE_PROBE_CLASS);
		return -EPERM;
	}
	int rc = overflow_setup(jni, cls);
	if (rc < 0) {
		if (rc == -ENOMEM)
			sj_warn("method events cannot be injected: no memory for the lost counts of class %s",
				CLASSFILE_PROBE_CLASS);
		else
			sj_warn("method events cannot be injected: class %s has no field %s of ours "
				"(another version of it is loaded?)", CLASSFILE_PROBE_CLASS, CLASSFILE_LOST_NAME);
		return rc;
	}
	probe_class = (*jni)->NewGlobalRef(jni, cls);
	if ((*jni)->GetVersion(jni) >= JNI_VERSION_9) {
		jobject mod = (*jni)->GetModule(jni, cls);
		probe_mod = mod ? (*jni)->NewGlobalRef(jni, mod) : NULL;
	}
	return probe_class ? 0 : -ENOMEM;
}
