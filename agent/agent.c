/* agent.c: the JVMTI entry points (Agent_OnLoad, Agent_OnAttach), VMInit and VMDeath.
 *
 * Loading sets up everything that needs no running VM (options, log,
 * capabilities, callbacks); VMInit starts the I/O thread that creates the
 * socket; VMDeath flushes and closes. The agent installs no signal handler
 * and never calls exit(): any failure after the options leaves the JVM running
 * without probes, with one log line saying why.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callbacks.h"
#include "capture.h"
#include "osthread.h"
#include "clock.h"
#include "conn.h"
#include "emit.h"
#include "inthread.h"
#include "inject.h"
#include "io.h"
#include "jfr.h"
#include "jvmti_events.h"
#include "log.h"
#include "mutf8.h"
#include "natwrap.h"
#include "options.h"
#include "overflow.h"
#include "scratch.h"
#include "tbuf.h"

struct agent agent;
static atomic_bool loaded;

AGENT_TLS pid_t agent_my_tid;

pid_t agent_gettid_first(void)
{
	return agent_my_tid = gettid();
}

unsigned long long agent_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* NUL-terminated S in standard UTF-8, by a name's rules (mutf8.h); returns its length. */
static size_t utf8_in_place(char *s)
{
	size_t n = mutf8_to_utf8(s, strlen(s), MUTF8_NAME);

	s[n] = '\0';
	return n;
}

int agent_class_signature(jclass klass, char **sig, size_t *len)
{
	*sig = NULL;
	if ((*agent.jvmti)->GetClassSignature(agent.jvmti, klass, sig, NULL) != JVMTI_ERROR_NONE ||
	    !*sig)
		return -EIO;
	size_t n = utf8_in_place(*sig);
	if (len)
		*len = n;
	return 0;
}

int agent_each_prepared_class(JNIEnv *jni, bool with_arrays, agent_class_fn fn, void *ctx)
{
	jvmtiEnv *jv = agent.jvmti;
	jint n = 0;
	jclass *classes = NULL;
	int rc = 0;

	if ((*jv)->GetLoadedClasses(jv, &n, &classes) != JVMTI_ERROR_NONE)
		return -ENOTSUP;
	for (jint i = 0; i < n; i++) {
		jint status = 0;
		char *sig = NULL;
		if (rc == 0 && (*jv)->GetClassStatus(jv, classes[i], &status) == JVMTI_ERROR_NONE &&
		    (status & JVMTI_CLASS_STATUS_PREPARED) &&
		    (with_arrays || !(status & (JVMTI_CLASS_STATUS_ARRAY | JVMTI_CLASS_STATUS_PRIMITIVE))) &&
		    agent_class_signature(classes[i], &sig, NULL) == 0) {
			rc = fn(ctx, jni, classes[i], sig);
			(*jv)->Deallocate(jv, (unsigned char *)sig);
		}
		(*jni)->DeleteLocalRef(jni, classes[i]);
	}
	(*jv)->Deallocate(jv, (unsigned char *)classes);
	return rc;
}

static void vm_event(unsigned code)
{
	struct emission em;
	struct scratch *s = emission_begin(&em, true);

	if (!s)
		return;
	emit_want_family(&em.want, EVENT_FAMILY_VM);
	if (em.want.conns) {
		s->ev.code = code;
		s->ev.thread = em.tid;
		emit(&em);
	}
	scratch_leave();
}

static void describe(void)
{
	jvmtiEnv *jv = agent.jvmti;
	char *name = NULL, *version = NULL;

	agent.pid = getpid();
	/* JVMTI gives properties in modified UTF-8; our Hello's description is UTF-8 */
	if ((*jv)->GetSystemProperty(jv, "java.vm.name", &name) == JVMTI_ERROR_NONE && name)
		utf8_in_place(name);
	if ((*jv)->GetSystemProperty(jv, "java.vm.version", &version) == JVMTI_ERROR_NONE && version)
		utf8_in_place(version);
	snprintf(agent.description, sizeof(agent.description), AGENT_IDENT " " AGENT_VERSION "; %s %s",
		 name ? name : "JVM", version ? version : "");
	if (name)
		(*jv)->Deallocate(jv, (unsigned char *)name);
	if (version)
		(*jv)->Deallocate(jv, (unsigned char *)version);
}

/* Called once the VM runs Java code: from VMInit, or at once when attached. */
static void start_live(JNIEnv *jni)
{
	describe();
	capture_init(jni);
	osthread_init(jni);
	io_start(jni);
}

