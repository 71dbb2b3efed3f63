/* configs.h — Triton-style config lists (spec §3.5): the reader of
 * kernels/configs.tsv-shaped files, Inductor's shrink of a config to a
 * problem and Triton's shared-memory estimate, for the back ends whose
 * candidates are such configs (nvrtc.c).  GPU independent.  File format:
 * the header comment of kernels/configs.tsv.
 */
#ifndef MMRANK_BENCH_CONFIGS_H
#define MMRANK_BENCH_CONFIGS_H

#include <stdint.h>

#include "plan.h"

/* Read a config list (kernels/configs.tsv, mma_configs.tsv,
 * wgmma_configs.tsv); *n gets the count (base first, then extra, as in the
 * file; "big" lines count as extra, "splitk" lines are skipped).  Dies
 * naming file:line on a malformed line, and on more configs than a plan
 * can hold. */
mm_config *configs_read(const char *path, int *n);

/* Shrink one config for (m, n, k) as spec §3.5: BLOCK sizes at most
 * max(next_pow2(dim), 16), num_warps = min(num_warps, BM*BN/256). */
mm_config shrink_config(mm_config c, int64_t m, int64_t n, int64_t k);

/* Triton's shared-memory estimate for a config: stages*(BM*BK + BK*BN)*
 * itemsize bytes (a config above the device's opt-in limit is skipped, as
 * newer Inductor prunes it). */
int64_t triton_smem(const mm_config *c, int itemsize);

/* 1 if a and b have the same tile, stages and warps. */
int same_config(const mm_config *a, const mm_config *b);

#endif
