/* bench_gpu.c — CUDA back end of bench (interface: stages/bench.h).
 *
 * extern_mm: cublasGemmEx with torch.mm's row-major semantics mapped onto
 * column-major cuBLAS: C^T[n,m] = op(B)^T[n,k] * op(A)^T[k,m], i.e.
 * cublasGemmEx(transa = tb ? T : N, transb = ta ? T : N, n, m, k, B,
 * ldb = tb ? k : n, A, lda = ta ? m : k, C, ldc = n); fp16/bf16/fp32 data,
 * CUBLAS_COMPUTE_32F (fp32 with tf32: CUBLAS_COMPUTE_32F_FAST_TF32 and
 * CUBLAS_TF32_TENSOR_OP_MATH, as torch with allow_tf32).
 * Candidates: kernels/mm.cu compiled by NVRTC per (post-shrink config,
 * thread grid, dtype, arch), cubins cached on disk under --cache keyed by
 * (FNV-1a hash of the source, config, dtype, arch), loaded with the driver
 * API.  The driver API is reached through cudaGetDriverEntryPointByVersion,
 * so the binary does not need libcuda.so.1 to start and says "no GPU"
 * clearly on a machine without a driver.
 *
 * Timing (spec §1.3, ms): after a warm-up call (the verification call
 * when there is one; none on a long input — warm cuBLAS reference time >= 1 ms
 * — for a kernel that already ran in this process), each repetition is
 * CUDA events around n_iter back-to-back calls (n_iter so a repetition
 * lasts >= ~1 ms, at most 100), feedback = elapsed / n_iter.  Adaptive
 * repetitions (--fast-reject, bench_full_reps): a candidate whose first
 * repetition is more than alpha times the best first repetition so far is
 * not repeated (one row).  The reference time is the input's first cuBLAS
 * call, or, when that cold call takes >= min(1 ms, --screen-ms), the smaller
 * of it and a second, warm call.  Screening (--screen B, bench_screen_slice/
 * verdicts): on an input whose reference time is >= --screen-ms, extern_mm and
 * every NVRTC candidate are verified (first use) and timed on a slice (the
 * same buffers and strides, k or m cut to ~0.5 ms of cuBLAS); only those
 * within B x the best slice time, and every cuBLASLt choice, are then
 * timed at full size; the others have no row (--screen-audit times them
 * anyway and reports their full-size ratios).  When A+B fit in
 * L2, calls rotate over several copies of the inputs (>= 2x L2 in all).
 * Inputs: uniform random non-zero values in ±[1/1024, 1).
 * Verification: relative Frobenius error ||C - C_cublas|| / ||C_cublas||
 * with C poisoned (NaN) before the call; tolerance f32 1e-4, tf32 5e-3,
 * f16 5e-3, bf16 2e-2; done the first time per (candidate id, dtype, tf32,
 * transposes), or always with --verify-all.  Failures (NVRTC error, launch
 * error, OOM, wrong result) -> inf and a message on stderr; a sticky CUDA
 * error (context lost) is fatal.
 * cuBLASLt choices (--cublaslt; stages/cuda/bench_lt_gpu.c): per input
 * each listed algorithm is rebuilt from its attributes and checked
 * (cublasLtMatmulAlgoCheck; rejected -> inf, one message per (algorithm,
 * dtype)), then verified and timed exactly like an NVRTC candidate, with
 * a workspace of the size the check asks for (one buffer, grown).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>
#include <nvrtc.h>

#include "plan.h"
#include "nvrtc_cache.h"
#include "wgmma_launch.h"
#include "cuda_lt.h"
#include "util.h"

typedef CUresult (*fn_load_t)(CUmodule *, const void *);
typedef CUresult (*fn_getfn_t)(CUfunction *, CUmodule, const char *);
typedef CUresult (*fn_unload_t)(CUmodule);
typedef CUresult (*fn_setattr_t)(CUfunction, CUfunction_attribute, int);
typedef CUresult (*fn_launch_t)(CUfunction, unsigned, unsigned, unsigned,
                                unsigned, unsigned, unsigned, unsigned,
                                CUstream, void **, void **);
typedef CUresult (*fn_errstr_t)(CUresult, const char **);

typedef struct {
	char key[96];
	CUmodule mod;
	CUfunction mm, fill, cmp;
	CUfunction wg[4];           /* wgmma.cu: wgmma_kernel_<ta><tb>, index ta*2+tb */
	int ok;                     /* 0: compile/load failed */
	int launched;               /* has run at least once in this process */
} kmod;

typedef struct {
	uint64_t key;
	int ok;
} vstate;

struct bench_backend {
	bench_opts o;
	bench_device dev;
	char arch[16];
	fn_load_t load;
	fn_getfn_t getfn;
	fn_unload_t unload;
	fn_setattr_t setattr;
	fn_launch_t launch;
	fn_errstr_t errstr;
	cublasHandle_t blas;
	cudaEvent_t e0, e1;
	char *src;
	uint64_t src_hash;
	char *src2;                 /* kernels/mma.cu with --template mma, else NULL */
	uint64_t src2_hash;
	char *src3;                 /* kernels/wgmma.cu with --template mma+wgmma, else NULL */
	uint64_t src3_hash;
	tmap_encode_fn encode;      /* cuTensorMapEncodeTiled (wgmma.cu only) */
	CUtensorMap *tmA, *tmB;     /* wgmma.cu candidate being measured: the maps of
	                               every buffer set (run_once), capacity captm */
	int captm;
	kmod **mods;                /* each allocated once: pointers stay valid */
	size_t nmods, capmods;
	vstate *vs;
	size_t nvs, capvs;
	double *d_sums;             /* 3 doubles on the device */
	lt_gpu *lt;                 /* cuBLASLt, opened on first use */
	lt_prep ltp;                /* the cuBLASLt candidate being measured (run_once) */
	/* statistics (seconds, counts) */
	double t_compile, t_load, t_setup, t_ref, t_verify, t_time_nvrtc, t_time_extern,
	       t_time_lt, t_screen;
	int64_t n_compile, n_cache_hit, n_verify, n_verify_fail, n_compile_fail,
	        n_launch_fail, n_oom, n_inputs, n_launch, n_lt_rejected, n_lt_mismatch,
	        n_screened, n_screened_out, n_screen_miss, n_ref_warm;
};

