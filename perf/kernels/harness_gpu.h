/* perf/kernels/harness_gpu.h — the GPU side of the kernel harnesses'
 * library (harness_gpu.c; the host side is harness.h): device context and
 * modules, cuBLAS references, fill/compare kernels and verdicts, rotating
 * operand buffers, timing.  Units: times in ms, sizes in bytes; CUDA,
 * driver and cuBLAS failures are fatal (die). */
#ifndef MMRANK_HARNESS_GPU_H
#define MMRANK_HARNESS_GPU_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "gpu/cuda/cudrv.h"
#include "harness.h"

typedef struct {
	vkey k;
	CUmodule mod;
	CUfunction mma, red, fill, cmp;
	int smem, ok;
} kmod;

typedef struct {
	cudrv drv;
	cublasHandle_t blas;
	cudaEvent_t e0, e1;
	const char *src, *cache;
	uint64_t srch;
	kmod *mods;
	size_t nmods, capmods;
	int sms;
	size_t l2;
	double *d_out;          /* 5 doubles on the device */
	double t_compile;
	int n_compile;
} gpu_t;

/* views: A storage (M,K) row-major (ta=0) or (K,M) row-major seen transposed */
typedef struct {
	int d, M, N, K, ta, tb;
	long long sam, sak, sbk, sbn;
} view_t;

typedef struct {
	view_t v;
	int R;                  /* rotation copies */
	void **A, **B;
	void *C, *W;
	size_t wbytes;
	int rot;
} bufs_t;

/* Device 0 (an sm_90 GPU, else fatal) with mma.cu's source src; 0 when
 * there is no usable GPU. */
int gpu_open(gpu_t *g, const char *src, uint64_t srch, const char *cache);
void gpu_close(gpu_t *g);
/* The template's __device__ int NAME (its shared-memory formula, bytes)
 * must equal the host's value expect: dies naming both otherwise. */
void check_module_smem(gpu_t *g, CUmodule mod, const char *name, int expect);
/* The entry of key (ksize bytes, the first member of each elem-byte
 * entry, compared by memcmp: keys without padding) in the growing array
 * *arr of *n entries (capacity *cap), or a new zeroed one holding key
 * (*fresh = 1): the module caches of both harnesses. */
void *mod_slot(void **arr, size_t *n, size_t *cap, size_t elem, const void *key, size_t ksize,
               int *fresh);
/* Load cubin img (malloc'd, freed here; NULL: it did not compile) into
 * *mod; when compiled, the NVRTC time since t0 counts in g's statistics.
 * Returns 0, or -1 for img NULL. */
int gpu_load(gpu_t *g, char *img, int compiled, double t0, CUmodule *mod);
/* loaded module for k (compiled if needed); NULL if it does not compile */
kmod *get_mod(gpu_t *g, const vkey *k);
view_t make_view(int d, int M, int N, int K, int ta, int tb);
/* torch.mm through cublasGemmEx (stages/gpu/cuda/cublas_mm.h).  ref: fp32
 * output, pedantic fp32 compute. */
cublasStatus_t blas_mm(gpu_t *g, const view_t *v, const void *A, const void *B, void *C, int ref);
void fill(gpu_t *g, int d, void *x, long long n, uint64_t seed);
/* compare c (elem type of d) against float ref r; out: d2, r2, bad, maxd, maxr */
void compare(gpu_t *g, int d, const void *c, const float *r, long long n, double out[5]);
/* 1 when o passes dtype d's tolerances (relative Frobenius and max-norm
 * errors into *fro, *mx; TOL_FRO / TOL_MAX of harness_gpu.c) */
int verdict(int d, const double o[5], double *fro, double *mx);
/* Rotating copies of x's operands (>= 2x L2, at most 32 and 2 GB), filled
 * with seed; a workspace of wbytes (0: none). */
void bufs_alloc(gpu_t *g, bufs_t *b, const input_t *x, size_t wbytes, uint64_t seed);
void bufs_free(bufs_t *b);
/* Median time (ms) of one call of call(ctx) (0 = success): one warm-up
 * call, one timed call, then 5 repetitions (3 when a call exceeds 5 ms) of
 * nit calls (one repetition >= 0.25 ms, nit <= 100), CUDA events on the
 * default stream.  A candidate whose timed call exceeds 2x best is not
 * repeated (it cannot be the best): that time is returned.  INF_MS when a
 * call fails. */
double time_calls(gpu_t *g, int (*call)(void *), void *ctx, double best);

#endif
