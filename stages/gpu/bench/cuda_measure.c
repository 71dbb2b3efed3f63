/* cuda_measure.c — the CUDA measurer's measure_input (measure.h): one
 * input's operands, the cuBLAS reference, screening (cuda_screen.c), then
 * every candidate verified and timed at full size with adaptive
 * repetitions (cuda.c's header comment has the timing rules). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "cuda.h"
#include "screen.h"
#include "core/util.h"

/* One input being measured. */
typedef struct {
	const bench_input *in;
	const bench_cand *c;
	int nc, reps;
	double *fb;                /* fb[rep*nc + c], measure_input's */
	cuda_bufs bf;
	cuda_aux aux;
	int have_ref;              /* extern_mm ran and wrote finite values */
	int full_ref;              /* bf.R holds cuBLAS's result for in (not a slice) */
	int long_input;            /* the reference time is >= 1 ms */
	double best;               /* running best first repetition (ms) */
} input_run;

static void free_bufs(cuda_bufs *bf)
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

/* The operands of x->in, each allocated by its strided span (padded
 * leading dimensions included) and filled with random values over the
 * whole span: copies enough for >= 2x L2 when A+B fit in it (one when the
 * back end flushes L2 itself, backend.h one_copy, or with --clock warm).  Returns 0, or -1 when
 * out of device memory (said on stderr; the buffers are then to be
 * freed). */
static int bufs_setup(measurer *m, input_run *x)
{
	const bench_input *in = x->in;
	const size_t sz = (size_t)dtype_size(in->dtype);
	const size_t mk = (size_t)in->span1, kn = (size_t)in->span2,
	             mn = (size_t)(in->m * in->n);
	const size_t ab = (mk + kn) * sz;
	cuda_bufs *bf = &x->bf;
	bf->nbuf = 1;
	/* one copy: a back end that flushes L2 itself, or --clock warm */
	int one = (m->be->gpu->one_copy && cuda_own_time(m)) || m->o.clock == BENCH_CLOCK_WARM;
	if (ab < (size_t)m->dev.l2_bytes && !one) {
		size_t want = (2 * (size_t)m->dev.l2_bytes + ab - 1) / ab;
		bf->nbuf = (int)(want > 64 ? 64 : want < 2 ? 2 : want);
	}
	bf->A = xcalloc((size_t)bf->nbuf, sizeof *bf->A);
	bf->B = xcalloc((size_t)bf->nbuf, sizeof *bf->B);
	int oom = try_malloc(&bf->C, mn * sz) || try_malloc(&bf->R, mn * sz);
	for (int i = 0; i < bf->nbuf && !oom; i++)
		oom = try_malloc(&bf->A[i], mk * sz) || try_malloc(&bf->B[i], kn * sz);
	if (oom) {
		fprintf(stderr, "bench: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%" PRId64
		        " %s): out of device memory; all candidates inf\n",
		        in->id, in->m, in->k, in->n, dtype_torch(in->dtype));
		m->s.n_oom++;
		return -1;
	}
	for (int i = 0; i < bf->nbuf; i++) {
		long long n1 = (long long)mk, n2 = (long long)kn;
		unsigned long long s1 = (unsigned long long)(in->id * 1000 + 2 * i + 1),
		                   s2 = (unsigned long long)(in->id * 1000 + 2 * i + 2);
		void *a1[] = { &bf->A[i], &n1, &s1 }, *a2[] = { &bf->B[i], &n2, &s2 };
		cuda_launch_aux(m, x->aux.fill, 4096, a1);
		cuda_launch_aux(m, x->aux.fill, 4096, a2);
	}
	CUDA_OK(cudaDeviceSynchronize());
	return 0;
}

/* cuBLAS's result for the input into bf.R, on operand copy 0, timed:
 * returns the reference time in ms (+inf if extern_mm failed) and sets
 * have_ref and long_input. */
