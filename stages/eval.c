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
 * The curve (--curve, curve.h): hit rate and regret of the
 * pick alone (`first`, what a runtime without autotuning launches: the
 * leaf's pick when it was measured for the input, else the first listed
 * choice measured for it, extern_mm if none is), of the list head alone
 * (`head`: the same without the pick) and of the top-k + extern_mm lists
 * for k = 1..10 and for k = the leaf's own top_k (auto: fit --topk-eps; 10
 * for a tree without one), per (tree, set).
 *
 * Per-input rankings (--ranked NAME:SET=FILE, a ranks TSV: nvmmh's, NVIDIA's
 * analytic nvMatmulHeuristics) are scored on set SET like a tree's lists
 * (every listed id with prob 1, in order), under the name NAME; the file
 * must hold exactly SET's inputs (m, k, n checked row by row).
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
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ahmeta.h"
#include "learn/curve.h"
#include "formats/featmap.h"
#include "formats/featset.h"
#include "learn/metrics.h"
#include "core/opts.h"
#include "formats/ranks.h"
#include "formats/rules.h"
#include "formats/tree.h"
#include "core/util.h"

static const char synopsis[] =
"eval [--ranking K] [--k LIST] [-o EVAL.tsv] [--ranks RANKS.tsv]\n"
"            [--curve CURVE.tsv] [--ranked NAME:SET=FILE]... [--cross-device]\n"
"            (--tree NAME=TREE.tsv ... | TREE.tsv) [NAME=]SET.feat.tsv ...";

static const char about[] =
"Rank every input of each feat TSV with each tree and report top-k hit rate,\n"
"regret and speedup over extern_mm (spec §5.9 semantics, §7.3 use).\n";

/* The table's columns: --help and the legend above the table print this. */
static const struct {
	const char *col, *meaning;
} columns[] = {
	{"tree, set", "the names given (NAME=PATH, --ranked's NAME, or the file)"},
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
	{"noRank", "inputs none of whose measured choices the tree ranks"},
	{"unsafe", "inputs that reach a leaf without probabilities (spec §5.7)"},
};

static const char notes_tail[] =
"After each (tree, set): how many of the set's choice ids the tree ranks\n"
"(none: refused); then --curve's curve.  Regret and speedup: ms / ms.\n"
"\n"
"Exit status: 0 on success; 1 on bad usage, invalid input (file:line), a\n"
"tree feature the set lacks, a tree of another device or ranking none of a\n"
"set's choices, or a write error (no partial EVAL.tsv or RANKS.tsv).\n"
"See docs/STAGES.md \"eval\" for the long form of every option.\n";

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

/* One (tree, set) pair: the set's choices, then the tree-only classes, make
 * the universe of the metrics (mx_case.time).  A ranks TSV (--ranked) takes
 * the tree's place: t = NULL, rk its rows, its ids in the universe. */
typedef struct {
	const tree *t;
	const ranks *rk;
	const featset *fs;
	const char *tname, *sname;
	featmap *fm;
	int *cmap;     /* [t->n_class] tree class -> universe index; with rk:
	                  [rk->n_id] id -> universe index */
	int U;         /* universe size */
	int def;       /* universe index of DEFAULT_CHOICE, or -1 */
	int max_rank;  /* the longest ranking */
	int ranked;    /* the set's choice ids (DEFAULT_CHOICE aside) ranked */
} pair;

/* Universe index of choice id among the set's choices, or a new one. */
static int
universe_index(const featset *fs, const char *id, int *U)
{
	for (int j = 0; j < fs->n_choices; j++)
		if (!strcmp(id, fs->choices[j]))
			return j;
	return (*U)++;
}

/* DEFAULT_CHOICE's universe index: a set choice, else a tree class. */
static int
default_index(const pair *p)
{
	for (int j = 0; j < p->fs->n_choices; j++)
		if (!strcmp(p->fs->choices[j], DEFAULT_CHOICE))
			return j;
	for (int c = 0; p->t && c < p->t->n_class; c++)
		if (!strcmp(p->t->cls[c], DEFAULT_CHOICE))
			return p->cmap[c];
	return -1;
}

