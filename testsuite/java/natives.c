/* natives.c: the code of testsuite/java/Natives.java's native methods,
 * linked both ways the JVM binds a native: by its JNI name (sum, boom,
 * locked, NativesEarly.twice, NativesUnlinked's) and by RegisterNatives
 * (greet); and of
 * NatWriter.writeTo, testsuite/vm/java_probes.bats's native that makes
 * exactly one write(2). */
#include <fcntl.h>
#include <jni.h>
#include <stdio.h>
#include <unistd.h>

/* what javac -h would declare */
JNIEXPORT jlong JNICALL Java_Natives_sum(JNIEnv *env, jclass cls, jint a, jlong b, jdouble c);
JNIEXPORT jint JNICALL Java_Natives_locked(JNIEnv *env, jobject self, jint x);
JNIEXPORT void JNICALL Java_Natives_boom(JNIEnv *env, jclass cls, jint code);
JNIEXPORT jint JNICALL Java_NativesEarly_twice(JNIEnv *env, jclass cls, jint x);
JNIEXPORT jint JNICALL Java_NatWriter_writeTo(JNIEnv *env, jclass cls, jstring path, jint b);
JNIEXPORT jint JNICALL Java_NativesUnlinked_half(JNIEnv *env, jobject self, jint x);
JNIEXPORT jint JNICALL Java_NativesUnlinked_third(JNIEnv *env, jclass cls, jint x);

JNIEXPORT jlong JNICALL Java_Natives_sum(JNIEnv *env, jclass cls, jint a, jlong b, jdouble c)
{
	(void)env;
	(void)cls;
	return a + b + (jlong)(c * 10);
}

JNIEXPORT jint JNICALL Java_Natives_locked(JNIEnv *env, jobject self, jint x)
{
	jclass thread = (*env)->FindClass(env, "java/lang/Thread");
	jmethodID holds = thread ? (*env)->GetStaticMethodID(env, thread, "holdsLock", "(Ljava/lang/Object;)Z") : NULL;

	if (!holds)
		return -1;
	return 2 * x + ((*env)->CallStaticBooleanMethod(env, thread, holds, self) ? 1 : 0);
}

JNIEXPORT void JNICALL Java_Natives_boom(JNIEnv *env, jclass cls, jint code)
{
	char msg[32];
	jclass ioe = (*env)->FindClass(env, "java/io/IOException");

	(void)cls;
	snprintf(msg, sizeof(msg), "boom %d", (int)code);
	if (ioe)
		(*env)->ThrowNew(env, ioe, msg);
}

JNIEXPORT jint JNICALL Java_NativesEarly_twice(JNIEnv *env, jclass cls, jint x)
{
	(void)env;
	(void)cls;
	return 2 * x;
}

JNIEXPORT jint JNICALL Java_NativesUnlinked_half(JNIEnv *env, jobject self, jint x)
{
	(void)env;
	(void)self;
	return x / 2;
}

JNIEXPORT jint JNICALL Java_NativesUnlinked_third(JNIEnv *env, jclass cls, jint x)
{
	(void)env;
	(void)cls;
	return x / 3;
}

/* One write(2) of the byte B at the end of PATH; its result (1), -1 when
 * the file cannot be opened. */
JNIEXPORT jint JNICALL Java_NatWriter_writeTo(JNIEnv *env, jclass cls, jstring path, jint b)
{
	const char *p = (*env)->GetStringUTFChars(env, path, NULL);
	char c = (char)b;
	int fd = p ? open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
	int n = fd < 0 ? -1 : (int)write(fd, &c, 1);

	(void)cls;
	if (fd >= 0)
		close(fd);
	if (p)
		(*env)->ReleaseStringUTFChars(env, path, p);
	return n;
}

static jstring greet(JNIEnv *env, jobject self, jstring who)
{
	char buf[64];
	const char *s = (*env)->GetStringUTFChars(env, who, NULL);

	(void)self;
	if (!s)
		return NULL;
	snprintf(buf, sizeof(buf), "hello %s", s);
	(*env)->ReleaseStringUTFChars(env, who, s);
	return (*env)->NewStringUTF(env, buf);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
	static const JNINativeMethod methods[] = {
		{ "greet", "(Ljava/lang/String;)Ljava/lang/String;", (void *)greet },
	};
	JNIEnv *env = NULL;

	(void)reserved;
	if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK)
		return JNI_ERR;
	/* a program without Natives (the vm tier's) registers nothing */
	jclass cls = (*env)->FindClass(env, "Natives");
	if (!cls) {
		(*env)->ExceptionClear(env);
		return JNI_VERSION_1_8;
	}
	if ((*env)->RegisterNatives(env, cls, methods, 1) != 0)
		return JNI_ERR;
	return JNI_VERSION_1_8;
}
