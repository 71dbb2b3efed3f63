/* cart.h — weighted CART classifier (spec §5.4, scikit-learn's
 * DecisionTreeClassifier with splitter="best", re-implemented).
 *
 * Semantics (what matches scikit-learn >= 1.4.1 and what does not):
 * - Criterion "entropy" or "gini" on *weighted* class counts; a split
 *   minimises the weighted sum of the children's impurities
 *   (W_L·H(L) + W_R·H(R)), i.e. maximises the impurity decrease.
 * - Candidate thresholds lie between consecutive *distinct* values of a
 *   feature among the node's rows: t = a/2 + b/2 (double), and t = a if that
 *   rounds to b or overflows — scikit-learn's rule.  A row goes left iff
 *   x <= t.  Difference: scikit-learn casts features to float32 before
 *   fitting (and treats values within 1e-7 as equal); we split on the float64
 *   values, so thresholds can differ from sklearn's in the last digits, and
 *   values that collide in float32 may be separated here.
 * - min_samples_leaf: a count (>= 1), or a fraction f in (0, 1) meaning
 *   ceil(f · n_rows) rows (unweighted, as sklearn).  Both children of every
 *   split hold at least that many rows.
 * - A node is split iff its impurity is > 0 (more than one label), it holds
 *   n >= 2·min_samples_leaf rows and its depth < max_depth; it then takes the
 *   best valid split even when the improvement is zero (sklearn semantics).
 *   A node without any valid split stays a leaf.
 * - Tie-break (deterministic; sklearn instead visits features in a seeded
 *   random order): features in column order, thresholds ascending; a
 *   candidate replaces the best so far only if its child impurity is smaller
 *   by more than 1e-12 relative, so splits that are equal up to rounding go
 *   to the lowest feature index, then the lowest threshold.
 * - Node numbering: depth-first pre-order (left subtree first), like
 *   sklearn's depth-first builder; node 0 is the root.
 * - Every node stores its weighted class fractions (sklearn >= 1.4.1
 *   tree_.value), n_samples (rows), weighted_n (sum of weights) and
 *   n_labels (distinct labels among its rows, unweighted; used by §5.6
 *   pruning).
 *
 * Speed: each feature is sorted once (LSD radix sort on the IEEE bits,
 * 8-bit digits, those equal in every key skipped; stable, so equal values
 * keep row order); every node keeps per-feature sorted row lists that are
 * stably partitioned on a split (a feature constant in the node is not:
 * no search below reads it).  A split search
 * scans each feature's list once, updating class sums in O(1) per row, and
 * evaluates the impurity only where the value changes and both sides are
 * large enough (entropy through running sums of c·log c, refreshed only for
 * the classes touched since the last evaluation; gini through Σ c²).
 * Cost: O(n_feat · n_rows) per tree level.
 */
#ifndef MMRANK_CART_H
#define MMRANK_CART_H
#include "core/pool.h"
#include "formats/tree.h"

enum { CART_GINI = 0, CART_ENTROPY = 1 };

/* Training data.  Not copied: must outlive the cart_sorted/cart_fit calls. */
typedef struct {
	int n_rows;         /* >= 1 */
	int n_feat;         /* >= 1 */
	int n_class;        /* labels are 0 .. n_class-1 */
	const double *x;    /* [n_rows * n_feat] row-major features, finite (no NaN) */
	const int *y;       /* [n_rows] class labels */
	const double *w;    /* [n_rows] sample weights > 0, or NULL for all 1 */
} cart_data;

typedef struct {
	int criterion;            /* CART_GINI or CART_ENTROPY */
	int max_depth;            /* >= 0 (0: the root is the only node) */
	double min_samples_leaf;  /* >= 1 integer count, or fraction in (0, 1) */
} cart_params;

/* Presorted feature columns, reusable across fits of one data set (a grid
 * search sorts once).  Opaque. */
typedef struct cart_sorted cart_sorted;

/* Sort every feature of d once: O(n_feat · n_rows).  Dies on NaN features,
 * labels out of range or weights <= 0 / non-finite (naming row and feature). */
cart_sorted *cart_presort(const cart_data *d);
void cart_sorted_free(cart_sorted *s);

/* Resolve min_samples_leaf to a row count for n_rows rows: a count as is, a
 * fraction f as ceil(f · n_rows) (computed in double, as sklearn does). */
int cart_min_leaf(double min_samples_leaf, int n_rows);

/* Fit a tree on d (s = cart_presort(d), or NULL to sort here) with
 * parameters p.  Fills t->node, t->prob (and counts), t->criterion,
 * t->max_depth, t->min_samples_leaf; sets ranking_k = 0 and
 * confidence_threshold = 0; sets t->n_class = d->n_class and
 * t->n_feat = d->n_feat but leaves the name arrays (meta_json, feat, cls)
 * for the caller, which must fill them before tree_write.  t must be zeroed
 * (or freshly freed) on entry.  Dies on invalid parameters. */
void cart_fit(tree *t, const cart_data *d, const cart_sorted *s,
              const cart_params *p);

/* Fit the n models p[0..n) on d into t[0..n) (each zeroed on entry), byte
 * for byte the trees of n cart_fit(&t[m], d, s, &p[m]) calls, sharing the
 * work: models that differ only in max_depth (same criterion, same
 * min_samples_leaf row count) are grown once, to the deepest of them, and
 * the others are cut from that tree (whether and how a node is split never
 * depends on max_depth, except that a node at max_depth is not split).
 * The groups run on pl's threads (NULL: the caller's only), larger trees
 * first; the result does not depend on the thread count.  s =
 * cart_presort(d) (required).  Dies on invalid parameters before any fit. */
void cart_fit_grid(tree *t, const cart_data *d, const cart_sorted *s,
                   const cart_params *p, int n, pool *pl);

#endif
