/* truthhead.h — each leaf's head and pick set by the in-graph truth.
 *
 * The tree's lists are trained on an isolated clock (the Triton back end's
 * or Inductor's autotune benchmark); the in-graph truth (perf/models/
 * truth.py, truth_log.py: every candidate of each GEMM of a compiled model
 * timed inside the model's CUDA-graph replay) is the clock users get.  For
 * each leaf the truth's inputs reach, over those inputs q (times in ms,
 * best_i the input's fastest measured choice, E = extern_mm):
 *   head  the class with the smallest sum over q of ln(min(t_c, t_E) /
 *         best_i): k = 1's regret, the head autotuned against extern_mm as
 *         Inductor keeps its ATen choices; ties by the regret alone below;
 *   pick  the class with the smallest sum of ln(t_c / best_i): the regret
 *         of running it alone (the C API's _pick(), the .py's get_pick(),
 *         one kernel per GEMM); ties by k = 1's.
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
 * choice failed are skipped. */
#ifndef MMRANK_TRUTHHEAD_H
#define MMRANK_TRUTHHEAD_H
#include <stdio.h>

#include "formats/featset.h"
#include "formats/tree.h"

typedef struct {
	int inputs;    /* truth inputs routed (every choice failed: skipped) */
	int skipped;
	int unsafe;    /* of them, those reaching a leaf without a list */
	int leaves;    /* leaves with a list they reach */
	int heads;     /* heads replaced */
	int picks;     /* picks replaced */
	double k1_before, k1_after;       /* k = 1 regret, geomean over the
	                                     inputs of leaves with a list */
	double alone_before, alone_after; /* the pick alone's */
} truth_count;

/* Correct t's leaves (tname: its file, for messages) by fs (the truth,
 * file sname) as above; one line per change on
 * log (NULL: none) naming the leaf, the classes and the regrets. */
void truth_heads(tree *t, const char *tname, const featset *fs,
                 const char *sname, truth_count *out, FILE *log);

#endif
