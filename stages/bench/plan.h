/* bench.h — types shared by the bench driver (stages/bench.c), its
 * GPU-independent planning/logging code (stages/bench_plan.c), and its two
 * measurement back ends: CUDA (stages/cuda/bench_gpu.c -> build/bin/bench)
 * and a deterministic fake for CPU tests (stages/bench_fake.c ->
 * build/bin/bench-fake).  Spec §1 (log), §3.4 (inputs), §3.5 (candidates).
 */
#ifndef MMRANK_BENCH_H
#define MMRANK_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ahlog.h"
#include "lt.h"

enum { DT_F32 = 0, DT_F16 = 1, DT_BF16 = 2 };

/* One input: a row of shapes.tsv (see stages/sample.c for the columns). */
typedef struct {
	int64_t id, sample;
	int64_t m, k, n;
	int dtype;                 /* DT_* */
	int tf32;                  /* 0/1, float32 only */
	int ta, tb;                /* transpose_left / transpose_right */
	ah_mm_input feat;          /* logged features */
	char *features;            /* ah_mm_features(&feat) */
} bench_input;

/* A Triton-style config (spec §3.5), BLOCK sizes in elements. */
typedef struct {
	int bm, bn, bk, stages, warps;
	int extra;                 /* 0 base list, 1 "mm-ah" extra list (and mma's "big"),
	                              2 kernels/wgmma_configs.tsv (its own list) */
	int tmpl;                  /* kernel template: 0 kernels/mm.cu (CUDA-core FFMA),
	                              1 kernels/mma.cu (tensor cores, mma.sync),
	                              2 kernels/wgmma.cu (Hopper wgmma + TMA, sm_90a) */
} mm_config;

/* One candidate of one input, in Inductor's order. */
typedef struct {
	int is_extern;             /* 1: extern_mm (cuBLAS) */
	int lt;                    /* 1: a cuBLASLt algorithm (--cublaslt), alg */
	lt_algo alg;               /* lt only: its attributes (bench_lt.h) */
	mm_config cfg;             /* post-shrink (NVRTC candidates only) */
	int tr, tc;                /* thread grid of kernels/mm.cu, tr*tc = 32*warps */
	char id[128];              /* choice id written to the log */
} bench_cand;

/* extern_mm + up to 126 configs + up to LT_MAX_LIST cuBLASLt algorithms */
#define BENCH_MAX_CAND (128 + LT_MAX_LIST)

/* Options shared by the driver and the back ends. */
typedef struct {
	int device;                /* CUDA ordinal */
	int shard, nshards;
	int reps;
	const char *kernels;       /* directory of mm.cu + configs.tsv */
	const char *cache;         /* cubin cache directory */
	int verify_all;
	int bad_kernel;            /* compile with MMRANK_BUG (tests) */
	double fake_delay_ms;      /* bench-fake only: sleep per input */
	int fake_fail;             /* bench-fake only: fail every Nth candidate */
	int fake_cap;              /* bench-fake only: capability major (0: 9) */
	const char *compile_arch;  /* --compile-only ARCH */
	int tmpl;                  /* --template: 0 mm (default), 1 mma, mma+wgmma */
	int wgmma;                 /* --template mma+wgmma: also kernels/wgmma.cu */
	double fast_reject;        /* --fast-reject F (adaptive repetitions, see
	                              bench_full_reps); 0: every candidate all reps */
	double screen;             /* --screen B (screening of long inputs, see
	                              bench_screen_slice); 0: off */
	double screen_ms;          /* --screen-ms T: screen inputs whose cuBLAS
	                              reference call takes >= T ms */
	int screen_audit;          /* --screen-audit: screen, but still time every
	                              candidate at full size and count the misses */
} bench_opts;

/* Device facts that go into the metadata line and the plan. */
typedef struct {
	int64_t smem_optin;        /* bytes, max shared memory per block (opt-in) */
	int cap_major, cap_minor;
	int64_t l2_bytes;
	int64_t total_mem;         /* bytes */
	char name[256];
} bench_device;

int dtype_size(int dt);
const char *dtype_torch(int dt);

/* Read shapes.tsv (sample's output); dies naming file:line on any error.
 * Returns the inputs in file order, *n their count. */
bench_input *shapes_read(const char *path, int64_t *n);
void shapes_free(bench_input *in, int64_t n);

/* Read kernels/configs.tsv; *n gets the count (base first, then extra, as
 * in the file).  Dies on malformed lines. */
mm_config *configs_read(const char *path, int *n);

/* Thread grid for a BM x BN tile with nt threads: tr*tc == nt, BM%tr == 0,
 * BN%tc == 0, per-thread tile (BM/tr) x (BN/tc) as square as possible.
 * Returns 0, or -1 if no grid exists. */
int thread_grid(int bm, int bn, int nt, int *tr, int *tc);

/* Triton's shared-memory estimate for a config: stages*(BM*BK + BK*BN)*
 * itemsize bytes (a config above the device's opt-in limit is skipped, as
 * newer Inductor prunes it). */
