/* notifysites.h: method.enter of Object.notify()V / notifyAll()V, reported from their callers.
 *
 * Why: both are native, and an agent loaded or attached cannot wrap a native
 * (retransformation adds no method), yet the concurrency log (doc/recording.md)
 * needs them. So the calls go in front of each invocation, in the classes
 * that make one (classfile.h, select_notify), and report the event of
 * Object's method with the receiver.
 *
 * Contract: notifysites_wanted() gives the kinds (bit 0 notify, bit 1
 * notifyAll) some connection wants method.enter of now; notifysites_wire()
 * their wire names. notifysites_in_pool() tells which kinds a loaded
 * class's constant pool names in a method reference (JVMTI GetConstantPool,
 * which HotSpot gives at load and at attach), so an update retransforms only
 * the classes that may call them; 0 without the capability. Any thread that
 * may call JVMTI; no lock.
 */
#ifndef STAPJAVA_AGENT_NOTIFYSITES_H
#define STAPJAVA_AGENT_NOTIFYSITES_H

#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

unsigned notifysites_wanted(void);
/* The connections (bit j: conns[j]) that want method.enter of the KINDS. */
uint32_t notifysites_conns(unsigned kinds);
const char *notifysites_wire(int kind, size_t *len);
/* Is the method of wire name NAME one of the two (the method of a site)? */
bool notifysites_is(const char *name, size_t len);
unsigned notifysites_in_pool(jclass klass);

#endif
