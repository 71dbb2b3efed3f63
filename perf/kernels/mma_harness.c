/* perf/kernels/mma_harness.c — standalone host harness for kernels/mma.cu:
 * NVRTC compile (with an on-disk cubin cache), correctness test against
 * cuBLAS, and benchmark against cuBLAS.
 *
 * Usage:
 *   mma_harness precompile [opts]   compile every cubin that `test` and
 *                                   `bench` (same opts) need; no GPU needed
 *   mma_harness test [opts]         correctness: every config x dtype x
 *                                   transpose x edge shape (exit 1 on any
 *                                   failure; "skip mma: no GPU", exit 0,
 *                                   without a GPU)
 *   mma_harness bench [opts]        benchmark (tables on stdout)
 * Options:
 *   --kernels DIR   folder with mma.cu and mma_configs.tsv (default kernels)
 *   --cache DIR     cubin cache (default build/mma-cache); a missing cubin
 *                   is compiled by NVRTC and stored there
 *   --jobs N        precompile: parallel NVRTC processes (default 2)
 *   --samples N     bench: sampled inputs (default 200)
 *   --seed S        bench: sampler seed (default 1)
 *   --cap-ms X      bench: sampled shapes whose estimated cuBLAS time
 *                   (2mnk FLOP / nominal rate) exceeds X ms are redrawn
 *                   (default 2)
 *   --budget-s X    bench: stop sampling after X s of benchmarking (default 150)
 *   --tsv FILE      bench: per-input results (one row per sampled input)
 *   --quick         test: only the first 3 configs (smoke)
 *   --only A|B|..   bench/precompile: only NVRTC choices whose id contains
 *                   one of these substrings (extern_mm always)
 * Units: times in ms, rates in TFLOP/s (2*m*n*k FLOP), sizes in bytes.
 * Errors: CUDA/driver/cuBLAS/NVRTC failures are fatal (message, exit 1),
 * except an NVRTC compile error or a launch error of one candidate, which
 * makes that candidate fail (test) or inf (bench).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_gpu.h"
#include "core/opts.h" /* stages/core */
#include "core/util.h" /* stages/core: die, xmalloc, read_file, fnv1a64, mono_s */

#define H200_MEM_BYTES (143771.0 * 1048576.0)

/* ---- small utilities ----------------------------------------------------- */

/* splitmix64: seeded, reproducible */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* uniform integer in [a, b] inclusive */
static long long rng_int(uint64_t *s, long long a, long long b)
{
	return a + (long long)(rng_next(s) % (uint64_t)(b - a + 1));
}

static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* kernels/mma.cu's configurations: DIR/mma_configs.tsv (see read_configs_file) */
static cfg_row *read_configs(const char *dir, int *n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/mma_configs.tsv", dir);
	return read_configs_file(path, n);
}

static long long next_pow2(long long x)
{
	long long p = 1;
	while (p < x)
		p *= 2;
	return p;
}

/* spec §3.5 shrink of a config to problem (m, n, k) */
static cfg_t shrink(cfg_t c, long long m, long long n, long long k)
{
	long long mp = next_pow2(m), np = next_pow2(n), kp = next_pow2(k);
	if (mp < 16) mp = 16;
	if (np < 16) np = 16;
	if (kp < 16) kp = 16;
	cfg_t r = c;
	r.bm = (int)(c.bm < mp ? c.bm : mp);
	r.bn = (int)(c.bn < np ? c.bn : np);
	r.bk = (int)(c.bk < kp ? c.bk : kp);
	if (r.bm < 16) r.bm = 16;
	if (r.bn < 16) r.bn = 16;
	if (r.bk < 16) r.bk = 16;
	int mw = r.bm * r.bn / 256;
	if (r.nw > mw)
		r.nw = mw < 1 ? 1 : mw;
	return r;
}

static void choice_id(char *buf, size_t n, const cfg_t *c, int S)
{
	int w = snprintf(buf, n, "type=nvrtc_mma_BLOCK-M=%d_BLOCK-K=%d_BLOCK-N=%d_numstages=%d_numwarps=%d",
	                 c->bm, c->bk, c->bn, c->st, c->nw);
	if (S > 0 && w > 0 && (size_t)w < n)
		snprintf(buf + w, n - (size_t)w, "_splitk=%d", S);
}


