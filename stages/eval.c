/* eval — measure ranking trees on featurized data sets
 * (spec §5.9 evaluation in ranking mode, §7.3 how Inductor uses the ranking;
 * formats: stages/FORMATS.md "tree TSV", "feat TSV").
 *
 * For every (set, tree, k) eval ranks each input of the set with the tree and
 * feeds the ranking to the metrics.h evaluator (mx_*), which applies spec
 * §5.9: the top-k list is the first k ranked choices with p > 0 that were
 * measured for the input, plus extern_mm if missing.  On top of the
 * reference's counts it reports what matters when Inductor autotunes only
 * the listed choices (§7.3):
 *   hit rate      fraction of inputs whose fastest choice is in the list;
 *   regret        (best median time in the list) / (input's best time) >= 1,
 *                 geometric mean, p95 (nearest rank) and max over inputs;
 *   speedup       time(extern_mm) / (best median time in the list) >= 1,
 *                 geometric mean and max over inputs where extern_mm has a
 *                 finite time;
 *   no_ranked     inputs where no choice the tree ranks was measured (the
 *                 list is extern_mm alone);
 *   unsafe        inputs that reach a leaf without probabilities
 *                 (`return None`, §5.7).
 *
 * Mapping a tree onto a set: tree features by name onto the set's model
 * columns; a one-hot feature "<cat>_<value>" the set has no column for is
 * computed from the raw categorical column (1 iff the input's value is
 * <value>, so values unknown to the set's main dataset still count, and a
 * category the set never saw is 0).  Tree classes are matched to the set's
 * choice ids by name, so a tree with its own class list (an imported
 * PyTorch artifact) evaluates on our data; a ranked class the set never
 * measured has no time (it is skipped in the list, §5.9).  Inputs whose
 * every choice failed (best time inf) are skipped and counted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "featset.h"
#include "metrics.h"
#include "tree.h"
#include "util.h"

static const char usage[] =
"usage: eval [--ranking K] [--k LIST] [-o EVAL.tsv] [--ranks RANKS.tsv]\n"
"            (--tree NAME=TREE.tsv ... | TREE.tsv) [NAME=]SET.feat.tsv ...\n"
"\n"
"Rank every input of each feat TSV with each tree and report top-k hit rate,\n"
"regret and speedup over extern_mm (spec §5.9 semantics, §7.3 use).\n"
"\n"
"  TREE.tsv        a tree TSV (fit, prune or import output); with --tree\n"
"                  NAME=PATH (repeatable) several trees side by side\n"
"  SET.feat.tsv    featurize output (stages/FORMATS.md); NAME=PATH names the\n"
"                  set (default: the file name without .feat.tsv)\n"
"  --ranking K     top-k sizes are 1, 5 and K (default K = 10)\n"
"  --k LIST        explicit comma-separated top-k sizes, e.g. 1,3,10\n"
"  -o EVAL.tsv     TSV, one row per (set, tree, k), written atomically:\n"
"                  tree set k inputs skipped unsafe no_ranked hit_rate\n"
"                  speedup_n speedup_gmean speedup_max, then the metrics TSV\n"
"                  columns of stages/FORMATS.md (total, top_k_correct, ...,\n"
"                  regret_n regret_none regret_gmean regret_p95 regret_max)\n"
"  --ranks FILE    TSV, one row per (tree, set, input): leaf node id, the\n"
"                  winner's choice id and the full ranking as tree class\n"
"                  indices (comma separated, best first)\n"
"\n"
"Units: hit_rate is a fraction in [0, 1]; regret and speedup are ratios of\n"
"median times (milliseconds / milliseconds).  A table is printed on stdout.\n"
"\n"
"Exit status: 0 on success; 1 on bad usage, unreadable or invalid input\n"
"(messages name file:line), a tree feature the set cannot provide, or a\n"
"write error.  No partial output is left under EVAL.tsv or RANKS.tsv.\n";

typedef struct {
	const char *name;
	const char *path;
} named;

/* "NAME=PATH" if the text before the first '=' is a plain name, else PATH
 * with the name derived from the file name minus suffix. */
