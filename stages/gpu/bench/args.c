/* args.c — bench's command line: the --help text, the options and their
 * checks (args.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "core/opts.h"
#include "formats/rules.h"
#include "gpu/policy/coolwait.h"
#include "gpu/policy/ttsched.h"
#include "core/util.h"

static const char synopsis[] =
BENCH_PROG " [options] -o LOG SHAPES   (or: " BENCH_PROG " [options] SHAPES LOG)\n"
"       " BENCH_PROG " --compile-only ARCH [--kernels DIR] [--cache DIR] [SHAPES]\n"
"       " BENCH_PROG " --lt-discover N [--lt-keep K] SHAPES LIST\n"
"       " BENCH_PROG " --lt-decode ID";

static const char about[] =
"Time extern_mm (cuBLAS) and every candidate of the --template back end on\n"
"each input of SHAPES in this shard, and append the rows to LOG.part,\n"
"renamed to LOG when the shard is complete (spec §1 log format; feedback in\n"
"ms per call; one row per (input, candidate, repetition)).  SHAPES is a shape\n"
"list (stages/FORMATS.md \"shape list\": a header naming its columns m k n\n"
"dtype, tf32 or using_tf32, the four strides and/or a layout; sample's\n"
"shapes.tsv is one); explicit strides are measured as given (padded leading\n"
"dimensions: operands allocated by their spans, cuBLAS and the kernels given\n"
"the strides) and logged as given.  A bad line is refused naming\n"
"file:line: field.  When the shard completes, LOG.versions.tsv records what\n"
"measured it (back end, its tables' torch version and its cubins' Triton\n"
"version, device).  Resumable: rerun the same command after a crash or kill;\n"
"at most the input in flight is lost.\n";

static const char notes[] =
"Progress goes to stderr (done/total, inputs/s, ETA).  Exit status: 0 done,\n"
"1 error (no GPU, bad input files, a log made with other settings), 2\n"
"stopped by --time-limit.\n";

/* the longer option texts */
static const char help_fast_reject[] =
	"adaptive repetitions (ours; default 1.5, 0 = off, every candidate R rows "
	"as the reference; else F >= 1/0.98, the near-best margin of "
	"stages/formats/rules.h): a candidate whose first timed repetition exceeds F x "
	"the best first repetition of the candidates before it (extern_mm first) "
	"is not repeated and has one row; it cannot be near-best (spec §5.2: "
	"within 2 %).  Part of the plan: resume with the same F";

static const char help_screen[] =
	"screening of long inputs (ours; default 1.3, 0 = off, every candidate "
	"timed at full size as the reference): on an input whose (warm) cuBLAS "
	"reference time is >= --screen-ms, extern_mm and each template candidate "
	"are first timed (and, on first use, verified) on a slice of the problem "
	"(k, or else m, cut to ~0.5 ms of cuBLAS, >= 2048); a candidate more than "
	"B x slower than the best there is not timed at full size and has no row "
	"in LOG (cuBLASLt choices are always timed).  Needs --reps >= 2 (off "
	"otherwise, with a message).  Part of the plan: resume with the same B";

static const char help_screen_ms[] =
	"screen inputs whose warm cuBLAS reference time is >= T ms (T > 0; "
	"default 2).  The CUDA measurer times a second cuBLAS call when the "
	"input's first, cold one reaches min(T, 1 ms) (1 ms without screening: "
	"the long-input rule), and the smaller time decides; --stats counts them "
	"as warm_reference_calls.  Part of the plan, like B (kept in "
	"LOG.part.plan until LOG is complete; a resume with other values is "
	"refused)";

