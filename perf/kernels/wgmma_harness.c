/* perf/kernels/wgmma_harness.c — host harness for the Hopper template
 * kernels/wgmma.cu (wgmma + TMA, warp-specialised): NVRTC precompile into
 * the cubin cache, correctness test against cuBLAS, benchmark against
 * cuBLAS.  Shares the harness library with perf/kernels/mma_harness.c
 * (harness.h: NVRTC cache, GPU context, cuBLAS reference, fill/compare
 * kernels of kernels/mma.cu's utility module, timing).
 *
 * Usage:
 *   wgmma_harness precompile [opts]  compile every cubin test and bench need
 *                                    (no GPU needed)
 *   wgmma_harness test [opts]        every config x {fp16, bf16} x 4
 *                                    transposes x edge shapes; exit 1 on a
 *                                    failure; "skip wgmma: no GPU" (exit 0)
 *                                    without a GPU
 *   wgmma_harness bench [opts]       8192^3 (bf16: 4 transposes, fp16: NN)
 *                                    and the LLM shapes of mma_harness:
 *                                    every config and cuBLAS, TFLOP/s
 * Options:
 *   --kernels DIR  folder with wgmma.cu, wgmma_configs.tsv and mma.cu
 *                  (utility kernels) (default kernels)
 *   --cache DIR    cubin cache (default build/mma-cache)
 *   --jobs N       precompile: parallel NVRTC processes (default 2)
 *   --quick        test: only the first 2 configurations
 * Units: times in ms (us in the LLM table), rates in TFLOP/s (2*m*n*k FLOP).
 * Errors: CUDA/driver/cuBLAS/NVRTC failures are fatal (exit 1), except an
 * NVRTC compile error or launch error of one candidate (a failed check in
 * test, "-" in bench).  A candidate is "unavailable" for an input whose
 * operands break TMA's rules (leading dimension in bytes not a multiple of
 * 16, base not 16-byte aligned): skipped and counted, never launched.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_gpu.h"
#include "core/opts.h" /* stages/core */
#include "core/util.h" /* stages/core: die, xmalloc, read_file, fnv1a64, mono_s, mkdir_p */
#include "gpu/cuda/wgmma_launch.h"

/* ---- wgmma.cu cubins ----------------------------------------------------- */

typedef struct {
	cfg_t c;
	int d; /* D_F16 or D_BF16 */
} wkey;

static void wkey_opts(const wkey *k, char opt[8][64], const char *ptrs[8], int *no)
{
	*no = cfg_opts(opt, ptrs, "sm_90a", &k->c, k->d);
}

/* kernels/wgmma.cu's WGMMA_SMEM_BYTES (bytes) */
static long wg_smem_bytes(const cfg_t *c)
{
	return (long)c->st * (c->bm + c->bn) * c->bk * 2 + 16L * c->st + 1024;
}

static void wg_id(char *buf, size_t n, const cfg_t *c)
{
	snprintf(buf, n, "type=nvrtc_wgmma_BLOCK-M=%d_BLOCK-K=%d_BLOCK-N=%d_numstages=%d_numwarps=%d",
	         c->bm, c->bk, c->bn, c->st, c->nw);
}

typedef struct {
	const char *src, *cache;
	uint64_t srch;
	const wkey *keys;
} wpre_ctx;

static char *wg_cubin(const char *src, uint64_t srch, const char *cache, const wkey *k, size_t *len,
                      int *compiled)
{
	char opt[8][64];
	const char *opts[8];
	int no;
	wkey_opts(k, opt, opts, &no);
	return nvrtc_cubin(src, srch, cache, "wgmma.cu", opts, no, len, compiled);
}

static int wpre_one(void *p, size_t i)
{
	wpre_ctx *c = p;
	size_t len;
	int compiled;
	char *img = wg_cubin(c->src, c->srch, c->cache, &c->keys[i], &len, &compiled);
	free(img);
	return img == NULL;
}

/* ---- the GPU side ---------------------------------------------------------- */

typedef tmap_encode_fn fn_tmap_t; /* stages/gpu/cuda/wgmma_launch.h */

typedef struct {
	wkey k;
	CUmodule mod;
	CUfunction fn[4]; /* index ta*2 + tb */
	int smem, ok;
} wmod;