static named
parse_named(const char *arg, const char *suffix)
{
	named r;
	const char *eq = strchr(arg, '=');
	if (eq && eq > arg) {
		int plain = 1;
		for (const char *p = arg; p < eq; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
			      *p == '.'))
				plain = 0;
		if (plain) {
			r.name = xstrndup(arg, (size_t)(eq - arg));
			r.path = eq + 1;
			return r;
		}
	}
	const char *base = strrchr(arg, '/');
	base = base ? base + 1 : arg;
	size_t n = strlen(base), s = strlen(suffix);
	if (n > s && !strcmp(base + n - s, suffix))
		n -= s;
	else if (n > 4 && !strcmp(base + n - 4, ".tsv"))
		n -= 4;
	r.name = xstrndup(base, n);
	r.path = arg;
	return r;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Per (tree, set): how each tree feature is read from the set. */
typedef struct {
	int col;      /* model column of the set, or -1 */
	int cat;      /* else: raw categorical index, or -1 for "always 0" */
	const char *value; /* the category (points into the tree's name) */
} featmap;

/* Map tree features onto set columns (see the file comment).  Dies naming
 * the feature if the set has neither a column nor the raw categorical. */
static featmap *
map_features(const tree *t, const featset *fs, const char *tname,
             const char *sname)
{
	featmap *m = xmalloc(((size_t)t->n_feat + 1) * sizeof *m);
	for (int f = 0; f < t->n_feat; f++) {
		m[f].col = featset_feature(fs, t->feat[f]);
		m[f].cat = -1;
		m[f].value = NULL;
		if (m[f].col >= 0)
			continue;
		m[f].cat = ah_meta_onehot(&fs->meta, t->feat[f], &m[f].value);
		if (m[f].cat < 0)
			die("tree '%s' feature '%s': set '%s' has no such column and it "
			    "is not a one-hot of a categorical feature", tname,
			    t->feat[f], sname);
	}
	return m;
}

/* Results of one (tree, set, k) beyond metrics.h. */
typedef struct {
	long hits, speedup_n;
	double log_speedup_sum, speedup_max;
} extra;

