/* triton_timing.h — time one GPU callable as Inductor's autotuner does
 * (torch 2.11 runtime/benchmarking.py, InductorBenchmarker.benchmark_gpu,
 * the default benchmarker since use_experimental_benchmarker = True,
 * config.py:462; kernels/INDUCTOR_MM.md "How Inductor times a choice"):
 *
 *   synchronize; one call (warm-up, catches failures; timed by an event
 *   pair, for the long-kernel rule); synchronize;
 *   a buffer of the device's L2 size, zeroed;
 *   estimation_iters (5) x { zero the buffer; event; call; event };
 *   estimate = the minimum of those;
 *   benchmark_iters = max(min(100, floor(25 ms / estimate)), 1);
 *   memory_warmup_iters (100) x { zero the buffer };
 *   benchmark_iters x { zero the buffer; event; call; event };
 *   result = min(estimate, the minimum of the benchmark pairs), in ms.
 *
 * With p->long_ms = T > 0 (bench --long-ms; ours, not Inductor's) a call
 * whose warm-up took >= T ms gets only p->long_launches flushed, timed
 * launches, their minimum the result, when that minimum is >= T too; else
 * the rest of Inductor's schedule follows (stages/gpu/policy/ttsched.h, the one
 * home of the counts: tt_schedule).
 *
 * With p->loser_ratio = L > 0 (bench --loser-ratio; ours, off by default)
 * and best_ms, the input's best time so far (its caller's bookkeeping;
 * NAN: none), a call whose warm-up took >= L x best_ms gets its first
 * flushed launch alone (the probe); if that took >= L x best_ms too, it is
 * the result (warm-up + 1 call), else the schedule goes on as without the
 * cut, the probe its first launch (tt_schedule).
 *
 * The statistic is the minimum over single launches, each after an L2
 * flush (the zeroing writes L2-size bytes), measured by one event pair per
 * launch.  The same routine times the Triton candidates and extern_mm
 * (cuBLAS) so that both see the same flushes and statistic.  Driver API
 * only: the callable gets the stream; a nonzero return is a failure.
 *
 * host_delay_us (default 0) spins the CPU that long between the start event
 * and the call: Inductor's calls are Python (the Triton launcher, or
 * torch.mm(out=)) and their host latency lands inside the event pair when
 * it exceeds the time the GPU spends on the flush; a C caller's does not.
 * It exists to measure that effect in the agreement study, not to hide it.
 *
 * With p->warm_from_verify (bench --warm-from-verify; ours, off by default)
 * and verify_ms >= 0, the time of the call that verified the choice on
 * this input just before (bench's cuda_verify: one call into the output,
 * event-timed, the same operands), the timing makes no warm-up call:
 * verify_ms is its warm-up time (stages/gpu/policy/ttsched.h
 * tt_warm_reused, the one home of that rule), everything after it as
 * above; one call fewer per verified choice.  Safe by construction: the
 * warm-up time decides nothing alone.  It only makes the long-kernel rule
 * or the loser cut try (warm-up >= T, >= L x best), and each confirms its
 * verdict with flushed, timed launches (first_ms >= T, probe_ms >= L x
 * best) before it shortens the schedule; otherwise Inductor's schedule
 * follows.  A verification call slower than a warm-up call (its output
 * poisoned first, no synchronisation just before it) can only make a rule
 * try where it would not have, costing the host's wait for those
 * launches; a faster one can hide a try, as a warm-up call's own noise can.
 *
 * With p->verify_cut = S (bench --verify-cut; ours, off by default; it
 * needs the loser cut, the long-kernel rule and the warm-up from
 * verification) a timing whose reused verification call took >= S x best_ms
 * and >= p->long_ms makes no call at all: that call's time is the result
 * (how->vcut; stages/gpu/policy/ttsched.h says what it trusts).  Every
 * p->verify_cut_audit-th such timing (the first included; b->vcut_seen
 * counts them) is audited instead: the loser cut's probe decides as
 * without the verification cut, and b->audit_ratio is the verification
 * call's time over the probe's (how->vcut_audited; a flip, where the
 * verification cut would have been wrong about the loser, is
 * vcut_audited && !is_loser).
 */
#ifndef MMRANK_TRITON_TIMING_H
#define MMRANK_TRITON_TIMING_H

#include <stddef.h>

#include <cuda.h>

#include "gpu/cuda/cudrv.h"
#include "gpu/policy/ttsched.h"

typedef int (*tt_call)(void *ctx, CUstream s);

/* tt_params, TT_PARAMS_INDUCTOR and the schedule: stages/gpu/policy/ttsched.h */

typedef struct {
	const cudrv *d;            /* the driver's functions (stages/gpu/cuda/cudrv.h) */
	CUstream s;
	CUdeviceptr flush;         /* L2-size buffer */
	size_t flush_words;        /* 32-bit words */
	CUevent *ev;               /* 2 * max_iters events */
	int max_iters;
	long long vcut_seen;       /* timings the verification cut would have taken
	                              (the audit's count, tt_schedule_audited) */
	double audit_ratio;        /* the last timing's verification call over its
	                              probe when it was audited (how->vcut_audited),
	                              else NAN */
} tt_bench;

/* Set up on the current context, calling the driver through d (kept in
 * b): the flush buffer (the device's CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
 * bytes, as torch's props.L2_cache_size), and events for up to max_iters
 * pairs.  Returns 0 or -1 with why[]. */
int tt_init(tt_bench *b, const cudrv *d, CUstream s, CUdevice dev, int max_iters, char *why,
            size_t whylen);
/* Returns 0, or -1 if a driver call failed. */
int tt_free(tt_bench *b);

/* Time call(ctx, s) with p (TT_PARAMS_INDUCTOR for Inductor's), best_ms
 * the input's best time so far for the loser cut (NAN: none; unused when
 * p->loser_ratio is 0), verify_ms the verification call's time for the
 * warm-up from verification (NAN: none, a warm-up call of its own; unused
 * unless p->warm_from_verify).  Returns 0 with *ms and, when how is not NULL,
 * *how: the schedule it followed (how->is_long: the long path,
 * how->is_loser: the loser cut's; tt_sched_calls: the calls made), or -1 with
 * why[] when the call fails (its warm-up call or any timed one) or a CUDA
 * call fails; after a failed kernel the context may be unusable (the caller
 * checks, as for any CUDA fault). */
int tt_time(tt_bench *b, const tt_params *p, tt_call call, void *ctx, double best_ms,
            double verify_ms, double *ms, tt_sched *how, char *why, size_t whylen);

#endif
