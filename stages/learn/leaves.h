/* leaves.h — the one place that prunes: from a fitted tree to the leaf
 * lists emit writes (spec §5.6 ranking pruning, then the leaf order of
 * rerank.h; §6.1 leaf lists, §7.3 how Inductor uses them).
 *
 * Pruning and ordering are one rule, leaf_rule, applied in one order by
 * leaves_prune(): prune (§5.6: from the root, an internal node whose left
 * or right child has fewer than k distinct training labels, n_labels, less
 * excl if it is among them, becomes a leaf keeping its own list; the
 * reference resets a pruned leaf's n_samples, we keep it, spec §8 item 5),
 * then order each surviving leaf over the training inputs that reach it
 * (rerank.h: mode, def last, pad, fill).  Every caller goes through it:
 *   fit    every (model, fold) job of the grid/CV (gridcv.h) evaluates
 *          leaves_prune(fitted tree, rule, the job's training inputs);
 *   prune  the stage is leaves_prune(tree.tsv, {k, excl, RR_FREQ}): the
 *          lists in tree.tsv are already ordered, RR_FREQ keeps them.
 * What joins the two is leaves_rank_all(): fit writes the selected model's
 * *unpruned* tree (tree.tsv; Make runs fit -> prune -> emit, and users
 * prune one tree with several k) with every node ordered as leaves_prune
 * orders a leaf, since pruning may turn any internal node into a leaf.
 * Pruning keeps lists and a node's inputs are the same in both trees (the
 * path above it survives), so prune(rank_all(t)) has the leaves of
 * leaves_prune(t), list for list: the prune stage re-derives the tree fit
 * evaluated and selected (its internal nodes, which only DOT shows, are
 * ordered too; fit --save-dot shows them as fitted).  check/t2120-leaves.sh
 * compares the two trees' leaves and metrics.  Ordering all nodes costs ~13x a
 * grid search's ordering of the pruned leaves (fit ours, H100: 95 s
 * against 7 s), so fit does it once, for the written tree.  A padded
 * tree's lists are longer than its n_labels; the tree format's param
 * leaf_pad (tree.h) records by how much, so that tree_read can still check
 * every list against its labels; a filled tree's (fit --leaf-fill) may
 * hold every class, param leaf_fill says so.
 *
 * The orders of leaforder.h (leaves right at every list length)
 * are rerank.h's RR_PREFIX modes: they see, per node, the inputs that
 * reach it with every class's time (rr_input.time).
 */
#ifndef MMRANK_LEAVES_H
#define MMRANK_LEAVES_H
#include "rerank.h"
#include "formats/tree.h"

typedef struct {
	int k;      /* §5.6 pruning k = --ranking, >= 1 */
	int excl;   /* class not counted among a child's labels (fit/prune
	               --prune-exclude-extern: extern_mm), -1: none */
	int mode;   /* leaf order, rerank.h: RR_FREQ (keep), RR_GREEDY or
	               RR_PREFIX + i (leaforder.h) */
	int def;    /* the always-included class (extern_mm), -1: none */
	int pad;    /* fit --leaf-pad: ancestors' classes appended, 0: off */
	int fill;   /* fit --leaf-fill all: every other measured class
	               appended (rerank.h), 0: off */
} leaf_rule;

/* *out = t pruned by r (k, excl), every leaf ordered by r over the
 * training inputs in[0..n) (mode, def, pad, fill; nothing with RR_FREQ);
 * out->ranking_k = k.  t is unchanged.  Dies if excl is out of range, or
 * when ordering, if def or an input is invalid (rerank). */
void leaves_prune(tree *out, const tree *t, const leaf_rule *r,
                  const rr_input *in, int n);
/* Order every node of t in place as leaves_prune orders a leaf (the
 * written tree). */
void leaves_rank_all(tree *t, const leaf_rule *r, const rr_input *in, int n);

#endif
