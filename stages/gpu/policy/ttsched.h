/* ttsched.h — how many launches one timing of a choice makes: the schedule
 * of Inductor's InductorBenchmarker.benchmark_gpu (torch 2.11
 * runtime/benchmarking.py; kernels/INDUCTOR_MM.md "How Inductor times a
 * choice"), our long-kernel rule (bench --long-ms) and our loser cut (bench
 * --loser-ratio), as pure functions of the times measured so far.  The one home of that decision:
 * stages/gpu/bench/triton_timing.c (tt_time, the GPU) follows it for every
 * choice, extern_mm included; bench-fake (stages/gpu/bench/fake.c) and
 * check/unit/ttsched_print.c evaluate it on the CPU.
 *
 * Inductor's schedule after its warm-up call: estimation_iters (5) timed
 * launches, each after an L2 flush; estimate = their minimum;
 * memory_warmup_iters (100) flushes; benchmark_iters =
 * max(min(100, floor(25 ms / estimate)), 1) timed launches; result =
 * min(estimate, the benchmark minimum).
 *
 * The long-kernel rule (long_ms = T > 0): when the warm-up call, timed by
 * an event pair, took >= T ms, only the first long_launches (N) of the
 * estimation launches are made first; if their minimum is >= T as well,
 * that minimum is the result (no more estimation launches, no memory
 * warm-up, no benchmark launches: N + 1 calls instead of 6 + benchmark);
 * if it is < T (the warm-up call was slowed by a first-call cost: module
 * loading, a library's first use), the remaining estimation launches and
 * everything after them follow as in Inductor's schedule, so the result is
 * exactly Inductor's.  T = 0 is Inductor's schedule.
 *
 * The loser cut (loser_ratio = L > 0, off by default): given the input's
 * best time so far, best (the smallest time of the choices, and
 * repetitions, of this input timed before this timing; extern_mm is timed
 * first, so it is known for every other choice), when best is finite and
 * > 0 and the warm-up call took >= L x best, the first flushed launch is
 * made alone (the probe); if it took >= L x best as well, it is the result
 * and nothing follows (2 calls in all, warm-up included, whatever the
 * long-kernel rule would have made: a long loser gets warm-up + 1, not
 * warm-up + N); if it is < L x best, the schedule goes on exactly as
 * without the cut, the probe counting as the first of its first launches
 * (the same calls, the same result: the minimum over them; the one
 * difference is the host's wait for the probe before the next launch is
 * queued, as for the long-kernel rule's first launches).  No best (NAN,
 * inf, <= 0) or L = 0: no cut.  Such a result is >= L x best >= L x the
 * input's final best, so with L > 1 / NEAR_BEST_RATIO (stages/formats/rules.h;
 * bench refuses a smaller L) it is never near-best (spec §5.2).  Times in ms.
 *
 * The warm-up from verification (warm_from_verify = 1, bench
 * --warm-from-verify, off by default): a choice verified on this input
 * just before its timing (bench's cuda_verify: one call, event-timed,
 * checked against cuBLAS) has made Inductor's warm-up call already; when
 * its time is given (>= 0), the timing makes no warm-up call of its own
 * and the verification's time is warm_ms (tt_warm_reused, the one home of
 * that rule; tt_sched_calls counts one call fewer).  It only
 * feeds the long-kernel rule's and the loser cut's tries: each verdict is
 * confirmed by flushed launches (first_ms, probe_ms), so a verification
 * call slower than a warm-up call would be can make a rule try, never
 * decide; everything after the warm-up is unchanged.
 *
 * The verification cut (verify_cut = S > 0, bench --verify-cut, off by
 * default; bench requires the loser cut with L <= S, the warm-up from
 * verification and the long-kernel rule): when the warm-up is the
 * verification call's (warm_reused) and took >= S x best and >= T ms, that
 * call's time is the result, no launch follows (vcut: 0 calls; never
 * near-best, as the loser cut's result).  The only rule that decides on an
 * unconfirmed call (no flush before it, maybe a first-call cost), so the
 * caller audits it (known.audit = 1, every verify_cut_audit-th timing it
 * would take: tt_schedule_audited): the cut is not taken (vcut_audited = 1) and
 * the loser cut's probe decides (kernels/INDUCTOR_MM.md section 5).
 */
#ifndef MMRANK_TTSCHED_H
#define MMRANK_TTSCHED_H