typedef struct {
	gpu_t *g;
	fn_tmap_t encode;
	const char *src, *cache;
	uint64_t srch;
	wmod *mods;
	size_t nmods, capmods;
} wctx;

/* loaded module of k (compiled when missing from the cache); NULL when it
 * does not compile */
static wmod *wg_mod(wctx *w, const wkey *k)
{
	int fresh;
	wmod *m = mod_slot((void **)&w->mods, &w->nmods, &w->capmods, sizeof *m, k, sizeof *k, &fresh);
	if (!fresh)
		return m->ok ? m : NULL;
	size_t len;
	int compiled;
	double t0 = mono_s();
	char *img = wg_cubin(w->src, w->srch, w->cache, k, &len, &compiled);
	gpu_t *g = w->g;
	if (gpu_load(g, img, compiled, t0, &m->mod) != 0)
		return NULL;
	m->smem = (int)wg_smem_bytes(&k->c);
	check_module_smem(g, m->mod, "wgmma_smem_bytes", m->smem);
	for (int i = 0; i < 4; i++) {
		DRV_OK(&g->drv, g->drv.getfn(&m->fn[i], m->mod, wgmma_kernel_name(i >> 1, i & 1)));
		DRV_OK(&g->drv, g->drv.setattr(m->fn[i], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, m->smem));
	}
	m->ok = 1;
	return m;
}

/* 1 when TMA can describe the operands of v at A and B: the leading
 * dimension of each stored operand in bytes (K*2 for row-major A (ta 0) and
 * B^T (tb 1), M*2 for A^T, N*2 for B) a multiple of 16, bases 16-byte aligned */
static int wg_available(const view_t *v, const void *A, const void *B)
{
	long long lda = v->ta ? v->M : v->K, ldb = v->tb ? v->K : v->N;
	return (lda * 2) % 16 == 0 && (ldb * 2) % 16 == 0 && (uintptr_t)A % 16 == 0 &&
	       (uintptr_t)B % 16 == 0;
}

/* both tensor maps of the launch contract (stages/gpu/cuda/wgmma_launch.c) */
static CUresult wg_maps(const wctx *w, const cfg_t *c, const view_t *v, const void *A, const void *B,
                        CUtensorMap *tA, CUtensorMap *tB)
{
	return wgmma_tensor_maps(w->encode, v->d == D_BF16, v->ta, v->tb, v->M, v->N, v->K, A, B,
	                         c->bm, c->bn, c->bk, tA, tB);
}

static CUresult wg_launch(const wctx *w, const wmod *m, const view_t *v, const CUtensorMap *tA,
                          const CUtensorMap *tB, void *C)
{
	int M = v->M, N = v->N, K = v->K;
	void *args[] = {(void *)tA, (void *)tB, &C, &M, &N, &K};
	long long tiles = (long long)((M + m->k.c.bm - 1) / m->k.c.bm) * ((N + m->k.c.bn - 1) / m->k.c.bn);
	return w->g->drv.launch(m->fn[v->ta * 2 + v->tb], (unsigned)tiles, 1, 1, (unsigned)(m->k.c.nw * 32), 1, 1,
	                    (unsigned)m->smem, NULL, args, NULL);
}

/* ---- test ------------------------------------------------------------------- */

/* edge shapes before rounding: dimensions that are a leading dimension for
 * the transpose under test are rounded up to a multiple of 8 (TMA), the
 * others stay odd where they are odd */
static const shape3 WG_SHAPES[] = {
	{1, 1, 1},       {8, 8, 8},        {15, 17, 1},      {16, 16, 16},    {17, 15, 127},
	{127, 129, 17},  {129, 127, 129},  {1, 129, 255},    {129, 1, 33},    {128, 256, 64},
	{200, 136, 264}, {65, 72, 1031},   {257, 520, 1000}, {1000, 1096, 2056},
	{8200, 264, 520}, {136, 8200, 1032}, {520, 392, 8200},
};
#define N_WG_SHAPES ((int)(sizeof WG_SHAPES / sizeof WG_SHAPES[0]))

static int round8(int x) { return (x + 7) / 8 * 8; }

