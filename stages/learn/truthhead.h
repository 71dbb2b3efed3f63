/* truthhead.h — each leaf's head and pick set by the in-graph truth, and
 * leaves split where the truth's inputs disagree.
 *
 * The tree's lists are trained on an isolated clock (the Triton back end's
 * or Inductor's autotune benchmark); the in-graph truth (perf/models/
 * truth.py, truth_log.py: every candidate of each GEMM of a compiled model
 * timed inside the model's CUDA-graph replay) is the clock users get.  For
 * each leaf the truth's inputs reach, over those inputs q (times in ms,
 * best_i the input's fastest measured choice, E = extern_mm):
 *   head  the class with the smallest sum over q of ln(t_c / best_i): the
 *         regret of running it alone, ties by k = 1's, sum ln(min(t_c,
 *         t_E) / best_i).  k = 1 autotunes the head beside extern_mm, but
 *         Inductor's autotune clock, which decides that hedge, times ATen
 *         slow at small m, so the head is in practice what runs;
 *   pick  the same rule (the C API's _pick(), the .py's get_pick(), one
 *         kernel per GEMM);
 *   top_k 1 (trees with param topk_eps): autotuning more than the head
 *         lets Inductor's clock override what the graph measured.
 * Candidates are the leaf's listed classes measured on every input of q.
 * The tree's own head (per input: the first listed class measured for it)
 * and pick (the node's pick where measured, else that head) are scored the
 * same way, and are replaced only where a candidate is better by more than
 * 1e-9 per input, so a truth that agrees with the tree changes nothing.
 * A new head moves to the front of the list; the others keep their order,
 * and the list's p become rank weights (len - position) / (len (len + 1) / 2)
 * (summing to 1; the order is all that emit and Inductor use).  A tree without picks (no param
 * leaf_pick), or a node whose pick is -1, runs its list's first entry
 * alone: there the pick follows the head (its figures say so).  Inputs whose every
 * choice failed are skipped, and so are those for which no class their
 * leaf lists was timed.
 *
 * Splits come first: a leaf whose truth inputs want different classes
 * alone (the Inductor clock the k = 1 hedge relies on is biased on ATen at
 * small m, so what runs alone is what counts) is split on the tree feature
 * and threshold (the midpoint between two of the inputs' values) that
 * lower the summed ln regret alone of each side's best listed class most,
 * when that gain is at least 0.05 and 0.01 per input of the node it splits,
 * and each side keeps at least 2 inputs (a midpoint that rounds onto the
 * right value falls back to the left one, as cart.c does);
 * up to max_depth levels below the leaf (0: none), within TREE_MAX_DEPTH.
 * The children copy the leaf's list, pick and top_k, with n_samples and
 * weighted_n 0 (the training rows are not seen here), and each then gets
 * its head and pick as above; a split whose two leaves end up alike (list,
 * pick, top_k) is undone, their change kept once; the tree is renumbered
 * in pre-order.  Each leaf the truth's inputs reached gets the truth mark
 * (tree_node.truth; split nodes lose it), and the tree param truth 1: those
 * leaves' picks were chosen on the model's own clock (mmrank.inductor runs
 * them alone at k = 1, docs/INDUCTOR.md). */
#ifndef MMRANK_TRUTHHEAD_H
#define MMRANK_TRUTHHEAD_H
#include <stdio.h>

#include "formats/featset.h"
#include "formats/tree.h"

typedef struct {
	int inputs;    /* truth inputs routed (every choice failed: skipped) */
	int skipped;
	int unsafe;    /* of them, those reaching a leaf without a list */
	int unlisted;  /* those none of whose leaf's listed classes was timed
	                  (they score nothing, and are left out) */
	int leaves;    /* leaves with a list they reach */
	int heads;     /* heads replaced */
	int picks;     /* picks replaced */
	int splits;    /* leaves split (each adds two nodes) */
	int topks;     /* top_k set to 1 */
	double k1_before, k1_after;       /* k = 1 regret, geomean over the
	                                     inputs of leaves with a list */
	double alone_before, alone_after; /* the pick alone's */
} truth_count;

/* Correct t's leaves (tname: its file, for messages) by fs (the truth,
 * file sname) as above, splitting up to max_depth levels; one line per
 * change on log (NULL: none) naming the leaf (its id in t as read, then
 * the tests of the splits), the classes and the regrets. */
void truth_heads(tree *t, const char *tname, const featset *fs,
                 const char *sname, int max_depth, truth_count *out,
                 FILE *log);

#endif
