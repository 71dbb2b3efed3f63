/* fake.c — the fake measurer (measure.h): a deterministic stand-in for the
 * CUDA measurer, linked into build/bin/bench-fake for CPU tests of logging
 * and resumption (check/t4100-bench-cpu.sh).  It times the candidates of
 * every back end's plan itself (their GPU halves are not linked).  Reports
 * the device of the GPU table's '*' row (datasets/GPUS.tsv, gen/gpus.h: the
 * facts assumed for a GPU without a row; --fake-capability sets the major).
 * The "time" of a candidate is a pure function of (input features, choice
 * id, repetition), log-uniform over 23 decades of ms to exercise number
 * formatting, so two runs give byte-identical logs.  Adaptive repetitions
 * (--fast-reject) follow bench_full_reps exactly as the CUDA measurer does;
 * screening (--screen) follows bench_screen_slice/verdicts with a slice
 * time of the full time times the slice's share of m*k.  --fake-fail N
 * makes every candidate whose hash % N == 0 fail (inf, message on stderr);
 * --fake-delay-ms D sleeps D ms per input (to be killed mid-run).  cuBLASLt
 * choices (--cublaslt) are timed like the others; --lt-discover gets a
 * made-up heuristic answer (measure_lt_heuristic).  For a back end timed as
 * Inductor times (backend.h inductor_timing: --template triton) every timed
 * repetition follows tt_schedule (stages/gpu/policy/ttsched.h, the long-kernel
 * rule of --long-ms) as the CUDA measurer's tt_time does, with the made-up
 * time as every launch's and 1.5 x it as the warm-up call's (a first-call
 * cost, so that the rule's fallback is taken too); the times logged do not
 * depend on it, --stats counts long_choices, long_fallbacks and
 * timed_launches (the calls the schedule makes, warm-up included).
 * With --loser-ratio L the schedule gets the input's best made-up time so
 * far (over every repetition timed before, as cuda_measure.c keeps it) and
 * the made-up time as the probe's: a repetition is a loser when its time
 * is >= L x that best, a loser fallback when only its warm-up (1.5 x the
 * time) is; --stats counts loser_choices and loser_fallbacks.  With
 * --warm-from-verify the first repetition of every choice but extern_mm
 * (verified just before, as cuda_verify does on every input for this back
 * end) takes the verification call, of the warm-up call's made-up time, as
 * its warm-up (tt_warm_reused): one timed call
 * fewer, the same schedule otherwise; --stats counts warm_from_verify.
 * With --verify-cut S (and its --verify-cut-audit K) that verification
 * call's made-up time, 1.5 x the time, decides the cut (>= S x best and >=
 * --long-ms) and the probe's, the time, an audit (vcutstats.h: the ratio is
 * always 1.5); the log still holds the made-up time (on a GPU a cut choice
 * logs its verification call's time). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "block.h"
#include "measure.h"
#include "screen.h"
#include "gpu/policy/ttsched.h"
#include "gpu/policy/vcutstats.h"
#include "core/util.h"
#include "gen/gpus.h"

struct measurer {
	bench_opts o;
	int inductor_timing;       /* the back end's (backend.h) */
	tt_params tp;              /* its schedule's parameters, --long-ms included */
	int64_t inputs, fails, screened, screened_out, misses, longs, long_fallbacks, calls,
	        losers, loser_fallbacks, warm_reused;
	long long vcut_seen;       /* timings the verification cut would take (audit) */
	tt_vcut_stats vcut;
};

const char *measure_kind(void) { return "fake"; }

measurer *measure_open(const bench_opts *o, const struct bench_backend *be, bench_device *dev)
{
	measurer *b = xcalloc(1, sizeof *b);
	b->o = *o;
	b->inductor_timing = be->plan->inductor_timing && o->clock == BENCH_CLOCK_INDUCTOR;
	b->tp = (tt_params)TT_PARAMS_INDUCTOR;
	b->tp.long_ms = o->long_ms;
	b->tp.long_launches = o->long_launches;
	b->tp.loser_ratio = o->loser_ratio;
	b->tp.warm_from_verify = o->warm_from_verify;
	b->tp.verify_cut = o->verify_cut;
	b->tp.verify_cut_audit = o->verify_cut_audit;
	dev->smem_optin = GPUS_DEFAULT_SHARED_MEMORY;
	dev->cap_major = o->fake_cap ? o->fake_cap : GPUS_DEFAULT_CAP_MAJOR;
	dev->cap_minor = o->fake_cap ? 0 : GPUS_DEFAULT_CAP_MINOR;
	dev->l2_bytes = 60 << 20;
	dev->total_mem = (int64_t)GPUS_DEFAULT_MEM_MIB << 20;
	snprintf(dev->name, sizeof dev->name, "fake device %d", o->device);
	return b;
}

