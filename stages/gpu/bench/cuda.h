/* cuda.h — inside the CUDA measurer (its interface is measure.h): the state
 * its files and the back ends' GPU halves share.  cuda.c opens and closes
 * the device and prints --stats; cuda_measure.c measures one input;
 * cuda_screen.c is the screening pass; cuda_time.c verifies and times one
 * candidate; cuda_extern.c (extern_mm, cuBLAS) and cuda_lt.c (cuBLASLt)
 * are the GPU halves every plan may use, nvrtc_gpu.c the NVRTC back end's.
 *
 * Inputs: uniform random non-zero values in ±[1/1024, 1) (mm.cu's
 * fill_kernel).  When A+B fit in L2, calls rotate over several copies of
 * the operands (>= 2x L2 in all), so a timed call never finds them cached.
 */
#ifndef MMRANK_BENCH_CUDA_H
#define MMRANK_BENCH_CUDA_H

#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "backend.h"
#include "cuda_lt.h"
#include "gpu/cuda/cudrv.h"
#include "gpu/policy/vcutstats.h"

/* One input's device operands (backend.h cuda_bufs). */
struct cuda_bufs {
	void **A, **B;             /* nbuf copies of mat1 and mat2 */
	void *C, *R;               /* the output; cuBLAS's output (the reference) */
	int nbuf;
	int next;                  /* the copy the next timed call uses */
};

/* The auxiliary kernels of one dtype (kernels/mm.cu's fill_kernel and
 * cmp_kernel, nvrtc_gpu.c nvrtc_aux). */
typedef struct {
	CUfunction fill, cmp;
} cuda_aux;

/* A verification verdict, per (choice, dtype, tf32, transposes). */
typedef struct { uint64_t key; int ok; } vstate;

/* --stats: seconds and counts (cuda.c measure_stats prints them). */
typedef struct {
	double t_compile, t_load, t_setup, t_ref, t_verify, t_time_nvrtc, t_time_extern, t_time_lt,
	       t_screen;
	int64_t n_compile, n_cache_hit, n_verify, n_verify_fail, n_compile_fail,
	        n_launch_fail, n_oom, n_inputs, n_launch, n_lt_rejected, n_lt_mismatch,
	        n_screened, n_screened_out, n_screen_miss, n_ref_warm,
	        n_long, n_long_fallback, /* tt_time's long path taken; tried, not taken */
	        n_loser, n_loser_fallback, /* tt_time's loser cut taken; tried, not taken */
	        n_warm_from_verify; /* timings with the verification call as the warm-up */
	tt_vcut_stats vcut;        /* --verify-cut's (stages/gpu/policy/vcutstats.h) */
} cuda_stats;

struct measurer {
	bench_opts o;
	bench_device dev;
	char arch[16];             /* "sm_90" */
	cudrv drv;
	cublasHandle_t blas;
	cudaEvent_t e0, e1;
	const bench_backend *be;   /* the --template back end */
	void *be_state;            /* be->gpu->open's */
	void *nv;                  /* the NVRTC back end's state: the auxiliary
	                              kernels are kernels/mm.cu's (= be_state for it) */
	vstate *vs;
	size_t nvs, capvs;
	double *d_sums;            /* 3 doubles on the device (cmp_kernel) */
	lt_gpu *lt;                /* cuBLASLt, opened on first use */
	lt_prep ltp;               /* the cuBLASLt candidate being measured */
	double input_best;         /* the input in flight's best time so far (ms): over its
	                              full-size timings (every repetition, failed ones
	                              forgotten; +inf before the first; --loser-ratio) */
	double verify_ms;          /* its candidate's verification call just made (ms, NAN:
	                              none; --warm-from-verify); both kept by cuda_measure.c */
	cuda_stats s;
};

/* One launch of an auxiliary kernel f (blocks x 256 threads, stream 0);
 * dies if it fails. */