#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) \
	die("%s failed: %s (%s:%d)", #call, cudaGetErrorString(e_), __FILE__, __LINE__); } while (0)

static const char *blas_err(cublasStatus_t s)
{
	return cublasGetStatusString(s);
}

static const char *drv_err(const bench_backend *b, CUresult r)
{
	const char *s = NULL;
	if (b->errstr && b->errstr(r, &s) == CUDA_SUCCESS && s)
		return s;
	return "unknown driver error";
}

static const char *const tmpl_file[3] = { "mm.cu", "mma.cu", "wgmma.cu" };

/* The source of template tmpl (0: mm.cu, 1: mma.cu, 2: wgmma.cu) and its
 * hash. */
static char *load_source(const bench_opts *o, int tmpl, uint64_t *hash)
{
	char *path = xmalloc(strlen(o->kernels) + 16);
	size_t len;
	sprintf(path, "%s/%s", o->kernels, tmpl_file[tmpl]);
	char *src = read_file(path, &len);
	free(path);
	*hash = fnv1a64(FNV1A64_INIT, src, len);
	return src;
}

/* Cubin for (template, cfg, tr, tc, dt, tf32, arch): from the disk cache,
 * or compiled by NVRTC and stored (atomically: temp file + rename).  src is
 * the template's source (c->tmpl), hash its hash.  Returns a malloc'd image
 * and *len, or NULL with *why (malloc'd) on a compile error.  *compiled is
 * set to 1 when NVRTC ran. */
static void *get_cubin(const char *src, uint64_t hash, const char *cache,
                       const mm_config *c, int tr, int tc, int dt, int tf32,
                       const char *arch, int bug, size_t *len, char **why,
                       int *compiled)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%016" PRIx64 "-%d-%d-%d-%d-%d-%dx%d-dt%d%s-%s%s.cubin",
	         cache, hash, c->bm, c->bn, c->bk, c->stages, c->warps, tr, tc, dt,
	         tf32 ? "-tf32" : "", arch, bug ? "-bug" : "");
	char opt[12][64];
	const char *opts[12];
	int no = 0;
	snprintf(opt[no++], 64, "--gpu-architecture=%s", arch);
	snprintf(opt[no++], 64, "-DBM=%d", c->bm);
	snprintf(opt[no++], 64, "-DBN=%d", c->bn);
	snprintf(opt[no++], 64, "-DBK=%d", c->bk);
	snprintf(opt[no++], 64, "-DNW=%d", c->warps);
	snprintf(opt[no++], 64, "-DSTAGES=%d", c->stages);
	if (c->tmpl == 1) {
		snprintf(opt[no++], 64, "-DTF32=%d", tf32);
		snprintf(opt[no++], 64, "-DSPLITK=0");
	} else if (c->tmpl == 2) {
		/* wgmma.cu: BM BN BK NW STAGES DT only */
	} else {
		snprintf(opt[no++], 64, "-DTR=%d", tr);
		snprintf(opt[no++], 64, "-DTC=%d", tc);
	}
	snprintf(opt[no++], 64, "-DDT=%d", dt);
	if (bug)
		snprintf(opt[no++], 64, "-DMMRANK_BUG=1");
	for (int i = 0; i < no; i++)
		opts[i] = opt[i];

	return nvrtc_cubin_cached(path, cache, src, tmpl_file[c->tmpl], opts, no, len, why,
	                          compiled);
}

const char *backend_kind(void) { return "cuda"; }

static void get_entry(const char *sym, void **fp)
{
	enum cudaDriverEntryPointQueryResult q;
	cudaError_t e = cudaGetDriverEntryPointByVersion(sym, fp, 12000, cudaEnableDefault, &q);
	if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fp)
		die("cannot resolve driver function %s: %s", sym, cudaGetErrorString(e));
}

bench_backend *backend_open(const bench_opts *o, bench_device *dev)
{
	int count = 0, v;
	cudaError_t e = cudaGetDeviceCount(&count);
	if (e != cudaSuccess)
		die("no usable CUDA GPU: %s (bench needs an NVIDIA GPU and driver; "
		    "bench-fake runs without one)", cudaGetErrorString(e));
	if (o->device >= count)
		die("--device %d: only %d CUDA device(s)", o->device, count);
	bench_backend *b = xcalloc(1, sizeof *b);
	b->o = *o;
	CUDA_OK(cudaSetDevice(o->device));
	struct cudaDeviceProp prop;
	CUDA_OK(cudaGetDeviceProperties(&prop, o->device));
	snprintf(dev->name, sizeof dev->name, "%s", prop.name);
	CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, o->device));
	dev->smem_optin = v;
	CUDA_OK(cudaDeviceGetAttribute(&dev->cap_major, cudaDevAttrComputeCapabilityMajor, o->device));
	CUDA_OK(cudaDeviceGetAttribute(&dev->cap_minor, cudaDevAttrComputeCapabilityMinor, o->device));
	CUDA_OK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, o->device));
	dev->l2_bytes = v;
	dev->total_mem = (int64_t)prop.totalGlobalMem;
	b->dev = *dev;
	snprintf(b->arch, sizeof b->arch, "sm_%d%d", dev->cap_major, dev->cap_minor);

	get_entry("cuModuleLoadData", (void **)&b->load);
	get_entry("cuModuleGetFunction", (void **)&b->getfn);
	get_entry("cuModuleUnload", (void **)&b->unload);
	get_entry("cuFuncSetAttribute", (void **)&b->setattr);
	get_entry("cuLaunchKernel", (void **)&b->launch);
	get_entry("cuGetErrorString", (void **)&b->errstr);

	cublasStatus_t s = cublasCreate(&b->blas);
	if (s != CUBLAS_STATUS_SUCCESS)
		die("cublasCreate: %s", blas_err(s));
	CUDA_OK(cudaEventCreate(&b->e0));
	CUDA_OK(cudaEventCreate(&b->e1));
	CUDA_OK(cudaMalloc((void **)&b->d_sums, 3 * sizeof(double)));
	b->src = load_source(o, 0, &b->src_hash);
	if (o->tmpl)
		b->src2 = load_source(o, 1, &b->src2_hash);
	if (o->wgmma) {
		b->src3 = load_source(o, 2, &b->src3_hash);
		get_entry("cuTensorMapEncodeTiled", (void **)&b->encode);
	}
	return b;
}

/* Module for (template, cfg, tr, tc, dt, tf32), compiled/loaded on first
 * use.  mm.cu modules also provide fill_kernel and cmp_kernel. */
