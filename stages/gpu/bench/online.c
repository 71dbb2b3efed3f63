/* online.c — bench --use-heuristic: autotune only the heuristic's
 * top-k choices plus extern_mm, and measure what that buys against a full
 * autotune of the same input (spec §3.1
 * --use-heuristic, §7.2–§7.3 how Inductor uses the ranking).
 *
 * Per input (all times in ms per call, wall times in seconds):
 *   1. full autotune, warm-up pass: every candidate once (pays NVRTC
 *      compilation and the first-use verification against cuBLAS, so the
 *      two timed passes below compare pure benchmarking);
 *   2. decision: the tree's ranking for the input's context (mm_tree_features
 *      + tree_apply + tree_ranked), then the first k ranked choices that are
 *      candidates of this input, plus extern_mm (§7.3 get_top_k_choices);
 *   3. selection: benchmark only those (wall time select_s); the chosen
 *      kernel is the one with the smallest median over the reps;
 *   4. full autotune: benchmark every candidate (wall time full_s); the
 *      oracle is the smallest median; regret = median(chosen) / median(oracle),
 *      both from this pass.
 * The per-input TSV is documented in bench's --help (args.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "block.h"
#include "gpu/policy/mmcontext.h"
#include "core/progress.h"
#include "formats/rules.h"
#include "formats/tree.h"
#include "core/util.h"

/* Column names of the per-input TSV (tab separated, no trailing tab). */
static const char online_header[] =
	"input\tm\tk\tn\tdtype\tn_candidates\tn_selected\tdecision_ns\tselect_s\tfull_s"
	"\tchosen\tchosen_ms\toracle\toracle_ms\tregret\textern_ms";

/* The heuristic's selection for one input (spec §7.3): the top-k list of
 * tree t's ranking for the input (rules.h topk: the first k ranked choices
 * that are among cand[0..nc), then extern_mm if missing).  Writes candidate
 * indices to sel (BENCH_MAX_CAND), the decision's wall time to
 * *decision_ns; returns the count. */
static int online_select(const tree *t, int k, const bench_input *in,
                         const bench_cand *cand, int nc, int *sel, double *decision_ns)
{
	double t0 = mono_s();
	double x[256];
	if (t->n_feat > 256)
		die("tree has %d features (at most 256)", t->n_feat);
	mm_tree_features(t, &in->feat, x);
	int leaf = tree_apply(t, x);
	tree_prob rk[1024];
	int nr = tree_ranked(t, leaf, rk, 1024);
	/* the ranking as candidate indices (-1: not a candidate of this input);
	 * every candidate is available */
	int rank[1024], ext = -1;
	double prob[1024], avail[BENCH_MAX_CAND];
	for (int c = 0; c < nc; c++) {
		avail[c] = 0;
		if (cand[c].is_extern)
			ext = c;
	}
	for (int r = 0; r < nr; r++) {
		const char *id = t->cls[rk[r].cls];
		rank[r] = -1;
		prob[r] = rk[r].p;
		for (int c = 0; c < nc && rank[r] < 0; c++)
			if (!strcmp(cand[c].id, id))
				rank[r] = c;
	}
	topk_list tl;
	topk(&tl, sel, rank, prob, nr, avail, k, ext, -1);
	*decision_ns = (mono_s() - t0) * 1e9;
	return tl.n;
}

/* Warm-up pass, selection pass (top-k + extern_mm) and full pass over one
 * input; appends one TSV row to out and returns the regret (chosen median /
 * oracle median, both from the full pass), the selection and full wall
 * times in seconds.  fb must hold reps * BENCH_MAX_CAND doubles. */
static void online_input(measurer *be, const tree *t, int k, const bench_input *in,
                         const bench_cand *cand, int nc, int reps, double *fb, FILE *out,
                         double *rg, double *select_s, double *full_s)
{
	int sel[BENCH_MAX_CAND];
	bench_cand sub[BENCH_MAX_CAND];
	measure_input(be, in, cand, nc, 1, fb); /* 1: warm-up, verification */
	double dns;
	int ns = online_select(t, k, in, cand, nc, sel, &dns);
	for (int j = 0; j < ns; j++)
		sub[j] = cand[sel[j]];
	double t0 = mono_s();
	measure_input(be, in, sub, ns, reps, fb); /* 3: selection */
	*select_s = mono_s() - t0;
	int chosen = -1;
	double best = INFINITY;
	for (int j = 0; j < ns; j++) {
		double m = bench_median(fb, ns, j, reps);
		if (chosen < 0 || m < best)
			chosen = sel[j], best = m;
	}
	t0 = mono_s();
	measure_input(be, in, cand, nc, reps, fb); /* 4: full autotune */
	*full_s = mono_s() - t0;
	int oracle = 0, ext = -1;
	double om = INFINITY;
	for (int c = 0; c < nc; c++) {
		double m = bench_median(fb, nc, c, reps);
		if (m < om)
			oracle = c, om = m;
		if (cand[c].is_extern)
			ext = c;
	}
	double cm = bench_median(fb, nc, chosen, reps);
	*rg = regret(cm, om);
	fprintf(out, "%lld\t%lld\t%lld\t%lld\t%s\t%d\t%d\t%.0f\t%.6f\t%.6f\t%s\t%.17g\t%s\t%.17g"
	        "\t%.17g\t%.17g\n", (long long)in->id, (long long)in->m, (long long)in->k,
	        (long long)in->n, in->feat.dtype, nc, ns, dns, *select_s, *full_s,
	        cand[chosen].id, cm, cand[oracle].id, om, *rg,
	        ext >= 0 ? bench_median(fb, nc, ext, reps) : NAN);
}

int bench_online(const bench_args *a, measurer *be, bench_input *const *todo, int64_t ntodo,
                 const bench_plan *p)
{
	const bench_opts *o = &a->o;
	const int k = a->ranking;
	tree t;
	tree_read(&t, a->heur);
	aout ao;
	FILE *fp = aout_open(&ao, a->log);
	fprintf(fp, "%s\n", online_header);
	bench_cand cand[BENCH_MAX_CAND];
	double *fb = xmalloc(sizeof *fb * (size_t)o->reps * BENCH_MAX_CAND);
	double lsum = 0, sel = 0, full = 0, t0 = mono_s();
	char what[64];
	snprintf(what, sizeof what, "bench[dev %d] online", o->device);
	progress prog;
	progress_start(&prog, what, "inputs", ntodo);
	int64_t within1 = 0, nin = 0;
	for (int64_t i = 0; i < ntodo; i++) {
		int nc = plan_candidates(p, todo[i], cand);
		double rg, ss, fs;
		if (nc == 0) { /* the back end measures nothing here (plan_skip) */
			progress_update(&prog, i + 1);
			continue;
		}
		nin++;
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
	        "full autotune %.3f s (%.1fx less benchmarking)\n", k, nin, mono_s() - t0,
	        nin ? exp(lsum / (double)nin) : 1.0,
	        nin ? 100.0 * (double)within1 / (double)nin : 0.0, sel, full,
	        sel > 0 ? full / sel : 0.0);
	free(fb);
	tree_free(&t);
	return 0;
}
