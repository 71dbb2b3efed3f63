/* triton_gpu_test.c — the GPU harness of the Triton back end: every Triton
 * candidate of a candidate list (triton_cands --candidates) is loaded from
 * the cubin cache (triton_launch.h), run on random non-zero data and
 * compared with cuBLAS; optionally each is timed as Inductor times it
 * (triton_timing.h) next to extern_mm (cuBLAS) and, where a static kernel
 * was compiled (triton_speccheck.py static), next to the Inductor-style
 * static kernel of the same config on the same shape. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda.h>

#include "inductor_cands.h"
#include "opts.h"
#include "triton_launch.h"
#include "triton_timing.h"
#include "tsvtext.h"
#include "util.h"

static const char synopsis[] =
	"triton_gpu_test --cubins DIR [--ref-cubins DIR] [--time] [--device N]\n"
	"                       [--host-delay-us X] CANDS";

static const char about[] =
	"For every input of CANDS: random operands (uniform in [-1, 1), never all\n"
	"zero), cuBLAS's result as the reference (cublasGemmEx, fp32 accumulation;\n"
	"TF32 for float32 inputs with tf32=1); for every distinct Triton candidate:\n"
	"load DIR/<variant>.{json,cubin}, run into an output poisoned with NaN, and\n"
	"compare: relative Frobenius error |C - R| / |R| within 1e-4 (fp32), 5e-3\n"
	"(tf32, fp16), 2e-2 (bf16), the tolerances bench uses.  A candidate over the\n"
	"device's shared memory is reported 'inf' (out of resource), as Inductor\n"
	"times it.\n";

static const char notes[] =
	"Prints one TSV row per (input, candidate) and a summary line; exit status\n"
	"1 if any candidate fails the check, is missing from the cache, or a CUDA\n"
	"call fails.\n";

#define DIE_CU(call)                                                                     \
	do {                                                                             \
		CUresult r_ = (call);                                                    \
		if (r_ != CUDA_SUCCESS) {                                                \
			const char *n_ = NULL;                                           \
			if (cuGetErrorName(r_, &n_) != CUDA_SUCCESS)                    \
				n_ = NULL;                                               \
			die("%s:%d: %s: %s", __FILE__, __LINE__, #call, n_ ? n_ : "?");  \
		}                                                                        \
	} while (0)
#define DIE_CB(call)                                                                     \
	do {                                                                             \
		cublasStatus_t s_ = (call);                                              \
		if (s_ != CUBLAS_STATUS_SUCCESS)                                         \
			die("%s:%d: %s: cuBLAS status %d", __FILE__, __LINE__, #call, (int)s_); \
	} while (0)

typedef struct {
	int64_t input;
	ic_input in;
	int pos, dup_of, kind;
	char id[IC_ID_MAX], variant[IC_VARIANT_MAX];
	int bm, bn, bk, stages, warps;
} crow;

static crow *read_cands(const char *path, int64_t *nrows)
{
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	const char *want[] = {"input", "m", "k", "n", "dtype", "tf32", "mat1_stride_0", "mat1_stride_1",
	                      "mat2_stride_0", "mat2_stride_1", "pos", "id", "kind", "bm", "bn", "bk",
	                      "stages", "warps", "dup_of", "variant"};
	enum { NW = sizeof want / sizeof want[0] };
	int64_t n = 0, lineno = 0;
	char *f[64];
	int col[NW], ncol = tsv_split(tsv_line(&pos, path, &lineno), f, 64);
	if (ncol > 64)
		die("%s:1: more than 64 columns", path);
	if (tsv_columns(f, ncol, want, NW, col) < NW)
		for (int w = 0; w < NW; w++)
			if (col[w] < 0)
				die("%s:1: column '%s' missing", path, want[w]);
	crow *r = NULL;
	size_t cap = 0;
	while ((p = tsv_line(&pos, path, &lineno))) {
		int line = (int)lineno, nf = tsv_split(p, f, 64);
		if (nf != ncol)
			die("%s:%d: %d fields, the header has %d", path, line, nf, ncol);
		if (!strcmp(f[col[11]], "-"))
			continue;   /* an input without candidates */
		xgrow((void **)&r, &cap, (size_t)n + 1, sizeof *r);
		crow *x = &r[n++];
		memset(x, 0, sizeof *x);
		int64_t v[10];
		for (int w = 0; w < 10; w++) {
			if (w == 4 || w == 5)
				continue;
			if (parse_i64(f[col[w]], strlen(f[col[w]]), &v[w]))
				die("%s:%d: field '%s': not an integer: '%s'", path, line, want[w], f[col[w]]);
		}
		x->input = v[0];
		x->in.m = v[1], x->in.k = v[2], x->in.n = v[3];
		x->in.dtype = ic_dtype_parse(f[col[4]]);
		if (x->in.dtype < 0)
			die("%s:%d: field 'dtype': unknown: '%s'", path, line, f[col[4]]);
		x->in.tf32 = !strcmp(f[col[5]], "1");
		x->in.s1[0] = v[6], x->in.s1[1] = v[7], x->in.s2[0] = v[8], x->in.s2[1] = v[9];
		x->pos = atoi(f[col[10]]);
		snprintf(x->id, sizeof x->id, "%s", f[col[11]]);
		x->kind = !strcmp(f[col[12]], "triton") ? IC_TRITON : !strcmp(f[col[12]], "extern") ? IC_EXTERN
		          : IC_DECOMPOSE_K;
		x->dup_of = atoi(f[col[18]]);
		snprintf(x->variant, sizeof x->variant, "%s", f[col[19]]);
		if (x->kind == IC_TRITON) {
			x->bm = atoi(f[col[13]]), x->bn = atoi(f[col[14]]), x->bk = atoi(f[col[15]]);
			x->stages = atoi(f[col[16]]), x->warps = atoi(f[col[17]]);
		}
	}
	free(buf);
	*nrows = n;
	return r;
}