void JNICALL agent_vm_init(jvmtiEnv *jv, JNIEnv *jni, jthread thread)
{
	start_live(jni);
	if (agent.opt.wait_ms)
		io_wait_for_bridge(agent.opt.wait_ms);
	vm_event(WIRE_EV_VM_INIT);
}

void JNICALL agent_vm_death(jvmtiEnv *jv, JNIEnv *jni)
{
	/* the JFR data the JVM wrote last goes before the end of the stream,
	 * and what no tracer saw is said */
	jfr_vm_death();
	inthread_tell_unseen();
	overflow_poll(jni);   /* a return lost to the last overflow goes before the end */
	vm_event(WIRE_EV_VM_DEATH);
	atomic_store(&agent.dying, true);
	events_disable_all();
	io_shutdown();
}

static void open_log(void)
{
	int fd = -1;

	if (agent.opt.logfile[0]) {
		fd = open(agent.opt.logfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
		if (fd < 0) {
			sj_log_open(AGENT_IDENT, -1, (enum sj_log_level)agent.opt.loglevel);
			sj_error("logfile %s: %s; logging to stderr", agent.opt.logfile, strerror(errno));
			return;
		}
	}
	sj_log_open(AGENT_IDENT, fd, (enum sj_log_level)agent.opt.loglevel);
}

/* Capabilities, callbacks and (attached) the I/O thread, once JVMTI answers. */
static void start_jvmti(JNIEnv *jni)
{
	jvmtiCapabilities potential, want;
	jvmtiEnv *jv = agent.jvmti;

	memset(&potential, 0, sizeof(potential));
	(*jv)->GetPotentialCapabilities(jv, &potential);
	events_want_capabilities(&want, &potential);
	if ((*jv)->AddCapabilities(jv, &want) != JVMTI_ERROR_NONE)
		sj_warn("some JVMTI capabilities were refused; some probes will stay silent");
	(*jv)->GetCapabilities(jv, &agent.caps);
	natwrap_setup();
	conn_table_init();
	scratch_init();
	tbuf_init(agent.opt.threadbuf);
	if (clock_init(agent.opt.clock != OPT_CLOCK_MONOTONIC) < 0 && agent.opt.clock == OPT_CLOCK_TSC)
		sj_warn("clock=tsc: the kernel's clock does not run on the TSC here; timestamps come "
			"from clock_gettime(CLOCK_MONOTONIC)");
	sj_debug("event timestamps from the %s clock", clock_source());
	if (io_init() < 0 || events_install() < 0) {
		sj_error("cannot set up JVMTI callbacks; the JVM runs on without probes");
		return;
	}
	if (agent.live)
		start_live(jni);
}

static jint setup(JavaVM *vm, const char *options, bool live)
{
	char err[256];

	if (atomic_exchange(&loaded, true)) {
		sj_log_open(AGENT_IDENT, -1, SJ_LOG_WARN);
		sj_warn("loaded twice into one JVM; the second load does nothing");
		return JNI_OK;
	}
	sj_log_open(AGENT_IDENT, -1, SJ_LOG_WARN);
	if (options_parse(options, &agent.opt, err, sizeof(err)) < 0) {
		/* a mistyped option must not go unnoticed: refuse to start, naming it */
		sj_error("%s; the agent is not loaded", err);
		atomic_store(&loaded, false);
		return JNI_ERR;
	}
	agent.vm = vm;
	agent.live = live;
	jint env = (*vm)->GetEnv(vm, (void **)&agent.jvmti, JVMTI_VERSION_11);
	if (env != JNI_OK && live) {
		/* HotSpot's attach listener can answer while the VM is still
		 * starting, when no JVMTI environment can be had (JNI_EDETACHED):
		 * the attaching tool tries again. A JVM without JVMTI 11 never
		 * will. Either way HotSpot unloads us, so nothing is opened yet. */
		atomic_store(&loaded, false);
		return env == JNI_EVERSION ? AGENT_ATTACH_TOO_OLD : AGENT_ATTACH_TOO_EARLY;
	}
	open_log();
	if (env != JNI_OK) {
		sj_error("this JVM has no JVMTI 11 environment (JDK 11 or later is needed); the JVM "
			 "runs on without probes");
		return JNI_OK;
	}
	JNIEnv *jni = NULL;
	if (live && ((*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK || !jni)) {
		sj_error("attach: no JNI environment; the JVM runs on without probes");
		return JNI_OK;
	}
	start_jvmti(jni);
	sj_debug("loaded (%s), options '%s'", live ? "attached" : "at start", options ? options : "");
	return JNI_OK;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	return setup(vm, options, false);
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
	return setup(vm, options, true);
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
	/* nothing is freed: callbacks of exiting threads may still read agent state */
}
