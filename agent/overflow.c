/* overflow.c: see overflow.h. */
#include "overflow.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "classfile.h"
#include "conn.h"
#include "emit.h"
#include "log.h"
#include "mcache.h"
#include "sites.h"

#define ROWS (CLASSFILE_SITES_MAX / CLASSFILE_LOST_ROW)

static jclass probe;             /* global refs, set once */
static jobjectArray rows;
static jfieldID overflows_id;
static pthread_mutex_t row_lock = PTHREAD_MUTEX_INITIALIZER;
/* per row made, the counts passed on so far (under poll_lock) */
static _Atomic(uint32_t *) seen[ROWS];
static pthread_mutex_t poll_lock = PTHREAD_MUTEX_INITIALIZER;
static jint overflows_seen;

int overflow_setup(JNIEnv *jni, jclass cls)
{
	if (rows)
		return 0;
	jfieldID lost_id = (*jni)->GetStaticFieldID(jni, cls, CLASSFILE_LOST_NAME, CLASSFILE_LOST_DESC);
	overflows_id = lost_id ? (*jni)->GetStaticFieldID(jni, cls, CLASSFILE_OVERFLOWS_NAME,
							 CLASSFILE_OVERFLOWS_DESC) : NULL;
	/* Probe defined by another agent library in this VM (probe.c) keeps
	 * its rows: the code it changed counts there */
	jobjectArray a = overflows_id ? (*jni)->GetStaticObjectField(jni, cls, lost_id) : NULL;
	jclass row_class = overflows_id && !a ? (*jni)->FindClass(jni, "[I") : NULL;

	if (row_class) {
		a = (*jni)->NewObjectArray(jni, ROWS, row_class, NULL);
		if (a)
			(*jni)->SetStaticObjectField(jni, cls, lost_id, a);
	}
	if (!a) {
		(*jni)->ExceptionClear(jni);
		return lost_id && overflows_id ? -ENOMEM : -ENOENT;
	}
	probe = (*jni)->NewGlobalRef(jni, cls);
	rows = probe ? (*jni)->NewGlobalRef(jni, a) : NULL;
	(*jni)->DeleteLocalRef(jni, a);
	(*jni)->DeleteLocalRef(jni, row_class);
	overflows_seen = (*jni)->GetStaticIntField(jni, cls, overflows_id);
	return rows ? 0 : -ENOMEM;
}

int overflow_row_ready(JNIEnv *jni, int32_t site)
{
	if (site < 0 || (uint32_t)site >= CLASSFILE_SITES_MAX)
		return -EINVAL;
	if (!rows)
		return -ENOENT;
	const uint32_t r = (uint32_t)site / CLASSFILE_LOST_ROW;
	if (atomic_load(&seen[r]))
		return 0;
	int rc = 0;
	pthread_mutex_lock(&row_lock);
	if (!atomic_load(&seen[r])) {
		uint32_t *mirror = calloc(CLASSFILE_LOST_ROW, sizeof *mirror);
		jintArray row = mirror ? (*jni)->GetObjectArrayElement(jni, rows, (jsize)r) : NULL;
		if (row) {
			/* another library's: what it counted is not ours to say */
			(*jni)->GetIntArrayRegion(jni, row, 0, CLASSFILE_LOST_ROW, (jint *)mirror);
		} else if (mirror) {
			row = (*jni)->NewIntArray(jni, CLASSFILE_LOST_ROW);
			if (row)
				(*jni)->SetObjectArrayElement(jni, rows, (jsize)r, row);
		}
		if (row)
			(*jni)->DeleteLocalRef(jni, row);
		if (!row || (*jni)->ExceptionCheck(jni)) {
			(*jni)->ExceptionClear(jni);
			free(mirror);
			rc = -ENOMEM;
		} else {
			/* the row is in Probe.lost before any code that counts in it runs */
			atomic_store(&seen[r], mirror);
		}
	}
	pthread_mutex_unlock(&row_lock);
	return rc;
}

/* SITE's exits: N more whose report found no stack. */
static void count(int32_t site, uint32_t n)
{
	static uint64_t told[AGENT_MAX_CONNS];
	struct mmatch m;

	if (sites_match(site, &m) < 0 || !m.conns[MC_RETURN])
		return;
	conn_count_unreported(m.conns[MC_RETURN], n);
	uint32_t tell = emit_tell_once(told, m.conns[MC_RETURN]);
	if (tell)
		emit_notice(tell, "a StackOverflowError left %u probed frame%s of %.*s no stack to report "
			    "%s method.return: counted as lost", n, n == 1 ? "" : "s", (int)m.e->name_len,
			    m.e->name, n == 1 ? "its" : "their");
}

/* Under poll_lock. */
static void poll_rows(JNIEnv *jni)
{
	static jint now[CLASSFILE_LOST_ROW];

	for (uint32_t r = 0; r < ROWS; r++) {
		uint32_t *mirror = atomic_load(&seen[r]);
		if (!mirror)
			continue;
		jintArray row = (*jni)->GetObjectArrayElement(jni, rows, (jsize)r);
		if (!row) {
			(*jni)->ExceptionClear(jni);
			continue;
		}
		(*jni)->GetIntArrayRegion(jni, row, 0, CLASSFILE_LOST_ROW, now);
		(*jni)->DeleteLocalRef(jni, row);
		if ((*jni)->ExceptionCheck(jni)) {
			(*jni)->ExceptionClear(jni);
			continue;
		}
		for (uint32_t col = 0; col < CLASSFILE_LOST_ROW; col++) {
			if ((uint32_t)now[col] == mirror[col])
				continue;
			uint32_t n = (uint32_t)now[col] - mirror[col];
			mirror[col] = (uint32_t)now[col];
			count((int32_t)(r * CLASSFILE_LOST_ROW + col), n);
		}
	}
}

void overflow_poll(JNIEnv *jni)
{
	if (!rows)
		return;
	jint changed = (*jni)->GetStaticIntField(jni, probe, overflows_id);
	pthread_mutex_lock(&poll_lock);
	if (changed != overflows_seen) {
		overflows_seen = changed;
		poll_rows(jni);
	}
	pthread_mutex_unlock(&poll_lock);
}
