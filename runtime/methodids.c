/* methodids.c: see methodids.h. */
#include "methodids.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow_to(struct methodids *t, uint32_t id)
{
	size_t cap = t->cap ? t->cap : 256;

	while (cap <= id)
		cap *= 2;
	if (cap > METHODIDS_MAX_ID)
		cap = METHODIDS_MAX_ID;
	struct methodid *n = realloc(t->ids, cap * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + t->cap, 0, (cap - t->cap) * sizeof(*n));
	t->ids = n;
	t->cap = cap;
	return 0;
}

int methodids_name(struct methodids *t, const struct wire_event *ev, char *why, size_t whylen)
{
	const uint32_t id = ev->method_id;
	struct methodid *e;
	int rc;

	if (id >= METHODIDS_MAX_ID) {
		snprintf(why, whylen, "method number %u past the bound of %u", id, METHODIDS_MAX_ID);
		return -E2BIG;
	}
	if (id >= t->cap && (rc = grow_to(t, id)) < 0)
		return rc;
	e = &t->ids[id];
	if (t->bytes - e->len + ev->name.len > METHODIDS_MAX_BYTES) {
		snprintf(why, whylen, "method names past the bound of %u bytes", METHODIDS_MAX_BYTES);
		return -E2BIG;
	}
	char *name = malloc(ev->name.len ? ev->name.len : 1);
	if (!name)
		return -ENOMEM;
	memcpy(name, ev->name.ptr, ev->name.len);
	t->bytes = t->bytes - e->len + ev->name.len;
	free(e->name);
	e->name = name;
	e->len = ev->name.len;
	return 0;
}

int methodids_resolve(const struct methodids *t, struct wire_event *ev, char *why, size_t whylen)
{
	const uint32_t id = ev->method_id;
	const unsigned code = ev->code;

	if (code != WIRE_EV_METHOD_ENTER_ID && code != WIRE_EV_METHOD_EXIT_ID &&
	    code != WIRE_EV_METHOD_ENTER_ID_VALUES && code != WIRE_EV_METHOD_EXIT_ID_VALUE)
		return 0;
	if (id >= t->cap || !t->ids[id].name) {
		snprintf(why, whylen, "%s of method number %u, which no MethodName gave", wire_event_name(code),
			 id);
		return -ENOENT;
	}
	ev->name = (struct wire_str){ t->ids[id].name, t->ids[id].len };
	ev->by_id = true;
	if (code == WIRE_EV_METHOD_ENTER_ID || code == WIRE_EV_METHOD_ENTER_ID_VALUES) {
		ev->code = WIRE_EV_METHOD_ENTER;
		if (code == WIRE_EV_METHOD_ENTER_ID)
			ev->nvalues = 0;
	} else {
		ev->code = WIRE_EV_METHOD_EXIT;
		if (code == WIRE_EV_METHOD_EXIT_ID)
			ev->popped = false;   /* the value's type is the one decoded */
	}
	return 0;
}

int methodids_take(struct methodids *t, struct wire_event *ev, char *why, size_t whylen)
{
	if (ev->code != WIRE_EV_METHOD_NAME)
		return methodids_resolve(t, ev, why, whylen);
	int rc = methodids_name(t, ev, why, whylen);
	return rc < 0 ? rc : 1;
}

void methodids_free(struct methodids *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->ids[i].name);
	free(t->ids);
	*t = (struct methodids){ 0 };
}
