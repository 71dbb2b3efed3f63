/* inductor_cands.h — the candidate set Inductor's tuned_mm offers for one mm
 * while collecting AutoHeuristic data (TORCHINDUCTOR_AUTOHEURISTIC_COLLECT=mm,
 * mode max-autotune-no-cudagraphs), under Inductor's choice ids (spec §1.2,
 * §3.5, §7.2), and for each Triton candidate the compile variant of our
 * kernel (kernels/triton_mm.py) that times it.  Pure C, no CUDA: the one
 * home of the rule; Python asks the triton_cands tool (stages/gpu/bench/
 * triton_cands.c) and python3 -m mmrank.bench.triton_configs --check-rule compares
 * it with the installed torch's own code.  kernels/INDUCTOR_MM.md gives the
 * torch 2.11 source lines every step follows.
 *
 * For an input (m, k, n, dtype, strides, tf32) the list is, in order:
 *   1. extern_mm                               (aten_gemm = 1)
 *   2. subgraph_decompose_k_mm_<s>_split ...   (k >= T*m and k >= T*n,
 *      T = decompose_k_threshold; splits from get_k_splits)
 *   3. the "mm" table configs, shrunk, deduplicated (skipped when
 *      k >= 2T*m and k >= 2T*n: Inductor drops the template there)
 *   4. the "mm-ah" table configs, shrunk, deduplicated (the extra configs
 *      AutoHeuristic collection adds)
 * Lists 3 and 4 are deduplicated separately (as Inductor does), so a config
 * of each may shrink to the same id: both are offered, timed and logged;
 * dup_of marks the later one.  m == 1 or n == 1: no candidates (Inductor
 * decomposes such an mm when coordinate_descent_tuning is on, as in mode
 * max-autotune*, and never autotunes it).  Configs whose shared memory
 * exceeds the device's are still offered (Inductor times them as inf)
 * unless prune_shared_mem = 1. */
#ifndef MMRANK_INDUCTOR_CANDS_H
#define MMRANK_INDUCTOR_CANDS_H

#include <stddef.h>
#include <stdint.h>

enum { IC_F16, IC_BF16, IC_F32 };                 /* input dtype */
enum { IC_EXTERN, IC_DECOMPOSE_K, IC_TRITON };    /* candidate kind */
enum { IC_LIST_MM, IC_LIST_AH };                  /* config table list */

#define IC_MAX_CONFIGS 64
#define IC_MAX_CANDS 96       /* 1 + 10 splits + 64 configs, with room */
#define IC_ID_MAX 96
#define IC_VARIANT_MAX 128
/* K trip counts up to this are compiled in (a static kernel's constant loop
 * of up to 7 tiles is unrolled by LLVM: kernels/INDUCTOR_MM.md) */
#define IC_KT_MAX 8

typedef struct {
	int list;                             /* IC_LIST_MM / IC_LIST_AH */
	int bm, bn, bk, stages, warps, group_m;
	int line;                             /* line in the configs file */
} ic_config;

/* The two committed tables (kernels/inductor_mm_configs.tsv and
 * kernels/inductor_mm_params.tsv, written by python3 -m
 * mmrank.bench.triton_configs). */
typedef struct {
	int n;
	ic_config cfg[IC_MAX_CONFIGS];
	char torch_version[64];
	int min_block, min_block_k;
	int force_same_precision, prune_shared_mem;
	int aten_gemm, triton_gemm;
	int dk_splits, dk_threshold, dk_skip_multiple;
	int coordinate_descent_tuning;
} ic_table;

/* One mm input.  Strides in elements: mat1 is (m, k) with strides
 * (s1[0], s1[1]), mat2 is (k, n) with (s2[0], s2[1]); tf32 = torch's
 * allow_tf32 (fp32_precision == "tf32"), ignored unless dtype is IC_F32. */
typedef struct {
	int64_t m, k, n;
	int dtype;
	int64_t s1[2], s2[2];
	int tf32;
} ic_input;