int64_t triton_smem(const mm_config *c, int itemsize);
/* Dynamic shared memory the config's template needs, in bytes:
 * kernels/mm.cu: BK*(BM+1+BN+1)*4; kernels/mma.cu: STAGES*(max(BM*(BK+16/es),
 * BK*(BM+8)) + max(BN*(BK+16/es), BK*(BN+8)))*es with es the element size
 * of dtype dt (its header comment). */
int64_t kernel_smem(const mm_config *c, int dt);

/* Candidates of one input (spec §3.5): extern_mm, then (ours, --cublaslt)
 * one candidate per algorithm of lt[0..nlt) whose dtypes include the
 * input's type class (lt_dtype_class), in list order, then the base configs
 * shrunk to the problem (m' = max(next_pow2(m),16) ..., num_warps =
 * min(num_warps, BM*BN/256)) with duplicates inside the base list dropped,
 * then the extra configs likewise; configs whose triton_smem exceeds
 * smem_limit are skipped.  out must hold BENCH_MAX_CAND.  Returns count. */
int plan_candidates(const bench_input *in, const mm_config *cfgs, int ncfg,
                    const lt_entry *lt, int nlt, int64_t smem_limit, bench_cand *out);

/* 1 when kernels/wgmma.cu can run input in (its launch contract): fp16 or
 * bf16, and TMA can describe both operands, i.e. the leading dimension of
 * each stored operand (K for row-major A (ta 0) and B^T (tb 1), M for A^T,
 * N for B) is a multiple of 8 elements (16 bytes).  Buffers from cudaMalloc
 * are 256-byte aligned, so the bases always qualify. */
int wgmma_eligible(const bench_input *in);

/* Shrink one config for (m, n, k) as spec §3.5. */
mm_config shrink_config(mm_config c, int64_t m, int64_t n, int64_t k);

/* Adaptive repetitions (ours; the reference times every choice REPS
 * times).  Candidates of one input are measured in plan order; t is the
 * first timed repetition (ms) of candidate c and best the smallest first
 * repetition among candidates 0..c of the input (c included; +inf if none
 * is finite).  Returns 1 if c gets all reps repetitions: t is finite and
 * t <= alpha * best, or alpha <= 0 (adaptivity off).  Otherwise only the
 * first repetition is measured and logged (one row): a candidate more than
 * alpha times slower than an earlier one cannot be near-best (spec §5.2:
 * within 2 %) and its exact median does not change any label.  The rule
 * depends only on logged values, so resume_scan recomputes it. */
int bench_full_reps(double t, double best, double alpha);

/* Screening of long inputs (ours; the reference times every choice at full
 * size).  On an input whose cuBLAS reference call takes ref_ms >= screen_ms,
 * every NVRTC candidate and extern_mm are first timed on a slice of the
 * problem, the same operands with a smaller k (or m): the first k' columns
 * of op(A) and rows of op(B) (or the first m' rows of op(A) and of C), the
 * strides unchanged.  k' (m') is a multiple of 256, >= 2048, about
 * dim * 0.5 ms / ref_ms, and at most half the dimension: the slice lasts
 * ~0.5 ms while keeping the tile grid (k) or >= 2048 rows of it (m).
 * Returns 1 and *slice (= *in with k or m reduced; id, features and
 * strides unchanged) when the input is screened, 0 when it is not (screen
 * off, ref_ms < screen_ms or not finite, or neither k nor m is >= 4096). */
int bench_screen_slice(const bench_input *in, double ref_ms, double screen_ms,
                       bench_input *slice);

/* Screening verdicts for the nc candidates of one screened input, from
 * their slice times st[] (ms; inf or <= 0: failed or not timed): keep[i]
 * = 1 (timed at full size) for extern_mm (i = 0), every cuBLASLt choice,
 * and every other candidate with st[i] <= beta * best, where *best is the
 * smallest slice time of extern_mm and the NVRTC candidates; keep[i] = 0
 * otherwise: left out of the log (no row).  A choice beta > 1 times slower
 * than the best on the slice is not near-best at full size (spec §5.2:
 * within 2 %) unless the slice misjudges it by that factor, which bench
 * --screen-audit measures (check/gpu/screen_collect.sh).  beta <= 0 keeps
 * all.  Returns the number of candidates left out. */
int bench_screen_verdicts(const bench_cand *c, int nc, const double *st, double beta,
                          unsigned char *keep, double *best);

/* The log rows of one input: for rep in 0..reps-1, for each candidate,
 * "<features>,<choice>,<str(feedback)>\n"; fb[rep*nc + c] in ms (inf for a
 * failure, NaN for a repetition not measured: rep >= 1 of a candidate
 * bench_full_reps(fb[c], running best, alpha) rejects, or every rep of a
 * candidate screened out (bench_screen_verdicts), which has no row; anything
 * else is an internal error).  Returns a malloc'd buffer, *len its length. */
char *format_block(const bench_input *in, const bench_cand *c, int nc,
                   int reps, double alpha, const double *fb, size_t *len);

