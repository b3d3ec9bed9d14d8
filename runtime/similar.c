/* similar.c: see similar.h. */
#include "similar.h"

unsigned similar_distance(const char *a, size_t an, const char *b, size_t bn, unsigned limit)
{
	unsigned row[SIMILAR_MAX_LEN + 1];

	if (an > SIMILAR_MAX_LEN || bn > SIMILAR_MAX_LEN ||
	    (an > bn ? an - bn : bn - an) > limit)
		return limit + 1;
	for (size_t j = 0; j <= bn; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= an; i++) {
		unsigned prev = row[0], best_in_row;
		row[0] = (unsigned)i;
		best_in_row = row[0];
		for (size_t j = 1; j <= bn; j++) {
			unsigned cur = row[j];
			unsigned d = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < d)
				d = row[j] + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			prev = cur;
			if (d < best_in_row)
				best_in_row = d;
		}
		if (best_in_row > limit)
			return limit + 1;   /* every later row is at least this */
	}
	return row[bn] > limit ? limit + 1 : row[bn];
}
