/* tlimit.c — bench --time-limit's rule for starting an input (tlimit.h). */
#include <math.h>

#include "tlimit.h"

void tl_init(tl_state *t, double limit_s)
{
	t->limit_s = limit_s;
	for (int i = 0; i < TL_KINDS; i++)
		for (int b = 0; b < TL_BUCKETS; b++)
			t->rate[i][b] = 0;
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

/* work's bucket, floor(log2(work)); -1 outside [1, 2^TL_BUCKETS) or NaN */
static int bucket(double work)
{
	if (!(work >= 1) || !isfinite(work))
		return -1;
	int b = ilogb(work);
	return b < TL_BUCKETS ? b : -1;
}

void tl_learn(tl_state *t, int kind, double work, double took_s)
{
	int b = bucket(work);
	if (t->limit_s <= 0 || kind < 0 || kind >= TL_KINDS || b < 0 ||
	    !(took_s >= TL_CALIBRATE * t->limit_s) || !isfinite(took_s))
		return;
	double r = took_s / work;
	if (r > t->rate[kind][b])
		t->rate[kind][b] = r;
}

int tl_decide(const tl_state *t, int kind, double work, double elapsed_s, double *pred_s)
{
	*pred_s = 0;
	if (t->limit_s < 0)
		return TL_START;
	if (elapsed_s >= t->limit_s)
		return TL_TIME_UP;
	int b = bucket(work);
	if (kind < 0 || kind >= TL_KINDS || b < 0)
		return TL_START;
	double r = 0;
	for (int i = b > TL_SCALE ? b - TL_SCALE : 0; i < TL_BUCKETS; i++)
		if (t->rate[kind][i] > r)
			r = t->rate[kind][i];
	if (r == 0)
		return TL_START;
	*pred_s = TL_MARGIN * work * r;
	return elapsed_s + *pred_s > t->limit_s ? TL_PREDICTED : TL_START;
}