/* Median (ms) of the measured repetitions of candidate c: fb[rep*nc + c]
 * over rep < reps, NaN entries (not measured) skipped; +inf if any is inf
 * (as featurize aggregates, spec §1.6); NaN if none was measured. */
double bench_median(const double *fb, int nc, int c, int reps);

/* Resumption (design.md "Resumable"): body is the log after its two
 * metadata lines.  Walks the shard's inputs in order; each must appear as
 * its complete block: nc rows of the first repetition, then for r = 1 ..
 * reps-1 one row per candidate that bench_full_reps(first repetition,
 * running best, alpha) gives all repetitions; every row's prefix
 * "<features>,<choice>," equals the plan and its feedback parses (positive
 * or inf).  Returns the number of complete inputs; *keep = bytes of body
 * they occupy (the rest, a partially written input or a torn line, is to
 * be truncated).  A complete line that disagrees with the plan (another
 * shapes.tsv, configs.tsv, --reps, --fast-reject or device) is fatal: the
 * message names the line.  With screening (screen > 0, reps >= 2) the
 * first repetition may lack candidates after a finite extern_mm row (those
 * screened out, in plan order); the first repetition then ends at the
 * first row that is not a later candidate of the plan, and the input is
 * complete only when its later repetitions follow (extern_mm's always do),
 * so a block cut after its first repetition is redone. */
int64_t resume_scan(const char *path, const char *body, size_t len,
                    bench_input *const *todo, int64_t ntodo,
                    const mm_config *cfgs, int ncfg, const lt_entry *lt, int nlt,
                    int64_t smem_limit, int reps, double alpha, double screen,
                    size_t *keep);

/* ---- back end interface (one implementation per binary) ---- */
typedef struct bench_backend bench_backend;
/* Open device o->device; fills dev.  Dies with a clear message when there
 * is no usable GPU. */
bench_backend *backend_open(const bench_opts *o, bench_device *dev);
/* Measure every candidate of one input.  fb[rep*nc + c]: ms per call (CUDA
 * events), +inf on a failure (compile error, launch failure, OOM, wrong
 * result; a message goes to stderr), NaN for repetitions >= 1 that
 * bench_full_reps(.., o->fast_reject) skips.  Dies only if the device is unusable
 * afterwards (sticky CUDA error). */
void backend_measure(bench_backend *b, const bench_input *in,
                     const bench_cand *c, int nc, int reps, double *fb);
/* Print the time breakdown (compile, load, setup, verification, timing)
 * as "key\tvalue" lines. */
void backend_stats(bench_backend *b, FILE *fp);
void backend_close(bench_backend *b);
/* --compile-only ARCH: fill the cubin cache without a GPU, for every
 * (shrunk config, dtype) a problem can produce, or (ins != NULL) only for
 * the nins inputs given.  Returns the number of cubins compiled. */
int backend_precompile(const bench_opts *o, const mm_config *cfgs, int ncfg,
                       const bench_input *ins, int64_t nins);
/* "cuda" or "fake" */
const char *backend_kind(void);
/* bench --lt-discover: cublasLtMatmulAlgoGetHeuristic's top n algorithms
 * (best first) for input in, problem as extern_mm's (bench_lt_gpu.h), into
 * out (n entries).  Returns the count (0: the heuristic has none).  The
 * fake back end answers a deterministic made-up list. */
int backend_lt_heuristic(bench_backend *b, const bench_input *in, int n, lt_algo *out);

/* bench --lt-discover N [--lt-keep K] SHAPES OUT (stages/bench_lt.c): ask
 * backend_lt_heuristic for the top topn of each of the ntodo inputs, tally
 * them (lt_tally) and write the list file OUT atomically (comments: the
 * command, device, date, counts); keep as lt_tally_write.  Returns the
 * number of algorithms the heuristic returned in all. */
int64_t lt_discover(bench_backend *be, bench_input *const *todo, int64_t ntodo, int topn,
                    int keep, const char *shapes, const bench_device *dev, const char *out);

/* ---- bench --use-heuristic (stages/bench_online.c) ---- */
#include "tree.h"
/* Column names of the per-input TSV (tab separated, no trailing tab). */
extern const char online_header[];
/* The heuristic's selection for one input (spec §7.3): the first k ranked
 * choices of tree t that are among cand[0..nc), then extern_mm if missing.
 * Writes candidate indices to sel (BENCH_MAX_CAND), the decision's wall
 * time to *decision_ns; returns the count. */
int online_select(const tree *t, int k, const bench_input *in,
                  const bench_cand *cand, int nc, int *sel, double *decision_ns);
/* Warm-up pass, selection pass (top-k + extern_mm) and full pass over one
 * input; appends one TSV row to out and returns the regret (chosen median /
 * oracle median, both from the full pass), the selection and full wall
 * times in seconds.  fb must hold reps * BENCH_MAX_CAND doubles. */
void online_input(bench_backend *be, const tree *t, int k, const bench_input *in,
                  const bench_cand *cand, int nc, int reps, double *fb, FILE *out,
                  double *regret, double *select_s, double *full_s);

#endif
