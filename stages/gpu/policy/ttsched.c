/* ttsched.c — see ttsched.h. */
#include "ttsched.h"

#include <math.h>

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Inductor's benchmark_iters = max(min(100, int(25 // estimate)), 1); an
 * estimate of 0 (below the events' resolution) gives the maximum. */
static int benchmark_count(const tt_params *p, double est_ms, int max_iters)
{
	if (isnan(est_ms))
		return 0;
	int iters = p->benchmark_iters;
	if (est_ms > 0) {
		double q = floor(p->max_benchmark_ms / est_ms);
		if (q < iters)
			iters = (int)q;
	}
	return clamp(iters, 1, max_iters);
}

tt_sched tt_schedule(const tt_params *p, const tt_known *k, int max_iters)
{
	tt_sched s = { 0 };
	s.warm_reused = k->warm_reused != 0;
	if (max_iters < 1)
		max_iters = 1;
	int ne = clamp(p->estimation_iters, 1, max_iters);
	if (p->verify_cut > 0 && k->warm_reused && p->long_ms > 0 && isfinite(k->best_ms) &&
	    k->best_ms > 0 && k->warm_ms >= p->verify_cut * k->best_ms && k->warm_ms >= p->long_ms) {
		if (!k->audit) {
			s.vcut = 1;
			return s; /* no launch: the verification call's time is the result */
		}
		s.vcut_audited = 1;
	}
	if (p->loser_ratio > 0 && isfinite(k->best_ms) && k->best_ms > 0) {
		double cut = p->loser_ratio * k->best_ms;
		s.loser_tried = k->warm_ms >= cut;
		s.probe = s.loser_tried;
		s.is_loser = s.loser_tried && !(k->probe_ms < cut);
		if (s.is_loser) {
			s.first = 1;
			return s; /* the long-kernel rule is not consulted */
		}
	}
	s.long_tried = p->long_ms > 0 && k->warm_ms >= p->long_ms;
	s.first = s.long_tried ? clamp(p->long_launches, 1, ne) : ne;
	s.is_long = s.long_tried && !(k->first_ms < p->long_ms);
	if (s.is_long)
		return s;
	s.estimation = ne - s.first;
	s.memory_warmup = p->memory_warmup_iters > 0 ? p->memory_warmup_iters : 0;
	s.benchmark = benchmark_count(p, k->est_ms, max_iters);
	return s;
}

int tt_sched_calls(const tt_sched *s)
{
	return !s->warm_reused + s->first + s->estimation + s->benchmark;
}

int tt_warm_reused(const tt_params *p, double verify_ms)
{
	return p->warm_from_verify && verify_ms >= 0 && isfinite(verify_ms);
}

tt_sched tt_schedule_audited(const tt_params *p, tt_known *k, int max_iters, long long *seen)
{
	tt_sched s = tt_schedule(p, k, max_iters);
	if (!s.vcut)
		return s;
	long long n = (*seen)++;
	if (p->verify_cut_audit > 0 && n % p->verify_cut_audit == 0) {
		k->audit = 1;
		s = tt_schedule(p, k, max_iters);
	}
	return s;
}
