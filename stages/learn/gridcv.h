/* gridcv.h — fit's grid search with cross-validation (spec §5.4, §5.9;
 * --folds: ours): every model fitted (cart.h), pruned and ordered
 * (leaves.h) and evaluated (metrics.h) on the evaluation sets.
 *
 * Evaluation sets (gridcv_sets; §5.3 dataset order): train, val (with
 * --folds: cv), test, then the --data sets in CLI order.  One case per
 * input (ranking mode: its winner row), the input in the set its winner
 * row is in; with --folds, train = every main training input (train and
 * val rows), cv = every input that has a fold (main and extra training
 * sets); with SPLIT_NONE every main input is in train, val and test.
 *
 * Work is cut into passes and jobs.  Pass f < folds trains on the
 * training rows outside fold f and evaluates each model on fold f's cv
 * cases; the final pass (fold -1) trains on all training rows and
 * evaluates every set but cv.  A pass is opened (training matrix,
 * presorted columns, training inputs: gridcv_pass_open), its models
 * fitted (gridcv_pass_fit), then one job per model (gridcv_model: prune
 * and order by the leaf rule, evaluate), then closed into the results
 * (gridcv_pass_close).  A job writes only its own model's trees and
 * accumulators of its pass and reads only what no job writes, so jobs
 * (and the passes, each with its own buffers) may run in any order and on
 * any thread (gridcv_model is a pool_fn); closing the passes
 * in pass order, models in grid order, merges the accumulators
 * (mx_merge) into exactly what gridcv_run's sequence gives, so the output
 * does not depend on the schedule.  The per-model timings are summed in
 * the same order (stderr only).
 */
#ifndef MMRANK_GRIDCV_H
#define MMRANK_GRIDCV_H
#include "cart.h"
#include "curve.h"
#include "grid.h"
#include "leaves.h"
#include "metrics.h"
#include "training.h"

/* One evaluated input of a set. */
typedef struct {
	const dset *ds;
	int i;
} ecase;

typedef struct {
	const char *name;
	ecase *c;
	int n;
} evset;

/* The evaluation sets of tr (see above) into *nsets sets (3 + extras);
 * split_none: the main set was not split (SPLIT_NONE); cv: --folds. */
evset *gridcv_sets(const training *tr, int split_none, int cv, int *nsets);
void gridcv_sets_free(evset *sets, int nsets);

typedef struct {
	const training *tr;
	const model *models;
	int nmodels;
	int folds;           /* 0: select on val */
	const evset *sets;   /* [nsets] gridcv_sets */
	int nsets;
	leaf_rule rule;      /* k, excluded class, leaf order, def, pad, fill */
} gridcv;

typedef struct {
	const gridcv *g;
	int fold;            /* < folds: a CV pass; -1: the final pass */
	double *X, *W;
	int *Y;
	cart_data cd;
	cart_sorted *cs;
	rr_input *rr;        /* the pass's training inputs (leaf order) */
	int nrr;
	evset fe;            /* a CV pass: fold's cases of the cv set */
	tree *full, *pruned; /* [nmodels] fitted trees, leaves_prune'd */
	mx_acc *acc;         /* [nmodels * nsets] */
	cv_acc *cacc;        /* [nmodels * nsets] the curves (curve.h) */
	double *t_fit, *t_eval; /* [nmodels] seconds */
	double t_open, t_grid;  /* seconds: gridcv_pass_open, gridcv_pass_fit */
} gridcv_pass;

/* The results: per (model, set) metrics, the final pass's trees. */
typedef struct {
	mx_acc *acc;         /* [nmodels * nsets], until gridcv_finish */
	metrics *mx;         /* [nmodels * nsets] */
	cv_acc *cacc;        /* [nmodels * nsets] the curves (curve.h), merged
	                        like acc */
	tree *full, *pruned; /* [nmodels] */
	double t_fit, t_eval; /* seconds */
} gridcv_result;

void gridcv_pass_open(gridcv_pass *p, const gridcv *g, int fold);
/* Fit every model of the pass (p->full[m]; ranking_k = k) with
 * cart_fit_grid (cart.h: models that differ only in max_depth grown once,
 * each tree byte for byte its cart_fit), its groups on pl's threads (NULL:
 * the caller's only). */
void gridcv_pass_fit(gridcv_pass *p, pool *pl);
/* Job: prune, order and evaluate model `model` of pass `pass` (a
 * gridcv_pass *); a pool.h pool_fn (thread: unused). */
void gridcv_model(void *pass, int model, int thread);
/* Merge the pass into r (the final pass's trees move there) and free it. */
void gridcv_pass_close(gridcv_pass *p, gridcv_result *r);

void gridcv_result_init(gridcv_result *r, const gridcv *g);
/* Finish the metrics of r (r->mx). */
void gridcv_finish(gridcv_result *r, const gridcv *g);
/* Every pass and job, with a progress report ("fit: grid"), and
 * gridcv_finish, on pl's threads (NULL: the caller's only): as many passes
 * open at once as pl has threads, opened and fitted one per item (a lone
 * pass fits its groups on pl), then one item per (pass, model) job, then
 * the passes closed in pass order; the result does not depend on pl. */
void gridcv_run(const gridcv *g, gridcv_result *r, pool *pl);
/* Order every node of t (the written tree) as the final pass orders its
 * leaves, but by leaf order mode (rerank.h; fit --leaf-rank, which may
 * differ from g->rule.mode, the order the models were scored with: fit
 * --select-rank) and with fill (fit --leaf-fill all: the models are scored
 * unfilled, g->rule.fill = 0, so the selected model and every entry before
 * the fill are those of --leaf-fill none). */
void gridcv_rank_written(const gridcv *g, tree *t, int mode, int fill);
/* fit --topk-eps E ("a top-k sized by confidence"): set every
 * node's top_k in t (the written tree of model `model`, ordered by mode
 * and fill as gridcv_rank_written orders it) and t->topk_eps = eps.  For
 * each fold f < g->folds, the model is refitted without fold f (as in its
 * CV pass), pruned and ordered by (mode, fill) over that pass's training
 * inputs; each of fold f's cv cases is ranked by that tree (which never
 * saw it), and its ln regret of the top-j list + extern_mm (curve.h
 * cv_list_lr; capped, a list without a finite time costs the cap) for j =
 * 1..k is added to every node of t its features pass through.  A node's
 * top_k is the smallest j whose geometric mean regret over its cases is
 * <= 1 + eps, else k (--ranking; also for a node no case reaches).  Needs
 * g->folds >= 2 (dies otherwise).  The fits run on pl (NULL: the caller's
 * thread); the result does not depend on it. */
void gridcv_top_k(const gridcv *g, int model, tree *t, int mode, int fill,
                  double eps, pool *pl);
void gridcv_result_free(gridcv_result *r, const gridcv *g);

#endif