static int wg_test(wctx *w, const cfg_row *rows, int nrows, int quick)
{
	gpu_t *g = w->g;
	int checks = 0, fails = 0, unavail = 0;
	double t0 = mono_s(), maxfro[ND] = {0}, maxmx[ND] = {0};
	const int ds[2] = {D_F16, D_BF16};
	for (int di = 0; di < 2; di++) {
		int d = ds[di];
		for (int si = 0; si < N_WG_SHAPES; si++) {
			for (int tr = 0; tr < 4; tr++) {
				int ta = tr >> 1, tb = tr & 1;
				int M = WG_SHAPES[si].m, N = WG_SHAPES[si].n, K = WG_SHAPES[si].k;
				if (ta)
					M = round8(M);
				else
					K = round8(K);
				if (tb)
					K = round8(K);
				else
					N = round8(N);
				void *A, *B, *C;
				float *R;
				CUDA_OK(cudaMalloc(&A, 2 * (size_t)M * K));
				CUDA_OK(cudaMalloc(&B, 2 * (size_t)K * N));
				CUDA_OK(cudaMalloc(&C, 2 * (size_t)M * N));
				CUDA_OK(cudaMalloc((void **)&R, 4 * (size_t)M * N));
				uint64_t sd = 1000 + 17 * (uint64_t)si + 3 * (uint64_t)d + 101 * (uint64_t)tr;
				fill(g, d, A, (long long)M * K, sd);
				fill(g, d, B, (long long)K * N, sd + 5000);
				view_t v = make_view(d, M, N, K, ta, tb);
				BLAS_OK(blas_mm(g, &v, A, B, R, 1));
				CUDA_OK(cudaDeviceSynchronize());
				if (!wg_available(&v, A, B))
					die("test shape m=%d n=%d k=%d ta=%d tb=%d not TMA-describable", M, N, K, ta, tb);
				for (int i = 0; i < nrows && (!quick || i < 2); i++) {
					wkey k = {rows[i].c, d};
					char id[160];
					wg_id(id, sizeof id, &k.c);
					checks++;
					wmod *m = wg_mod(w, &k);
					if (!m) {
						fails++;
						printf("FAIL %s %s: does not compile\n", DNAME[d], id);
						continue;
					}
					CUtensorMap tA, tB;
					CUresult r = wg_maps(w, &k.c, &v, A, B, &tA, &tB);
					if (r != CUDA_SUCCESS) {
						unavail++;
						printf("unavailable %s %s ta=%d tb=%d m=%d n=%d k=%d: tensor map: %s\n",
						       DNAME[d], id, ta, tb, M, N, K, cudrv_err(&g->drv, r));
						continue;
					}
					CUDA_OK(cudaMemset(C, 0xFF, 2 * (size_t)M * N)); /* NaN poison */
					r = wg_launch(w, m, &v, &tA, &tB, C);
					if (r != CUDA_SUCCESS) {
						fails++;
						printf("FAIL %s %s ta=%d tb=%d m=%d n=%d k=%d: launch: %s\n", DNAME[d], id,
						       ta, tb, M, N, K, cudrv_err(&g->drv, r));
						continue;
					}
					CUDA_OK(cudaGetLastError());
					CUDA_OK(cudaDeviceSynchronize());
					double o[5], fro, mx;
					compare(g, d, C, R, (long long)M * N, o);
					int ok = verdict(d, o, &fro, &mx);
					if (ok) {
						maxfro[d] = fro > maxfro[d] ? fro : maxfro[d];
						maxmx[d] = mx > maxmx[d] ? mx : maxmx[d];
					} else if (++fails <= 80) {
						printf("FAIL %s %s ta=%d tb=%d m=%d n=%d k=%d: rel_fro %.3g rel_max %.3g "
						       "non-finite %.0f\n", DNAME[d], id, ta, tb, M, N, K, fro, mx, o[2]);
					}
					fflush(stdout);
				}
				CUDA_OK(cudaFree(A));
				CUDA_OK(cudaFree(B));
				CUDA_OK(cudaFree(C));
				CUDA_OK(cudaFree(R));
			}
		}
	}
	/* an input TMA cannot describe is refused by the host, never launched */
	view_t bad = make_view(D_BF16, 16, 16, 7, 0, 0);
	int refused = !wg_available(&bad, (void *)(uintptr_t)256, (void *)(uintptr_t)256);
	checks++;
	if (!refused) {
		fails++;
		printf("FAIL availability: k=7 row-major A accepted\n");
	}
	printf("wgmma test: %d checks, %d failures, %d unavailable, %.1f s (NVRTC compiles on the GPU "
	       "machine: %d, %.1f s); worst passing rel_fro / rel_max: fp16 %.2e / %.2e, bf16 %.2e / %.2e\n",
	       checks, fails, unavail, mono_s() - t0, g->n_compile, g->t_compile, maxfro[D_F16],
	       maxmx[D_F16], maxfro[D_BF16], maxmx[D_BF16]);
	return fails || unavail ? 1 : 0;
}

