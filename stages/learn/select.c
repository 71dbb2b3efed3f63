/* select.c — fit's model selection; see select.h (spec §5.10). */
#include "select.h"

#include <math.h>

int
select_better(const metrics *m, const metrics *b, int rule)
{
	if (rule == SEL_TOP1)
		return (double)m->wrong <= (double)m->total * 1.0 &&
		       m->correct > (b ? b->correct : 0);
	if (m->total == 0)
		return 0;
	if (!b)
		return 1;
	if (rule == SEL_HIT)
		return m->top_k_correct > b->top_k_correct ||
		       (m->top_k_correct == b->top_k_correct &&
		        m->regret_gmean < b->regret_gmean - 1e-12);
	if (m->regret_gmean < b->regret_gmean - 1e-12)
		return 1;
	return m->regret_gmean <= b->regret_gmean + 1e-12 &&
	       m->top_k_correct > b->top_k_correct;
}

int
select_model(const metrics *mx, int n, size_t stride, int rule)
{
	int best = -1;
	for (int i = 0; i < n; i++)
		if (select_better(&mx[(size_t)i * stride],
		                  best < 0 ? NULL : &mx[(size_t)best * stride], rule))
			best = i;
	return best;
}

int
select_curve(const cv_acc *cv, const metrics *mx, int n, size_t stride)
{
	int ks[CV_KMAX + 1], nk = cv_select_points(ks);
	double lo[CV_KMAX + 1];
	for (int q = 0; q < nk; q++) {
		lo[q] = INFINITY;
		for (int i = 0; i < n; i++)
			if (mx[(size_t)i * stride].total > 0 &&
			    cv_lcap(&cv[(size_t)i * stride], ks[q]) < lo[q])
				lo[q] = cv_lcap(&cv[(size_t)i * stride], ks[q]);
		if (!(lo[q] > 1e-9))
			lo[q] = 1e-9;
	}
	int best = -1;
	double bo = 0;
	for (int i = 0; i < n; i++) {
		const metrics *m = &mx[(size_t)i * stride];
		if (m->total == 0)
			continue;
		double o = 0;
		for (int q = 0; q < nk; q++)
			o += cv_lcap(&cv[(size_t)i * stride], ks[q]) / lo[q];
		o /= nk;
		if (best < 0 || o < bo - 1e-12 ||
		    (o <= bo + 1e-12 && m->top_k_correct >
		                        mx[(size_t)best * stride].top_k_correct)) {
			best = i;
			bo = o;
		}
	}
	return best;
}
