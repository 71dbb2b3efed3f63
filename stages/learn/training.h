/* training.h — fit's training set over its data sets (spec §5.3 step 4,
 * §5.4 classes): which expanded rows train, the class list, the training
 * matrix and the training inputs for rerank.h.
 *
 * Training sources: the main set's rows whose set (split.h) is in mask
 * (S_TRAIN; with --folds also S_VAL, which cross-validation cuts into
 * folds), then every row of the extra sets named train_timm and train_hf
 * (in that order) three times each (the reference repeats them 3x), and,
 * ours, of a set named train_models the same way (a collection's real-model
 * shape list, datasets/MANIFEST.h200.tsv: weighted as the reference weights
 * its HF model shapes).  The
 * classes are the distinct labels of those rows sorted by strcmp (the
 * reference's classes_); ours, with fill (fit --leaf-fill all): also
 * every choice with a finite median time on at least one training input
 * (an input trains when its winner row does, as in training_inputs;
 * choices never near-best too, for rerank's fill order), except
 * DEFAULT_CHOICE, which stays a class only as a label (the lists hold it
 * as before; Inductor appends it anyway).  Extra classes have no training
 * row: the fitted trees are the same (cart.h sums class terms in class
 * order; a class without rows adds an exact 0); the label classes keep
 * their order, their indices shift.  The
 * universe: the classes, then every other
 * choice id of any set, in set order, then DEFAULT_CHOICE (rules.h) if no
 * set measured it; ds[].gch maps each set's choices onto it, so a class's
 * universe index is its class index.
 */
#ifndef MMRANK_TRAINING_H
#define MMRANK_TRAINING_H
#include <stddef.h>

#include "expand.h"
#include "rerank.h"

/* The names of the training sources after main (expand.h TRAINING_SOURCES). */
extern const char *const training_extra[TRAINING_SOURCES];

typedef struct {
	dset *ds;               /* [nds] main first, then --data sets */
	int nds;
	dset *src[TRAINING_SOURCES];           /* main, then training_extra[1..] (NULL: absent) */
	unsigned mask;          /* main rows whose set is in mask train */
	const char **univ;      /* [n_univ] classes then other choice ids */
	int n_class, n_univ;
	int def;                /* universe index of DEFAULT_CHOICE */
	int nf;                 /* feature columns */
	size_t n_max;           /* rows of a training matrix, at most */
	size_t n_inputs_max;    /* training inputs, at most */
} training;

/* Build tr over ds[0..nds) (expanded and split): sources, classes (with
 * fill also the choices above), universe, ds[].gch; with times also
 * ds[].ct for the sources (median ms
 * per class, for rerank).  Warns if only one of train_timm and train_hf is
 * given (the reference mm trainer uses both; a collection of our own has
 * neither); dies if there is no training row. */
void training_make(training *tr, dset *ds, int nds, unsigned mask, int times,
                   int fill);
/* The training matrix without the inputs of fold `fold` (-1: all): X
 * [n * nf] features, Y class index, W weight, in source order (rows of the
 * extras repeated 3x consecutively); returns n (<= n_max).  X, Y and W
 * NULL: only count. */
int training_rows(const training *tr, int fold, double *X, int *Y, double *W);
/* The training *inputs* of training_rows(tr, fold): one rr_input per
 * input (its winner row), weight 1 for the main set and 3 for the extras;
 * needs training_make(..., times = 1).  Returns how many (<= n_inputs_max);
 * dies if a winner is not a class. */
int training_inputs(const training *tr, int fold, rr_input *rr);
void training_free(training *tr);

#endif