/* How many of the set's choice ids p ranks (DEFAULT_CHOICE, always listed,
 * aside; p->cmap set): dies if none, else returns the count. */
static int
pair_vocabulary(const pair *p)
{
	const featset *fs = p->fs;
	int n_entries = p->t ? p->t->n_class : p->rk->n_id, ranked = 0, set_ids = 0;
	char *seen = xcalloc((size_t)fs->n_choices + 1, 1);
	const char *listed_eg = NULL, *set_eg = NULL;
	for (int e = 0; e < n_entries; e++) {
		const char *id = p->t ? p->t->cls[e] : p->rk->id[e];
		if (strcmp(id, DEFAULT_CHOICE)) {
			listed_eg = listed_eg ? listed_eg : id;
			if (p->cmap[e] < fs->n_choices)
				seen[p->cmap[e]] = 1;
		}
	}
	for (int j = 0; j < fs->n_choices; j++)
		if (strcmp(fs->choices[j], DEFAULT_CHOICE)) {
			set_ids++;
			set_eg = set_eg ? set_eg : fs->choices[j];
			ranked += seen[j];
		}
	free(seen);
	if (ranked == 0 && set_ids > 0)
		die("%s '%s' ranks none of the %d choice ids of set '%s' (%s aside): it "
		    "lists e.g. '%s', the set has e.g. '%s'; every list would be %s "
		    "alone, the same at every k: evaluate it on data of its own "
		    "candidates", p->t ? "tree" : "ranking", p->tname, set_ids, p->sname,
		    DEFAULT_CHOICE, listed_eg ? listed_eg : "(none)", set_eg,
		    DEFAULT_CHOICE);
	return ranked;
}

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
	if (ah_meta_check(&tm, tn, &p->fs->meta, sn, cross, AH_CROSS_FLAG)) {
		printf("# cross-device (--cross-device): tree '%s' of %s evaluated on "
		       "set '%s' of %s\n", p->tname, ah_device_str(&tm, dt, sizeof dt),
		       p->sname, ah_device_str(&p->fs->meta, ds, sizeof ds));
		warnf("cross-device evaluation: tree '%s' (%s) on set '%s' (%s)",
		      p->tname, dt, p->sname, ds);
	}
	ah_meta_free(&tm);
}

/* A --ranked pair: rk (from path) scored on fs; dies naming path:line if
 * rk does not hold exactly fs's inputs. */
static void
pair_open_ranks(pair *p, const ranks *rk, const char *path, const featset *fs,
                const char *tname, const char *sname)
{
	memset(p, 0, sizeof *p);
	p->rk = rk;
	p->fs = fs;
	p->tname = tname;
	p->sname = sname;
	if (rk->n_inputs != fs->n_inputs)
		die("%s: %d inputs, set '%s' has %d (nvmmh on another set?)", path,
		    rk->n_inputs, sname, fs->n_inputs);
	static const char *const dim[] = {"m", "k", "n"};
	for (int c = 0; c < 3; c++) {
		int col = featset_feature(fs, dim[c]);
		if (col < 0)
			die("set '%s' has no column '%s'", sname, dim[c]);
		for (int i = 0; i < fs->n_inputs; i++)
			if (rk->mkn[3 * i + c] != (int64_t)fs->x[(size_t)i * fs->n_feat + col])
				die("%s:%d: field '%s': %" PRId64 ", input %d of set '%s' has "
				    "%.17g (nvmmh on another set?)", path, i + 2, dim[c],
				    rk->mkn[3 * i + c], i, sname,
				    fs->x[(size_t)i * fs->n_feat + col]);
	}
	p->U = fs->n_choices;
	p->cmap = xmalloc(((size_t)rk->n_id + 1) * sizeof *p->cmap);
	for (int j = 0; j < rk->n_id; j++)
		p->cmap[j] = universe_index(fs, rk->id[j], &p->U);
	for (int i = 0; i < rk->n_inputs; i++)
		if (rk->off[i + 1] - rk->off[i] > p->max_rank)
			p->max_rank = rk->off[i + 1] - rk->off[i];
	p->ranked = pair_vocabulary(p);
	p->def = default_index(p);
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
	p->rk = NULL;
	p->fm = featmap_new(t, fs, p->tname, p->sname);
	p->U = fs->n_choices;
	p->cmap = xmalloc(((size_t)t->n_class + 1) * sizeof *p->cmap);
	for (int c = 0; c < t->n_class; c++)
		p->cmap[c] = universe_index(fs, t->cls[c], &p->U);
	p->ranked = pair_vocabulary(p);
	p->max_rank = t->n_class;
	p->def = default_index(p);
}

