/* threadnames.c: see threadnames.h. Linear probing on the thread id, with
 * deletion by shifting back (no tombstones: a JVM that starts and ends
 * threads for ever keeps a table of its live threads). */
#include "threadnames.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

/* What a kept name costs besides its bytes: the allocator's header. */
#define NAME_OVERHEAD 16u

void threadnames_init(struct threadnames *t)
{
	memset(t, 0, sizeof *t);
}

void threadnames_owner(struct threadnames *t, int pid)
{
	t->owner = pid;
}

void threadnames_free(struct threadnames *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].name);
	free(t->slots);
	t->slots = NULL;
	t->n = t->cap = t->bytes = 0;
}

static size_t home(const struct threadnames *t, uint64_t tid)
{
	uint64_t h = tid * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ h >> 32) & (t->cap - 1);
}

static struct threadname *find(const struct threadnames *t, uint64_t tid)
{
	if (!t->cap)
		return NULL;
	for (size_t i = home(t, tid);; i = (i + 1) & (t->cap - 1)) {
		struct threadname *s = &t->slots[i];
		if (!s->name || s->tid == tid)
			return s;
	}
}

/* Room for one more entry (the table at most half full), within the bound. */
static int reserve(struct threadnames *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	struct threadname *old = t->slots, *grown;
	size_t oldcap = t->cap;

	if ((t->n + 1) * 2 <= t->cap)
		return 0;
	if (t->bytes + (cap - oldcap) * sizeof *grown > THREADNAMES_MAX_BYTES ||
	    !(grown = calloc(cap, sizeof *grown)))
		return -1;
	t->slots = grown;
	t->cap = cap;
	t->bytes += (cap - oldcap) * sizeof *grown;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].name)
			*find(t, old[i].tid) = old[i];
	free(old);
	return 0;
}

/* Where a name of LEN bytes is cut: at most THREADNAMES_NAME_MAX bytes with
 * the mark, at the start of a UTF-8 character. */
static size_t cut_at(const char *name, size_t len)
{
	size_t keep = THREADNAMES_NAME_MAX - (sizeof THREADNAMES_CUT_MARK - 1);

	if (len <= THREADNAMES_NAME_MAX)
		return len;
	for (size_t back = 0; back < 3 && keep > 0 && ((unsigned char)name[keep] & 0xc0) == 0x80; back++)
		keep--;
	return keep;
}

static void say_full(struct threadnames *t)
{
	if (t->full_said)
		return;
	t->full_said = true;
	sj_warn("pid %d: thread names reached %u bytes, the most kept for one JVM: names of further "
		"threads are not kept (said once)", t->owner, THREADNAMES_MAX_BYTES);
}

void threadnames_set(struct threadnames *t, uint64_t tid, const char *name, size_t len, uint64_t java_tid)
{
	struct threadname *slot = find(t, tid);
	size_t keep = cut_at(name, len), size = keep + (keep < len ? sizeof THREADNAMES_CUT_MARK - 1 : 0);
	size_t old = slot && slot->name ? slot->len + NAME_OVERHEAD : 0;
	char *copy;

	if (keep < len && !t->cut_said) {
		t->cut_said = true;
		sj_warn("pid %d: a thread name of %zu bytes is kept to its first %zu, then \"%s\" (the most "
			"kept of a name: %u bytes; said once)", t->owner, len, keep, THREADNAMES_CUT_MARK,
			THREADNAMES_NAME_MAX);
	}
	if (t->bytes - old + size + NAME_OVERHEAD > THREADNAMES_MAX_BYTES) {
		say_full(t);
		return;
	}
	if (!(copy = malloc(size ? size : 1)))
		return;
	memcpy(copy, name, keep);
	memcpy(copy + keep, THREADNAMES_CUT_MARK, size - keep);
	if (!slot || !slot->name) {
		if (reserve(t) < 0) {
			free(copy);
			say_full(t);
			return;
		}
		slot = find(t, tid);
		slot->tid = tid;
		t->n++;
	} else {
		free(slot->name);
		t->bytes -= old;
	}
	slot->name = copy;
	slot->len = size;
	slot->java_tid = java_tid;
	t->bytes += size + NAME_OVERHEAD;
}

const struct threadname *threadnames_get(const struct threadnames *t, uint64_t tid)
{
	const struct threadname *s = find(t, tid);

	return s && s->name ? s : NULL;
}

void threadnames_forget(struct threadnames *t, uint64_t tid)
{
	struct threadname *s = find(t, tid);
	size_t hole, i;

	if (!s || !s->name)
		return;
	free(s->name);
	t->bytes -= s->len + NAME_OVERHEAD;
	s->name = NULL;
	t->n--;
	/* later entries of the run move back into the hole when their home
	 * allows it, so a lookup never stops short of them */
	hole = (size_t)(s - t->slots);
	for (i = (hole + 1) & (t->cap - 1); t->slots[i].name; i = (i + 1) & (t->cap - 1)) {
		size_t h = home(t, t->slots[i].tid);
		/* h is cyclically in (hole, i]: the entry must stay */
		if (hole < i ? (h > hole && h <= i) : (h > hole || h <= i))
			continue;
		t->slots[hole] = t->slots[i];
		t->slots[i].name = NULL;
		hole = i;
	}
}
