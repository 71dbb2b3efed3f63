/* fit — train the ranking decision tree (spec §5.2–§5.10).
 *
 * Inputs are feat TSVs (stages/FORMATS.md): one aggregated row per
 * (input, choice) with the input's features and the median time in ms.
 * Steps, each a unit of the library with its contract in its header:
 *  1. ranking expansion (expand.h, §5.2): every input becomes one row per
 *     near-best choice (rules.h: best/t >= 0.98, weight = that ratio,
 *     label = the choice; the actual winner is kept); inputs whose best
 *     time is inf vanish;
 *  2. split (split.h, §5.3), seeded: 1 % test, 19 % val, 80 % train, by
 *     expanded rows (the reference's train_test_split twice) or by input;
 *     with --folds, the training inputs' folds;
 *  3. training set and classes (training.h): train rows plus train_timm
 *     and train_hf (if given) 3x each; classes = their sorted labels
 *     (--leaf-fill all: and every choice measured on a training input);
 *  4. grid/CV (gridcv.h, §5.4): every model of the grid (grid.h) fitted
 *     (cart.h), pruned with k = K and its leaves ordered (leaves.h: the
 *     one place that prunes, §5.6, rerank.h), evaluated on every set (§5.9,
 *     metrics.h; one case per input, in the set its winner row went to);
 *  5. selection (select.h, §5.10 or ours: --select regret|hit, on val or
 *     cross-validation);
 *  6. the written tree (leaves.h leaves_rank_all): the selected model's
 *     unpruned tree with every node ordered as a pruned leaf would be, so
 *     that the prune stage re-derives the tree evaluated here (with
 *     --select-rank R other than --leaf-rank: the same classes, ordered by
 *     --leaf-rank instead of R; with --leaf-fill all: the models scored
 *     unfilled, the written tree's lists filled).
 * Outputs: that tree (-o; param ranking_k = K), the metrics TSV of every
 * (model, set), the ranking table on stdout, a timing line on stderr.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dot.h"
#include "learn/gridcv.h"
#include "core/opts.h"
#include "core/pool.h"
#include "formats/rules.h"
#include "learn/select.h"
#include "learn/split.h"
#include "core/util.h"

/* ---- options ---------------------------------------------------------- */

static const char synopsis[] =
"fit MAIN.feat.tsv [--data NAME PATH]... [--heuristic-name NAME]\n"
"           [--ranking K] [--nrows N] [--seed S] [--split rows|group|none]\n"
"           [--grid mm|reference|search|FILE] [--select top1|regret|hit|curve]\n"
"           [--leaf-rank freq|greedy|joint|prefix...] [--select-rank R]\n"
"           [--topk-eps E]\n"
"           [--leaf-pad N] [--leaf-fill none|all] [--prune-exclude-extern]\n"
"           [--folds K] [--test-fraction F | --test-fold F/K] [--dump-train FILE]\n"
"           [--write-split FILE] [--verbose] [--threads N]\n"
"           [--save-dot FILE]\n"
"           -o TREE.tsv --metrics METRICS.tsv";

static const char about[] =
"Train the mm ranking decision tree (spec §5.2-§5.10).\n";

static const char notes[] =
"stdout: the ranking table (§5.9 Output) plus regret columns; stderr: a\n"
"summary and one timing line 'fit: time: read S s, grid S s elapsed on N\n"
"threads (task time summed over threads: fit S s, eval S s)'.\n"
"Exit status: 0 on success; 1 on bad usage, invalid input (file:line and\n"
"field named), no model passing the §5.10 rule, or a write error.\n";

