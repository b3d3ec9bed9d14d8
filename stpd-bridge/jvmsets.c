/* jvmsets.c: see jvmsets.h. */
#include "jvmsets.h"

#include <errno.h>
#include <stdlib.h>

static bool same_jvm(const struct jvm_id *a, const struct jvm_id *b)
{
	return a->pid == b->pid && a->starttime == b->starttime;
}

bool jvm_list_has(const struct jvm_list *l, const struct jvm_id *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_jvm(&l->v[i], id))
			return true;
	return false;
}

bool jvm_list_has_pid(const struct jvm_list *l, pid_t pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].pid == pid)
			return true;
	return false;
}

int jvm_list_add(struct jvm_list *l, const struct jvm_id *id)
{
	struct jvm_id *grown = realloc(l->v, (l->n + 1) * sizeof *grown);

	if (!grown)
		return -ENOMEM;
	l->v = grown;
	l->v[l->n++] = *id;
	return 0;
}

void jvm_list_remove_at(struct jvm_list *l, size_t i)
{
	l->v[i] = l->v[--l->n];
}

void jvm_list_remove(struct jvm_list *l, const struct jvm_id *id)
{
	for (size_t i = 0; i < l->n;)
		if (same_jvm(&l->v[i], id))
			jvm_list_remove_at(l, i);
		else
			i++;
}

void jvm_list_free(struct jvm_list *l)
{
	free(l->v);
	*l = (struct jvm_list){ 0 };
}

struct jvm_due *jvm_due_of(struct jvm_due_list *l, const struct jvm_id *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_jvm(&l->v[i].jvm, id))
			return &l->v[i];
	return NULL;
}

struct jvm_due *jvm_due_of_pid(struct jvm_due_list *l, pid_t pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].jvm.pid == pid)
			return &l->v[i];
	return NULL;
}

struct jvm_due *jvm_due_add(struct jvm_due_list *l, const struct jvm_id *id)
{
	struct jvm_due *grown = realloc(l->v, (l->n + 1) * sizeof *grown);

	if (!grown)
		return NULL;
	l->v = grown;
	l->v[l->n] = (struct jvm_due){ .jvm = *id };
	return &l->v[l->n++];
}

void jvm_due_remove(struct jvm_due_list *l, struct jvm_due *e)
{
	*e = l->v[--l->n];
}

uint64_t jvm_due_next(const struct jvm_due_list *l, uint64_t now)
{
	uint64_t due = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].due_ms > now && (!due || l->v[i].due_ms < due))
			due = l->v[i].due_ms;
	return due;
}

static bool pid_in(const pid_t *sorted, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && sorted[lo] == pid;
}

void jvm_due_keep_pids(struct jvm_due_list *l, const pid_t *pids, size_t n)
{
	for (size_t i = 0; i < l->n;)
		if (!pid_in(pids, n, l->v[i].jvm.pid))
			jvm_due_remove(l, &l->v[i]);
		else
			i++;
}

void jvm_due_free(struct jvm_due_list *l)
{
	free(l->v);
	*l = (struct jvm_due_list){ 0 };
}
