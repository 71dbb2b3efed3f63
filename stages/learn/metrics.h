/* metrics.h — ranking evaluator (spec §5.9 DecisionEvaluator, ranking mode),
 * independent of where the ranking comes from: fit feeds it leaf rankings
 * of a tree, a later `eval` stage can feed any ranking function's lists.
 *
 * Choices are integers of one caller-defined "universe" 0 .. n_choice-1
 * (fit uses the tree's classes first, then every other choice id seen).
 * One mx_case = one input (ranking mode keeps the row with winner ==
 * actual_winner, i.e. one per input):
 *
 *   time[c]   median time of choice c for this input, milliseconds;
 *             NAN = c was not measured for this input (not in
 *             avail_choices), +inf = measured but failed;
 *   truth     the input's actual winner (its best time, finite);
 *   rank/prob the ranking, best first, as the ranking function returns it
 *             (for a tree leaf: classes by probability descending, ties by
 *             ascending class index, only p > 0 — tree_ranked()); rank[0] is
 *             the top-1 prediction and prob[0] its probability max(prob);
 *   unsafe    1 if the ranking function declined (unsafe leaf, §5.7).
 *
 * Per case (spec §5.9):
 * - top-k list: rules.h topk() over rank/prob with the case's times, k and
 *   the default choice (first k ranked with p > 0 and a time, the default
 *   appended).  top_k_correct if truth is in it; otherwise, if any listed
 *   choice has a time, top_k_wrong and min(listed times) / time[truth] is
 *   recorded; else top_k_unsure.
 * - top-1: unsure if unsafe, or rank is empty, or rank[0] has no time, or
 *   (prob[0] != 1.0 and prob[0] <= threshold); unsure appends 1.0 to the
 *   speedups over default.  Otherwise correct if rank[0] == truth, else
 *   wrong (speedup time[rank[0]] / time[truth]).  For correct and wrong, if
 *   a default exists (def >= 0): non_default_predictions counts rank[0] !=
 *   def; if time[def] is finite, time[def] / time[rank[0]] is appended to
 *   the speedups over default, and default_better counts ratios < 1.
 * - regret (extra, not in the reference; rules.h regret()) = (best finite
 *   time among the top-k list) / time[truth] >= 1: the slowdown against
 *   the oracle if autotuning only the listed choices.  Cases whose list has no finite time
 *   are counted in regret_none and left out of the regret statistics.
 *
 * Aggregates of empty lists are 0 (as the reference).  gmean = exp(mean
 * log x); p95 = nearest rank: the ceil(0.95·n)-th smallest.
 */
#ifndef MMRANK_METRICS_H
#define MMRANK_METRICS_H
#include <stddef.h>
#include <stdio.h>

#include "formats/rules.h"

typedef struct {
	const double *time; /* [n_choice] ms; NAN = not available, inf = failed */
	int truth;          /* universe index of the actual winner */
	const int *rank;    /* [n_rank] ranked choices, best first */
	const double *prob; /* [n_rank] their probabilities */
	int n_rank;
	int unsafe;         /* 1: the ranking function returned "unsure" */
} mx_case;

typedef struct {
	/* the reference's columns (spec §5.9) */
	long total, correct, wrong, unsure;
	double wrong_max_speedup, wrong_gmean_speedup;
	long top_k_correct, top_k_wrong, top_k_unsure;
	double wrong_max_speedup_k, wrong_gmean_speedup_k;
	double max_speedup_over_default, gmean_speedup_over_default;
	double max_speedup_default_over_heuristic; /* the MINIMUM (reference name) */
	long non_default_predictions, default_better;
	/* extras */
	long regret_n, regret_none;
	double regret_gmean, regret_p95, regret_max;
} metrics;

/* Accumulator: add cases one by one, then finish.  Owns growable lists. */
typedef struct {
	int k;              /* top-k size (--ranking) */
	int def;            /* default choice (extern_mm), -1 if none */
	double threshold;   /* §5.8 confidence threshold (mm: 0.0) */
	metrics m;          /* counts so far */
	double *wrong_sp, *wrong_sp_k, *sp_def, *regret;
	size_t n_wrong_sp, n_wrong_sp_k, n_sp_def, n_regret;
	size_t c_wrong_sp, c_wrong_sp_k, c_sp_def, c_regret;
} mx_acc;

/* Start an accumulator: k >= 1 choices per list, default choice def (or -1),
 * top-1 confidence threshold. */
void mx_init(mx_acc *a, int k, int def, double threshold);
/* Add one input (see the rules above).  time[truth] must be finite.  If
 * list is not NULL it receives the case's top-k list summary. */
void mx_add(mx_acc *a, const mx_case *c, topk_list *list);
/* Add b's cases to a, as if each had been added to a after a's own (the
 * same k, default and threshold, else dies), and release b: accumulators
 * of independent jobs combine in a fixed order into what one sequence of
 * mx_add calls gives. */
void mx_merge(mx_acc *a, mx_acc *b);
/* Release an accumulator's lists without finishing it. */
void mx_free(mx_acc *a);
/* Compute the aggregates into *out (a may be reused after mx_init again)
 * and release the lists. */
void mx_finish(mx_acc *a, metrics *out);

/* Metrics TSV columns (stages/FORMATS.md "metrics TSV") after the model
 * columns: header names, tab separated, no leading/trailing tab. */
extern const char mx_tsv_header[];
/* Print m's values in mx_tsv_header order (%.17g / integers). */
void mx_tsv_row(const metrics *m, FILE *fp);

#endif
