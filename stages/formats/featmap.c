/* featmap.c — a tree's feature vector for an input of a feat TSV (see
 * featmap.h). */
#include "featmap.h"

#include <string.h>

#include "core/util.h"

featmap *
featmap_new(const tree *t, const featset *fs, const char *tname,
            const char *sname)
{
	featmap *m = xmalloc(((size_t)t->n_feat + 1) * sizeof *m);
	for (int f = 0; f < t->n_feat; f++) {
		m[f].col = featset_feature(fs, t->feat[f]);
		m[f].cat = -1;
		m[f].value = NULL;
		if (m[f].col >= 0)
			continue;
		m[f].cat = ah_meta_onehot(&fs->meta, t->feat[f], &m[f].value);
		if (m[f].cat < 0)
			die("tree '%s' feature '%s': set '%s' has no such column and it "
			    "is not a one-hot of a categorical feature", tname,
			    t->feat[f], sname);
	}
	return m;
}

void
featmap_x(const featmap *m, const tree *t, const featset *fs, int i, double *x)
{
	for (int f = 0; f < t->n_feat; f++) {
		if (m[f].col >= 0)
			x[f] = fs->x[(size_t)i * fs->n_feat + m[f].col];
		else
			x[f] = !strcmp(fs->cat[(size_t)i * fs->meta.n_cat + m[f].cat],
			               m[f].value);
	}
}
