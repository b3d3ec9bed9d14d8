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

#define AGENT_IDENT "stapjava-agent"
#define AGENT_VERSION "0.1.0"

struct agent {
	jvmtiEnv *jvmti;
	JavaVM *vm;
	struct agent_options opt;
	jvmtiCapabilities caps;      /* what the VM granted */
	char description[200];       /* for our Hello */
	atomic_int io_tid;           /* OS tid of the agent's I/O thread, 0 before it runs */
	atomic_bool dying;           /* VMDeath seen: no new events, no waiting */
	atomic_bool io_done;         /* the I/O thread closed everything */
};

extern struct agent agent;

/* OS thread id of the calling thread (cached per thread). */
pid_t agent_gettid(void);
/* CLOCK_MONOTONIC in nanoseconds. */
unsigned long long agent_now_ns(void);

#endif
