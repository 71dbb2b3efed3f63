/* tlimit.c — bench --time-limit's rule for starting an input (tlimit.h). */
#include "tlimit.h"

void tl_init(tl_state *t, double limit_s)
{
	t->limit_s = limit_s;
	for (int i = 0; i < TL_KINDS; i++)
		t->rate[i] = 0;
}

int tl_kind(int dtype, int tf32)
{
	switch (dtype) {
	case 0: return tf32 ? 1 : 0;
	case 1: return 2;
	case 2: return 3;
	default: return -1;
	}
}

double tl_work(int64_t m, int64_t k, int64_t n, int nc)
{
	return 2.0 * (double)m * (double)k * (double)n * (double)nc;
}

void tl_learn(tl_state *t, int kind, double work, double took_s)
{
	if (t->limit_s <= 0 || kind < 0 || kind >= TL_KINDS || !(work > 0) ||
	    !(took_s >= TL_CALIBRATE * t->limit_s))
		return;
	double r = took_s / work;
	if (r > t->rate[kind])
		t->rate[kind] = r;
}

int tl_decide(const tl_state *t, int kind, double work, double elapsed_s, double *pred_s)
{
	*pred_s = 0;
	if (t->limit_s < 0)
		return TL_START;
	if (elapsed_s >= t->limit_s)
		return TL_TIME_UP;
	if (kind < 0 || kind >= TL_KINDS || t->rate[kind] == 0 || !(work > 0))
		return TL_START;
	*pred_s = TL_MARGIN * work * t->rate[kind];
	return elapsed_s + *pred_s > t->limit_s ? TL_PREDICTED : TL_START;
}
