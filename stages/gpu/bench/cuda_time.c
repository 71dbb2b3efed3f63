/* cuda_time.c — one candidate on the GPU, whatever its back end (cuda.h):
 * dispatch to its GPU half, first-use verification against cuBLAS, and
 * timing (spec §1.3, ms per call: CUDA events around n_iter back-to-back
 * calls, n_iter so a repetition lasts >= ~1 ms, at most 100).
 * Verification: relative Frobenius error ||C - C_cublas|| / ||C_cublas||
 * with C poisoned (NaN) before the call; tolerance f32 1e-4, tf32 5e-3,
 * f16 5e-3, bf16 2e-2; done the first time per (candidate id, dtype, tf32,
 * transposes), or always with --verify-all or for a back end that verifies
 * every input (backend.h verify_each). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cuda.h"
#include "core/util.h"

const bench_gpu_ops *cuda_ops(const measurer *m, const bench_cand *c)
{
	return c->is_extern ? &extern_gpu : c->lt ? &lt_gpu_ops : m->be->gpu;
}

/* The state a GPU half's calls get. */
static void *ops_state(const measurer *m, const bench_gpu_ops *ops)
{
	return ops == m->be->gpu ? m->be_state : NULL;
}

int cuda_prepare(measurer *m, const bench_input *in, const bench_cand *c, const cuda_bufs *bf,
                 cand_ready *r)
{
	const bench_gpu_ops *ops = cuda_ops(m, c);
	r->h = NULL;
	r->launched = NULL;
	return ops->prepare ? ops->prepare(ops_state(m, ops), m, in, c, bf, r) : 0;
}

int cuda_run(measurer *m, const bench_input *in, const bench_cand *c, const cand_ready *r,
             const cuda_bufs *bf, int i, void *out)
{
	const bench_gpu_ops *ops = cuda_ops(m, c);
	return ops->run(ops_state(m, ops), m, in, c, r, bf, i, out);
}

void cuda_check_context(measurer *m, const char *what)
{
	(void)cudaGetLastError();
	cudaError_t e = cudaMemsetAsync(m->d_sums, 0, 3 * sizeof(double), 0);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	if (e != cudaSuccess)
		die("CUDA context unusable after %s: %s (rerun to resume; the input in flight is redone)",
		    what, cudaGetErrorString(e));
}

void cuda_mark_failed(double *fb, int nc, int ci, int reps, double alpha)
{
	fb[ci] = INFINITY;
	for (int r = 1; r < reps; r++)
		fb[(size_t)r * nc + ci] = alpha > 0 ? NAN : INFINITY;
}

void cuda_launch_aux(measurer *m, CUfunction f, unsigned blocks, void **args)
{
	CUresult r = m->drv.launch(f, blocks, 1, 1, 256, 1, 1, 0, 0, args, NULL);
	if (r != CUDA_SUCCESS)
		die("auxiliary kernel launch: %s", cudrv_err(&m->drv, r));
}

int cuda_own_time(const measurer *m)
{
	return m->be->gpu->time && m->o.clock == BENCH_CLOCK_INDUCTOR;
}

int cuda_iters_for(double ms)
{
	return ms >= 1.0 ? 1 : ms <= 0.01 ? 100 : (int)ceil(1.0 / ms);
}

double cuda_time_rep(measurer *m, const bench_input *in, const bench_cand *cd,
                     const cand_ready *r, cuda_bufs *bf, int n_iter)
{
	if (cuda_own_time(m))
		return m->be->gpu->time(m->be_state, m, in, cd, r, bf, n_iter);
	int fail = 0;
	CUDA_OK(cudaEventRecord(m->e0, 0));
	for (int it = 0; it < n_iter && !fail; it++) {
		bf->next = (bf->next + 1) % bf->nbuf;
		fail = cuda_run(m, in, cd, r, bf, bf->next, bf->C);
	}
	CUDA_OK(cudaEventRecord(m->e1, 0));
	cudaError_t e = cudaEventSynchronize(m->e1);
	if (fail || e != cudaSuccess) {
		if (e != cudaSuccess)
			fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", in->id, cd->id,
			        cudaGetErrorString(e));
		cuda_check_context(m, cd->id);
		m->s.n_launch_fail++;
		return -1;
	}
	float ms;
	CUDA_OK(cudaEventElapsedTime(&ms, m->e0, m->e1));
	m->s.n_launch += n_iter;
	double v = (double)ms / n_iter;
	return v > 0 ? v : 1e-6;
}

