/* eval — measure ranking trees on featurized data sets
 * (spec §5.9 evaluation in ranking mode, §7.3 how Inductor uses the ranking;
 * formats: stages/FORMATS.md "tree TSV", "feat TSV").
 *
 * For every (set, tree, k) eval ranks each input of the set with the tree and
 * feeds the ranking to the metrics.h evaluator (mx_*), which applies spec
 * §5.9: the top-k list (rules.h topk) is the first k ranked choices with
 * p > 0 that were measured for the input, plus extern_mm if missing.  On top of the
 * reference's counts it reports what matters when Inductor autotunes only
 * the listed choices (§7.3):
 *   hit rate      fraction of inputs whose fastest choice is in the list;
 *   regret        (best median time in the list) / (input's best time) >= 1
 *                 (rules.h regret),
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

#include "ahmeta.h"
#include "featset.h"
#include "metrics.h"
#include "opts.h"
#include "rules.h"
#include "tree.h"
#include "util.h"

static const char synopsis[] =
"eval [--ranking K] [--k LIST] [-o EVAL.tsv] [--ranks RANKS.tsv] [--cross-device]\n"
"            (--tree NAME=TREE.tsv ... | TREE.tsv) [NAME=]SET.feat.tsv ...";

static const char about[] =
"Rank every input of each feat TSV with each tree and report top-k hit rate,\n"
"regret and speedup over extern_mm (spec §5.9 semantics, §7.3 use).\n";

/* The table's columns: --help and the legend above the table print this. */
static const struct {
	const char *col, *meaning;
} columns[] = {
	{"tree, set", "the names given (NAME=PATH, or the file name)"},
	{"inputs", "inputs scored (those whose best time is finite)"},
	{"k", "list size: the tree's first k ranked choices that were measured for "
	      "the input, extern_mm appended if missing (spec §5.9, §7.3)"},
	{"hit", "share of inputs whose fastest choice is in the list (a fraction, "
	        "printed in %)"},
	{"regret", "geometric mean over inputs of (best median ms in the list) / "
	           "(the input's best median ms): 1 = nothing lost"},
	{"p95, max", "the regret's 95th percentile (nearest rank) and maximum"},
	{"speedup", "geometric mean of extern_mm's median ms / the best listed "
	            "median ms, over inputs where extern_mm has a finite time"},
	{"sp_max", "the speedup's maximum"},
	{"noRank", "inputs none of whose measured choices the tree ranks: their "
	           "list is extern_mm alone (e.g. a tree of other candidates)"},
	{"unsafe", "inputs that reach a leaf without probabilities (spec §5.7)"},
};

static const char notes_tail[] =
"After each (tree, set): the overlap of choice ids, how many of the set's\n"
"choice ids the tree ranks (extern_mm, in every list, not counted).  A tree\n"
"that ranks none of a set's choice ids is refused (every list would be\n"
"extern_mm alone, the same at every k).\n"
"Units: regret and speedup are ratios of median times (ms / ms).\n"
"\n"
"A tree and a set must come from one device (metadata shared_memory and\n"
"device_capa; H100 and H200 share theirs): another device is refused unless\n"
"--cross-device, and then said on stdout and stderr.\n"
"\n"
"Exit status: 0 on success; 1 on bad usage, unreadable or invalid input\n"
"(messages name file:line), a tree feature the set cannot provide, a tree\n"
"of another device (without --cross-device) or ranking none of a set's\n"
"choices, or a write error.  No partial output is left under EVAL.tsv or\n"
"RANKS.tsv.\n";

/* --help's notes: the columns (each "  NAME  meaning", the meaning wrapped
 * at 78 columns from column 13), then notes_tail.  Returns a malloc'd
 * string. */
static char *
help_notes(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		die("cannot open a memory stream");
	fputs("The table on stdout, one row per (tree, set, k), after a legend:\n", fp);
	for (size_t i = 0; i < sizeof columns / sizeof *columns; i++) {
		int col = fprintf(fp, "  %-10s", columns[i].col);
		for (const char *w = columns[i].meaning; *w;) {
			int wl = (int)strcspn(w, " ");
			if (col + 1 + wl > 78) {
				fprintf(fp, "\n%12s", "");
				col = 12;
			}
			col += fprintf(fp, " %.*s", wl, w);
			w += wl + (w[wl] == ' ');
		}
		fputc('\n', fp);
	}
	fputs(notes_tail, fp);
	if (ferror(fp) || fclose(fp))
		die("cannot build the help text");
	return buf;
}

