/* args.c — bench's command line: the --help text, the options and their
 * checks (args.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "core/opts.h"
#include "formats/rules.h"
#include "gpu/policy/ttsched.h"
#include "core/util.h"
#include "gen/gpus.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char synopsis[] =
BENCH_PROG " [options] -o LOG SHAPES   (or: [options] SHAPES LOG)\n"
"       " BENCH_PROG " --compile-only ARCH [--kernels DIR] [--cache DIR] [SHAPES]\n"
"       " BENCH_PROG " --lt-discover N [--lt-keep K] SHAPES LIST\n"
"       " BENCH_PROG " --lt-decode ID";

static const char about[] =
"Time extern_mm (cuBLAS) and every --template candidate on each input of\n"
"SHAPES in this shard into LOG (spec §1: ms per call, a row per input, choice\n"
"and rep).  Resumable: rerun it; at most the input in flight is lost.\n";

static const char notes[] =
"Times: ms per call (factors: ratios of times).  Exit status: 0 done, 1\n"
"error (no GPU, bad input, a log of other settings), 2 --time-limit.\n"
"See docs/STAGES.md \"bench\" for the long form of every option.\n";

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

const char *const bench_clock_names[] = { "inductor", "rotate", "warm", NULL };

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
	o->verify_cut_audit = -1; /* not given: 10 with --verify-cut */
	o->kernels = "kernels";
	o->cache = "build/cubin";
#ifdef MMRANK_TEST_BAD_KERNEL
	/* the test build build/test/bench-bug (mk/collect.mk) only: every NVRTC
	 * candidate compiled with MMRANK_BUG (a wrong kernel, kernels/mm.cu), so
	 * that check/gpu/test_bench_gpu.sh proves verification rejects it; no
	 * option of the shipped bench turns it on */
	o->bad_kernel = 1;
#endif
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
		OPT_HEAD("Inputs and outputs:"),
		OPT_POS("SHAPES", &a->shapes, OPT_INPUT, "the inputs, a shape list"),
		OPT_OUT("LOG", &a->out, 0,
		        "the log (LIST: --lt-discover, TSV: --use-heuristic)"),
		OPT_POS("LOG", &a->log, OPT_OUTPUT,
		        "the output as a second positional (the older form)"),
		OPT_STRING("--stats", "FILE", &a->stats, OPT_OUTPUT,
		           "write the time breakdown (TSV key/value)"),
		OPT_INT("--device", "I", &o->device, 0, 1023, 0,
		        "CUDA device ordinal (default 0)"),
		OPT_CALL("--shard", "I/N", parse_shard, o,
		         "inputs whose row index % N == I (default 0/1)"),
		OPT_DOUBLE("--time-limit", "S", &a->time_limit, 0, INFINITY, 0,
		           "stop before passing S s (exit 2)"),
		OPT_HEAD("Candidates:"),
		OPT_ENUM("--template", "T", &tmpl, names, 0,
		         "back end: mm (default), mma, mma+wgmma or triton"),
		OPT_STRING("--kernels", "DIR", &o->kernels, 0,
		           "templates and config lists (default kernels)"),
		OPT_STRING("--cache", "DIR", &o->cache, 0,
		           "cubin cache (default build/cubin)"),
		OPT_STRING("--triton-cubins", "DIR", &o->triton_cubins, 0,
		           "--template triton: its compiled cubins' folder"),
		OPT_STRING("--cublaslt", "FILE", &a->ltpath, OPT_INPUT,
		           "also each cuBLASLt algorithm of FILE, a choice"),
		OPT_FLAG("--no-nvrtc", &a->no_nvrtc,
		         "time only extern_mm and the --cublaslt choices"),
		OPT_FLAG("--verify-all", &o->verify_all,
		         "verify on every input (default: once per dtype, layout)"),
		OPT_HEAD("Repetitions and screening (ours; kept in the plan):"),
		OPT_INT("--reps", "R", &o->reps, 1, 1000, 0,
		        "timed reps per candidate, one row each (default 3)"),
		OPT_DOUBLE("--fast-reject", "F", &o->fast_reject, 0, INFINITY, 0,
		           "one rep if > F x the best first rep (1.5; 0 = off)"),
		OPT_DOUBLE("--screen", "B", &o->screen, 0, INFINITY, 0,
		           "long inputs: skip > B x slower on a slice (1.3)"),
		OPT_DOUBLE("--screen-ms", "T", &o->screen_ms, 0, INFINITY, 0,
		           "screen inputs of warm cuBLAS time >= T ms (default 2)"),
		OPT_FLAG("--screen-audit", &o->screen_audit,
		         "screen, yet time every candidate at full size"),
		OPT_HEAD("Inductor's timing, --template triton (ours; kept in the plan):"),
		OPT_ENUM("--clock", "C", &o->clock, bench_clock_names, 0,
		         "inductor (default), rotate or warm (docs/STAGES.md)"),
		OPT_DOUBLE("--long-ms", "T", &o->long_ms, 0, 1e9, 0,
		           "warm-up >= T ms: N flushed launches (10; 0 = off)"),
		OPT_INT("--long-launches", "N", &o->long_launches, 1, 5, 0,
		        "those timed launches, 1-5 (default 2)"),
		OPT_DOUBLE("--loser-ratio", "L", &o->loser_ratio, 0, 100, 0,
		           "a choice >= L x best by 1 launch: its time (0 = off)"),
		OPT_FLAG("--warm-from-verify", &o->warm_from_verify,
		         "the verification call is the warm-up (default off)"),
		OPT_DOUBLE("--verify-cut", "S", &o->verify_cut, 0, 100, 0,
		           "verification call >= S x best, >= T ms: its time"),
		OPT_INT("--verify-cut-audit", "K", &o->verify_cut_audit, 0, 1000000, 0,
		        "every K-th such cut audited (default 10; 0 = none)"),
		OPT_HEAD("Other modes:"),
		OPT_STRING("--use-heuristic", "TREE", &a->heur, OPT_INPUT,
		           "time TREE's top-k against a full autotune"),
		OPT_INT("--ranking", "K", &a->ranking, 1, BENCH_MAX_CAND, 0,
		        "top-k for --use-heuristic (default 10)"),
		OPT_STRING("--compile-only", "A", &o->compile_arch, 0,
		           "fill the cubin cache for arch A (sm_90); no GPU"),
		OPT_INT("--lt-discover", "N", &a->lt_topn, 1, 1024, 0,
		        "write LIST: cuBLASLt's top N algorithms per input"),
		OPT_INT("--lt-keep", "K", &a->lt_keep, 1, LT_MAX_LIST, 0,
		        "with --lt-discover: K most frequent per type class"),
		OPT_STRING("--lt-decode", "ID", &a->ltdecode, 0,
		           "print a cuBLASLt choice id's attributes, exit"),
