/* plan.h — what bench measures: the inputs (rows of shapes.tsv), the
 * candidates of one input in Inductor's order, and the plan that produces
 * them (spec §3.4 inputs, §3.5 candidates).  GPU independent: linked into
 * build/bin/bench and build/bin/bench-fake, so resumption (which recomputes
 * the plan) is tested on the CPU.  The candidates after extern_mm and the
 * cuBLASLt choices come from the --template back end (backend.h).
 */
#ifndef MMRANK_BENCH_PLAN_H
#define MMRANK_BENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/ahlog_write.h"
#include "lt.h"

enum { DT_F32 = 0, DT_F16 = 1, DT_BF16 = 2 };

/* Bytes per element of dtype dt; "torch.float32" etc. for the log. */
int dtype_size(int dt);
const char *dtype_torch(int dt);

/* One input: a row of a shape list (stages/formats/shapes.h; sample's
 * shapes.tsv is one).  The strides (feat.s1_0 .. s2_1, elements) are the
 * list's, logged as given: compact, padded, or a size-1 dimension's free
 * stride. */
typedef struct {
	int64_t id, sample;        /* the `input` column (else the row index), `sample` (else -1) */
	int64_t line;              /* its line in the list */
	int64_t m, k, n;
	int dtype;                 /* DT_* */
	int tf32;                  /* 0/1, float32 only */
	int ta, tb;                /* 1: the operand is a transposed view (unit stride 0) */
	int64_t lda, ldb;          /* BLAS leading dimensions (elements, >= the extent) */
	int64_t span1, span2;      /* elements each operand's storage spans */
	int compact;               /* 1: both operands have the transposes' compact strides */
	ah_mm_input feat;          /* logged features */
	char *features;            /* ah_mm_features(&feat) */
} bench_input;

/* Read a shape list (inputs.c, shape_list_read); dies naming file:line:
 * field on any error.  Returns the inputs in file order, *n their count. */
bench_input *shapes_read(const char *path, int64_t *n);
void shapes_free(bench_input *in, int64_t n);

/* A Triton-style config (spec §3.5), BLOCK sizes in elements. */
typedef struct {
	int bm, bn, bk, stages, warps;
	int extra;                 /* 0 base list, 1 "mm-ah" extra list (and mma's "big"),
	                              2 kernels/wgmma_configs.tsv (its own list) */
	int tmpl;                  /* kernel template: 0 kernels/mm.cu (CUDA-core FFMA),
	                              1 kernels/mma.cu (tensor cores, mma.sync),
	                              2 kernels/wgmma.cu (Hopper wgmma + TMA, sm_90a),
	                              3 kernels/triton_mm.py (the Triton back end) */
} mm_config;

/* One candidate of one input, in Inductor's order. */
typedef struct {
	int is_extern;             /* 1: extern_mm (cuBLAS) */
	int lt;                    /* 1: a cuBLASLt algorithm (--cublaslt), alg */
	lt_algo alg;               /* lt only: its attributes (lt.h) */
	mm_config cfg;             /* post-shrink (template candidates only) */
	int tr, tc;                /* thread grid of kernels/mm.cu, tr*tc = 32*warps */
	char id[128];              /* choice id written to the log */
	char variant[128];         /* the compile variant the GPU half loads (the Triton
	                              back end: ic_variant_name), "" if none */
} bench_cand;

/* extern_mm + up to 126 configs + up to LT_MAX_LIST cuBLASLt algorithms */
#define BENCH_MAX_CAND (128 + LT_MAX_LIST)

struct bench_backend;

/* Everything the candidates of an input depend on besides the input: part
 * of a log's identity (a resumed log must have been made with the same). */
typedef struct {
	const struct bench_backend *be; /* the --template back end (backend.h) */
	const void *lists;         /* its config lists (be->plan->load); NULL: none
	                              (--no-nvrtc: extern_mm and cuBLASLt only) */
	const lt_entry *lt;        /* --cublaslt algorithms, nlt of them */
	int nlt;
	int64_t smem_limit;        /* bytes: the device's opt-in shared memory per block */
} bench_plan;

/* Candidates of one input (spec §3.5): extern_mm, then (ours, --cublaslt)
 * one candidate per algorithm of p->lt whose dtypes include the input's
 * type class (lt_dtype_class), in list order, then the back end's
 * candidates for the input (its plan half's candidates()); none at all
 * (0) for an input plan_skip() skips.  out must hold BENCH_MAX_CAND.
 * Returns the count. */
int plan_candidates(const bench_plan *p, const bench_input *in, bench_cand *out);

/* 1 when the back end measures nothing on in (its plan half's skip():
 * no candidates, no rows), the reason in why[0..len); else 0. */
int plan_skip(const bench_plan *p, const bench_input *in, char *why, size_t len);

#endif