/* The compile variant of kernels/triton_mm.py for one Triton candidate on
 * one input: everything the generated code can depend on (see
 * kernels/INDUCTOR_MM.md "specialisation key").  The run-time integers are
 * M, N, K, stride_am, stride_ak, stride_bk, stride_bn (IC_ARG_*); div[i] is
 * the largest power of two dividing the value, capped at 16 bytes' worth of
 * elements (8 for fp16/bf16, 4 for fp32), or 0 for a stride equal to 1,
 * which is compiled in as a constexpr. */
enum { IC_ARG_M, IC_ARG_N, IC_ARG_K, IC_ARG_AM, IC_ARG_AK, IC_ARG_BK, IC_ARG_BN, IC_NARG };
typedef struct {
	int dtype, allow_tf32;                  /* allow_tf32 only for IC_F32 */
	int bm, bn, bk, stages, warps, group_m;
	int even_k;                             /* k % bk == 0 */
	int hint_a, hint_b;                     /* dense operand and m >= bm (n >= bn) and k > 1 */
	int k_tiles;                            /* cdiv(k, bk) if <= IC_KT_MAX, else 0 (run time) */
	int idx64;                              /* 64-bit indexing (> 2^31 - 1 elements) */
	int div[IC_NARG];
} ic_variant;

typedef struct {
	int kind;                    /* IC_EXTERN, IC_DECOMPOSE_K, IC_TRITON */
	int list, cfg;               /* triton: table list and row index (pre-shrink) */
	int bm, bn, bk, stages, warps, group_m;   /* triton: after the shrink */
	int k_split;                 /* decompose_k: the split count */
	int dup_of;                  /* index of an earlier candidate with this id, or -1 */
	char id[IC_ID_MAX];          /* Inductor's AutoHeuristic choice id */
	ic_variant v;                /* triton only */
} ic_cand;

/* Read both tables; dies with "FILE:LINE: field 'NAME': why: 'VALUE'" on
 * any malformed line (a field count other than the header's, a bad number,
 * an unknown list or parameter, a missing parameter, a duplicate, a
 * block size that is not a power of two >= 16, more than IC_MAX_CONFIGS
 * rows, a '\r'). */
void ic_table_read(ic_table *t, const char *configs_path, const char *params_path);

/* "torch.float16" / "torch.bfloat16" / "torch.float32" (or the short
 * "float16", "bfloat16", "float32", "fp16", "bf16", "fp32") -> IC_F16...;
 * -1 for anything else. */
int ic_dtype_parse(const char *s);
const char *ic_dtype_torch(int dtype);   /* "torch.float16", ... */
int ic_itemsize(int dtype);

/* The candidates of in, in Inductor's order, into c[0..IC_MAX_CANDS);
 * returns their count (0 when Inductor autotunes nothing).  smem is the
 * device's opt-in shared memory per block in bytes (232448 on H100/H200),
 * used only when the table says prune_shared_mem = 1.  Returns -1 and a
 * message in err[0..errlen) when the input is out of what the rule (or our
 * kernel) covers: m, k or n < 1, a size or stride beyond int32, a negative
 * stride, an unknown dtype. */
int ic_candidates(const ic_table *t, const ic_input *in, int64_t smem, ic_cand *c,
                  char *err, size_t errlen);

/* The variant's cache name, e.g.
 *   f16-128x128x64-s3w4g8-ek1-h11-kt0-i32-d8.8.8-a8.u-b8.u
 * (dtype f16|bf16|f32|tf32; BMxBNxBK; stages, warps, GROUP_M; EVEN_K;
 * HINT_A HINT_B; K_TILES (0: run time); index width; divisibility of M.N.K, of
 * stride_am.stride_ak and of stride_bk.stride_bn, 'u' = constexpr 1).
 * Writes at most IC_VARIANT_MAX bytes; the name is a valid file name. */
void ic_variant_name(const ic_variant *v, char *buf, size_t len);

/* The launch arguments' values in IC_ARG_* order for in (the same for every
 * variant of in). */
void ic_args(const ic_input *in, int64_t arg[IC_NARG]);

#endif