/* ---- test and bench plans (shared by precompile) -------------------------- */

/* edge shapes: m, n, k in {1, 15, 17, 127, 129, odd}, k = 1, plus aligned
 * shapes (16-byte cp.async path) and long k (pipeline wrap-around) */
static const shape3 TEST_SHAPES[] = {
	{1, 1, 1}, {15, 17, 1}, {17, 15, 127}, {127, 129, 17}, {129, 127, 129},
	{1, 129, 255}, {129, 1, 33}, {128, 136, 264}, {64, 68, 132}, {65, 72, 1031},
	{192, 160, 1024},
};
#define N_TEST_SHAPES ((int)(sizeof TEST_SHAPES / sizeof TEST_SHAPES[0]))
/* split-K checks: (m, n, k, S) */
static const int TEST_SPLIT[][4] = {
	{17, 129, 1000, 3}, {128, 136, 1031, 4}, {15, 17, 127, 4}, {64, 64, 4096, 8},
};
#define N_TEST_SPLIT ((int)(sizeof TEST_SPLIT / sizeof TEST_SPLIT[0]))

/* spec §3.3 get_random_dim */
static long long random_dim(uint64_t *s)
{
	double u = rng_unit(s);
	if (u < 0.85) {
		long long p = rng_int(s, 10, 16);
		long long start = (1LL << p) / 128, end = (1LL << (p + 1)) / 128;
		return 128 * rng_int(s, start, end);
	}
	if (u < 0.95)
		return 1LL << rng_int(s, 0, 17);
	if (u < 0.99)
		return rng_int(s, 1, 131072);
	long long i = rng_int(s, 1, 16);
	return rng_int(s, (1LL << i) + 1, (1LL << (i + 1)) - 1);
}

/* nominal rates (TFLOP/s) for the cap only */
static double nominal_tflops(int d)
{
	return d == D_F32 ? 50.0 : d == D_TF32 ? 300.0 : 650.0;
}

/* the fixed shapes (8192^3 per dtype, LLM shapes in bf16) then the sampled
 * ones (spec §3.2/§3.3: dtype uniform in {fp32, fp16, bf16}, fp32 -> tf32
 * with probability 0.2; m, k, n by get_random_dim; rejected when a pairwise
 * product >= 2^31, when 2^(es)*(mk+kn+mn) >= H200 memory / 4, when the
 * operands exceed 1.5 GB, or when the estimated time exceeds cap_ms);
 * transposes uniform. */
static input_t *make_inputs(int samples, uint64_t seed, double cap_ms, int *n_fixed, int *n)
{
	int cap = 64 + samples, cnt = 0;
	input_t *in = xmalloc(sizeof *in * (size_t)cap);
	const int dord[ND] = {D_BF16, D_F16, D_TF32, D_F32};
	for (int i = 0; i < ND; i++) {
		input_t x = {dord[i], 8192, 8192, 8192, 0, 0, "square"};
		in[cnt++] = x;
	}
	const int ms[4] = {1, 16, 128, 2048}, kn[2] = {4096, 14336};
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 2; b++)
			for (int c = 0; c < 2; c++) {
				input_t x = {D_BF16, ms[a], kn[c], kn[b], 0, 1, "llm"};
				in[cnt++] = x;
			}
	*n_fixed = cnt;
	uint64_t s = seed;
	while (cnt < *n_fixed + samples) {
		input_t x;
		memset(&x, 0, sizeof x);
		int dd = (int)rng_int(&s, 0, 2);
		x.d = dd == 0 ? D_F32 : dd == 1 ? D_F16 : D_BF16;
		if (x.d == D_F32 && rng_unit(&s) < 0.2)
			x.d = D_TF32;
		long long m, k, nn;
		for (;;) {
			m = random_dim(&s);
			k = random_dim(&s);
			nn = random_dim(&s);
			if (m * k >= (1LL << 31) || m * nn >= (1LL << 31) || k * nn >= (1LL << 31))
				continue;
			double bytes = (double)d_es(x.d) * (double)(m * k + k * nn + m * nn);
			if (bytes >= H200_MEM_BYTES / 4 || bytes > 1.5e9)
				continue;
			double ms_est = 2.0 * (double)m * (double)nn * (double)k / (nominal_tflops(x.d) * 1e9);
			if (ms_est > cap_ms)
				continue;
			break;
		}
		x.m = (int)m;
		x.n = (int)nn;
		x.k = (int)k;
		x.ta = (int)rng_int(&s, 0, 1);
		x.tb = (int)rng_int(&s, 0, 1);
		snprintf(x.group, sizeof x.group, "sampled");
		in[cnt++] = x;
	}
	*n = cnt;
	return in;
}

