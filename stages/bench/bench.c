/* bench — measure every mm candidate on a GPU and write an AutoHeuristic
 * log (spec §1, §3.4, §3.5; design.md "Resumable", "Parallel").
 *
 * Input:  SHAPES (sample's TSV), kernels/mm.cu + kernels/configs.tsv.
 * Output: LOG, an AutoHeuristic log byte-compatible with Inductor's
 *         (metadata JSON from the device, header, one row per (input,
 *         candidate, repetition), feedback in ms as Python str(float)).
 *         The log is built in LOG.part, one input's rows at a time, each
 *         block fsync'd; when every input of the shard is in it, LOG.part
 *         is renamed to LOG.  A restart resumes LOG.part: complete inputs
 *         are skipped, a partially written trailing input is truncated.
 * Exit:   0 shard complete; 1 error (message on stderr; no GPU, bad files,
 *         sticky CUDA error); 2 stopped by --time-limit (resumable).
 *
 * The driver is back-end independent: build/bin/bench links the CUDA back
 * end (stages/cuda/bench_gpu.c), build/bin/bench-fake a deterministic fake
 * (stages/bench_fake.c) so resumption is testable without a GPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plan.h"
#include "progress.h"
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

/* bench --use-heuristic TREE: one online_input() per input, the TSV to
 * out (atomically), a summary on stderr (issue "Use the learned heuristic"). */
static int run_online(bench_backend *be, const bench_opts *o, const bench_device *dev,
                      const char *heur, int k, bench_input **todo, int64_t ntodo,
                      const mm_config *cfgs, int ncfg, const lt_entry *lt, int nlt,
                      const char *out)
{
	tree t;
	tree_read(&t, heur);
	aout ao;
	FILE *fp = aout_open(&ao, out);
	fprintf(fp, "%s\n", online_header);
	bench_cand cand[BENCH_MAX_CAND];
	double *fb = xmalloc(sizeof *fb * (size_t)o->reps * BENCH_MAX_CAND);
	double lsum = 0, sel = 0, full = 0, t0 = mono_s();
	char what[64];
	snprintf(what, sizeof what, "bench[dev %d] online", o->device);
	progress prog;
	progress_start(&prog, what, "inputs", ntodo);
	int64_t within1 = 0;
	for (int64_t i = 0; i < ntodo; i++) {
		int nc = plan_candidates(todo[i], cfgs, ncfg, lt, nlt, dev->smem_optin, cand);
		double rg, ss, fs;
		online_input(be, &t, k, todo[i], cand, nc, o->reps, fb, fp, &rg, &ss, &fs);
		lsum += log(rg);
		within1 += rg <= 1.01;
		sel += ss;
		full += fs;
		progress_update(&prog, i + 1);
	}
	progress_end(&prog, ntodo);
	aout_commit(&ao);
	fprintf(stderr, "bench: online top-%d + extern_mm on %" PRId64 " inputs (%.1f s): "
	        "regret geomean %.4f, within 1 %% of the oracle %.1f %%, selection %.3f s vs "
	        "full autotune %.3f s (%.1fx less benchmarking)\n", k, ntodo, mono_s() - t0,
	        ntodo ? exp(lsum / (double)ntodo) : 1.0,
	        ntodo ? 100.0 * (double)within1 / (double)ntodo : 0.0, sel, full,
	        sel > 0 ? full / sel : 0.0);
	free(fb);
	tree_free(&t);
	return 0;
}

/* The screening settings of LOG.part, which its rows cannot show (a
 * screened-out candidate has no row whatever B and T were): kept in the
 * sidecar LOG.part.plan (one line "screen=B screen_ms=T audit=A"; the log's
 * own lines must stay Inductor's) from the first run of the shard until
 * LOG is complete.  A resumed part whose sidecar says otherwise is refused;
 * for a part without one (an older bench's) this run's settings are
 * assumed, with a message, and written.
 * Returns the sidecar's path (malloc'd). */
static char *plan_check(const char *part, const bench_opts *o, int resumed)
{
	char want[128];
	snprintf(want, sizeof want, "screen=%.17g screen_ms=%.17g audit=%d\n",
	         o->screen, o->screen > 0 ? o->screen_ms : 0.0, o->screen_audit);
	char *path = xmalloc(strlen(part) + 8);
	sprintf(path, "%s.plan", part);
	if (resumed && access(path, F_OK) == 0) {
		size_t len;
		char *have = read_file(path, &len);
		if (strcmp(have, want) != 0) {
			size_t hl = strlen(have), wl = strlen(want);
			die("%s was made with %.*s, this run has %.*s: resume with the same "
			    "--screen/--screen-ms/--screen-audit (make: SCREEN, SCREEN_MS), or "
			    "remove %s to start over", part, (int)(hl ? hl - 1 : 0), have,
			    (int)(wl - 1), want, part);
		}
		free(have);
		return path;
	}
	if (resumed)
		fprintf(stderr, "bench: %s: no %s (written by an older bench, or removed): "
		        "assuming it was made with this run's screening settings\n", part, path);
	aout ao;
	FILE *fp = aout_open(&ao, path);
	fputs(want, fp);
	aout_commit(&ao);
	return path;
}

