/* plainev.h: a plain method event as a thread's buffer holds it.
 *
 * Why: most method events carry nothing but the method, the thread and the
 * time (no arguments, return value or stack were asked for). Their message,
 * the method's name above all (16 bytes for Workload.hot(J)J, 50-70 in a
 * real application's packages), was most of what the Java thread wrote
 * into its buffer, and every line it writes there was last read by the I/O
 * thread's core: the writes cost more than the encoding they replaced. Such
 * an event is kept as its site and thread only (a record of 40 bytes in the
 * buffer, where its message made 88-128) and becomes its message where it
 * is taken (conn.c), the method's name found from the site (sites.h).
 *
 * Contract: a record whose tbuf_meta.form is PLAINEV_ENTER or PLAINEV_EXIT
 * holds a struct plainev (PLAINEV_BYTES bytes). plainev_read() reads it back
 * (-EINVAL for another length); plainev_event() fills EV as the general path
 * (emit.c) fills such an event before it is encoded, so a connection gets
 * the same bytes either way. Pure: no JVMTI, no I/O, no lock.
 */
#ifndef STAPJAVA_AGENT_PLAINEV_H
#define STAPJAVA_AGENT_PLAINEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wire.h"

/* tbuf_meta.form: 0 is an encoded message (tbuf.h); PLAINEV_BY_SITE an
 * encoded method event with values whose number is its site (below) */
enum plainev_form { PLAINEV_ENTER = 1, PLAINEV_EXIT = 2, PLAINEV_BY_SITE = 3 };

struct plainev {
	int32_t site;    /* the injected call's site (sites.h) */
	uint32_t tid;    /* OS tid of the thread that made it */
};
#define PLAINEV_BYTES sizeof(struct plainev)

/* The form of a plain event of wire code CODE (WIRE_EV_METHOD_ENTER or
 * _EXIT); 0 for any other code. */
static inline uint8_t plainev_form_of(unsigned code)
{
	return code == WIRE_EV_METHOD_ENTER ? PLAINEV_ENTER : code == WIRE_EV_METHOD_EXIT ? PLAINEV_EXIT : 0;
}

/* *P from the LEN bytes at MSG. 0, or -EINVAL when LEN is not PLAINEV_BYTES. */
int plainev_read(const uint8_t *msg, size_t len, struct plainev *p);

/* EV's fields up to its values, its return value and trailer, for the plain
 * event of FORM of method NAME (NAME_LEN bytes, not copied) on thread TID;
 * the trailer's seq and timestamp 0, for the taker to set. VOID_VALUE: an
 * exit that carries the void value (a void method's return, to a connection
 * that asked for return values: the value is known without capturing it).
 * -EINVAL for a FORM that is not a plain event's. */
int plainev_event(struct wire_event *ev, uint8_t form, const char *name, uint32_t name_len, uint32_t tid,
		  bool void_value);

/* Does method NAME (its descriptor at DESC_OFF) return void? */
bool plainev_returns_void(const char *name, uint32_t name_len, uint32_t desc_off);

/* Form PLAINEV_BY_SITE: a method event with values (arguments, a return
 * value, a stack) of an injected site, encoded by the Java thread as
 * MethodEnterIdValues or MethodExitIdValue (wire.h) in our byte order with
 * the site as its number, so that the thread never writes the method's name.
 * Where it is taken it becomes the connection's message: by the method's
 * number for a connection that negotiated CAP_METHOD_ID_VALUES and has had
 * its MethodName, else MethodEnter / MethodExit by name. The two differ in
 * the bytes after the code only: a u32 number, or a string. */

/* The site of the PLAINEV_BY_SITE message MSG (LEN bytes): 0, or -EINVAL
 * when MSG is not one. */
int plainev_by_site_read(const uint8_t *msg, size_t len, int32_t *site);
/* The connection's message made from the PLAINEV_BY_SITE message MSG (LEN
 * bytes) into OUT, which has room for LEN + NAME_LEN bytes: by NUMBER when
 * NAME is NULL, else by NAME (NAME_LEN bytes). Returns the message's
 * length; everything after the number (the trailer included) moved by that
 * length less LEN. -EINVAL when MSG is not such a message. */
ssize_t plainev_by_site_make(uint8_t *out, const uint8_t *msg, size_t len, uint32_t number, const char *name,
			     uint32_t name_len);

#endif
