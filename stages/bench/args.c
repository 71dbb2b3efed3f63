/* args.c — bench's command line: the --help text, the options and their
 * checks (args.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "util.h"

/* the program name in the usage text: bench, or bench-fake (collect.mk) */
#ifndef BENCH_PROG
#define BENCH_PROG "bench"
#endif

static const char usage[] =
"usage: " BENCH_PROG " [options] SHAPES LOG\n"
"       " BENCH_PROG " --compile-only ARCH [--kernels DIR] [--cache DIR] [SHAPES]\n"
"       " BENCH_PROG " --lt-discover N [--lt-keep K] SHAPES LIST\n"
"       " BENCH_PROG " --lt-decode ID\n"
"\n"
"Time extern_mm (cuBLAS) and every NVRTC candidate of kernels/ on each input\n"
"of SHAPES (sample's TSV) in this shard, and append the rows to LOG.part,\n"
"renamed to LOG when the shard is complete (spec §1 log format).  Resumable:\n"
"rerun the same command after a crash or kill; at most the input in flight\n"
"is lost.\n"
"\n"
"  --device I        CUDA device ordinal (default 0)\n"
"  --shard I/N       inputs whose 0-based row index % N == I (default 0/1)\n"
"  --reps R          timed repetitions per candidate, one row each (default 3)\n"
"  --fast-reject F   adaptive repetitions (ours; default 1.5, 0 = off, every\n"
"                    candidate R rows as the reference): a candidate whose\n"
"                    first timed repetition exceeds F x the best first\n"
"                    repetition of the candidates before it (extern_mm first)\n"
"                    is not repeated and has one row; it cannot be near-best\n"
"                    (spec §5.2: within 2 %).  Part of the plan: resume with\n"
"                    the same F\n"
"  --screen B        screening of long inputs (ours; default 1.3, 0 = off, every\n"
"                    candidate timed at full size as the reference): on an\n"
"                    input whose (warm) cuBLAS reference time is >= --screen-ms,\n"
"                    extern_mm and each NVRTC candidate are first timed (and,\n"
"                    on first use, verified) on a slice of the problem (k, or\n"
"                    else m, cut to ~0.5 ms of cuBLAS, >= 2048); a candidate\n"
"                    more than B x slower than the best there is not timed at\n"
"                    full size and has no row in LOG (cuBLASLt choices are\n"
"                    always timed).  Needs --reps >= 2 (off otherwise, with\n"
"                    a message).  Part of the plan: resume with the same B\n"
"  --screen-ms T     screen inputs whose warm cuBLAS reference time is >= T\n"
"                    ms (T > 0; default 2).  The CUDA back end times a\n"
"                    second cuBLAS call when the input's first, cold one\n"
"                    reaches min(T, 1 ms) (1 ms without screening: the\n"
"                    long-input rule), and the smaller time decides; --stats\n"
"                    counts them as warm_reference_calls.\n"
"                    Part of the plan, like B (kept in LOG.part.plan until\n"
"                    LOG is complete; a resume with other values is refused)\n"
"  --screen-audit    screen, but still time every candidate at full size (a\n"
"                    complete log, any --reps); --stats counts screened_out\n"
"                    and screen_misses (screened out, yet within 2 % of the\n"
"                    best at full size); the CUDA back end names every\n"
"                    screened-out candidate on stderr with its slice and\n"
"                    full-size ratios to the best, MISS on the misses\n"
"  --kernels DIR     the templates and their config lists (default kernels)\n"
"  --template T      mm (default): kernels/mm.cu, CUDA-core FFMA tiles, configs\n"
"                    kernels/configs.tsv, ids type=nvrtc_BLOCK-M=...; mma:\n"
"                    kernels/mma.cu, tensor cores (mma.sync, cp.async\n"
"                    pipeline), configs kernels/mma_configs.tsv (split-K lines\n"
"                    skipped), ids type=nvrtc_mma_BLOCK-M=...; mma+wgmma:\n"
"                    mma's list plus kernels/wgmma.cu (Hopper wgmma + TMA,\n"
"                    warp-specialised, sm_90a; configs kernels/wgmma_configs.tsv,\n"
"                    not shrunk) for fp16/bf16 inputs whose operands TMA can\n"
"                    describe (leading dimensions multiples of 8), ids\n"
"                    type=nvrtc_wgmma_BLOCK-M=...; not offered on a GPU\n"
"                    other than sm_90\n"
"  --cache DIR       cubin cache, keyed by (source hash, config, dtype, arch)\n"
"                    (default build/cubin)\n"
"  --verify-all      check every candidate against cuBLAS on every input\n"
"                    (default: once per (candidate, dtype, transposes))\n"
"  --time-limit S    after S seconds stop once the input in flight is\n"
"                    written (exit 2; rerun to resume)\n"
"  --stats FILE      write the time breakdown (TSV key/value) to FILE\n""  --use-heuristic TREE  instead of a log, evaluate the ranking heuristic TREE\n"
"                    (a tree TSV, e.g. out/h200/pruned.tsv; the same ranking\n"
"                    as its emitted _MMRanking*.c): per input a warm-up pass,\n"
"                    then only its top-k choices + extern_mm are benchmarked\n"
"                    (selection), then all candidates (full autotune); LOG\n"
"                    becomes a TSV, one row per input: input m k n dtype\n"
"                    n_candidates n_selected decision_ns select_s full_s\n"
"                    chosen chosen_ms oracle oracle_ms regret extern_ms (times\n"
"                    of a call in ms as medians over the reps, wall times in\n"
"                    s; regret = chosen_ms / oracle_ms from the full pass;\n"
"                    --fast-reject and --screen are off: every choice gets\n"
"                    every rep at full size)\n"
"  --ranking K       top-k size for --use-heuristic (default 10)\n"
"  --compile-only A  fill the cubin cache for architecture A (e.g. sm_90) for\n"
"                    every shrunk config and dtype (or, given SHAPES, for\n"
"                    those inputs only); needs no GPU; with\n"
"                    --shard I/N only every N-th request from the I-th on\n"
"                    (run N processes in parallel)\n"
"  --cublaslt FILE   also time each cuBLASLt algorithm of FILE (a list such as\n"
"                    kernels/cublaslt_algos.tsv, stages/FORMATS.md) as a choice\n"
"                    of its own, right after extern_mm, on the inputs of the\n"
"                    type classes its dtypes column names; id\n"
"                    type=cublaslt_algo=A_tile=T_stages=S_splitk=K_reduction=R\n"
"                    _swizzle=W_custom=C_inner=I_cluster=L (the CUDA 13\n"
"                    cublasLt.h attribute values; the same id is the same\n"
"                    kernel on every shape).  An algorithm cuBLASLt rejects\n"
"                    for an input (cublasLtMatmulAlgoCheck) is inf there\n"
"                    (one message per algorithm and dtype).  Part of the plan\n"
"  --no-nvrtc        time only extern_mm and the --cublaslt choices\n"
"  --lt-discover N   instead of a log: ask cublasLtMatmulAlgoGetHeuristic for\n"
"                    its top N algorithms for every input of SHAPES (this\n"
"                    shard) and write LIST, the algorithms sorted by how many\n"
"                    inputs' top N held them (columns inputs, rank1 = first\n"
"                    pick, dtypes = type classes seen)\n"
"  --lt-keep K       with --lt-discover: write only the K most frequent\n"
"                    algorithms of each type class (f32, tf32, f16, bf16)\n"
"  --lt-decode ID    print the attributes of a cuBLASLt choice id (TSV with\n"
"                    the list's first nine columns) and exit\n"
"  --bad-kernel      compile candidates with a deliberate bug (tests that\n"
"                    verification rejects a wrong kernel)\n"
"  --fake-delay-ms D, --fake-fail N   bench-fake only (CPU tests): sleep D ms\n"
"                    per input; make every Nth candidate fail (inf)\n"
"  --fake-capability MAJOR  bench-fake only: report compute capability\n"
"                    MAJOR.0 (default 9: an H100/H200)\n"
"\n"
"Progress goes to stderr (done/total, inputs/s, ETA).  Exit status: 0 done,\n"
"1 error (no GPU, bad input files, a log made with other settings), 2\n"
"stopped by --time-limit.\n";