typedef struct {
	int estimation_iters;      /* 5 */
	int memory_warmup_iters;   /* 100 */
	int benchmark_iters;       /* 100 */
	double max_benchmark_ms;   /* 25 */
	double host_delay_us;      /* 0 (triton_timing.h; not part of the schedule) */
	double long_ms;            /* 0: off (Inductor's schedule); else T, ms */
	int long_launches;         /* N: flushed launches of the long path (2) */
	double loser_ratio;        /* 0: off; else L > 1: the loser cut */
	int warm_from_verify;      /* 1: a given verification call is the warm-up */
	double verify_cut;         /* 0: off; else S >= L: the verification cut */
	int verify_cut_audit;      /* K: audit every K-th (tt_schedule_audited; 0: none) */
} tt_params;

/* Inductor's parameters, the long-kernel rule, the loser cut and the
 * warm-up from verification off */
#define TT_PARAMS_INDUCTOR {5, 100, 100, 25.0, 0.0, 0.0, 2, 0.0, 0, 0.0, 0}
/* bench's defaults for --long-ms, --long-launches (docs/STAGES.md "bench" says why) */
#define TT_LONG_MS_DEFAULT 10.0
#define TT_LONG_LAUNCHES_DEFAULT 2

/* The launches of one timing after its warm-up call. */
typedef struct {
	int first;                 /* timed launches (each after a flush) right after the
	                              warm-up call, the probe included: 1 on a loser, N
	                              on a long candidate, else all estimation launches */
	int long_tried;            /* 1: the warm-up call took >= T ms (and the loser
	                              cut did not take the timing) */
	int is_long;               /* 1: the long path: nothing after the first launches */
	int estimation;            /* more estimation launches after the first ones */
	int memory_warmup;         /* flushes after the estimation */
	int benchmark;             /* timed launches after the memory warm-up */
	int probe;                 /* 1: the first of the first launches is made alone
	                              (loser_tried), 0: they go together */
	int loser_tried;           /* 1: the warm-up call took >= L x best */
	int is_loser;              /* 1: the loser path: the probe alone, nothing after */
	int warm_reused;           /* 1: no warm-up call: warm_ms is the verification's */
	int vcut;                  /* 1: the verification cut: warm_ms is the result */
	int vcut_audited;          /* 1: it would apply; audited: the probe decides */
} tt_sched;

/* What one timing knows when it asks for its schedule (ms). */
typedef struct {
	double warm_ms;            /* the warm-up call's time */
	double probe_ms;           /* the probe (NAN: not yet measured; the loser path
	                              is then assumed where the warm-up allows it) */
	double first_ms;           /* the minimum of the first launches, the probe
	                              included (NAN: not yet measured; the long path is
	                              then assumed where the warm-up allows it) */
	double est_ms;             /* the estimate, the minimum over all estimation
	                              launches (NAN: not yet measured; benchmark is
	                              then 0) */
	double best_ms;            /* the input's best time so far (NAN, inf or <= 0:
	                              none, no loser cut) */
	int warm_reused;           /* 1: warm_ms is the verification call's
	                              (tt_warm_reused): no warm-up call is made */
	int audit;                 /* 1: the verification cut is audited, not taken */
} tt_known;

/* The schedule, from what is known (k).  max_iters (>= 1): the most timed
 * launches one batch may have (the timer's events); every count is
 * clamped to it.  A pure function. */
tt_sched tt_schedule(const tt_params *p, const tt_known *k, int max_iters);

/* Timed calls the schedule makes in all, the warm-up call included (none
 * when s->warm_reused). */
int tt_sched_calls(const tt_sched *s);

/* 1 when a timing uses the verification call as its warm-up: p's
 * warm_from_verify is on, verify_ms (the verification call's time, ms;
 * NAN or < 0: none on this input) is given; else 0 (the timing makes its
 * own). */
int tt_warm_reused(const tt_params *p, double verify_ms);

/* tt_schedule with the verification cut's audit (tt_time and bench-fake
 * start with it): the n-th timing the cut would take (n = (*seen)++, from
 * 0) is audited when K = p->verify_cut_audit > 0 and n % K == 0: k->audit
 * is set and the schedule is the loser cut's. */
tt_sched tt_schedule_audited(const tt_params *p, tt_known *k, int max_iters, long long *seen);

#endif
