/* wire_bytes.h: private to the wire codec. Loads and stores of integers in
 * either byte order, without alignment assumptions (a field can start at any
 * offset of a stream buffer, so everything goes through memcpy). */
#ifndef STAPJAVA_WIRE_BYTES_H
#define STAPJAVA_WIRE_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define WIRE_HOST_ORDER WIRE_ORDER_BIG
#else
#define WIRE_HOST_ORDER WIRE_ORDER_LITTLE
#endif

/* The bridge Hello hides in a REGISTER_METHOD pattern that starts with these
 * bytes: a NUL first, so no method name an agent could hold ever matches it. */
#define WIRE_BRIDGE_HELLO_PREFIX     "\0STPJ"
#define WIRE_BRIDGE_HELLO_PREFIX_LEN 5u

/* The capabilities a command code needs, any one of them (0: none). */
static inline uint32_t wire_command_needs_cap(unsigned code)
{
	if ((code >= WIRE_CMD_REGISTER && code <= WIRE_CMD_VM_EVENTS) || code == WIRE_CMD_START)
		return WIRE_CAP_EXT_CMDS;
	if (code == WIRE_CMD_DISPATCH_MODE)
		return WIRE_CAP_SYNC;
	if (code == WIRE_CMD_ACK)
		return WIRE_CAP_SYNC | WIRE_CAP_END_ACK;
	if (code == WIRE_CMD_FIRE_IN_THREAD || code == WIRE_CMD_REGISTER_SLOT)
		return WIRE_CAP_IN_THREAD;
	if (code == WIRE_CMD_LIST_MATCHES)
		return WIRE_CAP_LIST;
	if (code == WIRE_CMD_JFR_SETTINGS)
		return WIRE_CAP_JFR;
	if (code == WIRE_CMD_JFR_EVENT)
		return WIRE_CAP_JFR_FIRE;
	return 0;
}

/* The event bits a Register of this kind may carry; 0 for an unknown kind. */
static inline uint8_t wire_kind_event_bits(uint8_t kind)
{
	switch (kind) {
	case WIRE_KIND_METHOD:
		return WIRE_METHOD_ENTER | WIRE_METHOD_RETURN | WIRE_METHOD_COMPILE;
	case WIRE_KIND_CLASS:
		return WIRE_CLASS_LOAD | WIRE_CLASS_PREPARE | WIRE_CLASS_UNLOAD;
	case WIRE_KIND_EXCEPTION:
		return WIRE_EXCEPTION_THROWN | WIRE_EXCEPTION_CATCH;
	default:
		return 0;
	}
}

static inline bool wire_order_is_valid(uint8_t order)
{
	return order == WIRE_ORDER_LITTLE || order == WIRE_ORDER_BIG;
}

static inline uint16_t wire_load_u16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t wire_load_u32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t wire_load_u64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static inline void wire_store_u16(uint8_t *p, uint16_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void wire_store_u32(uint8_t *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void wire_store_u64(uint8_t *p, uint64_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
}

#endif