static const char h_split[] =
"rows (default): shuffle expanded rows like the reference (n_test = "
"ceil(0.01 n), n_val = ceil(0.19/0.99 (n-n_test)), rows of one input may "
"land in different sets); group: same proportions over inputs, all rows of "
"an input in one set; none: no hold-out, val and test = train (tests)";
static const char h_test_fold[] =
"(ours; --split group only) test = block F (0-based) of K of the seeded "
"permutation of the inputs, the other inputs split into val and train as "
"with --test-fraction 1/K: the K folds' test sets are disjoint and cover "
"every input (out-of-fold comparison, perf/compare/oof.sh); fold F is "
"inputs [ceil(F n/K), ceil((F+1) n/K)) of the permutation, so 0/K is "
"--test-fraction 1/K's split when that holds ceil(n/K) inputs (docs/RESULTS.md "
"§2.2); an empty fold (K > inputs) is an error";
static const char h_grid[] =
"mm (default): max_depth 5, min_samples_leaf 0.01, entropy; reference: the "
"§5.4 base grid (depth 5,6,7 x msl 1,5,10, 0.01,0.05,0.02 x gini,entropy); "
"search (ours): depth 5-8 x msl 1,5,10,0.005,0.01,0.02,0.05 x gini,entropy "
"(56 models); FILE: a TSV of lines "
"'max_depth<TAB>min_samples_leaf<TAB>gini|entropy' ('#' comments and a "
"header line starting 'max_depth' allowed)";
static const char h_select[] =
"top1 (default, spec §5.10): most top-1 correct on val; regret (ours): "
"smallest top-k regret geometric mean on val (best median time in the "
"top-k list / oracle time), ties by more top_k_correct, then the earlier "
"model; hit (ours): most top_k_correct (top-k hit rate), ties by the "
"smaller regret geometric mean, then the earlier model; curve (ours, issue "
"#19): the whole curve, k = 1, 2, 5, 10 (top-k + extern_mm): the smallest "
"mean over those k of (the model's mean ln regret at k) / (the grid's "
"smallest at k), each input's regret capped at 4 (a list without a finite "
"time costs 4), so every k weighs alike however small its regrets; ties "
"by more top_k_correct, then the earlier model (stages/learn/select.h)";
static const char h_leaf_rank[] =
"order of every node's class list (the leaf lists that emit writes, §6.1; "
"stages/learn/rerank.h): freq (default, the reference): weighted frequency "
"among the near-best labels (§5.2); greedy (ours): extern_mm last (it is "
"always appended, §7.3), the others by how many training inputs reaching "
"the node they win (main inputs count 1, train_timm/train_hf/train_models inputs 3), "
"ties by the largest drop of the inputs' summed log regret (best listed "
"median ms / best ms), greedily; prefix (ours, issue #19; "
"stages/learn/leaforder.h): right at every length: the first entry is the "
"class with the smallest regret when run alone over the node's training "
"inputs, extern_mm competing (a choice not measured for an input is "
"skipped for it, as Inductor skips choices it does not offer; another "
"class must beat extern_mm alone by 0.05 mean ln regret per input), the "
"others as greedy's, extern_mm first (if it won entry 0) or last; "
"prefix-m0, prefix-m10, prefix-regret, prefix-regret-m0, "
"prefix-regret-mu1, prefix-half, prefix-nodef: the candidates prefix was "
"chosen from out of fold (leaforder.h).  Same classes as freq; the "
"written probabilities become rank weights (j-th of m: (m-j) / "
"(m(m+1)/2)).  joint (ours, issue #19, make's default; leaforder.h): the "
"coverage order (greedy's, ties among classes that win nothing by their "
"runner-up wins: inputs whose fastest choice other than extern_mm they "
"are), then to the front the class, extern_mm competing, whose list has "
"the smallest first-entry regret over the node's training inputs, each "
"input's first entry the first listed choice measured for it (another "
"class must beat extern_mm by 0.05 mean ln regret per input); joint-hit: "
"the same on greedy's order.  Used in cross-validation too, unless "
"--select-rank says otherwise.";
static const char h_select_rank[] =
"(ours) the leaf order the grid search and cross-validation score every "
"model with (--leaf-rank's names; default: --leaf-rank's), while the "
"written tree is ordered by --leaf-rank: e.g. --leaf-rank joint "
"--select-rank greedy selects the tree by its top-k coverage and then "
"gives each leaf its first entry (make: SELECT_RANK).  The metrics TSV "
"and the ranking table are then those of the --select-rank lists.  freq "
"goes only with --leaf-rank freq";
static const char h_leaf_pad[] =
"(ours, with any --leaf-rank but freq; default 0 = off) after a node's own "
"classes, list up to N more: those of its parent, then grandparent, ... "
"(each in its weighted frequency order, §5.2 labels), skipping listed ones "
"and extern_mm (still last, unless it is first).  An input whose own candidate set barely "
"meets its leaf's near-best labels (Inductor offers shape-dependent "
"configs) then finds more of its candidates in the list (make: LEAF_PAD = "
"k).  n_labels stays the node's own count (pruning, §5.6, unchanged); the "
"written list is longer (stages/FORMATS.md)";
static const char h_leaf_fill[] =
"(ours, departs from §5.2/§6.1: the reference lists only a leaf's near-best "
"labels; with any --leaf-rank but freq; default none) all: the training "
"classes become every choice with a finite time on at least one training "
"input (extern_mm only as a label, as before), and every node lists, after "
"its own classes and the --leaf-pad ones, every other such class, in one "
"order for all nodes: ascending weighted mean ln regret (time / the input's "
"best, capped at 4; failed = 4) over the training inputs that measured the "
"class, ties by the lower class index; extern_mm keeps its place.  Inductor "
"keeps the listed ids it offers, so an input then finds min(k, offered) "
"candidates (make: LEAF_FILL).  The models are scored (grid search, "
"cross-validation, the metrics TSV and the table) with the unfilled lists, "
"so the selected tree and every entry before the fill are --leaf-fill "
"none's; only the written tree is filled.  n_labels stays the node's own "
"count (pruning, §5.6, unchanged); the tree says param leaf_fill 1 "
"(stages/FORMATS.md)";
static const char h_pxe[] =
"(ours, departs from §5.6) the ranking pruning of every model (grid search "
"and cross-validation) does not count extern_mm among a child's distinct "
"near-best labels: every surviving leaf keeps >= K labels other than "
"extern_mm (Inductor appends extern_mm anyway, §7.3).  Off by default; "
"give prune the same option for the written tree.  No effect if extern_mm "
"is not a training class";
static const char h_folds[] =
"K-fold cross-validation for model selection (needs --split group): the "
"main set's train+val inputs and the train_timm/train_hf/train_models inputs are cut "
"into K seeded folds; each model is fitted K times without one fold and "
"scored on it (set 'cv', pooled over all folds and sets), then refitted on "
"all training rows (set 'train' = main train+val); 0 (default) = select on "
"val";