/* ---- bench ------------------------------------------------------------------ */

typedef struct {
	const wctx *w;
	const wmod *m;
	bufs_t *b;
	CUtensorMap *tA, *tB; /* one pair per rotation copy */
} wcall_ctx;

static int wg_call(void *p)
{
	wcall_ctx *c = p;
	int i = c->b->rot++ % c->b->R;
	CUresult r = wg_launch(c->w, c->m, &c->b->v, &c->tA[i], &c->tB[i], c->b->C);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "wgmma_harness: launch: %s\n", cudrv_err(&c->w->g->drv, r));
		return 1;
	}
	return 0;
}

typedef struct {
	gpu_t *g;
	bufs_t *b;
} bcall_ctx;

static int blas_call(void *p)
{
	bcall_ctx *c = p;
	int i = c->b->rot++ % c->b->R;
	return blas_mm(c->g, &c->b->v, c->b->A[i], c->b->B[i], c->b->C, 0) != CUBLAS_STATUS_SUCCESS;
}

/* times cuBLAS and every config on input x; t[0] cuBLAS, t[1+i] config i
 * (INF_MS: unavailable or failed); the fastest config is verified against
 * a pedantic fp32 cuBLAS result (*verified 1 ok, 0 wrong, -1 none ran) */
static void wg_bench_input(wctx *w, const input_t *x, const cfg_row *rows, int nrows, double *t,
                           int *verified, uint64_t seed)
{
	gpu_t *g = w->g;
	bufs_t b;
	bufs_alloc(g, &b, x, 0, seed);
	bcall_ctx bc = {g, &b};
	t[0] = time_calls(g, blas_call, &bc, INF_MS);
	CUtensorMap *tA = xmalloc(sizeof *tA * (size_t)b.R), *tB = xmalloc(sizeof *tB * (size_t)b.R);
	int best = -1;
	for (int i = 0; i < nrows; i++) {
		t[1 + i] = INF_MS;
		wkey k = {rows[i].c, x->d};
		wmod *m = wg_mod(w, &k);
		if (!m || !wg_available(&b.v, b.A[0], b.B[0]))
			continue;
		int okmaps = 1;
		for (int r = 0; r < b.R && okmaps; r++)
			okmaps = wg_maps(w, &k.c, &b.v, b.A[r], b.B[r], &tA[r], &tB[r]) == CUDA_SUCCESS;
		if (!okmaps)
			continue;
		wcall_ctx c = {w, m, &b, tA, tB};
		t[1 + i] = time_calls(g, wg_call, &c, INF_MS);
		if (t[1 + i] < INF_MS && (best < 0 || t[1 + i] < t[1 + best]))
			best = i;
	}
	*verified = -1;
	if (best >= 0) {
		float *R;
		CUDA_OK(cudaMalloc((void **)&R, 4 * (size_t)x->m * x->n));
		BLAS_OK(blas_mm(g, &b.v, b.A[0], b.B[0], R, 1));
		wkey k = {rows[best].c, x->d};
		wmod *m = wg_mod(w, &k);
		if (!m || wg_maps(w, &k.c, &b.v, b.A[0], b.B[0], &tA[0], &tB[0]) != CUDA_SUCCESS)
			die("verification: module or tensor map vanished");
		CUDA_OK(cudaMemset(b.C, 0xFF, 2 * (size_t)x->m * x->n));
		CUresult r = wg_launch(w, m, &b.v, &tA[0], &tB[0], b.C);
		if (r != CUDA_SUCCESS)
			die("verification launch failed: %s", cudrv_err(&g->drv, r));
		CUDA_OK(cudaDeviceSynchronize());
		double o[5], fro, mx;
		compare(g, x->d, b.C, R, (long long)x->m * x->n, o);
		*verified = verdict(x->d, o, &fro, &mx);
		CUDA_OK(cudaFree(R));
	}
	free(tA);
	free(tB);
	bufs_free(&b);
}