static kmod *get_module(bench_backend *b, const mm_config *c, int tr, int tc, int dt, int tf32)
{
	char key[96];
	static const char *const pre[3] = { "", "mma-", "wg-" };
	snprintf(key, sizeof key, "%s%d-%d-%d-%d-%d-%dx%d-%d%s", pre[c->tmpl], c->bm,
	         c->bn, c->bk, c->stages, c->warps, tr, tc, dt, tf32 ? "-tf32" : "");
	for (size_t i = 0; i < b->nmods; i++)
		if (!strcmp(b->mods[i]->key, key))
			return b->mods[i];
	xgrow((void **)&b->mods, &b->capmods, b->nmods + 1, sizeof *b->mods);
	kmod *k = xcalloc(1, sizeof *k);
	b->mods[b->nmods++] = k;
	snprintf(k->key, sizeof k->key, "%s", key);
	size_t len;
	char *why;
	int compiled;
	if (c->tmpl == 2 && strcmp(b->arch, "sm_90")) {
		fprintf(stderr, "bench: config %s: kernels/wgmma.cu needs sm_90 (wgmma, TMA); the "
		        "device is %s\n", key, b->arch);
		b->n_compile_fail++;
		return k;
	}
	const char *src = c->tmpl == 2 ? b->src3 : c->tmpl ? b->src2 : b->src;
	uint64_t hash = c->tmpl == 2 ? b->src3_hash : c->tmpl ? b->src2_hash : b->src_hash;
	double t0 = mono_s();
	void *img = get_cubin(src, hash, b->o.cache, c, tr, tc, dt, tf32,
	                      c->tmpl == 2 ? "sm_90a" : b->arch, b->o.bad_kernel,
	                      &len, &why, &compiled);
	double t1 = mono_s();
	if (compiled) {
		b->t_compile += t1 - t0;
		b->n_compile++;
	} else {
		b->n_cache_hit++;
	}
	if (!img) {
		fprintf(stderr, "bench: config %s: %s\n", key, why);
		free(why);
		b->n_compile_fail++;
		return k;
	}
	CUresult r = b->load(&k->mod, img);
	free(img);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "bench: config %s: cuModuleLoadData: %s\n", key, drv_err(b, r));
		b->n_compile_fail++;
		b->t_load += mono_s() - t1;
		return k;
	}
	if (c->tmpl == 2) {
		for (int t = 0; t < 4; t++)
			if ((r = b->getfn(&k->wg[t], k->mod, wgmma_kernel_name(t >> 1, t & 1))) != CUDA_SUCCESS)
				die("cuModuleGetFunction(%s): %s", wgmma_kernel_name(t >> 1, t & 1),
				    drv_err(b, r));
		k->mm = k->wg[0];
	} else if (c->tmpl == 1) {
		if ((r = b->getfn(&k->mm, k->mod, "mma_kernel")) != CUDA_SUCCESS)
			die("cuModuleGetFunction(mma_kernel): %s", drv_err(b, r));
	} else if ((r = b->getfn(&k->mm, k->mod, "mm_kernel")) != CUDA_SUCCESS ||
	           (r = b->getfn(&k->fill, k->mod, "fill_kernel")) != CUDA_SUCCESS ||
	           (r = b->getfn(&k->cmp, k->mod, "cmp_kernel")) != CUDA_SUCCESS) {
		die("cuModuleGetFunction: %s", drv_err(b, r));
	}
	int64_t sm = kernel_smem(c, dt);
	if (sm > b->dev.smem_optin) {
		fprintf(stderr, "bench: config %s: needs %" PRId64 " B shared memory, device has %" PRId64 "\n",
		        key, sm, b->dev.smem_optin);
		b->t_load += mono_s() - t1;
		return k;
	}
	for (int t = 0; t < (c->tmpl == 2 ? 4 : 1); t++)
		if ((r = b->setattr(c->tmpl == 2 ? k->wg[t] : k->mm,
		                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)sm)) != CUDA_SUCCESS) {
			fprintf(stderr, "bench: config %s: cuFuncSetAttribute: %s\n", key, drv_err(b, r));
			b->t_load += mono_s() - t1;
			return k;
		}
	k->ok = 1;
	b->t_load += mono_s() - t1;
	return k;
}

/* After a failed call: clear a non-sticky error; die if the context is
 * gone (every later call would fail). */
static void check_context(bench_backend *b, const char *what)
{
	(void)cudaGetLastError();
	cudaError_t e = cudaMemsetAsync(b->d_sums, 0, 3 * sizeof(double), 0);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		die("CUDA context unusable after %s: %s (rerun to resume; the input in flight is redone)",
		    what, cudaGetErrorString(e));
}

typedef struct {
	void **A, **B;              /* nbuf copies */
	void *C, *R;
	int nbuf;
	int next;
} bufs;

/* One call of candidate c on buffer set i into out.  Returns 0 or prints
 * why and returns -1. */
static int run_once(bench_backend *b, const bench_input *in, const bench_cand *c,
                    kmod *k, const bufs *bf, int i, void *out)
{
	if (c->is_extern) {
		cudaDataType_t t = in->dtype == DT_F32 ? CUDA_R_32F
		                 : in->dtype == DT_F16 ? CUDA_R_16F : CUDA_R_16BF;
		cublasComputeType_t ct = (in->dtype == DT_F32 && in->tf32)
		                 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
		float alpha = 1.0f, beta = 0.0f;
		/* leading dimensions from the strides, not from m, n, k: a
		 * screening slice (bench_screen_slice) keeps the full operands'
		 * (ldb = n or k, lda = k or m as in the header comment) */
		cublasStatus_t s = cublasGemmEx(b->blas,
			in->tb ? CUBLAS_OP_T : CUBLAS_OP_N, in->ta ? CUBLAS_OP_T : CUBLAS_OP_N,
			(int)in->n, (int)in->m, (int)in->k, &alpha,
			bf->B[i], t, (int)(in->tb ? in->feat.s2_1 : in->feat.s2_0),
			bf->A[i], t, (int)(in->ta ? in->feat.s1_1 : in->feat.s1_0), &beta,
			out, t, (int)in->n, ct, CUBLAS_GEMM_DEFAULT);
		if (s != CUBLAS_STATUS_SUCCESS) {
			fprintf(stderr, "bench: input %" PRId64 ": extern_mm: cublasGemmEx: %s\n",
			        in->id, blas_err(s));
			return -1;
		}
		return 0;
	}
	if (c->lt) {
		/* b->ltp: prepared by backend_measure for this candidate */
		cublasStatus_t s = lt_gpu_run(b->lt, &b->ltp, bf->A[i], bf->B[i], out);
		if (s != CUBLAS_STATUS_SUCCESS) {
			fprintf(stderr, "bench: input %" PRId64 ": %s: cublasLtMatmul: %s\n",
			        in->id, c->id, blas_err(s));
			return -1;
		}
		return 0;
	}
	const mm_config *g = &c->cfg;
	int M = (int)in->m, N = (int)in->n, K = (int)in->k;
	long long sam = in->feat.s1_0, sak = in->feat.s1_1, sbk = in->feat.s2_0, sbn = in->feat.s2_1;
	void *A = bf->A[i], *B = bf->B[i];
	void *args_mm[] = { &A, &B, &out, &M, &N, &K, &sam, &sak, &sbk, &sbn };
	/* wgmma.cu: b->tmA/tmB[i] prepared by backend_measure for this candidate */
	void *args_wg[] = { b->tmA ? &b->tmA[i] : NULL, b->tmB ? &b->tmB[i] : NULL, &out, &M, &N, &K };
	CUfunction f = k->mm;
	void **args = args_mm;
	unsigned gx, gy = 1;
	if (g->tmpl == 2) {
		/* 1-D grid of tiles, rasterised by the kernel */
		long long tiles = ((in->m + g->bm - 1) / g->bm) * ((in->n + g->bn - 1) / g->bn);
		if (tiles > 0x7fffffffLL) {
			fprintf(stderr, "bench: input %" PRId64 ": %s: %lld tiles\n", in->id, c->id, tiles);
			return -1;
		}
		f = k->wg[(in->ta ? 2 : 0) + (in->tb ? 1 : 0)];
		args = args_wg;
		gx = (unsigned)tiles;
	} else {
		gx = (unsigned)((in->n + g->bn - 1) / g->bn);
		gy = (unsigned)((in->m + g->bm - 1) / g->bm);
		if (gy > 65535) {
			fprintf(stderr, "bench: input %" PRId64 ": %s: grid y %u too large\n", in->id, c->id, gy);
			return -1;
		}
	}
	CUresult r = b->launch(f, gx, gy, 1, (unsigned)(32 * g->warps), 1, 1,
	                       (unsigned)kernel_smem(g, in->dtype), 0, args, NULL);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: cuLaunchKernel: %s\n",
		        in->id, c->id, drv_err(b, r));
		return -1;
	}
	return 0;
}

