/* gridcv.c — fit's grid search with cross-validation; see gridcv.h
 * (spec §5.4, §5.9). */
#include "gridcv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/progress.h"
#include "core/util.h"

/* ---- evaluation sets ------------------------------------------------- */

static void
add(evset *e, const dset *ds, int i)
{
	e->c[e->n++] = (ecase){ds, i};
}

evset *
gridcv_sets(const training *tr, int split_none, int cv, int *nsets)
{
	const dset *ds = tr->ds, *m = &ds[0];
	int ns = 3 + (tr->nds - 1);
	evset *sets = xcalloc((size_t)ns, sizeof *sets);
	sets[S_TRAIN].name = "train";
	sets[S_VAL].name = cv ? "cv" : "val";
	sets[S_TEST].name = "test";
	for (int s = 0; s < 3; s++)
		sets[s].c = xmalloc(((size_t)m->fs.n_inputs + 1) * sizeof(ecase));
	for (int r = 0; r < m->n_rows; r++) {
		int i = m->inp[r], s = split_none ? -1 : m->set[r];
		if (m->row[r] != m->win[i])
			continue; /* ranking mode: winner == actual_winner rows */
		if (s < 0) {
			for (s = 0; s < 3; s++)
				add(&sets[s], m, i);
		} else if (cv && s != S_TEST) {
			add(&sets[S_TRAIN], m, i);
			add(&sets[S_VAL], m, i);
		} else {
			add(&sets[s], m, i);
		}
	}
	for (int d = 1; d < tr->nds; d++) {
		evset *e = &sets[2 + d];
		e->name = ds[d].name;
		e->c = xmalloc(((size_t)ds[d].fs.n_inputs + 1) * sizeof(ecase));
		if (ds[d].fold)
			sets[S_VAL].c = xrealloc(sets[S_VAL].c, ((size_t)sets[S_VAL].n +
			                         ds[d].fs.n_inputs + 1) * sizeof(ecase));
		for (int i = 0; i < ds[d].fs.n_inputs; i++) {
			if (ds[d].win[i] < 0)
				continue;
			add(e, &ds[d], i);
			if (ds[d].fold && ds[d].fold[i] >= 0)
				add(&sets[S_VAL], &ds[d], i);
		}
	}
	*nsets = ns;
	return sets;
}

void
gridcv_sets_free(evset *sets, int nsets)
{
	for (int s = 0; s < nsets; s++)
		free(sets[s].c);
	free(sets);
}

/* Evaluate tree t (pruned) on set e into acc (§5.9) and cacc (curve.h):
 * every input's times in the universe (NAN: not measured), its truth, t's
 * ranked list of the leaf it reaches. */
static void
evaluate(const tree *t, const evset *e, int n_univ, mx_acc *acc, cv_acc *cacc)
{
	double *time = xmalloc((size_t)n_univ * sizeof *time);
	for (int u = 0; u < n_univ; u++)
		time[u] = NAN;
	/* ranked list of every leaf, computed once */
	int *roff = xcalloc((size_t)t->n_node + 1, sizeof *roff);
	int *rank = xmalloc(((size_t)t->n_prob + 1) * sizeof *rank);
	double *prob = xmalloc(((size_t)t->n_prob + 1) * sizeof *prob);
	tree_prob *tmp = xmalloc(((size_t)t->n_class + 1) * sizeof *tmp);
	int off = 0;
	for (int i = 0; i < t->n_node; i++) {
		roff[i] = off;
		if (t->node[i].feature >= 0)
			continue;
		int nr = tree_ranked(t, i, tmp, t->n_class);
		for (int j = 0; j < nr; j++) {
			rank[off + j] = tmp[j].cls; /* class index == universe index */
			prob[off + j] = tmp[j].p;
		}
		off += nr;
	}
	roff[t->n_node] = off;
	for (int c = 0; c < e->n; c++) {
		const dset *ds = e->c[c].ds;
		const featset *fs = &ds->fs;
		int i = e->c[c].i;
		for (int j = fs->first[i]; j < ds->hi[i]; j++)
			time[ds->gch[fs->choice[j]]] = fs->ms[j];
		int leaf = tree_apply(t, fs->x + (size_t)i * fs->n_feat);
		mx_case mc = {time, ds->gch[fs->choice[ds->win[i]]], rank + roff[leaf],
		              prob + roff[leaf], t->node[leaf].prob_len, 0};
		mx_add(acc, &mc, NULL);
		cv_add(cacc, time, mc.truth, mc.rank, mc.prob, mc.n_rank,
		       t->node[leaf].top_k, tree_pick(t, leaf));
		for (int j = fs->first[i]; j < ds->hi[i]; j++)
			time[ds->gch[fs->choice[j]]] = NAN;
	}
	free(tmp);
	free(prob);
	free(rank);
	free(roff);
	free(time);
}

