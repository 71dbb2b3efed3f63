/* split.c — fit's hold-out split and folds (spec §5.3); see split.h. */
#include "split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/util.h"

/* --test-fold: move block tfold of tfolds of perm[0..nu) to the front (the
 * rest keeps its order); returns the block's size. */
static int
test_block_first(int *perm, int nu, int tfold, int tfolds)
{
	int lo = (int)(((int64_t)tfold * nu + tfolds - 1) / tfolds),
	    hi = (int)(((int64_t)(tfold + 1) * nu + tfolds - 1) / tfolds), p = 0;
	if (hi == lo)
		die("--test-fold %d/%d: the fold holds no input (%d inputs for %d folds)",
		    tfold, tfolds, nu, tfolds);
	int *rot = xmalloc(((size_t)nu + 1) * sizeof *rot);
	for (int i = lo; i < hi; i++)
		rot[p++] = perm[i];
	for (int i = 0; i < nu; i++)
		if (i < lo || i >= hi)
			rot[p++] = perm[i];
	memcpy(perm, rot, (size_t)nu * sizeof *perm);
	free(rot);
	return hi - lo;
}

/* SPLIT_GROUP row order: inputs in permuted order (pos[] = position of a
 * unit), rows of an input in file order. */
static void
group_order(dset *ds, const int *unit_of, const int *perm, int nu)
{
	int n = ds->n_rows;
	int *pos = xmalloc(((size_t)nu + 1) * sizeof *pos);
	for (int i = 0; i < nu; i++)
		pos[perm[i]] = i;
	int *ord = xmalloc(((size_t)n + 1) * sizeof *ord);
	int *cnt = xcalloc((size_t)nu + 1, sizeof *cnt);
	for (int i = 0; i < n; i++)
		cnt[pos[unit_of[ds->inp[i]]] + 1]++;
	for (int i = 0; i < nu; i++)
		cnt[i + 1] += cnt[i];
	for (int i = 0; i < n; i++)
		ord[cnt[pos[unit_of[ds->inp[i]]]]++] = i;
	dset_reorder(ds, ord);
	free(ord);
	free(cnt);
	free(pos);
}

void
split_sets(dset *ds, const split_params *p)
{
	int n = ds->n_rows;
	ds->set = xmalloc(((size_t)n + 1) * sizeof *ds->set);
	if (p->mode == SPLIT_NONE) {
		for (int i = 0; i < n; i++)
			ds->set[i] = S_TRAIN;
		return;
	}
	int by_group = p->mode == SPLIT_GROUP, nu = 0, *unit_of = NULL;
	if (by_group) {
		unit_of = xmalloc(((size_t)ds->fs.n_inputs + 1) * sizeof *unit_of);
		for (int i = 0; i < ds->fs.n_inputs; i++)
			unit_of[i] = ds->win[i] >= 0 ? nu++ : -1;
	} else {
		nu = n;
	}
	int *perm = xmalloc(((size_t)nu + 1) * sizeof *perm);
	int *uset = xmalloc(((size_t)nu + 1) * sizeof *uset);
	rng r;
	rng_seed(&r, p->seed);
	for (int i = 0; i < nu; i++)
		perm[i] = i;
	rng_shuffle(&r, perm, nu);
	int n_test = p->tfolds > 0 ? test_block_first(perm, nu, p->tfold, p->tfolds)
	                           : (int)ceil(p->test_frac * (double)nu);
	int m = nu - n_test;
	for (int i = 0; i < n_test; i++)
		uset[perm[i]] = S_TEST;
	int *perm2 = xmalloc(((size_t)m + 1) * sizeof *perm2);
	for (int i = 0; i < m; i++)
		perm2[i] = i;
	rng_seed(&r, p->seed);
	rng_shuffle(&r, perm2, m);
	int n_val = (int)ceil(0.19 / (1.0 - p->test_frac) * (double)m);
	for (int i = 0; i < m; i++)
		uset[perm[n_test + perm2[i]]] = i < n_val ? S_VAL : S_TRAIN;
	for (int i = 0; i < n; i++)
		ds->set[i] = uset[by_group ? unit_of[ds->inp[i]] : i];
	if (by_group) {
		group_order(ds, unit_of, perm, nu);
	} else {
		int *ord = xmalloc(((size_t)n + 1) * sizeof *ord), q = 0;
		for (int i = 0; i < m; i++)
			ord[q++] = perm[n_test + perm2[i]];
		for (int i = 0; i < n_test; i++)
			ord[q++] = perm[i];
		dset_reorder(ds, ord);
		free(ord);
	}
	free(perm2);
	free(uset);
	free(perm);
	free(unit_of);
}

int
split_folds(dset *const src[TRAINING_SOURCES], unsigned mask, int folds, uint64_t seed)
{
	int n_cv = 0;
	for (int e = 0; e < TRAINING_SOURCES; e++) {
		dset *x = src[e];
		if (!x)
			continue;
		featset *fs = &x->fs;
		x->fold = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *x->fold);
		int *ids = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *ids);
		int nin = 0;
		for (int i = 0; i < fs->n_inputs; i++)
			x->fold[i] = -1;
		for (int r = 0; r < x->n_rows; r++)
			if (x->row[r] == x->win[x->inp[r]] &&
			    (e > 0 || (mask >> x->set[r] & 1)))
				ids[nin++] = x->inp[r];
		rng fr;
		rng_seed(&fr, seed + 1 + (uint64_t)e);
		rng_shuffle(&fr, ids, nin);
		for (int j = 0; j < nin; j++)
			x->fold[ids[j]] = j % folds;
		n_cv += nin;
		free(ids);
	}
	return n_cv;
}