static const char h_topk_eps[] =
"(issue #35, a top-k sized by confidence; needs --folds >= 2) give every "
"node of the written tree its list length top_k (an 11th node field and "
"param topk_eps E, stages/FORMATS.md): the smallest j whose out-of-fold "
"geometric mean regret of the top-j list + extern_mm, over the "
"cross-validation inputs routed through the node, is <= 1 + E (each "
"input ranked by the selected model refitted without its fold, ordered "
"by --leaf-rank and --leaf-fill), else K (--ranking).  E in [0, 0.5], e.g. "
"0.005; 0 (default): no per-node k.  Costs --folds more fits of one model";

typedef struct {
	const char *main_path, *out, *mout, *dot, *hname, *grid, *dump, *splitout;
	opt_list data;      /* NAME PATH pairs */
	int k, nrows, folds, select, lrank, srank, lpad, lfill, pxe, verbose, threads;
	int64_t seed;
	double topk_eps;
	split_params sp;
} fit_opts;

/* opts.h callback of --test-fold F/K: strict digits around the one '/'. */
static void
parse_test_fold(const char *name, const char *v, void *value)
{
	split_params *sp = value;
	const char *sl = strchr(v, '/');
	int64_t f = -1, kf = 0;
	if (!sl || sl == v || !sl[1] || strspn(v, "0123456789") != (size_t)(sl - v) ||
	    strspn(sl + 1, "0123456789") != strlen(sl + 1) ||
	    parse_i64(v, (size_t)(sl - v), &f) || parse_i64(sl + 1, strlen(sl + 1), &kf) ||
	    kf < 2 || kf > 100 || f >= kf)
		die("%s: expected F/K with 2 <= K <= 100 and 0 <= F < K, got '%s'", name, v);
	sp->tfold = (int)f;
	sp->tfolds = (int)kf;
}