typedef struct {
	vkey k;
	int S;          /* split count (0: no split); -1: cuBLAS */
	char id[160];
} choice_t;

#define MAX_CHOICES 160

/* 1 if id contains one of the '|'-separated substrings of only (NULL: all) */
static int id_selected(const char *id, const char *only)
{
	if (!only)
		return 1;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", only);
	char *save = NULL;
	for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
		if (*t && strstr(id, t))
			return 1;
	return 0;
}

/* all candidates for one input (only: id filter, NULL = all); returns the
 * count (choice 0 = extern_mm) */
static int choices_for(const input_t *x, const cfg_row *rows, int nrows, int sms, const char *only,
                       choice_t *out)
{
	int n = 0;
	memset(&out[0], 0, sizeof out[0]);
	out[0].S = -1;
	snprintf(out[0].id, sizeof out[0].id, "extern_mm");
	n = 1;
	for (int i = 0; i < nrows; i++) {
		int split = strcmp(rows[i].list, "splitk") == 0;
		cfg_t c = shrink(rows[i].c, x->m, x->n, x->k);
		if (smem_bytes(&c, x->d) > SMEM_OPTIN)
			continue;
		int Ss[2] = {0, 0}, nS = 1;
		if (split) {
			long long tiles = (long long)((x->m + c.bm - 1) / c.bm) * ((x->n + c.bn - 1) / c.bn);
			int nkt = (x->k + c.bk - 1) / c.bk;
			if (tiles >= sms)
				continue;
			int s1 = 2;
			while (s1 * 2 * tiles <= sms && s1 < 16)
				s1 *= 2;
			nS = 0;
			for (int s = s1; s <= 2 * s1; s *= 2)
				if (nkt >= 2 * s)
					Ss[nS++] = s;
			if (nS == 0)
				continue;
		}
		for (int j = 0; j < nS; j++) {
			choice_t ch;
			memset(&ch, 0, sizeof ch);
			ch.k.c = c;
			ch.k.d = x->d;
			ch.k.splitk = split;
			ch.S = Ss[j];
			choice_id(ch.id, sizeof ch.id, &c, ch.S);
			int dup = 0;
			for (int q = 1; q < n; q++)
				if (strcmp(out[q].id, ch.id) == 0)
					dup = 1;
			if (!id_selected(ch.id, only))
				dup = 1;
			if (!dup && n < MAX_CHOICES)
				out[n++] = ch;
		}
	}
	return n;
}

static void plan_test(keyset *ks, const cfg_row *rows, int nrows, int quick)
{
	for (int d = 0; d < ND; d++) {
		vkey u = util_key(d);
		keyset_add(ks, &u);
		int used = 0;
		for (int i = 0; i < nrows; i++) {
			int split = strcmp(rows[i].list, "splitk") == 0;
			if (quick && used >= 3 && !split)
				continue;
			used += !split;
			if (smem_bytes(&rows[i].c, d) > SMEM_OPTIN)
				continue;
			vkey k = {rows[i].c, d, split};
			keyset_add(ks, &k);
			/* the shrunk variant for 1x1x1-sized problems */
			if (!split) {
				vkey k2 = {shrink(rows[i].c, 1, 1, 1), d, 0};
				keyset_add(ks, &k2);
			}
		}
	}
}

static void plan_bench(keyset *ks, const cfg_row *rows, int nrows, const input_t *in, int nin, int sms,
                       const char *only)
{
	choice_t *ch = xmalloc(sizeof *ch * MAX_CHOICES);
	for (int d = 0; d < ND; d++) {
		vkey u = util_key(d);
		keyset_add(ks, &u);
	}
	for (int i = 0; i < nin; i++) {
		int n = choices_for(&in[i], rows, nrows, sms, only, ch);
		for (int j = 1; j < n; j++)
			keyset_add(ks, &ch[j].k);
	}
	free(ch);
}

