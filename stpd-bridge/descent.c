/* descent.c: see descent.h. A chained hash set of "class\0root" keys. */
#include "descent.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

#define BUCKETS 4096u

struct pair {
	struct pair *next;
	size_t len;               /* of key, both names and the NUL between */
	char key[];
};

struct descent {
	struct pair *bucket[BUCKETS];
	size_t n, bytes;   /* pairs, and their names' bytes */
};

static uint32_t hash(const char *cls, size_t clen, const char *root, size_t rlen)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < clen; i++)
		h = (h ^ (uint8_t)cls[i]) * 16777619u;
	h = (h ^ 0xffu) * 16777619u;
	for (size_t i = 0; i < rlen; i++)
		h = (h ^ (uint8_t)root[i]) * 16777619u;
	return h % BUCKETS;
}

static struct pair *find(const struct descent *d, const char *cls, size_t clen, const char *root, size_t rlen)
{
	for (struct pair *p = d->bucket[hash(cls, clen, root, rlen)]; p; p = p->next)
		if (p->len == clen + 1 + rlen && memcmp(p->key, cls, clen) == 0 && p->key[clen] == '\0' &&
		    memcmp(p->key + clen + 1, root, rlen) == 0)
			return p;
	return NULL;
}

int descent_add(struct descent **d, const char *cls, size_t clen, const char *root, size_t rlen)
{
	char c[DESCENT_NAME_MAX], r[DESCENT_NAME_MAX];
	ssize_t cn = name_class_any_to_dotted(cls, clen, c, sizeof c);
	ssize_t rn = name_class_any_to_dotted(root, rlen, r, sizeof r);

	if (cn == -ENAMETOOLONG || rn == -ENAMETOOLONG)
		return -E2BIG;
	if (cn <= 0 || rn <= 0)
		return -EINVAL;
	if (!*d && !(*d = calloc(1, sizeof **d)))
		return -ENOMEM;
	if (find(*d, c, (size_t)cn, r, (size_t)rn))
		return 0;
	if ((*d)->n >= DESCENT_MAX || (*d)->bytes + (size_t)cn + 1 + (size_t)rn > DESCENT_BYTES_MAX)
		return -E2BIG;
	struct pair *p = malloc(sizeof *p + (size_t)cn + 1 + (size_t)rn);
	if (!p)
		return -ENOMEM;
	memcpy(p->key, c, (size_t)cn);
	p->key[cn] = '\0';
	memcpy(p->key + cn + 1, r, (size_t)rn);
	p->len = (size_t)cn + 1 + (size_t)rn;
	uint32_t h = hash(c, (size_t)cn, r, (size_t)rn);
	p->next = (*d)->bucket[h];
	(*d)->bucket[h] = p;
	(*d)->n++;
	(*d)->bytes += p->len;
	return 1;
}

bool descent_has(void *ctx, const char *cls, size_t clen, const char *root, size_t rlen)
{
	const struct descent *d = ctx;

	return d && find(d, cls, clen, root, rlen);
}

void descent_free(struct descent *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < BUCKETS; i++)
		while (d->bucket[i]) {
			struct pair *p = d->bucket[i];
			d->bucket[i] = p->next;
			free(p);
		}
	free(d);
}