static int64_t opt_int(const char *name, const char *v, int64_t lo, int64_t hi)
{
	int64_t x;
	if (!v)
		die("option '%s' needs a value", name);
	if (parse_i64(v, strlen(v), &x) != 0 || x < lo || x > hi)
		die("bad value for '%s': '%s'", name, v);
	return x;
}

static double opt_f64(const char *name, const char *v)
{
	double x;
	if (!v)
		die("option '%s' needs a value", name);
	if (parse_f64(v, strlen(v), &x) != 0 || !(x >= 0) || isinf(x))
		die("bad value for '%s': '%s'", name, v);
	return x;
}

/* The value of option name for a->o, or a->..., from argv[i + 1] (v): sets
 * the field and returns 1 if name takes a value, 0 if it is a flag, -1 if
 * it is not an option of bench's. */
static int parse_one(bench_args *a, const char *name, const char *v)
{
	bench_opts *o = &a->o;
	if (!strcmp(name, "--device"))
		o->device = (int)opt_int(name, v, 0, 1023);
	else if (!strcmp(name, "--shard")) {
		const char *sl = v ? strchr(v, '/') : NULL;
		if (!sl)
			die("bad value for '--shard': expected I/N");
		char *is = xstrndup(v, (size_t)(sl - v));
		o->shard = (int)opt_int(name, is, 0, 1 << 20);
		o->nshards = (int)opt_int(name, sl + 1, 1, 1 << 20);
		free(is);
		if (o->shard >= o->nshards)
			die("bad value for '--shard': '%s' (I must be < N)", v);
	} else if (!strcmp(name, "--reps"))
		o->reps = (int)opt_int(name, v, 1, 1000);
	else if (!strcmp(name, "--fast-reject"))
		o->fast_reject = opt_f64(name, v);
	else if (!strcmp(name, "--screen"))
		o->screen = opt_f64(name, v);
	else if (!strcmp(name, "--screen-ms"))
		o->screen_ms = opt_f64(name, v);
	else if (!strcmp(name, "--screen-audit"))
		return o->screen_audit = 1, 0;
	else if (!strcmp(name, "--kernels"))
		o->kernels = v;
	else if (!strcmp(name, "--cache"))
		o->cache = v;
	else if (!strcmp(name, "--verify-all"))
		return o->verify_all = 1, 0;
	else if (!strcmp(name, "--bad-kernel"))
		return o->bad_kernel = 1, 0;
	else if (!strcmp(name, "--time-limit"))
		a->time_limit = opt_f64(name, v);
	else if (!strcmp(name, "--template")) {
		if (!v || !(a->be = backend_find(v))) {
			char names[256];
			backend_names(names, sizeof names);
			die("bad value for '--template': expected %s", names);
		}
	} else if (!strcmp(name, "--use-heuristic"))
		a->heur = v;
	else if (!strcmp(name, "--ranking"))
		a->ranking = (int)opt_int(name, v, 1, BENCH_MAX_CAND);
	else if (!strcmp(name, "--stats"))
		a->stats = v;
	else if (!strcmp(name, "--compile-only"))
		o->compile_arch = v;
	else if (!strcmp(name, "--cublaslt"))
		a->ltpath = v;
	else if (!strcmp(name, "--no-nvrtc"))
		return a->no_nvrtc = 1, 0;
	else if (!strcmp(name, "--lt-discover"))
		a->lt_topn = (int)opt_int(name, v, 1, 1024);
	else if (!strcmp(name, "--lt-keep"))
		a->lt_keep = (int)opt_int(name, v, 1, LT_MAX_LIST);
	else if (!strcmp(name, "--lt-decode"))
		a->ltdecode = v;
	else if (!strcmp(name, "--fake-delay-ms"))
		o->fake_delay_ms = opt_f64(name, v);
	else if (!strcmp(name, "--fake-fail"))
		o->fake_fail = (int)opt_int(name, v, 0, 1 << 20);
	else if (!strcmp(name, "--fake-capability"))
		o->fake_cap = (int)opt_int(name, v, 1, 99);
	else
		return -1;
	return 1;
}

