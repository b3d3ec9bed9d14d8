/* osthread.h: the OS thread id of another Java thread.
 *
 * Contract: JVMTI names threads by jthread and never says their OS tid,
 * which is what a kernel probe's tid() shows. HotSpot exports the layout of
 * its own structures for its Serviceability Agent (gHotSpotVMStructs in
 * libjvm.so): java.lang.Thread.eetop points at the JavaThread, whose
 * _osthread points at the OSThread, whose _thread_id is the tid.
 * osthread_init() reads those offsets once (when JNI works); on a JVM that
 * does not export them it says so at level info and osthread_tid() gives 0.
 * osthread_tid() reads the thread's structures with process_vm_readv(), so
 * a thread that ends meanwhile yields 0, never a fault. 0 also for a thread
 * that has not started or has ended.
 */
#ifndef STAPJAVA_AGENT_OSTHREAD_H
#define STAPJAVA_AGENT_OSTHREAD_H

#include <jvmti.h>
#include <stdint.h>

void osthread_init(JNIEnv *jni);
uint32_t osthread_tid(JNIEnv *jni, jthread thread);

#endif
