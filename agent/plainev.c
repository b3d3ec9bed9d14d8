/* plainev.c: see plainev.h. */
#include "plainev.h"

#include <errno.h>
#include <string.h>

int plainev_read(const uint8_t *msg, size_t len, struct plainev *p)
{
	if (len != PLAINEV_BYTES)
		return -EINVAL;
	memcpy(p, msg, sizeof(*p));
	return 0;
}

int plainev_event(struct wire_event *ev, uint8_t form, const char *name, uint32_t name_len, uint32_t tid,
		  bool void_value)
{
	if (form != PLAINEV_ENTER && form != PLAINEV_EXIT)
		return -EINVAL;
	/* only the fixed part, as scratch_enter() clears it: values and frames
	 * are not read with nvalues and depth 0 */
	memset(ev, 0, offsetof(struct wire_event, values));
	ev->code = form == PLAINEV_ENTER ? WIRE_EV_METHOD_ENTER : WIRE_EV_METHOD_EXIT;
	ev->name.ptr = name;
	ev->name.len = name_len;
	ev->thread = tid;
	ev->nvalues = 0;
	memset(&ev->retval, 0, sizeof(ev->retval));
	ev->retval.type = void_value && form == PLAINEV_EXIT ? WIRE_T_VOID : WIRE_T_NONE;
	ev->has_trailer = true;
	memset(&ev->trailer, 0, offsetof(struct wire_trailer, frames));
	ev->trailer.os_tid = tid;
	return 0;
}

bool plainev_returns_void(const char *name, uint32_t name_len, uint32_t desc_off)
{
	/* ")V" ends the name only when the return is void: any other return type
	 * ends with ';' or a primitive's letter, never 'V'. (The first ')' may be
	 * inside a parameter's class name: JVMS 4.2.2 allows it there.) */
	return desc_off < name_len && name_len - desc_off >= 3 && name[name_len - 2] == ')' &&
	       name[name_len - 1] == 'V';
}

/* code, u32 number: what every message by number starts with */
#define BY_SITE_HEAD 5u

int plainev_by_site_read(const uint8_t *msg, size_t len, int32_t *site)
{
	if (len < BY_SITE_HEAD ||
	    (msg[0] != WIRE_EV_METHOD_ENTER_ID_VALUES && msg[0] != WIRE_EV_METHOD_EXIT_ID_VALUE))
		return -EINVAL;
	memcpy(site, msg + 1, sizeof(*site));
	return *site < 0 ? -EINVAL : 0;
}

ssize_t plainev_by_site_make(uint8_t *out, const uint8_t *msg, size_t len, uint32_t number, const char *name,
			     uint32_t name_len)
{
	int32_t site;

	if (plainev_by_site_read(msg, len, &site) < 0)
		return -EINVAL;
	if (!name) {
		memcpy(out, msg, len);
		memcpy(out + 1, &number, 4);
		return (ssize_t)len;
	}
	/* a string is its u32 length and its bytes, where the number was */
	out[0] = msg[0] == WIRE_EV_METHOD_ENTER_ID_VALUES ? WIRE_EV_METHOD_ENTER : WIRE_EV_METHOD_EXIT;
	memcpy(out + 1, &name_len, 4);
	memcpy(out + BY_SITE_HEAD, name, name_len);
	memcpy(out + BY_SITE_HEAD + name_len, msg + BY_SITE_HEAD, len - BY_SITE_HEAD);
	return (ssize_t)(len + name_len);
}
