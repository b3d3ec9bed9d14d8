/* batchstat.h: the summary the C benchmarks give of timed batches.
 *
 * Contract: batchstat_summarize() sorts NS (N batch times in ns, each of
 * PER operations) and gives the mean ns an operation over every batch
 * (*ALL) and over the fastest tenth of them (*FAST, at least one batch):
 * the machine's other tenants interrupt some batches, and the fastest
 * tenth is what the code costs when nothing does.
 */
#ifndef STAPJAVA_BENCH_BATCHSTAT_H
#define STAPJAVA_BENCH_BATCHSTAT_H

#include <stddef.h>
#include <stdint.h>

void batchstat_summarize(uint64_t *ns, size_t n, size_t per, double *all, double *fast);

#endif
