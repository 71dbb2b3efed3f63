/* metrics.c — ranking evaluator, spec §5.9; see metrics.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "formats/rules.h"
#include "core/util.h"

const char mx_tsv_header[] =
    "total\ttop_k_correct\ttop_k_wrong\ttop_k_unsure\twrong_max_speedup_k\t"
    "wrong_gmean_speedup_k\tcorrect\twrong\tunsure\twrong_max_speedup\t"
    "wrong_gmean_speedup\tmax_speedup_over_default\t"
    "gmean_speedup_over_default\tmax_speedup_default_over_heuristic\t"
    "non_default_predictions\tdefault_better\tregret_n\tregret_none\t"
    "regret_gmean\tregret_p95\tregret_max";

void
mx_tsv_row(const metrics *m, FILE *fp)
{
	fprintf(fp, "%ld\t%ld\t%ld\t%ld\t%.17g\t%.17g\t%ld\t%ld\t%ld\t%.17g\t"
	        "%.17g\t%.17g\t%.17g\t%.17g\t%ld\t%ld\t%ld\t%ld\t%.17g\t%.17g\t"
	        "%.17g",
	        m->total, m->top_k_correct, m->top_k_wrong, m->top_k_unsure,
	        m->wrong_max_speedup_k, m->wrong_gmean_speedup_k, m->correct,
	        m->wrong, m->unsure, m->wrong_max_speedup, m->wrong_gmean_speedup,
	        m->max_speedup_over_default, m->gmean_speedup_over_default,
	        m->max_speedup_default_over_heuristic, m->non_default_predictions,
	        m->default_better, m->regret_n, m->regret_none, m->regret_gmean,
	        m->regret_p95, m->regret_max);
}

void
mx_init(mx_acc *a, int k, int def, double threshold)
{
	memset(a, 0, sizeof *a);
	if (k < 1)
		die("metrics: top-k size %d < 1", k);
	a->k = k;
	a->def = def;
	a->threshold = threshold;
}

static void
push(double **v, size_t *n, size_t *cap, double x)
{
	xgrow((void **)v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = x;
}

static int
has_time(const mx_case *c, int ch)
{
	return ch >= 0 && !isnan(c->time[ch]);
}

void
mx_add(mx_acc *a, const mx_case *c, topk_list *list)
{
	metrics *m = &a->m;
	double tt = c->time[c->truth];
	if (!isfinite(tt) || !(tt > 0))
		die("metrics: case with a non-finite or non-positive winner time %g",
		    tt);
	m->total++;

	/* the top-k list with its fallback and its regret (rules.h) */
	topk_list l;
	topk(&l, NULL, c->rank, c->prob, c->n_rank, c->time, a->k, a->def, c->truth);
	if (list)
		*list = l;
	if (l.has_truth) {
		m->top_k_correct++;
	} else if (l.timed) {
		m->top_k_wrong++;
		push(&a->wrong_sp_k, &a->n_wrong_sp_k, &a->c_wrong_sp_k,
		     regret(l.best, tt));
	} else {
		m->top_k_unsure++;
	}
	if (isfinite(l.best))
		push(&a->regret, &a->n_regret, &a->c_regret, regret(l.best, tt));
	else
		m->regret_none++;

	/* top-1 */
	int pred = c->n_rank > 0 ? c->rank[0] : -1;
	double maxp = c->n_rank > 0 ? c->prob[0] : 0.0;
	if (c->unsafe || pred < 0 || !has_time(c, pred) ||
	    (maxp != 1.0 && maxp <= a->threshold)) {
		m->unsure++;
		push(&a->sp_def, &a->n_sp_def, &a->c_sp_def, 1.0);
		return;
	}
	if (pred == c->truth) {
		m->correct++;
	} else {
		m->wrong++;
		push(&a->wrong_sp, &a->n_wrong_sp, &a->c_wrong_sp,
		     c->time[pred] / tt);
	}
	if (a->def >= 0) {
		if (pred != a->def)
			m->non_default_predictions++;
		if (has_time(c, a->def) && isfinite(c->time[a->def])) {
			double r = c->time[a->def] / c->time[pred];
			push(&a->sp_def, &a->n_sp_def, &a->c_sp_def, r);
			if (r < 1)
				m->default_better++;
		}
	}
}

