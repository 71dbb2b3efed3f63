/* select.c — fit's model selection; see select.h (spec §5.10). */
#include "select.h"

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
