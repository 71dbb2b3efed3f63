/* grid.h — the models of fit's grid search (spec §5.4).
 *
 * A model is one CART setting (cart.h).  Built-in grids: "mm" (the mm
 * override: max_depth 5, min_samples_leaf 0.01, entropy), "reference" (the
 * §5.4 base grid: depth 5, 6, 7 x msl 1, 5, 10, 0.01, 0.05, 0.02 x gini,
 * entropy, criterion innermost) and "search" (ours: depth 5-8 x msl 1, 5,
 * 10, 0.005, 0.01, 0.02, 0.05 x gini, entropy, 56 models).  Any other name
 * is a TSV file of lines 'max_depth<TAB>min_samples_leaf<TAB>gini|entropy'
 * ('#' comments, empty lines and a header line starting 'max_depth'
 * allowed): max_depth in 0..TREE_MAX_DEPTH (64), min_samples_leaf a count >= 1 or a
 * fraction in (0, 1).  Errors name file:line and the field.
 */
#ifndef MMRANK_GRID_H
#define MMRANK_GRID_H

typedef struct {
	int max_depth;
	double msl;     /* min_samples_leaf: a count >= 1 or a fraction */
	int crit;       /* CART_GINI / CART_ENTROPY */
} model;

/* 1 if g names a built-in grid (not a file). */
int grid_builtin(const char *g);
/* The models of grid g into *out (malloc'd), their count into *n >= 1. */
void grid_read(const char *g, model **out, int *n);
/* "gini" or "entropy". */
const char *grid_crit_name(int crit);

#endif