/* The checks across options, after parsing. */
static void
check_options(fit_opts *o)
{
	for (int d = 0; d < o->data.n; d += 2) {
		const char *n = o->data.v[d];
		if (!strcmp(n, "train") || !strcmp(n, "val") || !strcmp(n, "test"))
			die("--data: name '%s' is reserved", n);
		for (int j = 0; j < d; j += 2)
			if (!strcmp(o->data.v[j], n))
				die("--data: name '%s' given twice", n);
	}
	const char *outs[] = {o->out, o->mout, o->splitout, o->dump, o->dot};
	for (size_t i = 0; !grid_builtin(o->grid) && i < sizeof outs / sizeof *outs; i++)
		check_output_not_input(outs[i], o->grid);
	if (o->folds == 1)
		die("--folds: expected 0 (off) or at least 2, got 1");
	if (o->folds && o->sp.mode != SPLIT_GROUP)
		die("--folds needs --split group (folds are sets of whole inputs)");
	if (o->srank < 0)
		o->srank = o->lrank;
	if ((o->srank == RR_FREQ) != (o->lrank == RR_FREQ))
		die("--select-rank %s with --leaf-rank %s: freq goes only with freq "
		    "(the reference's lists, no training inputs per node)",
		    rr_mode_names[o->srank], rr_mode_names[o->lrank]);
	if (o->lpad > 0 && o->lrank == RR_FREQ)
		die("--leaf-pad needs a --leaf-rank other than freq (the reference's lists are not padded)");
	if (o->lfill && o->lrank == RR_FREQ)
		die("--leaf-fill all needs a --leaf-rank other than freq (the reference's lists are not filled)");
	if (o->topk_eps > 0 && o->folds < 2)
		die("--topk-eps needs --folds >= 2 (each node's k is sized out of fold)");
	if (o->sp.tfolds && !isnan(o->sp.test_frac))
		die("--test-fold and --test-fraction both set the test share: give one");
	if (o->sp.tfolds && o->sp.mode != SPLIT_GROUP)
		die("--test-fold needs --split group (test folds are sets of whole inputs)");
	if (o->sp.tfolds)
		o->sp.test_frac = 1.0 / (double)o->sp.tfolds;
	else if (isnan(o->sp.test_frac))
		o->sp.test_frac = 0.01;
	o->sp.seed = (uint64_t)o->seed;
}

