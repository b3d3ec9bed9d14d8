/* evtemplate.c: see evtemplate.h. */
#include "evtemplate.h"

#include <errno.h>
#include <string.h>

void evtemplates_clear(struct evtemplates *t)
{
	memset(t->index, 0, sizeof(t->index));
	t->used = 0;
}

/* The index position of the entry with KEY's site, code and slot, or the
 * empty position where such an entry goes. */
static unsigned position_for(const struct evtemplates *t, const struct evtemplate_key *k)
{
	unsigned h = evtemplate_home(k);

	/* the index is never more than half full: an empty position comes */
	for (;; h = (h + 1) & (EVTEMPLATE_INDEX - 1)) {
		unsigned i = t->index[h];
		if (!i)
			return h;
		const struct evtemplate_key *e = &t->e[i - 1].key;
		if (e->site == k->site && e->code == k->code && e->slot == k->slot)
			return h;
	}
}

int evtemplate_keep(struct evtemplates *t, const struct evtemplate_key *k, const uint8_t *msg,
		    size_t len, size_t thread_at, size_t trailer_at)
{
	if (k->site < 0 || thread_at == 0 || thread_at + 8 > (trailer_at ? trailer_at : len) ||
	    (trailer_at && trailer_at + 20 > len))
		return -EINVAL;
	if (len > EVTEMPLATE_BYTES)
		return -EMSGSIZE;
	unsigned h = position_for(t, k);
	if (!t->index[h]) {
		if (t->used == EVTEMPLATE_SLOTS) {
			evtemplates_clear(t);
			h = position_for(t, k);
		}
		t->index[h] = (uint16_t)(++t->used);
	}
	struct evtemplate *e = &t->e[t->index[h] - 1];
	memcpy(e->bytes, msg, len);
	e->len = (uint16_t)len;
	e->thread_at = (uint16_t)thread_at;
	e->trailer_at = (uint16_t)trailer_at;
	e->key = *k;
	return 0;
}