static int launch_aux(bench_backend *b, CUfunction f, unsigned blocks, void **args)
{
	CUresult r = b->launch(f, blocks, 1, 1, 256, 1, 1, 0, 0, args, NULL);
	if (r != CUDA_SUCCESS)
		die("auxiliary kernel launch: %s", drv_err(b, r));
	return 0;
}

static void free_bufs(bufs *bf)
{
	for (int i = 0; i < bf->nbuf; i++) {
		if (bf->A && bf->A[i])
			CUDA_OK(cudaFree(bf->A[i]));
		if (bf->B && bf->B[i])
			CUDA_OK(cudaFree(bf->B[i]));
	}
	if (bf->C)
		CUDA_OK(cudaFree(bf->C));
	if (bf->R)
		CUDA_OK(cudaFree(bf->R));
	free(bf->A);
	free(bf->B);
	memset(bf, 0, sizeof *bf);
}

static int try_malloc(void **p, size_t n)
{
	cudaError_t e = cudaMalloc(p, n);
	if (e == cudaSuccess)
		return 0;
	*p = NULL;
	(void)cudaGetLastError();
	return -1;
}

/* Relative Frobenius error of out vs the reference, or +inf if any
 * element of out is not finite. */
static double rel_error(bench_backend *b, kmod *aux, const bench_input *in, void *out, void *ref)
{
	double h[3];
	long long n = (long long)(in->m * in->n);
	CUDA_OK(cudaMemsetAsync(b->d_sums, 0, sizeof h, 0));
	void *args[] = { &out, &ref, &n, &b->d_sums };
	launch_aux(b, aux->cmp, 1024, args);
	CUDA_OK(cudaMemcpy(h, b->d_sums, sizeof h, cudaMemcpyDeviceToHost));
	if (h[2] > 0 || !isfinite(h[0]))
		return INFINITY;
	if (h[1] == 0)
		return h[0] == 0 ? 0 : INFINITY;
	return sqrt(h[0] / h[1]);
}

static double tolerance(const bench_input *in)
{
	switch (in->dtype) {
	case DT_F32: return in->tf32 ? 5e-3 : 1e-4;
	case DT_F16: return 5e-3;
	default: return 2e-2;
	}
}

static vstate *find_vstate(bench_backend *b, uint64_t key)
{
	for (size_t i = 0; i < b->nvs; i++)
		if (b->vs[i].key == key)
			return &b->vs[i];
	return NULL;
}

/* Candidate ci failed: its first repetition is inf; the later ones are
 * not measured (NaN) under adaptive repetitions, else inf as well (the
 * rows bench_full_reps and format_block expect). */
static void mark_failed(double *fb, int nc, int ci, int reps, double alpha)
{
	fb[ci] = INFINITY;
	for (int r = 1; r < reps; r++)
		fb[(size_t)r * nc + ci] = alpha > 0 ? NAN : INFINITY;
}

/* The tensor maps of wgmma.cu config g for every buffer set of input in,
 * into b->tmA/tmB (run_once reads them).  Returns 0, or -1 with a message
 * (the candidate is then inf for this input). */
static int wg_prepare(bench_backend *b, const bench_input *in, const mm_config *g, const bufs *bf)
{
	if (bf->nbuf > b->captm) {
		free(b->tmA);
		free(b->tmB);
		b->captm = bf->nbuf;
		/* CUtensorMap is 64-byte aligned */
		if (posix_memalign((void **)&b->tmA, 64, sizeof *b->tmA * (size_t)b->captm) ||
		    posix_memalign((void **)&b->tmB, 64, sizeof *b->tmB * (size_t)b->captm))
			die("out of memory for %d tensor maps", b->captm);
	}
	for (int i = 0; i < bf->nbuf; i++) {
		CUresult r = wgmma_tensor_maps(b->encode, in->dtype == DT_BF16, in->ta, in->tb, in->m,
		                               in->n, in->k, bf->A[i], bf->B[i], g->bm, g->bn, g->bk,
		                               &b->tmA[i], &b->tmB[i]);
		if (r != CUDA_SUCCESS) {
			fprintf(stderr, "bench: input %" PRId64 ": wgmma config %dx%dx%d: "
			        "cuTensorMapEncodeTiled: %s; inf\n", in->id, g->bm, g->bn, g->bk,
			        drv_err(b, r));
			b->n_launch_fail++;
			return -1;
		}
	}
	return 0;
}

static int iters_for(double ms)
{
	return ms >= 1.0 ? 1 : ms <= 0.01 ? 100 : (int)ceil(1.0 / ms);
}

/* One timed repetition: n_iter back-to-back calls of candidate cd over the
 * rotating buffer sets, CUDA events around them.  Returns ms per call
 * (> 0), or -1 after a failure (message on stderr, context checked). */
static double time_rep(bench_backend *b, const bench_input *in, const bench_cand *cd,
                       kmod *k, bufs *bf, int n_iter)
{
	int fail = 0;
	CUDA_OK(cudaEventRecord(b->e0, 0));
	for (int it = 0; it < n_iter && !fail; it++) {
		bf->next = (bf->next + 1) % bf->nbuf;
		fail = run_once(b, in, cd, k, bf, bf->next, bf->C);
	}
	CUDA_OK(cudaEventRecord(b->e1, 0));
	cudaError_t e = cudaEventSynchronize(b->e1);
	if (fail || e != cudaSuccess) {
		if (e != cudaSuccess)
			fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", in->id, cd->id,
			        cudaGetErrorString(e));
		check_context(b, cd->id);
		b->n_launch_fail++;
		return -1;
	}
	float ms;
	CUDA_OK(cudaEventElapsedTime(&ms, b->e0, b->e1));
	b->n_launch += n_iter;
	double v = (double)ms / n_iter;
	return v > 0 ? v : 1e-6;
}