static double reference(measurer *m, input_run *x)
{
	const bench_input *in = x->in;
	const size_t mn = (size_t)(in->m * in->n) * (size_t)dtype_size(in->dtype);
	const cand_ready none = { NULL, NULL };
	double ref_ms = INFINITY;
	CUDA_OK(cudaMemset(x->bf.R, 0xFF, mn));
	CUDA_OK(cudaEventRecord(m->e0, 0));
	if (cuda_run(m, in, &x->c[0], &none, &x->bf, 0, x->bf.R) == 0) {
		CUDA_OK(cudaEventRecord(m->e1, 0));
		cudaError_t e = cudaDeviceSynchronize();
		if (e == cudaSuccess) {
			float rms;
			CUDA_OK(cudaEventElapsedTime(&rms, m->e0, m->e1));
			x->long_input = rms >= 1.0f;
			ref_ms = rms;
			x->have_ref = 1;
			if (!isfinite(cuda_rel_error(m, &x->aux, in, x->bf.R, x->bf.R))) {
				fprintf(stderr, "bench: input %" PRId64 ": extern_mm wrote non-finite "
				        "values; no verification on this input\n", in->id);
				x->have_ref = 0;
			}
		} else {
			cuda_check_context(m, "extern_mm");
		}
	} else {
		cuda_check_context(m, "extern_mm");
	}
	/* The reference call is the input's first: it pays for cold buffers
	 * and for cuBLAS loading its kernel, so it can take milliseconds on a
	 * problem that runs in a fraction of one.  When it reaches a threshold
	 * that matters (1 ms, the long-input rule above, or --screen-ms), a
	 * second, warm call (into C, R keeps the reference) decides instead.
	 * It uses buffer set 0 like the first: operands that fit in L2 are
	 * then cached, which on a problem of >= 1 ms lowers the time little. */
	double warm_at = m->o.screen > 0 && m->o.screen_ms < 1.0 ? m->o.screen_ms : 1.0;
	if (x->have_ref && ref_ms >= warm_at) {
		float rms;
		CUDA_OK(cudaEventRecord(m->e0, 0));
		int ok = cuda_run(m, in, &x->c[0], &none, &x->bf, 0, x->bf.C) == 0;
		if (ok) {
			CUDA_OK(cudaEventRecord(m->e1, 0));
			ok = cudaDeviceSynchronize() == cudaSuccess;
		}
		if (ok) {
			CUDA_OK(cudaEventElapsedTime(&rms, m->e0, m->e1));
			m->s.n_ref_warm++;
			if (rms < ref_ms)
				ref_ms = rms;
			x->long_input = ref_ms >= 1.0;
		} else {
			cuda_check_context(m, "extern_mm (warm reference call)");
			fprintf(stderr, "bench: input %" PRId64 ": the warm reference call failed; "
			        "the cold time decides\n", in->id);
		}
	}
	return ref_ms;
}

/* A full-size timing t (ms) of the input in flight: the loser cut's best
 * so far (cuda.h input_best; NaN and inf are no timing). */
static void input_best_add(measurer *m, double t)
{
	if (isfinite(t) && t < m->input_best)
		m->input_best = t;
}

/* The repetitions of candidate ci at full size into x->fb, after its
 * verification (on the slice when screened); its call, timed, doubles as
 * the warm-up call.  Failures leave it inf. */
