/* triton.h — the Triton back end (backend.h, `bench --template triton`):
 * exactly the candidates Inductor's tuned_mm offers for an mm while
 * collecting AutoHeuristic data (stages/gpu/policy/inductor_cands.h, the one home
 * of the rule; kernels/INDUCTOR_MM.md), under Inductor's ids, each Triton
 * config run as our kernels/triton_mm.py compiled ahead of time for the
 * input's variant (python3 -m mmrank.bench.triton_aot; the cubin cache,
 * stages/gpu/bench/triton_meta.h) and every choice, extern_mm included, timed
 * with Inductor's method (triton_timing.h).  The plan half is triton.c
 * (GPU independent), the GPU half triton_gpu.c.
 */
#ifndef MMRANK_BENCH_TRITON_H
#define MMRANK_BENCH_TRITON_H

#include "backend.h"
#include "gpu/policy/inductor_cands.h"

/* The plan half's lists (load's result): the two committed tables. */
typedef struct {
	ic_table t;
} triton_lists;

extern const bench_plan_ops triton_plan;
extern const bench_gpu_ops triton_gpu;   /* build/bin/bench only */

/* The rule's input for bench input in. */
void triton_ic_input(const bench_input *in, ic_input *out);

#endif