int main(int argc, char **argv)
{
	bench_opts o;
	const char *shapes = NULL, *log = NULL, *stats = NULL, *heur = NULL;
	int ranking = 10;
	const char *ltpath = NULL, *ltdecode = NULL;
	int no_nvrtc = 0, lt_topn = 0, lt_keep = 0;
	double time_limit = -1;
	std_options(argc, argv, usage);
	memset(&o, 0, sizeof o);
	o.nshards = 1;
	o.reps = 3;
	o.fast_reject = 1.5;
	o.screen = 1.3;
	o.screen_ms = 2.0;
	o.kernels = "kernels";
	o.cache = "build/cubin";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = argv[i + 1];
		if (!strcmp(a, "--device"))
			o.device = (int)opt_int(a, v, 0, 1023), i++;
		else if (!strcmp(a, "--shard")) {
			const char *sl = v ? strchr(v, '/') : NULL;
			if (!sl)
				die("bad value for '--shard': expected I/N");
			char *is = xstrndup(v, (size_t)(sl - v));
			o.shard = (int)opt_int(a, is, 0, 1 << 20);
			o.nshards = (int)opt_int(a, sl + 1, 1, 1 << 20);
			free(is);
			if (o.shard >= o.nshards)
				die("bad value for '--shard': '%s' (I must be < N)", v);
			i++;
		} else if (!strcmp(a, "--reps"))
			o.reps = (int)opt_int(a, v, 1, 1000), i++;
		else if (!strcmp(a, "--fast-reject"))
			o.fast_reject = opt_f64(a, v), i++;
		else if (!strcmp(a, "--screen"))
			o.screen = opt_f64(a, v), i++;
		else if (!strcmp(a, "--screen-ms"))
			o.screen_ms = opt_f64(a, v), i++;
		else if (!strcmp(a, "--screen-audit"))
			o.screen_audit = 1;
		else if (!strcmp(a, "--kernels"))
			o.kernels = v, i++;
		else if (!strcmp(a, "--cache"))
			o.cache = v, i++;
		else if (!strcmp(a, "--verify-all"))
			o.verify_all = 1;
		else if (!strcmp(a, "--bad-kernel"))
			o.bad_kernel = 1;
		else if (!strcmp(a, "--time-limit"))
			time_limit = opt_f64(a, v), i++;
		else if (!strcmp(a, "--template")) {
			if (!v || (strcmp(v, "mm") && strcmp(v, "mma") && strcmp(v, "mma+wgmma")))
				die("bad value for '--template': expected mm, mma or mma+wgmma");
			o.tmpl = strcmp(v, "mm") != 0;
			o.wgmma = !strcmp(v, "mma+wgmma");
			i++;
		} else if (!strcmp(a, "--use-heuristic"))
			heur = v, i++;
		else if (!strcmp(a, "--ranking"))
			ranking = (int)opt_int(a, v, 1, BENCH_MAX_CAND), i++;
		else if (!strcmp(a, "--stats"))
			stats = v, i++;
		else if (!strcmp(a, "--compile-only"))
			o.compile_arch = v, i++;
		else if (!strcmp(a, "--cublaslt"))
			ltpath = v, i++;
		else if (!strcmp(a, "--no-nvrtc"))
			no_nvrtc = 1;
		else if (!strcmp(a, "--lt-discover"))
			lt_topn = (int)opt_int(a, v, 1, 1024), i++;
		else if (!strcmp(a, "--lt-keep"))
			lt_keep = (int)opt_int(a, v, 1, LT_MAX_LIST), i++;
		else if (!strcmp(a, "--lt-decode"))
			ltdecode = v, i++;
		else if (!strcmp(a, "--fake-delay-ms"))
			o.fake_delay_ms = opt_f64(a, v), i++;
		else if (!strcmp(a, "--fake-fail"))
			o.fake_fail = (int)opt_int(a, v, 0, 1 << 20), i++;
		else if (!strcmp(a, "--fake-capability"))
			o.fake_cap = (int)opt_int(a, v, 1, 99), i++;
		else if (a[0] == '-' && a[1])
			die("unknown option '%s' (see --help)", a);
		else if (!shapes)
			shapes = a;
		else if (!log)
			log = a;
		else
			die("too many arguments: '%s' (see --help)", a);
		if (i >= argc)
			die("option '%s' needs a value", a);
	}
	if ((o.fake_delay_ms > 0 || o.fake_fail || o.fake_cap) && strcmp(backend_kind(), "fake"))
		die("--fake-* options exist only in bench-fake");
	if (ltdecode) {
		lt_algo al;
		const char *why;
		if (lt_parse_id(ltdecode, &al, &why) != 0)
			die("'%s' is not a cuBLASLt choice id (field '%s')", ltdecode, why);
		lt_print_attrs(stdout, &al);
		close_stdout();
		return 0;
	}
	if (lt_keep && !lt_topn)
		die("--lt-keep needs --lt-discover");
	if ((no_nvrtc || lt_topn) && (o.compile_arch || heur))
		die("--no-nvrtc and --lt-discover do not go with --compile-only or --use-heuristic");
	int nlt = 0;
	lt_entry *lt = ltpath ? lt_list_read(ltpath, &nlt) : NULL;

	char *cfgpath = xmalloc(strlen(o.kernels) + 32);
	sprintf(cfgpath, "%s/%s", o.kernels, o.tmpl ? "mma_configs.tsv" : "configs.tsv");
	int ncfg = 0;
	mm_config *cfgs = lt_topn ? NULL : configs_read(cfgpath, &ncfg);
	for (int i = 0; i < ncfg; i++)
		cfgs[i].tmpl = o.tmpl;
	if (o.wgmma && cfgs) {
		/* kernels/wgmma_configs.tsv: a third list (plan_candidates offers it
		 * to eligible fp16/bf16 inputs, unshrunk) */
		sprintf(cfgpath, "%s/wgmma_configs.tsv", o.kernels);
		int nw;
		mm_config *w = configs_read(cfgpath, &nw);
		if (ncfg + nw + 2 > BENCH_MAX_CAND)
			die("%s: too many configs together with the mma list", cfgpath);
		cfgs = xrealloc(cfgs, sizeof *cfgs * (size_t)(ncfg + nw));
		for (int i = 0; i < nw; i++) {
			w[i].tmpl = 2;
			w[i].extra = 2;
			cfgs[ncfg++] = w[i];
		}
		free(w);
	}
	if (no_nvrtc)
		ncfg = 0; /* extern_mm and the --cublaslt choices only */

	if (o.compile_arch) {
		if (log)
			die("--compile-only takes at most SHAPES, no LOG");
		double t0 = mono_s();
		int64_t nsh = 0;
		bench_input *sh = shapes ? shapes_read(shapes, &nsh) : NULL;
		int n = backend_precompile(&o, cfgs, ncfg, sh, nsh);
		if (sh)
			shapes_free(sh, nsh);
		fprintf(stderr, "bench: compiled %d cubins for %s in %.1f s\n", n,
		        o.compile_arch, mono_s() - t0);
		free(cfgs);
		free(lt);
		free(cfgpath);
		close_stdout();
		return 0;
	}
	if (!shapes || !log)
		die("usage: bench [options] SHAPES LOG (see --help)");

	int64_t nin;
	bench_input *inputs = shapes_read(shapes, &nin);
	bench_input **todo = xmalloc(sizeof *todo * (size_t)(nin + 1));
	int64_t ntodo = 0;
	for (int64_t i = 0; i < nin; i++)
		if (i % o.nshards == o.shard)
			todo[ntodo++] = &inputs[i];

	bench_device dev;
	memset(&dev, 0, sizeof dev);
	if (heur) {
		/* selection vs full autotune: every rep of every choice */
		o.fast_reject = 0;
		o.screen = 0;
	}
	if (o.screen < 0 || (o.screen > 0 && o.screen < 1))
		die("bad value for '--screen': %g (expected 0 = off, or >= 1)", o.screen);
	if (o.screen_audit && !(o.screen > 0))
		die("--screen-audit needs --screen B > 0");
	if (!(o.screen_ms > 0) || !isfinite(o.screen_ms))
		die("bad value for '--screen-ms': %g (expected a time > 0 ms)", o.screen_ms);
	if (o.reps < 2 && o.screen > 0 && !o.screen_audit) {
		/* a screened block is recognised by its later repetitions */
		fprintf(stderr, "bench: --reps %d: no screening (it needs --reps >= 2)\n", o.reps);
		o.screen = 0;
	}
	bench_backend *be = backend_open(&o, &dev);
	if (o.wgmma && !(dev.cap_major == 9 && dev.cap_minor == 0)) {
		/* wgmma.cu is sm_90a code: not offered elsewhere (the plan follows the
		 * device, whose capability is in the log's metadata) */
		int kept = 0;
		for (int i = 0; i < ncfg; i++)
			if (cfgs[i].tmpl != 2)
				cfgs[kept++] = cfgs[i];
		fprintf(stderr, "bench: kernels/wgmma.cu needs sm_90, the device is sm_%d%d: its %d "
		        "configs are not offered\n", dev.cap_major, dev.cap_minor, ncfg - kept);
		ncfg = kept;
	}
	if (lt_topn) {
		lt_discover(be, todo, ntodo, lt_topn, lt_keep, shapes, &dev, log);
		heur = NULL;
	}
	if (heur || lt_topn) {
		int rc = heur ? run_online(be, &o, &dev, heur, ranking, todo, ntodo, cfgs, ncfg,
		                           lt, nlt, log) : 0;
		backend_close(be);
		free(todo);
		shapes_free(inputs, nin);
		free(cfgs);
		free(lt);
		free(cfgpath);
		close_stdout();
		return rc;
	}
	char *meta = ah_mm_meta_json(dev.smem_optin, dev.cap_major, dev.cap_minor);

	if (access(log, F_OK) == 0)
		die("'%s' exists: this shard is complete (remove it to measure again)", log);
	char *part = xmalloc(strlen(log) + 8);
	sprintf(part, "%s.part", log);
	ah_appender ap;
	char *body;
	size_t body_len, keep;
	ah_append_open(&ap, part, meta, ah_mm_header(), &body, &body_len);
	char *planf = plan_check(part, &o, body_len > 0);
	int64_t done = resume_scan(part, body, body_len, todo, ntodo, cfgs, ncfg, lt, nlt,
	                           dev.smem_optin, o.reps, o.fast_reject,
	                           o.screen_audit ? 0 : o.screen, &keep);
	if (keep < body_len) {
		fprintf(stderr, "bench: %s: dropping %zu bytes of a partially written input\n",
		        part, body_len - keep);
		ah_append_truncate(&ap, keep);
	}
	free(body);
	int64_t resumed = done;
	fprintf(stderr, "bench: device %d (%s, sm_%d%d, %" PRId64 " B smem/block), shard %d/%d: "
	        "%" PRId64 " inputs, %" PRId64 " already done\n", o.device, dev.name,
	        dev.cap_major, dev.cap_minor, dev.smem_optin, o.shard, o.nshards,
	        ntodo, resumed);

	bench_cand cand[BENCH_MAX_CAND];
	double *fb = xmalloc(sizeof *fb * (size_t)o.reps * BENCH_MAX_CAND);
	double t0 = mono_s();
	int stopped = 0;
	char what[96];
	snprintf(what, sizeof what, "bench[dev %d shard %d/%d]", o.device, o.shard, o.nshards);
	progress prog;
	progress_start(&prog, what, "inputs", ntodo);
	progress_update(&prog, done);
	int64_t rows = 0;
	for (; done < ntodo; done++) {
		if (time_limit >= 0 && mono_s() - t0 >= time_limit) {
			stopped = 1;
			break;
		}
		const bench_input *in = todo[done];
		int nc = plan_candidates(in, cfgs, ncfg, lt, nlt, dev.smem_optin, cand);
		backend_measure(be, in, cand, nc, o.reps, fb);
		size_t bl;
		char *blk = format_block(in, cand, nc, o.reps, o.fast_reject, fb, &bl);
		ah_append_block(&ap, blk, bl);
		for (size_t q = 0; q < bl; q++)
			rows += blk[q] == '\n';
		free(blk);
		progress_update(&prog, done + 1);
	}
	progress_end(&prog, done);
	double wall = mono_s() - t0;
	ah_append_close(&ap);
	if (!stopped && rename(part, log) != 0)
		die("cannot rename '%s' to '%s': %s", part, log, strerror(errno));
	if (!stopped && unlink(planf) != 0 && errno != ENOENT)
		die("cannot remove '%s': %s", planf, strerror(errno));
	if (stats) {
		aout so;
		FILE *sf = aout_open(&so, stats);
		fprintf(sf, "key\tvalue\n");
		fprintf(sf, "device\t%s\nshard\t%d/%d\ninputs_total\t%" PRId64
		        "\ninputs_resumed\t%" PRId64 "\ninputs_measured\t%" PRId64
		        "\nrows_written\t%" PRId64 "\nwall_s\t%.3f\n", dev.name,
		        o.shard, o.nshards, ntodo, resumed, done - resumed, rows, wall);
		backend_stats(be, sf);
		aout_commit(&so);
	}
	backend_close(be);
	fprintf(stderr, "bench: %" PRId64 "/%" PRId64 " inputs in %s (%" PRId64
	        " measured in %.1f s)%s\n", done, ntodo, stopped ? part : log,
	        done - resumed, wall, stopped ? ": stopped by --time-limit, rerun to resume" : "");
	free(fb);
	free(meta);
	free(planf);
	free(part);
	free(todo);
	shapes_free(inputs, nin);
	free(cfgs);
	free(lt);
	free(cfgpath);
	close_stdout();
	return stopped ? 2 : 0;
}
