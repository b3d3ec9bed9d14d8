/* osthread.c: see osthread.h. */
#define _GNU_SOURCE
#include "osthread.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "agent.h"
#include "log.h"

static jfieldID eetop;        /* java.lang.Thread.eetop: the JavaThread* */
static long osthread_off = -1; /* of the OSThread* in the (Java)Thread */
static long tid_off = -1;      /* of the tid in the OSThread */

/* The exported description of vmStructs' entries: where each field of an
 * entry lies, so this code does not depend on HotSpot's struct layout. */
struct vmstructs {
	const char *entries;
	uint64_t type_name, field_name, offset, stride;
};

static bool vmstructs_find(void *jvm, struct vmstructs *v)
{
	const char *const *entries = dlsym(jvm, "gHotSpotVMStructs");
	const uint64_t *tn = dlsym(jvm, "gHotSpotVMStructEntryTypeNameOffset");
	const uint64_t *fn = dlsym(jvm, "gHotSpotVMStructEntryFieldNameOffset");
	const uint64_t *off = dlsym(jvm, "gHotSpotVMStructEntryOffsetOffset");
	const uint64_t *stride = dlsym(jvm, "gHotSpotVMStructEntryArrayStride");

	if (!entries || !*entries || !tn || !fn || !off || !stride || *stride == 0)
		return false;
	*v = (struct vmstructs){ *entries, *tn, *fn, *off, *stride };
	return true;
}

/* The offset of TYPE::FIELD (any of the type names given), -1 if absent. */
static long vmstructs_offset(const struct vmstructs *v, const char *const types[], const char *field)
{
	for (const char *e = v->entries; ; e += v->stride) {
		const char *type = *(const char *const *)(e + v->type_name);
		const char *name = *(const char *const *)(e + v->field_name);

		if (!type)
			return -1;
		if (!name || strcmp(name, field) != 0)
			continue;
		for (size_t i = 0; types[i]; i++)
			if (strcmp(type, types[i]) == 0)
				return (long)*(const uint64_t *)(e + v->offset);
	}
}

void osthread_init(JNIEnv *jni)
{
	static const char *const thread_types[] = { "JavaThread", "Thread", NULL };
	static const char *const osthread_types[] = { "OSThread", NULL };
	Dl_info where;
	struct vmstructs v;
	void *jvm = NULL;

	/* libjvm.so is the library that holds the JVMTI functions */
	if (dladdr((void *)(*agent.jvmti)->GetVersionNumber, &where) && where.dli_fname)
		jvm = dlopen(where.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!jvm || !vmstructs_find(jvm, &v)) {
		sj_info("this JVM does not describe its threads (no HotSpot vmStructs): a monitor's "
			"owner is given without its OS thread id");
		goto out;
	}
	osthread_off = vmstructs_offset(&v, thread_types, "_osthread");
	tid_off = vmstructs_offset(&v, osthread_types, "_thread_id");
	jclass thread = (*jni)->FindClass(jni, "java/lang/Thread");
	if (thread) {
		eetop = (*jni)->GetFieldID(jni, thread, "eetop", "J");
		(*jni)->DeleteLocalRef(jni, thread);
	}
	if ((*jni)->ExceptionCheck(jni)) {
		(*jni)->ExceptionClear(jni);
		eetop = NULL;
	}
	if (!eetop || osthread_off < 0 || tid_off < 0)
		sj_info("this JVM's thread layout is not the one known (Thread.eetop %s, _osthread %ld, "
			"_thread_id %ld): a monitor's owner is given without its OS thread id",
			eetop ? "found" : "missing", osthread_off, tid_off);
out:
	if (jvm)
		dlclose(jvm);
}

/* N bytes at ADDR of this process, or false where nothing is mapped now. */
static bool read_own(uintptr_t addr, void *out, size_t n)
{
	struct iovec local = { out, n }, remote = { (void *)addr, n };

	return addr && process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)n;
}

uint32_t osthread_tid(JNIEnv *jni, jthread thread)
{
	uintptr_t java_thread, os_thread;
	int32_t tid;

	if (!eetop || osthread_off < 0 || tid_off < 0 || !thread)
		return 0;
	java_thread = (uintptr_t)(*jni)->GetLongField(jni, thread, eetop);
	if (!java_thread || !read_own(java_thread + (uintptr_t)osthread_off, &os_thread, sizeof os_thread) ||
	    !read_own(os_thread + (uintptr_t)tid_off, &tid, sizeof tid) || tid <= 0)
		return 0;
	return (uint32_t)tid;
}