#ifndef BENCH_CUDA /* the test build (bench-fake) only */
		OPT_HEAD("bench-fake only (CPU tests):"),
		OPT_DOUBLE("--fake-delay-ms", "D", &o->fake_delay_ms, 0, 1e9, 0,
		           "sleep D ms per input"),
		OPT_INT("--fake-fail", "N", &o->fake_fail, 0, 1 << 20, 0,
		        "make every Nth candidate fail (inf)"),
		OPT_INT("--fake-capability", "MAJOR", &o->fake_cap, 1, 99, 0,
		        "report compute capability MAJOR.0 (default " STR(GPUS_DEFAULT_CAP_MAJOR)
		        "." STR(GPUS_DEFAULT_CAP_MINOR) ", datasets/GPUS.tsv's '*' row)"),
#endif
		OPT_END()
	};
	const opt_prog prog = { synopsis, about, table, notes, 23, NULL };
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
	if (o->clock != BENCH_CLOCK_INDUCTOR && (o->long_ms >= 0 || o->long_launches))
		die("--clock %s: --long-ms and --long-launches shorten Inductor's timing "
		    "(--clock inductor) only", bench_clock_names[o->clock]);
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
	if (o->clock != BENCH_CLOCK_INDUCTOR) {
		if (!a->be->plan->inductor_timing)
			die("--clock %s: only for --template triton (the other back ends always "
			    "time with bench's own clock)", bench_clock_names[o->clock]);
		if (o->loser_ratio > 0 || o->warm_from_verify || o->verify_cut > 0)
			die("--clock %s: --loser-ratio, --warm-from-verify and --verify-cut shorten "
			    "Inductor's timing (--clock inductor) only", bench_clock_names[o->clock]);
	}
	if (!a->be->plan->inductor_timing || o->clock != BENCH_CLOCK_INDUCTOR)
		o->long_ms = 0; /* its timing has no such rule: not part of its plan */
	if (o->warm_from_verify && !a->be->plan->inductor_timing)
		die("--warm-from-verify: only for --template triton (it shortens Inductor's "
		    "timing, which --template %s does not use)", a->be->name);
	if (o->verify_cut > 0) {
		if (!a->be->plan->inductor_timing)
			die("--verify-cut: only for --template triton (it shortens Inductor's "
			    "timing, which --template %s does not use)", a->be->name);
		if (!o->warm_from_verify || !(o->loser_ratio > 0) || !(o->long_ms > 0))
			die("--verify-cut %g needs --warm-from-verify, --loser-ratio L > 0 and "
			    "--long-ms T > 0 (it decides on the verification call taken as the "
			    "warm-up; got%s%s%s)", o->verify_cut,
			    o->warm_from_verify ? "" : " no --warm-from-verify",
			    o->loser_ratio > 0 ? "" : " no --loser-ratio",
			    o->long_ms > 0 ? "" : " --long-ms 0");
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
	if (o->reps < 2 && o->screen > 0 && !o->screen_audit) {
		/* a screened block is recognised by its later repetitions */
		fprintf(stderr, "bench: --reps %d: no screening (it needs --reps >= 2)\n", o->reps);
		o->screen = 0;
	}
}
