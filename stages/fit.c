/* fit — train the ranking decision tree (spec §5.2–§5.10).
 *
 * Inputs are feat TSVs (stages/FORMATS.md): one aggregated row per
 * (input, choice) with the input's features and the median time in ms.
 * Steps:
 *  1. ranking expansion (§5.2): every input becomes one row per near-best
 *     choice (relative_performance = best/t >= 0.98, weight = that ratio,
 *     label = the choice; the actual winner is kept); inputs whose best time
 *     is inf vanish;
 *  2. split (§5.3), seeded: 1 % test, 19 % val, 80 % train, by expanded rows
 *     (the reference's train_test_split twice, both with the same seed) or by
 *     input; then train_timm and train_hf (if given) appended 3× each;
 *  3. classes = sorted (strcmp) labels of the final training set;
 *  4. for each model of the grid (§5.4): CART fit (stages/lib/cart.h),
 *     ranking pruning with k = K (§5.6), evaluation of every set (§5.9,
 *     stages/lib/metrics.h; ranking mode: one case per input, the input
 *     belongs to the set its winner row went to);
 *  5. best model (§5.10): top-1 correct on val, strictly greater, wrong <=
 *     total·1.0 (mm); confidence threshold 0.0 (§5.8 with pct 1.0).
 *     Ours (issue #3): --select regret|hit on val or cross-validation, and
 *     --leaf-rank greedy re-orders the class lists (stages/lib/rerank.h):
 *     the pruned trees' leaves for evaluation, every node of the written
 *     tree (prune keeps a node's list, so both agree).
 * Outputs: the best model's *unpruned* tree (-o; param ranking_k = K), the
 * metrics TSV of every (model, set), the ranking table on stdout, a timing
 * line on stderr.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cart.h"
#include "dot.h"
#include "featset.h"
#include "metrics.h"
#include "pool.h"
#include "progress.h"
#include "rerank.h"
#include "rng.h"
#include "tree.h"
#include "util.h"

static const char usage[] =
"usage: fit MAIN.feat.tsv [--data NAME PATH]... [--heuristic-name NAME]\n"
"           [--ranking K] [--nrows N] [--seed S] [--split rows|group|none]\n"
"           [--grid mm|reference|search|FILE] [--select top1|regret|hit]\n"
"           [--leaf-rank freq|greedy] [--leaf-pad N] [--prune-exclude-extern]\n"
"           [--folds K] [--test-fraction F | --test-fold F/K] [--dump-train FILE]\n"
"           [--write-split FILE] [--verbose] [--threads N]\n"
"           [--save-dot FILE]\n"
"           -o TREE.tsv --metrics METRICS.tsv\n"
"\n"
"Train the mm ranking decision tree (spec §5.2-§5.10).\n"
"\n"
"  MAIN.feat.tsv     main data set, a feat TSV (stages/FORMATS.md; times in ms)\n"
"  --data NAME PATH  extra feat TSV (featurize --categories MAIN), evaluated as\n"
"                    set NAME; train_timm and train_hf are also appended 3x\n"
"                    each to the training set (spec §5.3 step 4; a warning if\n"
"                    either is missing).  Repeatable; evaluated in CLI order.\n"
"  --heuristic-name  name shown in the report (default learned_heuristic;\n"
"                    the emitted class name is emit's business)\n"
"  --ranking K       top-k size for pruning (§5.6) and evaluation (§5.9);\n"
"                    default 10\n"
"  --nrows N         keep only the first N rows of MAIN (an input cut short\n"
"                    keeps its first rows, its winner recomputed; §5.0)\n"
"  --seed S          split seed (default 42)\n"
"  --split MODE      rows (default): shuffle expanded rows like the reference\n"
"                    (n_test = ceil(0.01 n), n_val = ceil(0.19/0.99 (n-n_test)),\n"
"                    rows of one input may land in different sets); group:\n"
"                    same proportions over inputs, all rows of an input in\n"
"                    one set; none: no hold-out, val and test = train (tests)\n"
"  --test-fraction F  share of test units (default 0.01, the reference's;\n"
"                    val stays 19 % of the whole); e.g. 0.2 for a held-out\n"
"                    comparison (make compare)\n"
"  --test-fold F/K   (ours; --split group only) test = block F (0-based) of\n"
"                    K of the seeded permutation of the inputs, the other\n"
"                    inputs split into val and train as with --test-fraction\n"
"                    1/K: the K folds' test sets are disjoint and cover every\n"
"                    input (out-of-fold comparison, perf/compare/oof.sh);\n"
"                    fold F is inputs [ceil(F n/K), ceil((F+1) n/K)) of the\n"
"                    permutation, so 0/K is --test-fraction 1/K's split when\n"
"                    that holds ceil(n/K) inputs (322, 2641: yes); an empty\n"
"                    fold (K > inputs) is an error\n"
"  --grid G          mm (default): max_depth 5, min_samples_leaf 0.01, entropy;\n"
"                    reference: the §5.4 base grid (depth 5,6,7 x msl 1,5,10,\n"
"                    0.01,0.05,0.02 x gini,entropy); search (ours): depth\n"
"                    5-8 x msl 1,5,10,0.005,0.01,0.02,0.05 x gini,entropy (56\n"
"                    models); FILE: a TSV of lines\n"
"                    'max_depth<TAB>min_samples_leaf<TAB>gini|entropy' ('#'\n"
"                    comments and a header line starting 'max_depth' allowed)\n"
"  --select RULE     top1 (default, spec §5.10): most top-1 correct on val;\n"
"                    regret (ours): smallest top-k regret geometric mean on\n"
"                    val (best median time in the top-k list / oracle time),\n"
"                    ties by more top_k_correct, then the earlier model;\n"
"                    hit (ours): most top_k_correct (top-k hit rate), ties\n"
"                    by the smaller regret geometric mean, then the earlier\n"
"                    model\n"
"  --leaf-rank R     order of every node's class list (the leaf lists that\n"
"                    emit writes, §6.1; stages/lib/rerank.h): freq (default,\n"
"                    the reference): weighted frequency among the near-best\n"
"                    labels (§5.2); greedy (ours): extern_mm last (it is\n"
"                    always appended, §7.3), the others by how many training\n"
"                    inputs reaching the node they win (main inputs count 1,\n"
"                    train_timm/train_hf inputs 3), ties by the largest drop\n"
"                    of the inputs' summed log regret (best listed median ms /\n"
"                    best ms), greedily.  Same classes as freq; the written\n"
"                    probabilities become rank weights (j-th of m: (m-j) /\n"
"                    (m(m+1)/2)).  Used in cross-validation too.\n"
"  --leaf-pad N      (ours, with --leaf-rank greedy; default 0 = off) after a\n"
"                    node's own classes, list up to N more: those of its\n"
"                    parent, then grandparent, ... (each in its weighted\n"
"                    frequency order, §5.2 labels), skipping listed ones and\n"
"                    extern_mm (still last).  An input whose own candidate\n"
"                    set barely meets its leaf's near-best labels (Inductor\n"
"                    offers shape-dependent configs) then finds more of its\n"
"                    candidates in the list (make: LEAF_PAD = k).  n_labels\n"
"                    stays the node's own count (pruning, §5.6, unchanged);\n"
"                    the written list is longer (stages/FORMATS.md)\n"
"  --prune-exclude-extern  (ours, departs from §5.6) the ranking pruning of\n"
"                    every model (grid search and cross-validation) does not\n"
"                    count extern_mm among a child's distinct near-best\n"
"                    labels: every surviving leaf keeps >= K labels other than\n"
"                    extern_mm (Inductor appends extern_mm anyway, §7.3).  Off\n"
"                    by default; give prune the same option for the written\n"
"                    tree.  No effect if extern_mm is not a training class\n"
"  --folds K         K-fold cross-validation for model selection (needs\n"
"                    --split group): the main set's train+val inputs and the\n"
"                    train_timm/train_hf inputs are cut into K seeded folds;\n"
"                    each model is fitted K times without one fold and scored\n"
"                    on it (set 'cv', pooled over all folds and sets), then\n"
"                    refitted on all training rows (set 'train' = main\n"
"                    train+val); 0 (default) = select on val\n"
"  --dump-train FILE the final training matrix as TSV: feature columns,\n"
"                    label, weight (for the scikit-learn oracle test)\n"
"  --write-split FILE  main inputs' sets as TSV 'input<TAB>set' (train, val,\n"
"                    test, or dropped when every choice failed)\n"
"  --save-dot FILE   also write the best model's pruned tree as DOT (§6.2)\n"
"  -o TREE.tsv       best model's unpruned tree (tree TSV, n_labels per node,\n"
"                    param ranking_k = K, confidence_threshold 0)\n"
"  --metrics FILE    metrics TSV, one row per (model, set) (FORMATS.md)\n"
"\n"
"  --threads N       fit the grid's models on N threads (default: the online\n"
"                    CPUs, at most 256); the output does not depend on N\n"
"  --verbose         print every model's rows and the per-set tables sorted\n"
"                    by top_k_correct (the reference's output); default: the\n"
"                    selected model's rows (all models are in --metrics)\n"
"\n"
"stdout: the ranking table (§5.9 Output) plus regret columns; stderr: a\n"
"summary and one timing line 'fit: time: read S s, fit S s, eval S s'.\n"
"Exit status: 0 on success; 1 on bad usage, invalid input (file:line and\n"
"field named), no model passing the §5.10 rule, or a write error.\n";

enum { S_TRAIN, S_VAL, S_TEST };

/* One input data set after ranking expansion (§5.2). */
typedef struct {
	const char *name, *path;
	featset fs;
	int *gch;       /* [fs.n_choices] choice -> universe index */
	int *hi;        /* [n_inputs] end of the input's kept rows (--nrows) */
	int *win;       /* [n_inputs] featset row of its winner, -1: vanished */
	int n_rows;     /* expanded rows */
	int *inp;       /* [n_rows] input */
	int *row;       /* [n_rows] featset row of the label choice */
	double *w;      /* [n_rows] relative performance */
	int *set;       /* [n_rows] S_TRAIN / S_VAL / S_TEST (main only) */
	int *fold;      /* [n_inputs] cross-validation fold, -1: none (--folds) */
	double *ct;     /* [n_inputs * n_class] median ms per class, NAN = not
	                   measured (--leaf-rank greedy only) */
} dset;