static int wg_bench(wctx *w, const cfg_row *rows, int nrows)
{
	double *t = xmalloc(sizeof *t * (size_t)(nrows + 1));
	int bad = 0;
	double t0 = mono_s();
	printf("\n## 8192^3: cuBLAS and every wgmma.cu config (TFLOP/s); best/cuBLAS\n");
	printf("%-5s %-5s %8s", "dtype", "ta,tb", "cublas");
	for (int i = 0; i < nrows; i++)
		printf(" %4dx%-3dx%d/%d/%d", rows[i].c.bm, rows[i].c.bn, rows[i].c.bk, rows[i].c.st, rows[i].c.nw);
	printf(" %7s\n", "ratio");
	const int sq[5][3] = {{D_BF16, 0, 0}, {D_F16, 0, 0}, {D_BF16, 0, 1}, {D_BF16, 1, 0}, {D_BF16, 1, 1}};
	for (int s = 0; s < 5; s++) {
		input_t x = {sq[s][0], 8192, 8192, 8192, sq[s][1], sq[s][2], "square"};
		int ver;
		wg_bench_input(w, &x, rows, nrows, t, &ver, 77 + (uint64_t)s);
		double best = INF_MS;
		printf("%-5s %d,%-3d %8.1f", DNAME[x.d], x.ta, x.tb, tflops(&x, t[0]));
		for (int i = 0; i < nrows; i++) {
			best = t[1 + i] < best ? t[1 + i] : best;
			if (t[1 + i] < INF_MS)
				printf(" %15.1f", tflops(&x, t[1 + i]));
			else
				printf(" %15s", "-");
		}
		printf(" %6.1f%%%s\n", best < INF_MS ? 100.0 * t[0] / best : 0.0,
		       ver == 0 ? " WRONG RESULT" : ver == 1 ? " (best verified)" : "");
		bad += ver == 0;
		fflush(stdout);
	}
	printf("\n## LLM shapes, bf16, x[m,k] @ W[n,k].t() (ta=0, tb=1): time in us\n");
	printf("%6s %6s %6s %10s %10s %8s  %s\n", "m", "k", "n", "cublas", "best", "speedup", "best config");
	const int ms[4] = {1, 16, 128, 2048}, kn[2] = {4096, 14336};
	for (int a = 0; a < 4; a++)
		for (int bb = 0; bb < 2; bb++)
			for (int c = 0; c < 2; c++) {
				input_t x = {D_BF16, ms[a], kn[c], kn[bb], 0, 1, "llm"};
				int ver;
				wg_bench_input(w, &x, rows, nrows, t, &ver, 177 + (uint64_t)(a * 4 + bb * 2 + c));
				int bi = -1;
				for (int i = 0; i < nrows; i++)
					if (t[1 + i] < INF_MS && (bi < 0 || t[1 + i] < t[1 + bi]))
						bi = i;
				char id[160] = "-";
				if (bi >= 0)
					wg_id(id, sizeof id, &rows[bi].c);
				printf("%6d %6d %6d %10.1f %10.1f %7.3fx  %s%s\n", x.m, x.k, x.n, 1e3 * t[0],
				       bi >= 0 ? 1e3 * t[1 + bi] : 0.0, bi >= 0 ? t[0] / t[1 + bi] : 0.0, id,
				       ver == 0 ? " WRONG RESULT" : "");
				bad += ver == 0;
				fflush(stdout);
			}
	printf("# winners failing verification: %d; bench time %.1f s; NVRTC compiles here: %d (%.1f s)\n",
	       bad, mono_s() - t0, w->g->n_compile, w->g->t_compile);
	free(t);
	return bad ? 1 : 0;
}

/* ---- main ------------------------------------------------------------------- */

static const char wg_synopsis[] =
	"wgmma_harness precompile|test|bench [--kernels DIR] [--cache DIR] [--jobs N] [--quick]";