/* What one (tree, set) adds to metrics.h, per k, and its curve. */
typedef struct {
	long inputs, skipped, unsafe, no_ranked;
	long speedup_n[64];
	double log_speedup_sum[64], speedup_max[64];
	cv_acc curve;
} extra;

/* Input i's ranking by p into rank[], prob[] (universe indices), its leaf
 * (-1 for a ranks TSV) into *leaf, the leaf's pick (tree.h tree_pick; -1:
 * none, a ranks TSV's) into *pick; returns the length.  rk: scratch. */
static int
pair_rank(const pair *p, int i, double *x, tree_prob *rk, int *rank,
          double *prob, int *leaf, int *pick)
{
	if (p->rk) {
		int o = p->rk->off[i], n = p->rk->off[i + 1] - o;
		for (int j = 0; j < n; j++) {
			rank[j] = p->cmap[o + j];
			prob[j] = 1.0;
		}
		*leaf = *pick = -1;
		return n;
	}
	featmap_x(p->fm, p->t, p->fs, i, x);
	*leaf = tree_apply(p->t, x);
	*pick = tree_pick(p->t, *leaf);
	if (*pick >= 0)
		*pick = p->cmap[*pick];
	int n = tree_ranked(p->t, *leaf, rk, p->t->n_class);
	for (int j = 0; j < n; j++) {
		rank[j] = p->cmap[rk[j].cls];
		prob[j] = rk[j].p;
	}
	return n;
}

/* Rank input i of p and add it to acc[0..kl->n) and *ex; one --ranks row
 * to rfp (if not NULL; trees only).  time, x, rk, rank, prob: scratch of
 * p's sizes. */
