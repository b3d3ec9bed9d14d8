/* mcache.h: per-jmethodID cache of wire names and registration matches.
 *
 * Contract: MethodEntry/MethodExit fire for every method the JVM runs, so
 * names must not be rebuilt and patterns not re-matched on every call. The
 * entry of a method keeps its wire name (built once, never freed: jmethodIDs
 * are never reused) and, for the current conn_generation, which connections
 * want its enter / return / compile events. A registration change bumps the
 * generation, and entries re-match lazily. Callable from any thread that may
 * call JVMTI; the cache's lock is never held across a JNI or JVMTI call.
 */
#ifndef STAPJAVA_AGENT_MCACHE_H
#define STAPJAVA_AGENT_MCACHE_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "inthread.h"

struct mentry {
	jmethodID id;
	const char *name;        /* wire name (UTF-8: pattern.h), NUL-terminated */
	uint32_t name_len;
	uint32_t desc_off;       /* offset of '(' in name */
	char ret_kind;           /* the return type's first character ('V' too), '?' malformed: read
				  * once here, since a class name may hold ')' */
	uint32_t number;         /* this entry's, from 0 (CAP_METHOD_IDS: its id on the wire) */
	const char *source;      /* its class's source file ("Shop.java"), "" unknown */
	uint32_t source_len;
	bool is_static, is_native, is_abstract;
	/* a native renamed with the agent's prefix (cfwrap.h): its wrapper has
	 * the old name and the events; this one nothing ever matches */
	bool is_wrapped_native;
	/* under fallback.c's lock: its breakpoint at location 0 (see fallback.h) */
	int8_t bp_ok;            /* -1 not checked yet, 0 cannot have one, 1 can */
	bool bp_set;
	uint32_t bp_index;       /* in fallback's list while bp_set */
	/* per event (0 enter, 1 return): bit i = conns[i] was told it cannot
	 * be reported, valid for a connection no newer than told_serial
	 * (conn_serial_newest() when last told; fallback.c) */
	uint32_t told[2];
	unsigned told_serial;
	/* entries by name only (mcache_named): why the rewriter or the VM
	 * refused its injected calls (a string literal: every refusal's reason
	 * is one), NULL: not refused; written by inject.c, read through
	 * mcache_refused_why(), both with __atomic builtins */
	const char *refused_why;
	/* set once fallback.h reports its method.return by MethodExit; read by
	 * cb_method_exit() without any lock */
	atomic_bool by_exit_event;
	/* under the cache lock: */
	uint64_t gen;
	uint32_t conns[3];       /* per event (0 enter, 1 return, 2 compile): bit i = conns[i] wants it */
	struct fire_set fire[3]; /* per event: the in-thread slots that select it */
};

struct mmatch {
	const struct mentry *e;  /* NULL: the method's name could not be read */
	uint32_t conns[3];
	struct fire_set fire[3];
	uint64_t gen;
};

enum { MC_ENTER = 0, MC_RETURN = 1, MC_COMPILE = 2 };

/* Fill *M for METHOD. Returns 0 or -errno. */
int mcache_lookup(jmethodID method, struct mmatch *m);
/* Just the entry (name and flags), without matching. NULL on failure. */
const struct mentry *mcache_entry(jmethodID method);
/* FN(CTX, entry) for each method of KLASS (signature SIG) while FN returns
 * true, when method pattern PAT may select some method of that class (the
 * cheap test of pattern.h; PAT NULL: always); false when it cannot or JVMTI lists nothing.
 * For callers that name a class's methods (no lock held). */
struct pattern;
bool mcache_each_method(const struct pattern *pat, jclass klass, const char *sig,
			bool (*fn)(void *ctx, const struct mentry *e), void *ctx);
/* Why E's injected calls were refused: the refused_why of the entry by
 * E's name (inject.c knows a method being loaded by name only, and keeps
 * every refusal there); NULL: not refused. */
const char *mcache_refused_why(const struct mentry *e);
/* The entry if METHOD has one already; never builds one, makes no JVMTI call. */
const struct mentry *mcache_find(jmethodID method);
/* The entry of the method with wire name WIRE (LEN bytes, with its
 * descriptor), made once and kept, without a jmethodID (id NULL) nor any
 * JVMTI call: an injected call's site is bound to it when the class is
 * rewritten, so the call never asks the VM which method it is in (the frame
 * may be of a version a later retransformation made obsolete). NULL: out of
 * memory or no descriptor. */
const struct mentry *mcache_named(const char *wire, size_t len);
/* Copy E's in-thread fire sets of enter and return into M, without the
 * cache's lock (word by word: a set being rewritten for a newer generation
 * gives ids inthread_fire() skips). */
void mcache_fire_sets(const struct mentry *e, struct mmatch *m);
/* Fill *M for an entry of either kind. Returns 0. */
int mcache_match(const struct mentry *e, struct mmatch *m);

#endif