typedef struct {
	int max_depth;
	double msl;
	int crit;
} model;

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long
parse_long_opt(const char *opt, const char *s, long lo, long hi)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0 || v < lo || v > hi)
		die("%s: expected an integer in [%ld, %ld], got '%s'", opt, lo, hi, s);
	return (long)v;
}

/* §5.2 on ds (rows of input i limited to [first[i], hi[i])). */
static void
expand(dset *ds, long nrows)
{
	featset *fs = &ds->fs;
	size_t cap = 0;
	ds->hi = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ds->hi);
	ds->win = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ds->win);
	ds->n_rows = 0;
	ds->inp = NULL;
	ds->row = NULL;
	ds->w = NULL;
	size_t c1 = 0, c2 = 0;
	int vanished = 0;
	for (int i = 0; i < fs->n_inputs; i++) {
		int lo = fs->first[i], hi = fs->first[i + 1];
		if (nrows >= 0 && hi > nrows)
			hi = nrows > lo ? (int)nrows : lo;
		ds->hi[i] = hi;
		ds->win[i] = -1;
		if (hi - lo < 2) /* §5.1 step 5 (only after --nrows) */
			continue;
		double best = INFINITY;
		int wr = -1;
		for (int j = lo; j < hi; j++) /* ties: first seen */
			if (wr < 0 || fs->ms[j] < best) {
				best = fs->ms[j];
				wr = j;
			}
		if (!isfinite(best)) {
			vanished++;
			continue;
		}
		ds->win[i] = wr;
		for (int j = lo; j < hi; j++) {
			double rp = best / fs->ms[j];
			if (!(rp >= 0.98))
				continue;
			size_t k = (size_t)ds->n_rows++;
			xgrow((void **)&ds->inp, &cap, k + 1, sizeof *ds->inp);
			xgrow((void **)&ds->row, &c1, k + 1, sizeof *ds->row);
			xgrow((void **)&ds->w, &c2, k + 1, sizeof *ds->w);
			ds->inp[k] = i;
			ds->row[k] = j;
			ds->w[k] = rp;
		}
	}
	if (vanished)
		warnf("%s: %d input(s) whose best time is inf dropped (§5.2)",
		      ds->path, vanished);
}

/* Permute the expanded rows of ds: new row i = old row ord[i]. */
static void
reorder(dset *ds, const int *ord)
{
	int n = ds->n_rows;
	int *inp = xmalloc(((size_t)n + 1) * sizeof *inp);
	int *row = xmalloc(((size_t)n + 1) * sizeof *row);
	double *w = xmalloc(((size_t)n + 1) * sizeof *w);
	int *st = xmalloc(((size_t)n + 1) * sizeof *st);
	for (int i = 0; i < n; i++) {
		inp[i] = ds->inp[ord[i]];
		row[i] = ds->row[ord[i]];
		w[i] = ds->w[ord[i]];
		st[i] = ds->set[ord[i]];
	}
	free(ds->inp);
	free(ds->row);
	free(ds->w);
	free(ds->set);
	ds->inp = inp;
	ds->row = row;
	ds->w = w;
	ds->set = st;
}

/* §5.3 split of the main set's expanded rows into ds->set[]: a fraction
 * test_frac (reference: 0.01) of the units for test, then 0.19/(1-test_frac)
 * of the rest for val (the reference's 19 % of the whole), the rest train.
 * With tfolds > 0 (ours, --test-fold F/K; group split only) the test units
 * are block tfold of tfolds of the seeded permutation (positions
 * [ceil(F nu/K), ceil((F+1) nu/K)), in integers), test_frac is 1/K (val's
 * share), and the remaining units, in permuted order, are split into val
 * and train as above: the K folds' test sets are disjoint and cover every
 * input (fold 0 is --test-fraction 1/K's test set whenever that holds
 * ceil(nu/K) units). */
