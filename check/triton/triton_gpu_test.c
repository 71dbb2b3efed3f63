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

#include "gpu/policy/inductor_cands.h"
#include "core/opts.h"
#include "gpu/bench/triton_launch.h"
#include "gpu/bench/triton_timing.h"
#include "core/tsvtext.h"
#include "core/util.h"

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

#define RNG_SEED 0x9e3779b97f4a7c15ULL
static float urand(uint64_t *rng)
{
	*rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
	return (float)((*rng >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
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

/* The kernels loaded so far (and the failures), by variant name. */
typedef struct {
	loaded *v;
	size_t n, cap;
} kcache;

static loaded *get_kernel(kcache *c, const cudrv *d, const char *dir, const char *variant,
                          CUdevice dev)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].variant, variant))
			return &c->v[i];
	xgrow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v);
	loaded *l = &c->v[c->n++];
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
	static const char *const code[] = {"nn", "nt", "tn", "tt"};
	if ((ar || ac) && (br || bc))
		return code[(ar ? 0 : 2) + (br ? 0 : 1)];
	return "other";
}

static double tol(const ic_input *in)
{
	return in->dtype == IC_F32 ? (in->tf32 ? 5e-3 : 1e-4) : in->dtype == IC_F16 ? 5e-3 : 2e-2;
}

/* One run: the device, cuBLAS, the timer, the loaded kernels, the counts. */
typedef struct {
	const char *dir, *refdir;
	int do_time;
	cudrv drv;   /* the launcher's and the timer's driver calls (stages/gpu/cuda/cudrv.h) */
	CUdevice dev;
	CUcontext ctx;
	CUstream s;
	cublasHandle_t h;
	tt_bench tb;
	tt_params tp;
	kcache cache;
	uint64_t rng;   /* the operands' random numbers, one stream for the run */
	int64_t n_check, n_pass, n_fail, n_inf, n_missing, n_inputs;
	double worst[3];   /* largest err/tol: fp32, tf32, fp16/bf16 */
} run;

/* One input's operands on the host and the device, cuBLAS's result R (hr
 * on the host, rr its squared norm), extern_mm's time (NAN untimed). */
typedef struct {
	const ic_input *in;
	int dt;
	size_t es, na, nb, nc;     /* element bytes; elements of A, B, C */
	void *ha, *hb, *hc, *hr;
	CUdeviceptr A, B, C, R;
	double rr, ext_ms;
} operands;

/* What one Triton candidate's row reports. */
typedef struct {
	const char *status;
	double err, ours, stat;
	char note[1200];
} outcome;

/* Device devno, its stream, cuBLAS on it and the timer; names the device
 * on stderr. */
static void gpu_start(run *g, int devno, double host_delay)
{
	DIE_CU(cuInit(0));
	cudrv_open(&g->drv);
	DIE_CU(cuDeviceGet(&g->dev, devno));
	DIE_CU(cuDevicePrimaryCtxRetain(&g->ctx, g->dev));
	DIE_CU(cuCtxSetCurrent(g->ctx));
	DIE_CU(cuStreamCreate(&g->s, CU_STREAM_NON_BLOCKING));
	DIE_CB(cublasCreate(&g->h));
	DIE_CB(cublasSetStream(g->h, (cudaStream_t)g->s));
	char name[256];
	DIE_CU(cuDeviceGetName(name, sizeof name, g->dev));
	int smem = tl_device_smem(&g->drv, g->dev);
	fprintf(stderr, "triton_gpu_test: %s, opt-in shared memory %d bytes\n", name, smem);
	char why[1024];
	if (tt_init(&g->tb, &g->drv, g->s, g->dev, 128, why, sizeof why))
		die("%s", why);
	g->tp = (tt_params)TT_PARAMS_INDUCTOR;
	g->tp.host_delay_us = host_delay;
}