/* Ready candidate cd for input in: its cuBLASLt descriptors (b->ltp) or
 * its module (*k) and, for wgmma.cu, its tensor maps over the full
 * operands of every buffer set.  Returns 0, or -1 with a message (the
 * candidate is inf for this input). */
static int cand_prepare(bench_backend *b, const bench_input *in, const bench_cand *cd,
                        const bufs *bf, kmod **k)
{
	*k = NULL;
	if (cd->is_extern)
		return 0;
	if (cd->lt) {
		if (!b->lt)
			b->lt = lt_gpu_open();
		lt_gpu_problem(b->lt, in);
		const char *what;
		cublasStatus_t s = lt_gpu_prepare(b->lt, &cd->alg, &b->ltp, &what);
		if (s != CUBLAS_STATUS_SUCCESS) {
			b->n_lt_rejected++;
			unsigned cls = lt_dtype_class(in->dtype, in->tf32);
			if (lt_gpu_first(b->lt, cd->id, cls))
				fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%"
				        PRId64 " %s ta=%d tb=%d): %s: %s: %s; inf (not repeated for "
				        "other %s inputs)\n", in->id, in->m, in->k, in->n,
				        lt_class_name(cls), in->ta, in->tb, cd->id, what, blas_err(s),
				        lt_class_name(cls));
			return -1;
		}
		return 0;
	}
	*k = get_module(b, &cd->cfg, cd->tr, cd->tc, in->dtype, in->dtype == DT_F32 && in->tf32);
	if (!(*k)->ok) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: not available (see above); inf\n",
		        in->id, cd->id);
		return -1;
	}
	if (cd->cfg.tmpl == 2 && wg_prepare(b, in, &cd->cfg, bf) != 0)
		return -1;
	return 0;
}

/* First-use verification of candidate cd (not extern_mm) on problem p (the
 * input or its screening slice; bf->R holds cuBLAS's result for p, or
 * have_ref is 0): the call into bf->C poisoned with NaN, timed into
 * *warm_ms (it doubles as the warm-up call; -1 if no call was made), then
 * the relative error against bf->R.  Skipped (returns 0) when the
 * (choice, dtype, tf32, transposes) passed before and not --verify-all.
 * Returns 0, or -1 with a message when it failed now or before (inf). */
static int cand_verify(bench_backend *b, kmod *aux, const bench_input *p, const bench_cand *cd,
                       kmod *k, bufs *bf, int have_ref, float *warm_ms)
{
	const size_t sz = (size_t)dtype_size(p->dtype), mn = (size_t)(p->m * p->n);
	char vk[256];
	*warm_ms = -1;
	/* tf32 is part of the key: a cuBLASLt algorithm offered for f32 and
	 * tf32 runs with another compute type and tolerance */
	snprintf(vk, sizeof vk, "%s|%d|%d|%d|%d", cd->id, p->dtype,
	         p->dtype == DT_F32 && p->tf32, p->ta, p->tb);
	uint64_t key = fnv1a64(FNV1A64_INIT, vk, strlen(vk));
	vstate *st = find_vstate(b, key);
	if (st && !st->ok) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: failed verification earlier for "
		        "this dtype/transposes; inf\n", p->id, cd->id);
		return -1;
	}
	if (!have_ref || (st && !b->o.verify_all))
		return 0;
	double tv = mono_s();
	CUDA_OK(cudaMemset(bf->C, 0xFF, mn * sz));
	CUDA_OK(cudaEventRecord(b->e0, 0));
	int rc = run_once(b, p, cd, k, bf, 0, bf->C);
	CUDA_OK(cudaEventRecord(b->e1, 0));
	cudaError_t e = rc == 0 ? cudaDeviceSynchronize() : cudaSuccess;
	if (rc == 0 && e == cudaSuccess)
		CUDA_OK(cudaEventElapsedTime(warm_ms, b->e0, b->e1));
	if (rc != 0 || e != cudaSuccess) {
		if (e != cudaSuccess)
			fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", p->id, cd->id,
			        cudaGetErrorString(e));
		check_context(b, cd->id);
		b->n_launch_fail++;
		b->t_verify += mono_s() - tv;
		return -1;
	}
	double err = rel_error(b, aux, p, bf->C, bf->R), tol = tolerance(p);
	b->n_verify++;
	int ok = err <= tol;
	if (!st) {
		xgrow((void **)&b->vs, &b->capvs, b->nvs + 1, sizeof *b->vs);
		st = &b->vs[b->nvs++];
		st->key = key;
	}
	st->ok = ok;
	b->t_verify += mono_s() - tv;
	if (!ok) {
		b->n_verify_fail++;
		fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%" PRId64
		        " %s ta=%d tb=%d): %s: wrong result, relative error %.3g > %.3g; inf\n",
		        p->id, p->m, p->k, p->n, dtype_torch(p->dtype), p->ta, p->tb, cd->id, err,
		        tol);
		return -1;
	}
	return 0;
}

enum { SCR_TIME = 0, SCR_OUT = 1, SCR_FAILED = 2 };

/* Screening (bench_screen_slice/verdicts): cuBLAS's result for the slice sl
 * into bf->R, then extern_mm and every NVRTC candidate timed on sl (after
 * first-use verification there, or a warm-up call); cuBLASLt choices are
 * not screened.  Sets verdict[c] to SCR_TIME (time at full size), SCR_OUT
 * (screened out) or SCR_FAILED (inf already in fb), and st[c] to the slice
 * time (ms; inf if not timed).  Returns 0, or -1 if
 * cuBLAS fails on the slice (then nothing is screened and bf->R is not a
 * reference for anything). */
