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
	const char *close = desc_off < name_len ? memchr(name + desc_off, ')', name_len - desc_off) : NULL;

	return close && close + 2 == name + name_len && close[1] == 'V';
}