static void
fit_cli(fit_opts *o, int argc, char **argv)
{
	static const char *const splits[] = {"rows", "group", "none", NULL};
	static const char *const sels[] = {"top1", "regret", "hit", "curve", NULL};
	static const char *const fills[] = {"none", "all", NULL};
	memset(o, 0, sizeof *o);
	o->hname = "learned_heuristic";
	o->grid = "mm";
	o->k = 10;
	o->nrows = -1;
	o->srank = -1;
	o->seed = 42;
	o->threads = pool_online_cpus();
	o->sp = (split_params){SPLIT_ROWS, 42, NAN, 0, 0};
	const opt table[] = {
		OPT_POS("MAIN.feat.tsv", &o->main_path, OPT_REQUIRED | OPT_INPUT,
		        "main data set, a feat TSV (stages/FORMATS.md; times in ms)"),
		OPT_LIST("--data", "NAME PATH", 2, &o->data, OPT_INPUT,
		         "extra feat TSV (featurize --categories MAIN), evaluated as "
		         "set NAME; train_timm and train_hf are also appended 3x each "
		         "to the training set (spec §5.3 step 4; a warning if one is "
		         "given without the other), and so is a set named "
		         "train_models (ours: a collection's real-model shape list, "
		         "datasets/MANIFEST.h200.tsv).  The device (metadata "
		         "shared_memory, device_capa) must be MAIN's.  Repeatable; "
		         "evaluated in CLI order."),
		OPT_STRING("--heuristic-name", "NAME", &o->hname, 0,
		           "name shown in the report (default learned_heuristic; the "
		           "emitted class name is emit's business)"),
		OPT_INT("--ranking", "K", &o->k, 1, 1000000, 0,
		        "top-k size for pruning (§5.6) and evaluation (§5.9); default 10"),
		OPT_INT("--nrows", "N", &o->nrows, 0, 2000000000, 0,
		        "keep only the first N rows of MAIN (an input cut short keeps "
		        "its first rows, its winner recomputed; §5.0)"),
		OPT_I64("--seed", "S", &o->seed, 0, INT64_MAX, 0,
		        "split seed (default 42)"),
		OPT_ENUM("--split", "MODE", &o->sp.mode, splits, 0, h_split),
		OPT_DOUBLE("--test-fraction", "F", &o->sp.test_frac, 0, 0.5, OPT_XLO,
		           "share of test units (default 0.01, the reference's; val "
		           "stays 19 % of the whole); e.g. 0.2 for a held-out "
		           "comparison (make compare)"),
		OPT_CALL("--test-fold", "F/K", parse_test_fold, &o->sp, h_test_fold),
		OPT_STRING("--grid", "G", &o->grid, 0, h_grid),
		OPT_ENUM("--select", "RULE", &o->select, sels, 0, h_select),
		OPT_ENUM("--leaf-rank", "R", &o->lrank, rr_mode_names, 0, h_leaf_rank),
		OPT_ENUM("--select-rank", "R", &o->srank, rr_mode_names, 0, h_select_rank),
		OPT_INT("--leaf-pad", "N", &o->lpad, 0, 100000, 0, h_leaf_pad),
		OPT_ENUM("--leaf-fill", "MODE", &o->lfill, fills, 0, h_leaf_fill),
		OPT_FLAG("--prune-exclude-extern", &o->pxe, h_pxe),
		OPT_INT("--folds", "K", &o->folds, 0, 100, 0, h_folds),
		OPT_DOUBLE("--topk-eps", "E", &o->topk_eps, 0, 0.5, 0, h_topk_eps),
		OPT_STRING("--dump-train", "FILE", &o->dump, OPT_OUTPUT,
		           "the final training matrix as TSV: feature columns, label, "
		           "weight (for the scikit-learn oracle test)"),
		OPT_STRING("--write-split", "FILE", &o->splitout, OPT_OUTPUT,
		           "main inputs' sets as TSV 'input<TAB>set' (train, val, test, "
		           "or dropped when every choice failed)"),
		OPT_STRING("--save-dot", "FILE", &o->dot, OPT_OUTPUT,
		           "also write the best model's pruned tree as DOT (§6.2)"),
		OPT_OUT("TREE.tsv", &o->out, OPT_REQUIRED,
		        "best model's unpruned tree (tree TSV, n_labels per node, param "
		        "ranking_k = K, confidence_threshold 0)"),
		OPT_STRING("--metrics", "FILE", &o->mout, OPT_REQUIRED | OPT_OUTPUT,
		           "metrics TSV, one row per (model, set) (FORMATS.md)"),
		OPT_INT("--threads", "N", &o->threads, 1, 1000000, 0,
		        "fit the grid's models on N threads (default: the online "
		        "CPUs, at most 256); the output does not depend on N"),
		OPT_FLAG("--verbose", &o->verbose,
		         "print every model's rows and the per-set tables sorted by "
		         "top_k_correct (the reference's output); default: the "
		         "selected model's rows (all models are in --metrics)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 0,
	                       "fit's report (the table of models)"}, argc, argv);
	check_options(o);
}

/* ---- outputs ---------------------------------------------------------- */

/* v printed with the fewest significant digits (up to 17) that read back
 * as v: 0.05, not 0.050000000000000003.  Returns buf (>= 32 bytes). */
static const char *
shortest(char *buf, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, 32, "%.0f", v);
		return buf;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, 32, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

static void
print_table_header(void)
{
	printf("%-12s %-8s %9s %16s %6s %13s %11s %12s %19s %21s %12s %10s %10s\n",
	       "set", "crit", "max_depth", "min_samples_leaf", "total",
	       "top_k_correct", "top_k_wrong", "top_k_unsure",
	       "wrong_max_speedup_k", "wrong_gmean_speedup_k", "regret_gmean",
	       "regret_p95", "regret_max");
}

static void
print_table_row(const char *set, const model *m, const metrics *x)
{
	printf("%-12s %-8s %9d %16g %6ld %13ld %11ld %12ld %19.4f %21.4f %12.4f "
	       "%10.4f %10.4f\n", set, grid_crit_name(m->crit), m->max_depth, m->msl,
	       x->total, x->top_k_correct, x->top_k_wrong, x->top_k_unsure,
	       x->wrong_max_speedup_k, x->wrong_gmean_speedup_k, x->regret_gmean,
	       x->regret_p95, x->regret_max);
}

