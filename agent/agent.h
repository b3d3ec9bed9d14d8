/* agent.h: the agent's process-wide state, shared by its modules.
 *
 * Contract: filled once in Agent_OnLoad / Agent_OnAttach before any event is
 * enabled; afterwards only `dying` and `io_tid` change. Nothing here is ever
 * freed: callbacks still running while the VM exits may read it.
 */
#ifndef STAPJAVA_AGENT_AGENT_H
#define STAPJAVA_AGENT_AGENT_H

#include <jvmti.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "options.h"

/* Thread-locals of the event path: initial-exec, so a read is one %fs load,
 * not a __tls_get_addr call (3% of a hot method's event). A library loaded
 * late (attach: dlopen) takes them from glibc's surplus static TLS, which
 * has room for these few bytes. */
#define AGENT_TLS __thread __attribute__((tls_model("initial-exec")))

#define AGENT_IDENT "stapjava-agent"
/* Agent_OnAttach's answer when the VM is not running Java code yet (no
 * JVMTI environment): the attaching tool tries again (stpd-bridge/attach.h). */
#define AGENT_ATTACH_TOO_EARLY 73
/* ... and when the JVM has no JVMTI 11 (older than JDK 11): no use trying again. */
#define AGENT_ATTACH_TOO_OLD 74
#define AGENT_VERSION "0.1.0"

struct agent {
	jvmtiEnv *jvmti;
	JavaVM *vm;
	struct agent_options opt;
	jvmtiCapabilities caps;      /* what the VM granted */
	char description[200];       /* for our Hello */
	pid_t pid;                   /* the JVM's, for in-thread markers ($arg2) */
	atomic_int io_tid;           /* OS tid of the agent's I/O thread, 0 before it runs */
	atomic_bool dying;           /* VMDeath seen: no new events, no waiting */
	atomic_bool io_done;         /* the I/O thread closed everything */
	bool live;                   /* attached to a running VM (Agent_OnAttach) */
};

extern struct agent agent;

/* OS thread id of the calling thread (cached per thread). Inline: it is
 * on every event's path in the Java thread, where a call cost as much as
 * the load. */
extern AGENT_TLS pid_t agent_my_tid;   /* 0 until the thread's first call */
pid_t agent_gettid_first(void);
static inline pid_t agent_gettid(void)
{
	pid_t t = agent_my_tid;

	return t ? t : agent_gettid_first();
}
/* CLOCK_MONOTONIC in nanoseconds. */
unsigned long long agent_now_ns(void);

/* KLASS's JVMTI signature in standard UTF-8 (JVMTI gives modified UTF-8;
 * mutf8.h, MUTF8_NAME) into *SIG, which the caller Deallocates; its length
 * into *LEN when LEN is not NULL. Every class name the agent matches or sends
 * comes from here, so all agree. 0, or -EIO when JVMTI gives none. */
int agent_class_signature(jclass klass, char **sig, size_t *len);

/* FN(CTX, JNI, KLASS, SIG) for each loaded class that is prepared (array and
 * primitive classes only WITH_ARRAYS), SIG its signature (agent_class_signature), until FN
 * returns non-zero, which is returned; -ENOTSUP when the VM lists no classes.
 * KLASS is a local reference freed after FN: FN keeps it with NewLocalRef. */
typedef int (*agent_class_fn)(void *ctx, JNIEnv *jni, jclass klass, const char *sig);
int agent_each_prepared_class(JNIEnv *jni, bool with_arrays, agent_class_fn fn, void *ctx);

#endif
