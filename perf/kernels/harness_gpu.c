/* perf/kernels/harness_gpu.c — the GPU half of the harness library
 * (harness.h): device context, mma.cu modules, cuBLAS references,
 * fill/compare kernels, verdicts, rotating buffers, timing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cuda/cublas_mm.h"
#include "harness_gpu.h"
#include "core/util.h" /* stages/core: die, xmalloc, mono_s, cmp_double */

/* 0 when there is no usable GPU */
int gpu_open(gpu_t *g, const char *src, uint64_t srch, const char *cache)
{
	int count = 0;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1)
		return 0;
	memset(g, 0, sizeof *g);
	g->src = src;
	g->srch = srch;
	g->cache = cache;
	CUDA_OK(cudaSetDevice(0));
	CUDA_OK(cudaFree(0));
	struct cudaDeviceProp p;
	CUDA_OK(cudaGetDeviceProperties(&p, 0));
	if (p.major != 9)
		die("this harness compiles for sm_90; device is sm_%d%d (%s)", p.major, p.minor, p.name);
	g->sms = p.multiProcessorCount;
	g->l2 = (size_t)p.l2CacheSize;
	if ((long)p.sharedMemPerBlockOptin < SMEM_OPTIN)
		die("device opt-in shared memory %zu < %d", p.sharedMemPerBlockOptin, SMEM_OPTIN);
	printf("# device: %s, %d SMs, L2 %zu B, smem opt-in %zu B\n", p.name, g->sms, g->l2,
	       p.sharedMemPerBlockOptin);
	cudrv_open(&g->drv);
	BLAS_OK(cublasCreate(&g->blas));
	BLAS_OK(cublasSetStream(g->blas, 0));
	CUDA_OK(cudaEventCreate(&g->e0));
	CUDA_OK(cudaEventCreate(&g->e1));
	CUDA_OK(cudaMalloc((void **)&g->d_out, 5 * sizeof(double)));
	return 1;
}

void gpu_close(gpu_t *g)
{
	for (size_t i = 0; i < g->nmods; i++)
		if (g->mods[i].ok)
			DRV_OK(&g->drv, g->drv.unload(g->mods[i].mod));
	free(g->mods);
	CUDA_OK(cudaFree(g->d_out));
	CUDA_OK(cudaEventDestroy(g->e0));
	CUDA_OK(cudaEventDestroy(g->e1));
	BLAS_OK(cublasDestroy(g->blas));
}

/* The template's __device__ int NAME (its shared-memory formula, bytes)
 * must equal the host's value expect: dies naming both otherwise. */
void check_module_smem(gpu_t *g, CUmodule mod, const char *name, int expect)
{
	CUdeviceptr gp;
	size_t gs;
	int dev_smem = -1;
	DRV_OK(&g->drv, g->drv.getglobal(&gp, &gs, mod, name));
	if (gs != sizeof(int))
		die("%s: size %zu", name, gs);
	CUDA_OK(cudaMemcpy(&dev_smem, (const void *)(uintptr_t)gp, sizeof dev_smem, cudaMemcpyDeviceToHost));
	if (dev_smem != expect)
		die("shared-memory formula mismatch: host %d, module %d (%s)", expect, dev_smem, name);
}

void *mod_slot(void **arr, size_t *n, size_t *cap, size_t elem, const void *key, size_t ksize,
               int *fresh)
{
	char *a = *arr;
	for (size_t i = 0; i < *n; i++)
		if (memcmp(a + i * elem, key, ksize) == 0)
			return *fresh = 0, a + i * elem;
	xgrow(arr, cap, *n + 1, elem);
	a = (char *)*arr + (*n)++ * elem;
	memset(a, 0, elem);
	memcpy(a, key, ksize);
	*fresh = 1;
	return a;
}

int gpu_load(gpu_t *g, char *img, int compiled, double t0, CUmodule *mod)
{
	if (compiled) {
		g->t_compile += mono_s() - t0;
		g->n_compile++;
	}
	if (!img)
		return -1;
	DRV_OK(&g->drv, g->drv.load(mod, img));
	free(img);
	return 0;
}