/* The made-up time (ms) of candidate c on input in, repetition r: +inf
 * when --fake-fail picks it, else log-uniform over [1e-6, 1e17) ms (both of
 * Python's repr notations, fixed and exponent, in the log test). */
static double fake_time(const bench_input *in, const bench_cand *c, int r, int fake_fail)
{
	uint64_t h = fnv1a64(fnv1a64(FNV1A64_INIT, in->features, strlen(in->features)), c->id,
	                     strlen(c->id));
	if (fake_fail > 0 && !c->is_extern && h % (uint64_t)fake_fail == 0)
		return INFINITY;
	uint64_t hr = (h ^ (uint64_t)(r + 1)) * 0x9E3779B97F4A7C15ULL;
	double u = (double)(hr >> 11) / 9007199254740992.0;
	double v = pow(10.0, -6.0 + 23.0 * u);
	if (hr % 7 == 0)
		v = round(v * 1000.0) / 1000.0 + 1.0; /* short decimals */
	return v;
}

/* One timed repetition of made-up time v under Inductor's schedule (with
 * the long-kernel rule and the loser cut against best, the input's best
 * time so far; verified: the choice's verification call, of the warm-up
 * call's made-up time, was made just before), counted as tt_time's caller
 * counts it (triton_gpu.c); 128 events as there. */
static void fake_schedule(measurer *b, double v, double best, int verified)
{
	if (!b->inductor_timing || !isfinite(v))
		return;
	tt_known k = { 1.5 * v, v, v, v, best, tt_warm_reused(&b->tp, verified ? 1.5 * v : NAN), 0 };
	tt_sched s = tt_schedule_audited(&b->tp, &k, 128, &b->vcut_seen); /* as tt_time */
	tt_vcut_count(&b->vcut, &s, k.warm_ms / v);
	b->warm_reused += s.warm_reused;
	b->longs += s.is_long;
	b->long_fallbacks += s.long_tried && !s.is_long;
	b->losers += s.is_loser;
	b->loser_fallbacks += s.loser_tried && !s.is_loser;
	b->calls += tt_sched_calls(&s);
}

void measure_input(measurer *b, const bench_input *in, const bench_cand *c, int nc, int reps,
                   double *fb)
{
	if (b->o.fake_delay_ms > 0) {
		struct timespec ts;
		ts.tv_sec = (time_t)(b->o.fake_delay_ms / 1000);
		ts.tv_nsec = (long)(fmod(b->o.fake_delay_ms, 1000) * 1e6);
		while (nanosleep(&ts, &ts) != 0)
			;
	}
	/* the first repetition of every candidate (a pure function), then
	 * screening (bench_screen_slice/keep; the slice keeps the ratios) */
	double v0[BENCH_MAX_CAND];
	unsigned char keep[BENCH_MAX_CAND];
	for (int i = 0; i < nc; i++) {
		v0[i] = fake_time(in, &c[i], 0, b->o.fake_fail);
		keep[i] = 1;
	}
	bench_input sl;
	if (b->o.screen > 0 && nc > 0 && isfinite(v0[0]) &&
	    bench_screen_slice(in, v0[0], b->o.screen_ms, &sl)) {
		double f = (double)(sl.m * sl.k) / (double)(in->m * in->k), st[BENCH_MAX_CAND],
		       sbest, fbest = INFINITY;
		unsigned char kept[BENCH_MAX_CAND];
		for (int i = 0; i < nc; i++) {
			st[i] = v0[i] * f;
			if (v0[i] < fbest)
				fbest = v0[i];
		}
		b->screened++;
		b->screened_out += bench_screen_verdicts(c, nc, st, b->o.screen, kept, &sbest);
		for (int i = 0; i < nc; i++) {
			if (kept[i])
				continue;
			if (!b->o.screen_audit)
				keep[i] = 0;
			else if (bench_screen_miss(v0[i], fbest))
				b->misses++;
		}
	}
	double best = INFINITY, tbest = INFINITY; /* first repetitions; every timing */
	for (int i = 0; i < nc; i++) {
		if (!keep[i]) {
			for (int r = 0; r < reps; r++)
				fb[(size_t)r * nc + i] = NAN;
			continue;
		}
		if (isinf(v0[i])) {
			fprintf(stderr, "bench: input %lld: %s: fake failure\n",
			        (long long)in->id, c[i].id);
			b->fails++;
		}
		for (int r = 0; r < reps; r++) {
			double v = fake_time(in, &c[i], r, b->o.fake_fail);
			fb[(size_t)r * nc + i] = v;
			/* verified first (cuda_verify: every input for an Inductor-timed
			 * back end, which has no screening; extern_mm is the reference) */
			fake_schedule(b, v, tbest, r == 0 && !c[i].is_extern);
			if (v < tbest)
				tbest = v;
			if (r == 0) {
				if (v < best)
					best = v;
				if (!bench_full_reps(v, best, b->o.fast_reject)) {
					for (int q = 1; q < reps; q++)
						fb[(size_t)q * nc + i] = NAN;
					break;
				}
			}
		}
	}
	b->inputs++;
}

