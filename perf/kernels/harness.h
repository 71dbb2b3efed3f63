/* perf/kernels/harness.h — the small library the kernel harnesses share
 * (mma_harness.c, wgmma_harness.c): configs and dtypes, the mma.cu cubins
 * (its utility module holds the fill and compare kernels both use), parallel
 * precompilation (harness.c), and the GPU side (harness_gpu.c): context,
 * modules, cuBLAS references, fill/compare, verdicts, rotating buffers,
 * timing.  Built with libmmcuda (stages/cuda/: NVRTC cache, driver entry
 * points, torch.mm on cuBLAS, the wgmma launch contract) and libmmrank
 * (stages/lib/util.h) by `make harnesses` (perf/kernels/build.sh).
 * Units: times in ms, sizes in bytes.  Errors: CUDA/driver/cuBLAS/NVRTC
 * failures are fatal (die), except an NVRTC compile error (NULL, log on
 * stderr), which the callers count against the candidate.
 */
#ifndef MMRANK_HARNESS_H
#define MMRANK_HARNESS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "cudrv.h"

#define INF_MS HUGE_VAL
#define SMEM_OPTIN 232448       /* bytes: H100/H200 opt-in shared memory per block */

/* ---- configurations, dtypes, keys (harness.c) ---------------------------- */

enum { D_F32 = 0, D_F16 = 1, D_BF16 = 2, D_TF32 = 3, ND = 4 };
extern const char *const DNAME[ND];   /* "fp32", "fp16", "bf16", "tf32" */
int d_es(int d);                      /* element size in bytes */
int d_DT(int d);                      /* the templates' DT define (tf32: 0) */

typedef struct {
	int bm, bn, bk, st, nw;
} cfg_t;

typedef struct {
	char list[16];
	cfg_t c;
} cfg_row;

/* One mma.cu cubin: config, dtype, split-K variant. */
typedef struct {
	cfg_t c;
	int d, splitk;
} vkey;

typedef struct {
	vkey *v;
	size_t n, cap;
} keyset;

typedef struct {
	int m, n, k;
} shape3;

typedef struct {
	int d, m, n, k, ta, tb;
	char group[16];
} input_t;

/* kernels/mma.cu's MMA_SMEM_BYTES (bytes) */
long smem_bytes(const cfg_t *c, int d);
/* Configurations of file (header "list\tBLOCK_M...", '#' comments; rows
 * "list BM BN BK stages warps").  Returns a malloc'd array of *n rows;
 * dies on a missing file or a bad row. */
cfg_row *read_configs_file(const char *path, int *n);
/* The NVRTC options both templates share, in this order (part of each
 * cubin's cache key): --gpu-architecture=arch, -DBM, -DBN, -DBK, -DSTAGES,
 * -DNW of c, -DDT=dt; into opt[] with opts[i] = opt[i].  Returns 7. */
int cfg_opts(char (*opt)[64], const char **opts, const char *arch, const cfg_t *c, int dt);
int key_eq(const vkey *a, const vkey *b);
void keyset_add(keyset *s, const vkey *k);
/* The utility module of dtype d (fill and compare kernels). */
vkey util_key(int d);
/* Cubin of source src (hash srch, program name name) compiled by NVRTC with
 * options opts[0..no): from the cache DIR when there, else compiled and
 * stored (temp file + rename, safe for parallel precompile jobs).  Returns a
 * malloc'd image (*len bytes; *compiled = 1 when NVRTC ran), or NULL on a
 * compile error (log on stderr).  Other NVRTC or file errors are fatal. */
char *nvrtc_cubin(const char *src, uint64_t srch, const char *cache, const char *name,
                  const char *const *opts, int no, size_t *len, int *compiled);
/* Cubin for mma.cu key k (see nvrtc_cubin) */
char *get_cubin(const char *src, uint64_t srch, const char *cache, const vkey *k, size_t *len,
                int *compiled);
/* Runs one(ctx, i) for i in [0, n) in jobs forked processes (job j takes
 * i = j, j + jobs, ...); one returns 0 on success.  Returns 0 when every
 * call succeeded, else 1.  fork/waitpid failures are fatal. */
int run_jobs(size_t n, int jobs, int (*one)(void *, size_t), void *ctx);
/* Compiles (NVRTC, jobs processes) every mma.cu cubin of ks missing from
 * the cache.  Returns 0 when all compiled, 1 otherwise. */
int precompile(const char *src, uint64_t srch, const char *cache, const keyset *ks, int jobs);
double tflops(const input_t *x, double ms);

/* ---- the GPU side (harness_gpu.c) ------------------------------------------ */

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
/* torch.mm through cublasGemmEx (stages/cuda/cublas_mm.h).  ref: fp32
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