/* launch mma_kernel (+ reduce when S > 0); returns the driver result */
static CUresult launch_mma(gpu_t *g, const kmod *m, const view_t *v, const void *A, const void *B,
                           void *C, void *W, int S)
{
	void *out = S > 0 ? W : C;
	int M = v->M, N = v->N, K = v->K;
	long long sam = v->sam, sak = v->sak, sbk = v->sbk, sbn = v->sbn;
	void *args[] = {(void *)&A, (void *)&B, &out, &M, &N, &K, &sam, &sak, &sbk, &sbn};
	unsigned gx = (unsigned)((N + m->k.c.bn - 1) / m->k.c.bn);
	unsigned gy = (unsigned)((M + m->k.c.bm - 1) / m->k.c.bm);
	CUresult r = g->drv.launch(m->mma, gx, gy, S > 0 ? (unsigned)S : 1u, (unsigned)(m->k.c.nw * 32), 1, 1,
	                       (unsigned)m->smem, NULL, args, NULL);
	if (r != CUDA_SUCCESS || S <= 0)
		return r;
	long long MN = (long long)M * N;
	void *rargs[] = {&out, &C, &MN, &S};
	long long nb = (MN + 255) / 256;
	return g->drv.launch(m->red, (unsigned)(nb < 4096 ? nb : 4096), 1, 1, 256, 1, 1, 0, NULL, rargs, NULL);
}

/* ---- test ------------------------------------------------------------------- */

static int run_test(gpu_t *g, const cfg_row *rows, int nrows, int quick)
{
	int checks = 0, fails = 0, skipped = 0;
	double t0 = mono_s();
	for (int d = 0; d < ND; d++) {
		int nsh = N_TEST_SHAPES + N_TEST_SPLIT;
		for (int si = 0; si < nsh; si++) {
			int split = si >= N_TEST_SHAPES;
			int M, N, K, S = 0;
			if (!split) {
				M = TEST_SHAPES[si].m;
				N = TEST_SHAPES[si].n;
				K = TEST_SHAPES[si].k;
			} else {
				M = TEST_SPLIT[si - N_TEST_SHAPES][0];
				N = TEST_SPLIT[si - N_TEST_SHAPES][1];
				K = TEST_SPLIT[si - N_TEST_SHAPES][2];
				S = TEST_SPLIT[si - N_TEST_SHAPES][3];
			}
			size_t es = (size_t)d_es(d);
			void *A, *B, *C, *W = NULL;
			float *R;
			CUDA_OK(cudaMalloc(&A, es * (size_t)M * K));
			CUDA_OK(cudaMalloc(&B, es * (size_t)K * N));
			CUDA_OK(cudaMalloc(&C, es * (size_t)M * N));
			CUDA_OK(cudaMalloc((void **)&R, 4 * (size_t)M * N));
			if (split)
				CUDA_OK(cudaMalloc(&W, 4 * (size_t)S * M * N));
			fill(g, d, A, (long long)M * K, 1000 + 17 * (uint64_t)si + 3 * (uint64_t)d);
			fill(g, d, B, (long long)K * N, 5000 + 17 * (uint64_t)si + 3 * (uint64_t)d);
			for (int tr = 0; tr < 4; tr++) {
				view_t v = make_view(d, M, N, K, tr >> 1, tr & 1);
				BLAS_OK(blas_mm(g, &v, A, B, R, 1));
				CUDA_OK(cudaDeviceSynchronize());
				int used = 0;
				for (int i = 0; i < nrows; i++) {
					int rs = strcmp(rows[i].list, "splitk") == 0;
					if (rs != split)
						continue;
					if (quick && !rs && used >= 3)
						continue;
					used++;
					for (int variant = 0; variant < (split ? 1 : 2); variant++) {
						cfg_t c = variant ? shrink(rows[i].c, 1, 1, 1) : rows[i].c;
						if (smem_bytes(&c, d) > SMEM_OPTIN) {
							skipped++;
							continue;
						}
						vkey k = {c, d, split};
						char id[160];
						choice_id(id, sizeof id, &c, S);
						checks++;
						kmod *m = get_mod(g, &k);
						if (!m) {
							fails++;
							printf("FAIL %s %s ta=%d tb=%d m=%d n=%d k=%d: does not compile\n",
							       DNAME[d], id, v.ta, v.tb, M, N, K);
							continue;
						}
						CUDA_OK(cudaMemset(C, 0xFF, es * (size_t)M * N)); /* NaN poison */
						if (W)
							CUDA_OK(cudaMemset(W, 0xFF, 4 * (size_t)S * M * N));
						CUresult r = launch_mma(g, m, &v, A, B, C, W, S);
						if (r != CUDA_SUCCESS) {
							fails++;
							printf("FAIL %s %s ta=%d tb=%d m=%d n=%d k=%d: launch: %s\n",
							       DNAME[d], id, v.ta, v.tb, M, N, K, cudrv_err(&g->drv, r));
							continue;
						}
						CUDA_OK(cudaGetLastError());
						CUDA_OK(cudaDeviceSynchronize());
						double o[5], fro, mx;
						compare(g, d, C, R, (long long)M * N, o);
						if (!verdict(d, o, &fro, &mx)) {
							fails++;
							if (fails <= 60)
								printf("FAIL %s %s ta=%d tb=%d m=%d n=%d k=%d: rel_fro %.3g "
								       "rel_max %.3g non-finite %.0f\n", DNAME[d], id, v.ta,
								       v.tb, M, N, K, fro, mx, o[2]);
						}
					}
				}
			}
			CUDA_OK(cudaFree(A));
			CUDA_OK(cudaFree(B));
			CUDA_OK(cudaFree(C));
			CUDA_OK(cudaFree(R));
			if (W)
				CUDA_OK(cudaFree(W));
		}
	}
	printf("mma test: %d checks, %d failures, %d skipped (over shared memory), %.1f s "
	       "(NVRTC compiles on the GPU machine: %d, %.1f s)\n",
	       checks, fails, skipped, mono_s() - t0, g->n_compile, g->t_compile);
	return fails ? 1 : 0;
}

