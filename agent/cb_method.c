/* cb_method.c: Breakpoint, MethodExit (fallback.h), CompiledMethodLoad -> 0x80, 0x81, 0x82.
 * Injected calls report through probe.c. */
#include "fallback.h"
#include "callbacks.h"
#include "capture.h"
#include "mcache.h"

static void method_event(JNIEnv *jni, jthread thread, const struct mmatch *m, int mc,
			 unsigned code, bool popped, const jvalue *value)
{
	struct emission em;
	struct scratch *s = emission_begin(&em, true);

	if (!s)
		return;
	em.want.conns = m->conns[mc];
	em.want.fire = m->fire[mc];
	em.want.gen = m->gen;
	emit_want_opt(&em.want);
	s->ev.code = code;
	s->ev.name.ptr = m->e->name;
	s->ev.name.len = m->e->name_len;
	s->ev.thread = em.tid;
	/* no GetLocal*: the agent does without can_access_local_variables */
	if (code == WIRE_EV_METHOD_ENTER && (em.want.opt & WIRE_OPT_ARGUMENTS)) {
		capture_args_unavailable(m->e, s);
		em.args_captured = true;
	}
	if (code == WIRE_EV_METHOD_EXIT) {
		s->ev.popped = popped;
		if (!popped && (em.want.opt & WIRE_OPT_RETURN_VALUE)) {
			capture_return(jni, m->e, *value, s);
			em.ret_captured = true;
		}
	}
	emission_capture_stack(&em, s, thread);
	emit(&em);
	scratch_leave();
}

/* method.enter where fallback.h set a breakpoint at location 0 */
void JNICALL cb_breakpoint(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			   jlocation location)
{
	struct mmatch m;

	if (location != 0 || !fallback_breakpoints_active() || mcache_lookup(method, &m) < 0 ||
	    !m.conns[MC_ENTER] || !m.e->bp_set)
		return;
	method_event(jni, thread, &m, MC_ENTER, WIRE_EV_METHOD_ENTER, false, NULL);
}

/* MethodExit fires for every method while on: only those fallback.h marked
 * are looked at, and with no JVMTI call on any other jmethodID (one of an
 * obsolete method version crashed JDK 17 in GetMethodName). */
void JNICALL cb_method_exit(jvmtiEnv *jv, JNIEnv *jni, jthread thread, jmethodID method,
			    jboolean popped, jvalue value)
{
	const struct mentry *e = mcache_find(method);
	struct mmatch m;

	if (!e || !atomic_load_explicit(&e->by_exit_event, memory_order_relaxed) ||
	    mcache_lookup(method, &m) < 0 || !m.conns[MC_RETURN])
		return;
	method_event(jni, thread, &m, MC_RETURN, WIRE_EV_METHOD_EXIT, popped, &value);
}

void JNICALL cb_compiled_method_load(jvmtiEnv *jv, jmethodID method, jint code_size,
				     const void *code_addr, jint map_length,
				     const jvmtiAddrLocationMap *map, const void *compile_info)
{
	struct mmatch m;
	struct emission em;

	if (mcache_lookup(method, &m) < 0 || !m.conns[MC_COMPILE])
		return;
	struct scratch *s = emission_begin(&em, true);
	if (!s)
		return;
	em.want.conns = m.conns[MC_COMPILE];
	em.want.fire = m.fire[MC_COMPILE];
	em.want.gen = m.gen;
	s->ev.code = WIRE_EV_METHOD_COMPILE;
	s->ev.name.ptr = m.e->name;
	s->ev.name.len = m.e->name_len;
	s->ev.u32 = (uint32_t)code_size;
	s->ev.nvalues = 1;
	memset(&s->ev.values[0], 0, sizeof(s->ev.values[0]));
	s->ev.values[0].type = WIRE_T_LONG;
	s->ev.values[0].v.i = (int64_t)(intptr_t)code_addr;
	emit(&em);
	scratch_leave();
}