static int screen_pass(bench_backend *b, kmod *aux, const bench_input *in,
                       const bench_input *sl, const bench_cand *c, int nc, int reps,
                       bufs *bf, unsigned char *verdict, double *fb, double *st)
{
	const size_t sz = (size_t)dtype_size(sl->dtype), mn = (size_t)(sl->m * sl->n);
	/* t_screen excludes the verifications made here (they count in t_verify) */
	double t0 = mono_s() - b->t_verify;
	memset(verdict, SCR_TIME, (size_t)nc);
	CUDA_OK(cudaMemset(bf->R, 0xFF, mn * sz));
	CUDA_OK(cudaEventRecord(b->e0, 0));
	float wms;
	int rc = run_once(b, sl, &c[0], NULL, bf, 0, bf->R);
	CUDA_OK(cudaEventRecord(b->e1, 0));
	if (rc != 0 || cudaDeviceSynchronize() != cudaSuccess ||
	    !isfinite(rel_error(b, aux, sl, bf->R, bf->R))) {
		check_context(b, "extern_mm on the screening slice");
		fprintf(stderr, "bench: input %" PRId64 ": extern_mm failed on the screening slice; "
		        "not screened, not verified\n", sl->id);
		b->t_screen += mono_s() - b->t_verify - t0;
		return -1;
	}
	CUDA_OK(cudaEventElapsedTime(&wms, b->e0, b->e1));
	const int slice_long = wms >= 1.0f; /* cuBLAS on the slice >= 1 ms */
	st[0] = time_rep(b, sl, &c[0], NULL, bf, iters_for(wms));
	for (int ci = 1; ci < nc; ci++) {
		const bench_cand *cd = &c[ci];
		st[ci] = INFINITY;
		if (cd->lt)
			continue;
		kmod *k;
		float warm_ms;
		/* prepared for the full input: wgmma.cu's tensor maps describe
		 * the whole operands, the slice is the kernel's M, K */
		if (cand_prepare(b, in, cd, bf, &k) != 0 ||
		    cand_verify(b, aux, sl, cd, k, bf, 1, &warm_ms) != 0) {
			verdict[ci] = SCR_FAILED;
			mark_failed(fb, nc, ci, reps, b->o.fast_reject);
			continue;
		}
		/* warm-up as in the full pass: none after a verification call,
		 * nor for a kernel that ran before when the slice is long */
		double w = warm_ms >= 0 ? warm_ms : (slice_long && k->launched) ? 1.0
		         : time_rep(b, sl, cd, k, bf, 1);
		double t = w >= 0 ? time_rep(b, sl, cd, k, bf, iters_for(w)) : -1;
		k->launched = 1;
		if (t < 0) {
			verdict[ci] = SCR_FAILED;
			mark_failed(fb, nc, ci, reps, b->o.fast_reject);
			continue;
		}
		st[ci] = t;
	}
	unsigned char keep[BENCH_MAX_CAND];
	double best;
	bench_screen_verdicts(c, nc, st, b->o.screen, keep, &best);
	b->n_screened++;
	for (int ci = 1; ci < nc; ci++)
		if (verdict[ci] == SCR_TIME && !keep[ci]) {
			verdict[ci] = SCR_OUT;
			b->n_screened_out++;
		}
	b->t_screen += mono_s() - b->t_verify - t0;
	return 0;
}

/* --screen-audit: every candidate was timed at full size as well; one
 * stderr line per candidate screened out (its slice and full-size ratios
 * to the best), and a miss counted when it came within 2 % of the best
 * first repetition at full size. */
static void screen_audit(bench_backend *b, const bench_input *in, const bench_input *sl,
                         const bench_cand *c, int nc, const unsigned char *verdict,
                         const double *st, const double *fb)
{
	unsigned char keep[BENCH_MAX_CAND];
	double sbest, fbest = INFINITY;
	bench_screen_verdicts(c, nc, st, b->o.screen, keep, &sbest);
	for (int ci = 0; ci < nc; ci++)
		if (fb[ci] < fbest)
			fbest = fb[ci];
	for (int ci = 1; ci < nc; ci++) {
		if (verdict[ci] != SCR_OUT)
			continue;
		int miss = fb[ci] <= 1.02 * fbest;
		b->n_screen_miss += miss;
		fprintf(stderr, "bench: screen-audit: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%"
		        PRId64 " %s%s, slice %c=%" PRId64 "): %s: slice %.3f x best, full %.3f x "
		        "best%s\n", in->id, in->m, in->k, in->n, dtype_torch(in->dtype),
		        in->dtype == DT_F32 && in->tf32 ? " tf32" : "", sl->k != in->k ? 'k' : 'm',
		        sl->k != in->k ? sl->k : sl->m, c[ci].id, st[ci] / sbest, fb[ci] / fbest,
		        miss ? " MISS" : "");
	}
}