/* ---- host data ------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static float urand(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (float)((rng >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
}

static uint16_t f2h(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, mant = x & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
	int ee = (int)e - 127 + 15;
	if (ee >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (ee <= 0) {
		if (ee < -10)
			return (uint16_t)sign;
		mant |= 0x800000;
		int shift = 14 - ee;
		uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = ((uint32_t)ee << 10) | (mant >> 13), rem = mant & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(sign | h);
}

static float h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, mant = h & 0x3ff, x;
	if (e == 0) {
		if (!mant)
			x = sign;
		else {
			int s = -1;
			do {
				s++;
				mant <<= 1;
			} while (!(mant & 0x400));
			x = sign | ((uint32_t)(127 - 15 - s) << 23) | ((mant & 0x3ff) << 13);
		}
	} else if (e == 31)
		x = sign | 0x7f800000 | (mant << 13);
	else
		x = sign | ((e - 15 + 127) << 23) | (mant << 13);
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t f2bf(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((x >> 16) | 0x40);
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

static float bf2f(uint16_t b)
{
	uint32_t x = (uint32_t)b << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static double elem(const void *p, int dt, size_t i)
{
	if (dt == IC_F32)
		return ((const float *)p)[i];
	uint16_t u = ((const uint16_t *)p)[i];
	return dt == IC_F16 ? h2f(u) : bf2f(u);
}

/* ---- the run -------------------------------------------------------------- */

typedef struct {
	char variant[IC_VARIANT_MAX + 96];
	tl_kernel k;
	int rc;
	char why[1024];
} loaded;

static loaded *cache;
static size_t ncache, capcache;

static loaded *get_kernel(const cudrv *d, const char *dir, const char *variant, CUdevice dev)
{
	for (size_t i = 0; i < ncache; i++)
		if (!strcmp(cache[i].variant, variant))
			return &cache[i];
	xgrow((void **)&cache, &capcache, ncache + 1, sizeof *cache);
	loaded *l = &cache[ncache++];
	memset(l, 0, sizeof *l);
	snprintf(l->variant, sizeof l->variant, "%s", variant);
	l->rc = tl_load(&l->k, d, dir, variant, dev, l->why, sizeof l->why);
	return l;
}

typedef struct {
	tl_kernel *k;
	CUdeviceptr A, B, C;
	int64_t arg[IC_NARG];
	char why[512];
} tcall;

static int call_triton(void *ctx, CUstream s)
{
	tcall *t = ctx;
	return tl_launch(t->k, s, t->A, t->B, t->C, t->arg, t->why, sizeof t->why);
}

typedef struct {
	cublasHandle_t h;
	const ic_input *in;
	CUdeviceptr A, B, C;
} bcall;