/* ---- passes and jobs ------------------------------------------------- */

void
gridcv_pass_open(gridcv_pass *p, const gridcv *g, int fold)
{
	const training *tr = g->tr;
	double t0 = mono_s();
	memset(p, 0, sizeof *p);
	p->g = g;
	p->fold = fold;
	p->X = xmalloc((tr->n_max + 1) * (size_t)tr->nf * sizeof *p->X);
	p->Y = xmalloc((tr->n_max + 1) * sizeof *p->Y);
	p->W = xmalloc((tr->n_max + 1) * sizeof *p->W);
	int n = training_rows(tr, fold, p->X, p->Y, p->W);
	p->cd = (cart_data){n, tr->nf, tr->n_class, p->X, p->Y, p->W};
	p->cs = cart_presort(&p->cd);
	if (g->rule.mode != RR_FREQ) {
		p->rr = xmalloc((tr->n_inputs_max + 1) * sizeof *p->rr);
		p->nrr = training_inputs(tr, fold, p->rr);
	}
	if (fold >= 0) {
		const evset *cv = &g->sets[S_VAL];
		p->fe = (evset){"cv", xmalloc(((size_t)cv->n + 1) * sizeof(ecase)), 0};
		for (int c = 0; c < cv->n; c++)
			if (cv->c[c].ds->fold[cv->c[c].i] == fold)
				p->fe.c[p->fe.n++] = cv->c[c];
	}
	size_t na = (size_t)g->nmodels * (size_t)g->nsets;
	p->full = xcalloc((size_t)g->nmodels, sizeof *p->full);
	p->pruned = xcalloc((size_t)g->nmodels, sizeof *p->pruned);
	p->acc = xmalloc((na + 1) * sizeof *p->acc);
	p->cacc = xmalloc((na + 1) * sizeof *p->cacc);
	for (size_t i = 0; i < na; i++) {
		mx_init(&p->acc[i], g->rule.k, tr->def, 0.0);
		cv_init(&p->cacc[i], tr->def);
	}
	p->t_fit = xcalloc((size_t)g->nmodels, sizeof *p->t_fit);
	p->t_eval = xcalloc((size_t)g->nmodels, sizeof *p->t_eval);
	p->t_open = mono_s() - t0;
}

static void
fit_one(gridcv_pass *p, int mi)
{
	const model *m = &p->g->models[mi];
	cart_params cp = {m->crit, m->max_depth, m->msl};
	double t0 = mono_s();
	cart_fit(&p->full[mi], &p->cd, p->cs, &cp);
	p->full[mi].ranking_k = p->g->rule.k;
	p->t_fit[mi] += mono_s() - t0;
}

void
gridcv_pass_fit(gridcv_pass *p, pool *pl)
{
	const gridcv *g = p->g;
	double t0 = mono_s();
	cart_params *cp = xmalloc(((size_t)g->nmodels + 1) * sizeof *cp);
	for (int mi = 0; mi < g->nmodels; mi++) {
		const model *m = &g->models[mi];
		cp[mi] = (cart_params){m->crit, m->max_depth, m->msl};
	}
	cart_fit_grid(p->full, &p->cd, p->cs, cp, g->nmodels, pl);
	for (int mi = 0; mi < g->nmodels; mi++)
		p->full[mi].ranking_k = g->rule.k;
	free(cp);
	p->t_grid += mono_s() - t0;
}

void
gridcv_model(void *pass, int mi, int thread)
{
	gridcv_pass *p = pass;
	const gridcv *g = p->g;
	(void)thread;
	if (p->full[mi].n_node == 0) /* not fitted by gridcv_pass_fit */
		fit_one(p, mi);
	double t0 = mono_s();
	leaves_prune(&p->pruned[mi], &p->full[mi], &g->rule, p->rr, p->nrr);
	double t1 = mono_s();
	mx_acc *acc = p->acc + (size_t)mi * (size_t)g->nsets;
	cv_acc *cacc = p->cacc + (size_t)mi * (size_t)g->nsets;
	int n_univ = g->tr->n_univ;
	if (p->fold >= 0) {
		evaluate(&p->pruned[mi], &p->fe, n_univ, &acc[S_VAL], &cacc[S_VAL]);
		tree_free(&p->full[mi]);
		tree_free(&p->pruned[mi]);
	} else {
		for (int s = 0; s < g->nsets; s++)
			if (!(g->folds && s == S_VAL))
				evaluate(&p->pruned[mi], &g->sets[s], n_univ, &acc[s],
				         &cacc[s]);
	}
	p->t_fit[mi] += t1 - t0;
	p->t_eval[mi] += mono_s() - t1;
}