static const char help_long_ms[] =
	"the long-kernel rule (ours; only for --template triton, whose choices, "
	"extern_mm included, are timed as Inductor times them; default 10, 0 = "
	"off = exactly Inductor's method): a choice whose warm-up call, timed by "
	"an event pair, takes >= T ms gets N (--long-launches) timed launches, "
	"each after an L2 flush, instead of Inductor's 5 estimation launches, 100 "
	"memory warm-up flushes and max(min(100, floor(25 ms / estimate)), 1) "
	"benchmark launches; the minimum of the N is its time when it is >= T ms "
	"too (else Inductor's remaining launches follow, and its time is "
	"Inductor's: a first call slowed by loading costs nothing).  Inductor "
	"itself makes only 6 or 7 timed launches of a choice >= 8.3 ms; at 10 ms "
	"the events' ~0.5 us resolution is 5e-5 of a time.  kernels/INDUCTOR_MM.md "
	"section 5 has the numbers.  --stats counts long_choices and "
	"long_fallbacks (warm-up >= T ms, launches < T ms).  Part of the plan: "
	"resume with the same T and N";

static const char help_cool_clock[] =
	"the cool-clock wait (ours, opt-in; only for --template triton; default "
	"0 = off, every choice timed right after the one before): before each "
	"timing of a choice, extern_mm included (one timing per repetition), wait "
	"in 2 ms sleeps, on an idle GPU, until its current SM clock (NVML "
	"nvmlDeviceGetClockInfo, NVML_CLOCK_SM; libnvidia-ml.so.1 loaded at run "
	"time, only then) is >= P percent of its maximum SM clock "
	"(nvmlDeviceGetMaxClockInfo), or --cool-max-ms C ms have passed.  P in "
	"percent (0-100, e.g. 95: 1881 of an H200's 1980 MHz).  Inductor's "
	"0.1-0.2 s of Python per choice lets the GPU return to its boost clock "
	"before each of its timings; timed back to back, large problems run at "
	"the power-limited clock (8-28 percent slower on an H200; "
	"kernels/INDUCTOR_MM.md section 5).  --stats counts cool_waits (timings "
	"that waited), cool_wait_s and cool_timeouts (waits stopped by C).  Part "
	"of the plan: resume with the same P and C";

static const char help_loser_ratio[] =
	"the loser cut (ours, opt-in; only for --template triton; default 0 = off, "
	"every choice timed fully, as Inductor times every choice): a timing of a "
	"choice (one per repetition, extern_mm included) whose warm-up call took "
	">= L x the input's best time so far (the smallest time of the choices "
	"and repetitions timed before it on this input; extern_mm is timed first, "
	"so there is one for every other choice) gets one flushed launch first; "
	"if that took >= L x the best too, it is the choice's time (2 calls, "
	"warm-up included, instead of Inductor's 7 or more, or the long-kernel "
	"rule's 1 + N), else the timing goes on exactly as without the cut.  L is "
	"a factor, 0 or > 1/0.98 = 1.0204 (the near-best ratio of "
	"stages/formats/rules.h: a loser is then never near-best, spec section 5.2) "
	"and <= 100, e.g. 1.5.  What the log loses: a loser's time is 1 launch "
	"instead of the minimum of >= 6, never lower, and higher by what one launch "
	"varies (on this repo's H200 logs the first of 3 single launches is "
	"0.04-0.4 percent above their minimum at the median, up to 7.5 percent at "
	"p90); labels are unchanged.  Not yet validated on a GPU "
	"(kernels/INDUCTOR_MM.md section 5, with the command that does it).  "
	"--stats counts "
	"loser_choices and loser_fallbacks (warm-up >= L x best, the launch < L x "
	"best).  Part of the plan: resume with the same L";

static const char help_warm_from_verify[] =
	"the warm-up from verification (ours, opt-in; only for --template triton; "
	"default off: every timing makes its own warm-up call, as Inductor's): "
	"a choice verified on this input (one call into a poisoned output, "
	"event-timed, checked against cuBLAS; every input for --template triton, "
	"extern_mm excepted) takes that call as its first timing's warm-up "
	"call: its time in ms is the warm-up time the long-kernel rule "
	"(--long-ms) and the loser cut (--loser-ratio) try on, and the timing "
	"makes one call fewer; everything after the warm-up is unchanged.  Not "
	"with --cool-clock (its wait must precede the warm-up call: the timing "
	"then makes its own).  Safe: a warm-up time only makes a rule try, its "
	"flushed launches decide (stages/gpu/bench/triton_timing.h); the schedule is "
	"otherwise as without it.  What it saves and changes: docs/RESULTS.md "
	"section 7.3, kernels/INDUCTOR_MM.md section 5.  --stats counts "
	"warm_from_verify "
	"(the timings that took it).  Part of the plan: resume with the same "
	"setting";