double cuda_rel_error(measurer *m, const cuda_aux *aux, const bench_input *p, void *out,
                      void *ref)
{
	double h[3];
	long long n = (long long)(p->m * p->n);
	CUDA_OK(cudaMemsetAsync(m->d_sums, 0, sizeof h, 0));
	void *args[] = { &out, &ref, &n, &m->d_sums };
	cuda_launch_aux(m, aux->cmp, 1024, args);
	CUDA_OK(cudaMemcpy(h, m->d_sums, sizeof h, cudaMemcpyDeviceToHost));
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

/* The verdict of key so far, or NULL; with add, a new entry for it. */
static vstate *find_vstate(measurer *m, uint64_t key, int add)
{
	for (size_t i = 0; i < m->nvs; i++)
		if (m->vs[i].key == key)
			return &m->vs[i];
	if (!add)
		return NULL;
	xgrow((void **)&m->vs, &m->capvs, m->nvs + 1, sizeof *m->vs);
	vstate *st = &m->vs[m->nvs++];
	st->key = key;
	return st;
}

int cuda_verify(measurer *m, const cuda_aux *aux, const bench_input *p, const bench_cand *cd,
                const cand_ready *r, cuda_bufs *bf, int have_ref, float *warm_ms)
{
	const size_t sz = (size_t)dtype_size(p->dtype), mn = (size_t)(p->m * p->n);
	char vk[256];
	*warm_ms = -1;
	/* tf32 is part of the key: a cuBLASLt algorithm offered for f32 and
	 * tf32 runs with another compute type and tolerance */
	snprintf(vk, sizeof vk, "%s|%d|%d|%d|%d", cd->id, p->dtype,
	         p->dtype == DT_F32 && p->tf32, p->ta, p->tb);
	uint64_t key = fnv1a64(FNV1A64_INIT, vk, strlen(vk));
	vstate *st = find_vstate(m, key, 0);
	/* a back end that verifies on every input judges each input alone */
	if (st && !st->ok && !m->be->gpu->verify_each) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: failed verification earlier for "
		        "this dtype/transposes; inf\n", p->id, cd->id);
		return -1;
	}
	if (!have_ref || (st && !m->o.verify_all && !m->be->gpu->verify_each))
		return 0;
	double tv = mono_s();
	CUDA_OK(cudaMemset(bf->C, 0xFF, mn * sz));
	CUDA_OK(cudaEventRecord(m->e0, 0));
	int rc = cuda_run(m, p, cd, r, bf, 0, bf->C);
	CUDA_OK(cudaEventRecord(m->e1, 0));
	cudaError_t e = rc == 0 ? cudaDeviceSynchronize() : cudaSuccess;
	if (rc == 0 && e == cudaSuccess)
		CUDA_OK(cudaEventElapsedTime(warm_ms, m->e0, m->e1));
	if (rc != 0 || e != cudaSuccess) {
		if (e != cudaSuccess)
			fprintf(stderr, "bench: input %" PRId64 ": %s: %s\n", p->id, cd->id,
			        cudaGetErrorString(e));
		cuda_check_context(m, cd->id);
		m->s.n_launch_fail++;
		m->s.t_verify += mono_s() - tv;
		return -1;
	}
	double err = cuda_rel_error(m, aux, p, bf->C, bf->R), tol = tolerance(p);
	m->s.n_verify++;
	int ok = err <= tol;
	if (!st)
		st = find_vstate(m, key, 1);
	st->ok = ok;
	m->s.t_verify += mono_s() - tv;
	if (!ok) {
		m->s.n_verify_fail++;
		fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%" PRId64
		        " %s ta=%d tb=%d): %s: wrong result, relative error %.3g > %.3g; inf\n",
		        p->id, p->m, p->k, p->n, dtype_torch(p->dtype), p->ta, p->tb, cd->id, err,
		        tol);
		return -1;
	}
	return 0;
}