void backend_measure(bench_backend *b, const bench_input *in,
                     const bench_cand *c, int nc, int reps, double *fb)
{
	const size_t sz = (size_t)dtype_size(in->dtype);
	const size_t mk = (size_t)(in->m * in->k), kn = (size_t)(in->k * in->n),
	             mn = (size_t)(in->m * in->n);
	const size_t ab = (mk + kn) * sz;
	bufs bf;
	memset(&bf, 0, sizeof bf);
	for (int i = 0; i < nc; i++)
		mark_failed(fb, nc, i, reps, b->o.fast_reject);
	b->n_inputs++;

	/* module providing fill/cmp for this dtype */
	mm_config auxc = { 16, 16, 16, 1, 1, 0, 0 };
	kmod *aux = get_module(b, &auxc, 2, 16, in->dtype, 0);
	if (!aux->ok)
		die("the auxiliary kernels do not build for dtype %d", in->dtype);

	double t0 = mono_s();
	bf.nbuf = 1;
	if (ab < (size_t)b->dev.l2_bytes) {
		size_t want = (2 * (size_t)b->dev.l2_bytes + ab - 1) / ab;
		bf.nbuf = (int)(want > 64 ? 64 : want < 2 ? 2 : want);
	}
	bf.A = xcalloc((size_t)bf.nbuf, sizeof *bf.A);
	bf.B = xcalloc((size_t)bf.nbuf, sizeof *bf.B);
	int oom = try_malloc(&bf.C, mn * sz) || try_malloc(&bf.R, mn * sz);
	for (int i = 0; i < bf.nbuf && !oom; i++)
		oom = try_malloc(&bf.A[i], mk * sz) || try_malloc(&bf.B[i], kn * sz);
	if (oom) {
		fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%" PRId64
		        " %s): out of device memory; all candidates inf\n",
		        in->id, in->m, in->k, in->n, dtype_torch(in->dtype));
		b->n_oom++;
		free_bufs(&bf);
		return;
	}
	for (int i = 0; i < bf.nbuf; i++) {
		long long n1 = (long long)mk, n2 = (long long)kn;
		unsigned long long s1 = (unsigned long long)(in->id * 1000 + 2 * i + 1),
		                   s2 = (unsigned long long)(in->id * 1000 + 2 * i + 2);
		void *a1[] = { &bf.A[i], &n1, &s1 }, *a2[] = { &bf.B[i], &n2, &s2 };
		launch_aux(b, aux->fill, 4096, a1);
		launch_aux(b, aux->fill, 4096, a2);
	}
	CUDA_OK(cudaDeviceSynchronize());
	double t1 = mono_s();
	b->t_setup += t1 - t0;

	/* cuBLAS reference on buffer set 0 */
	int have_ref = 0, long_input = 0;
	double ref_ms = INFINITY;   /* the reference time (cold, or warm below) */
	double best = INFINITY;     /* running best first repetition (ms) */
	CUDA_OK(cudaMemset(bf.R, 0xFF, mn * sz));
	CUDA_OK(cudaEventRecord(b->e0, 0));
	if (run_once(b, in, &c[0], NULL, &bf, 0, bf.R) == 0) {
		CUDA_OK(cudaEventRecord(b->e1, 0));
		cudaError_t e = cudaDeviceSynchronize();
		if (e == cudaSuccess) {
			float rms;
			CUDA_OK(cudaEventElapsedTime(&rms, b->e0, b->e1));
			long_input = rms >= 1.0f;
			ref_ms = rms;
			have_ref = 1;
			if (!isfinite(rel_error(b, aux, in, bf.R, bf.R))) {
				fprintf(stderr, "bench: input %" PRId64 ": extern_mm wrote non-finite "
				        "values; no verification on this input\n", in->id);
				have_ref = 0;
			}
		} else {
			check_context(b, "extern_mm");
		}
	} else {
		check_context(b, "extern_mm");
	}
	/* The reference call is the input's first: it pays for cold buffers
	 * and for cuBLAS loading its kernel, so it can take milliseconds on a
	 * problem that runs in a fraction of one.  When it reaches a threshold
	 * that matters (1 ms, the long-input rule above, or --screen-ms), a
	 * second, warm call (into C, R keeps the reference) decides instead.
	 * It uses buffer set 0 like the first: operands that fit in L2 are
	 * then cached, which on a problem of >= 1 ms lowers the time little. */
	double warm_at = b->o.screen > 0 && b->o.screen_ms < 1.0 ? b->o.screen_ms : 1.0;
	if (have_ref && ref_ms >= warm_at) {
		float rms;
		CUDA_OK(cudaEventRecord(b->e0, 0));
		int ok = run_once(b, in, &c[0], NULL, &bf, 0, bf.C) == 0;
		if (ok) {
			CUDA_OK(cudaEventRecord(b->e1, 0));
			ok = cudaDeviceSynchronize() == cudaSuccess;
		}
		if (ok) {
			CUDA_OK(cudaEventElapsedTime(&rms, b->e0, b->e1));
			b->n_ref_warm++;
			if (rms < ref_ms)
				ref_ms = rms;
			long_input = ref_ms >= 1.0;
		} else {
			check_context(b, "extern_mm (warm reference call)");
			fprintf(stderr, "bench: input %" PRId64 ": the warm reference call failed; "
			        "the cold time decides\n", in->id);
		}
	}
	b->t_ref += mono_s() - t1;

	/* screening of a long input: verification and a first timing on a slice */
	unsigned char verdict[BENCH_MAX_CAND];
	double st[BENCH_MAX_CAND];
	memset(verdict, SCR_TIME, (size_t)nc);
	bench_input sl;
	int screened = b->o.screen > 0 && have_ref &&
	               bench_screen_slice(in, ref_ms, b->o.screen_ms, &sl);
	int full_ref = have_ref && !screened; /* bf.R holds cuBLAS's result for in */
	if (screened && screen_pass(b, aux, in, &sl, c, nc, reps, &bf, verdict, fb, st) != 0)
		screened = 0;

	for (int ci = 0; ci < nc; ci++) {
		const bench_cand *cd = &c[ci];
		kmod *k = NULL;
		if (verdict[ci] == SCR_FAILED)
			continue; /* inf: failed on the slice */
		if (verdict[ci] == SCR_OUT && !b->o.screen_audit) {
			for (int r = 0; r < reps; r++)
				fb[(size_t)r * nc + ci] = NAN; /* no row */
			continue;
		}
		if (cand_prepare(b, in, cd, &bf, &k) != 0)
			continue;
		if (cd->is_extern && !have_ref)
			continue; /* cuBLAS failed above: extern_mm is inf */
		/* verification (done on the slice when screened); its call,
		 * timed, doubles as the warm-up call */
		float warm_ms = -1;
		if (!cd->is_extern &&
		    cand_verify(b, aux, in, cd, k, &bf, full_ref, &warm_ms) != 0)
			continue;
		/* warm-up call, timed to pick n_iter, unless verification just
		 * made one or the input is long (the reference time >= 1 ms) and
		 * this kernel has run before in this process: a warm GPU running
		 * a loaded kernel for >= 1 ms gains nothing from another call */
		double tt = mono_s();
		float ms = warm_ms;
		int warm_done = warm_ms >= 0 || (long_input && (cd->is_extern || cd->lt || k->launched));
		double t = 0;
		if (!warm_done) {
			t = time_rep(b, in, cd, k, &bf, 1);
			ms = (float)t;
		}
		if (k && t >= 0)
			k->launched = 1;
		/* first repetition; the others only if bench_full_reps says so */
		if (t >= 0)
			t = time_rep(b, in, cd, k, &bf, ms >= 0 ? iters_for(ms) : 1);
		if (t >= 0) {
			fb[ci] = t;
			if (t < best)
				best = t;
			if (!bench_full_reps(t, best, b->o.fast_reject)) {
				for (int r = 1; r < reps; r++)
					fb[(size_t)r * nc + ci] = NAN;
			} else {
				int n_iter = iters_for(t);
				for (int r = 1; r < reps && t >= 0; r++) {
					t = time_rep(b, in, cd, k, &bf, n_iter);
					fb[(size_t)r * nc + ci] = t;
				}
				if (t < 0) {
					/* a later repetition failed: the candidate is inf,
					 * one row, and the running best forgets it */
					mark_failed(fb, nc, ci, reps, b->o.fast_reject);
					best = INFINITY;
					for (int q = 0; q <= ci; q++)
						if (fb[q] < best)
							best = fb[q];
				}
			}
		}
		if (cd->is_extern)
			b->t_time_extern += mono_s() - tt;
		else if (cd->lt)
			b->t_time_lt += mono_s() - tt;
		else
			b->t_time_nvrtc += mono_s() - tt;
	}
	if (screened && b->o.screen_audit)
		screen_audit(b, in, &sl, c, nc, verdict, st, fb);
	double tf = mono_s();
	free_bufs(&bf);
	b->t_setup += mono_s() - tf;
}