void
gridcv_pass_close(gridcv_pass *p, gridcv_result *r)
{
	const gridcv *g = p->g;
	r->t_fit += p->t_open + p->t_grid;
	for (int mi = 0; mi < g->nmodels; mi++) {
		for (int s = 0; s < g->nsets; s++) {
			size_t i = (size_t)mi * (size_t)g->nsets + (size_t)s;
			mx_merge(&r->acc[i], &p->acc[i]);
			cv_merge(&r->cacc[i], &p->cacc[i]);
		}
		r->t_fit += p->t_fit[mi];
		r->t_eval += p->t_eval[mi];
		if (p->fold < 0) {
			r->full[mi] = p->full[mi];
			r->pruned[mi] = p->pruned[mi];
		} else {
			tree_free(&p->full[mi]);
			tree_free(&p->pruned[mi]);
		}
	}
	cart_sorted_free(p->cs);
	free(p->X);
	free(p->Y);
	free(p->W);
	free(p->rr);
	free(p->fe.c);
	free(p->full);
	free(p->pruned);
	free(p->acc);
	free(p->cacc);
	free(p->t_fit);
	free(p->t_eval);
	memset(p, 0, sizeof *p);
}

/* ---- results --------------------------------------------------------- */

void
gridcv_result_init(gridcv_result *r, const gridcv *g)
{
	size_t na = (size_t)g->nmodels * (size_t)g->nsets;
	memset(r, 0, sizeof *r);
	r->acc = xmalloc((na + 1) * sizeof *r->acc);
	r->mx = xcalloc(na + 1, sizeof *r->mx);
	r->cacc = xmalloc((na + 1) * sizeof *r->cacc);
	for (size_t i = 0; i < na; i++) {
		mx_init(&r->acc[i], g->rule.k, g->tr->def, 0.0);
		cv_init(&r->cacc[i], g->tr->def);
	}
	r->full = xcalloc((size_t)g->nmodels, sizeof *r->full);
	r->pruned = xcalloc((size_t)g->nmodels, sizeof *r->pruned);
}

void
gridcv_finish(gridcv_result *r, const gridcv *g)
{
	double t0 = mono_s();
	size_t na = (size_t)g->nmodels * (size_t)g->nsets;
	for (size_t i = 0; i < na; i++)
		mx_finish(&r->acc[i], &r->mx[i]);
	free(r->acc);
	r->acc = NULL;
	r->t_eval += mono_s() - t0;
}

/* Items of gridcv_run's batch of passes p[0..n): open and fit pass i
 * (fold f0 + i; the last pass is the final one, -1), or run job i (pass
 * i / nmodels, model i % nmodels). */
typedef struct {
	const gridcv *g;
	gridcv_pass *p;
	int f0, n;
	pool *inner;   /* the pool of a lone pass's fit, else NULL */
} batch;

static void
open_item(void *arg, int i, int thread)
{
	const batch *b = arg;
	int f = b->f0 + i;
	(void)thread;
	gridcv_pass_open(&b->p[i], b->g, f < b->g->folds ? f : -1);
	gridcv_pass_fit(&b->p[i], b->inner);
}

static void
job_item(void *arg, int i, int thread)
{
	const batch *b = arg;
	gridcv_model(&b->p[i / b->g->nmodels], i % b->g->nmodels, thread);
}

/* pool_map, or the items in order without a pool. */
static void
map(pool *pl, int n, pool_fn *fn, void *arg)
{
	if (pl)
		pool_map(pl, n, fn, arg);
	else
		for (int i = 0; i < n; i++)
			fn(arg, i, 0);
}

void
gridcv_run(const gridcv *g, gridcv_result *r, pool *pl)
{
	progress prog;
	int64_t done = 0;
	int np = g->folds + 1, nt = pl ? pool_threads(pl) : 1;
	gridcv_result_init(r, g);
	progress_start(&prog, "fit: grid", "fits", (int64_t)g->nmodels * np);
	gridcv_pass *p = xcalloc((size_t)(nt < np ? nt : np), sizeof *p);
	for (int f0 = 0; f0 < np; f0 += nt) {
		int n = np - f0 < nt ? np - f0 : nt;
		batch b = {g, p, f0, n, n == 1 ? pl : NULL};
		if (n == 1)
			open_item(&b, 0, 0);
		else
			map(pl, n, open_item, &b);
		map(pl, n * g->nmodels, job_item, &b);
		done += (int64_t)n * g->nmodels;
		progress_update(&prog, done);
		for (int i = 0; i < n; i++)
			gridcv_pass_close(&p[i], r);
	}
	free(p);
	progress_end(&prog, done);
	gridcv_finish(r, g);
}