/* The ranking table on stdout (§5.9 Output): the selected model's rows, or
 * with --verbose every model's and per set the models sorted by
 * top_k_correct (stable). */
static void
print_report(const fit_opts *o, const gridcv *g, const metrics *mx, int best)
{
	static const char *const sname[] = {"rows", "group", "none"};
	printf("heuristic %s: ranking k=%d, %d model(s), split %s, seed %llu\n",
	       o->hname, o->k, g->nmodels, sname[o->sp.mode],
	       (unsigned long long)o->sp.seed);
	print_table_header();
	for (int mi = 0; mi < g->nmodels; mi++)
		for (int s = 0; s < g->nsets; s++)
			if (o->verbose || mi == best)
				print_table_row(g->sets[s].name, &g->models[mi],
				                &mx[(size_t)mi * g->nsets + s]);
	if (g->nmodels < 2 || !o->verbose)
		return;
	int *ord = xmalloc((size_t)g->nmodels * sizeof *ord);
	for (int s = 0; s < g->nsets; s++) {
		for (int i = 0; i < g->nmodels; i++)
			ord[i] = i;
		for (int i = 1; i < g->nmodels; i++)
			for (int j = i; j > 0 &&
			     mx[(size_t)ord[j] * g->nsets + s].top_k_correct >
			     mx[(size_t)ord[j - 1] * g->nsets + s].top_k_correct; j--) {
				int tmp = ord[j];
				ord[j] = ord[j - 1];
				ord[j - 1] = tmp;
			}
		printf("\n%s, sorted by top_k_correct:\n", g->sets[s].name);
		print_table_header();
		for (int i = 0; i < g->nmodels; i++)
			print_table_row(g->sets[s].name, &g->models[ord[i]],
			                &mx[(size_t)ord[i] * g->nsets + s]);
	}
	free(ord);
}

/* --dump-train: the final training matrix, opened as da (committed by the
 * caller). */
static void
write_dump(aout *da, const char *path, const training *tr)
{
	int nf = tr->nf;
	double *X = xmalloc((tr->n_max + 1) * (size_t)nf * sizeof *X);
	int *Y = xmalloc((tr->n_max + 1) * sizeof *Y);
	double *W = xmalloc((tr->n_max + 1) * sizeof *W);
	int n = training_rows(tr, -1, X, Y, W);
	FILE *dp = aout_open(da, path);
	for (int f = 0; f < nf; f++)
		fprintf(dp, "%s\t", tr->ds[0].fs.feat[f]);
	fprintf(dp, "label\tweight\n");
	for (int i = 0; i < n; i++) {
		for (int f = 0; f < nf; f++)
			fprintf(dp, "%.17g\t", X[(size_t)i * nf + f]);
		fprintf(dp, "%s\t%.17g\n", tr->univ[Y[i]], W[i]);
	}
	free(W);
	free(Y);
	free(X);
}

/* --write-split: each main input's set, opened as sa (committed by the
 * caller). */
static void
write_split(aout *sa, const char *path, const dset *m)
{
	static const char *const sname[] = {"train", "val", "test"};
	FILE *sp = aout_open(sa, path);
	fprintf(sp, "input\tset\n");
	int *iset = xmalloc(((size_t)m->fs.n_inputs + 1) * sizeof *iset);
	for (int i = 0; i < m->fs.n_inputs; i++)
		iset[i] = -1;
	for (int r = 0; r < m->n_rows; r++)
		if (m->row[r] == m->win[m->inp[r]])
			iset[m->inp[r]] = m->set[r];
	for (int i = 0; i < m->fs.n_inputs; i++)
		fprintf(sp, "%d\t%s\n", i, iset[i] < 0 ? "dropped" : sname[iset[i]]);
	free(iset);
}

