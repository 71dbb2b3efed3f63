/* training.c — fit's training set; see training.h (spec §5.3 step 4). */
#include "training.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rules.h"
#include "core/util.h"

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether expanded row r of source e trains (fold -1: any fold). */
static int
trains(const training *tr, int e, int r, int fold)
{
	const dset *x = tr->src[e];
	return (e > 0 || (tr->mask >> x->set[r] & 1)) &&
	       (fold < 0 || x->fold[x->inp[r]] != fold);
}

/* The classes: sorted distinct labels of the training rows, into univ;
 * with fill also every choice other than DEFAULT_CHOICE with a finite time
 * on a training input (an input trains when its winner row does). */
static void
classes(training *tr, int fill)
{
	size_t n = 0, cap = 0;
	const char **lab = NULL;
	for (int e = 0; e < TRAINING_SOURCES; e++) {
		const dset *x = tr->src[e];
		for (int r = 0; x && r < x->n_rows; r++) {
			if (!trains(tr, e, r, -1))
				continue;
			xgrow((void **)&lab, &cap, n + 1, sizeof *lab);
			lab[n++] = x->fs.choices[x->fs.choice[x->row[r]]];
			int i = x->inp[r];
			if (!fill || x->row[r] != x->win[i])
				continue;
			for (int j = x->fs.first[i]; j < x->hi[i]; j++) {
				const char *id = x->fs.choices[x->fs.choice[j]];
				if (isfinite(x->fs.ms[j]) && strcmp(id, DEFAULT_CHOICE)) {
					xgrow((void **)&lab, &cap, n + 1, sizeof *lab);
					lab[n++] = id;
				}
			}
		}
	}
	if (n == 0)
		die("%s: no training rows", tr->ds[0].path);
	qsort(lab, n, sizeof *lab, cmp_str);
	int nc = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(lab[i], lab[nc - 1]))
			lab[nc++] = lab[i];
	tr->univ = lab;
	tr->n_class = tr->n_univ = nc;
}

/* The universe after the classes, every set's gch, and def. */
static void
universe(training *tr)
{
	size_t ucap = (size_t)tr->n_class;
	const char **univ = tr->univ;
	for (int d = 0; d < tr->nds; d++) {
		featset *fs = &tr->ds[d].fs;
		int *gch = xmalloc(((size_t)fs->n_choices + 1) * sizeof *gch);
		for (int c = 0; c < fs->n_choices; c++) {
			const char **hit = bsearch(&fs->choices[c], univ, (size_t)tr->n_class,
			                           sizeof *univ, cmp_str);
			int u = hit ? (int)(hit - univ) : -1;
			for (int v = tr->n_class; u < 0 && v < tr->n_univ; v++)
				if (!strcmp(univ[v], fs->choices[c]))
					u = v;
			if (u < 0) {
				xgrow((void **)&univ, &ucap, (size_t)tr->n_univ + 1, sizeof *univ);
				univ[u = tr->n_univ++] = fs->choices[c];
			}
			gch[c] = u;
		}
		tr->ds[d].gch = gch;
	}
	tr->def = -1;
	for (int u = 0; u < tr->n_univ; u++)
		if (!strcmp(univ[u], DEFAULT_CHOICE))
			tr->def = u;
	if (tr->def < 0) { /* never measured: listed, never available */
		xgrow((void **)&univ, &ucap, (size_t)tr->n_univ + 1, sizeof *univ);
		univ[tr->def = tr->n_univ++] = DEFAULT_CHOICE;
	}
	tr->univ = univ;
}

/* ds->ct: median ms per class of every input (NAN: not measured). */
static void
class_times(dset *x, int n_class)
{
	featset *fs = &x->fs;
	size_t n = (size_t)fs->n_inputs * (size_t)n_class;
	x->ct = xmalloc((n + 1) * sizeof *x->ct);
	for (size_t j = 0; j < n; j++)
		x->ct[j] = NAN;
	for (int i = 0; i < fs->n_inputs; i++)
		for (int j = fs->first[i]; j < x->hi[i]; j++) {
			int u = x->gch[fs->choice[j]];
			if (u < n_class)
				x->ct[(size_t)i * n_class + u] = fs->ms[j];
		}
}

const char *const training_extra[TRAINING_SOURCES] = {NULL, "train_timm", "train_hf",
                                                      "train_models"};

void
training_make(training *tr, dset *ds, int nds, unsigned mask, int times,
              int fill)
{
	memset(tr, 0, sizeof *tr);
	tr->ds = ds;
	tr->nds = nds;
	tr->mask = mask;
	tr->src[0] = &ds[0];
	for (int d = 1; d < nds; d++)
		for (int e = 1; e < TRAINING_SOURCES; e++)
			if (!strcmp(ds[d].name, training_extra[e]))
				tr->src[e] = &ds[d];
	/* The official zips hold both; a collection of our own (make collect,
	 * the committed H200 data) has neither, which is no mistake.  One
	 * without the other is. */
	if (!tr->src[1] != !tr->src[2])
		warnf("--data %s given without %s: the reference mm trainer uses both "
		      "(spec §5.3 step 4; the official dataset zips hold both): give "
		      "--data %s PATH too, or neither", tr->src[1] ? "train_timm" :
		      "train_hf", tr->src[1] ? "train_hf" : "train_timm",
		      tr->src[1] ? "train_hf" : "train_timm");
	classes(tr, fill);
	universe(tr);
	tr->nf = ds[0].fs.n_feat;
	for (int e = 0; e < TRAINING_SOURCES; e++) {
		if (!tr->src[e])
			continue;
		tr->n_max += (size_t)tr->src[e]->n_rows * (e ? 3 : 1);
		tr->n_inputs_max += (size_t)tr->src[e]->fs.n_inputs;
		if (times)
			class_times(tr->src[e], tr->n_class);
	}
}

int
training_rows(const training *tr, int fold, double *X, int *Y, double *W)
{
	int nf = tr->nf, p = 0;
	for (int e = 0; e < TRAINING_SOURCES; e++) {
		const dset *x = tr->src[e];
		for (int r = 0; x && r < x->n_rows; r++) {
			if (!trains(tr, e, r, fold))
				continue;
			if (!X) {
				p += e ? 3 : 1;
				continue;
			}
			int y = x->gch[x->fs.choice[x->row[r]]];
			for (int rep = 0; rep < (e ? 3 : 1); rep++) {
				memcpy(X + (size_t)p * nf, x->fs.x + (size_t)x->inp[r] * nf,
				       (size_t)nf * sizeof *X);
				Y[p] = y;
				W[p++] = x->w[r];
			}
		}
	}
	return p;
}

int
training_inputs(const training *tr, int fold, rr_input *rr)
{
	int p = 0;
	for (int e = 0; e < TRAINING_SOURCES; e++) {
		const dset *x = tr->src[e];
		for (int r = 0; x && r < x->n_rows; r++) {
			int i = x->inp[r];
			if (x->row[r] != x->win[i] || !trains(tr, e, r, fold))
				continue;
			const featset *fs = &x->fs;
			int u = x->gch[fs->choice[x->win[i]]];
			if (u >= tr->n_class)
				die("%s: input %d: winner '%s' is not a training class",
				    x->path, i, fs->choices[fs->choice[x->win[i]]]);
			rr[p++] = (rr_input){fs->x + (size_t)i * fs->n_feat,
			                     x->ct + (size_t)i * tr->n_class, u, e ? 3 : 1};
		}
	}
	return p;
}

void
training_free(training *tr)
{
	free(tr->univ);
	memset(tr, 0, sizeof *tr);
}
