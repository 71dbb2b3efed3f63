/* featmap.h — a tree's feature vector for an input of a feat TSV.
 *
 * A tree names its features (tree.feat); a feat TSV holds model columns
 * (featset.feat) and the raw categoricals.  Each tree feature is read from
 * the set's column of that name, else it is a one-hot of a raw categorical
 * (`<categorical>_<value>`: 1 when the input's category is value, else 0;
 * a category the set never saw is always 0).  Used by eval and by prune
 * --truth, the two stages that route a set's inputs through a tree. */
#ifndef MMRANK_FEATMAP_H
#define MMRANK_FEATMAP_H
#include "featset.h"
#include "tree.h"

typedef struct {
	int col;      /* model column of the set, or -1 */
	int cat;      /* else: raw categorical index, or -1 for "always 0" */
	const char *value; /* the category (points into the tree's name) */
} featmap;

/* Map t's features onto fs's columns ([t->n_feat], caller frees).  Dies
 * naming the tree tname, the feature and the set sname when the set has
 * neither a column nor the raw categorical. */
featmap *featmap_new(const tree *t, const featset *fs, const char *tname,
                     const char *sname);
/* Input i of fs in t's feature columns: x[t->n_feat]. */
void featmap_x(const featmap *m, const tree *t, const featset *fs, int i,
               double *x);

#endif