/* ---- bench ------------------------------------------------------------------- */

/* one call of choice ch on rotation copy b->rot++; 0 on success */
static int do_call(gpu_t *g, const choice_t *ch, kmod *m, bufs_t *b)
{
	int i = b->rot++ % b->R;
	if (ch->S < 0)
		return blas_mm(g, &b->v, b->A[i], b->B[i], b->C, 0) != CUBLAS_STATUS_SUCCESS;
	CUresult r = launch_mma(g, m, &b->v, b->A[i], b->B[i], b->C, b->W, ch->S);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "mma_harness: launch %s: %s\n", ch->id, cudrv_err(&g->drv, r));
		return 1;
	}
	return 0;
}

typedef struct {
	gpu_t *g;
	const choice_t *ch;
	kmod *m;
	bufs_t *b;
} mma_call_ctx;

static int mma_call(void *p)
{
	mma_call_ctx *c = p;
	return do_call(c->g, c->ch, c->m, c->b);
}

/* median time (ms) of one call of choice ch (see time_calls) */
static double time_choice(gpu_t *g, const choice_t *ch, bufs_t *b, double best)
{
	kmod *m = NULL;
	if (ch->S >= 0 && !(m = get_mod(g, &ch->k)))
		return INF_MS;
	mma_call_ctx c = {g, ch, m, b};
	return time_calls(g, mma_call, &c, best);
}

typedef struct {
	double t_blas, t_best_nv;
	int best_nv;            /* index of the best NVRTC choice, -1 none */
	int verified;           /* 1 ok, 0 failed, -1 not run */
	double fro, mx;
} result_t;

