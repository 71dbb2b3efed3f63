/* rules.c — the ranking rules; see rules.h. */
#include "rules.h"

#include <math.h>

int
near_best(double t, double best)
{
	return best / t >= NEAR_BEST_RATIO;
}

int
fast_reject_ok(double f)
{
	return f == 0 || f >= 1 / NEAR_BEST_RATIO;
}

void
topk(topk_list *out, int *list, const int *rank, const double *prob,
     int n_rank, const double *time, int k, int def, int truth)
{
	int listed_def = 0;
	out->n = 0;
	out->has_truth = 0;
	out->timed = 0;
	out->best = INFINITY;
	for (int i = 0; i < n_rank && out->n < k; i++) {
		int ch = rank[i];
		if (!(prob[i] > 0) || ch < 0 || isnan(time[ch]))
			continue;
		if (list)
			list[out->n] = ch;
		out->n++;
		out->has_truth |= ch == truth;
		listed_def |= ch == def;
		out->timed = 1;
		if (time[ch] < out->best)
			out->best = time[ch];
	}
	if (def < 0 || listed_def)
		return;
	if (list)
		list[out->n] = def;
	out->n++;
	out->has_truth |= def == truth;
	if (!isnan(time[def])) {
		out->timed = 1;
		if (time[def] < out->best)
			out->best = time[def];
	}
}

int
first_entry(const int *rank, const double *prob, int n_rank,
            const double *time, int def)
{
	for (int i = 0; i < n_rank; i++)
		if (prob[i] > 0 && rank[i] >= 0 && !isnan(time[rank[i]]))
			return rank[i];
	return def >= 0 && !isnan(time[def]) ? def : -1;
}

int
pick_entry(int pick, const int *rank, const double *prob, int n_rank,
           const double *time, int def)
{
	if (pick >= 0 && !isnan(time[pick]))
		return pick;
	return first_entry(rank, prob, n_rank, time, def);
}

double
regret(double listed_best, double best)
{
	return listed_best / best;
}
