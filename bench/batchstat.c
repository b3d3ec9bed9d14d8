/* batchstat.c: see batchstat.h. */
#include "batchstat.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void batchstat_summarize(uint64_t *ns, size_t n, size_t per, double *all, double *fast)
{
	uint64_t sum = 0, sum_fast = 0;
	size_t k = n / 10 ? n / 10 : 1;

	for (size_t i = 0; i < n; i++)
		sum += ns[i];
	qsort(ns, n, sizeof *ns, cmp_u64);
	for (size_t i = 0; i < k && i < n; i++)
		sum_fast += ns[i];
	*all = n ? (double)sum / (double)(n * per) : 0;
	*fast = n ? (double)sum_fast / (double)(k * per) : 0;
}