static void gpu_stop(run *g)
{
	for (size_t z = 0; z < g->cache.n; z++)
		if (tl_unload(&g->cache.v[z].k))
			die("cuModuleUnload/cuMemFree failed for %s", g->cache.v[z].variant);
	free(g->cache.v);
	if (tt_free(&g->tb))
		die("freeing the timing buffers failed");
	DIE_CB(cublasDestroy(g->h));
}

/* Input x's operands: random on the host, copied to the device; cuBLAS's
 * result as the reference; with --time, extern_mm timed. */
static void operands_make(run *g, const crow *x, operands *o)
{
	const ic_input *in = o->in = &x->in;
	int dt = o->dt = in->dtype;
	size_t es = o->es = (size_t)ic_itemsize(dt);
	o->na = (size_t)(1 + (in->m - 1) * in->s1[0] + (in->k - 1) * in->s1[1]);
	o->nb = (size_t)(1 + (in->k - 1) * in->s2[0] + (in->n - 1) * in->s2[1]);
	o->nc = (size_t)(in->m * in->n);
	o->ha = xmalloc(o->na * es), o->hb = xmalloc(o->nb * es);
	o->hc = xmalloc(o->nc * es), o->hr = xmalloc(o->nc * es);
	void *hs[2] = {o->ha, o->hb};
	size_t ns[2] = {o->na, o->nb};
	for (int q = 0; q < 2; q++)
		for (size_t z = 0; z < ns[q]; z++) {
			float v = urand(&g->rng);
			if (dt == IC_F32)
				((float *)hs[q])[z] = v;
			else
				((uint16_t *)hs[q])[z] = dt == IC_F16 ? f2h(v) : f2bf(v);
		}
	DIE_CU(cuMemAlloc(&o->A, o->na * es));
	DIE_CU(cuMemAlloc(&o->B, o->nb * es));
	DIE_CU(cuMemAlloc(&o->C, o->nc * es));
	DIE_CU(cuMemAlloc(&o->R, o->nc * es));
	DIE_CU(cuMemcpyHtoD(o->A, o->ha, o->na * es));
	DIE_CU(cuMemcpyHtoD(o->B, o->hb, o->nb * es));
	bcall bc = {g->h, in, o->A, o->B, o->R};
	if (call_cublas(&bc, g->s))
		die("input %" PRId64 ": cublasGemmEx failed (layout %s)", x->input, layout(in));
	DIE_CU(cuStreamSynchronize(g->s));
	DIE_CU(cuMemcpyDtoH(o->hr, o->R, o->nc * es));
	o->rr = 0;
	for (size_t z = 0; z < o->nc; z++)
		o->rr += elem(o->hr, dt, z) * elem(o->hr, dt, z);
	o->ext_ms = NAN;
	if (g->do_time) {
		char why[1024];
		bcall bt = {g->h, in, o->A, o->B, o->C};
		if (tt_time(&g->tb, &g->tp, call_cublas, &bt, NAN, NAN, &o->ext_ms, NULL, why, sizeof why))
			die("input %" PRId64 ": timing extern_mm: %s", x->input, why);
	}
}

static void operands_free(operands *o)
{
	DIE_CU(cuMemFree(o->A));
	DIE_CU(cuMemFree(o->B));
	DIE_CU(cuMemFree(o->C));
	DIE_CU(cuMemFree(o->R));
	free(o->ha), free(o->hb), free(o->hc), free(o->hr);
}

/* A candidate that could not run: "inf" when why says out of resource (as
 * Inductor times it; counted once per id), else "FAIL". */
static void not_run(run *g, const crow *x, const char *why, outcome *oc)
{
	if (!strncmp(why, "out of resource", 15)) {
		oc->status = "inf";
		g->n_inf += x->dup_of < 0;
	} else {
		oc->status = "FAIL";
		g->n_fail++;
	}
	snprintf(oc->note, sizeof oc->note, "%s", why);
}

/* After a launch: C against the reference (the relative Frobenius error
 * into oc->err, judged against the dtype's tolerance once per id); with
 * --time, the candidate timed. */