static void
split(dset *ds, const char *mode, uint64_t seed, double test_frac, int tfold,
      int tfolds)
{
	int n = ds->n_rows;
	ds->set = xmalloc(((size_t)n + 1) * sizeof *ds->set);
	if (!strcmp(mode, "none")) {
		for (int i = 0; i < n; i++)
			ds->set[i] = S_TRAIN;
		return;
	}
	int by_group = !strcmp(mode, "group");
	/* units: rows, or inputs (that did not vanish) */
	int nu = 0, *unit_of = NULL;
	if (by_group) {
		unit_of = xmalloc(((size_t)ds->fs.n_inputs + 1) * sizeof *unit_of);
		for (int i = 0; i < ds->fs.n_inputs; i++)
			unit_of[i] = ds->win[i] >= 0 ? nu++ : -1;
	} else {
		nu = n;
	}
	int *perm = xmalloc(((size_t)nu + 1) * sizeof *perm);
	int *uset = xmalloc(((size_t)nu + 1) * sizeof *uset);
	rng r;
	rng_seed(&r, seed);
	for (int i = 0; i < nu; i++)
		perm[i] = i;
	rng_shuffle(&r, perm, nu);
	int n_test = (int)ceil(test_frac * (double)nu);
	if (tfolds > 0) {
		/* move block tfold to the front, the rest keeps its order */
		int lo = (int)(((int64_t)tfold * nu + tfolds - 1) / tfolds),
		    hi = (int)(((int64_t)(tfold + 1) * nu + tfolds - 1) / tfolds), p = 0;
		if (hi == lo)
			die("--test-fold %d/%d: the fold holds no input (%d inputs for %d folds)",
			    tfold, tfolds, nu, tfolds);
		int *rot = xmalloc(((size_t)nu + 1) * sizeof *rot);
		for (int i = lo; i < hi; i++)
			rot[p++] = perm[i];
		for (int i = 0; i < nu; i++)
			if (i < lo || i >= hi)
				rot[p++] = perm[i];
		free(perm);
		perm = rot;
		n_test = hi - lo;
	}
	int m = nu - n_test;
	for (int i = 0; i < n_test; i++)
		uset[perm[i]] = S_TEST;
	/* second split of the train_val rows (in their permuted order), with a
	 * fresh generator of the same seed, like random_state=42 twice */
	int *perm2 = xmalloc(((size_t)m + 1) * sizeof *perm2);
	for (int i = 0; i < m; i++)
		perm2[i] = i;
	rng_seed(&r, seed);
	rng_shuffle(&r, perm2, m);
	int n_val = (int)ceil(0.19 / (1.0 - test_frac) * (double)m);
	for (int i = 0; i < m; i++)
		uset[perm[n_test + perm2[i]]] = i < n_val ? S_VAL : S_TRAIN;
	/* training row order = permuted order (as the reference's frame) */
	for (int i = 0; i < n; i++)
		ds->set[i] = uset[by_group ? unit_of[ds->inp[i]] : i];
	if (!by_group) {
		/* reorder the rows of the main set into permuted order so that the
		 * training set keeps the reference's row order */
		int *ord = xmalloc(((size_t)n + 1) * sizeof *ord);
		int p = 0;
		for (int i = 0; i < m; i++)
			ord[p++] = perm[n_test + perm2[i]];
		for (int i = 0; i < n_test; i++)
			ord[p++] = perm[i];
		reorder(ds, ord);
		free(ord);
	} else {
		/* inputs in permuted order, rows of an input in file order */
		int *pos = xmalloc(((size_t)nu + 1) * sizeof *pos);
		for (int i = 0; i < nu; i++)
			pos[perm[i]] = i;
		int *ord = xmalloc(((size_t)n + 1) * sizeof *ord);
		int *cnt = xcalloc((size_t)nu + 1, sizeof *cnt);
		for (int i = 0; i < n; i++)
			cnt[pos[unit_of[ds->inp[i]]] + 1]++;
		for (int i = 0; i < nu; i++)
			cnt[i + 1] += cnt[i];
		for (int i = 0; i < n; i++)
			ord[cnt[pos[unit_of[ds->inp[i]]]]++] = i;
		reorder(ds, ord);
		free(ord);
		free(cnt);
		free(pos);
	}
	free(perm2);
	free(uset);
	free(perm);
	free(unit_of);
}


static void
read_grid(const char *g, model **out, int *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	if (!strcmp(g, "mm")) {
		xgrow((void **)out, &cap, 1, sizeof **out);
		(*out)[(*n)++] = (model){5, 0.01, CART_ENTROPY};
		return;
	}
	if (!strcmp(g, "reference") || !strcmp(g, "search")) {
		/* search (ours): depth 5-8 and a finer min_samples_leaf list */
		static const double ref_msl[] = {1, 5, 10, 0.01, 0.05, 0.02};
		static const double search_msl[] = {1, 5, 10, 0.005, 0.01, 0.02, 0.05};
		int search = !strcmp(g, "search");
		const double *msl = search ? search_msl : ref_msl;
		int nmsl = search ? 7 : 6;
		for (int d = 5; d <= (search ? 8 : 7); d++)
			for (int i = 0; i < nmsl; i++)
				for (int c = 0; c < 2; c++) {
					xgrow((void **)out, &cap, (size_t)*n + 1, sizeof **out);
					(*out)[(*n)++] = (model){d, msl[i],
					    c == 0 ? CART_GINI : CART_ENTROPY};
				}
		return;
	}
	size_t len;
	char *buf = read_file(g, &len);
	long ln = 0;
	for (char *p = buf, *nl; p < buf + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(buf + len - p));
		if (!nl)
			die("%s: missing final newline", g);
		*nl = '\0';
		ln++;
		if (*p == '#' || *p == '\0' || !strncmp(p, "max_depth", 9))
			continue;
		char *f[3];
		int nf = 0;
		f[nf++] = p;
		for (char *q = p; *q; q++)
			if (*q == '\t') {
				if (nf == 3)
					die("%s:%ld: expected 3 fields (max_depth, "
					    "min_samples_leaf, criterion)", g, ln);
				*q = '\0';
				f[nf++] = q + 1;
			}
		if (nf != 3)
			die("%s:%ld: expected 3 fields (max_depth, min_samples_leaf, "
			    "criterion), got %d", g, ln, nf);
		model m;
		int64_t d;
		if (parse_i64(f[0], strlen(f[0]), &d) || d < 0 || d > 1000)
			die("%s:%ld: field 'max_depth': expected 0..1000, got '%s'", g,
			    ln, f[0]);
		m.max_depth = (int)d;
		if (parse_f64(f[1], strlen(f[1]), &m.msl) || !(m.msl > 0) ||
		    isinf(m.msl) || (m.msl >= 1 && m.msl != floor(m.msl)))
			die("%s:%ld: field 'min_samples_leaf': expected a count >= 1 "
			    "or a fraction in (0, 1), got '%s'", g, ln, f[1]);
		if (!strcmp(f[2], "gini"))
			m.crit = CART_GINI;
		else if (!strcmp(f[2], "entropy"))
			m.crit = CART_ENTROPY;
		else
			die("%s:%ld: field 'criterion': expected gini or entropy, got "
			    "'%s'", g, ln, f[2]);
		xgrow((void **)out, &cap, (size_t)*n + 1, sizeof **out);
		(*out)[(*n)++] = m;
	}
	free(buf);
	if (*n == 0)
		die("%s: grid has no models", g);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One evaluated (input) case of a set. */
typedef struct {
	dset *ds;
	int i;
} ecase;

typedef struct {
	const char *name;
	ecase *c;
	int n;
} evset;