static void bench_input(gpu_t *g, const input_t *x, const cfg_row *rows, int nrows, const char *only,
                        choice_t *ch, int *nch, double *times, result_t *res, uint64_t seed)
{
	*nch = choices_for(x, rows, nrows, g->sms, only, ch);
	size_t wbytes = 0;
	for (int j = 1; j < *nch; j++)
		if (ch[j].S > 0) {
			size_t w = 4 * (size_t)ch[j].S * x->m * x->n;
			wbytes = w > wbytes ? w : wbytes;
		}
	bufs_t b;
	bufs_alloc(g, &b, x, wbytes, seed);
	double best = INF_MS;
	res->best_nv = -1;
	res->t_best_nv = INF_MS;
	for (int j = 0; j < *nch; j++) {
		times[j] = time_choice(g, &ch[j], &b, best);
		if (times[j] < best)
			best = times[j];
		if (j > 0 && times[j] < res->t_best_nv) {
			res->t_best_nv = times[j];
			res->best_nv = j;
		}
	}
	res->t_blas = times[0];
	res->verified = -1;
	if (res->best_nv > 0) {
		/* verify the winning NVRTC choice against a pedantic fp32 cuBLAS */
		float *R;
		CUDA_OK(cudaMalloc((void **)&R, 4 * (size_t)x->m * x->n));
		BLAS_OK(blas_mm(g, &b.v, b.A[0], b.B[0], R, 1));
		size_t es = (size_t)d_es(x->d);
		CUDA_OK(cudaMemset(b.C, 0xFF, es * (size_t)x->m * x->n));
		if (b.W)
			CUDA_OK(cudaMemset(b.W, 0xFF, b.wbytes));
		kmod *m = get_mod(g, &ch[res->best_nv].k);
		CUresult r = m ? launch_mma(g, m, &b.v, b.A[0], b.B[0], b.C, b.W, ch[res->best_nv].S)
		               : CUDA_ERROR_INVALID_VALUE;
		if (r != CUDA_SUCCESS)
			die("verification launch failed: %s", cudrv_err(&g->drv, r));
		CUDA_OK(cudaDeviceSynchronize());
		double o[5];
		compare(g, x->d, b.C, R, (long long)x->m * x->n, o);
		res->verified = verdict(x->d, o, &res->fro, &res->mx);
		CUDA_OK(cudaFree(R));
	}
	bufs_free(&b);
}