static void check_output(run *g, const operands *o, const crow *x, tcall *tc, outcome *oc)
{
	const ic_input *in = o->in;
	CUresult e = cuStreamSynchronize(g->s);
	if (e != CUDA_SUCCESS) {
		const char *en = NULL;
		if (cuGetErrorName(e, &en) != CUDA_SUCCESS)
			en = NULL;
		die("input %" PRId64 " %s: the kernel faulted: %s (the context is lost)",
		    x->input, x->variant, en ? en : "?");
	}
	DIE_CU(cuMemcpyDtoH(o->hc, o->C, o->nc * o->es));
	double dd = 0;
	int bad = 0;
	for (size_t z = 0; z < o->nc; z++) {
		double c = elem(o->hc, o->dt, z), d = c - elem(o->hr, o->dt, z);
		if (!isfinite(c))
			bad = 1;
		dd += d * d;
	}
	double err = oc->err = bad ? INFINITY : o->rr > 0 ? sqrt(dd / o->rr) : (dd == 0 ? 0 : INFINITY);
	if (x->dup_of < 0) {
		g->n_check++;
		int wi = o->dt == IC_F32 ? (in->tf32 ? 1 : 0) : 2;
		if (err / tol(in) > g->worst[wi])
			g->worst[wi] = err / tol(in);
		if (err <= tol(in))
			g->n_pass++;
		else {
			oc->status = "FAIL";
			g->n_fail++;
		}
	}
	char why[1024];
	if (g->do_time && tt_time(&g->tb, &g->tp, call_triton, tc, NAN, NAN, &oc->ours, NULL, why, sizeof why))
		die("input %" PRId64 " %s: timing: %s (%s)", x->input, x->variant, why, tc->why);
}

/* With --time and --ref-cubins: the static kernel of x's config compiled
 * for the input's literal sizes, timed into oc->stat when it is there. */
static void time_static(run *g, const operands *o, const crow *x, outcome *oc)
{
	const ic_input *in = o->in;
	char rn[512], why[1024];
	int atf = o->dt == IC_F32 && in->tf32;
	static const char *const dn[] = {"fp16", "bf16", "fp32"};
	snprintf(rn, sizeof rn, "ref-%" PRId64 "x%" PRId64 "x%" PRId64 "-%s%s-%" PRId64 ".%" PRId64
	         ".%" PRId64 ".%" PRId64 "-%dx%dx%d-s%dw%d", in->m, in->k, in->n, dn[o->dt],
	         atf ? "-tf32" : "", in->s1[0], in->s1[1], in->s2[0], in->s2[1], x->bm, x->bn,
	         x->bk, x->stages, x->warps);
	loaded *rl = get_kernel(&g->cache, &g->drv, g->refdir, rn, g->dev);
	if (rl->rc == 0) {
		tcall rc = {&rl->k, o->A, o->B, o->C, {0}, ""};
		ic_args(in, rc.arg);
		if (tt_time(&g->tb, &g->tp, call_triton, &rc, NAN, NAN, &oc->stat, NULL, why, sizeof why))
			die("input %" PRId64 " %s: timing the static kernel: %s", x->input, rn, why);
	}
}

/* Triton candidate x: loaded from the cache, run into an output poisoned
 * with NaN, checked (and timed); its row printed. */
