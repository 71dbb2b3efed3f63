/* expand.h — fit's data sets and their ranking expansion (spec §5.1 step
 * 5, §5.2, §5.3 step 3).
 *
 * A dset is one feat TSV (stages/FORMATS.md; times in ms): the main set or
 * an extra --data set, evaluated under its name.  dset_expand() turns every
 * input into one expanded row per near-best choice (rules.h near_best:
 * best / t >= 0.98), label = that choice, weight = best / t in [0.98, 1];
 * the winner (smallest median time, ties: first seen) always has a row,
 * weight 1.  An input whose best time is inf vanishes (win = -1; one
 * warning per set).  With nrows >= 0 (fit --nrows, main set only) only the
 * first nrows rows of the file count: an input cut short keeps its first
 * rows, its winner recomputed, and drops out with fewer than 2 (§5.1).
 *
 * Rows stay in file order here; split.h assigns sets and may reorder the
 * main set's rows; training.h maps choices to classes (gch, ct).
 */
#ifndef MMRANK_EXPAND_H
#define MMRANK_EXPAND_H
#include "formats/featset.h"

enum { S_TRAIN, S_VAL, S_TEST }; /* a main row's set (split.h) */

typedef struct {
	const char *name, *path;
	featset fs;
	int *hi;        /* [n_inputs] end of the input's kept rows (--nrows) */
	int *win;       /* [n_inputs] featset row of its winner, -1: vanished */
	int n_rows;     /* expanded rows */
	int *inp;       /* [n_rows] input */
	int *row;       /* [n_rows] featset row of the label choice */
	double *w;      /* [n_rows] weight best / t */
	int *set;       /* [n_rows] S_TRAIN / S_VAL / S_TEST (main set; split.h) */
	int *fold;      /* [n_inputs] cross-validation fold, -1: none (split.h) */
	int *gch;       /* [fs.n_choices] choice -> universe index (training.h) */
	double *ct;     /* [n_inputs * n_class] median ms per class, NAN = not
	                   measured (training.h, for rerank) */
} dset;

/* fit's training sources: the main set, then the extra sets trained on
 * (training.h training_extra: train_timm, train_hf, train_models). */
#define TRAINING_SOURCES 4

/* Read ds->path into ds->fs (other fields zeroed).  An extra set (main not
 * NULL) must have main's metadata (ahmeta.h ah_meta_check: the same device,
 * never overridden) and main's feature columns, in order; dies naming the
 * file and column otherwise ("make it with featurize --categories"). */
void dset_read(dset *ds, const dset *main);
/* The §5.2 expansion of ds (rows of input i limited to the first nrows
 * rows of the file if nrows >= 0). */
void dset_expand(dset *ds, long nrows);
/* Permute the expanded rows: new row i = old row ord[i] (inp, row, w and
 * set; ord is a permutation of [0, n_rows)). */
void dset_reorder(dset *ds, const int *ord);
void dset_free(dset *ds);

#endif
