/* io.h: the agent's I/O thread (a JVMTI agent thread started at VMInit).
 *
 * Contract: one thread owns the listening socket and every connection's fd:
 * it accepts (checking SO_PEERCRED before reading a byte), reads and applies
 * commands, writes the queued events, re-creates a vanished socket, and polls
 * with a bounded interval so it notices VM death. Java threads only queue
 * events and call io_wake() (batched: one wake-up per burst) or, for a
 * synchronous event, io_wake_urgent(). At VM death io_shutdown() flushes what is queued
 * (bounded), closes everything and removes the socket.
 */
#ifndef STAPJAVA_AGENT_IO_H
#define STAPJAVA_AGENT_IO_H

#include <stdatomic.h>

#include <jvmti.h>

/* At VM death the agent writes what is queued while bridges read it, then
 * waits for the acknowledgement of VmDeath from each bridge that promised
 * one (CAP_END_ACK: it has handled every event). It gives up after
 * IO_EXIT_STALL_MS in which a bridge read nothing while bytes were queued,
 * or IO_END_ACK_STALL_MS in which it neither read nor acknowledged (ours
 * acknowledges what it has handled every 100 ms of a long batch), or
 * IO_EXIT_FLUSH_MS in all (the JVM's exit waits that long at most). */
#define IO_EXIT_STALL_MS    1000
#define IO_END_ACK_STALL_MS 5000
#define IO_END_ACK_LOOK_MS  50
#define IO_EXIT_FLUSH_MS    60000

int io_init(void);                    /* at load: the wake-up eventfd */
int io_start(JNIEnv *jni);            /* VMInit or attach: create and run the thread */
/* Cheap, any thread; writes go out within IO_BATCH_NS. A plain load first,
 * inline: while the I/O thread is awake (most of a burst) the flag is set
 * and stays in this core's cache, shared; an exchange, a locked write,
 * would pull the line away from the I/O thread's core at every event. */
extern _Alignas(64) atomic_bool io_wake_pending;
void io_wake_slow(void);
static inline void io_wake(void)
{
	if (!atomic_load_explicit(&io_wake_pending, memory_order_relaxed))
		io_wake_slow();
}
void io_wake_urgent(void);            /* a synchronous event: write it now */
void io_flush_now(void);              /* on the I/O thread inside a long update: write what is queued */
void io_wake_filling(void);           /* a buffer is a quarter full: write it now */
/* VMInit with wait_ms: wait until a first bridge has connected and gone quiet. */
void io_wait_for_bridge(unsigned ms);
void io_shutdown(void);               /* VMDeath: flush (bounded), close, unlink */

#endif
