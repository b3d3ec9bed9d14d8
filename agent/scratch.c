/* scratch.c: see scratch.h. */
#include "scratch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static pthread_key_t scratch_key;
static AGENT_TLS struct scratch *my_scratch;
static AGENT_TLS bool in_callback;

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
	if (in_callback)
		return NULL;
	if (!my_scratch) {
		my_scratch = malloc(sizeof(*my_scratch));
		if (!my_scratch)
			return NULL;
		my_scratch->strings = NULL;
		pthread_setspecific(scratch_key, my_scratch);
	}
	in_callback = true;
	/* only the fixed part: values and frames are written before they are read */
	memset(&my_scratch->ev, 0, offsetof(struct wire_event, values));
	my_scratch->ev.nvalues = 0;
	my_scratch->ev.retval.type = WIRE_T_NONE;
	my_scratch->ev.trailer.depth = 0;
	my_scratch->used = 0;
	my_scratch->pending_site = -1;
	my_scratch->pending_n = 0;
	return my_scratch;
}

struct scratch *scratch_resume(void)
{
	if (in_callback || !my_scratch || my_scratch->pending_site < 0)
		return NULL;
	in_callback = true;
	return my_scratch;
}

struct scratch *scratch_idle(void)
{
	return in_callback ? NULL : my_scratch;
}

void scratch_leave(void)
{
	in_callback = false;
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