static const char help_verify_cut[] =
	"the verification cut (ours, opt-in; only for --template triton, with "
	"--warm-from-verify, --loser-ratio L <= S and the long-kernel rule on, "
	"not with --cool-clock; default 0 = off): a choice whose verification "
	"call on this input (taken as its warm-up) took >= S x the input's best "
	"time so far and >= T ms (--long-ms) gets no launch at all: that call's "
	"time is its time (0 calls instead of the loser cut's 1 probe).  S is a "
	"factor >= L and <= 100, e.g. 2: such a time is >= L x the input's best, "
	"never near-best (spec section 5.2).  What the log loses: the time of a "
	"choice >= 2x off the best on a large input is one unflushed call into a "
	"poisoned output, which may carry a first-call cost, instead of the "
	"minimum of the flushed probe; the audit (--verify-cut-audit) measures "
	"that excess.  Why: on this repo's H200 logs (perf/collect/timing_model.py) "
	"inputs whose best is >= 10 ms take ~94 percent of the GPU time, and "
	"their losers' second call ~35 percent.  --stats counts verify_cuts and "
	"the audits (verify_cut_audits, verify_cut_flips: audited timings whose "
	"probe was < L x best, verify_cut_ratio_min/_geomean/_max: verification "
	"call / probe).  Part of the plan: resume with the same S and K";

static const char help_verify_cut_audit[] =
	"with --verify-cut: every K-th timing the cut would take (the first "
	"included, counted per bench process) is audited instead: the loser cut's probe decides as "
	"without the cut, and --stats compares the verification call with "
	"it (default 10; 0: no audit).  Part of the plan";

static const char help_cool_max_ms[] =
	"the most one cool-clock wait (--cool-clock) lasts, in ms (> 0, "
	"default 300); a wait stopped by it is a cool_timeout and the "
	"choice is timed anyway.  Part of the plan with --cool-clock";

static const char help_template[] =
	"the back end (stages/gpu/bench/backends.c).  mm (default): kernels/mm.cu, "
	"CUDA-core FFMA tiles, configs kernels/configs.tsv, ids "
	"type=nvrtc_BLOCK-M=...; mma: kernels/mma.cu, tensor cores (mma.sync, "
	"cp.async pipeline), configs kernels/mma_configs.tsv (split-K lines "
	"skipped), ids type=nvrtc_mma_BLOCK-M=...; mma+wgmma: mma's list plus "
	"kernels/wgmma.cu (Hopper wgmma + TMA, warp-specialised, sm_90a; configs "
	"kernels/wgmma_configs.tsv, not shrunk) for fp16/bf16 inputs with compact "
	"operands that TMA can describe (leading dimensions multiples of 8), ids "
	"type=nvrtc_wgmma_BLOCK-M=...; not offered on a GPU other than sm_90.  "
	"triton: exactly the candidates Inductor (torch 2.11: "
	"kernels/inductor_mm_configs.tsv, inductor_mm_params.tsv) offers while "
	"collecting AutoHeuristic data, in its order and under its ids "
	"(type=triton_BLOCK-M=..., kernels/INDUCTOR_MM.md): extern_mm, then the mm "
	"and mm-ah configs shrunk and deduplicated per list (an id of both lists "
	"is timed and logged twice, as Inductor does); each config runs "
	"kernels/triton_mm.py compiled ahead of time for the input's variant "
	"(stages/gpu/bench/triton_aot.py; bench only loads: a variant missing from "
	"--triton-cubins is fatal, a compile error or a config over the device's "
	"shared memory is inf, as Inductor's \"out of resource\"); every "
	"candidate is verified against cuBLAS on every input and every choice, "
	"extern_mm included, is timed as Inductor times it (a repetition = "
	"stages/gpu/bench/triton_timing.h: minimum over single launches after an L2 "
	"flush each).  Screening is off (the kernels are specialised to the "
	"input's K: a slice would run another kernel); --fast-reject stays (it "
	"only decides repetitions from full-size times).  No rows for inputs "
	"Inductor autotunes nothing on (m = 1 or n = 1) and, refused whole with a "
	"message, for inputs with decompose_k candidates (k >= 32 max(m, n)), "
	"which this back end does not time";