static void full_size(measurer *m, input_run *x, int ci)
{
	const bench_input *in = x->in;
	const bench_cand *cd = &x->c[ci];
	const int nc = x->nc, reps = x->reps;
	double *fb = x->fb;
	cand_ready r;
	if (cuda_prepare(m, in, cd, &x->bf, &r) != 0)
		return;
	if (cd->is_extern && !x->have_ref)
		return; /* cuBLAS failed above: extern_mm is inf */
	float warm_ms = -1;
	if (!cd->is_extern && cuda_verify(m, &x->aux, in, cd, &r, &x->bf, x->full_ref, &warm_ms) != 0)
		return;
	/* warm-up call, timed to pick n_iter, unless verification just
	 * made one or the input is long (the reference time >= 1 ms) and
	 * this kernel has run before in this process: a warm GPU running
	 * a loaded kernel for >= 1 ms gains nothing from another call */
	double tt = mono_s();
	float ms = warm_ms;
	int warm_done = warm_ms >= 0 || (x->long_input && (!r.launched || *r.launched)) ||
	                cuda_own_time(m); /* a back end's time() warms up itself */
	double t = 0;
	if (!warm_done) {
		t = cuda_time_rep(m, in, cd, &r, &x->bf, 1);
		ms = (float)t;
	}
	if (r.launched && t >= 0)
		*r.launched = 1;
	/* first repetition; the others only if bench_full_reps says so; a back
	 * end's time() may take the verification call as its warm-up */
	m->verify_ms = warm_ms >= 0 ? warm_ms : NAN;
	if (t >= 0)
		t = cuda_time_rep(m, in, cd, &r, &x->bf, ms >= 0 ? cuda_iters_for(ms) : 1);
	m->verify_ms = NAN;
	if (t >= 0) {
		fb[ci] = t;
		if (t < x->best)
			x->best = t;
		input_best_add(m, t);
		if (!bench_full_reps(t, x->best, m->o.fast_reject)) {
			for (int q = 1; q < reps; q++)
				fb[(size_t)q * nc + ci] = NAN;
		} else {
			int n_iter = cuda_iters_for(t);
			for (int q = 1; q < reps && t >= 0; q++) {
				t = cuda_time_rep(m, in, cd, &r, &x->bf, n_iter);
				fb[(size_t)q * nc + ci] = t;
				if (t >= 0)
					input_best_add(m, t);
			}
			if (t < 0) {
				/* a later repetition failed: the candidate is inf,
				 * one row, and the running best forgets it */
				cuda_mark_failed(fb, nc, ci, reps, m->o.fast_reject);
				x->best = INFINITY;
				for (int q = 0; q <= ci; q++)
					if (fb[q] < x->best)
						x->best = fb[q];
				/* likewise the loser cut's best, over every repetition */
				m->input_best = INFINITY;
				for (size_t q = 0; q < (size_t)reps * (size_t)nc; q++)
					input_best_add(m, fb[q]);
			}
		}
	}
	if (cd->is_extern)
		m->s.t_time_extern += mono_s() - tt;
	else if (cd->lt)
		m->s.t_time_lt += mono_s() - tt;
	else
		m->s.t_time_nvrtc += mono_s() - tt;
}

void measure_input(measurer *m, const bench_input *in, const bench_cand *c, int nc, int reps,
                   double *fb)
{
	input_run x;
	memset(&x, 0, sizeof x);
	x.in = in;
	x.c = c;
	x.nc = nc;
	x.reps = reps;
	x.fb = fb;
	x.best = INFINITY;
	m->input_best = INFINITY;
	for (int i = 0; i < nc; i++)
		cuda_mark_failed(fb, nc, i, reps, m->o.fast_reject);
	m->s.n_inputs++;
	x.aux = nvrtc_aux(m, in->dtype);

	double t0 = mono_s();
	if (bufs_setup(m, &x) != 0) {
		free_bufs(&x.bf);
		return;
	}
	double t1 = mono_s();
	m->s.t_setup += t1 - t0;
	double ref_ms = reference(m, &x);
	m->s.t_ref += mono_s() - t1;

	/* screening of a long input: verification and a first timing on a slice */
	unsigned char verdict[BENCH_MAX_CAND];
	double st[BENCH_MAX_CAND];
	memset(verdict, SCR_TIME, (size_t)nc);
	bench_input sl;
	int screened = m->o.screen > 0 && x.have_ref &&
	               bench_screen_slice(in, ref_ms, m->o.screen_ms, &sl);
	x.full_ref = x.have_ref && !screened;
	if (screened && cuda_screen_pass(m, &x.aux, in, &sl, c, nc, reps, &x.bf, verdict, fb, st))
		screened = 0;

	for (int ci = 0; ci < nc; ci++) {
		if (verdict[ci] == SCR_FAILED)
			continue; /* inf: failed on the slice */
		if (verdict[ci] == SCR_OUT && !m->o.screen_audit) {
			for (int r = 0; r < reps; r++)
				fb[(size_t)r * nc + ci] = NAN; /* no row */
			continue;
		}
		full_size(m, &x, ci);
	}
	if (screened && m->o.screen_audit)
		cuda_screen_audit(m, in, &sl, c, nc, verdict, st, fb);
	double tf = mono_s();
	free_bufs(&x.bf);
	m->s.t_setup += mono_s() - tf;
}