int main(int argc, char **argv)
{
	const char *mode = NULL, *kdir = "kernels", *cache = "build/mma-cache";
	int jobs = 2, quick = 0;
	const opt table[] = {
		OPT_POS("MODE", &mode, OPT_REQUIRED,
		        "precompile: every cubin test and bench need (no GPU needed); "
		        "test: every config x {fp16, bf16} x 4 transposes x edge shapes "
		        "(exit 1 on a failure); bench: 8192^3 and the LLM shapes of "
		        "mma_harness, every config and cuBLAS, TFLOP/s"),
		OPT_STRING("--kernels", "DIR", &kdir, 0,
		           "folder with wgmma.cu, wgmma_configs.tsv and mma.cu (utility "
		           "kernels) (default kernels)"),
		OPT_STRING("--cache", "DIR", &cache, 0, "cubin cache (default build/mma-cache)"),
		OPT_INT("--jobs", "N", &jobs, 1, 256, 0,
		        "precompile: parallel NVRTC processes (default 2)"),
		OPT_FLAG("--quick", &quick, "test: only the first 2 configurations"),
		OPT_END()
	};
	opts_parse(&(opt_prog){wg_synopsis, NULL, table,
	                       "Units: times in ms, rates in TFLOP/s.  Exit status: 0; 1 on a\n"
	                       "CUDA/driver/cuBLAS/NVRTC failure or a failed check (test).\n", 0, NULL},
	           argc, argv);
	char path[4096];
	size_t len;
	snprintf(path, sizeof path, "%s/wgmma_configs.tsv", kdir);
	int nrows;
	cfg_row *rows = read_configs_file(path, &nrows);
	for (int i = 0; i < nrows; i++)
		if (wg_smem_bytes(&rows[i].c) > SMEM_OPTIN)
			die("%s: config %d needs %ld B of shared memory (> %d)", path, i + 1,
			    wg_smem_bytes(&rows[i].c), SMEM_OPTIN);
	snprintf(path, sizeof path, "%s/wgmma.cu", kdir);
	char *wsrc = read_file(path, &len);
	uint64_t wsrch = fnv1a64(FNV1A64_INIT, wsrc, len);
	snprintf(path, sizeof path, "%s/mma.cu", kdir);
	char *msrc = read_file(path, &len);
	uint64_t msrch = fnv1a64(FNV1A64_INIT, msrc, len);
	int rc = 0;
	if (strcmp(mode, "precompile") == 0) {
		keyset ks = {NULL, 0, 0};
		vkey u1 = util_key(D_F16), u2 = util_key(D_BF16);
		keyset_add(&ks, &u1);
		keyset_add(&ks, &u2);
		rc = precompile(msrc, msrch, cache, &ks, jobs);
		free(ks.v);
		wkey *keys = xmalloc(sizeof *keys * (size_t)(2 * nrows));
		for (int i = 0; i < nrows; i++) {
			keys[2 * i].c = keys[2 * i + 1].c = rows[i].c;
			keys[2 * i].d = D_F16;
			keys[2 * i + 1].d = D_BF16;
		}
		printf("precompile: %d wgmma.cu cubins (sm_90a), %d jobs\n", 2 * nrows, jobs);
		fflush(stdout);
		mkdir_p(cache);
		wpre_ctx c = {wsrc, cache, wsrch, keys};
		int r2 = run_jobs((size_t)(2 * nrows), jobs, wpre_one, &c);
		printf("precompile wgmma: %s\n", r2 ? "some kernels failed to compile" : "ok");
		rc |= r2;
		free(keys);
	} else if (strcmp(mode, "test") == 0 || strcmp(mode, "bench") == 0) {
		gpu_t g;
		if (!gpu_open(&g, msrc, msrch, cache)) {
			printf("skip wgmma: no GPU\n");
		} else {
			wctx w;
			memset(&w, 0, sizeof w);
			w.g = &g;
			w.src = wsrc;
			w.srch = wsrch;
			w.cache = cache;
			cudrv_entry("cuTensorMapEncodeTiled", (void **)&w.encode);
			rc = mode[0] == 't' ? wg_test(&w, rows, nrows, quick) : wg_bench(&w, rows, nrows);
			for (size_t i = 0; i < w.nmods; i++)
				if (w.mods[i].ok)
					DRV_OK(&g.drv, g.drv.unload(w.mods[i].mod));
			free(w.mods);
			gpu_close(&g);
		}
	} else {
		die("unknown mode '%s'", mode);
	}
	free(wsrc);
	free(msrc);
	free(rows);
	return rc;
}
