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
"fit [options] MAIN.feat.tsv -o TREE.tsv --metrics METRICS.tsv";

static const char about[] =
"Train the mm ranking decision tree (spec §5.2-§5.10): fit every model of\n"
"the grid, select one, write its unpruned tree.  Times are median ms per\n"
"(input, choice); regret is a ratio of times (best listed ms / best ms).\n";

static const char notes[] =
"stdout: the ranking table (§5.9 Output) plus regret columns; stderr: a\n"
"summary and one timing line 'fit: time: read S s, grid S s elapsed on N\n"
"threads (task time summed over threads: fit S s, eval S s)'.\n"
"Exit status: 0 on success; 1 on bad usage, invalid input (file:line and\n"
"field named), no model passing the §5.10 rule, or a write error.\n"
"See docs/STAGES.md \"fit\" for the long form of every option.\n";

/* --leaf-rank's help: the rule names of rr_mode_names (rerank.h, the
 * leaforder.h table), generated so that it names every rule fit takes */
static char *
leaf_rank_help(void)
{
	static const char head[] = "each node's list order: ";
	static const char tail[] =
		" (default freq, the reference's; make's: the GPU profile "
		"datasets/PROFILES.tsv)";
	size_t n = sizeof head + sizeof tail;
	for (int i = 0; rr_mode_names[i]; i++)
		n += strlen(rr_mode_names[i]) + 2;
	char *h = xmalloc(n), *e = h;
	e += sprintf(e, "%s", head);
	for (int i = 0; rr_mode_names[i]; i++)
		e += sprintf(e, "%s%s", i ? ", " : "", rr_mode_names[i]);
	sprintf(e, "%s", tail);
	return h;
}

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
	char *h_leaf_rank = leaf_rank_help();
	const opt table[] = {
		OPT_HEAD("Inputs and outputs:"),
		OPT_POS("MAIN.feat.tsv", &o->main_path, OPT_REQUIRED | OPT_INPUT,
		        "main set, a feat TSV (stages/FORMATS.md; ms)"),
		OPT_LIST("--data", "NAME PATH", 2, &o->data, OPT_INPUT,
		         "extra feat TSV, scored as set NAME; train_timm, train_hf "
		         "and train_models are trained on too, 3x (repeatable)"),
		OPT_OUT("TREE.tsv", &o->out, OPT_REQUIRED,
		        "the selected model's unpruned tree (tree TSV)"),
		OPT_STRING("--metrics", "FILE", &o->mout, OPT_REQUIRED | OPT_OUTPUT,
		           "metrics TSV, one row per (model, set)"),
		OPT_STRING("--dump-train", "FILE", &o->dump, OPT_OUTPUT,
		           "the final training matrix as TSV"),
		OPT_STRING("--write-split", "FILE", &o->splitout, OPT_OUTPUT,
		           "each main input's set, TSV 'input<TAB>set'"),
		OPT_STRING("--save-dot", "FILE", &o->dot, OPT_OUTPUT,
		           "also the selected model's pruned tree as DOT (§6.2)"),
		OPT_HEAD("Split and cross-validation:"),
		OPT_ENUM("--split", "MODE", &o->sp.mode, splits, 0,
		         "rows (default, the reference's), group or none"),
		OPT_I64("--seed", "S", &o->seed, 0, INT64_MAX, 0,
		        "split seed (default 42)"),
		OPT_DOUBLE("--test-fraction", "F", &o->sp.test_frac, 0, 0.5, OPT_XLO,
		           "share of test units, in (0, 0.5] (default 0.01)"),
		OPT_CALL("--test-fold", "F/K", parse_test_fold, &o->sp,
		         "test = fold F of K of the inputs (--split group)"),
		OPT_INT("--folds", "K", &o->folds, 0, 100, 0,
		        "select by K-fold CV (--split group; default 0: on val)"),
		OPT_INT("--nrows", "N", &o->nrows, 0, 2000000000, 0,
		        "keep only the first N rows of MAIN"),
		OPT_HEAD("Models and selection:"),
		OPT_STRING("--grid", "G", &o->grid, 0,
		           "mm (default), reference, search (56 models) or FILE"),
		OPT_ENUM("--select", "RULE", &o->select, sels, 0,
		         "top1 (default, §5.10), regret, hit or curve"),
		OPT_INT("--ranking", "K", &o->k, 1, 1000000, 0,
		        "top-k for pruning (§5.6) and evaluation (default 10)"),
		OPT_FLAG("--prune-exclude-extern", &o->pxe,
		         "(ours) pruning ignores extern_mm in a child's labels"),
		OPT_HEAD("Leaf lists (ours, except freq):"),
		OPT_ENUM("--leaf-rank", "R", &o->lrank, rr_mode_names, 0, h_leaf_rank),
		OPT_ENUM("--select-rank", "R", &o->srank, rr_mode_names, 0,
		         "the order models are scored with (default: --leaf-rank)"),
		OPT_INT("--leaf-pad", "N", &o->lpad, 0, 100000, 0,
		        "append up to N ancestors' classes (default 0)"),
		OPT_ENUM("--leaf-fill", "MODE", &o->lfill, fills, 0,
		         "none (default) or all: every class (departs from §5.2)"),
		OPT_DOUBLE("--topk-eps", "E", &o->topk_eps, 0, 0.5, 0,
		           "per-node k: out-of-fold regret <= 1 + E (needs "
		           "--folds >= 2; default 0: off)"),
		OPT_HEAD("Run:"),
		OPT_STRING("--heuristic-name", "NAME", &o->hname, 0,
		           "the name in the report "
		           "(default learned_heuristic)"),
		OPT_INT("--threads", "N", &o->threads, 1, 1000000, 0,
		        "threads (default: the online CPUs; same output)"),
		OPT_FLAG("--verbose", &o->verbose,
		         "every model's rows and the per-set tables"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 22,
	                       "fit's report (the table of models)"}, argc, argv);
	free(h_leaf_rank);
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
	fprintf(stderr, "fit: %s curve (hit rate, regret gmean): the pick alone "
	        "%.4f %.6f, the list head alone %.4f %.6f", g->sets[S_VAL].name,
	        cv_hit(c, 0), cv_regret(c, 0), cv_hit(c, CV_HEAD), cv_regret(c, CV_HEAD));
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