/* Evaluate tree t (pruned) on sets[0..nsets): each input of sets[s] is
 * added to the accumulator acc[s] (§5.9; the caller runs mx_init before and
 * mx_finish after, so several trees can add to one accumulator, as the
 * folds of cross-validation do). */
static void
evaluate(const tree *t, evset *sets, int nsets, int n_univ, mx_acc *acc)
{
	double *time = xmalloc((size_t)n_univ * sizeof *time);
	for (int u = 0; u < n_univ; u++)
		time[u] = NAN;
	/* ranked list of every leaf, computed once */
	int *roff = xcalloc((size_t)t->n_node + 1, sizeof *roff);
	int *rank = xmalloc(((size_t)t->n_prob + 1) * sizeof *rank);
	double *prob = xmalloc(((size_t)t->n_prob + 1) * sizeof *prob);
	tree_prob *tmp = xmalloc(((size_t)t->n_class + 1) * sizeof *tmp);
	int off = 0;
	for (int i = 0; i < t->n_node; i++) {
		roff[i] = off;
		if (t->node[i].feature >= 0)
			continue;
		int nr = tree_ranked(t, i, tmp, t->n_class);
		for (int j = 0; j < nr; j++) {
			rank[off + j] = tmp[j].cls; /* class index == universe index */
			prob[off + j] = tmp[j].p;
		}
		off += nr;
	}
	roff[t->n_node] = off;
	for (int s = 0; s < nsets; s++) {
		for (int c = 0; c < sets[s].n; c++) {
			dset *ds = sets[s].c[c].ds;
			featset *fs = &ds->fs;
			int i = sets[s].c[c].i;
			for (int j = fs->first[i]; j < ds->hi[i]; j++)
				time[ds->gch[fs->choice[j]]] = fs->ms[j];
			int leaf = tree_apply(t, fs->x + (size_t)i * fs->n_feat);
			mx_case mc = {time, ds->gch[fs->choice[ds->win[i]]],
			              rank + roff[leaf], prob + roff[leaf],
			              t->node[leaf].prob_len, 0};
			mx_add(&acc[s], &mc);
			for (int j = fs->first[i]; j < ds->hi[i]; j++)
				time[ds->gch[fs->choice[j]]] = NAN;
		}
	}
	free(tmp);
	free(prob);
	free(rank);
	free(roff);
	free(time);
}

/* Fill X (rows x nf), Y (class index), W with the training rows: main
 * rows whose set is in mask, then train_timm and train_hf 3x each (§5.3
 * step 4); with fold >= 0, rows of inputs in that fold (dset.fold) are
 * left out.  Labels are looked up among the n_class sorted classes univ[].
 * Returns the number of rows. */
static int
build_xyw(const dset *ds, const int extra[2], unsigned mask, int fold,
          const char **univ, int n_class, double *X, int *Y, double *W)
{
	int nf = ds[0].fs.n_feat, p = 0;
	for (int e = -1; e < 2; e++) {
		const dset *x = e < 0 ? &ds[0] : extra[e] >= 0 ? &ds[extra[e]] : NULL;
		if (!x)
			continue;
		for (int r = 0; r < x->n_rows; r++) {
			if ((e < 0 && !(mask >> x->set[r] & 1)) ||
			    (fold >= 0 && x->fold[x->inp[r]] == fold))
				continue;
			const char *lab = x->fs.choices[x->fs.choice[x->row[r]]];
			const char **hit = bsearch(&lab, univ, (size_t)n_class,
			                           sizeof *univ, cmp_str);
			for (int rep = 0; rep < (e < 0 ? 1 : 3); rep++) {
				memcpy(X + (size_t)p * nf, x->fs.x + (size_t)x->inp[r] * nf,
				       (size_t)nf * sizeof *X);
				Y[p] = (int)(hit - univ);
				W[p++] = x->w[r];
			}
		}
	}
	return p;
}

/* The training *inputs* of build_xyw(ds, extra, mask, fold, ...) for
 * rerank(): a main input whose winner row's set is in mask, every input of
 * train_timm and train_hf (weight 3, their rows are repeated 3x); inputs of
 * fold `fold` left out.  ds[].ct is filled on first use.  Returns the count
 * written to rr (sized for every input of those sets). */
static int
build_rr(dset *ds, const int extra[2], unsigned mask, int fold, int n_class,
         rr_input *rr)
{
	int p = 0;
	for (int e = -1; e < 2; e++) {
		dset *x = e < 0 ? &ds[0] : extra[e] >= 0 ? &ds[extra[e]] : NULL;
		if (!x)
			continue;
		featset *fs = &x->fs;
		if (!x->ct) {
			size_t n = (size_t)fs->n_inputs * (size_t)n_class;
			x->ct = xmalloc((n + 1) * sizeof *x->ct);
			for (size_t j = 0; j < n; j++)
				x->ct[j] = NAN;
			for (int i = 0; i < fs->n_inputs; i++)
				for (int j = fs->first[i]; j < x->hi[i]; j++) {
					int u = x->gch[fs->choice[j]];
					if (u < n_class)
						x->ct[(size_t)i * n_class + u] = fs->ms[j];
				}
		}
		for (int r = 0; r < x->n_rows; r++) {
			int i = x->inp[r];
			if (x->row[r] != x->win[i] || (e < 0 && !(mask >> x->set[r] & 1)) ||
			    (fold >= 0 && x->fold[i] == fold))
				continue;
			int u = x->gch[fs->choice[x->win[i]]];
			if (u >= n_class)
				die("%s: input %d: winner '%s' is not a training class",
				    x->path, i, fs->choices[fs->choice[x->win[i]]]);
			rr[p++] = (rr_input){fs->x + (size_t)i * fs->n_feat,
			                     x->ct + (size_t)i * n_class, u, e < 0 ? 1 : 3};
		}
	}
	return p;
}

/* Prune, re-rank and evaluate the fitted trees t[0..nmodels) on the pool
 * (issue #20): item mi writes only p[mi] and acc[mi * nsets + ...], so the
 * result does not depend on the thread count.  ev[0..nev) are evaluated
 * into acc[mi * nsets + acc0 + s], set `skip` left out; final: ranking_k is
 * set before pruning and the accumulators are finished into mx (the final
 * fits); otherwise (a cross-validation fold) both trees are freed. */
typedef struct {
	tree *t, *p;
	int k, excl, lrank, rdef, lpad, nrr, n_univ, nsets, nev, skip, acc0, final;
	const rr_input *rr;
	evset *ev;
	mx_acc *acc;
	metrics *mx;
} model_job;

static void
model_item(void *arg, int mi, int thread)
{
	(void)thread;
	const model_job *J = arg;
	tree *t = &J->t[mi], *p = &J->p[mi];
	if (J->final)
		t->ranking_k = J->k;
	tree_prune_ex(p, t, J->k, J->excl);
	rerank(p, J->rr, J->nrr, J->lrank, J->rdef, 1, J->lpad);
	for (int s = 0; s < J->nev; s++)
		if (s != J->skip)
			evaluate(p, &J->ev[s], 1, J->n_univ,
			         &J->acc[(size_t)mi * J->nsets + J->acc0 + s]);
	if (J->final) {
		for (int s = 0; s < J->nsets; s++)
			mx_finish(&J->acc[(size_t)mi * J->nsets + s],
			          &J->mx[(size_t)mi * J->nsets + s]);
	} else {
		tree_free(t);
		tree_free(p);
	}
}

