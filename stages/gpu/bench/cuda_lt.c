/* cuda_lt.c — the CUDA half of bench's cuBLASLt choices: descriptors for
 * one problem, rebuilding a listed algorithm from its attributes, running
 * it, the heuristic query of `bench --lt-discover`, and the GPU half of
 * cuBLASLt candidates (backend.h bench_gpu_ops lt_gpu_ops).  Interface and
 * problem mapping: cuda_lt.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cublasLt.h>

#include "cuda.h"
#include "core/util.h"

struct lt_gpu {
	cublasLtHandle_t h;
	/* current problem */
	int have;
	int64_t m, k, n, lda, ldb;
	int dtype, tf32, ta, tb;
	cublasComputeType_t ct;
	cudaDataType_t t;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t la, lb, lc;
	/* workspace */
	void *ws;
	size_t ws_cap;
	/* (id, class) pairs already reported */
	char **seen;
	size_t nseen, capseen;
};

#define LT_OK(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) \
	die("%s failed: %s (%s:%d)", #call, cublasGetStatusString(s_), __FILE__, __LINE__); } while (0)

lt_gpu *lt_gpu_open(void)
{
	lt_gpu *g = xcalloc(1, sizeof *g);
	LT_OK(cublasLtCreate(&g->h));
	return g;
}

static void drop_problem(lt_gpu *g)
{
	if (!g->have)
		return;
	LT_OK(cublasLtMatrixLayoutDestroy(g->la));
	LT_OK(cublasLtMatrixLayoutDestroy(g->lb));
	LT_OK(cublasLtMatrixLayoutDestroy(g->lc));
	LT_OK(cublasLtMatmulDescDestroy(g->op));
	g->have = 0;
}

void lt_gpu_close(lt_gpu *g)
{
	if (!g)
		return;
	drop_problem(g);
	if (g->ws) {
		cudaError_t e = cudaFree(g->ws);
		if (e != cudaSuccess)
			die("cudaFree(cuBLASLt workspace): %s", cudaGetErrorString(e));
	}
	LT_OK(cublasLtDestroy(g->h));
	for (size_t i = 0; i < g->nseen; i++)
		free(g->seen[i]);
	free(g->seen);
	free(g);
}

void lt_gpu_problem(lt_gpu *g, const bench_input *in)
{
	if (g->have && g->m == in->m && g->k == in->k && g->n == in->n && g->dtype == in->dtype &&
	    g->tf32 == in->tf32 && g->ta == in->ta && g->tb == in->tb && g->lda == in->lda &&
	    g->ldb == in->ldb)
		return;
	drop_problem(g);
	g->m = in->m;
	g->k = in->k;
	g->n = in->n;
	g->lda = in->lda;
	g->ldb = in->ldb;
	g->dtype = in->dtype;
	g->tf32 = in->tf32;
	g->ta = in->ta;
	g->tb = in->tb;
	g->t = in->dtype == DT_F32 ? CUDA_R_32F : in->dtype == DT_F16 ? CUDA_R_16F : CUDA_R_16BF;
	g->ct = (in->dtype == DT_F32 && in->tf32) ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
	uint64_t m = (uint64_t)in->m, k = (uint64_t)in->k, n = (uint64_t)in->n;
	cublasOperation_t opa = in->tb ? CUBLAS_OP_T : CUBLAS_OP_N,
	                  opb = in->ta ? CUBLAS_OP_T : CUBLAS_OP_N;
	LT_OK(cublasLtMatmulDescCreate(&g->op, g->ct, CUDA_R_32F));
	LT_OK(cublasLtMatmulDescSetAttribute(g->op, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
	LT_OK(cublasLtMatmulDescSetAttribute(g->op, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
	/* cuBLASLt A = torch mat2, B = torch mat1 (cuda_lt.h); the leading
	 * dimensions are the input's (padded ones as they are) */
	if (in->tb)
		LT_OK(cublasLtMatrixLayoutCreate(&g->la, g->t, k, n, in->ldb));
	else
		LT_OK(cublasLtMatrixLayoutCreate(&g->la, g->t, n, k, in->ldb));
	if (in->ta)
		LT_OK(cublasLtMatrixLayoutCreate(&g->lb, g->t, m, k, in->lda));
	else
		LT_OK(cublasLtMatrixLayoutCreate(&g->lb, g->t, k, m, in->lda));
	LT_OK(cublasLtMatrixLayoutCreate(&g->lc, g->t, n, m, (int64_t)n));
	g->have = 1;
}

/* Rebuild a for the current problem into *out (no check). */
static cublasStatus_t rebuild(lt_gpu *g, const lt_algo *a, cublasLtMatmulAlgo_t *out,
                              const char **what)
{
	cublasStatus_t s;
	int32_t splitk = a->splitk;
	uint32_t u32[6] = { a->tile, a->stages, a->reduction, a->swizzle, a->custom, 0 };
	uint16_t inner = (uint16_t)a->inner, cluster = (uint16_t)a->cluster;
	memset(out, 0, sizeof *out);
	*what = "cublasLtMatmulAlgoInit";
	s = cublasLtMatmulAlgoInit(g->h, g->ct, CUDA_R_32F, g->t, g->t, g->t, g->t, a->algo, out);
	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	struct { cublasLtMatmulAlgoConfigAttributes_t attr; const void *p; size_t n; const char *name; } set[] = {
		{ CUBLASLT_ALGO_CONFIG_TILE_ID, &u32[0], sizeof u32[0], "TILE_ID" },
		{ CUBLASLT_ALGO_CONFIG_STAGES_ID, &u32[1], sizeof u32[1], "STAGES_ID" },
		{ CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, "SPLITK_NUM" },
		{ CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &u32[2], sizeof u32[2], "REDUCTION_SCHEME" },
		{ CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &u32[3], sizeof u32[3], "CTA_SWIZZLING" },
		{ CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &u32[4], sizeof u32[4], "CUSTOM_OPTION" },
		{ CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, &inner, sizeof inner, "INNER_SHAPE_ID" },
		{ CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster, sizeof cluster, "CLUSTER_SHAPE_ID" },
	};
	for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
		s = cublasLtMatmulAlgoConfigSetAttribute(out, set[i].attr, set[i].p, set[i].n);
		if (s != CUBLAS_STATUS_SUCCESS) {
			*what = set[i].name;
			return s;
		}
	}
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_gpu_prepare(lt_gpu *g, const lt_algo *a, lt_prep *p, const char **what)
{
	if (!g->have)
		die("internal: lt_gpu_prepare without a problem");
	cublasStatus_t s = rebuild(g, a, &p->algo, what);
	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	cublasLtMatmulHeuristicResult_t r;
	memset(&r, 0, sizeof r);
	*what = "cublasLtMatmulAlgoCheck";
	s = cublasLtMatmulAlgoCheck(g->h, g->op, g->la, g->lb, g->lc, g->lc, &p->algo, &r);
	if (s != CUBLAS_STATUS_SUCCESS)
		return s;
	if (r.state != CUBLAS_STATUS_SUCCESS)
		return r.state;
	p->workspace = r.workspaceSize;
	if (p->workspace > g->ws_cap) {
		if (g->ws) {
			cudaError_t e = cudaFree(g->ws);
			if (e != cudaSuccess)
				die("cudaFree(cuBLASLt workspace): %s", cudaGetErrorString(e));
			g->ws = NULL;
			g->ws_cap = 0;
		}
		if (cudaMalloc(&g->ws, p->workspace) != cudaSuccess) {
			(void)cudaGetLastError();
			g->ws = NULL;
			*what = "workspace";
			return CUBLAS_STATUS_ALLOC_FAILED;
		}
		g->ws_cap = p->workspace;
	}
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_gpu_run(lt_gpu *g, const lt_prep *p, const void *mat1, const void *mat2,
                          void *out)
{
	const float alpha = 1.0f, beta = 0.0f;
	return cublasLtMatmul(g->h, g->op, &alpha, mat2, g->la, mat1, g->lb, &beta, out, g->lc,
	                      out, g->lc, &p->algo, p->workspace ? g->ws : NULL, p->workspace, 0);
}

/* The attributes of an algorithm descriptor. */
static void read_attrs(const cublasLtMatmulAlgo_t *al, lt_algo *a)
{
	int32_t id, splitk;
	uint32_t tile, stages, red, swz, custom;
	uint16_t inner, cluster;
	size_t w;
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &red, sizeof red, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &swz, sizeof swz, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &custom, sizeof custom, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, &inner, sizeof inner, &w));
	LT_OK(cublasLtMatmulAlgoConfigGetAttribute(al, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cluster, sizeof cluster, &w));
	a->algo = id;
	a->tile = tile;
	a->stages = stages;
	a->splitk = splitk;
	a->reduction = red;
	a->swizzle = swz;
	a->custom = custom;
	a->inner = inner;
	a->cluster = cluster;
}

int lt_gpu_heuristic(lt_gpu *g, int n, lt_algo *out, int *rebuilt)
{
	if (!g->have)
		die("internal: lt_gpu_heuristic without a problem");
	cublasLtMatmulPreference_t pref;
	size_t wsmax = LT_HEURISTIC_WORKSPACE;
	LT_OK(cublasLtMatmulPreferenceCreate(&pref));
	LT_OK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
	                                           &wsmax, sizeof wsmax));
	cublasLtMatmulHeuristicResult_t *r = xcalloc((size_t)n, sizeof *r);
	int got = 0, cnt = 0;
	cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(g->h, g->op, g->la, g->lb, g->lc, g->lc,
	                                                  pref, n, r, &got);
	if (s != CUBLAS_STATUS_SUCCESS) {
		/* NOT_SUPPORTED: no algorithm for this problem; anything else
		 * (e.g. INVALID_VALUE for a size it refuses) likewise counts as
		 * none, with a message: one input must not stop a discovery */
		if (s != CUBLAS_STATUS_NOT_SUPPORTED)
			fprintf(stderr, "bench: cublasLtMatmulAlgoGetHeuristic (%" PRId64 "x%" PRId64
			        "x%" PRId64 "): %s; no algorithms for this input\n", g->m, g->k, g->n,
			        cublasGetStatusString(s));
		got = 0;
	}
	for (int i = 0; i < got && i < n; i++) {
		if (r[i].state != CUBLAS_STATUS_SUCCESS)
			continue;
		read_attrs(&r[i].algo, &out[cnt]);
		cublasLtMatmulAlgo_t rb;
		cublasLtMatmulHeuristicResult_t c;
		const char *what;
		memset(&c, 0, sizeof c);
		rebuilt[cnt] = rebuild(g, &out[cnt], &rb, &what) == CUBLAS_STATUS_SUCCESS &&
		               cublasLtMatmulAlgoCheck(g->h, g->op, g->la, g->lb, g->lc, g->lc, &rb,
		                                       &c) == CUBLAS_STATUS_SUCCESS &&
		               c.state == CUBLAS_STATUS_SUCCESS && !memcmp(&rb, &r[i].algo, sizeof rb);
		cnt++;
	}
	free(r);
	LT_OK(cublasLtMatmulPreferenceDestroy(pref));
	return cnt;
}

int lt_gpu_first(lt_gpu *g, const char *id, unsigned cls)
{
	char key[LT_ID_MAX + 16];
	snprintf(key, sizeof key, "%s|%u", id, cls);
	for (size_t i = 0; i < g->nseen; i++)
		if (!strcmp(g->seen[i], key))
			return 0;
	xgrow((void **)&g->seen, &g->capseen, g->nseen + 1, sizeof *g->seen);
	g->seen[g->nseen++] = xstrdup(key);
	return 1;
}

/* Per input, each listed algorithm is rebuilt from its attributes and
 * checked (cublasLtMatmulAlgoCheck; rejected -> inf, one message per
 * (algorithm, dtype)), with a workspace of the size the check asks for
 * (one buffer, grown); m->ltp is then the candidate being measured. */
static int lt_ops_prepare(void *st, measurer *m, const bench_input *in, const bench_cand *cd,
                          const cuda_bufs *bf, cand_ready *r)
{
	(void)st;
	(void)bf;
	if (!m->lt)
		m->lt = lt_gpu_open();
	lt_gpu_problem(m->lt, in);
	const char *what;
	cublasStatus_t s = lt_gpu_prepare(m->lt, &cd->alg, &m->ltp, &what);
	if (s != CUBLAS_STATUS_SUCCESS) {
		m->s.n_lt_rejected++;
		unsigned cls = lt_dtype_class(in->dtype, in->tf32);
		if (lt_gpu_first(m->lt, cd->id, cls))
			fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%"
			        PRId64 " %s ta=%d tb=%d): %s: %s: %s; inf (not repeated for "
			        "other %s inputs)\n", in->id, in->m, in->k, in->n,
			        lt_class_name(cls), in->ta, in->tb, cd->id, what,
			        cublasGetStatusString(s), lt_class_name(cls));
		return -1;
	}
	r->h = &m->ltp;
	return 0;
}

static int lt_ops_run(void *st, measurer *m, const bench_input *in, const bench_cand *c,
                      const cand_ready *r, const cuda_bufs *bf, int i, void *out)
{
	(void)st;
	cublasStatus_t s = lt_gpu_run(m->lt, r->h, bf->A[i], bf->B[i], out);
	if (s != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: cublasLtMatmul: %s\n",
		        in->id, c->id, cublasGetStatusString(s));
		return -1;
	}
	return 0;
}

const bench_gpu_ops lt_gpu_ops = { .prepare = lt_ops_prepare, .run = lt_ops_run };
