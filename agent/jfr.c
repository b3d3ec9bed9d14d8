/* jfr.c: see jfr.h. The recordings and their settings, every JNI call of
 * the family, on a thread of ours; the chunk data is read from JFR's
 * repository by jfrrepo.c, on the same thread. */
#define _GNU_SOURCE
#include "jfr.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "emit.h"
#include "io.h"
#include "jfrrepo.h"
#include "jfrspec.h"
#include "log.h"
#include "similar.h"

#define JFR_MAX_SIZE (64LL << 20)   /* our recording's maxSize: JFR deletes older chunks */

/* One connection's wish and stream. */
struct jfr_slot {
	/* under lock: what the I/O thread asked */
	uint64_t want_gen;       /* bumped at each request */
	uint64_t conn_gen;       /* opened_gen of the connection the request is for */
	unsigned serial;
	char *want;              /* settings lines; NULL: nothing */
	uint64_t taken_gen;      /* the request the JFR thread is applying */
	uint64_t done_gen;       /* ... and the last it applied */
	/* the JFR thread's */
	uint64_t serving;        /* opened_gen of the connection the recording is for, 0: none */
	jobject recording;       /* global reference, NULL: none */
	struct jfrrepo_stream st;
};

static struct jfr_slot slots[AGENT_MAX_CONNS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool started, dying, drained;
static bool pending;             /* a request is waiting */
static struct jfrrepo repo;     /* the JFR thread's */

/* ------------------------------------------------------------ JNI helpers */

/* An exception from a JFR call, as text ("java.lang.IllegalStateException: ..."), cleared. */
static void exception_text(JNIEnv *jni, char *out, size_t cap)
{
	jthrowable t = (*jni)->ExceptionOccurred(jni);

	snprintf(out, cap, "an exception");
	if (!t)
		return;
	(*jni)->ExceptionClear(jni);
	jclass oc = (*jni)->FindClass(jni, "java/lang/Object");
	jmethodID ts = oc ? (*jni)->GetMethodID(jni, oc, "toString", "()Ljava/lang/String;") : NULL;
	jstring s = ts ? (jstring)(*jni)->CallObjectMethod(jni, t, ts) : NULL;
	if ((*jni)->ExceptionCheck(jni) || !s) {
		(*jni)->ExceptionClear(jni);
		return;
	}
	const char *u = (*jni)->GetStringUTFChars(jni, s, NULL);
	if (u) {
		snprintf(out, cap, "%s", u);
		(*jni)->ReleaseStringUTFChars(jni, s, u);
	}
}

struct jfr_jni {
	jclass fr, rec, map, list, etype, sys;
	jmethodID fr_available, fr_get, fr_types, rec_new, rec_settings, rec_name, rec_start, rec_stop,
		rec_close, rec_max_size, map_new, map_put, list_size, list_get, etype_name, sys_prop;
};
static struct jfr_jni J;
static int jni_state;            /* 0: not looked up, 1: usable, -1: JFR unavailable */
static char unavailable[300];

static jclass global_class(JNIEnv *jni, const char *name)
{
	jclass c = (*jni)->FindClass(jni, name);
	jclass g = c ? (*jni)->NewGlobalRef(jni, c) : NULL;

	if (c)
		(*jni)->DeleteLocalRef(jni, c);
	return g;
}

/* Whether JFR can be had here; UNAVAILABLE says why not. */
static bool jfr_usable(JNIEnv *jni)
{
	if (jni_state)
		return jni_state > 0;
	jni_state = -1;
	J.fr = global_class(jni, "jdk/jfr/FlightRecorder");
	if (!J.fr) {
		(*jni)->ExceptionClear(jni);
		snprintf(unavailable, sizeof unavailable,
			 "this JVM has no jdk.jfr module (a runtime image made without it)");
		return false;
	}
	J.rec = global_class(jni, "jdk/jfr/Recording");
	J.map = global_class(jni, "java/util/HashMap");
	J.list = global_class(jni, "java/util/List");
	J.etype = global_class(jni, "jdk/jfr/EventType");
	J.sys = global_class(jni, "java/lang/System");
	if (!J.rec || !J.map || !J.list || !J.etype || !J.sys) {
		(*jni)->ExceptionClear(jni);
		snprintf(unavailable, sizeof unavailable, "the JVM's jdk.jfr classes could not be found");
		return false;
	}
	J.fr_available = (*jni)->GetStaticMethodID(jni, J.fr, "isAvailable", "()Z");
	J.fr_get = (*jni)->GetStaticMethodID(jni, J.fr, "getFlightRecorder", "()Ljdk/jfr/FlightRecorder;");
	J.fr_types = (*jni)->GetMethodID(jni, J.fr, "getEventTypes", "()Ljava/util/List;");
	J.rec_new = (*jni)->GetMethodID(jni, J.rec, "<init>", "()V");
	J.rec_settings = (*jni)->GetMethodID(jni, J.rec, "setSettings", "(Ljava/util/Map;)V");
	J.rec_name = (*jni)->GetMethodID(jni, J.rec, "setName", "(Ljava/lang/String;)V");
	J.rec_start = (*jni)->GetMethodID(jni, J.rec, "start", "()V");
	J.rec_stop = (*jni)->GetMethodID(jni, J.rec, "stop", "()Z");
	J.rec_close = (*jni)->GetMethodID(jni, J.rec, "close", "()V");
	J.rec_max_size = (*jni)->GetMethodID(jni, J.rec, "setMaxSize", "(J)V");
	J.map_new = (*jni)->GetMethodID(jni, J.map, "<init>", "()V");
	J.map_put = (*jni)->GetMethodID(jni, J.map, "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
	J.list_size = (*jni)->GetMethodID(jni, J.list, "size", "()I");
	J.list_get = (*jni)->GetMethodID(jni, J.list, "get", "(I)Ljava/lang/Object;");
	J.etype_name = (*jni)->GetMethodID(jni, J.etype, "getName", "()Ljava/lang/String;");
	J.sys_prop = (*jni)->GetStaticMethodID(jni, J.sys, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
	if ((*jni)->ExceptionCheck(jni) || !J.fr_available || !J.fr_get || !J.fr_types || !J.rec_new ||
	    !J.rec_settings || !J.rec_name || !J.rec_start || !J.rec_stop || !J.rec_close || !J.rec_max_size ||
	    !J.map_new || !J.map_put || !J.list_size || !J.list_get || !J.etype_name || !J.sys_prop) {
		(*jni)->ExceptionClear(jni);
		snprintf(unavailable, sizeof unavailable, "the JVM's jdk.jfr API lacks a method we use");
		return false;
	}
	jboolean ok = (*jni)->CallStaticBooleanMethod(jni, J.fr, J.fr_available);
	if ((*jni)->ExceptionCheck(jni) || !ok) {
		(*jni)->ExceptionClear(jni);
		snprintf(unavailable, sizeof unavailable,
			 "JFR is disabled in this JVM (FlightRecorder.isAvailable() is false: "
			 "-XX:-FlightRecorder, or the platform lacks it)");
		return false;
	}
	jni_state = 1;
	return true;
}

/* The JVM's event types, a NULL-ended array of strings (one allocation each). */
static char **event_types(JNIEnv *jni, char *why, size_t whylen)
{
	jobject fr = (*jni)->CallStaticObjectMethod(jni, J.fr, J.fr_get);
	jobject list = fr ? (*jni)->CallObjectMethod(jni, fr, J.fr_types) : NULL;
	jint n = list ? (*jni)->CallIntMethod(jni, list, J.list_size) : 0;
	char **names;

	if ((*jni)->ExceptionCheck(jni) || !list) {
		exception_text(jni, why, whylen);
		return NULL;
	}
	names = calloc((size_t)n + 1, sizeof *names);
	for (jint i = 0; names && i < n; i++) {
		jobject t = (*jni)->CallObjectMethod(jni, list, J.list_get, i);
		jstring s = t ? (jstring)(*jni)->CallObjectMethod(jni, t, J.etype_name) : NULL;
		const char *u = s ? (*jni)->GetStringUTFChars(jni, s, NULL) : NULL;
		names[i] = strdup(u ? u : "");
		if (u)
			(*jni)->ReleaseStringUTFChars(jni, s, u);
		(*jni)->DeleteLocalRef(jni, t);
		(*jni)->DeleteLocalRef(jni, s);
		if ((*jni)->ExceptionCheck(jni))
			(*jni)->ExceptionClear(jni);
	}
	if (!names)
		snprintf(why, whylen, "out of memory");
	return names;
}

static void free_types(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

static void map_put(JNIEnv *jni, jobject map, const char *k, const char *v)
{
	jstring ks = (*jni)->NewStringUTF(jni, k), vs = (*jni)->NewStringUTF(jni, v);

	if (ks && vs)
		(*jni)->CallObjectMethod(jni, map, J.map_put, ks, vs);
	(*jni)->DeleteLocalRef(jni, ks);
	(*jni)->DeleteLocalRef(jni, vs);
}

/* "; similar: a, b" for a type NAME the JVM does not have, into OUT. */
static void similar_names(char **types, const struct jfrspec_text *name, char *out, size_t cap)
{
	const char *best[3] = { NULL };
	unsigned dist[3] = { ~0u, ~0u, ~0u }, limit = name->n / 3 + 2;
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; types[i]; i++) {
		unsigned d = similar_distance(name->p, name->n, types[i], strlen(types[i]), limit);
		if (d > limit)
			continue;
		/* ties in name order: the same names in every run, whatever order the JVM lists them in */
		for (int k = 0; k < 3; k++) {
			if (d < dist[k] || (d == dist[k] && strcmp(types[i], best[k]) < 0)) {
				for (int m = 2; m > k; m--) {
					dist[m] = dist[m - 1];
					best[m] = best[m - 1];
				}
				dist[k] = d;
				best[k] = types[i];
				break;
			}
		}
	}
	for (int k = 0; k < 3 && best[k] && len < cap; k++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s", k ? ", " : "; similar: ", best[k]);
}

/* The settings map of TEXT (its lines, checked by jfr_settings), each type
 * it names that the JVM lacks said to the connection. NULL: none selected. */
static jobject settings_map(JNIEnv *jni, unsigned idx, const char *text, size_t *ntypes)
{
	char why[300], key[600], err[200];
	char **types = event_types(jni, why, sizeof why);
	jobject map = types ? (*jni)->NewObject(jni, J.map, J.map_new) : NULL;
	bool *chosen = NULL;
	size_t nt = 0;

	*ntypes = 0;
	if (!types || !map) {
		emit_notice(1u << idx, "JFR events cannot be had: listing the JVM's event types failed: %s",
			    types ? "out of memory" : why);
		free_types(types);
		return NULL;
	}
	while (types[nt])
		nt++;
	chosen = calloc(nt + 1, sizeof *chosen);
	for (const char *line = text; chosen && *line;) {
		size_t len = strcspn(line, "\n");
		struct jfrspec_entry e;
		size_t hits = 0;

		if (jfrspec_parse(line, len, &e, err, sizeof err) == 0) {
			for (size_t t = 0; t < nt; t++) {
				if (!jfrspec_match(&e.pattern, types[t]))
					continue;
				hits++;
				if (!chosen[t]) {
					chosen[t] = true;
					(*ntypes)++;
					snprintf(key, sizeof key, "%s#enabled", types[t]);
					map_put(jni, map, key, "true");
				}
				for (size_t s = 0; s < e.nsettings; s++) {
					char val[JFRSPEC_MAX_VALUE + 1];
					snprintf(key, sizeof key, "%s#%.*s", types[t], (int)e.name[s].n, e.name[s].p);
					snprintf(val, sizeof val, "%.*s", (int)e.value[s].n, e.value[s].p);
					map_put(jni, map, key, val);
				}
			}
			if (hits == 0 && memchr(e.pattern.p, '*', e.pattern.n))
				emit_notice(1u << idx, "no JFR event type of this JVM matches '%.*s'",
					    (int)e.pattern.n, e.pattern.p);
			else if (hits == 0) {
				char sim[300];
				similar_names(types, &e.pattern, sim, sizeof sim);
				emit_notice(1u << idx, "this JVM has no JFR event type '%.*s'%s", (int)e.pattern.n,
					    e.pattern.p, sim);
			}
		}
		line += len;
		if (*line)
			line++;
	}
	free(chosen);
	free_types(types);
	if ((*jni)->ExceptionCheck(jni)) {
		exception_text(jni, why, sizeof why);
		emit_notice(1u << idx, "JFR settings could not be made: %s", why);
		return NULL;
	}
	return *ntypes ? map : NULL;
}

/* ------------------------------------------------------------ recordings */

static void close_recording(JNIEnv *jni, struct jfr_slot *s, unsigned serial)
{
	if (s->recording && jni) {
		(*jni)->CallBooleanMethod(jni, s->recording, J.rec_stop);
		(*jni)->ExceptionClear(jni);   /* not running: nothing to stop */
		(*jni)->CallVoidMethod(jni, s->recording, J.rec_close);
		(*jni)->ExceptionClear(jni);
		(*jni)->DeleteGlobalRef(jni, s->recording);
		sj_info("conn#%u: JFR recording closed", serial);
	}
	s->recording = NULL;
	s->serving = 0;
	jfrrepo_close(&s->st);
	bool any = false;
	for (size_t i = 0; i < AGENT_MAX_CONNS; i++)
		any |= slots[i].recording != NULL;
	if (!any)
		jfrrepo_release(&repo);
}

static bool read_repository_path(JNIEnv *jni)
{
	jstring key = (*jni)->NewStringUTF(jni, "jdk.jfr.repository");
	jstring v = key ? (jstring)(*jni)->CallStaticObjectMethod(jni, J.sys, J.sys_prop, key) : NULL;
	const char *u = v ? (*jni)->GetStringUTFChars(jni, v, NULL) : NULL;

	(*jni)->ExceptionClear(jni);
	if (u) {
		snprintf(repo.dir, sizeof repo.dir, "%s", u);
		(*jni)->ReleaseStringUTFChars(jni, v, u);
	}
	(*jni)->DeleteLocalRef(jni, key);
	(*jni)->DeleteLocalRef(jni, v);
	return u != NULL;
}

/* The connection of GEN asked for JFR events and gets no recording (a
 * Notice said why): it is told, so that nothing waits for data. */
static void no_recording(unsigned idx, uint64_t gen)
{
	int rc = jfrrepo_send_none(idx, gen);

	if (rc < 0 && rc != -EOPNOTSUPP && rc != -EPIPE)
		sj_warn("slot %u: telling the bridge that no JFR recording serves it failed: %s", idx, strerror(-rc));
}

/* Make slot IDX's recording what TEXT asks for the connection of GEN. */
static void recording_apply(JNIEnv *jni, unsigned idx, const char *text, uint64_t gen, unsigned serial)
{
	struct jfr_slot *s = &slots[idx];
	char why[300];

	if (s->recording && (s->serving != gen || !text || !*text))
		close_recording(jni, s, serial);
	if (!text || !*text)
		return;
	if (!jfr_usable(jni)) {
		emit_notice(1u << idx, "JFR events cannot be had: %s", unavailable);
		no_recording(idx, gen);
		return;
	}
	(*jni)->PushLocalFrame(jni, 64);
	size_t ntypes;
	jobject map = settings_map(jni, idx, text, &ntypes);
	if (!map) {
		/* nothing this JVM has: no recording (one that ran stops) */
		close_recording(jni, s, serial);
		(*jni)->PopLocalFrame(jni, NULL);
		no_recording(idx, gen);
		return;
	}
	if (s->recording) {
		(*jni)->CallVoidMethod(jni, s->recording, J.rec_settings, map);
		if ((*jni)->ExceptionCheck(jni)) {
			exception_text(jni, why, sizeof why);
			emit_notice(1u << idx, "JFR settings refused: %s", why);
		} else {
			sj_info("conn#%u: JFR recording now holds %zu event types", serial, ntypes);
		}
		(*jni)->PopLocalFrame(jni, NULL);
		return;
	}
	bool had_repo = read_repository_path(jni) && repo.dir[0];
	char name[64];
	snprintf(name, sizeof name, "stapjava conn#%u", serial);
	jobject rec = (*jni)->NewObject(jni, J.rec, J.rec_new);
	jstring jname = (*jni)->NewStringUTF(jni, name);
	if (rec && jname) {
		(*jni)->CallVoidMethod(jni, rec, J.rec_name, jname);
		(*jni)->CallVoidMethod(jni, rec, J.rec_settings, map);
		(*jni)->CallVoidMethod(jni, rec, J.rec_max_size, (jlong)JFR_MAX_SIZE);
		if (!(*jni)->ExceptionCheck(jni))
			(*jni)->CallVoidMethod(jni, rec, J.rec_start);
	}
	if (!rec || (*jni)->ExceptionCheck(jni)) {
		exception_text(jni, why, sizeof why);
		emit_notice(1u << idx, "a JFR recording could not be started: %s", why);
		if (rec) {
			(*jni)->CallVoidMethod(jni, rec, J.rec_close);
			(*jni)->ExceptionClear(jni);
		}
		(*jni)->PopLocalFrame(jni, NULL);
		no_recording(idx, gen);
		return;
	}
	s->recording = (*jni)->NewGlobalRef(jni, rec);
	s->serving = gen;
	(*jni)->PopLocalFrame(jni, NULL);
	if (!had_repo)
		repo.ours = true;
	jfrrepo_keep(&repo);
	/* start() began a new chunk: the newest file is where this recording's data begins */
	if (!read_repository_path(jni) || jfrrepo_open_newest(&repo, &s->st) < 0) {
		emit_notice(1u << idx, "JFR recording started, but its chunk files cannot be read in %s",
			    repo.dir[0] ? repo.dir : "(no repository)");
		close_recording(jni, s, serial);
		no_recording(idx, gen);
		return;
	}
	sj_info("conn#%u: JFR recording started: %zu event types, from chunk %s/%s", serial, ntypes, repo.dir,
		s->st.file);
}

/* ------------------------------------------------------------ the thread */

static void JNICALL jfr_main(jvmtiEnv *jv, JNIEnv *jni, void *arg)
{
	for (;;) {
		char *want[AGENT_MAX_CONNS] = { NULL };
		uint64_t gen[AGENT_MAX_CONNS] = { 0 }, reqgen[AGENT_MAX_CONNS] = { 0 };
		unsigned serial[AGENT_MAX_CONNS] = { 0 };
		bool change[AGENT_MAX_CONNS] = { false }, stop;

		pthread_mutex_lock(&lock);
		if (!pending && !dying) {
			struct timespec dl;
			clock_gettime(CLOCK_REALTIME, &dl);
			dl.tv_nsec += JFR_POLL_MS * 1000000L;
			if (dl.tv_nsec >= 1000000000L) {
				dl.tv_sec++;
				dl.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&cond, &lock, &dl);
		}
		pending = false;
		stop = dying;
		for (unsigned i = 0; i < AGENT_MAX_CONNS && !stop; i++) {
			struct jfr_slot *s = &slots[i];
			if (s->want_gen == s->done_gen || s->taken_gen == s->want_gen)
				continue;
			s->taken_gen = s->want_gen;
			change[i] = true;
			reqgen[i] = s->want_gen;
			gen[i] = s->conn_gen;
			serial[i] = s->serial;
			want[i] = s->want ? strdup(s->want) : NULL;
		}
		pthread_mutex_unlock(&lock);
		if (stop)
			break;
		for (unsigned i = 0; i < AGENT_MAX_CONNS; i++) {
			if (!change[i])
				continue;
			recording_apply(jni, i, want[i], gen[i], serial[i]);
			free(want[i]);
			pthread_mutex_lock(&lock);
			slots[i].done_gen = reqgen[i];
			pthread_cond_broadcast(&cond);
			pthread_mutex_unlock(&lock);
		}
		size_t sent = 0;
		for (unsigned i = 0; i < AGENT_MAX_CONNS; i++)
			sent += jfrrepo_send(&repo, &slots[i].st, i, slots[i].serving);
		if (sent)
			io_wake();
		jfrrepo_tidy(&repo);
	}
	/* VM death: JFR's shutdown hook has completed the chunks; what the
	 * queues take goes out before VmDeath (the I/O thread still writes) */
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		size_t sent = 0;
		bool left = false;
		for (unsigned i = 0; i < AGENT_MAX_CONNS; i++) {
			sent += jfrrepo_send(&repo, &slots[i].st, i, slots[i].serving);
			left |= slots[i].st.fd >= 0;
		}
		if (sent)
			io_wake();
		clock_gettime(CLOCK_MONOTONIC, &now);
		long ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if ((!sent && !left) || ms >= JFR_DEATH_MS - 200)
			break;
		if (!sent) {
			/* a queue more than half full: the I/O thread is writing it */
			struct timespec ts = { 0, 20 * 1000000L };
			nanosleep(&ts, NULL);
			/* nothing more to read, and nothing more can come */
			bool more = false;
			for (unsigned i = 0; i < AGENT_MAX_CONNS; i++)
				more |= jfrrepo_unsent(&slots[i].st);
			if (!more)
				break;
		}
	}
	pthread_mutex_lock(&lock);
	drained = true;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

static int start_thread(JNIEnv *jni)
{
	jclass tc = (*jni)->FindClass(jni, "java/lang/Thread");
	jmethodID ctor = tc ? (*jni)->GetMethodID(jni, tc, "<init>", "(Ljava/lang/String;)V") : NULL;
	jstring name = (*jni)->NewStringUTF(jni, "stapjava-jfr");
	jobject thread = ctor && name ? (*jni)->NewObject(jni, tc, ctor, name) : NULL;

	if (!thread) {
		(*jni)->ExceptionClear(jni);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < AGENT_MAX_CONNS; i++)
		slots[i].st = JFRREPO_STREAM_INIT;
	jvmtiError err = (*agent.jvmti)->RunAgentThread(agent.jvmti, thread, jfr_main, NULL,
							  JVMTI_THREAD_NORM_PRIORITY);
	return err == JVMTI_ERROR_NONE ? 0 : -EIO;
}

/* ------------------------------------------------------------ the I/O thread's side */

static void request(struct conn *c, const char *text)
{
	struct jfr_slot *s = &slots[c - conns];

	pthread_mutex_lock(&lock);
	free(s->want);
	s->want = text ? strdup(text) : NULL;
	s->conn_gen = c->opened_gen;
	s->serial = c->serial;
	s->want_gen++;
	pending = true;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

int jfr_settings(struct conn *c, JNIEnv *jni, const struct wire_str *text)
{
	unsigned idx = (unsigned)(c - conns);
	char err[400];
	size_t lines = 0;

	for (size_t at = 0; at < text->len;) {
		const char *line = text->ptr + at;
		const char *nl = memchr(line, '\n', text->len - at);
		size_t len = nl ? (size_t)(nl - line) : text->len - at;
		struct jfrspec_entry e;

		if (++lines > JFRSPEC_MAX_ENTRIES) {
			emit_notice(1u << idx, "JfrSettings refused: more than %u entries; disconnecting",
				    JFRSPEC_MAX_ENTRIES);
			return -EBADMSG;
		}
		if (jfrspec_parse(line, len, &e, err, sizeof err) < 0) {
			emit_notice(1u << idx, "JfrSettings refused: %s; disconnecting", err);
			return -EBADMSG;
		}
		at += len + (nl ? 1 : 0);
	}
	char *copy = malloc((size_t)text->len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text->ptr, text->len);
	copy[text->len] = '\0';
	pthread_mutex_lock(&lock);
	bool need_start = !started && text->len > 0;
	pthread_mutex_unlock(&lock);
	if (need_start) {
		if (start_thread(jni) < 0) {
			emit_notice(1u << idx, "JFR events cannot be had: the agent's JFR thread could not start");
			free(copy);
			return 0;
		}
		pthread_mutex_lock(&lock);
		started = true;
		pthread_mutex_unlock(&lock);
	}
	if (started || text->len == 0)
		request(c, copy);
	free(copy);
	return 0;
}

void jfr_conn_closed(struct conn *c)
{
	pthread_mutex_lock(&lock);
	bool on = started;
	pthread_mutex_unlock(&lock);
	if (on)
		request(c, NULL);
}

bool jfr_settled(void)
{
	bool settled = true;

	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < AGENT_MAX_CONNS && started; i++)
		settled &= slots[i].done_gen == slots[i].want_gen;
	pthread_mutex_unlock(&lock);
	return settled;
}

void jfr_vm_death(void)
{
	struct timespec dl;

	pthread_mutex_lock(&lock);
	if (!started) {
		pthread_mutex_unlock(&lock);
		return;
	}
	dying = true;
	pthread_cond_broadcast(&cond);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += JFR_DEATH_MS / 1000;
	while (!drained)
		if (pthread_cond_timedwait(&cond, &lock, &dl) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&lock);
}