enum { SEL_TOP1, SEL_REGRET, SEL_HIT };

/* Model selection on the validation (or cross-validation) metrics m
 * against the best so far b (NULL: none yet).
 * SEL_TOP1, spec §5.10: wrong <= total · 1.0 (mm) and strictly more top-1
 * correct than the best so far (initially 0).
 * SEL_REGRET (ours): smaller top-k regret geometric mean; ties (within
 * 1e-12) by more top_k_correct, then the earlier model.
 * SEL_HIT (ours): more top_k_correct; ties by the smaller regret geometric
 * mean (by more than 1e-12), then the earlier model. */
static int
better(const metrics *m, const metrics *b, int sel)
{
	if (sel == SEL_TOP1)
		return (double)m->wrong <= (double)m->total * 1.0 &&
		       m->correct > (b ? b->correct : 0);
	if (m->total == 0)
		return 0;
	if (!b)
		return 1;
	if (sel == SEL_HIT)
		return m->top_k_correct > b->top_k_correct ||
		       (m->top_k_correct == b->top_k_correct &&
		        m->regret_gmean < b->regret_gmean - 1e-12);
	if (m->regret_gmean < b->regret_gmean - 1e-12)
		return 1;
	return m->regret_gmean <= b->regret_gmean + 1e-12 &&
	       m->top_k_correct > b->top_k_correct;
}

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

static const char *
crit_name(int c)
{
	return c == CART_ENTROPY ? "entropy" : "gini";
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
	       "%10.4f %10.4f\n", set, crit_name(m->crit), m->max_depth, m->msl,
	       x->total, x->top_k_correct, x->top_k_wrong, x->top_k_unsure,
	       x->wrong_max_speedup_k, x->wrong_gmean_speedup_k, x->regret_gmean,
	       x->regret_p95, x->regret_max);
}