static void
pair_input(const pair *p, int i, const klist *kl, mx_acc *acc, extra *ex,
           FILE *rfp, double *time, double *x, tree_prob *rk, int *rank,
           double *prob)
{
	const featset *fs = p->fs;
	int leaf, pick, n = pair_rank(p, i, x, rk, rank, prob, &leaf, &pick);
	for (int u = 0; u < p->U; u++)
		time[u] = NAN;
	for (int r = fs->first[i]; r < fs->first[i + 1]; r++)
		time[fs->choice[r]] = fs->ms[r];
	int truth = fs->choice[fs->winner[i]];
	if (rfp && p->t) {
		fprintf(rfp, "%s\t%s\t%d\t%d\t%s\t", p->tname, p->sname, i, leaf,
		        fs->choices[truth]);
		for (int j = 0; j < n; j++)
			fprintf(rfp, "%s%d", j ? "," : "", rk[j].cls);
		fprintf(rfp, "\t%d\n", tree_pick(p->t, leaf));
	}
	if (!isfinite(time[truth]) || !(time[truth] > 0)) {
		ex->skipped++;
		return;
	}
	ex->inputs++;
	int is_unsafe = p->t && p->t->node[leaf].prob_len == 0;
	ex->unsafe += is_unsafe;
	int measured = 0;
	for (int j = 0; j < n; j++)
		measured |= !isnan(time[rank[j]]);
	ex->no_ranked += !measured;
	mx_case c = {time, truth, rank, prob, n, is_unsafe};
	cv_add(&ex->curve, time, truth, rank, prob, n,
	       p->t ? p->t->node[leaf].top_k : 0, pick);
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

/* The curve of (tree, set) pairs, collected for the printed table. */
typedef struct {
	const char *tname, *sname;
	cv_acc c;
} curve_row;

/* --curve TSV header, and the rows of one pair (k = first: the pick
 * alone, 1..CV_KMAX, auto: the leaf's top_k, head: the list head alone,
 * curve.h), with the mean list length. */
static const char curve_header[] =
    "tree\tset\tk\tinputs\thit_rate\tregret_gmean\tregret_max\tregret_none\tmean_k";

static void
curve_tsv(FILE *fp, const char *tname, const char *sname, const cv_acc *c)
{
	for (int k = 0; k <= CV_HEAD; k++) {
		fprintf(fp, "%s\t%s\t", tname, sname);
		if (k == 0)
			fputs("first", fp);
		else if (k == CV_AUTO)
			fputs("auto", fp);
		else if (k == CV_HEAD)
			fputs("head", fp);
		else
			fprintf(fp, "%d", k);
		fprintf(fp, "\t%ld\t%.17g\t%.17g\t%.17g\t%ld\t%.17g\n", c->n,
		        cv_hit(c, k), cv_regret(c, k), c->rmax[k], c->none[k],
		        k == CV_AUTO ? cv_mean_k(c) : k && k < CV_AUTO ? k : 1);
	}
}

/* The printed curve table: per pair, hit % and regret at first, head, 1,
 * 2, 5, 10. */
static void
curve_print(const curve_row *cr, size_t n)
{
	static const int ks[] = {0, CV_HEAD, 1, 2, 5, 10};
	printf("\ncurve: first = the leaf's pick alone, head = the first listed choice "
	       "alone (no extern_mm); k = top-k + extern_mm; hit %% and regret "
	       "geomean\n%-12s %-12s %7s", "tree", "set", "inputs");
	for (size_t q = 0; q < sizeof ks / sizeof *ks; q++) {
		char h[16];
		snprintf(h, sizeof h, ks[q] == CV_HEAD ? "head" : ks[q] ? "k=%d" : "first",
		         ks[q]);
		printf("   %-18s", h);
	}
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		printf("%-12s %-12s %7ld", cr[i].tname, cr[i].sname, cr[i].c.n);
		for (size_t q = 0; q < sizeof ks / sizeof *ks; q++)
			printf("   %6.2f%% %10.6f", 100 * cv_hit(&cr[i].c, ks[q]),
			       cv_regret(&cr[i].c, ks[q]));
		putchar('\n');
	}
}

/* Evaluate pair p at every k of kl: a table row per k on stdout and in fp
 * (if not NULL), a --ranks row per input in rfp (if not NULL), the curve
 * into *curve. */
static void
pair_eval(const pair *p, const klist *kl, FILE *fp, FILE *rfp, cv_acc *curve)
{
	const tree *t = p->t;
	mx_acc acc[64];
	extra ex;
	memset(&ex, 0, sizeof ex);
	cv_init(&ex.curve, p->def);
	for (int q = 0; q < kl->n; q++)
		mx_init(&acc[q], kl->k[q], p->def, t ? t->confidence_threshold : 0.0);
	size_t nr = (size_t)p->max_rank + 1;
	double *time = xmalloc(((size_t)p->U + 1) * sizeof *time);
	double *x = xmalloc(((size_t)(t ? t->n_feat : 0) + 1) * sizeof *x);
	tree_prob *rk = xmalloc(nr * sizeof *rk);
	int *rank = xmalloc(nr * sizeof *rank);
	double *prob = xmalloc(nr * sizeof *prob);
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
	printf("# choices: %s '%s' ranks %d of the %d choice ids of set '%s' (%s "
	       "aside)\n", t ? "tree" : "ranking", p->tname, p->ranked, set_ids,
	       p->sname, DEFAULT_CHOICE);
	if (ex.skipped)
		warnf("set '%s': %ld input%s skipped (every choice failed)", p->sname,
		      ex.skipped, plural_s(ex.skipped));
	*curve = ex.curve;
	free(time);
	free(x);
	free(rk);
	free(rank);
	free(prob);
}