/* The legend above the table: one "# NAME: meaning" line per column. */
static void
print_legend(void)
{
	for (size_t i = 1; i < sizeof columns / sizeof *columns; i++)
		printf("# %s: %s\n", columns[i].col, columns[i].meaning);
}

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

/* Top-k sizes: --k's list, else 1, 5 and --ranking; sorted, unique. */
typedef struct {
	int k[64];
	int n;
} klist;

/* opts.h callback of --k */
static void
parse_k(const char *name, const char *arg, void *value)
{
	klist *kl = value;
	kl->n = 0;
	for (const char *p = arg;;) {
		const char *c = strchr(p, ',');
		size_t n = c ? (size_t)(c - p) : strlen(p);
		int64_t v;
		if (parse_i64(p, n, &v) != 0 || v < 1 || v > 100000 || kl->n == 64)
			die("%s: expected comma-separated integers >= 1, got '%s'", name,
			    arg);
		kl->k[kl->n++] = (int)v;
		if (!c)
			break;
		p = c + 1;
	}
}

static void
klist_finish(klist *kl, int ranking)
{
	if (kl->n == 0) {
		kl->k[kl->n++] = 1;
		kl->k[kl->n++] = 5;
		kl->k[kl->n++] = ranking;
	}
	qsort(kl->k, (size_t)kl->n, sizeof *kl->k, cmp_int);
	int nu = 0;
	for (int i = 0; i < kl->n; i++)
		if (nu == 0 || kl->k[nu - 1] != kl->k[i])
			kl->k[nu++] = kl->k[i];
	kl->n = nu;
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


/* One (tree, set) pair: the set's choices, then the tree-only classes, make
 * the universe of the metrics (mx_case.time). */
typedef struct {
	const tree *t;
	const featset *fs;
	const char *tname, *sname;
	featmap *fm;
	int *cmap;     /* [t->n_class] tree class -> universe index */
	int U;         /* universe size */
	int def;       /* universe index of DEFAULT_CHOICE, or -1 */
	int ranked;    /* the set's choice ids (DEFAULT_CHOICE aside) the tree ranks */
} pair;

/* The tree's metadata against the set's (ahmeta.h ah_meta_check): another
 * device is refused unless cross, then said on stdout and stderr. */
static void
pair_device(const pair *p, const char *tpath, const char *spath, int cross)
{
	char where[4200], tn[4400], sn[4400], dt[256], ds[256];
	snprintf(where, sizeof where, "%s:1", tpath);
	ah_meta tm;
	ah_meta_parse(&tm, p->t->meta_json, where);
	snprintf(tn, sizeof tn, "tree '%s' (%s)", p->tname, tpath);
	snprintf(sn, sizeof sn, "set '%s' (%s)", p->sname, spath);
	if (ah_meta_check(&tm, tn, &p->fs->meta, sn, cross, "--cross-device")) {
		printf("# cross-device (--cross-device): tree '%s' of %s evaluated on "
		       "set '%s' of %s\n", p->tname, ah_device_str(&tm, dt, sizeof dt),
		       p->sname, ah_device_str(&p->fs->meta, ds, sizeof ds));
		warnf("cross-device evaluation: tree '%s' (%s) on set '%s' (%s)",
		      p->tname, dt, p->sname, ds);
	}
	ah_meta_free(&tm);
}

/* How many of the set's choice ids the tree ranks (DEFAULT_CHOICE, always
 * listed, aside): dies if none, else returns the count. */
static int
pair_vocabulary(const pair *p)
{
	int ranked = 0, set_ids = 0, tree_ids = 0;
	const char *tree_eg = NULL, *set_eg = NULL;
	for (int j = 0; j < p->fs->n_choices; j++)
		if (strcmp(p->fs->choices[j], DEFAULT_CHOICE)) {
			set_ids++;
			set_eg = set_eg ? set_eg : p->fs->choices[j];
		}
	for (int c = 0; c < p->t->n_class; c++) {
		if (!strcmp(p->t->cls[c], DEFAULT_CHOICE))
			continue;
		tree_ids++;
		tree_eg = tree_eg ? tree_eg : p->t->cls[c];
		ranked += p->cmap[c] < p->fs->n_choices;
	}
	if (ranked == 0 && set_ids > 0)
		die("tree '%s' ranks none of the %d choice ids of set '%s' (%s aside): "
		    "its %d classes are e.g. '%s', the set's e.g. '%s'; every list would "
		    "be %s alone, the same at every k: evaluate the tree on data of its "
		    "own candidates", p->tname, set_ids, p->sname, DEFAULT_CHOICE, tree_ids,
		    tree_eg ? tree_eg : "(none)", set_eg, DEFAULT_CHOICE);
	return ranked;
}

static void
pair_open(pair *p, const tree *t, const featset *fs, const named *tn,
          const named *sn, int cross)
{
	p->t = t;
	p->fs = fs;
	p->tname = tn->name;
	p->sname = sn->name;
	pair_device(p, tn->path, sn->path, cross);
	p->fm = map_features(t, fs, p->tname, p->sname);
	p->U = fs->n_choices;
	p->cmap = xmalloc(((size_t)t->n_class + 1) * sizeof *p->cmap);
	for (int c = 0; c < t->n_class; c++) {
		p->cmap[c] = -1;
		for (int j = 0; j < fs->n_choices; j++)
			if (!strcmp(t->cls[c], fs->choices[j])) {
				p->cmap[c] = j;
				break;
			}
		if (p->cmap[c] < 0)
			p->cmap[c] = p->U++;
	}
	p->ranked = pair_vocabulary(p);
	p->def = -1;
	for (int j = 0; j < fs->n_choices && p->def < 0; j++)
		if (!strcmp(fs->choices[j], DEFAULT_CHOICE))
			p->def = j;
	for (int c = 0; c < t->n_class && p->def < 0; c++)
		if (!strcmp(t->cls[c], DEFAULT_CHOICE))
			p->def = p->cmap[c];
}

/* Input i's features in the tree's columns into x[t->n_feat]. */
static void
pair_x(const pair *p, int i, double *x)
{
	const featset *fs = p->fs;
	for (int f = 0; f < p->t->n_feat; f++) {
		const featmap *m = &p->fm[f];
		if (m->col >= 0)
			x[f] = fs->x[(size_t)i * fs->n_feat + m->col];
		else
			x[f] = !strcmp(fs->cat[(size_t)i * fs->meta.n_cat + m->cat],
			               m->value);
	}
}

/* What one (tree, set) adds to metrics.h, per k. */
typedef struct {
	long inputs, skipped, unsafe, no_ranked;
	long speedup_n[64];
	double log_speedup_sum[64], speedup_max[64];
} extra;

/* Rank input i of p and add it to acc[0..kl->n) and *ex; one --ranks row
 * to rfp (if not NULL).  time, x, rk, rank, prob: scratch of p's sizes. */
static void
pair_input(const pair *p, int i, const klist *kl, mx_acc *acc, extra *ex,
           FILE *rfp, double *time, double *x, tree_prob *rk, int *rank,
           double *prob)
{
	const tree *t = p->t;
	const featset *fs = p->fs;
	pair_x(p, i, x);
	int leaf = tree_apply(t, x);
	int n = tree_ranked(t, leaf, rk, t->n_class);
	for (int j = 0; j < n; j++) {
		rank[j] = p->cmap[rk[j].cls];
		prob[j] = rk[j].p;
	}
	for (int u = 0; u < p->U; u++)
		time[u] = NAN;
	for (int r = fs->first[i]; r < fs->first[i + 1]; r++)
		time[fs->choice[r]] = fs->ms[r];
	int truth = fs->choice[fs->winner[i]];
	if (rfp) {
		fprintf(rfp, "%s\t%s\t%d\t%d\t%s\t", p->tname, p->sname, i, leaf,
		        fs->choices[truth]);
		for (int j = 0; j < n; j++)
			fprintf(rfp, "%s%d", j ? "," : "", rk[j].cls);
		fputc('\n', rfp);
	}
	if (!isfinite(time[truth]) || !(time[truth] > 0)) {
		ex->skipped++;
		return;
	}
	ex->inputs++;
	int is_unsafe = t->node[leaf].prob_len == 0;
	ex->unsafe += is_unsafe;
	int measured = 0;
	for (int j = 0; j < n; j++)
		measured |= !isnan(time[rank[j]]);
	ex->no_ranked += !measured;
	mx_case c = {time, truth, rank, prob, n, is_unsafe};
	for (int q = 0; q < kl->n; q++) {
		topk_list l;
		mx_add(&acc[q], &c, &l);
		if (p->def >= 0 && isfinite(time[p->def]) && isfinite(l.best)) {
			double sp = time[p->def] / l.best;
			ex->speedup_n[q]++;
			ex->log_speedup_sum[q] += log(sp);
			if (sp > ex->speedup_max[q])
				ex->speedup_max[q] = sp;
		}
	}
}

/* Evaluate pair p at every k of kl: a table row per k on stdout and in fp
 * (if not NULL), a --ranks row per input in rfp (if not NULL). */
static void
pair_eval(const pair *p, const klist *kl, FILE *fp, FILE *rfp)
{
	const tree *t = p->t;
	mx_acc acc[64];
	extra ex;
	memset(&ex, 0, sizeof ex);
	for (int q = 0; q < kl->n; q++)
		mx_init(&acc[q], kl->k[q], p->def, t->confidence_threshold);
	double *time = xmalloc(((size_t)p->U + 1) * sizeof *time);
	double *x = xmalloc(((size_t)t->n_feat + 1) * sizeof *x);
	tree_prob *rk = xmalloc(((size_t)t->n_class + 1) * sizeof *rk);
	int *rank = xmalloc(((size_t)t->n_class + 1) * sizeof *rank);
	double *prob = xmalloc(((size_t)t->n_class + 1) * sizeof *prob);
	for (int i = 0; i < p->fs->n_inputs; i++)
		pair_input(p, i, kl, acc, &ex, rfp, time, x, rk, rank, prob);
	for (int q = 0; q < kl->n; q++) {
		metrics m;
		mx_finish(&acc[q], &m);
		double hit = ex.inputs ? (double)m.top_k_correct / (double)ex.inputs : 0;
		double sg = ex.speedup_n[q]
		    ? exp(ex.log_speedup_sum[q] / (double)ex.speedup_n[q]) : 0;
		printf("%-12s %-12s %7ld %3d %6.2f%% %8.4f %8.4f %8.3f %8.4f "
		       "%8.3f %6ld %6ld\n", p->tname, p->sname, ex.inputs, kl->k[q],
		       100 * hit, m.regret_gmean, m.regret_p95, m.regret_max, sg,
		       ex.speedup_max[q], ex.no_ranked, ex.unsafe);
		if (fp) {
			fprintf(fp, "%s\t%s\t%d\t%ld\t%ld\t%ld\t%ld\t%.17g\t%ld\t"
			        "%.17g\t%.17g\t", p->tname, p->sname, kl->k[q], ex.inputs,
			        ex.skipped, ex.unsafe, ex.no_ranked, hit, ex.speedup_n[q],
			        sg, ex.speedup_max[q]);
			mx_tsv_row(&m, fp);
			fputc('\n', fp);
		}
	}
	int set_ids = p->fs->n_choices - (p->def >= 0 && p->def < p->fs->n_choices);
	printf("# choices: tree '%s' ranks %d of the %d choice ids of set '%s' (%s "
	       "aside)\n", p->tname, p->ranked, set_ids, p->sname, DEFAULT_CHOICE);
	if (ex.skipped)
		warnf("set '%s': %ld inputs skipped (every choice failed)", p->sname,
		      ex.skipped);
	free(time);
	free(x);
	free(rk);
	free(rank);
	free(prob);
}

static void
pair_close(pair *p)
{
	free(p->cmap);
	free(p->fm);
}

/* The trees (--tree NAME=PATH, or the first positional) and sets (the other
 * positionals) by name, checked for repeated names. */
static void
name_inputs(const opt_list *tl, const opt_list *pl, named **trees,
            size_t *ntree, named **sets, size_t *nset)
{
	int p0 = 0;
	*trees = xmalloc(((size_t)tl->n + 2) * sizeof **trees);
	*sets = xmalloc(((size_t)pl->n + 1) * sizeof **sets);
	*ntree = *nset = 0;
	for (int i = 0; i < tl->n; i++)
		(*trees)[(*ntree)++] = parse_named(tl->v[i], ".tsv");
	if (*ntree == 0) {
		if (pl->n < 1)
			die("no tree given (see --help)");
		(*trees)[(*ntree)++] = parse_named(pl->v[p0++], ".tsv");
	}
	for (int i = p0; i < pl->n; i++)
		(*sets)[(*nset)++] = parse_named(pl->v[i], ".feat.tsv");
	if (*nset == 0)
		die("no data set given (see --help)");
	for (size_t i = 0; i < *nset; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp((*sets)[i].name, (*sets)[j].name))
				die("two sets named '%s' ('%s' and '%s'): name one with "
				    "NAME=PATH", (*sets)[i].name, (*sets)[j].path,
				    (*sets)[i].path);
	for (size_t i = 0; i < *ntree; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp((*trees)[i].name, (*trees)[j].name))
				die("two trees named '%s' ('%s' and '%s'): name one with "
				    "--tree NAME=PATH", (*trees)[i].name, (*trees)[j].path,
				    (*trees)[i].path);
}

int
main(int argc, char **argv)
{
	const char *out = NULL, *ranks_out = NULL;
	int ranking = 10, cross = 0;
	klist kl = {{0}, 0};
	opt_list tlist = {0}, plist = {0};
	const opt table[] = {
		OPT_POS_LIST("TREE.tsv", &plist, 0,
		             "a tree TSV (fit, prune or import output); with --tree "
		             "NAME=PATH (repeatable) several trees side by side"),
		OPT_LIST("--tree", "NAME=PATH", 1, &tlist, 0,
		         "a named tree (repeatable); then every positional is a set"),
		OPT_POS_LIST("SET.feat.tsv", &plist, 0,
		             "featurize output (stages/FORMATS.md); NAME=PATH names "
		             "the set (default: the file name without .feat.tsv)"),
		OPT_INT("--ranking", "K", &ranking, 1, 100000, 0,
		        "top-k sizes are 1, 5 and K (default K = 10)"),
		OPT_CALL("--k", "LIST", parse_k, &kl,
		         "explicit comma-separated top-k sizes, e.g. 1,3,10"),
		OPT_OUT("EVAL.tsv", &out, 0,
		        "TSV, one row per (set, tree, k), written atomically: tree set "
		        "k inputs skipped unsafe no_ranked hit_rate speedup_n "
		        "speedup_gmean speedup_max, then the metrics TSV columns of "
		        "stages/FORMATS.md (total, top_k_correct, ..., regret_n "
		        "regret_none regret_gmean regret_p95 regret_max)"),
		OPT_FLAG("--cross-device", &cross,
		         "evaluate trees on sets of another device (metadata "
		         "shared_memory, device_capa) on purpose; said on stdout and "
		         "stderr (without it: refused)"),
		OPT_STRING("--ranks", "FILE", &ranks_out, 0,
		           "TSV, one row per (tree, set, input): leaf node id, the "
		           "winner's choice id and the full ranking as tree class "
		           "indices (comma separated, best first)"),
		OPT_END()
	};
	char *notes = help_notes();
	opts_parse(&(opt_prog){synopsis, about, table, notes, 18}, argc, argv);
	free(notes);
	named *trees, *sets;
	size_t ntree, nset;
	name_inputs(&tlist, &plist, &trees, &ntree, &sets, &nset);
	klist_finish(&kl, ranking);
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
	print_legend();
	printf("%-12s %-12s %7s %3s %7s %8s %8s %8s %8s %8s %6s %6s\n", "tree",
	       "set", "inputs", "k", "hit", "regret", "p95", "max", "speedup",
	       "sp_max", "noRank", "unsafe");
	for (size_t si = 0; si < nset; si++) {
		featset fs;
		featset_read(&fs, sets[si].path);
		for (size_t ti = 0; ti < ntree; ti++) {
			pair p;
			pair_open(&p, &tr[ti], &fs, &trees[ti], &sets[si], cross);
			pair_eval(&p, &kl, fp, rfp);
			pair_close(&p);
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
	free(plist.v);
	free(tlist.v);
	close_stdout();
	return 0;
}
