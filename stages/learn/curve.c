/* curve.c — hit rate and regret at every list length; see curve.h
 * (spec §5.9, §7.3). */
#include "curve.h"

#include <math.h>
#include <string.h>

#include "rerank.h"
#include "formats/rules.h"
#include "core/util.h"

void
cv_init(cv_acc *a, int def)
{
	memset(a, 0, sizeof *a);
	a->def = def;
}

/* Record regret r (>= 1, +inf = no finite time) at k. */
static void
put(cv_acc *a, int k, int hit, double r)
{
	a->hit[k] += hit;
	if (!isfinite(r)) {
		a->none[k]++;
		a->lcap[k] += log(RR_REGRET_CAP);
		return;
	}
	double l = log(r);
	a->lsum[k] += l;
	a->lcap[k] += r < RR_REGRET_CAP ? l : log(RR_REGRET_CAP);
	if (r > a->rmax[k])
		a->rmax[k] = r;
}

void
cv_add(cv_acc *a, const double *time, int truth, const int *rank,
       const double *prob, int n_rank, int kauto, int pick)
{
	double tt = time[truth];
	if (!isfinite(tt) || !(tt > 0))
		die("curve: input with a non-finite or non-positive winner time %g",
		    tt);
	a->n++;
	for (int k = 1; k <= CV_KMAX; k++) {
		topk_list l;
		topk(&l, NULL, rank, prob, n_rank, time, k, a->def, truth);
		put(a, k, l.has_truth, regret(l.best, tt));
	}
	int f = pick_entry(pick, rank, prob, n_rank, time, a->def);
	put(a, 0, f >= 0 && f == truth, f >= 0 ? regret(time[f], tt) : INFINITY);
	f = first_entry(rank, prob, n_rank, time, a->def);
	put(a, CV_HEAD, f >= 0 && f == truth, f >= 0 ? regret(time[f], tt) : INFINITY);
	int ka = kauto > 0 ? kauto : CV_KDEF;
	topk_list l;
	topk(&l, NULL, rank, prob, n_rank, time, ka, a->def, truth);
	put(a, CV_AUTO, l.has_truth, regret(l.best, tt));
	a->ksum += ka;
}

void
cv_list_lr(const double *time, int truth, const int *rank, const double *prob,
           int n_rank, int def, int kmax, double *lr)
{
	double tt = time[truth];
	for (int k = 1; k <= kmax; k++) {
		topk_list l;
		topk(&l, NULL, rank, prob, n_rank, time, k, def, truth);
		double r = regret(l.best, tt);
		lr[k - 1] = isfinite(r) && r < RR_REGRET_CAP ? log(r) : log(RR_REGRET_CAP);
	}
}

double
cv_mean_k(const cv_acc *a)
{
	return a->n ? a->ksum / (double)a->n : 0.0;
}

void
cv_merge(cv_acc *a, const cv_acc *b)
{
	a->n += b->n;
	a->ksum += b->ksum;
	for (int k = 0; k <= CV_HEAD; k++) {
		a->hit[k] += b->hit[k];
		a->none[k] += b->none[k];
		a->lsum[k] += b->lsum[k];
		a->lcap[k] += b->lcap[k];
		if (b->rmax[k] > a->rmax[k])
			a->rmax[k] = b->rmax[k];
	}
}

double
cv_hit(const cv_acc *a, int k)
{
	return a->n ? (double)a->hit[k] / (double)a->n : 0.0;
}

double
cv_regret(const cv_acc *a, int k)
{
	long m = a->n - a->none[k];
	return m > 0 ? exp(a->lsum[k] / (double)m) : 0.0;
}

int
cv_select_points(int *ks)
{
	static const int pts[] = {1, 2, 5, 10};
	int n = (int)(sizeof pts / sizeof *pts);
	memcpy(ks, pts, sizeof pts);
	return n;
}

double
cv_lcap(const cv_acc *a, int k)
{
	if (k < 0 || k > CV_HEAD)
		die("curve: list length %d out of 0..%d", k, CV_HEAD);
	return a->n ? a->lcap[k] / (double)a->n : 0.0;
}