int
main(int argc, char **argv)
{
	const char *out = NULL, *ranks_out = NULL, *klist = NULL;
	long ranking = 10;
	named *trees = NULL, *sets = NULL;
	size_t ntree = 0, tcap = 0, nset = 0, scap = 0;
	const char **pos = xmalloc(((size_t)argc + 1) * sizeof *pos);
	int npos = 0;

	std_options(argc, argv, usage);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ranking") && i + 1 < argc) {
			int64_t v;
			const char *s = argv[++i];
			if (parse_i64(s, strlen(s), &v) != 0 || v < 1 || v > 100000)
				die("--ranking: expected an integer >= 1, got '%s'", s);
			ranking = (long)v;
		} else if (!strcmp(argv[i], "--k") && i + 1 < argc) {
			klist = argv[++i];
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
			ranks_out = argv[++i];
		} else if (!strcmp(argv[i], "--tree") && i + 1 < argc) {
			xgrow((void **)&trees, &tcap, ntree + 1, sizeof *trees);
			trees[ntree++] = parse_named(argv[++i], ".tsv");
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			die("unknown or incomplete option '%s' (see --help)", argv[i]);
		} else {
			pos[npos++] = argv[i];
		}
	}
	int p0 = 0;
	if (ntree == 0) {
		if (npos < 1)
			die("no tree given (see --help)");
		xgrow((void **)&trees, &tcap, 1, sizeof *trees);
		trees[ntree++] = parse_named(pos[p0++], ".tsv");
	}
	for (int i = p0; i < npos; i++) {
		xgrow((void **)&sets, &scap, nset + 1, sizeof *sets);
		sets[nset++] = parse_named(pos[i], ".feat.tsv");
	}
	if (nset == 0)
		die("no data set given (see --help)");
	for (size_t i = 0; i < nset; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sets[i].name, sets[j].name))
				die("two sets named '%s' ('%s' and '%s'): name one with "
				    "NAME=PATH", sets[i].name, sets[j].path, sets[i].path);
	for (size_t i = 0; i < ntree; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(trees[i].name, trees[j].name))
				die("two trees named '%s' ('%s' and '%s'): name one with "
				    "--tree NAME=PATH", trees[i].name, trees[j].path, trees[i].path);

	/* top-k sizes */
	int ks[64], nk = 0;
	if (klist) {
		const char *p = klist;
		for (;;) {
			const char *c = strchr(p, ',');
			size_t n = c ? (size_t)(c - p) : strlen(p);
			int64_t v;
			if (parse_i64(p, n, &v) != 0 || v < 1 || v > 100000 || nk == 64)
				die("--k: expected comma-separated integers >= 1, got '%s'",
				    klist);
			ks[nk++] = (int)v;
			if (!c)
				break;
			p = c + 1;
		}
	} else {
		ks[nk++] = 1;
		ks[nk++] = 5;
		ks[nk++] = (int)ranking;
	}
	qsort(ks, (size_t)nk, sizeof *ks, cmp_int);
	int nku = 0;
	for (int i = 0; i < nk; i++)
		if (nku == 0 || ks[nku - 1] != ks[i])
			ks[nku++] = ks[i];
	nk = nku;

	for (size_t i = 0; i < ntree + nset; i++) {
		const char *in = i < ntree ? trees[i].path : sets[i - ntree].path;
		check_output_not_input(out, in);
		check_output_not_input(ranks_out, in);
	}

	tree *tr = xcalloc(ntree, sizeof *tr);
	for (size_t i = 0; i < ntree; i++)
		tree_read(&tr[i], trees[i].path);

	aout o, ro;
	FILE *fp = out ? aout_open(&o, out) : NULL;
	FILE *rfp = ranks_out ? aout_open(&ro, ranks_out) : NULL;
	if (fp)
		fprintf(fp, "tree\tset\tk\tinputs\tskipped\tunsafe\tno_ranked\t"
		        "hit_rate\tspeedup_n\tspeedup_gmean\tspeedup_max\t%s\n",
		        mx_tsv_header);
	if (rfp)
		fprintf(rfp, "tree\tset\tinput\tleaf\twinner\tranking\n");
	printf("%-12s %-12s %7s %3s %7s %8s %8s %8s %8s %8s %6s %6s\n", "tree",
	       "set", "inputs", "k", "hit", "regret", "p95", "max", "speedup",
	       "sp_max", "noRank", "unsafe");

	for (size_t si = 0; si < nset; si++) {
		featset fs;
		featset_read(&fs, sets[si].path);
		for (size_t ti = 0; ti < ntree; ti++) {
			const tree *t = &tr[ti];
			if (t->meta_json && strcmp(t->meta_json, fs.meta.json))
				warnf("tree '%s' and set '%s' come from logs with different "
				      "metadata (another GPU or feature set?)", trees[ti].name,
				      sets[si].name);
			featmap *fm = map_features(t, &fs, trees[ti].name, sets[si].name);
			/* universe: the set's choices, then tree-only classes */
			int U = fs.n_choices;
			int *cmap = xmalloc(((size_t)t->n_class + 1) * sizeof *cmap);
			for (int c = 0; c < t->n_class; c++) {
				cmap[c] = -1;
				for (int j = 0; j < fs.n_choices; j++)
					if (!strcmp(t->cls[c], fs.choices[j])) {
						cmap[c] = j;
						break;
					}
				if (cmap[c] < 0)
					cmap[c] = U++;
			}
			int def = -1;
			for (int j = 0; j < fs.n_choices && def < 0; j++)
				if (!strcmp(fs.choices[j], "extern_mm"))
					def = j;
			for (int c = 0; c < t->n_class && def < 0; c++)
				if (!strcmp(t->cls[c], "extern_mm"))
					def = cmap[c];

			mx_acc *acc = xcalloc((size_t)nk, sizeof *acc);
			extra *ex = xcalloc((size_t)nk, sizeof *ex);
			for (int q = 0; q < nk; q++) {
				mx_init(&acc[q], ks[q], def, t->confidence_threshold);
				ex[q].speedup_max = 0;
			}
			double *time = xmalloc(((size_t)U + 1) * sizeof *time);
			double *x = xmalloc(((size_t)t->n_feat + 1) * sizeof *x);
			tree_prob *rk = xmalloc(((size_t)t->n_class + 1) * sizeof *rk);
			int *rank = xmalloc(((size_t)t->n_class + 1) * sizeof *rank);
			double *prob = xmalloc(((size_t)t->n_class + 1) * sizeof *prob);
			long inputs = 0, skipped = 0, unsafe = 0, no_ranked = 0;

			for (int i = 0; i < fs.n_inputs; i++) {
				for (int f = 0; f < t->n_feat; f++) {
					if (fm[f].col >= 0)
						x[f] = fs.x[(size_t)i * fs.n_feat + fm[f].col];
					else
						x[f] = !strcmp(fs.cat[(size_t)i * fs.meta.n_cat +
						                      fm[f].cat], fm[f].value);
				}
				int leaf = tree_apply(t, x);
				int n = tree_ranked(t, leaf, rk, t->n_class);
				for (int j = 0; j < n; j++) {
					rank[j] = cmap[rk[j].cls];
					prob[j] = rk[j].p;
				}
				for (int u = 0; u < U; u++)
					time[u] = NAN;
				for (int r = fs.first[i]; r < fs.first[i + 1]; r++)
					time[fs.choice[r]] = fs.ms[r];
				int truth = fs.choice[fs.winner[i]];
				if (rfp) {
					fprintf(rfp, "%s\t%s\t%d\t%d\t%s\t", trees[ti].name,
					        sets[si].name, i, leaf, fs.choices[truth]);
					for (int j = 0; j < n; j++)
						fprintf(rfp, "%s%d", j ? "," : "", rk[j].cls);
					fputc('\n', rfp);
				}
				if (!isfinite(time[truth]) || !(time[truth] > 0)) {
					skipped++;
					continue;
				}
				inputs++;
				int is_unsafe = t->node[leaf].prob_len == 0;
				unsafe += is_unsafe;
				int measured = 0;
				for (int j = 0; j < n; j++)
					measured |= !isnan(time[rank[j]]);
				no_ranked += !measured;
				mx_case c = {time, truth, rank, prob, n, is_unsafe};
				for (int q = 0; q < nk; q++) {
					mx_add(&acc[q], &c);
					/* the same list as metrics.h builds */
					int listed = 0, in = 0, has_def = 0;
					double best = INFINITY;
					for (int j = 0; j < n && listed < ks[q]; j++) {
						if (!(prob[j] > 0) || isnan(time[rank[j]]))
							continue;
						listed++;
						in |= rank[j] == truth;
						has_def |= rank[j] == def;
						if (time[rank[j]] < best)
							best = time[rank[j]];
					}
					if (def >= 0 && !has_def) {
						in |= def == truth;
						if (!isnan(time[def]) && time[def] < best)
							best = time[def];
					}
					ex[q].hits += in;
					if (def >= 0 && isfinite(time[def]) && isfinite(best)) {
						double sp = time[def] / best;
						ex[q].speedup_n++;
						ex[q].log_speedup_sum += log(sp);
						if (sp > ex[q].speedup_max)
							ex[q].speedup_max = sp;
					}
				}
			}
			for (int q = 0; q < nk; q++) {
				metrics m;
				mx_finish(&acc[q], &m);
				if (m.top_k_correct != ex[q].hits || m.total != inputs)
					die("internal error: hit count %ld != metrics' %ld",
					    ex[q].hits, m.top_k_correct);
				double hit = inputs ? (double)ex[q].hits / (double)inputs : 0;
				double sg = ex[q].speedup_n
				    ? exp(ex[q].log_speedup_sum / (double)ex[q].speedup_n) : 0;
				printf("%-12s %-12s %7ld %3d %6.2f%% %8.4f %8.4f %8.3f %8.4f "
				       "%8.3f %6ld %6ld\n", trees[ti].name, sets[si].name,
				       inputs, ks[q], 100 * hit, m.regret_gmean, m.regret_p95,
				       m.regret_max, sg, ex[q].speedup_max, no_ranked, unsafe);
				if (fp) {
					fprintf(fp, "%s\t%s\t%d\t%ld\t%ld\t%ld\t%ld\t%.17g\t%ld\t"
					        "%.17g\t%.17g\t", trees[ti].name, sets[si].name,
					        ks[q], inputs, skipped, unsafe, no_ranked, hit,
					        ex[q].speedup_n, sg, ex[q].speedup_max);
					mx_tsv_row(&m, fp);
					fputc('\n', fp);
				}
			}
			if (skipped)
				warnf("set '%s': %ld inputs skipped (every choice failed)",
				      sets[si].name, skipped);
			free(acc);
			free(ex);
			free(time);
			free(x);
			free(rk);
			free(rank);
			free(prob);
			free(cmap);
			free(fm);
		}
		featset_free(&fs);
	}
	if (rfp)
		aout_commit(&ro);
	if (fp)
		aout_commit(&o);
	for (size_t i = 0; i < ntree; i++) {
		tree_free(&tr[i]);
		free((char *)trees[i].name);
	}
	for (size_t i = 0; i < nset; i++)
		free((char *)sets[i].name);
	free(tr);
	free(trees);
	free(sets);
	free(pos);
	close_stdout();
	return 0;
}
