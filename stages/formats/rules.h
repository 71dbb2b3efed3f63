/* rules.h — the ranking rules, each in one place, for every caller: fit,
 * eval, the metrics, rerank and bench in C; the Python helpers read the
 * #define lines below through python/mmrank/rules.py (keep them one
 * `#define NAME VALUE` per line) and mirror the three functions.
 *
 * near-best (spec §5.2): for an input whose best median time is best, a
 * choice with median time t is near-best iff best / t >= NEAR_BEST_RATIO,
 * i.e. t <= best / 0.98, at most ~2.04 % slower; a failed choice
 * (t = +inf) never is, and nothing is near-best for an input whose best
 * time is inf (NaN ratios).  fit expands every input into one training
 * row per near-best choice, weight best / t.
 *
 * the top-k list with its fallback (spec §5.9; Inductor's
 * get_top_k_choices, §7.3 steps 4-5): from a ranking rank[0..n) (best
 * first, with probabilities prob[]), the first k entries with prob > 0
 * and rank >= 0 whose choice is available (time not NAN: measured, or a
 * candidate of the input; +inf = measured and failed counts), then
 * DEFAULT_CHOICE (def, always included) appended if not listed, so k + 1
 * entries at most.  def is listed even when it has no time (it then adds
 * no time: an input whose truth is def always has def's time).
 *
 * the first entry alone (ours; C only): the list head run
 * alone (eval --curve's `head`): the first entry of the ranking with
 * prob > 0 and rank >= 0 whose choice is available (time not NAN), else
 * def when it is available (rank() appends def to every list), else none.
 * No fallback when it failed (+inf): its regret is then infinite.
 *
 * the pick alone (ours; C only): what a runtime without autotuning
 * launches (the C API's <name>_pick_offered(), eval --curve's `first`)
 * for a leaf whose pick (tree.h tree_pick, leaforder.h lo_pick) is pick:
 * pick when available, else the first entry alone above; a pick < 0
 * (none) is the first entry alone.  No fallback when it failed.
 *
 * fast reject (ours; bench --fast-reject F): a candidate whose first timed
 * repetition exceeds F x the best first repetition so far gets no more
 * repetitions.  That is safe only for a candidate that cannot be
 * near-best, so F is 0 (off) or F >= 1 / NEAR_BEST_RATIO (1/0.98 =
 * 1.0204082: then t > F x best means best / t < NEAR_BEST_RATIO).
 * stages/sh/vars.sh reads NEAR_BEST_RATIO from here for FAST_REJECT.
 *
 * regret (ours): (the smallest time among the listed choices) /
 * (the input's best time) >= 1: the slowdown against the oracle when
 * autotuning only the list.  Times in milliseconds (any one unit).
 */
#ifndef MMRANK_RULES_H
#define MMRANK_RULES_H

#define NEAR_BEST_RATIO 0.98
#define DEFAULT_CHOICE "extern_mm"

/* 1 iff time t is near-best against the input's best time best. */
int near_best(double t, double best);

/* Summary of one top-k list. */
typedef struct {
	int n;          /* entries listed, <= k + 1 */
	int has_truth;  /* truth is among them */
	int timed;      /* some entry has a time (not NAN; +inf counts) */
	double best;    /* smallest time among them; +inf if none is finite */
} topk_list;

/* Build the top-k list of one input into list[] (room for k + 1 entries,
 * or NULL when only the summary is wanted) and *out.  Choices are indices
 * into time[] (NAN = not available); rank < 0 is skipped; def < 0 = no
 * default; truth < 0 = none.  k >= 1. */
void topk(topk_list *out, int *list, const int *rank, const double *prob,
          int n_rank, const double *time, int k, int def, int truth);

/* The first entry alone (see above): a choice index, or -1. */
int first_entry(const int *rank, const double *prob, int n_rank,
                const double *time, int def);

/* The pick alone (see above): a choice index, or -1. */
int pick_entry(int pick, const int *rank, const double *prob, int n_rank,
               const double *time, int def);

/* 1 iff f is a valid fast-reject factor: 0 or >= 1 / NEAR_BEST_RATIO. */
int fast_reject_ok(double f);

/* listed_best / best: the regret of a list whose smallest time is
 * listed_best, for an input whose best time is best (> 0). */
double regret(double listed_best, double best);

#endif
