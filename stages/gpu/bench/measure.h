/* measure.h — the measurer: what the bench driver times candidates with.
 * One implementation per binary: the CUDA measurer (cuda*.c, linked into
 * build/bin/bench: cuBLAS, cuBLASLt and the --template back end's GPU half,
 * backend.h) or the deterministic fake (fake.c, build/bin/bench-fake: made-up
 * times, so logging and resumption are tested without a GPU).  Both apply
 * the same rules: adaptive repetitions (block.h bench_full_reps) and
 * screening (screen.h).
 */
#ifndef MMRANK_BENCH_MEASURE_H
#define MMRANK_BENCH_MEASURE_H

#include <stdint.h>
#include <stdio.h>

#include "plan.h"

/* Options shared by the driver and the measurers. */
typedef struct {
	int device;                /* CUDA ordinal */
	int shard, nshards;
	int reps;
	const char *kernels;       /* directory of the templates and config lists */
	const char *cache;         /* cubin cache directory */
	int verify_all;
	int bad_kernel;            /* compile with MMRANK_BUG: 1 only in the test
	                              build bench-bug (-DMMRANK_TEST_BAD_KERNEL) */
	double fake_delay_ms;      /* bench-fake only: sleep per input */
	int fake_fail;             /* bench-fake only: fail every Nth candidate */
	int fake_cap;              /* bench-fake only: capability major (0: 9) */
	const char *compile_arch;  /* --compile-only ARCH */
	const char *triton_cubins; /* --triton-cubins DIR: the Triton back end's cubin
	                              folder (python3 -m mmrank.bench.triton_aot
	                              --entry-dir) */
	double fast_reject;        /* --fast-reject F (adaptive repetitions, see
	                              bench_full_reps); 0: every candidate all reps */
	double screen;             /* --screen B (screening of long inputs, see
	                              screen.h); 0: off */
	double screen_ms;          /* --screen-ms T: screen inputs whose cuBLAS
	                              reference call takes >= T ms */
	int screen_audit;          /* --screen-audit: screen, but still time every
	                              candidate at full size and count the misses */
	double long_ms;            /* --long-ms T: the long-kernel rule of a back end
	                              timed as Inductor times (stages/gpu/policy/ttsched.h);
	                              0: off, and for the other back ends */
	int long_launches;         /* --long-launches N: its flushed launches */
	double loser_ratio;        /* --loser-ratio L: the loser cut of a back end timed
	                              as Inductor times (stages/gpu/policy/ttsched.h), against
	                              the input's best time so far; 0: off (the default) */
	int warm_from_verify;      /* --warm-from-verify: a back end timed as Inductor
	                              times takes a choice's verification call on the
	                              input as its first timing's warm-up
	                              (stages/gpu/policy/ttsched.h); 0: off (the default) */
	double verify_cut;         /* --verify-cut S: the verification cut
	                              (stages/gpu/policy/ttsched.h); 0: off (the default) */
	int verify_cut_audit;      /* --verify-cut-audit K: every K-th timing it would
	                              take is audited (0: none) */
	int clock;                 /* --clock: how a back end timed as Inductor times
	                              is timed instead (BENCH_CLOCK_*) */
} bench_opts;

/* --clock of a back end timed as Inductor times (--template triton):
 * INDUCTOR its benchmarker (triton_timing.h: an L2 flush, one event pair
 * per launch, the minimum); ROTATE bench's own clock, as the other back
 * ends (cuda_time_rep: back-to-back calls over operand copies of >= 2x
 * L2 when mat1 + mat2 fit in it, one event pair around them, ms per
 * call); WARM the same over one copy (the operands stay in L2 as far as
 * they fit).  docs/STAGES.md "bench" says which agrees with the graph. */
enum { BENCH_CLOCK_INDUCTOR, BENCH_CLOCK_ROTATE, BENCH_CLOCK_WARM };
extern const char *const bench_clock_names[]; /* args.c; NULL-terminated */

/* Device facts that go into the metadata line and the plan. */
typedef struct {
	int64_t smem_optin;        /* bytes, max shared memory per block (opt-in) */
	int cap_major, cap_minor;
	int64_t l2_bytes;
	int64_t total_mem;         /* bytes */
	char name[256];
} bench_device;

struct bench_backend;
typedef struct measurer measurer;

/* "cuda" or "fake" */
const char *measure_kind(void);

/* Open device o->device for back end be (its GPU half, backend.h); fills
 * dev.  Dies with a clear message when there is no usable GPU. */
measurer *measure_open(const bench_opts *o, const struct bench_backend *be, bench_device *dev);

/* Measure every candidate of one input.  fb[rep*nc + c]: ms per call (CUDA
 * events), +inf on a failure (compile error, launch failure, OOM, wrong
 * result; a message goes to stderr), NaN for repetitions >= 1 that
 * bench_full_reps(.., o->fast_reject) skips and for every repetition of a
 * candidate screened out (screen.h).  Dies only if the device is unusable
 * afterwards (sticky CUDA error). */
void measure_input(measurer *m, const bench_input *in, const bench_cand *c, int nc, int reps,
                   double *fb);

/* The GPU half's describe() lines ("key\tvalue\n": what its open() loaded,
 * e.g. the Triton version of the cubins; backend.h), none in the fake. */
void measure_describe(measurer *m, FILE *fp);

/* Print the time breakdown (compile, load, setup, verification, timing)
 * as "key\tvalue" lines. */
void measure_stats(measurer *m, FILE *fp);
void measure_close(measurer *m);

/* --compile-only ARCH: fill the cubin cache without a GPU for back end be
 * with config lists lists, for every (shrunk config, dtype) a problem can
 * produce, or (ins != NULL) only for the nins inputs given.  Returns the
 * number of cubins compiled.  The fake dies (it has no compiler). */
int measure_precompile(const bench_opts *o, const struct bench_backend *be, const void *lists,
                       const bench_input *ins, int64_t nins);

/* bench --lt-discover: cublasLtMatmulAlgoGetHeuristic's top n algorithms
 * (best first) for input in, problem as extern_mm's (cuda_lt.h), into out
 * (n entries).  Returns the count (0: the heuristic has none).  The fake
 * answers a deterministic made-up list. */
int measure_lt_heuristic(measurer *m, const bench_input *in, int n, lt_algo *out);

#endif
