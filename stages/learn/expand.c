/* expand.c — fit's data sets and the §5.2 ranking expansion; see expand.h. */
#include "expand.h"
#include "formats/ahmeta.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rules.h"
#include "core/util.h"

void
dset_read(dset *ds, const dset *main)
{
	const char *name = ds->name, *path = ds->path;
	memset(ds, 0, sizeof *ds);
	ds->name = name;
	ds->path = path;
	featset_read(&ds->fs, path);
	if (!main)
		return;
	const featset *a = &main->fs, *b = &ds->fs;
	char main_set[4200];
	snprintf(main_set, sizeof main_set, "the main set %s", main->path);
	ah_meta_check(&a->meta, main_set, &b->meta, path, 0, NULL);
	if (a->n_feat != b->n_feat)
		die("%s: %d feature column%s, the main set '%s' has %d (make "
		    "it with featurize --categories)", path, b->n_feat, plural_s(b->n_feat),
		    main->path, a->n_feat);
	for (int f = 0; f < a->n_feat; f++)
		if (strcmp(a->feat[f], b->feat[f]))
			die("%s: feature column %d is '%s', the main set has "
			    "'%s' (make it with featurize --categories)",
			    path, f, b->feat[f], a->feat[f]);
}

/* The winner row of rows [lo, hi) (ties: first seen), its time in *best. */
static int
winner(const featset *fs, int lo, int hi, double *best)
{
	int wr = -1;
	*best = INFINITY;
	for (int j = lo; j < hi; j++)
		if (wr < 0 || fs->ms[j] < *best) {
			*best = fs->ms[j];
			wr = j;
		}
	return wr;
}

void
dset_expand(dset *ds, long nrows)
{
	featset *fs = &ds->fs;
	size_t c0 = 0, c1 = 0, c2 = 0;
	int vanished = 0;
	ds->hi = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ds->hi);
	ds->win = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ds->win);
	ds->n_rows = 0;
	for (int i = 0; i < fs->n_inputs; i++) {
		int lo = fs->first[i], hi = fs->first[i + 1];
		if (nrows >= 0 && hi > nrows)
			hi = nrows > lo ? (int)nrows : lo;
		ds->hi[i] = hi;
		ds->win[i] = -1;
		if (hi - lo < 2) /* §5.1 step 5 (only after --nrows) */
			continue;
		double best;
		int wr = winner(fs, lo, hi, &best);
		if (!isfinite(best)) {
			vanished++;
			continue;
		}
		ds->win[i] = wr;
		for (int j = lo; j < hi; j++) {
			if (!near_best(fs->ms[j], best))
				continue;
			size_t k = (size_t)ds->n_rows++;
			xgrow((void **)&ds->inp, &c0, k + 1, sizeof *ds->inp);
			xgrow((void **)&ds->row, &c1, k + 1, sizeof *ds->row);
			xgrow((void **)&ds->w, &c2, k + 1, sizeof *ds->w);
			ds->inp[k] = i;
			ds->row[k] = j;
			ds->w[k] = best / fs->ms[j];
		}
	}
	if (vanished)
		warnf("%s: %d input(s) whose best time is inf dropped (§5.2)",
		      ds->path, vanished);
}

void
dset_reorder(dset *ds, const int *ord)
{
	int n = ds->n_rows;
	int *inp = xmalloc(((size_t)n + 1) * sizeof *inp);
	int *row = xmalloc(((size_t)n + 1) * sizeof *row);
	double *w = xmalloc(((size_t)n + 1) * sizeof *w);
	int *st = xmalloc(((size_t)n + 1) * sizeof *st);
	for (int i = 0; i < n; i++) {
		inp[i] = ds->inp[ord[i]];
		row[i] = ds->row[ord[i]];
		w[i] = ds->w[ord[i]];
		st[i] = ds->set[ord[i]];
	}
	free(ds->inp);
	free(ds->row);
	free(ds->w);
	free(ds->set);
	ds->inp = inp;
	ds->row = row;
	ds->w = w;
	ds->set = st;
}

void
dset_free(dset *ds)
{
	void *arrays[] = {ds->hi, ds->win, ds->inp, ds->row, ds->w, ds->set,
	                  ds->fold, ds->gch, ds->ct};
	featset_free(&ds->fs);
	for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
		free(arrays[i]);
}