/* The metrics TSV, opened (committed by the caller). */
static FILE *
write_metrics(aout *mo, const char *path, const gridcv *g, const metrics *mx,
              int best)
{
	char msl[32];
	FILE *fp = aout_open(mo, path);
	fprintf(fp, "set\tcriterion\tmax_depth\tmin_samples_leaf\tselected\t%s\n",
	        mx_tsv_header);
	for (int mi = 0; mi < g->nmodels; mi++)
		for (int s = 0; s < g->nsets; s++) {
			const model *m = &g->models[mi];
			fprintf(fp, "%s\t%s\t%d\t%s\t%d\t", g->sets[s].name,
			        grid_crit_name(m->crit), m->max_depth, shortest(msl, m->msl),
			        mi == best);
			mx_tsv_row(&mx[(size_t)mi * g->nsets + s], fp);
			fputc('\n', fp);
		}
	return fp;
}

/* Give a fitted tree its names: metadata, features, classes. */
static void
name_tree(tree *t, const training *tr)
{
	const featset *fs = &tr->ds[0].fs;
	t->meta_json = xstrdup(fs->meta.json);
	t->feat = xmalloc((size_t)tr->nf * sizeof *t->feat);
	for (int f = 0; f < tr->nf; f++)
		t->feat[f] = xstrdup(fs->feat[f]);
	t->cls = xmalloc((size_t)tr->n_class * sizeof *t->cls);
	for (int c = 0; c < tr->n_class; c++)
		t->cls[c] = xstrdup(tr->univ[c]);
}

/* The outputs after the grid: dump, split, the table, the metrics, the
 * selected model's trees, committed together: if no model qualifies, fit
 * dies writing none of them (a previous run's files stay as they were). */
static void
write_outputs(const fit_opts *o, const gridcv *g, gridcv_result *r, int best)
{
	aout da, sa, mo, to, dto;
	if (o->dump)
		write_dump(&da, o->dump, g->tr);
	if (o->splitout)
		write_split(&sa, o->splitout, &g->tr->ds[0]);
	print_report(o, g, r->mx, best);
	write_metrics(&mo, o->mout, g, r->mx, best);
	if (best < 0) {
		aout_abort(&mo);
		if (o->splitout)
			aout_abort(&sa);
		if (o->dump)
			aout_abort(&da);
		die("no model qualifies (spec §5.10): all models had too many wrong "
		    "predictions or no correct top-1 prediction on val (%d inputs)",
		    g->sets[S_VAL].n);
	}
	tree *t = &r->full[best], *p = &r->pruned[best];
	name_tree(t, g->tr);
	name_tree(p, g->tr);
	tree_write(t, aout_open(&to, o->out));
	if (o->dot)
		dot_write(p, aout_open(&dto, o->dot));
	if (o->dump)
		aout_commit(&da);
	if (o->splitout)
		aout_commit(&sa);
	aout_commit(&mo);
	aout_commit(&to);
	if (o->dot)
		aout_commit(&dto);
	const model *m = &g->models[best];
	const metrics *v = &r->mx[(size_t)best * g->nsets + S_VAL];
	fprintf(stderr, "fit: best model: %s max_depth %d min_samples_leaf %g: "
	        "%d nodes, %d leaves, depth %d; pruned (k=%d): %d nodes, %d "
	        "leaves, depth %d; %s top-1 correct %ld/%ld\n",
	        grid_crit_name(m->crit), m->max_depth, m->msl, t->n_node,
	        tree_leaves(t), tree_depth(t), o->k, p->n_node, tree_leaves(p),
	        tree_depth(p), g->sets[S_VAL].name, v->correct, v->total);
	const cv_acc *c = &r->cacc[(size_t)best * g->nsets + S_VAL];
	fprintf(stderr, "fit: %s curve (hit rate, regret gmean): first entry alone "
	        "%.4f %.6f", g->sets[S_VAL].name, cv_hit(c, 0), cv_regret(c, 0));
	for (int q = 1; q <= CV_KMAX; q++)
		if (q <= 2 || q == 5 || q == 10)
			fprintf(stderr, ", top-%d+extern_mm %.4f %.6f", q, cv_hit(c, q),
			        cv_regret(c, q));
	fputc('\n', stderr);
}

/* ---- main ------------------------------------------------------------- */