static const char help_heuristic[] =
	"instead of a log, evaluate the ranking heuristic TREE (a tree TSV, e.g. "
	"out/h200/pruned.tsv; the same ranking as its emitted _MMRanking*.c): per "
	"input a warm-up pass, then only its top-k choices + extern_mm are "
	"benchmarked (selection), then all candidates (full autotune); LOG "
	"becomes a TSV, one row per input: input m k n dtype n_candidates "
	"n_selected decision_ns select_s full_s chosen chosen_ms oracle oracle_ms "
	"regret extern_ms (times of a call in ms as medians over the reps, wall "
	"times in s; regret = chosen_ms / oracle_ms from the full pass; "
	"--fast-reject and --screen are off: every choice gets every rep at full "
	"size)";

static const char help_cublaslt[] =
	"also time each cuBLASLt algorithm of FILE (a list such as "
	"kernels/cublaslt_algos.tsv, stages/FORMATS.md) as a choice of its own, "
	"right after extern_mm, on the inputs of the type classes its dtypes "
	"column names; id "
	"type=cublaslt_algo=A_tile=T_stages=S_splitk=K_reduction=R_swizzle=W_custom=C_inner=I_cluster=L "
	"(the CUDA 13 cublasLt.h attribute values; the same id is the same kernel "
	"on every shape).  An algorithm cuBLASLt rejects for an input "
	"(cublasLtMatmulAlgoCheck) is inf there (one message per algorithm and "
	"dtype).  Part of the plan";

/* --shard I/N into the bench_opts at value */
static void parse_shard(const char *name, const char *v, void *value)
{
	bench_opts *o = value;
	const char *sl = strchr(v, '/');
	int64_t i, n;
	if (!sl || parse_i64(v, (size_t)(sl - v), &i) != 0 || parse_i64(sl + 1, strlen(sl + 1), &n) != 0 ||
	    i < 0 || n < 1 || n > 1 << 20 || i >= n)
		die("%s: expected I/N with 0 <= I < N <= %d, got '%s'", name, 1 << 20, v);
	o->shard = (int)i;
	o->nshards = (int)n;
}

