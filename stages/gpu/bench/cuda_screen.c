/* cuda_screen.c — screening of long inputs on the GPU (screen.h has the
 * rules; cuda.h the interface): extern_mm and every template candidate
 * verified (first use) and timed on a slice of the input — the same
 * operand buffers and strides, k or m cut — and --screen-audit's report. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cuda.h"
#include "screen.h"
#include "core/util.h"

/* Screening (bench_screen_slice/verdicts): cuBLAS's result for the slice sl
 * into bf->R, then extern_mm and every template candidate timed on sl (after
 * first-use verification there, or a warm-up call); cuBLASLt choices are
 * not screened.  Sets verdict[c] to SCR_TIME (time at full size), SCR_OUT
 * (screened out) or SCR_FAILED (inf already in fb), and st[c] to the slice
 * time (ms; inf if not timed).  Returns 0, or -1 if
 * cuBLAS fails on the slice (then nothing is screened and bf->R is not a
 * reference for anything). */
int cuda_screen_pass(measurer *b, const cuda_aux *aux, const bench_input *in,
                     const bench_input *sl, const bench_cand *c, int nc, int reps,
                     cuda_bufs *bf, unsigned char *verdict, double *fb, double *st)
{
	const size_t sz = (size_t)dtype_size(sl->dtype), mn = (size_t)(sl->m * sl->n);
	const cand_ready none = { NULL, NULL };
	/* t_screen excludes the verifications made here (they count in t_verify) */
	double t0 = mono_s() - b->s.t_verify;
	memset(verdict, SCR_TIME, (size_t)nc);
	CUDA_OK(cudaMemset(bf->R, 0xFF, mn * sz));
	CUDA_OK(cudaEventRecord(b->e0, 0));
	float wms;
	int rc = cuda_run(b, sl, &c[0], &none, bf, 0, bf->R);
	CUDA_OK(cudaEventRecord(b->e1, 0));
	if (rc != 0 || cudaDeviceSynchronize() != cudaSuccess ||
	    !isfinite(cuda_rel_error(b, aux, sl, bf->R, bf->R))) {
		cuda_check_context(b, "extern_mm on the screening slice");
		fprintf(stderr, "bench: input %" PRId64 ": extern_mm failed on the screening slice; "
		        "not screened, not verified\n", sl->id);
		b->s.t_screen += mono_s() - b->s.t_verify - t0;
		return -1;
	}
	CUDA_OK(cudaEventElapsedTime(&wms, b->e0, b->e1));
	const int slice_long = wms >= 1.0f; /* cuBLAS on the slice >= 1 ms */
	st[0] = cuda_time_rep(b, sl, &c[0], &none, bf, cuda_iters_for(wms));
	for (int ci = 1; ci < nc; ci++) {
		const bench_cand *cd = &c[ci];
		st[ci] = INFINITY;
		if (cd->lt)
			continue;
		/* a repeated id (one config of both lists): the first copy's slice
		 * result, so both copies get one verdict (bench_screen_verdicts) */
		int first = -1;
		for (int j = 1; j < ci && first < 0; j++)
			if (!strcmp(c[j].id, cd->id))
				first = j;
		if (first >= 0) {
			st[ci] = st[first];
			if (verdict[first] == SCR_FAILED) {
				verdict[ci] = SCR_FAILED;
				cuda_mark_failed(fb, nc, ci, reps, b->o.fast_reject);
			}
			continue;
		}
		cand_ready r;
		float warm_ms;
		/* prepared for the full input: wgmma.cu's tensor maps describe
		 * the whole operands, the slice is the kernel's M, K */
		if (cuda_prepare(b, in, cd, bf, &r) != 0 ||
		    cuda_verify(b, aux, sl, cd, &r, bf, 1, &warm_ms) != 0) {
			verdict[ci] = SCR_FAILED;
			cuda_mark_failed(fb, nc, ci, reps, b->o.fast_reject);
			continue;
		}
		/* warm-up as in the full pass: none after a verification call,
		 * nor for a kernel that ran before when the slice is long */
		double w = warm_ms >= 0 ? warm_ms : (slice_long && (!r.launched || *r.launched)) ? 1.0
		         : cuda_time_rep(b, sl, cd, &r, bf, 1);
		double t = w >= 0 ? cuda_time_rep(b, sl, cd, &r, bf, cuda_iters_for(w)) : -1;
		if (r.launched)
			*r.launched = 1;
		if (t < 0) {
			verdict[ci] = SCR_FAILED;
			cuda_mark_failed(fb, nc, ci, reps, b->o.fast_reject);
			continue;
		}
		st[ci] = t;
	}
	unsigned char keep[BENCH_MAX_CAND];
	double best;
	bench_screen_verdicts(c, nc, st, b->o.screen, keep, &best);
	b->s.n_screened++;
	for (int ci = 1; ci < nc; ci++)
		if (verdict[ci] == SCR_TIME && !keep[ci]) {
			verdict[ci] = SCR_OUT;
			b->s.n_screened_out++;
		}
	b->s.t_screen += mono_s() - b->s.t_verify - t0;
	return 0;
}

/* --screen-audit: every candidate was timed at full size as well; one
 * stderr line per candidate screened out (its slice and full-size ratios
 * to the best), and a miss counted when it came within 2 % of the best
 * first repetition at full size. */
void cuda_screen_audit(measurer *b, const bench_input *in, const bench_input *sl,
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
		int miss = bench_screen_miss(fb[ci], fbest);
		b->s.n_screen_miss += miss;
		fprintf(stderr, "bench: screen-audit: input %" PRId64 " (%" PRId64 "x%" PRId64 "x%"
		        PRId64 " %s%s, slice %c=%" PRId64 "): %s: slice %.3f x best, full %.3f x "
		        "best%s\n", in->id, in->m, in->k, in->n, dtype_torch(in->dtype),
		        in->dtype == DT_F32 && in->tf32 ? " tf32" : "", sl->k != in->k ? 'k' : 'm',
		        sl->k != in->k ? sl->k : sl->m, c[ci].id, st[ci] / sbest, fb[ci] / fbest,
		        miss ? " MISS" : "");
	}
}