/* --ranked NAME:SET=FILE, split (NAME and SET owned). */
typedef struct {
	char *name, *set;
	const char *path;
} ranked;

static ranked *
parse_ranked(const opt_list *l, const named *trees, size_t ntree,
             const named *sets, size_t nset)
{
	ranked *r = xcalloc((size_t)l->n + 1, sizeof *r);
	for (int i = 0; i < l->n; i++) {
		const char *a = l->v[i], *c = strchr(a, ':'), *e = c ? strchr(c, '=') : NULL;
		if (!c || c == a || !e || e == c + 1 || !e[1])
			die("--ranked: expected NAME:SET=FILE, got '%s'", a);
		r[i].name = xstrndup(a, (size_t)(c - a));
		r[i].set = xstrndup(c + 1, (size_t)(e - c - 1));
		r[i].path = e + 1;
		size_t s = 0;
		while (s < nset && strcmp(sets[s].name, r[i].set))
			s++;
		if (s == nset)
			die("--ranked '%s': no set named '%s'", a, r[i].set);
		for (size_t t = 0; t < ntree; t++)
			if (!strcmp(trees[t].name, r[i].name))
				die("--ranked '%s': '%s' is also a tree's name", a, r[i].name);
		for (int j = 0; j < i; j++)
			if (!strcmp(r[j].name, r[i].name) && !strcmp(r[j].set, r[i].set))
				die("--ranked '%s': %s:%s given twice", a, r[i].name, r[i].set);
	}
	return r;
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

/* Every set opens and has a valid header before the table starts: a
 * missing set is refused before any row is printed. */
static void
check_set_headers(const named *sets, size_t nset)
{
	for (size_t si = 0; si < nset; si++) {
		featset h;
		featset_read_header(&h, sets[si].path);
		featset_free(&h);
	}
}

int
main(int argc, char **argv)
{
	const char *out = NULL, *ranks_out = NULL, *curve_out = NULL;
	int ranking = 10, cross = 0;
	klist kl = {{0}, 0};
	opt_list tlist = {0}, plist = {0}, rlist = {0};
	const opt table[] = {
		OPT_HEAD("Inputs:"),
		OPT_POS_LIST("TREE.tsv", &plist, 0,
		             "a tree TSV (fit, prune or import output)"),
		OPT_LIST("--tree", "NAME=PATH", 1, &tlist, 0,
		         "a named tree (repeatable); then every positional is a set"),
		OPT_POS_LIST("SET.feat.tsv", &plist, 0,
		             "featurize output; [NAME=] names the set (default: "
		             "the file name)"),
		OPT_LIST("--ranked", "NAME:SET=FILE", 1, &rlist, 0,
		         "per-input rankings of set SET (a ranks TSV, e.g. nvmmh's), "
		         "scored as tree NAME (repeatable)"),
		OPT_FLAG("--cross-device", &cross,
		         "evaluate on sets of another device on purpose (said)"),
		OPT_HEAD("List sizes:"),
		OPT_INT("--ranking", "K", &ranking, 1, 100000, 0,
		        "top-k sizes 1, 5 and K (default K = 10)"),
		OPT_CALL("--k", "LIST", parse_k, &kl,
		         "explicit comma-separated top-k sizes, e.g. 1,3,10"),
		OPT_HEAD("Outputs (stages/FORMATS.md; written atomically):"),
		OPT_OUT("EVAL.tsv", &out, 0,
		        "eval TSV, one row per (set, tree, k)"),
		OPT_STRING("--ranks", "FILE", &ranks_out, OPT_OUTPUT,
		           "eval ranks TSV, one row per (tree, set, input): leaf, "
		           "winner, ranking, pick (trees only)"),
		OPT_STRING("--curve", "FILE", &curve_out, OPT_OUTPUT,
		           "curve TSV: the pick alone, k = 1..10, auto and the list "
		           "head alone per (tree, set); also printed"),
		OPT_END()
	};
	char *notes = help_notes();
	opts_parse(&(opt_prog){synopsis, about, table, notes, 18, "eval's table"},
	           argc, argv);
	free(notes);
	named *trees, *sets;
	size_t ntree, nset;
	name_inputs(&tlist, &plist, &trees, &ntree, &sets, &nset);
	klist_finish(&kl, ranking);
	ranked *rd = parse_ranked(&rlist, trees, ntree, sets, nset);
	for (size_t i = 0; i < ntree + nset + (size_t)rlist.n; i++) {
		const char *in = i < ntree ? trees[i].path : i < ntree + nset ?
		                 sets[i - ntree].path : rd[i - ntree - nset].path;
		check_output_not_input(out, in);
		check_output_not_input(ranks_out, in);
		check_output_not_input(curve_out, in);
	}

	tree *tr = xcalloc(ntree, sizeof *tr);
	for (size_t i = 0; i < ntree; i++)
		tree_read(&tr[i], trees[i].path);
	check_set_headers(sets, nset);
	aout o, ro, co;
	FILE *fp = out ? aout_open(&o, out) : NULL;
	FILE *rfp = ranks_out ? aout_open(&ro, ranks_out) : NULL;
	FILE *cfp = curve_out ? aout_open(&co, curve_out) : NULL;
	curve_row *cr = xcalloc(nset * ntree + (size_t)rlist.n + 1, sizeof *cr);
	size_t ncr = 0;
	if (cfp)
		fprintf(cfp, "%s\n", curve_header);
	if (fp)
		fprintf(fp, "tree\tset\tk\tinputs\tskipped\tunsafe\tno_ranked\t"
		        "hit_rate\tspeedup_n\tspeedup_gmean\tspeedup_max\t%s\n",
		        mx_tsv_header);
	if (rfp)
		fprintf(rfp, "tree\tset\tinput\tleaf\twinner\tranking\tpick\n");
	print_legend();
	printf("%-12s %-12s %7s %3s %7s %8s %8s %8s %8s %8s %6s %6s\n", "tree",
	       "set", "inputs", "k", "hit", "regret", "p95", "max", "speedup",
	       "sp_max", "noRank", "unsafe");
	for (size_t si = 0; si < nset; si++) {
		featset fs;
		featset_read(&fs, sets[si].path);
		for (size_t ti = 0; ti < ntree + (size_t)rlist.n; ti++) {
			pair p;
			ranks rk;
			const ranked *r = ti < ntree ? NULL : &rd[ti - ntree];
			if (r && strcmp(r->set, sets[si].name))
				continue;
			if (r) {
				ranks_read(&rk, r->path);
				pair_open_ranks(&p, &rk, r->path, &fs, r->name, sets[si].name);
			} else {
				pair_open(&p, &tr[ti], &fs, &trees[ti], &sets[si], cross);
			}
			curve_row *c = &cr[ncr++];
			c->tname = p.tname;
			c->sname = sets[si].name;
			pair_eval(&p, &kl, fp, rfp, &c->c);
			if (cfp)
				curve_tsv(cfp, c->tname, c->sname, &c->c);
			pair_close(&p);
			if (r)
				ranks_free(&rk);
		}
		featset_free(&fs);
	}
	if (curve_out)
		curve_print(cr, ncr);
	if (cfp)
		aout_commit(&co);
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
	for (int i = 0; i < rlist.n; i++) {
		free(rd[i].name);
		free(rd[i].set);
	}
	free(rd);
	free(cr);
	free(plist.v);
	free(tlist.v);
	free(rlist.v);
	close_stdout();
	return 0;
}
