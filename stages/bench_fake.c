/* bench_fake.c — deterministic stand-in for the CUDA back end of bench
 * (bench.h), linked into build/bin/bench-fake for CPU tests of logging and
 * resumption (check/test_bench_cpu.sh).  Reports an H100/H200-like device
 * (232448 B opt-in shared memory, capability 9.0).  The "time" of a
 * candidate is a pure function of (input features, choice id, repetition),
 * log-uniform over 23 decades of ms to exercise number formatting, so two
 * runs give byte-identical logs.  Adaptive repetitions (--fast-reject)
 * follow bench_full_reps exactly as the CUDA back end does.  --fake-fail N makes every candidate whose
 * hash % N == 0 fail (inf, message on stderr); --fake-delay-ms D sleeps D ms
 * per input (to be killed mid-run).  cuBLASLt choices (--cublaslt) are timed
 * like the others; --lt-discover gets a made-up heuristic answer
 * (backend_lt_heuristic). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "util.h"

struct bench_backend {
	bench_opts o;
	int64_t inputs, fails;
};

const char *backend_kind(void) { return "fake"; }

bench_backend *backend_open(const bench_opts *o, bench_device *dev)
{
	bench_backend *b = xcalloc(1, sizeof *b);
	b->o = *o;
	dev->smem_optin = 232448;
	dev->cap_major = o->fake_cap ? o->fake_cap : 9;
	dev->cap_minor = 0;
	dev->l2_bytes = 60 << 20;
	dev->total_mem = 143771LL << 20;
	snprintf(dev->name, sizeof dev->name, "fake device %d", o->device);
	return b;
}

void backend_measure(bench_backend *b, const bench_input *in,
                     const bench_cand *c, int nc, int reps, double *fb)
{
	if (b->o.fake_delay_ms > 0) {
		struct timespec ts;
		ts.tv_sec = (time_t)(b->o.fake_delay_ms / 1000);
		ts.tv_nsec = (long)(fmod(b->o.fake_delay_ms, 1000) * 1e6);
		while (nanosleep(&ts, &ts) != 0)
			;
	}
	double best = INFINITY;
	for (int i = 0; i < nc; i++) {
		uint64_t h = fnv1a64(fnv1a64(FNV1A64_INIT, in->features, strlen(in->features)), c[i].id,
		                     strlen(c[i].id));
		int fail = b->o.fake_fail > 0 && !c[i].is_extern && h % (uint64_t)b->o.fake_fail == 0;
		if (fail) {
			fprintf(stderr, "bench: input %lld: %s: fake failure\n",
			        (long long)in->id, c[i].id);
			b->fails++;
		}
		for (int r = 0; r < reps; r++) {
			uint64_t hr = (h ^ (uint64_t)(r + 1)) * 0x9E3779B97F4A7C15ULL;
			/* log-uniform over [1e-6, 1e17) ms: covers both of Python's
			 * repr notations (fixed and exponent) in the log test */
			double u = (double)(hr >> 11) / 9007199254740992.0;
			double v = pow(10.0, -6.0 + 23.0 * u);
			if (hr % 7 == 0)
				v = round(v * 1000.0) / 1000.0 + 1.0; /* short decimals */
			fb[(size_t)r * nc + i] = fail ? INFINITY : v;
			if (r == 0) {
				if (fb[i] < best)
					best = fb[i];
				if (!bench_full_reps(fb[i], best, b->o.fast_reject)) {
					for (int q = 1; q < reps; q++)
						fb[(size_t)q * nc + i] = NAN;
					break;
				}
			}
		}
	}
	b->inputs++;
}

int backend_lt_heuristic(bench_backend *b, const bench_input *in, int n, lt_algo *out)
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

void backend_stats(bench_backend *b, FILE *fp)
{
	fprintf(fp, "fake_inputs\t%lld\nfake_failures\t%lld\n",
	        (long long)b->inputs, (long long)b->fails);
}

void backend_close(bench_backend *b) { free(b); }

int backend_precompile(const bench_opts *o, const mm_config *cfgs, int ncfg,
                       const bench_input *ins, int64_t nins)
{
	(void)o;
	(void)cfgs;
	(void)ncfg;
	(void)ins;
	(void)nins;
	die("--compile-only needs the CUDA build (build/bin/bench)");
}