void cuda_launch_aux(measurer *m, CUfunction f, unsigned blocks, void **args);

/* The GPU halves of extern_mm and cuBLASLt candidates. */
extern const bench_gpu_ops extern_gpu, lt_gpu_ops;

/* The auxiliary kernels for dtype dt (nvrtc_gpu.c); dies if they do not build. */
cuda_aux nvrtc_aux(measurer *m, int dt);

/* The GPU half that runs candidate c: extern_gpu, lt_gpu_ops or the back
 * end's. */
const bench_gpu_ops *cuda_ops(const measurer *m, const bench_cand *c);

/* c's prepare() (cuda_time.c); r->h = r->launched = NULL first. */
int cuda_prepare(measurer *m, const bench_input *in, const bench_cand *c, const cuda_bufs *bf,
                 cand_ready *r);

/* c's run() on operand copy i into out. */
int cuda_run(measurer *m, const bench_input *in, const bench_cand *c, const cand_ready *r,
             const cuda_bufs *bf, int i, void *out);

/* One timed repetition (cuda_time.c): n_iter back-to-back calls of c over
 * the rotating copies, CUDA events around them (or the back end's time()).
 * Returns ms per call (> 0), or -1 after a failure (message on stderr,
 * context checked). */
double cuda_time_rep(measurer *m, const bench_input *in, const bench_cand *c,
                     const cand_ready *r, cuda_bufs *bf, int n_iter);

/* 1: the back end's time() times (--clock inductor), not cuda_time_rep. */
int cuda_own_time(const measurer *m);
/* Calls per timed repetition for a call of ms: a repetition >= ~1 ms, <= 100 calls. */
int cuda_iters_for(double ms);

/* First-use verification of c (not extern_mm) on problem p (the input or
 * its screening slice; bf->R holds cuBLAS's result for p, or have_ref is
 * 0): the call into bf->C poisoned with NaN, timed into *warm_ms (it doubles
 * as the warm-up call; -1 if no call was made), then the relative error
 * against bf->R within the dtype's tolerance (f32 1e-4, tf32 5e-3, f16
 * 5e-3, bf16 2e-2).  Skipped (returns 0) when the (choice, dtype, tf32,
 * transposes) passed before and not --verify-all.  Returns 0, or -1 with a
 * message when it failed now or before (inf). */
int cuda_verify(measurer *m, const cuda_aux *aux, const bench_input *p, const bench_cand *c,
                const cand_ready *r, cuda_bufs *bf, int have_ref, float *warm_ms);

/* Relative Frobenius error of out vs ref (m x n of p's dtype), or +inf if
 * an element of out is not finite. */
double cuda_rel_error(measurer *m, const cuda_aux *aux, const bench_input *p, void *out,
                      void *ref);

/* After a failed call: clear a non-sticky error; die if the context is gone
 * (every later call would fail), naming what failed. */
void cuda_check_context(measurer *m, const char *what);

/* Candidate ci failed: its first repetition is inf; the later ones are not
 * measured (NaN) under adaptive repetitions, else inf as well (the rows
 * bench_full_reps and format_block expect). */
void cuda_mark_failed(double *fb, int nc, int ci, int reps, double alpha);

/* Screening of a long input (cuda_screen.c; screen.h): verdict[] and st[]
 * per candidate; returns 0, or -1 when not screened after all. */
enum { SCR_TIME = 0, SCR_OUT = 1, SCR_FAILED = 2 };
int cuda_screen_pass(measurer *m, const cuda_aux *aux, const bench_input *in,
                     const bench_input *sl, const bench_cand *c, int nc, int reps,
                     cuda_bufs *bf, unsigned char *verdict, double *fb, double *st);
void cuda_screen_audit(measurer *m, const bench_input *in, const bench_input *sl,
                       const bench_cand *c, int nc, const unsigned char *verdict,
                       const double *st, const double *fb);

#endif