/* loaded module for k (compiled if needed); NULL if it does not compile */
kmod *get_mod(gpu_t *g, const vkey *k)
{
	int fresh;
	kmod *m = mod_slot((void **)&g->mods, &g->nmods, &g->capmods, sizeof *m, k, sizeof *k, &fresh);
	if (!fresh)
		return m->ok ? m : NULL;
	size_t len;
	int compiled;
	double t0 = mono_s();
	char *img = get_cubin(g->src, g->srch, g->cache, k, &len, &compiled);
	if (gpu_load(g, img, compiled, t0, &m->mod) != 0)
		return NULL;
	DRV_OK(&g->drv, g->drv.getfn(&m->mma, m->mod, "mma_kernel"));
	DRV_OK(&g->drv, g->drv.getfn(&m->fill, m->mod, "fill_kernel"));
	DRV_OK(&g->drv, g->drv.getfn(&m->cmp, m->mod, "cmp_kernel"));
	if (k->splitk)
		DRV_OK(&g->drv, g->drv.getfn(&m->red, m->mod, "mma_splitk_reduce"));
	m->smem = (int)smem_bytes(&k->c, k->d);
	check_module_smem(g, m->mod, "mma_smem_bytes", m->smem);
	DRV_OK(&g->drv, g->drv.setattr(m->mma, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, m->smem));
	m->ok = 1;
	return m;
}

view_t make_view(int d, int M, int N, int K, int ta, int tb)
{
	view_t v = {d, M, N, K, ta, tb, ta ? 1 : K, ta ? M : 1, tb ? 1 : N, tb ? K : 1};
	return v;
}

/* torch.mm through cublas_mm (stages/gpu/cuda/cublas_mm.h); ref: fp32 output,
 * pedantic fp32 compute. */
cublasStatus_t blas_mm(gpu_t *g, const view_t *v, const void *A, const void *B, void *C, int ref)
{
	cudaDataType t = v->d == D_F16 ? CUDA_R_16F : v->d == D_BF16 ? CUDA_R_16BF : CUDA_R_32F;
	cudaDataType ct = ref ? CUDA_R_32F : t;
	cublasComputeType_t comp = ref ? CUBLAS_COMPUTE_32F_PEDANTIC
	                           : v->d == D_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
	return cublas_mm(g->blas, v->ta, v->tb, v->M, v->N, v->K, A, v->ta ? v->M : v->K, B,
	                 v->tb ? v->K : v->N, t, C, ct, comp);
}