static void triton_candidate(run *g, const operands *o, const crow *x)
{
	const ic_input *in = o->in;
	outcome oc = {"ok", NAN, NAN, NAN, ""};
	loaded *l = get_kernel(&g->cache, &g->drv, g->dir, x->variant, g->dev);
	if (l->rc == 1) {
		oc.status = "missing";
		g->n_missing++;
		snprintf(oc.note, sizeof oc.note, "%s", l->why);
	} else if (l->rc < 0) {
		not_run(g, x, l->why, &oc);
	} else {
		tcall tc = {&l->k, o->A, o->B, o->C, {0}, ""};
		ic_args(in, tc.arg);
		DIE_CU(cuMemsetD8(o->C, 0xff, o->nc * o->es));   /* NaN */
		if (call_triton(&tc, g->s))
			not_run(g, x, tc.why, &oc);
		else
			check_output(g, o, x, &tc, &oc);
	}
	if (g->do_time && g->refdir && l->rc == 0)
		time_static(g, o, x, &oc);
	printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t%s\t%s\t%.3g\t%.3g\t%.6g\t%.6g\t%.6g\t%s\n",
	       x->input, in->m, in->k, in->n, ic_dtype_torch(o->dt), in->tf32, layout(in), x->pos, x->id,
	       x->variant, oc.status, oc.err, tol(in), oc.ours, oc.stat, o->ext_ms, oc.note);
}

/* The rows r[a..b) of one input: every candidate's row. */
static void one_input(run *g, const crow *r, int64_t a, int64_t b)
{
	operands o;
	operands_make(g, &r[a], &o);
	const ic_input *in = o.in;
	g->n_inputs++;
	for (int64_t q = a; q < b; q++) {
		const crow *x = &r[q];
		if (x->kind == IC_EXTERN)
			printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t-\treference\t0\t-\t%.6g\t-\t%.6g\t\n",
			       x->input, in->m, in->k, in->n, ic_dtype_torch(o.dt), in->tf32, layout(in), x->pos,
			       x->id, o.ext_ms, o.ext_ms);
		else if (x->kind != IC_TRITON)
			printf("%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%s\t%d\t%s\t-\tnot-run\t-\t-\t-\t-\t-\tdecompose_k: not a Triton candidate\n",
			       x->input, in->m, in->k, in->n, ic_dtype_torch(o.dt), in->tf32, layout(in), x->pos, x->id);
		else if (x->dup_of < 0 || g->do_time)   /* else the same kernel as an earlier candidate */
			triton_candidate(g, &o, x);
	}
	operands_free(&o);
}

int main(int argc, char **argv)
{
	const char *cands = NULL;
	int devno = 0;
	double host_delay = 0;
	run g = {.rng = RNG_SEED};
	const opt table[] = {
		OPT_STRING("--cubins", "DIR", &g.dir, OPT_REQUIRED,
		           "the cubin cache entry folder (triton_aot.py --entry-dir)"),
		OPT_STRING("--ref-cubins", "DIR", &g.refdir, 0,
		           "with --time: the static kernels' folder (triton_speccheck.py static)"),
		OPT_FLAG("--time", &g.do_time,
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
	opts_parse(&(opt_prog){synopsis, about, table, notes, 22, NULL}, argc, argv);
	int64_t nr;
	crow *r = read_cands(cands, &nr);
	gpu_start(&g, devno, host_delay);

	printf("input\tm\tk\tn\tdtype\ttf32\tlayout\tpos\tid\tvariant\tstatus\terr\ttol\tours_ms\tstatic_ms\t"
	       "extern_ms\tnote\n");
	for (int64_t a = 0; a < nr;) {
		int64_t b = a;
		while (b < nr && r[b].input == r[a].input)
			b++;
		one_input(&g, r, a, b);
		a = b;
	}
	fflush(stdout);
	fprintf(stderr, "triton_gpu_test: %" PRId64 " inputs, %" PRId64 " candidates checked, %" PRId64
	        " within tolerance, %" PRId64 " failed, %" PRId64 " inf (out of resource), %" PRId64
	        " missing; worst err/tol fp32 %.3g tf32 %.3g fp16/bf16 %.3g\n",
	        g.n_inputs, g.n_check, g.n_pass, g.n_fail, g.n_inf, g.n_missing, g.worst[0], g.worst[1],
	        g.worst[2]);
	gpu_stop(&g);
	free(r);
	close_stdout();
	return g.n_fail || g.n_missing ? 1 : 0;
}