static int run_bench(gpu_t *g, const cfg_row *rows, int nrows, const char *only, const input_t *in,
                     int n_fixed, int nin, double budget_s, const char *tsv)
{
	choice_t *ch = xmalloc(sizeof *ch * MAX_CHOICES);
	double *times = xmalloc(sizeof *times * MAX_CHOICES);
	FILE *tf = NULL;
	if (tsv) {
		tf = fopen(tsv, "w");
		if (!tf)
			die("cannot create '%s': %s", tsv, strerror(errno));
		fprintf(tf, "group\tdtype\tm\tn\tk\tta\ttb\tn_choices\tcublas_ms\tbest_nvrtc_ms\tbest_nvrtc_id\tspeedup\tverified\n");
	}
	int nverify_fail = 0;
	double t0 = mono_s();

	printf("\n## 8192^3, A and B row-major (NN): best NVRTC config vs cuBLAS (TFLOP/s)\n");
	printf("%-5s %10s %10s %7s  %s\n", "dtype", "cublas", "best_mma", "ratio", "best config (top 3 below)");
	for (int i = 0; i < n_fixed; i++) {
		const input_t *x = &in[i];
		if (strcmp(x->group, "square") != 0)
			continue;
		int nch;
		result_t r;
		bench_input(g, x, rows, nrows, only, ch, &nch, times, &r, 77 + (uint64_t)i);
		nverify_fail += r.verified == 0;
		printf("%-5s %10.1f %10.1f %6.1f%%  %s%s\n", DNAME[x->d], tflops(x, r.t_blas),
		       r.best_nv > 0 ? tflops(x, r.t_best_nv) : 0.0,
		       r.best_nv > 0 ? 100.0 * r.t_blas / r.t_best_nv : 0.0,
		       r.best_nv > 0 ? ch[r.best_nv].id : "-", r.verified == 0 ? " (WRONG RESULT)" : "");
		/* top 3 */
		for (int t = 0; t < 3; t++) {
			int bj = -1;
			for (int j = 1; j < nch; j++)
				if (times[j] < INF_MS && (bj < 0 || times[j] < times[bj]))
					bj = j;
			if (bj < 0)
				break;
			printf("        #%d %8.1f TFLOP/s %s\n", t + 1, tflops(x, times[bj]), ch[bj].id);
			times[bj] = INF_MS;
		}
		fflush(stdout);
	}

	printf("\n## LLM shapes, bf16, x[m,k] @ W[n,k].t() (B transposed view): time in us\n");
	printf("%6s %6s %6s %10s %10s %8s  %s\n", "m", "k", "n", "cublas", "best_mma", "speedup", "best config");
	for (int i = 0; i < n_fixed; i++) {
		const input_t *x = &in[i];
		if (strcmp(x->group, "llm") != 0)
			continue;
		int nch;
		result_t r;
		bench_input(g, x, rows, nrows, only, ch, &nch, times, &r, 177 + (uint64_t)i);
		nverify_fail += r.verified == 0;
		printf("%6d %6d %6d %10.1f %10.1f %7.3fx  %s%s\n", x->m, x->k, x->n, 1e3 * r.t_blas,
		       1e3 * r.t_best_nv, r.t_blas / r.t_best_nv, r.best_nv > 0 ? ch[r.best_nv].id : "-",
		       r.verified == 0 ? " (WRONG RESULT)" : "");
		fflush(stdout);
	}
	double t_fixed = mono_s() - t0;

	/* sampled inputs */
	int done = 0, wins = 0, per_d[ND] = {0}, wins_d[ND] = {0};
	double lsum = 0, lsum_d[ND] = {0}, t_s0 = mono_s();
	for (int i = n_fixed; i < nin; i++) {
		if (mono_s() - t_s0 > budget_s) {
			printf("# time budget %.0f s reached after %d sampled inputs\n", budget_s, done);
			break;
		}
		const input_t *x = &in[i];
		int nch;
		result_t r;
		bench_input(g, x, rows, nrows, only, ch, &nch, times, &r, 1000 + (uint64_t)i);
		if (r.verified == 0) {
			nverify_fail++;
			printf("WRONG RESULT %s m=%d n=%d k=%d ta=%d tb=%d %s fro %.3g max %.3g\n", DNAME[x->d],
			       x->m, x->n, x->k, x->ta, x->tb, ch[r.best_nv].id, r.fro, r.mx);
		}
		if (!(r.t_blas < INF_MS))
			die("cuBLAS failed on m=%d n=%d k=%d", x->m, x->n, x->k);
		double best_nv = r.verified == 0 ? INF_MS : r.t_best_nv;
		double oracle = best_nv < r.t_blas ? best_nv : r.t_blas;
		double sp = r.t_blas / oracle;
		int win = best_nv * 1.05 <= r.t_blas;
		done++;
		wins += win;
		per_d[x->d]++;
		wins_d[x->d] += win;
		lsum += log(sp);
		lsum_d[x->d] += log(sp);
		if (tf)
			fprintf(tf, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.6g\t%.6g\t%s\t%.4f\t%d\n", x->group,
			        DNAME[x->d], x->m, x->n, x->k, x->ta, x->tb, nch, r.t_blas, r.t_best_nv,
			        r.best_nv > 0 ? ch[r.best_nv].id : "-", r.t_blas / r.t_best_nv, r.verified);
	}
	printf("\n## sampled inputs (spec §3.3 distribution, seeded; estimated cuBLAS time capped)\n");
	printf("inputs %d; non-default beats extern_mm by >= 5%%: %d (%.1f%%); oracle/cuBLAS geomean %.3fx\n",
	       done, wins, done ? 100.0 * wins / done : 0.0, done ? exp(lsum / done) : 0.0);
	for (int d = 0; d < ND; d++)
		if (per_d[d])
			printf("  %-5s inputs %3d  wins %3d (%5.1f%%)  oracle geomean %.3fx\n", DNAME[d],
			       per_d[d], wins_d[d], 100.0 * wins_d[d] / per_d[d], exp(lsum_d[d] / per_d[d]));
	printf("# winners failing verification: %d; time: fixed shapes %.1f s, sampled %.1f s; "
	       "NVRTC compiles here: %d (%.1f s)\n", nverify_fail, t_fixed, mono_s() - t_s0,
	       g->n_compile, g->t_compile);
	if (tf && fclose(tf) != 0)
		die("cannot write '%s'", tsv);
	free(ch);
	free(times);
	return nverify_fail ? 1 : 0;
}

/* ---- main --------------------------------------------------------------------- */