void fill(gpu_t *g, int d, void *x, long long n, uint64_t seed)
{
	vkey u = util_key(d);
	kmod *m = get_mod(g, &u);
	if (!m)
		die("utility module for %s does not compile", DNAME[d]);
	unsigned long long s = seed;
	void *args[] = {&x, &n, &s};
	DRV_OK(&g->drv, g->drv.launch(m->fill, 1024, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	CUDA_OK(cudaGetLastError());
}

/* compare c (elem type of d) against float ref r; out: d2, r2, bad, maxd, maxr */
void compare(gpu_t *g, int d, const void *c, const float *r, long long n, double out[5])
{
	vkey u = util_key(d);
	kmod *m = get_mod(g, &u);
	if (!m)
		die("utility module for %s does not compile", DNAME[d]);
	CUDA_OK(cudaMemset(g->d_out, 0, 5 * sizeof(double)));
	void *args[] = {(void *)&c, (void *)&r, &n, &g->d_out};
	long long nb = (n + 255) / 256;
	DRV_OK(&g->drv, g->drv.launch(m->cmp, (unsigned)(nb < 1024 ? nb : 1024), 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	CUDA_OK(cudaMemcpy(out, g->d_out, 5 * sizeof(double), cudaMemcpyDeviceToHost));
}

/* tolerances: relative Frobenius error and max|c-r| / max|r| */
static const double TOL_FRO[ND] = {1e-5, 1e-3, 8e-3, 2e-3};
static const double TOL_MAX[ND] = {1e-5, 2e-3, 8e-3, 5e-3};

int verdict(int d, const double o[5], double *fro, double *mx)
{
	*fro = o[1] > 0 ? sqrt(o[0] / o[1]) : (o[0] > 0 ? INFINITY : 0.0);
	*mx = o[4] > 0 ? o[3] / o[4] : (o[3] > 0 ? INFINITY : 0.0);
	return o[2] == 0 && *fro <= TOL_FRO[d] && *mx <= TOL_MAX[d];
}

void bufs_alloc(gpu_t *g, bufs_t *b, const input_t *x, size_t wbytes, uint64_t seed)
{
	memset(b, 0, sizeof *b);
	b->v = make_view(x->d, x->m, x->n, x->k, x->ta, x->tb);
	size_t es = (size_t)d_es(x->d);
	size_t ab = es * (size_t)x->m * x->k, bb = es * (size_t)x->k * x->n;
	size_t want = 2 * g->l2 / (ab + bb) + 1;
	if (want > 32)
		want = 32;
	while (want > 1 && want * (ab + bb) > ((size_t)2 << 30))
		want--;
	b->R = (int)want;
	b->A = xmalloc(sizeof(void *) * want);
	b->B = xmalloc(sizeof(void *) * want);
	for (int i = 0; i < b->R; i++) {
		CUDA_OK(cudaMalloc(&b->A[i], ab));
		CUDA_OK(cudaMalloc(&b->B[i], bb));
		if (i == 0) {
			fill(g, x->d, b->A[0], (long long)x->m * x->k, seed);
			fill(g, x->d, b->B[0], (long long)x->k * x->n, seed + 1);
		} else {
			CUDA_OK(cudaMemcpy(b->A[i], b->A[0], ab, cudaMemcpyDeviceToDevice));
			CUDA_OK(cudaMemcpy(b->B[i], b->B[0], bb, cudaMemcpyDeviceToDevice));
		}
	}
	CUDA_OK(cudaMalloc(&b->C, es * (size_t)x->m * x->n));
	b->wbytes = wbytes;
	if (wbytes)
		CUDA_OK(cudaMalloc(&b->W, wbytes));
}

void bufs_free(bufs_t *b)
{
	for (int i = 0; i < b->R; i++) {
		CUDA_OK(cudaFree(b->A[i]));
		CUDA_OK(cudaFree(b->B[i]));
	}
	free(b->A);
	free(b->B);
	CUDA_OK(cudaFree(b->C));
	if (b->W)
		CUDA_OK(cudaFree(b->W));
}

/* Median time (ms) of one call of call(ctx) (0 = success): one warm-up
 * call, one timed call, then 5 repetitions (3 when a call exceeds 5 ms) of
 * nit calls (one repetition >= 0.25 ms, nit <= 100), CUDA events on the
 * default stream.  A candidate whose timed call exceeds 2x best is not
 * repeated (it cannot be the best): that time is returned.  INF_MS when a
 * call fails. */
double time_calls(gpu_t *g, int (*call)(void *), void *ctx, double best)
{
	if (call(ctx))
		return INF_MS;
	CUDA_OK(cudaDeviceSynchronize());
	CUDA_OK(cudaGetLastError());
	float el;
	CUDA_OK(cudaEventRecord(g->e0, 0));
	if (call(ctx))
		return INF_MS;
	CUDA_OK(cudaEventRecord(g->e1, 0));
	CUDA_OK(cudaEventSynchronize(g->e1));
	CUDA_OK(cudaEventElapsedTime(&el, g->e0, g->e1));
	double t1 = el;
	if (best < INF_MS && t1 > 2.0 * best)
		return t1;
	int nit = (int)ceil(0.25 / (t1 > 1e-4 ? t1 : 1e-4));
	if (nit > 100)
		nit = 100;
	if (nit < 1)
		nit = 1;
	int reps = t1 > 5.0 ? 3 : 5;
	double ts[5];
	for (int r = 0; r < reps; r++) {
		CUDA_OK(cudaEventRecord(g->e0, 0));
		for (int i = 0; i < nit; i++)
			if (call(ctx))
				return INF_MS;
		CUDA_OK(cudaEventRecord(g->e1, 0));
		CUDA_OK(cudaEventSynchronize(g->e1));
		CUDA_OK(cudaEventElapsedTime(&el, g->e0, g->e1));
		ts[r] = (double)el / nit;
	}
	CUDA_OK(cudaGetLastError());
	qsort(ts, (size_t)reps, sizeof ts[0], cmp_double);
	return ts[reps / 2];
}
