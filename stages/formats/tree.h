/* tree.h — the decision tree shared by fit, prune, emit and eval
 * (spec §5.5 node semantics; pruning: leaves.h; file format: stages/FORMATS.md,
 * "tree TSV").
 *
 * Node 0 is the root; nodes are numbered in depth-first pre-order (left
 * subtree before right).  An internal node sends x to the left child iff
 * x[feature] <= threshold (doubles, as the generated code compares).  Every
 * node, internal or leaf, carries its class distribution (weighted class
 * fractions of the training rows that reach it, like scikit-learn >= 1.4.1
 * tree_.value) as a sparse list of (class, probability > 0) pairs in
 * ascending class order.
 */
#ifndef MMRANK_TREE_H
#define MMRANK_TREE_H
#include <stdint.h>
#include <stdio.h>

/* The one depth cap (tests on the longest root-to-leaf path) of every tree
 * mmrank reads, fits, prunes, imports or emits: the Python of a deeper tree
 * exceeds Python's 100 indentation levels, and its size grows with the
 * depth, so nothing deeper is accepted anywhere (tree_read, fit's grid,
 * cart, prune, import). */
#define TREE_MAX_DEPTH 64

typedef struct {
	int cls;        /* class index into tree.cls */
	double p;       /* probability (weighted fraction), > 0 */
} tree_prob;

typedef struct {
	int feature;        /* index into tree.feat; -1 for a leaf */
	double threshold;   /* left iff x[feature] <= threshold */
	int left, right;    /* child node indices; -1 for a leaf */
	int64_t n_samples;  /* training rows reaching the node (unweighted) */
	double weighted_n;  /* sum of their sample weights */
	int n_labels;       /* distinct training labels reaching the node (§5.6);
	                       = prob_len, or up to leaf_pad fewer; with
	                       leaf_fill any number <= prob_len */
	int prob_off;       /* this node's pairs: prob[prob_off .. prob_off+prob_len) */
	int prob_len;
	int top_k;          /* fit --topk-eps: the list length this node asks
	                       for as a leaf (>= 1; gridcv.h gridcv_top_k);
	                       0: none (the tree has no param topk_eps) */
	int pick;           /* with tree.leaf_pick: the class to run alone when
	                       this node is a leaf (leaforder.h lo_pick), -1:
	                       the first list entry; unused without */
	int truth;          /* with tree.truth: 1 when prune --truth set this
	                       leaf's head, pick and top_k from in-graph step
	                       times (its inputs reached it), else 0; 0 on
	                       every internal node */
} tree_node;

typedef struct {
	char *meta_json;    /* AutoHeuristic metadata line of the training log */
	int n_feat;
	char **feat;        /* model feature names (numeric, derived, one-hot) */
	int n_class;
	char **cls;         /* class (choice id) names, sorted by strcmp */
	int n_node;
	tree_node *node;
	int n_prob;
	tree_prob *prob;
	/* parameters the tree was made with (written as "param" records) */
	char criterion[16]; /* "entropy" or "gini" */
	int max_depth;
	double min_samples_leaf; /* >= 1: a count; in (0, 1): a fraction */
	int ranking_k;      /* the ranking k the tree is made for (§5.6 pruning k) */
	double confidence_threshold; /* §5.8, 0.0 for mm */
	int leaf_pad;       /* fit --leaf-pad: each node lists up to this many
	                       classes beyond its n_labels own ones (0: none;
	                       written as param leaf_pad only when > 0) */
	int leaf_fill;      /* fit --leaf-fill all: each node may list any
	                       number of classes beyond its own (1; 0: none;
	                       written as param leaf_fill 1 only when on) */
	double topk_eps;    /* fit --topk-eps: > 0 when every node carries its
	                       top_k (written as param topk_eps and an 11th
	                       node field only then; 0: no per-node k) */
	int leaf_pick;      /* 1: every node carries its pick (fit's
	                       leaf-list rules, leaforder.h; written as param
	                       leaf_pick 1 and the last node field only then);
	                       0: the pick is the first list entry (older
	                       trees, freq and greedy lists, import's) */
	int truth;          /* 1: prune --truth set the heads, picks and top_k
	                       of some leaves from in-graph step times, and
	                       every node carries its truth mark (written as
	                       param truth 1 and the last node field only
	                       then; at least one leaf is marked); 0: none */
	long line_feat;     /* tree_read: the file line of feature 0 and of */
	long line_node;     /* node 0 (records of a kind are consecutive lines:
	                       feature f is on line_feat + f); 0 otherwise */
} tree;

/* Read and validate a tree TSV: record kinds, indices in range, every
 * non-root node with exactly one parent that precedes it (no dangling child,
 * no cycle), leaves with both children -1, probabilities in (0, 1], depth
 * at most TREE_MAX_DEPTH (the first node deeper is named), every class name
 * emittable (formats/emittable.h: as the log reader checks choice ids).
 * Dies with "path:line: ..." on any error. */
void tree_read(tree *t, const char *path);
/* Write t as a tree TSV (numbers with %.17g: the round trip is exact). */
void tree_write(const tree *t, FILE *fp);
void tree_free(tree *t);

/* Index of the leaf reached by feature vector x[t->n_feat]. */
int tree_apply(const tree *t, const double *x);

/* Depth (root = 0 tests... the number of tests on the longest path) and
 * number of leaves. */
int tree_depth(const tree *t);
int tree_leaves(const tree *t);

/* Ranked choices of a leaf, spec §6.1: its (class, p) pairs sorted by
 * probability descending, ties by ascending class index.  Writes at most
 * max pairs into out and returns how many. */
int tree_ranked(const tree *t, int leaf, tree_prob *out, int max);

/* The class to run alone at a leaf (the C API's <name>_pick()): the
 * node's pick when t->leaf_pick and it has one, else the first ranked
 * class (tree_ranked), -1 for a leaf without probabilities. */
int tree_pick(const tree *t, int leaf);

/* The leaves with the truth mark 1 (0 without param truth). */
int tree_truth_leaves(const tree *t);

#endif