void bench_args_parse(bench_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	bench_opts *o = &a->o;
	o->nshards = 1;
	o->reps = 3;
	o->fast_reject = 1.5;
	o->screen = 1.3;
	o->screen_ms = 2.0;
	o->long_ms = -1;       /* not given: TT_LONG_MS_DEFAULT, after the parse */
	o->long_launches = 0;  /* likewise TT_LONG_LAUNCHES_DEFAULT */
	o->cool_max_ms = COOL_MAX_MS_DEFAULT;
	o->verify_cut_audit = -1; /* not given: 10 with --verify-cut */
	o->kernels = "kernels";
	o->cache = "build/cubin";
	a->ranking = 10;
	a->time_limit = -1;
	/* --template: the names of the back-end table */
	const char *names[16];
	int nb = 0, tmpl = 0;
	for (const bench_backend *b = bench_backends; b->name; b++) {
		if (nb == 15)
			die("internal: more than 15 back ends in stages/gpu/bench/backends.c");
		names[nb++] = b->name;
	}
	names[nb] = NULL;
	const opt table[] = {
		OPT_INT("--device", "I", &o->device, 0, 1023, 0, "CUDA device ordinal (default 0)"),
		OPT_CALL("--shard", "I/N", parse_shard, o,
		         "inputs whose 0-based row index % N == I (default 0/1)"),
		OPT_INT("--reps", "R", &o->reps, 1, 1000, 0,
		        "timed repetitions per candidate, one row each (default 3)"),
		OPT_DOUBLE("--fast-reject", "F", &o->fast_reject, 0, INFINITY, 0,
		           help_fast_reject),
		OPT_DOUBLE("--screen", "B", &o->screen, 0, INFINITY, 0,
		           help_screen),
		OPT_DOUBLE("--screen-ms", "T", &o->screen_ms, 0, INFINITY, 0,
		           help_screen_ms),
		OPT_FLAG("--screen-audit", &o->screen_audit,
		         "screen, but still time every candidate at full size (a complete log, "
		         "any --reps); --stats counts screened_out and screen_misses (screened "
		         "out, yet within 2 % of the best at full size); the CUDA measurer names "
		         "every screened-out candidate on stderr with its slice and full-size "
		         "ratios to the best, MISS on the misses"),
		OPT_DOUBLE("--long-ms", "T", &o->long_ms, 0, 1e9, 0, help_long_ms),
		OPT_INT("--long-launches", "N", &o->long_launches, 1, 5, 0,
		        "the timed launches of the long-kernel rule (--long-ms), each after an "
		        "L2 flush (1-5, default 2: the first N of Inductor's 5 estimation "
		        "launches).  Part of the plan"),
		OPT_DOUBLE("--cool-clock", "P", &o->cool_clock, 0, 100, 0, help_cool_clock),
		OPT_DOUBLE("--cool-max-ms", "C", &o->cool_max_ms, 0, 1e6, 0, help_cool_max_ms),
		OPT_DOUBLE("--loser-ratio", "L", &o->loser_ratio, 0, 100, 0, help_loser_ratio),
		OPT_FLAG("--warm-from-verify", &o->warm_from_verify, help_warm_from_verify),
		OPT_DOUBLE("--verify-cut", "S", &o->verify_cut, 0, 100, 0, help_verify_cut),
		OPT_INT("--verify-cut-audit", "K", &o->verify_cut_audit, 0, 1000000, 0,
		        help_verify_cut_audit),
		OPT_STRING("--kernels", "DIR", &o->kernels, 0,
		           "the templates and their config lists (default kernels)"),
		OPT_ENUM("--template", "T", &tmpl, names, 0,
		         help_template),
		OPT_STRING("--cache", "DIR", &o->cache, 0,
		           "cubin cache, keyed by (source hash, config, dtype, arch) (default "
		           "build/cubin)"),
		OPT_FLAG("--verify-all", &o->verify_all,
		         "check every candidate against cuBLAS on every input (default: once per "
		         "(candidate, dtype, transposes))"),
		OPT_DOUBLE("--time-limit", "S", &a->time_limit, 0, INFINITY, 0,
		           "after S seconds stop once the input in flight is written (exit 2; "
		           "rerun to resume)"),
		OPT_STRING("--stats", "FILE", &a->stats, OPT_OUTPUT,
		           "write the time breakdown (TSV key/value) to FILE"),
		OPT_STRING("--use-heuristic", "TREE", &a->heur, OPT_INPUT,
		           help_heuristic),
		OPT_INT("--ranking", "K", &a->ranking, 1, BENCH_MAX_CAND, 0,
		        "top-k size for --use-heuristic (default 10)"),
		OPT_STRING("--compile-only", "A", &o->compile_arch, 0,
		           "fill the cubin cache for architecture A (e.g. sm_90) for every shrunk "
		           "config and dtype (or, given SHAPES, for those inputs only); needs no "
		           "GPU; with --shard I/N only every N-th request from the I-th on (run N "
		           "processes in parallel)"),
		OPT_STRING("--cublaslt", "FILE", &a->ltpath, OPT_INPUT,
		           help_cublaslt),
		OPT_FLAG("--no-nvrtc", &a->no_nvrtc,
		         "time only extern_mm and the --cublaslt choices (no template candidates)"),
		OPT_INT("--lt-discover", "N", &a->lt_topn, 1, 1024, 0,
		        "instead of a log: ask cublasLtMatmulAlgoGetHeuristic for its top N "
		        "algorithms for every input of SHAPES (this shard) and write LIST, the "
		        "algorithms sorted by how many inputs' top N held them (columns inputs, "
		        "rank1 = first pick, dtypes = type classes seen)"),
		OPT_INT("--lt-keep", "K", &a->lt_keep, 1, LT_MAX_LIST, 0,
		        "with --lt-discover: write only the K most frequent algorithms of each "
		        "type class (f32, tf32, f16, bf16)"),
		OPT_STRING("--lt-decode", "ID", &a->ltdecode, 0,
		           "print the attributes of a cuBLASLt choice id (TSV with the list's first "
		           "nine columns) and exit"),
		OPT_FLAG("--bad-kernel", &o->bad_kernel,
		         "compile candidates with a deliberate bug (tests that verification "
		         "rejects a wrong kernel)"),
#ifndef BENCH_CUDA /* the test build (bench-fake) only */
		OPT_DOUBLE("--fake-delay-ms", "D", &o->fake_delay_ms, 0, 1e9, 0,
		           "bench-fake only (CPU tests): sleep D ms per input"),
		OPT_INT("--fake-fail", "N", &o->fake_fail, 0, 1 << 20, 0,
		        "bench-fake only: make every Nth candidate fail (inf)"),
		OPT_INT("--fake-capability", "MAJOR", &o->fake_cap, 1, 99, 0,
		        "bench-fake only: report compute capability MAJOR.0 (default 9: an "
		        "H100/H200)"),
#endif
		OPT_STRING("--triton-cubins", "DIR", &o->triton_cubins, 0,
		           "--template triton: the cubin folder of kernels/triton_mm.py for this "
		           "Triton version and the device's arch (python3 "
		           "stages/gpu/bench/triton_aot.py --entry-dir; make triton-cubins fills it)"),
		OPT_OUT("LOG", &a->out, 0,
		        "the AutoHeuristic log (LIST with --lt-discover, a TSV with "
		        "--use-heuristic)"),
		OPT_POS("SHAPES", &a->shapes, OPT_INPUT, "the inputs, a shape list"),
		OPT_POS("LOG", &a->log, OPT_OUTPUT,
		        "the output as a second positional (the older form; -o LOG is the "
		        "stages' convention)"),
		OPT_END()
	};
	const opt_prog prog = { synopsis, about, table, notes, 0, NULL };
	opts_parse(&prog, argc, argv);
	if (!fast_reject_ok(o->fast_reject))
		die("--fast-reject: expected 0 (off) or a factor >= 1/%g = %.8g (a smaller "
		    "one would cut a near-best choice to one repetition: stages/formats/rules.h), "
		    "got %g", NEAR_BEST_RATIO, 1 / NEAR_BEST_RATIO, o->fast_reject);
	if (a->out && a->log)
		die("the output given twice: -o %s and %s (say one)", a->out, a->log);
	if (a->out)
		a->log = a->out;
	a->be = &bench_backends[tmpl];
	if ((o->long_ms >= 0 || o->long_launches) && !a->be->plan->inductor_timing)
		die("--long-ms/--long-launches: only for --template triton (the rule shortens "
		    "Inductor's timing, which --template %s does not use)", a->be->name);
	if (o->loser_ratio > 0 && !a->be->plan->inductor_timing)
		die("--loser-ratio: only for --template triton (the cut shortens Inductor's "
		    "timing, which --template %s does not use)", a->be->name);
	if (o->loser_ratio != 0 && !(o->loser_ratio > 1 / NEAR_BEST_RATIO))
		die("--loser-ratio: expected 0 (off) or a factor > 1/%g = %.8g and <= 100 (a "
		    "smaller one could cut a near-best choice to one launch: stages/formats/rules.h), "
		    "got %g", NEAR_BEST_RATIO, 1 / NEAR_BEST_RATIO, o->loser_ratio);
	if (o->long_ms < 0)
		o->long_ms = TT_LONG_MS_DEFAULT;
	if (!o->long_launches)
		o->long_launches = TT_LONG_LAUNCHES_DEFAULT;
	if (a->lt_keep && !a->lt_topn)
		die("--lt-keep needs --lt-discover");
	if ((a->no_nvrtc || a->lt_topn) && (o->compile_arch || a->heur))
		die("--no-nvrtc and --lt-discover do not go with --compile-only or --use-heuristic");
}