void bench_args_parse(bench_args *a, int argc, char **argv)
{
	std_options(argc, argv, usage);
	memset(a, 0, sizeof *a);
	a->o.nshards = 1;
	a->o.reps = 3;
	a->o.fast_reject = 1.5;
	a->o.screen = 1.3;
	a->o.screen_ms = 2.0;
	a->o.kernels = "kernels";
	a->o.cache = "build/cubin";
	a->be = &bench_backends[0];
	a->ranking = 10;
	a->time_limit = -1;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int r = arg[0] == '-' && arg[1] ? parse_one(a, arg, argv[i + 1]) : 0;
		if (r < 0)
			die("unknown option '%s' (see --help)", arg);
		else if (r > 0)
			i++;
		else if (arg[0] == '-' && arg[1])
			; /* a flag */
		else if (!a->shapes)
			a->shapes = arg;
		else if (!a->log)
			a->log = arg;
		else
			die("too many arguments: '%s' (see --help)", arg);
		if (i >= argc)
			die("option '%s' needs a value", arg);
	}
	const bench_opts *o = &a->o;
	if ((o->fake_delay_ms > 0 || o->fake_fail || o->fake_cap) && strcmp(measure_kind(), "fake"))
		die("--fake-* options exist only in bench-fake");
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
	}
	if (o->screen < 0 || (o->screen > 0 && o->screen < 1))
		die("bad value for '--screen': %g (expected 0 = off, or >= 1)", o->screen);
	if (o->screen_audit && !(o->screen > 0))
		die("--screen-audit needs --screen B > 0");
	if (!(o->screen_ms > 0) || !isfinite(o->screen_ms))
		die("bad value for '--screen-ms': %g (expected a time > 0 ms)", o->screen_ms);
	if (o->reps < 2 && o->screen > 0 && !o->screen_audit) {
		/* a screened block is recognised by its later repetitions */
		fprintf(stderr, "bench: --reps %d: no screening (it needs --reps >= 2)\n", o->reps);
		o->screen = 0;
	}
}