void
gridcv_rank_written(const gridcv *g, tree *t, int mode, int fill)
{
	const training *tr = g->tr;
	rr_input *rr = NULL;
	int n = 0;
	leaf_rule rule = g->rule;
	rule.mode = mode;
	rule.fill = fill;
	if (mode != RR_FREQ) {
		rr = xmalloc((tr->n_inputs_max + 1) * sizeof *rr);
		n = training_inputs(tr, -1, rr);
	}
	leaves_rank_all(t, &rule, rr, n);
	free(rr);
}

void
gridcv_top_k(const gridcv *g, int model, tree *t, int mode, int fill,
             double eps, pool *pl)
{
	const training *tr = g->tr;
	int K = g->rule.k, n_univ = tr->n_univ;
	if (g->folds < 2)
		die("gridcv_top_k: needs cross-validation folds (fit --folds >= 2)");
	if (!(eps > 0 && eps < 1))
		die("gridcv_top_k: eps %g out of (0, 1)", eps);
	gridcv g1 = *g;
	g1.models = &g->models[model];
	g1.nmodels = 1;
	g1.rule.mode = mode;
	g1.rule.fill = fill;
	double *sum = xcalloc((size_t)t->n_node * (size_t)K + 1, sizeof *sum);
	long *cnt = xcalloc((size_t)t->n_node + 1, sizeof *cnt);
	double *time = xmalloc(((size_t)n_univ + 1) * sizeof *time);
	double *lr = xmalloc(((size_t)K + 1) * sizeof *lr);
	tree_prob *tmp = xmalloc(((size_t)tr->n_class + 1) * sizeof *tmp);
	int *rank = xmalloc(((size_t)tr->n_class + 1) * sizeof *rank);
	double *prob = xmalloc(((size_t)tr->n_class + 1) * sizeof *prob);
	for (int u = 0; u < n_univ; u++)
		time[u] = NAN;
	for (int f = 0; f < g->folds; f++) {
		gridcv_pass p;
		tree pr;
		gridcv_pass_open(&p, &g1, f);
		gridcv_pass_fit(&p, pl);
		leaves_prune(&pr, &p.full[0], &g1.rule, p.rr, p.nrr);
		for (int c = 0; c < p.fe.n; c++) {
			const dset *ds = p.fe.c[c].ds;
			const featset *fs = &ds->fs;
			int i = p.fe.c[c].i;
			const double *x = fs->x + (size_t)i * fs->n_feat;
			for (int j = fs->first[i]; j < ds->hi[i]; j++)
				time[ds->gch[fs->choice[j]]] = fs->ms[j];
			int leaf = tree_apply(&pr, x);
			int nr = tree_ranked(&pr, leaf, tmp, pr.n_class);
			for (int j = 0; j < nr; j++) {
				rank[j] = tmp[j].cls; /* class index == universe index */
				prob[j] = tmp[j].p;
			}
			cv_list_lr(time, ds->gch[fs->choice[ds->win[i]]], rank, prob, nr,
			           tr->def, K, lr);
			for (int nd = 0;; ) {
				cnt[nd]++;
				for (int j = 0; j < K; j++)
					sum[(size_t)nd * K + j] += lr[j];
				const tree_node *d = &t->node[nd];
				if (d->feature < 0)
					break;
				nd = x[d->feature] <= d->threshold ? d->left : d->right;
			}
			for (int j = fs->first[i]; j < ds->hi[i]; j++)
				time[ds->gch[fs->choice[j]]] = NAN;
		}
		tree_free(&pr);
		gridcv_result r;
		gridcv_result_init(&r, &g1);
		gridcv_pass_close(&p, &r);
		free(r.acc); /* unfinished: nothing of this pass is scored */
		r.acc = NULL;
		gridcv_result_free(&r, &g1);
	}
	double lim = log1p(eps) + 1e-12;
	for (int nd = 0; nd < t->n_node; nd++) {
		int k = K;
		for (int j = 0; cnt[nd] > 0 && j < K; j++)
			if (sum[(size_t)nd * K + j] / (double)cnt[nd] <= lim) {
				k = j + 1;
				break;
			}
		t->node[nd].top_k = k;
	}
	t->topk_eps = eps;
	free(prob);
	free(rank);
	free(tmp);
	free(lr);
	free(time);
	free(cnt);
	free(sum);
}

void
gridcv_result_free(gridcv_result *r, const gridcv *g)
{
	for (int mi = 0; r->full && mi < g->nmodels; mi++) {
		tree_free(&r->full[mi]);
		tree_free(&r->pruned[mi]);
	}
	free(r->full);
	free(r->pruned);
	free(r->mx);
	free(r->cacc);
	memset(r, 0, sizeof *r);
}
