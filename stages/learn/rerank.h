/* rerank.h — re-order the class list of every tree node for the top-k
 * metrics (spec §5.9
 * top-k list, §6.1 leaf lists, §7.3 how Inductor uses them).
 *
 * The reference ranks a leaf's choices by their weighted frequency among the
 * near-best labels (§5.2 expansion, sklearn's tree_.value).  The top-k hit
 * rate asks something else: is the input's *fastest* choice among the first
 * k listed choices, with extern_mm always appended (§5.9, §7.3 step 5).  So
 * a slot given to extern_mm is wasted, and a choice that is often within
 * 2 % of the best but rarely the best takes a slot that a frequent winner
 * could use.  rerank() re-orders, for every node (internal nodes too: §5.6
 * pruning turns them into leaves), the same set of classes (those with
 * p > 0, so n_labels and the emitted list lengths do not change):
 *
 *   RR_FREQ    unchanged (the reference's order).
 *   RR_GREEDY  greedy coverage of the training inputs that reach the node:
 *              extern_mm (def) is taken as already listed, then each next
 *              class is the one that
 *                1. is the winner of the most (weighted) inputs still
 *                   uncovered (a winner is covered once listed; winners are
 *                   disjoint, so this is the weighted win count),
 *                2. ties (within 1e-9): lowers the inputs' summed log regret
 *                   the most (regret_i = best listed time / best time,
 *                   capped at RR_REGRET_CAP; before any class is listed the
 *                   list holds extern_mm alone),
 *                3. ties: the larger original probability, then the lower
 *                   class index;
 *              def itself goes last.
 *   Padding (pad > 0, fit --leaf-pad) and filling (fill, fit --leaf-fill
 *   all): see rerank() below.
 *   Written probabilities are rank weights, not frequencies: the j-th of m
 *   ranked classes (0-based) gets (m - j) / (m (m + 1) / 2), strictly
 *   decreasing, summing to 1, so tree_ranked(), emit and eval list the
 *   classes in the new order.  A node without training inputs keeps its
 *   order; def is still moved last.
 *
 * Cost: O(inputs · depth) to route inputs, then per node
 * O(m² · inputs_at_node) for the regret tie-break (fit re-ranks only the
 * pruned leaves during the grid search, and every node once at the end);
 * the fill order O(inputs · classes) once per call.
 */
#ifndef MMRANK_RERANK_H
#define MMRANK_RERANK_H
#include "formats/tree.h"

/* RR_PREFIX + i: the order lo_rules[i] of leaforder.h (the
 * first entry by its regret alone, extern_mm competing, the rest for the
 * top-k; extern_mm first or last). */
enum { RR_FREQ = 0, RR_GREEDY = 1, RR_PREFIX = 2 };

/* Every mode's name, in mode order, NULL-terminated (fit --leaf-rank):
 * freq, greedy, then leaforder.h's rules. */
extern const char *const rr_mode_names[];

#define RR_REGRET_CAP 4.0

/* One training input (not one expanded row). */
typedef struct {
	const double *x;    /* [t->n_feat] model features */
	const double *time; /* [t->n_class] median ms per class; NAN = not
	                       measured, +inf = failed */
	int winner;         /* class index of its fastest choice (time finite) */
	double weight;      /* > 0: 1 for main inputs, 3 for train_timm/train_hf/train_models
	                       (their rows are repeated 3x, spec §5.3 step 4) */
} rr_input;

/* Re-order every node of t (only its leaves if leaves_only) in place by
 * mode (RR_FREQ: no-op), with def the always-included class (extern_mm; -1
 * if not a class).  in[0..n) are the training inputs; a node's inputs are
 * those whose features route through it.  n_labels stays as it is.  With
 * pad > 0 each re-ordered node then lists, after its own classes and
 * before def (when def is last: the RR_PREFIX modes may put it first, and
 * it stays there), up to pad classes it does not list: its parent's, then its
 * grandparent's, ... each ancestor's in its original order (p descending,
 * then class), def excluded (fit --leaf-pad; with pad = 0 the class sets
 * stay as they are).  The original lists are read, so the result does
 * not depend on leaves_only.
 * With fill (ours, fit --leaf-fill all) each re-ordered node then lists,
 * after those and before def (when def is last), every other class but
 * def with a finite time on at least one of in[0..n), in one order for
 * all nodes, ascending regret *conditional on availability*: for class c,
 * the mean over the inputs that measured c (time not NAN; +inf, failed,
 * counts as the cap) of ln(time_c / best time), capped at
 * ln RR_REGRET_CAP, weighted by rr_input.weight; ties by the lower class
 * index.  A list then holds every choice the training data has, so an
 * input finds min(k, offered) of its candidates; the entries before the
 * fill are those of fill = 0, in the same order (rank weights over the
 * longer list), and t->leaf_fill is set.  n_labels stays as it is.
 * The RR_PREFIX modes also give every re-ordered node with inputs its
 * pick (leaforder.h lo_pick over its final list; -1 for the others) and
 * set t->leaf_pick; greedy gives its nodes none (-1: the first list
 * entry), freq leaves the tree as it is.
 * Dies on a winner or def out of range or a weight <= 0. */
void rerank(tree *t, const rr_input *in, int n, int mode, int def,
            int leaves_only, int pad, int fill);

#endif