int measure_lt_heuristic(measurer *b, const bench_input *in, int n, lt_algo *out)
{
	/* a made-up heuristic: 0-8 distinct tuples of a pool of 12 per type
	 * class (float32 a "SIMT" algorithm, the others one shared by fp16,
	 * bf16 and, shifted, tf32), chosen by a hash of the features */
	(void)b;
	uint64_t h = fnv1a64(FNV1A64_INIT, in->features, strlen(in->features));
	unsigned cls = lt_dtype_class(in->dtype, in->tf32);
	if (h % 10 == 0)
		return 0;
	int cnt = 1 + (int)(h / 10 % 8), start = (int)((h >> 8) % 12);
	if (cnt > n)
		cnt = n;
	for (int j = 0; j < cnt; j++) {
		int idx = (start + 5 * j + (cls == LT_TF32 ? 4 : 0)) % 12;
		lt_algo *a = &out[j];
		memset(a, 0, sizeof *a);
		a->algo = cls == LT_F32 ? 21 : 66;
		a->tile = (uint32_t)(15 + idx);
		a->stages = (uint32_t)(8 + idx % 3);
		a->splitk = idx % 4 == 3 ? 2 : idx % 5 == 1 ? -1 : 1; /* -1 as on the H200 */
		a->reduction = a->splitk > 1 ? 1 : 0;
		a->swizzle = (uint32_t)(idx % 2);
		a->cluster = (uint32_t)(idx % 3);
	}
	return cnt;
}

void measure_stats(measurer *b, FILE *fp)
{
	fprintf(fp, "fake_inputs\t%lld\nfake_failures\t%lld\n",
	        (long long)b->inputs, (long long)b->fails);
	fprintf(fp, "screened_inputs\t%lld\nscreened_out\t%lld\nscreen_misses\t%lld\n",
	        (long long)b->screened, (long long)b->screened_out, (long long)b->misses);
	fprintf(fp, "timed_launches\t%lld\nlong_choices\t%lld\nlong_fallbacks\t%lld\n",
	        (long long)b->calls, (long long)b->longs, (long long)b->long_fallbacks);
	fprintf(fp, "loser_choices\t%lld\nloser_fallbacks\t%lld\n", (long long)b->losers,
	        (long long)b->loser_fallbacks);
	fprintf(fp, "warm_from_verify\t%lld\n", (long long)b->warm_reused);
	tt_vcut_print(fp, &b->vcut);
}

void measure_describe(measurer *b, FILE *fp)
{
	(void)b;
	(void)fp;
}

void measure_close(measurer *b) { free(b); }

int measure_precompile(const bench_opts *o, const struct bench_backend *be, const void *lists,
                       const bench_input *ins, int64_t nins)
{
	(void)o;
	(void)be;
	(void)lists;
	(void)ins;
	(void)nins;
	die("--compile-only needs the CUDA build (build/bin/bench)");
}
