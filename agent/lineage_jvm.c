/* lineage_jvm.c: lineage.h's records from JVMTI, and the Descends events
 * (PROTOCOL.md, "Root method patterns") that tell a bridge which loaded
 * classes descend from the roots of its patterns. */
#include "lineage.h"
#include "lineage_jvm.h"

#include <string.h>

#include "agent.h"
#include "conn.h"
#include "emit.h"
#include "pattern.h"
#include "scratch.h"

#define NAME_MAX_BYTES 1024

static ssize_t dotted_of(const char *sig, size_t len, char *out)
{
	return name_class_signature_to_dotted(sig, len, out, NAME_MAX_BYTES);
}

void lineage_learn(JNIEnv *jni, jclass klass, const char *sig)
{
	jvmtiEnv *jv = agent.jvmti;
	char cls[NAME_MAX_BYTES], sup[NAME_MAX_BYTES];
	ssize_t n = dotted_of(sig, strlen(sig), cls);
	jclass k = klass;

	/* up from KLASS until a class already noted (its ancestors are) */
	for (int depth = 0; n > 0 && depth < 512 && !lineage_known(cls, (size_t)n); depth++) {
		jclass s = (*jni)->GetSuperclass(jni, k);
		char *ssig = NULL;
		size_t slen = 0;
		ssize_t m = -1;
		if (s && agent_class_signature(s, &ssig, &slen) == 0) {
			m = dotted_of(ssig, slen, sup);
			(*jv)->Deallocate(jv, (unsigned char *)ssig);
		}
		if (k != klass)
			(*jni)->DeleteLocalRef(jni, k);
		k = s;
		if (m <= 0 || lineage_note(cls, (size_t)n, sup, (size_t)m) < 0)
			break;
		memcpy(cls, sup, (size_t)m);
		n = m;
	}
	if (k && k != klass)
		(*jni)->DeleteLocalRef(jni, k);
}

struct tell {
	unsigned conn;
	const char *sig;
	bool java_thread;
};

static bool is_conn(const struct conn *c, const void *arg)
{
	const struct tell *t = arg;

	return (unsigned)(c - conns) == t->conn && (c->peer.caps & WIRE_CAP_ROOTS) &&
	       !__atomic_load_n(&c->in_thread, __ATOMIC_RELAXED);
}

static void tell_root(void *ctx, const char *root, size_t rlen)
{
	const struct tell *t = ctx;
	char rsig[NAME_MAX_BYTES + 2];

	/* the root as a class signature, as the event's class is */
	rsig[0] = 'L';
	for (size_t i = 0; i < rlen; i++)
		rsig[1 + i] = root[i] == '.' ? '/' : root[i];
	rsig[1 + rlen] = ';';
	struct emission em;
	struct scratch *s = emission_begin(&em, t->java_thread);
	if (!s)
		return;
	emit_want(&em.want, is_conn, t, true);
	if (em.want.conns) {
		s->ev.code = WIRE_EV_DESCENDS;
		s->ev.name.ptr = t->sig;
		s->ev.name.len = (uint32_t)strlen(t->sig);
		s->ev.method.ptr = rsig;
		s->ev.method.len = (uint32_t)rlen + 2;
		emit(&em);
	}
	scratch_leave();
}

void lineage_tell(const char *sig, bool java_thread)
{
	char cls[NAME_MAX_BYTES];
	ssize_t n = dotted_of(sig, strlen(sig), cls);

	for (unsigned i = 0; n > 0 && i < AGENT_MAX_CONNS; i++) {
		struct conn *c = &conns[i];
		if (!__atomic_load_n(&c->active, __ATOMIC_ACQUIRE) || !(c->peer.caps & WIRE_CAP_ROOTS) ||
		    !regset_has_roots(&c->regs))
			continue;
		struct tell t = { i, sig, java_thread };
		regset_roots_above(&c->regs, cls, (size_t)n, tell_root, &t);
	}
}