int
main(int argc, char **argv)
{
	const char *main_path = NULL, *out = NULL, *mout = NULL, *dot = NULL;
	const char *hname = "learned_heuristic", *splitmode = "rows", *grid = "mm";
	const char *dump = NULL, *splitout = NULL;
	long k = 10, nrows = -1;
	int folds = 0, selby = SEL_TOP1, verbose = 0, lrank = RR_FREQ, pxe = 0;
	double test_frac = 0.01;
	int tfold = 0, tfolds = 0; /* --test-fold F/K */
	int lpad = 0, tfrac_given = 0, threads = pool_online_cpus();
	uint64_t seed = 42;
	dset *ds = NULL;
	int nds = 1;
	size_t dcap = 0;

	std_options(argc, argv, usage);
	xgrow((void **)&ds, &dcap, 1, sizeof *ds);
	memset(ds, 0, sizeof *ds);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "--data") && i + 2 < argc) {
			xgrow((void **)&ds, &dcap, (size_t)nds + 1, sizeof *ds);
			memset(&ds[nds], 0, sizeof *ds);
			ds[nds].name = argv[i + 1];
			ds[nds].path = argv[i + 2];
			if (!strcmp(ds[nds].name, "train") || !strcmp(ds[nds].name, "val") ||
			    !strcmp(ds[nds].name, "test"))
				die("--data: name '%s' is reserved", ds[nds].name);
			for (int j = 1; j < nds; j++)
				if (!strcmp(ds[j].name, ds[nds].name))
					die("--data: name '%s' given twice", ds[nds].name);
			nds++;
			i += 2;
		} else if (!strcmp(a, "--heuristic-name") && more) {
			hname = argv[++i];
		} else if (!strcmp(a, "--ranking") && more) {
			k = parse_long_opt(a, argv[++i], 1, 1000000);
		} else if (!strcmp(a, "--nrows") && more) {
			nrows = parse_long_opt(a, argv[++i], 0, 2000000000);
		} else if (!strcmp(a, "--seed") && more) {
			seed = (uint64_t)parse_long_opt(a, argv[++i], 0, INT64_MAX);
		} else if (!strcmp(a, "--split") && more) {
			splitmode = argv[++i];
			if (strcmp(splitmode, "rows") && strcmp(splitmode, "group") &&
			    strcmp(splitmode, "none"))
				die("--split: expected rows, group or none, got '%s'",
				    splitmode);
		} else if (!strcmp(a, "--folds") && more) {
			folds = (int)parse_long_opt(a, argv[++i], 0, 100);
			if (folds == 1)
				die("--folds: expected 0 (off) or at least 2, got 1");
		} else if (!strcmp(a, "--select") && more) {
			const char *v = argv[++i];
			if (!strcmp(v, "top1"))
				selby = SEL_TOP1;
			else if (!strcmp(v, "regret"))
				selby = SEL_REGRET;
			else if (!strcmp(v, "hit"))
				selby = SEL_HIT;
			else
				die("--select: expected top1, regret or hit, got '%s'", v);
		} else if (!strcmp(a, "--leaf-rank") && more) {
			const char *v = argv[++i];
			if (!strcmp(v, "freq"))
				lrank = RR_FREQ;
			else if (!strcmp(v, "greedy"))
				lrank = RR_GREEDY;
			else
				die("--leaf-rank: expected freq or greedy, got '%s'", v);
		} else if (!strcmp(a, "--test-fraction") && more) {
			const char *v = argv[++i];
			if (parse_f64(v, strlen(v), &test_frac) || !(test_frac > 0) ||
			    !(test_frac <= 0.5))
				die("--test-fraction: expected a number in (0, 0.5], got '%s'", v);
			tfrac_given = 1;
		} else if (!strcmp(a, "--test-fold") && more) {
			const char *v = argv[++i], *sl = strchr(v, '/');
			int64_t f = -1, kf = 0;
			/* strict: digits only on both sides of the one '/' */
			if (!sl || sl == v || !sl[1] || strspn(v, "0123456789") != (size_t)(sl - v) ||
			    strspn(sl + 1, "0123456789") != strlen(sl + 1) ||
			    parse_i64(v, (size_t)(sl - v), &f) || parse_i64(sl + 1, strlen(sl + 1), &kf) ||
			    kf < 2 || kf > 100 || f >= kf)
				die("--test-fold: expected F/K with 2 <= K <= 100 and 0 <= F < K, got '%s'", v);
			tfold = (int)f;
			tfolds = (int)kf;
			test_frac = 1.0 / (double)kf;
		} else if (!strcmp(a, "--leaf-pad") && more) {
			lpad = (int)parse_long_opt(a, argv[++i], 0, 100000);
		} else if (!strcmp(a, "--threads") && more) {
			threads = (int)parse_long_opt(a, argv[++i], 1, 1000000);
		} else if (!strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--prune-exclude-extern")) {
			pxe = 1;
		} else if (!strcmp(a, "--dump-train") && more) {
			dump = argv[++i];
		} else if (!strcmp(a, "--write-split") && more) {
			splitout = argv[++i];
		} else if (!strcmp(a, "--grid") && more) {
			grid = argv[++i];
		} else if (!strcmp(a, "--save-dot") && more) {
			dot = argv[++i];
		} else if (!strcmp(a, "-o") && more) {
			out = argv[++i];
		} else if (!strcmp(a, "--metrics") && more) {
			mout = argv[++i];
		} else if (a[0] == '-' && a[1] != '\0') {
			die("unknown or incomplete option '%s' (see --help)", a);
		} else if (!main_path) {
			main_path = a;
		} else {
			die("more than one main data set: '%s' and '%s'", main_path, a);
		}
	}
	if (!main_path || !out || !mout)
		die("usage: fit MAIN.feat.tsv [options] -o TREE.tsv --metrics "
		    "METRICS.tsv (see --help)");
	{
		/* no output may overwrite an input (a main or --data set, the grid) */
		const char *outs[] = { out, mout, splitout, dump, dot };
		for (size_t o = 0; o < sizeof outs / sizeof *outs; o++) {
			check_output_not_input(outs[o], main_path);
			for (int d = 1; d < nds; d++)
				check_output_not_input(outs[o], ds[d].path);
			if (strcmp(grid, "mm") && strcmp(grid, "reference") &&
			    strcmp(grid, "search"))
				check_output_not_input(outs[o], grid);
		}
	}
	if (folds && strcmp(splitmode, "group"))
		die("--folds needs --split group (folds are sets of whole inputs)");
	if (lpad > 0 && lrank == RR_FREQ)
		die("--leaf-pad needs --leaf-rank greedy (the reference's lists are not padded)");
	if (tfolds && tfrac_given)
		die("--test-fold and --test-fraction both set the test share: give one");
	if (tfolds && strcmp(splitmode, "group"))
		die("--test-fold needs --split group (test folds are sets of whole inputs)");
	model *models;
	int nmodels;
	read_grid(grid, &models, &nmodels);

	/* ---- read and expand (§5.1, §5.2) ---- */
	double t0 = now();
	ds[0].name = "main";
	ds[0].path = main_path;
	for (int d = 0; d < nds; d++) {
		featset_read(&ds[d].fs, ds[d].path);
		if (d > 0) {
			featset *a = &ds[0].fs, *b = &ds[d].fs;
			if (a->n_feat != b->n_feat)
				die("%s: %d feature columns, the main set '%s' has %d (make "
				    "it with featurize --categories)", ds[d].path, b->n_feat,
				    main_path, a->n_feat);
			for (int f = 0; f < a->n_feat; f++)
				if (strcmp(a->feat[f], b->feat[f]))
					die("%s: feature column %d is '%s', the main set has "
					    "'%s' (make it with featurize --categories)",
					    ds[d].path, f, b->feat[f], a->feat[f]);
		}
		expand(&ds[d], d == 0 ? nrows : -1);
	}
	split(&ds[0], splitmode, seed, test_frac, tfold, tfolds);
	int timm = -1, hf = -1;
	for (int d = 1; d < nds; d++) {
		if (!strcmp(ds[d].name, "train_timm"))
			timm = d;
		if (!strcmp(ds[d].name, "train_hf"))
			hf = d;
	}
	if (timm < 0 || hf < 0)
		warnf("--data train_timm/train_hf not both given: the reference mm "
		      "trainer requires them (spec §5.3 step 4)");

	/* ---- training rows (§5.3 step 4) and classes ---- */
	/* Final training rows: the main set's train rows (with --folds: train
	 * and val, which cross-validation then splits into folds), plus
	 * train_timm and train_hf 3x each.  Classes = their sorted labels. */
	int cv = folds > 0;
	unsigned fmask = cv ? (1u << S_TRAIN) | (1u << S_VAL) : 1u << S_TRAIN;
	int extra[2] = {timm, hf};
	int n_lab = 0;
	const char **sorted = xmalloc(((size_t)ds[0].n_rows + 1) * sizeof *sorted);
	for (int r = 0; r < ds[0].n_rows; r++)
		if (fmask >> ds[0].set[r] & 1)
			sorted[n_lab++] = ds[0].fs.choices[ds[0].fs.choice[ds[0].row[r]]];
	for (int e = 0; e < 2; e++) {
		if (extra[e] < 0)
			continue;
		dset *x = &ds[extra[e]];
		sorted = xrealloc(sorted, ((size_t)n_lab + x->n_rows + 1) * sizeof *sorted);
		for (int r = 0; r < x->n_rows; r++)
			sorted[n_lab++] = x->fs.choices[x->fs.choice[x->row[r]]];
	}
	if (n_lab == 0)
		die("%s: no training rows", main_path);
	qsort(sorted, (size_t)n_lab, sizeof *sorted, cmp_str);
	int n_class = 0;
	for (int i = 0; i < n_lab; i++)
		if (i == 0 || strcmp(sorted[i], sorted[n_class - 1]))
			sorted[n_class++] = sorted[i];
	/* universe: classes (sorted labels), then every other choice id */
	int n_univ = n_class;
	size_t ucap = (size_t)n_class;
	const char **univ = xmalloc(((size_t)n_class + 1) * sizeof *univ);
	memcpy(univ, sorted, (size_t)n_class * sizeof *univ);
	for (int d = 0; d < nds; d++) {
		featset *fs = &ds[d].fs;
		ds[d].gch = xmalloc(((size_t)fs->n_choices + 1) * sizeof *ds[d].gch);
		for (int c = 0; c < fs->n_choices; c++) {
			const char **hit = bsearch(&fs->choices[c], univ, (size_t)n_class,
			                           sizeof *univ, cmp_str);
			int u = hit ? (int)(hit - univ) : -1;
			for (int v = n_class; u < 0 && v < n_univ; v++)
				if (!strcmp(univ[v], fs->choices[c]))
					u = v;
			if (u < 0) {
				xgrow((void **)&univ, &ucap, (size_t)n_univ + 1, sizeof *univ);
				univ[u = n_univ++] = fs->choices[c];
			}
			ds[d].gch[c] = u;
		}
	}
	int def = -1;
	for (int u = 0; u < n_univ; u++)
		if (!strcmp(univ[u], "extern_mm"))
			def = u;
	if (def < 0) { /* never measured: listed, never available */
		xgrow((void **)&univ, &ucap, (size_t)n_univ + 1, sizeof *univ);
		univ[def = n_univ++] = "extern_mm";
	}
	int nf = ds[0].fs.n_feat;
	size_t n_max = (size_t)ds[0].n_rows; /* main rows once, extras 3x */
	for (int e = 0; e < 2; e++)
		if (extra[e] >= 0)
			n_max += 3 * (size_t)ds[extra[e]].n_rows;
	double *X = xmalloc((n_max + 1) * nf * sizeof *X);
	int *Y = xmalloc((n_max + 1) * sizeof *Y);
	double *W = xmalloc((n_max + 1) * sizeof *W);

	/* ---- folds (--folds K) ----
	 * Every training input is in one fold: the main set's train+val inputs
	 * and all inputs of train_timm and train_hf (one seeded shuffle per
	 * set), so the cross-validated score also covers the extra sets. */
	int n_cv = 0;
	if (cv)
		for (int e = -1; e < 2; e++) {
			dset *x = e < 0 ? &ds[0] : extra[e] >= 0 ? &ds[extra[e]] : NULL;
			if (!x)
				continue;
			featset *fs = &x->fs;
			x->fold = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *x->fold);
			int *ids = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ids);
			int nin = 0;
			for (int i = 0; i < fs->n_inputs; i++)
				x->fold[i] = -1;
			for (int r = 0; r < x->n_rows; r++)
				if (x->row[r] == x->win[x->inp[r]] &&
				    (e >= 0 || (fmask >> x->set[r] & 1)))
					ids[nin++] = x->inp[r];
			rng fr;
			rng_seed(&fr, seed + 1 + (uint64_t)(e + 1));
			rng_shuffle(&fr, ids, nin);
			for (int j = 0; j < nin; j++)
				x->fold[ids[j]] = j % folds;
			n_cv += nin;
			free(ids);
		}
	if (cv && n_cv < folds)
		die("--folds %d: only %d training inputs", folds, n_cv);

	/* ---- evaluation sets: train, val (or cv), test, extras in CLI order ---- */
	int nsets = 3 + (nds - 1);
	evset *sets = xcalloc((size_t)nsets, sizeof *sets);
	sets[S_TRAIN].name = "train";
	sets[S_VAL].name = cv ? "cv" : "val";
	sets[S_TEST].name = "test";
	for (int s = 0; s < 3; s++)
		sets[s].c = xmalloc(((size_t)ds[0].fs.n_inputs + 1) * sizeof(ecase));
	for (int r = 0; r < ds[0].n_rows; r++) {
		int i = ds[0].inp[r];
		if (ds[0].row[r] != ds[0].win[i])
			continue; /* ranking mode: winner == actual_winner rows */
		int s = !strcmp(splitmode, "none") ? -1 : ds[0].set[r];
		if (s < 0) {
			for (s = 0; s < 3; s++)
				sets[s].c[sets[s].n++] = (ecase){&ds[0], i};
		} else if (cv && s != S_TEST) {
			/* train = all final training inputs of the main set; cv =
			 * every input that has a fold, each evaluated by the model
			 * that did not see its fold */
			sets[S_TRAIN].c[sets[S_TRAIN].n++] = (ecase){&ds[0], i};
			sets[S_VAL].c[sets[S_VAL].n++] = (ecase){&ds[0], i};
		} else {
			sets[s].c[sets[s].n++] = (ecase){&ds[0], i};
		}
	}
	for (int d = 1; d < nds; d++) {
		evset *e = &sets[2 + d];
		e->name = ds[d].name;
		e->c = xmalloc(((size_t)ds[d].fs.n_inputs + 1) * sizeof(ecase));
		if (ds[d].fold)
			sets[S_VAL].c = xrealloc(sets[S_VAL].c, ((size_t)sets[S_VAL].n +
			                         ds[d].fs.n_inputs + 1) * sizeof(ecase));
		for (int i = 0; i < ds[d].fs.n_inputs; i++) {
			if (ds[d].win[i] < 0)
				continue;
			e->c[e->n++] = (ecase){&ds[d], i};
			if (ds[d].fold && ds[d].fold[i] >= 0)
				sets[S_VAL].c[sets[S_VAL].n++] = (ecase){&ds[d], i};
		}
	}
	double t_read = now() - t0;

	int n_train = build_xyw(ds, extra, fmask, -1, univ, n_class, X, Y, W);
	fprintf(stderr, "fit: %s: %d inputs -> %d near-best rows; training set "
	        "%d rows (%d features, %d classes); sets:", main_path,
	        ds[0].fs.n_inputs, ds[0].n_rows, n_train, nf, n_class);
	for (int s = 0; s < nsets; s++)
		fprintf(stderr, " %s %d", sets[s].name, sets[s].n);
	fprintf(stderr, cv ? " (%d folds)\n" : "\n", folds);

	/* training inputs for --leaf-rank; extern_mm if it is a class */
	size_t n_rr = (size_t)ds[0].fs.n_inputs;
	for (int e = 0; e < 2; e++)
		if (extra[e] >= 0)
			n_rr += (size_t)ds[extra[e]].fs.n_inputs;
	rr_input *rr = xmalloc((n_rr + 1) * sizeof *rr);
	int rdef = def < n_class ? def : -1;

	/* ---- grid (§5.4) ---- */
	double t1, t_fit = 0, t_eval = 0;
	mx_acc *acc = xmalloc((size_t)nmodels * nsets * sizeof *acc);
	metrics *mx = xmalloc((size_t)nmodels * nsets * sizeof *mx);
	for (int i = 0; i < nmodels * nsets; i++)
		mx_init(&acc[i], (int)k, def, 0.0);
	progress prog;
	int64_t nfit = 0;
	/* the grid's trees (cart_fit_grid) and their pruned copies, per pass */
	pool *pl = pool_new(threads);
	tree *trees = xcalloc((size_t)nmodels, sizeof *trees);
	tree *pruned = xcalloc((size_t)nmodels, sizeof *pruned);
	cart_params *cps = xmalloc((size_t)nmodels * sizeof *cps);
	for (int mi = 0; mi < nmodels; mi++)
		cps[mi] = (cart_params){models[mi].crit, models[mi].max_depth, models[mi].msl};
	progress_start(&prog, "fit: grid", "fits", (int64_t)nmodels * (folds + 1));
	/* cross-validation: every model once per fold, evaluated on the fold */
	for (int f = 0; f < folds; f++) {
		int n = build_xyw(ds, extra, fmask, f, univ, n_class, X, Y, W);
		int nrr = lrank != RR_FREQ ?
		          build_rr(ds, extra, fmask, f, n_class, rr) : 0;
		evset fe = {"cv", xmalloc(((size_t)sets[S_VAL].n + 1) * sizeof(ecase)), 0};
		for (int c = 0; c < sets[S_VAL].n; c++)
			if (sets[S_VAL].c[c].ds->fold[sets[S_VAL].c[c].i] == f)
				fe.c[fe.n++] = sets[S_VAL].c[c];
		cart_data cd = {n, nf, n_class, X, Y, W};
		t1 = now();
		cart_sorted *cs = cart_presort(&cd);
		cart_fit_grid(trees, &cd, cs, cps, nmodels, pl);
		double t2 = now();
		t_fit += t2 - t1;
		model_job J = {trees, pruned, (int)k, pxe ? rdef : -1, lrank, rdef, lpad,
		               nrr, n_univ, nsets, 1, -1, S_VAL, 0, rr, &fe, acc, mx};
		pool_map(pl, nmodels, model_item, &J);
		t_eval += now() - t2;
		progress_update(&prog, nfit += nmodels);
		cart_sorted_free(cs);
		free(fe.c);
	}
	/* final fits on all final training rows */
	n_train = build_xyw(ds, extra, fmask, -1, univ, n_class, X, Y, W);
	int nrr = lrank != RR_FREQ ?
	          build_rr(ds, extra, fmask, -1, n_class, rr) : 0;
	cart_data cd = {n_train, nf, n_class, X, Y, W};
	t1 = now();
	cart_sorted *cs = cart_presort(&cd);
	cart_fit_grid(trees, &cd, cs, cps, nmodels, pl);
	double t2 = now();
	t_fit += t2 - t1;
	model_job J = {trees, pruned, (int)k, pxe ? rdef : -1, lrank, rdef, lpad,
	               nrr, n_univ, nsets, nsets, cv ? S_VAL : -1, 0, 1, rr, sets, acc, mx};
	pool_map(pl, nmodels, model_item, &J);
	t_eval += now() - t2;
	progress_update(&prog, nfit += nmodels);
	int best = -1;
	for (int mi = 0; mi < nmodels; mi++)
		if (better(&mx[(size_t)mi * nsets + S_VAL],
		           best < 0 ? NULL : &mx[(size_t)best * nsets + S_VAL], selby))
			best = mi;
	tree best_tree = {0}, best_pruned = {0};
	for (int mi = 0; mi < nmodels; mi++) {
		if (mi == best) {
			best_tree = trees[mi];
			best_pruned = pruned[mi];
		} else {
			tree_free(&trees[mi]);
			tree_free(&pruned[mi]);
		}
	}
	free(trees);
	free(pruned);
	free(cps);
	cart_sorted_free(cs);
	pool_free(pl);
	/* the written (unpruned) tree: every node re-ranked, since prune may
	 * turn any internal node into a leaf (the pruned leaves above already
	 * are, identically) */
	if (best >= 0)
		rerank(&best_tree, rr, nrr, lrank, rdef, 0, lpad);
	progress_end(&prog, nfit);
	free(acc);
	long best_correct = best >= 0 ? mx[(size_t)best * nsets + S_VAL].correct : 0;

	if (dump) {
		aout da;
		FILE *dp = aout_open(&da, dump);
		for (int f = 0; f < nf; f++)
			fprintf(dp, "%s\t", ds[0].fs.feat[f]);
		fprintf(dp, "label\tweight\n");
		for (int i = 0; i < n_train; i++) {
			for (int f = 0; f < nf; f++)
				fprintf(dp, "%.17g\t", X[(size_t)i * nf + f]);
			fprintf(dp, "%s\t%.17g\n", univ[Y[i]], W[i]);
		}
		aout_commit(&da);
	}
	if (splitout) {
		static const char *const sname[] = {"train", "val", "test"};
		aout sa;
		FILE *sp = aout_open(&sa, splitout);
		fprintf(sp, "input\tset\n");
		featset *fs = &ds[0].fs;
		int *iset = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *iset);
		for (int i = 0; i < fs->n_inputs; i++)
			iset[i] = -1;
		for (int r = 0; r < ds[0].n_rows; r++)
			if (ds[0].row[r] == ds[0].win[ds[0].inp[r]])
				iset[ds[0].inp[r]] = ds[0].set[r];
		for (int i = 0; i < fs->n_inputs; i++)
			fprintf(sp, "%d\t%s\n", i, iset[i] < 0 ? "dropped" : sname[iset[i]]);
		free(iset);
		aout_commit(&sa);
	}

	/* ---- report ---- */
	printf("heuristic %s: ranking k=%ld, %d model(s), split %s, seed %llu\n",
	       hname, k, nmodels, splitmode, (unsigned long long)seed);
	print_table_header();
	for (int mi = 0; mi < nmodels; mi++)
		for (int s = 0; s < nsets; s++)
			if (verbose || mi == best)
				print_table_row(sets[s].name, &models[mi],
				                &mx[(size_t)mi * nsets + s]);
	if (nmodels > 1 && verbose) {
		for (int s = 0; s < nsets; s++) {
			int *ord = xmalloc((size_t)nmodels * sizeof *ord);
			for (int i = 0; i < nmodels; i++)
				ord[i] = i;
			/* insertion sort by top_k_correct descending (stable) */
			for (int i = 1; i < nmodels; i++)
				for (int j = i; j > 0 &&
				     mx[(size_t)ord[j] * nsets + s].top_k_correct >
				     mx[(size_t)ord[j - 1] * nsets + s].top_k_correct; j--) {
					int tmp = ord[j];
					ord[j] = ord[j - 1];
					ord[j - 1] = tmp;
				}
			printf("\n%s, sorted by top_k_correct:\n", sets[s].name);
			print_table_header();
			for (int i = 0; i < nmodels; i++)
				print_table_row(sets[s].name, &models[ord[i]],
				                &mx[(size_t)ord[i] * nsets + s]);
			free(ord);
		}
	}

	aout mo;
	char msl[32];
	FILE *fp = aout_open(&mo, mout);
	fprintf(fp, "set\tcriterion\tmax_depth\tmin_samples_leaf\tselected\t%s\n",
	        mx_tsv_header);
	for (int mi = 0; mi < nmodels; mi++)
		for (int s = 0; s < nsets; s++) {
			fprintf(fp, "%s\t%s\t%d\t%s\t%d\t", sets[s].name,
			        crit_name(models[mi].crit), models[mi].max_depth,
			        shortest(msl, models[mi].msl), mi == best);
			mx_tsv_row(&mx[(size_t)mi * nsets + s], fp);
			fputc('\n', fp);
		}
	if (best < 0) {
		aout_abort(&mo);
		die("no model qualifies (spec §5.10): all models had too many wrong "
		    "predictions or no correct top-1 prediction on val (%d inputs)",
		    sets[S_VAL].n);
	}
	/* names for the trees */
	tree *both[2] = {&best_tree, &best_pruned};
	for (int b = 0; b < 2; b++) {
		tree *t = both[b];
		t->meta_json = xstrdup(ds[0].fs.meta.json);
		t->feat = xmalloc((size_t)nf * sizeof *t->feat);
		for (int f = 0; f < nf; f++)
			t->feat[f] = xstrdup(ds[0].fs.feat[f]);
		t->cls = xmalloc((size_t)n_class * sizeof *t->cls);
		for (int c = 0; c < n_class; c++)
			t->cls[c] = xstrdup(univ[c]);
	}
	aout to;
	FILE *tp = aout_open(&to, out);
	tree_write(&best_tree, tp);
	aout dto;
	if (dot) {
		FILE *dp = aout_open(&dto, dot);
		dot_write(&best_pruned, dp);
	}
	aout_commit(&mo);
	aout_commit(&to);
	if (dot)
		aout_commit(&dto);
	fprintf(stderr, "fit: best model: %s max_depth %d min_samples_leaf %g: "
	        "%d nodes, %d leaves, depth %d; pruned (k=%ld): %d nodes, %d "
	        "leaves, depth %d; %s top-1 correct %ld/%ld\n",
	        crit_name(models[best].crit), models[best].max_depth,
	        models[best].msl, best_tree.n_node, tree_leaves(&best_tree),
	        tree_depth(&best_tree), k, best_pruned.n_node,
	        tree_leaves(&best_pruned), tree_depth(&best_pruned), sets[S_VAL].name, best_correct,
	        mx[(size_t)best * nsets + S_VAL].total);
	fprintf(stderr, "fit: time: read %.3f s, fit %.3f s, eval %.3f s\n",
	        t_read, t_fit, t_eval);

	tree_free(&best_tree);
	tree_free(&best_pruned);
	for (int s = 0; s < nsets; s++)
		free(sets[s].c);
	free(sets);
	free(rr);
	free(mx);
	free(univ);
	free(sorted);
	free(W);
	free(Y);
	free(X);
	for (int d = 0; d < nds; d++) {
		featset_free(&ds[d].fs);
		free(ds[d].gch);
		free(ds[d].hi);
		free(ds[d].win);
		free(ds[d].inp);
		free(ds[d].row);
		free(ds[d].w);
		free(ds[d].set);
		free(ds[d].fold);
		free(ds[d].ct);
	}
	free(ds);
	free(models);
	close_stdout();
	return 0;
}
