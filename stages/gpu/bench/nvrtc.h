/* nvrtc.h — the NVRTC back end (backend.h): our CUDA C templates compiled
 * at run time, kernels/mm.cu (CUDA-core FFMA tiles), kernels/mma.cu (tensor
 * cores, mma.sync) and kernels/wgmma.cu (Hopper wgmma + TMA, sm_90a).  The
 * plan half is nvrtc.c (GPU independent), the GPU half nvrtc_gpu.c.
 * Variants, the --template values of backends.c:
 *   mm         kernels/configs.tsv on mm.cu, ids type=nvrtc_BLOCK-M=...
 *   mma        kernels/mma_configs.tsv on mma.cu, ids type=nvrtc_mma_...
 *   mma+wgmma  mma's list, then kernels/wgmma_configs.tsv on wgmma.cu
 *              (not shrunk; fp16/bf16 inputs wgmma_eligible() accepts, sm_90
 *              devices only), ids type=nvrtc_wgmma_...
 */
#ifndef MMRANK_BENCH_NVRTC_H
#define MMRANK_BENCH_NVRTC_H

#include "backend.h"

enum { NVRTC_MM = 0, NVRTC_MMA = 1, NVRTC_MMA_WGMMA = 2 };

/* The plan half's lists (load's result). */
typedef struct {
	mm_config *cfg;            /* base, extra, then wgmma.cu's (extra == 2) */
	int n;
	int tmpl;                  /* 0: mm.cu, 1: mma.cu (mm_config.tmpl of the first lists) */
	int wgmma;                 /* 1: kernels/wgmma.cu too (variant mma+wgmma) */
} nvrtc_lists;

extern const bench_plan_ops nvrtc_plan;
extern const bench_gpu_ops nvrtc_gpu;   /* build/bin/bench only */

/* Thread grid for a BM x BN tile with nt threads: tr*tc == nt, BM%tr == 0,
 * BN%tc == 0, per-thread tile (BM/tr) x (BN/tc) as square as possible.
 * Returns 0, or -1 if no grid exists. */
int thread_grid(int bm, int bn, int nt, int *tr, int *tc);

/* Dynamic shared memory the config's template needs, in bytes:
 * kernels/mm.cu: BK*(BM+1+BN+1)*4; kernels/mma.cu: STAGES*(max(BM*(BK+16/es),
 * BK*(BM+8)) + max(BN*(BK+16/es), BK*(BN+8)))*es with es the element size
 * of dtype dt; kernels/wgmma.cu: STAGES*(BM+BN)*BK*2 + 16*STAGES + 1024
 * (their header comments). */
int64_t kernel_smem(const mm_config *c, int dt);

/* 1 when kernels/wgmma.cu can run input in (its launch contract): fp16 or
 * bf16, compact operands (the transposes' strides: its tensor maps take
 * the extents as the leading dimensions; a padded input gets no wgmma
 * candidates), and TMA can describe both operands, i.e. the leading dimension of
 * each stored operand (K for row-major A (ta 0) and B^T (tb 1), M for A^T,
 * N for B) is a multiple of 8 elements (16 bytes).  Buffers from cudaMalloc
 * are 256-byte aligned, so the bases always qualify. */
int wgmma_eligible(const bench_input *in);

#endif