void bench_args_screen(bench_args *a)
{
	bench_opts *o = &a->o;
	if (a->heur) {
		/* selection vs full autotune: every rep of every choice */
		o->fast_reject = 0;
		o->screen = 0;
		if (o->loser_ratio > 0 || o->verify_cut > 0)
			die("--loser-ratio and --verify-cut do not go with --use-heuristic (its full "
			    "autotune times every choice fully: a loser's time would enter the "
			    "regret)");
	}
	if (o->screen < 0 || (o->screen > 0 && o->screen < 1))
		die("--screen: expected 0 (off) or a factor >= 1, got %g", o->screen);
	if (o->screen_audit && !(o->screen > 0))
		die("--screen-audit needs --screen B > 0");
	if (!(o->screen_ms > 0) || !isfinite(o->screen_ms))
		die("--screen-ms: expected a time > 0 ms, got %g", o->screen_ms);
	if (a->be->plan->no_screen && (o->screen > 0 || o->screen_audit)) {
		if (o->screen_audit)
			die("--screen-audit: --template %s has no screening (its kernels are "
			    "specialised to the input's K: a slice would run another kernel)", a->be->name);
		o->screen = 0;
	}
	if (!a->be->plan->inductor_timing)
		o->long_ms = 0; /* its timing has no such rule: not part of its plan */
	if (!(o->cool_max_ms > 0))
		die("--cool-max-ms: expected a time > 0 ms, got %g", o->cool_max_ms);
	if (o->warm_from_verify && !a->be->plan->inductor_timing)
		die("--warm-from-verify: only for --template triton (it shortens Inductor's "
		    "timing, which --template %s does not use)", a->be->name);
	if (o->verify_cut > 0) {
		if (!a->be->plan->inductor_timing)
			die("--verify-cut: only for --template triton (it shortens Inductor's "
			    "timing, which --template %s does not use)", a->be->name);
		if (!o->warm_from_verify || !(o->loser_ratio > 0) || !(o->long_ms > 0) ||
		    o->cool_clock > 0)
			die("--verify-cut %g needs --warm-from-verify, --loser-ratio L > 0 and "
			    "--long-ms T > 0, and not --cool-clock (it decides on the verification "
			    "call taken as the warm-up; got%s%s%s%s)", o->verify_cut,
			    o->warm_from_verify ? "" : " no --warm-from-verify",
			    o->loser_ratio > 0 ? "" : " no --loser-ratio",
			    o->long_ms > 0 ? "" : " --long-ms 0",
			    o->cool_clock > 0 ? " --cool-clock" : "");
		if (o->verify_cut < o->loser_ratio)
			die("--verify-cut %g: expected a factor >= --loser-ratio %g (the cut is the "
			    "loser cut decided without its probe)", o->verify_cut, o->loser_ratio);
		if (o->verify_cut_audit < 0)
			o->verify_cut_audit = 10;
	} else if (o->verify_cut_audit >= 0) {
		die("--verify-cut-audit needs --verify-cut S > 0");
	} else {
		o->verify_cut_audit = 0;
	}
	if (o->cool_clock > 0 && !a->be->plan->inductor_timing)
		die("--cool-clock: only for --template triton (the back end timed as Inductor "
		    "times, stages/gpu/bench/triton_timing.h), not --template %s", a->be->name);
	if (o->reps < 2 && o->screen > 0 && !o->screen_audit) {
		/* a screened block is recognised by its later repetitions */
		fprintf(stderr, "bench: --reps %d: no screening (it needs --reps >= 2)\n", o->reps);
		o->screen = 0;
	}
}