/* Steps 1-3: read and expand every set, split, folds, the training set. */
static dset *
load(const fit_opts *o, training *tr)
{
	int nds = 1 + o->data.n / 2;
	dset *ds = xcalloc((size_t)nds, sizeof *ds);
	ds[0].name = "main";
	ds[0].path = o->main_path;
	for (int d = 1; d < nds; d++) {
		ds[d].name = o->data.v[2 * (d - 1)];
		ds[d].path = o->data.v[2 * (d - 1) + 1];
	}
	for (int d = 0; d < nds; d++) {
		dset_read(&ds[d], d ? &ds[0] : NULL);
		dset_expand(&ds[d], d == 0 ? o->nrows : -1);
	}
	split_sets(&ds[0], &o->sp);
	unsigned mask = o->folds ? (1u << S_TRAIN) | (1u << S_VAL) : 1u << S_TRAIN;
	training_make(tr, ds, nds, mask, o->lrank != RR_FREQ, o->lfill);
	if (o->folds) {
		int n_cv = split_folds(tr->src, mask, o->folds, o->sp.seed);
		if (n_cv < o->folds)
			die("--folds %d: only %d training inputs", o->folds, n_cv);
	}
	return ds;
}

int
main(int argc, char **argv)
{
	fit_opts o;
	fit_cli(&o, argc, argv);
	model *models;
	int nmodels, nsets;
	grid_read(o.grid, &models, &nmodels);

	double t0 = mono_s();
	training tr;
	dset *ds = load(&o, &tr);
	evset *sets = gridcv_sets(&tr, o.sp.mode == SPLIT_NONE, o.folds > 0, &nsets);
	double t_read = mono_s() - t0;
	fprintf(stderr, "fit: %s: %d inputs -> %d near-best rows; training set "
	        "%d rows (%d features, %d classes); sets:", o.main_path,
	        ds[0].fs.n_inputs, ds[0].n_rows, training_rows(&tr, -1, NULL, NULL, NULL),
	        tr.nf, tr.n_class);
	for (int s = 0; s < nsets; s++)
		fprintf(stderr, " %s %d", sets[s].name, sets[s].n);
	fprintf(stderr, o.folds ? " (%d folds)\n" : "\n", o.folds);
	if (o.k > tr.n_class)
		warnf("--ranking %d is more than the %d class%s (choices) of the training "
		      "set: every top-%d list holds all of them, so the top-k metrics are "
		      "trivially met", o.k, tr.n_class, tr.n_class == 1 ? "" : "es", o.k);

	/* steps 4-6: grid/CV, selection, the written tree */
	int rdef = tr.def < tr.n_class ? tr.def : -1; /* extern_mm, if a class */
	gridcv g = {&tr, models, nmodels, o.folds, sets, nsets,
	            {o.k, o.pxe ? rdef : -1, o.srank, rdef, o.lpad, 0}};
	gridcv_result r;
	pool *pl = pool_new(o.threads);
	double t_grid = mono_s();
	gridcv_run(&g, &r, pl);
	t_grid = mono_s() - t_grid;
	int best = o.select == SEL_CURVE
	    ? select_curve(r.cacc + S_VAL, r.mx + S_VAL, nmodels, (size_t)nsets)
	    : select_model(r.mx + S_VAL, nmodels, (size_t)nsets, o.select);
	if (best >= 0)
		gridcv_rank_written(&g, &r.full[best], o.lrank, o.lfill);
	if (best >= 0 && o.topk_eps > 0)
		gridcv_top_k(&g, best, &r.full[best], o.lrank, o.lfill, o.topk_eps, pl);
	pool_free(pl);
	write_outputs(&o, &g, &r, best);
	/* r.t_fit, r.t_eval: each task's wall time, summed over the tasks that
	 * ran on the threads at once (about their CPU time), not elapsed time */
	fprintf(stderr, "fit: time: read %.3f s, grid %.3f s elapsed on %d thread%s "
	        "(task time summed over threads: fit %.3f s, eval %.3f s)\n",
	        t_read, t_grid, o.threads, plural_s(o.threads), r.t_fit, r.t_eval);

	gridcv_result_free(&r, &g);
	gridcv_sets_free(sets, nsets);
	training_free(&tr);
	for (int d = 0; d < 1 + o.data.n / 2; d++)
		dset_free(&ds[d]);
	free(ds);
	free(models);
	free(o.data.v);
	close_stdout();
	return 0;
}