static void
append(double **v, size_t *n, size_t *cap, const double *x, size_t nx)
{
	xgrow((void **)v, cap, *n + nx, sizeof **v);
	if (nx)
		memcpy(*v + *n, x, nx * sizeof *x);
	*n += nx;
}

void
mx_merge(mx_acc *a, mx_acc *b)
{
	if (a->k != b->k || a->def != b->def || a->threshold != b->threshold)
		die("metrics: merging accumulators of different settings");
	metrics *m = &a->m;
	const metrics *x = &b->m;
	m->total += x->total;
	m->correct += x->correct;
	m->wrong += x->wrong;
	m->unsure += x->unsure;
	m->top_k_correct += x->top_k_correct;
	m->top_k_wrong += x->top_k_wrong;
	m->top_k_unsure += x->top_k_unsure;
	m->non_default_predictions += x->non_default_predictions;
	m->default_better += x->default_better;
	m->regret_none += x->regret_none;
	append(&a->wrong_sp, &a->n_wrong_sp, &a->c_wrong_sp, b->wrong_sp, b->n_wrong_sp);
	append(&a->wrong_sp_k, &a->n_wrong_sp_k, &a->c_wrong_sp_k, b->wrong_sp_k,
	       b->n_wrong_sp_k);
	append(&a->sp_def, &a->n_sp_def, &a->c_sp_def, b->sp_def, b->n_sp_def);
	append(&a->regret, &a->n_regret, &a->c_regret, b->regret, b->n_regret);
	mx_free(b);
}

void
mx_free(mx_acc *a)
{
	free(a->wrong_sp);
	free(a->wrong_sp_k);
	free(a->sp_def);
	free(a->regret);
	memset(a, 0, sizeof *a);
}

static double
vmax(const double *v, size_t n)
{
	double x = n ? v[0] : 0.0;
	for (size_t i = 1; i < n; i++)
		if (v[i] > x)
			x = v[i];
	return x;
}

static double
vmin(const double *v, size_t n)
{
	double x = n ? v[0] : 0.0;
	for (size_t i = 1; i < n; i++)
		if (v[i] < x)
			x = v[i];
	return x;
}

static double
gmean(const double *v, size_t n)
{
	if (!n)
		return 0.0;
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += log(v[i]);
	return exp(s / (double)n);
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void
mx_finish(mx_acc *a, metrics *out)
{
	metrics *m = &a->m;
	m->wrong_max_speedup = vmax(a->wrong_sp, a->n_wrong_sp);
	m->wrong_gmean_speedup = gmean(a->wrong_sp, a->n_wrong_sp);
	m->wrong_max_speedup_k = vmax(a->wrong_sp_k, a->n_wrong_sp_k);
	m->wrong_gmean_speedup_k = gmean(a->wrong_sp_k, a->n_wrong_sp_k);
	m->max_speedup_over_default = vmax(a->sp_def, a->n_sp_def);
	m->gmean_speedup_over_default = gmean(a->sp_def, a->n_sp_def);
	m->max_speedup_default_over_heuristic = vmin(a->sp_def, a->n_sp_def);
	m->regret_n = (long)a->n_regret;
	m->regret_gmean = gmean(a->regret, a->n_regret);
	m->regret_max = vmax(a->regret, a->n_regret);
	if (a->n_regret) {
		qsort(a->regret, a->n_regret, sizeof *a->regret, cmp_dbl);
		size_t r = (size_t)ceil(0.95 * (double)a->n_regret);
		m->regret_p95 = a->regret[r ? r - 1 : 0];
	} else {
		m->regret_p95 = 0.0;
	}
	*out = *m;
	mx_free(a);
}
