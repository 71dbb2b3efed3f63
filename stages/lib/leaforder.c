/* leaforder.c — leaf list orders good at every list length (see
 * leaforder.h; issue #19, spec §5.9, §6.1, §7.3). */
#include "leaforder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define LO_RULE(name, lambda, def_first, rest, mu, margin) \
	{name, lambda, def_first, rest, mu, margin},
const lo_rule lo_rules[] = {LO_RULES(LO_RULE)};
#undef LO_RULE
const int n_lo_rules = (int)(sizeof lo_rules / sizeof *lo_rules);

void
lo_scratch_free(lo_scratch *s)
{
	free(s->cur);
	free(s->fst);
	free(s->wins);
	free(s->det);
	free(s->used);
	memset(s, 0, sizeof *s);
}

static void
reserve(lo_scratch *s, int q, int m)
{
	if ((size_t)q + 1 > s->q_cap) {
		s->q_cap = (size_t)q + 1;
		s->cur = xrealloc(s->cur, s->q_cap * sizeof *s->cur);
		s->fst = xrealloc(s->fst, s->q_cap * sizeof *s->fst);
		s->det = xrealloc(s->det, s->q_cap);
	}
	if ((size_t)m + 1 > s->c_cap) {
		s->c_cap = (size_t)m + 1;
		s->wins = xrealloc(s->wins, s->c_cap * sizeof *s->wins);
		s->used = xrealloc(s->used, s->c_cap);
	}
}

/* lr of time tm for best time best: ln(tm / best) in [0, ln cap]; a failed
 * (+inf) or unmeasured (NaN) time costs the cap. */
static double
lr(double tm, double best)
{
	double r = tm / best;
	if (!(r < RR_REGRET_CAP))
		r = RR_REGRET_CAP;
	return log(r < 1.0 ? 1.0 : r);
}

/* Is candidate j (gain g, wins w) better than the best so far b (gain bg,
 * wins bw)?  Larger primary, then secondary (within 1e-9 each), then the
 * larger p, then the earlier position (b < 0: none yet). */
static int
beats(double g, double w, double p, double bg, double bw, double bp, int b)
{
	if (b < 0 || g > bg + 1e-9)
		return 1;
	if (g < bg - 1e-9)
		return 0;
	if (w > bw + 1e-9)
		return 1;
	if (w < bw - 1e-9)
		return 0;
	return p > bp;
}

/* The gain of listing class j next (step 0: first): leaforder.h's entry 0
 * value, or the drop of the rest's objective. */
static double
gain(const tree_prob *pr, int j, int di, const rr_input *in, const int *ids,
     int q, const lo_rule *r, int first, const lo_scratch *s)
{
	double g = 0;
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		double tj = x->time[pr[j].cls];
		if (isnan(tj))
			continue; /* not offered for the shape: skipped */
		double l = lr(tj, x->time[x->winner]);
		double dp = l < s->cur[a] ? s->cur[a] - l : 0;
		double df = s->det[a] ? 0 : s->fst[a] - l;
		if (first)
			g += x->weight * (r->lambda * df + (1 - r->lambda) * dp -
			                  (j != di ? r->margin : 0));
		else if (r->rest == LO_REST_REGRET)
			g += x->weight * (dp + r->mu * df);
		else
			g += x->weight * dp;
	}
	return g;
}

/* The inputs' state once class c is listed. */
static void
take(int c, const rr_input *in, const int *ids, int q, lo_scratch *s)
{
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		if (isnan(x->time[c]))
			continue;
		double l = lr(x->time[c], x->time[x->winner]);
		if (l < s->cur[a])
			s->cur[a] = l;
		if (!s->det[a]) {
			s->det[a] = 1;
			s->fst[a] = l;
		}
	}
}

void
lo_order(const tree_prob *pr, int m, const rr_input *in, const int *ids,
         int q, int def, const lo_rule *r, int *ord, lo_scratch *s)
{
	reserve(s, q, m);
	int di = -1, nd = 0;
	for (int j = 0; j < m; j++) {
		s->wins[j] = 0;
		s->used[j] = 0;
		if (pr[j].cls == def)
			di = j;
	}
	/* before any entry the list is extern_mm alone (rank() appends it) */
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		s->cur[a] = s->fst[a] = def >= 0 ? lr(x->time[def], x->time[x->winner])
		                                 : log(RR_REGRET_CAP);
		s->det[a] = 0;
		for (int j = 0; j < m; j++)
			if (pr[j].cls == x->winner && j != di) {
				s->wins[j] += x->weight;
				break;
			}
	}
	for (int first = 1; nd < m; first = 0) {
		/* HIT after entry 0: wins first, gain second; else gain, wins */
		int hit = !first && r->rest == LO_REST_HIT, pick = -1;
		double bg = 0, bw = 0, bp = 0;
		for (int j = 0; j < m; j++) {
			if (s->used[j] || (j == di && !(first && r->def_first)))
				continue;
			double g = gain(pr, j, di, in, ids, q, r, first, s);
			double p1 = hit ? s->wins[j] : g, p2 = hit ? g : s->wins[j];
			if (beats(p1, p2, pr[j].p, bg, bw, bp, pick)) {
				pick = j;
				bg = p1;
				bw = p2;
				bp = pr[j].p;
			}
		}
		if (pick < 0)
			break; /* def alone is left */
		s->used[pick] = 1;
		ord[nd++] = pick;
		take(pr[pick].cls, in, ids, q, s);
	}
	if (di >= 0 && !s->used[di])
		ord[nd++] = di;
	if (nd != m)
		die("lo_order: internal error: %d of %d classes ordered", nd, m);
}
