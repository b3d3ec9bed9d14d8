/* notifysites.c: see notifysites.h. */
#include "notifysites.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "bytecode.h"
#include "cfpool.h"
#include "codeattr.h"
#include "conn.h"

static const struct {
	const char *name;
	size_t len;
} wire[2] = {
	{ "java.lang.Object.notify()V", sizeof "java.lang.Object.notify()V" - 1 },
	{ "java.lang.Object.notifyAll()V", sizeof "java.lang.Object.notifyAll()V" - 1 },
};

const char *notifysites_wire(int kind, size_t *len)
{
	*len = wire[kind].len;
	return wire[kind].name;
}

bool notifysites_is(const char *name, size_t len)
{
	for (int k = 0; k < 2; k++)
		if (len == wire[k].len && memcmp(name, wire[k].name, len) == 0)
			return true;
	return false;
}

unsigned notifysites_wanted(void)
{
	unsigned kinds = 0;

	for (int k = 0; k < 2; k++)
		if (conns_method_events(wire[k].name, wire[k].len, NULL, NULL) & WIRE_METHOD_ENTER)
			kinds |= 1u << k;
	return kinds;
}

uint32_t notifysites_conns(unsigned kinds)
{
	uint32_t wanting = 0;

	for (int k = 0; k < 2; k++) {
		uint32_t want[3] = { 0 };
		if ((kinds & (1u << k)) &&
		    conns_method_events(wire[k].name, wire[k].len, want, NULL) & WIRE_METHOD_ENTER)
			wanting |= want[0];
	}
	return wanting;
}

unsigned notifysites_in_pool(jclass klass)
{
	jvmtiEnv *jv = agent.jvmti;
	jint count = 0, nbytes = 0;
	unsigned char *bytes = NULL;
	unsigned kinds = 0;

	if (!agent.caps.can_get_constant_pool ||
	    (*jv)->GetConstantPool(jv, klass, &count, &nbytes, &bytes) != JVMTI_ERROR_NONE)
		return 0;
	/* cfpool reads a pool from its count on, as a class file has it */
	uint8_t *buf = count > 0 && count <= 65535 ? malloc((size_t)nbytes + 2) : NULL;
	if (buf) {
		struct cfpool cp = { 0 };
		const char *why = NULL;
		buf[0] = (uint8_t)(count >> 8);
		buf[1] = (uint8_t)count;
		memcpy(buf + 2, bytes, (size_t)nbytes);
		struct cf_rd r = { .p = buf, .len = (size_t)nbytes + 2 };
		if (cfpool_parse(&cp, &r, &why) == 0)
			for (uint32_t i = 1; i < cp.count && kinds != 3; i++)
				kinds |= codeattr_notify_kind(&cp, OP_INVOKEVIRTUAL, i);
		cfpool_free(&cp);
		free(buf);
	}
	(*jv)->Deallocate(jv, bytes);
	return kinds;
}
