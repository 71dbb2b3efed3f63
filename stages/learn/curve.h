/* curve.h — hit rate and regret of a ranking at every list length
 * (spec §5.9 top-k list, §7.3 how Inductor uses it).
 *
 * Choices are integers of a caller-defined universe, as in metrics.h; per
 * input: time[c] in ms (NAN = not measured for the input, +inf = failed),
 * the actual winner truth (finite time), the ranking rank[0..n) with
 * probabilities prob[] (tree_ranked() order), and def, the always-included
 * choice (extern_mm; -1: none).  The *filtered* list is the ranking's
 * entries with prob > 0 and a time (not NAN), in order: what Inductor keeps
 * of the list for the shape (§7.3 step 4).
 *
 *   k >= 1 ("top-k + extern_mm", §5.9, §7.3 step 5): rules.h's top-k list
 *          (the first k entries of the filtered list, and def); hit iff
 *          truth is among them; regret = their best time / time[truth].
 *   k = 0  ("first", the pick alone): rules.h's pick_entry (the leaf's
 *          pick, tree.h tree_pick, when it has a time, else the first
 *          entry of the filtered list, or def when it is empty: the C
 *          API's rank() appends def to every list,
 *          templates/heuristic.h.m4): what a runtime without autotuning
 *          launches (<name>_pick_offered()).  hit iff it is truth; regret
 *          = its time / time[truth]; no fallback when it failed.
 *   head   (the list head alone): the same with no pick (rules.h
 *          first_entry): k = 0 before the leaves had picks, and k = 0
 *          itself for a tree without them.
 *
 *   auto   ("top-k sized by confidence"): the top-k list with
 *          k = the leaf's own top_k (tree.h, fit --topk-eps), or 10, the
 *          top_k Inductor's tuned_mm passes, for a tree or ranking without
 *          one; the mean k is kept too.
 *
 * A list without a finite time (a failed first entry; for k >= 1, every
 * listed choice failed) is counted in none[k] and left out of the regret
 * statistics, like metrics.h's regret_none; for model selection
 * (cv_lcap) it costs RR_REGRET_CAP (rerank.h) instead.
 */
#ifndef MMRANK_CURVE_H
#define MMRANK_CURVE_H

#define CV_KMAX 10
#define CV_AUTO (CV_KMAX + 1) /* the index of the auto list */
#define CV_KDEF 10            /* auto's k without a per-leaf k */
#define CV_HEAD (CV_AUTO + 1) /* the index of the list head alone */

typedef struct {
	int def;               /* always-included choice, -1: none */
	long n;                /* inputs added */
	long hit[CV_HEAD + 1]; /* [0] the pick alone, [k] top-k + def,
	                          [CV_AUTO] the leaf's top_k + def, [CV_HEAD]
	                          the list head alone */
	long none[CV_HEAD + 1];
	double lsum[CV_HEAD + 1];  /* sum of ln regret over the others */
	double lcap[CV_HEAD + 1];  /* sum of ln regret, none = ln RR_REGRET_CAP,
	                              each regret capped there */
	double rmax[CV_HEAD + 1];
	double ksum;           /* sum of auto's k over the inputs */
} cv_acc;

/* Start an accumulator for the always-included choice def (or -1). */
void cv_init(cv_acc *a, int def);
/* Add one input (see above); time[truth] must be finite and > 0; kauto:
 * the leaf's top_k (<= 0: none, CV_KDEF); pick: the leaf's pick (-1:
 * none, the list head). */
void cv_add(cv_acc *a, const double *time, int truth, const int *rank,
            const double *prob, int n_rank, int kauto, int pick);
/* ln regret of the top-j list + def for j = 1..kmax into lr[0..kmax): a
 * list without a finite time costs ln RR_REGRET_CAP, each capped there
 * (what cv_lcap averages; fit --topk-eps sizes a leaf's k by it). */
void cv_list_lr(const double *time, int truth, const int *rank,
                const double *prob, int n_rank, int def, int kmax, double *lr);
/* Mean auto k (0 without inputs). */
double cv_mean_k(const cv_acc *a);
/* Add b's inputs to a (same def): merging accumulators in a fixed order
 * gives what adding their inputs in that order gives (fit's passes and
 * jobs, gridcv.h). */
void cv_merge(cv_acc *a, const cv_acc *b);
/* Hit rate at k (0..CV_HEAD), a fraction; 0 without inputs. */
double cv_hit(const cv_acc *a, int k);
/* Geometric mean regret at k over the inputs not in none[k]; 0 if none. */
double cv_regret(const cv_acc *a, int k);

/* Mean ln regret at k over every input, a list without a finite time
 * costing ln RR_REGRET_CAP and each regret capped there: what fit --select
 * curve compares (0 without inputs). */
double cv_lcap(const cv_acc *a, int k);

/* The list lengths fit --select curve weighs: k = 1, 2, 5, 10 (top-k +
 * extern_mm).  Writes them to ks (room for CV_KMAX + 1) and returns the
 * count. */
int cv_select_points(int *ks);

#endif
