/* evtemplate.c: see evtemplate.h. */
#include "evtemplate.h"

#include <errno.h>
#include <string.h>

void evtemplates_clear(struct evtemplates *t)
{
	for (unsigned i = 0; i < EVTEMPLATE_SLOTS; i++)
		t->e[i].key.site = -1;
}

int evtemplate_keep(struct evtemplates *t, const struct evtemplate_key *k, const uint8_t *msg,
		    size_t len, size_t trailer_at)
{
	if (k->site < 0 || trailer_at == 0 || trailer_at >= len)
		return -EINVAL;
	if (len > EVTEMPLATE_BYTES)
		return -EMSGSIZE;
	struct evtemplate *e = &t->e[evtemplate_index(k)];
	memcpy(e->bytes, msg, len);
	e->len = (uint16_t)len;
	e->trailer_at = (uint16_t)trailer_at;
	e->key = *k;
	return 0;
}