void backend_stats(bench_backend *b, FILE *fp)
{
	fprintf(fp, "inputs\t%" PRId64 "\n", b->n_inputs);
	fprintf(fp, "compile_s\t%.3f\ncompiles\t%" PRId64 "\ncubin_cache_hits\t%" PRId64 "\n",
	        b->t_compile, b->n_compile, b->n_cache_hit);
	fprintf(fp, "module_load_s\t%.3f\nsetup_s\t%.3f\nreference_s\t%.3f\n",
	        b->t_load, b->t_setup, b->t_ref);
	fprintf(fp, "verify_s\t%.3f\nverifications\t%" PRId64 "\nverify_failures\t%" PRId64 "\n",
	        b->t_verify, b->n_verify, b->n_verify_fail);
	fprintf(fp, "timing_nvrtc_s\t%.3f\ntiming_extern_s\t%.3f\ntimed_launches\t%" PRId64 "\n",
	        b->t_time_nvrtc, b->t_time_extern, b->n_launch);
	fprintf(fp, "compile_failures\t%" PRId64 "\nlaunch_failures\t%" PRId64 "\noom_inputs\t%" PRId64 "\n",
	        b->n_compile_fail, b->n_launch_fail, b->n_oom);
	fprintf(fp, "screen_s\t%.3f\nscreened_inputs\t%" PRId64 "\nscreened_out\t%" PRId64
	        "\nscreen_misses\t%" PRId64 "\nwarm_reference_calls\t%" PRId64 "\n", b->t_screen,
	        b->n_screened, b->n_screened_out, b->n_screen_miss, b->n_ref_warm);
	fprintf(fp, "timing_cublaslt_s\t%.3f\ncublaslt_rejected\t%" PRId64
	        "\ncublaslt_rebuild_mismatches\t%" PRId64 "\n", b->t_time_lt, b->n_lt_rejected,
	        b->n_lt_mismatch);
}

int backend_lt_heuristic(bench_backend *b, const bench_input *in, int n, lt_algo *out)
{
	if (!b->lt)
		b->lt = lt_gpu_open();
	lt_gpu_problem(b->lt, in);
	int *ok = xcalloc((size_t)n, sizeof *ok);
	int cnt = lt_gpu_heuristic(b->lt, n, out, ok);
	for (int i = 0; i < cnt; i++) {
		if (ok[i])
			continue;
		b->n_lt_mismatch++;
		char id[LT_ID_MAX];
		lt_format_id(&out[i], id, sizeof id);
		if (lt_gpu_first(b->lt, id, 0))
			fprintf(stderr, "bench: input %" PRId64 ": heuristic algorithm %s: its rebuild "
			        "from the attributes differs or fails the check (reported once)\n",
			        in->id, id);
	}
	free(ok);
	return cnt;
}

void backend_close(bench_backend *b)
{
	for (size_t i = 0; i < b->nmods; i++) {
		if (b->mods[i]->mod) {
			CUresult r = b->unload(b->mods[i]->mod);
			if (r != CUDA_SUCCESS)
				die("cuModuleUnload: %s", drv_err(b, r));
		}
		free(b->mods[i]);
	}
	lt_gpu_close(b->lt);
	cublasStatus_t s = cublasDestroy(b->blas);
	if (s != CUBLAS_STATUS_SUCCESS)
		die("cublasDestroy: %s", blas_err(s));
	CUDA_OK(cudaEventDestroy(b->e0));
	CUDA_OK(cudaEventDestroy(b->e1));
	CUDA_OK(cudaFree(b->d_sums));
	free(b->mods);
	free(b->vs);
	free(b->src);
	free(b->src2);
	free(b->src3);
	free(b->tmA);
	free(b->tmB);
	free(b);
}

/* One cubin request of backend_precompile: compiled by this process iff
 * its running number (*total) falls to this --shard. */
static void precompile_one(const bench_opts *o, const char *src, uint64_t hash,
                           const mm_config *g, int tr, int tc, int dt, int tf,
                           const char *arch, const char *what, int *total, int *n)
{
	if ((*total)++ % o->nshards != o->shard)
		return;
	size_t len;
	char *why;
	int comp;
	void *img = get_cubin(src, hash, o->cache, g, tr, tc, dt, tf, arch,
	                      o->bad_kernel, &len, &why, &comp);
	if (!img)
		die("%s: %s", what, why);
	free(img);
	*n += comp;
}

int backend_precompile(const bench_opts *o, const mm_config *cfgs, int ncfg,
                       const bench_input *ins, int64_t nins)
{
	uint64_t hash, hash2 = 0, hash3 = 0;
	char *src = load_source(o, 0, &hash);
	char *src2 = o->tmpl ? load_source(o, 1, &hash2) : NULL;
	/* wgmma.cu builds for sm_90a only (wgmma, setmaxnreg) */
	int wg = o->wgmma && !strncmp(o->compile_arch, "sm_90", 5);
	char *src3 = wg ? load_source(o, 2, &hash3) : NULL;
	int n = 0, total = 0;
	/* without SHAPES: every shrink a problem can cause, m', n', k' in
	 * {16, 32, 64, >=128} */
	static const int dims[] = { 16, 32, 64, 128 };
	bench_input in;
	bench_cand cand[BENCH_MAX_CAND];
	memset(&in, 0, sizeof in);
	in.features = (char *)"";
	for (int dt = 0; dt < 3; dt++) {
		mm_config auxc = { 16, 16, 16, 1, 1, 0, 0 };
		precompile_one(o, src, hash, &auxc, 2, 16, dt, 0, o->compile_arch, "auxiliary kernels",
		               &total, &n);
		/* mma.cu for float32 has a tf32 (mma) and an FFMA variant */
		for (int tf = 0; tf <= (o->tmpl && dt == DT_F32); tf++)
			for (int64_t p = 0; p < (ins ? nins : 64); p++) {
				if (ins) {
					if (ins[p].dtype != dt || (dt == DT_F32 && o->tmpl && ins[p].tf32 != tf))
						continue;
					in = ins[p];
				} else {
					in.dtype = dt;
					in.m = dims[p / 16];
					in.n = dims[p / 4 % 4];
					in.k = dims[p % 4];
				}
				int nc = plan_candidates(&in, cfgs, ncfg, NULL, 0, 232448, cand);
				for (int i = 1; i < nc; i++) {
					const mm_config *g = &cand[i].cfg;
					if (g->tmpl == 2) {
						/* not shrunk: one cubin per (config, dtype), asked once */
						if (!wg || tf || (!ins && p > 0))
							continue;
						precompile_one(o, src3, hash3, g, cand[i].tr, cand[i].tc, dt, 0,
						               "sm_90a", cand[i].id, &total, &n);
						continue;
					}
					precompile_one(o, g->tmpl ? src2 : src, g->tmpl ? hash2 : hash, g,
					               cand[i].tr, cand[i].tc, dt, tf, o->compile_arch, cand[i].id,
					               &total, &n);
				}
			}
	}
	fprintf(stderr, "bench: %d cubin requests against cache %s, %d compiled now\n", total, o->cache, n);
	free(src);
	free(src2);
	free(src3);
	return n;
}