static const char mma_synopsis[] =
	"mma_harness precompile|test|bench [--kernels DIR] [--cache DIR] [--jobs N]\n"
	"                   [--samples N] [--seed S] [--cap-ms X] [--budget-s X] [--tsv FILE]\n"
	"                   [--only A|B|..] [--quick]";

int main(int argc, char **argv)
{
	const char *mode = NULL, *kdir = "kernels", *cache = "build/mma-cache", *tsv = NULL,
	           *only = NULL;
	int jobs = 2, samples = 200, quick = 0;
	int64_t seed = 1;
	double cap_ms = 2.0, budget_s = 150.0;
	const opt table[] = {
		OPT_POS("MODE", &mode, OPT_REQUIRED,
		        "precompile: compile every cubin test and bench (same options) "
		        "need, no GPU needed; test: every config x dtype x transpose x "
		        "edge shape against cuBLAS (exit 1 on a failure); bench: against "
		        "cuBLAS, tables on stdout"),
		OPT_STRING("--kernels", "DIR", &kdir, 0,
		           "folder with mma.cu and mma_configs.tsv (default kernels)"),
		OPT_STRING("--cache", "DIR", &cache, 0,
		           "cubin cache (default build/mma-cache); a missing cubin is "
		           "compiled by NVRTC and stored there"),
		OPT_INT("--jobs", "N", &jobs, 1, 100000, 0,
		        "precompile: parallel NVRTC processes (default 2)"),
		OPT_INT("--samples", "N", &samples, 0, 100000, 0, "bench: sampled inputs (default 200)"),
		OPT_I64("--seed", "S", &seed, 0, INT64_MAX, 0, "bench: sampler seed (default 1)"),
		OPT_DOUBLE("--cap-ms", "X", &cap_ms, 0, INFINITY, OPT_XLO,
		           "bench: sampled shapes whose estimated cuBLAS time (2mnk FLOP "
		           "/ nominal rate) exceeds X ms are redrawn (default 2)"),
		OPT_DOUBLE("--budget-s", "X", &budget_s, 0, INFINITY, OPT_XLO,
		           "bench: stop sampling after X s of benchmarking (default 150)"),
		OPT_STRING("--tsv", "FILE", &tsv, OPT_OUTPUT,
		           "bench: per-input results (one row per sampled input)"),
		OPT_STRING("--only", "A|B|..", &only, 0,
		           "bench/precompile: only NVRTC choices whose id contains one of "
		           "these substrings (extern_mm always)"),
		OPT_FLAG("--quick", &quick, "test: only the first 3 configs (smoke)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){mma_synopsis, NULL, table,
	                       "Units: times in ms, rates in TFLOP/s, sizes in bytes.  Exit status: 0; 1 on\n"
	                       "a CUDA/driver/cuBLAS/NVRTC failure or a failed check (test).\n", 0, NULL},
	           argc, argv);
	int nrows;
	cfg_row *rows = read_configs(kdir, &nrows);
	char path[4096];
	size_t slen;
	snprintf(path, sizeof path, "%s/mma.cu", kdir);
	char *src = read_file(path, &slen);
	uint64_t srch = fnv1a64(FNV1A64_INIT, src, slen);
	int nfixed, nin;
	input_t *in = make_inputs(samples, (uint64_t)seed, cap_ms, &nfixed, &nin);
	int rc = 0;

	if (strcmp(mode, "precompile") == 0) {
		keyset ks = {NULL, 0, 0};
		plan_test(&ks, rows, nrows, quick);
		plan_bench(&ks, rows, nrows, in, nin, 132, only);
		rc = precompile(src, srch, cache, &ks, jobs);
		free(ks.v);
	} else if (strcmp(mode, "test") == 0 || strcmp(mode, "bench") == 0) {
		gpu_t g;
		if (!gpu_open(&g, src, srch, cache)) {
			printf("skip mma: no GPU\n");
		} else {
			if (mode[0] == 't')
				rc = run_test(&g, rows, nrows, quick);
			else
				rc = run_bench(&g, rows, nrows, only, in, nfixed, nin, budget_s, tsv);
			gpu_close(&g);
		}
	} else {
		die("unknown mode '%s'", mode);
	}
	free(in);
	free(src);
	free(rows);
	return rc;
}
