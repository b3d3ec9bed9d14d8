/* scratch.c: see scratch.h. */
#include "scratch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static pthread_key_t scratch_key;
AGENT_TLS struct scratch *scratch_mine;
AGENT_TLS bool scratch_in_callback;

static void scratch_free(void *p)
{
	struct scratch *s = p;

	free(s->strings);
	free(s);
}

void scratch_init(void)
{
	pthread_key_create(&scratch_key, scratch_free);
}

struct scratch *scratch_enter(void)
{
	if (scratch_in_callback)
		return NULL;
	if (!scratch_mine) {
		scratch_mine = malloc(sizeof(*scratch_mine));
		if (!scratch_mine)
			return NULL;
		scratch_mine->strings = NULL;
		pthread_setspecific(scratch_key, scratch_mine);
	}
	scratch_in_callback = true;
	/* only the fixed part: values and frames are written before they are read */
	memset(&scratch_mine->ev, 0, offsetof(struct wire_event, values));
	scratch_mine->ev.nvalues = 0;
	scratch_mine->ev.retval.type = WIRE_T_NONE;
	scratch_mine->ev.trailer.depth = 0;
	scratch_mine->used = 0;
	scratch_mine->pending_site = -1;
	scratch_mine->pending_n = 0;
	return scratch_mine;
}

struct scratch *scratch_resume(void)
{
	if (scratch_in_callback || !scratch_mine || scratch_mine->pending_site < 0)
		return NULL;
	scratch_in_callback = true;
	return scratch_mine;
}

void scratch_leave(void)
{
	scratch_in_callback = false;
}

void *scratch_alloc(struct scratch *s, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n > sizeof(s->mem) - s->used)
		return NULL;
	void *p = s->mem + s->used;
	s->used += n;
	return p;
}

char *scratch_strings(struct scratch *s)
{
	/* once per thread, like the scratch itself */
	if (!s->strings)
		s->strings = malloc(SCRATCH_STRINGS);
	return s->strings;
}
