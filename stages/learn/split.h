/* split.h — fit's hold-out split and cross-validation folds (spec §5.3).
 *
 * split_sets(): the main set's expanded rows (expand.h) get ds->set[] =
 * S_TRAIN, S_VAL or S_TEST.  Units are expanded rows (SPLIT_ROWS, the
 * reference's train_test_split twice, rows of one input may land in
 * different sets) or inputs that did not vanish (SPLIT_GROUP, all rows of
 * an input in one set).  One seeded shuffle (rng.h) of the units: the
 * first n_test = ceil(test_frac n) are test; the remaining m, in permuted
 * order, are shuffled again by a fresh generator of the same seed (like
 * random_state=42 twice) and the first ceil(0.19 / (1 - test_frac) m) are
 * val (the reference's 19 % of the whole), the rest train.  With tfolds
 * > 0 (fit --test-fold F/K, SPLIT_GROUP only) test is block tfold of
 * tfolds of the first permutation, positions [ceil(F n/K), ceil((F+1)
 * n/K)) (an empty block dies), and test_frac must be 1/K: the K folds'
 * test sets are disjoint and cover every input.  The rows are then
 * reordered: SPLIT_ROWS into the permuted order (train+val in their
 * second permutation's order, then test), SPLIT_GROUP by input in the
 * first permutation's order, an input's rows in file order; this order is
 * the training matrix's row order.  SPLIT_NONE: every row train, no
 * reordering (evaluation then uses all inputs for every set).
 *
 * split_folds() (fit --folds K): every training input (a main input whose
 * winner row's set is in mask, every input of the extra training sets)
 * gets ds->fold[i] in [0, K), -1 for the others: per set, the inputs in
 * expanded-row order, shuffled with seed + 1 + s (s = 0 main, 1 and 2 the
 * extras in order), fold = position mod K.  Returns how many inputs got a
 * fold.
 */
#ifndef MMRANK_SPLIT_H
#define MMRANK_SPLIT_H
#include <stdint.h>

#include "expand.h"

enum { SPLIT_ROWS, SPLIT_GROUP, SPLIT_NONE };

typedef struct {
	int mode;          /* SPLIT_ROWS / SPLIT_GROUP / SPLIT_NONE */
	uint64_t seed;
	double test_frac;  /* in (0, 0.5]; the reference's 0.01 */
	int tfold, tfolds; /* --test-fold F/K, tfolds = 0: off */
} split_params;

void split_sets(dset *ds, const split_params *p);
/* src[0] is the main set, src[1..] the extra training sets or NULL. */
int split_folds(dset *const src[TRAINING_SOURCES], unsigned mask, int folds, uint64_t seed);

#endif
