/* threadnames.c: see threadnames.h. A linear table: a JVM has some hundreds
 * of threads, and lookups happen only on thread start and end. */
#include "threadnames.h"

#include <stdlib.h>
#include <string.h>

void threadnames_init(struct threadnames *t)
{
	memset(t, 0, sizeof *t);
}

void threadnames_free(struct threadnames *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->items[i].name);
	free(t->items);
	threadnames_init(t);
}

static struct threadname *find(const struct threadnames *t, uint64_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->items[i].tid == tid)
			return &t->items[i];
	return NULL;
}

void threadnames_set(struct threadnames *t, uint64_t tid, const char *name, size_t len)
{
	struct threadname *slot = find(t, tid);
	char *copy = malloc(len ? len : 1);

	if (!copy)
		return;
	memcpy(copy, name, len);
	if (!slot) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 64;
			struct threadname *grown;

			if (cap > THREADNAMES_MAX || !(grown = realloc(t->items, cap * sizeof *grown))) {
				free(copy);
				return;
			}
			t->items = grown;
			t->cap = cap;
		}
		slot = &t->items[t->n++];
		slot->tid = tid;
		slot->name = NULL;
	}
	free(slot->name);
	slot->name = copy;
	slot->len = len;
}

const struct threadname *threadnames_get(const struct threadnames *t, uint64_t tid)
{
	return find(t, tid);
}

void threadnames_forget(struct threadnames *t, uint64_t tid)
{
	struct threadname *slot = find(t, tid);

	if (!slot)
		return;
	free(slot->name);
	*slot = t->items[--t->n];
}