static int call_cublas(void *ctx, CUstream s)
{
	bcall *b = ctx;
	const ic_input *in = b->in;
	(void)s;
	cudaDataType_t t = in->dtype == IC_F32 ? CUDA_R_32F : in->dtype == IC_F16 ? CUDA_R_16F : CUDA_R_16BF;
	cublasComputeType_t ct = in->dtype == IC_F32 ? (in->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F)
	                         : CUBLAS_COMPUTE_32F;
	/* C^T (n x m, column-major) = B^T A^T */
	int brow = in->s2[1] == 1 && in->s2[0] >= in->n;
	int arow = in->s1[1] == 1 && in->s1[0] >= in->k;
	cublasOperation_t ta = brow ? CUBLAS_OP_N : CUBLAS_OP_T, tb = arow ? CUBLAS_OP_N : CUBLAS_OP_T;
	int64_t lda = brow ? in->s2[0] : in->s2[1], ldb = arow ? in->s1[0] : in->s1[1];
	float one = 1, zero = 0;
	cublasStatus_t st = cublasGemmEx(b->h, ta, tb, (int)in->n, (int)in->m, (int)in->k, &one,
	                                 (void *)b->B, t, (int)lda, (void *)b->A, t, (int)ldb, &zero,
	                                 (void *)b->C, t, (int)in->n, ct, CUBLAS_GEMM_DEFAULT);
	return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

static const char *layout(const ic_input *in)
{
	int ar = in->s1[1] == 1 && in->s1[0] == in->k, ac = in->s1[0] == 1 && in->s1[1] == in->m;
	int br = in->s2[1] == 1 && in->s2[0] == in->n, bc = in->s2[0] == 1 && in->s2[1] == in->k;
	if ((ar || ac) && (br || bc)) {
		static char s[3];
		s[0] = ar ? 'n' : 't', s[1] = br ? 'n' : 't', s[2] = 0;
		return s;
	}
	return "other";
}

static double tol(const ic_input *in)
{
	return in->dtype == IC_F32 ? (in->tf32 ? 5e-3 : 1e-4) : in->dtype == IC_F16 ? 5e-3 : 2e-2;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *refdir = NULL, *cands = NULL;
	int do_time = 0, devno = 0;
	double host_delay = 0;
	const opt table[] = {
		OPT_STRING("--cubins", "DIR", &dir, OPT_REQUIRED,
		           "the cubin cache entry folder (triton_aot.py --entry-dir)"),
		OPT_STRING("--ref-cubins", "DIR", &refdir, 0,
		           "with --time: the static kernels' folder (triton_speccheck.py static)"),
		OPT_FLAG("--time", &do_time,
		         "also time each candidate, extern_mm (cuBLAS, the same call), and "
		         "with --ref-cubins the static kernel of the same config compiled "
		         "for the input's literal sizes, all with Inductor's method "
		         "(triton_timing.h)"),
		OPT_INT("--device", "N", &devno, 0, 1023, 0, "the CUDA device (default 0)"),
		OPT_DOUBLE("--host-delay-us", "X", &host_delay, 0, INFINITY, 0,
		           "microseconds the CPU spins between the start event and each "
		           "timed call (triton_timing.h; default 0)"),
		OPT_POS("CANDS", &cands, OPT_REQUIRED | OPT_INPUT,
		        "triton_cands --candidates output (inputs in one of the four "
		        "transpose layouts)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 22}, argc, argv);
	int64_t nr;
	crow *r = read_cands(cands, &nr);

	CUdevice dev;
	CUcontext ctx;
	CUstream s;
	DIE_CU(cuInit(0));
	cudrv drv;   /* the launcher's and the timer's driver calls (stages/cuda/cudrv.h) */
	cudrv_open(&drv);
	DIE_CU(cuDeviceGet(&dev, devno));
	DIE_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
	DIE_CU(cuCtxSetCurrent(ctx));
	DIE_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	cublasHandle_t h;
	DIE_CB(cublasCreate(&h));
	DIE_CB(cublasSetStream(h, (cudaStream_t)s));
	char name[256];
	DIE_CU(cuDeviceGetName(name, sizeof name, dev));
	int smem = tl_device_smem(&drv, dev);
	fprintf(stderr, "triton_gpu_test: %s, opt-in shared memory %d bytes\n", name, smem);
	tt_bench tb;
	char why[1024];
	if (tt_init(&tb, &drv, s, dev, 128, why, sizeof why))
		die("%s", why);
	tt_params tp = TT_PARAMS_INDUCTOR;
	tp.host_delay_us = host_delay;

	printf("input\tm\tk\tn\tdtype\ttf32\tlayout\tpos\tid\tvariant\tstatus\terr\ttol\tours_ms\tstatic_ms\t"
	       "extern_ms\tnote\n");
	int64_t n_check = 0, n_pass = 0, n_fail = 0, n_inf = 0, n_missing = 0, n_inputs = 0;
	double worst[3] = {0, 0, 0};
	for (int64_t a = 0; a < nr;) {
		int64_t b = a;
		while (b < nr && r[b].input == r[a].input)
			b++;
		const ic_input *in = &r[a].in;
		n_inputs++;
		int dt = in->dtype;
		size_t es = (size_t)ic_itemsize(dt);
		size_t na = (size_t)(1 + (in->m - 1) * in->s1[0] + (in->k - 1) * in->s1[1]);
		size_t nb = (size_t)(1 + (in->k - 1) * in->s2[0] + (in->n - 1) * in->s2[1]);
		size_t nc = (size_t)(in->m * in->n);
		void *ha = xmalloc(na * es), *hb = xmalloc(nb * es), *hc = xmalloc(nc * es), *hr = xmalloc(nc * es);
		void *hs[2] = {ha, hb};
		size_t ns[2] = {na, nb};
		for (int q = 0; q < 2; q++)
			for (size_t z = 0; z < ns[q]; z++) {
				float v = urand();
				if (dt == IC_F32)
					((float *)hs[q])[z] = v;
				else
					((uint16_t *)hs[q])[z] = dt == IC_F16 ? f2h(v) : f2bf(v);
			}
		CUdeviceptr A, B, C, R;
		DIE_CU(cuMemAlloc(&A, na * es));
		DIE_CU(cuMemAlloc(&B, nb * es));
		DIE_CU(cuMemAlloc(&C, nc * es));
		DIE_CU(cuMemAlloc(&R, nc * es));
		DIE_CU(cuMemcpyHtoD(A, ha, na * es));
		DIE_CU(cuMemcpyHtoD(B, hb, nb * es));
		bcall bc = {h, in, A, B, R};
		if (call_cublas(&bc, s))
			die("input %" PRId64 ": cublasGemmEx failed (layout %s)", r[a].input, layout(in));
		DIE_CU(cuStreamSynchronize(s));
		DIE_CU(cuMemcpyDtoH(hr, R, nc * es));
		double rr = 0;
		for (size_t z = 0; z < nc; z++)
			rr += elem(hr, dt, z) * elem(hr, dt, z);
		double ext_ms = NAN;
		if (do_time) {
			bcall bt = {h, in, A, B, C};
			if (tt_time(&tb, &tp, call_cublas, &bt, &ext_ms, why, sizeof why))
				die("input %" PRId64 ": timing extern_mm: %s", r[a].input, why);
		}
		for (int64_t q = a; q < b; q++) {
			crow *x = &r[q];
			const char *status = "ok", *note = "";
			double err = NAN, ours = NAN, stat = NAN;
			char notebuf[1200] = "";
			if (x->kind == IC_EXTERN) {
				printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t-\treference\t0\t-\t%.6g\t-\t%.6g\t\n",
				       x->input, in->m, in->k, in->n, ic_dtype_torch(dt), in->tf32, layout(in), x->pos,
				       x->id, ext_ms, ext_ms);
				continue;
			}
			if (x->kind != IC_TRITON) {
				printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t-\tnot-run\t-\t-\t-\t-\t-\tdecompose_k: not a Triton candidate\n",
				       x->input, in->m, in->k, in->n, ic_dtype_torch(dt), in->tf32, layout(in), x->pos, x->id);
				continue;
			}
			if (x->dup_of >= 0 && !do_time)
				continue;   /* the same kernel as an earlier candidate */
			loaded *l = get_kernel(&drv, dir, x->variant, dev);
			if (l->rc == 1) {
				status = "missing";
				n_missing++;
				snprintf(notebuf, sizeof notebuf, "%s", l->why);
			} else if (l->rc < 0) {
				if (!strncmp(l->why, "out of resource", 15)) {
					status = "inf";
					n_inf += x->dup_of < 0;
				} else {
					status = "FAIL";
					n_fail++;
				}
				snprintf(notebuf, sizeof notebuf, "%s", l->why);
			} else {
				tcall tc = {&l->k, A, B, C, {0}, ""};
				ic_args(in, tc.arg);
				DIE_CU(cuMemsetD8(C, 0xff, nc * es));   /* NaN */
				if (call_triton(&tc, s)) {
					if (!strncmp(tc.why, "out of resource", 15)) {
						status = "inf";
						n_inf += x->dup_of < 0;
					} else {
						status = "FAIL";
						n_fail++;
					}
					snprintf(notebuf, sizeof notebuf, "%s", tc.why);
				} else {
					CUresult e = cuStreamSynchronize(s);
					if (e != CUDA_SUCCESS) {
						const char *en = NULL;
						if (cuGetErrorName(e, &en) != CUDA_SUCCESS)
							en = NULL;
						die("input %" PRId64 " %s: the kernel faulted: %s (the context is lost)",
						    x->input, x->variant, en ? en : "?");
					}
					DIE_CU(cuMemcpyDtoH(hc, C, nc * es));
					double dd = 0;
					int bad = 0;
					for (size_t z = 0; z < nc; z++) {
						double c = elem(hc, dt, z), d = c - elem(hr, dt, z);
						if (!isfinite(c))
							bad = 1;
						dd += d * d;
					}
					err = bad ? INFINITY : rr > 0 ? sqrt(dd / rr) : (dd == 0 ? 0 : INFINITY);
					if (x->dup_of < 0) {
						n_check++;
						int wi = dt == IC_F32 ? (in->tf32 ? 1 : 0) : 2;
						if (err / tol(in) > worst[wi])
							worst[wi] = err / tol(in);
						if (err <= tol(in))
							n_pass++;
						else {
							status = "FAIL";
							n_fail++;
						}
					}
					if (do_time && tt_time(&tb, &tp, call_triton, &tc, &ours, why, sizeof why))
						die("input %" PRId64 " %s: timing: %s (%s)", x->input, x->variant, why, tc.why);
				}
			}
			if (do_time && refdir && l->rc == 0) {
				char rn[512];
				int atf = dt == IC_F32 && in->tf32;
				static const char *dn[] = {"fp16", "bf16", "fp32"};
				snprintf(rn, sizeof rn, "ref-%" PRId64 "x%" PRId64 "x%" PRId64 "-%s%s-%" PRId64 ".%" PRId64
				         ".%" PRId64 ".%" PRId64 "-%dx%dx%d-s%dw%d", in->m, in->k, in->n, dn[dt],
				         atf ? "-tf32" : "", in->s1[0], in->s1[1], in->s2[0], in->s2[1], x->bm, x->bn,
				         x->bk, x->stages, x->warps);
				loaded *rl = get_kernel(&drv, refdir, rn, dev);
				if (rl->rc == 0) {
					tcall rc = {&rl->k, A, B, C, {0}, ""};
					ic_args(in, rc.arg);
					if (tt_time(&tb, &tp, call_triton, &rc, &stat, why, sizeof why))
						die("input %" PRId64 " %s: timing the static kernel: %s", x->input, rn, why);
				}
			}
			note = notebuf;
			printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t%s\t%s\t%.3g\t%.3g\t%.6g\t%.6g\t%.6g\t%s\n",
			       x->input, in->m, in->k, in->n, ic_dtype_torch(dt), in->tf32, layout(in), x->pos, x->id,
			       x->variant, status, err, tol(in), ours, stat, ext_ms, note);
		}
		DIE_CU(cuMemFree(A));
		DIE_CU(cuMemFree(B));
		DIE_CU(cuMemFree(C));
		DIE_CU(cuMemFree(R));
		free(ha), free(hb), free(hc), free(hr);
		a = b;
	}
	fflush(stdout);
	fprintf(stderr, "triton_gpu_test: %" PRId64 " inputs, %" PRId64 " candidates checked, %" PRId64
	        " within tolerance, %" PRId64 " failed, %" PRId64 " inf (out of resource), %" PRId64
	        " missing; worst err/tol fp32 %.3g tf32 %.3g fp16/bf16 %.3g\n",
	        n_inputs, n_check, n_pass, n_fail, n_inf, n_missing, worst[0], worst[1], worst[2]);
	for (size_t z = 0; z < ncache; z++)
		if (tl_unload(&cache[z].k))
			die("cuModuleUnload/cuMemFree failed for %s", cache[z].variant);
	if (tt_free(&tb))
		die("freeing the timing buffers failed");
	DIE_CB(cublasDestroy(h));
	close_stdout();
	return n_fail || n_missing ? 1 : 0;
}
