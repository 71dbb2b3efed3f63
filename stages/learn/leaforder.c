/* leaforder.c — leaf list orders good at every list length (see
 * leaforder.h; spec §5.9, §6.1, §7.3). */
#include "leaforder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define LO_RULE(name, lambda, rest, margin, exact, offered) \
	{name, lambda, rest, margin, exact, offered},
const lo_rule lo_rules[] = {LO_RULES(LO_RULE)};
#undef LO_RULE
const int n_lo_rules = (int)(sizeof lo_rules / sizeof *lo_rules);

void
lo_scratch_free(lo_scratch *s)
{
	free(s->cur);
	free(s->fst);
	free(s->wins);
	free(s->wins2);
	free(s->det);
	free(s->used);
	free(s->cand);
	free(s->ord);
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
		s->wins2 = xrealloc(s->wins2, s->c_cap * sizeof *s->wins2);
		s->used = xrealloc(s->used, s->c_cap);
		s->cand = xrealloc(s->cand, s->c_cap * sizeof *s->cand);
		s->ord = xrealloc(s->ord, s->c_cap * sizeof *s->ord);
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

/* Is a candidate with keys key[0..LO_NKEY) and probability p better than
 * the best so far (keys bk, probability bp; b < 0: none yet)?  The larger
 * key, in key order (within 1e-9 each), then the larger p (then the
 * earlier position: the caller's scan order). */
enum { LO_NKEY = 3 };

static int
beats(const double *key, double p, const double *bk, double bp, int b)
{
	if (b < 0)
		return 1;
	for (int i = 0; i < LO_NKEY; i++) {
		if (key[i] > bk[i] + 1e-9)
			return 1;
		if (key[i] < bk[i] - 1e-9)
			return 0;
	}
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
		else
			g += x->weight * dp;
	}
	return g;
}

/* 1 iff class c was measured (not NaN) on every input of the node. */
static int
offered_all(int c, const rr_input *in, const int *ids, int q)
{
	for (int a = 0; a < q; a++)
		if (isnan(in[ids[a]].time[c]))
			return 0;
	return 1;
}

/* May position j of pr be entry 0 under rule r (r->offered: measured on
 * every input, def always)?  any: no position qualifies (def not listed,
 * no class measured on every input): then every one may. */
static int
head_ok(const tree_prob *pr, int j, int di, const rr_input *in, const int *ids,
        int q, const lo_rule *r, int any)
{
	return !r->offered || any || j == di || offered_all(pr[j].cls, in, ids, q);
}

/* 1 iff no position of pr[0..m) may head under r->offered (see head_ok). */
static int
head_any(const tree_prob *pr, int m, int di, const rr_input *in, const int *ids,
         int q, const lo_rule *r)
{
	if (!r->offered || di >= 0)
		return 0;
	for (int j = 0; j < m; j++)
		if (j != di && offered_all(pr[j].cls, in, ids, q))
			return 0;
	return 1;
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

/* Start: the list is extern_mm alone (rank() appends it); every class's
 * wins and runner-up wins (leaforder.h); returns def's position in pr
 * (-1: not listed). */
static int
start(const tree_prob *pr, int m, const rr_input *in, const int *ids, int q,
      int def, lo_scratch *s)
{
	int di = -1;
	for (int j = 0; j < m; j++) {
		s->wins[j] = s->wins2[j] = 0;
		s->used[j] = 0;
		if (pr[j].cls == def)
			di = j;
	}
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		s->cur[a] = s->fst[a] = def >= 0 ? lr(x->time[def], x->time[x->winner])
		                                 : log(RR_REGRET_CAP);
		s->det[a] = 0;
		int ru = -1; /* the fastest listed class but def */
		for (int j = 0; j < m; j++) {
			double tj = x->time[pr[j].cls];
			if (j == di || isnan(tj))
				continue;
			if (pr[j].cls == x->winner)
				s->wins[j] += x->weight;
			if (ru < 0 || tj < x->time[pr[ru].cls])
				ru = j;
		}
		if (ru >= 0)
			s->wins2[ru] += x->weight;
	}
	return di;
}

/* The greedy loop: appends to ord[nd..) every class left but def (and def
 * too at step 0 when first), each the best by the keys
 * of leaforder.h (first: entry 0's value); returns the new count. */
static int
fill(const tree_prob *pr, int m, const rr_input *in, const int *ids, int q,
     int di, const lo_rule *r, int first, int *ord, int nd, lo_scratch *s)
{
	int any = first ? head_any(pr, m, di, in, ids, q, r) : 1;
	for (;; first = 0) {
		int pick = -1;
		double bk[LO_NKEY] = {0}, bp = 0;
		for (int j = 0; j < m; j++) {
			if (s->used[j] || (j == di && !first) ||
			    (first && !head_ok(pr, j, di, in, ids, q, r, any)))
				continue;
			double g = gain(pr, j, di, in, ids, q, r, first, s);
			double key[LO_NKEY] = {g, s->wins[j], 0};
			if (!first) {
				/* HIT: wins, then gain; HIT2: wins, runner-up wins, gain */
				int two = r->rest == LO_REST_HIT2;
				key[0] = s->wins[j];
				key[1] = two ? s->wins2[j] : g;
				key[2] = two ? g : 0;
			}
			if (beats(key, pr[j].p, bk, bp, pick)) {
				pick = j;
				memcpy(bk, key, sizeof bk);
				bp = pr[j].p;
			}
		}
		if (pick < 0)
			return nd; /* def alone is left */
		s->used[pick] = 1;
		ord[nd++] = pick;
		take(pr[pick].cls, in, ids, q, s);
	}
}

/* s->fst[a]: the first of the classes pr[ord[0..n)] measured for input a
 * (def if none is; the cap without def), its regret alone; s->cur[a]: its
 * top-1 + def regret.  What an input a head is not offered for meets
 * (leaforder.h). */
static void
fallback(const tree_prob *pr, const int *ord, int n, const rr_input *in,
         const int *ids, int q, int def, lo_scratch *s)
{
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		int c = def;
		for (int j = 0; j < n; j++)
			if (!isnan(x->time[pr[ord[j]].cls])) {
				c = pr[ord[j]].cls;
				break;
			}
		double ld = def >= 0 ? lr(x->time[def], x->time[x->winner]) : log(RR_REGRET_CAP);
		s->fst[a] = c >= 0 ? lr(x->time[c], x->time[x->winner]) : log(RR_REGRET_CAP);
		s->cur[a] = s->fst[a] < ld ? s->fst[a] : ld;
	}
}

/* The position b of pr[ord[0..n)] (one head_ok allows under r; di: def's
 * position in pr[0..m), -1: none) whose class heads at the smallest cost
 * over the node's inputs: lambda x its first-entry regret, plus the
 * margin for a class other than def, + (1 - lambda) x its top-1 + def
 * regret (leaforder.h); an input it is not measured for costs what
 * fallback() left in s; ties: def (a head that lowers nothing costs a
 * compile), then the earlier b. */
static int
best_head(const tree_prob *pr, int m, const int *ord, int n, const rr_input *in,
          const int *ids, int q, int def, int di, const lo_rule *r,
          const lo_scratch *s)
{
	double lam = r->lambda;
	int best = -1, any = head_any(pr, m, di, in, ids, q, r);
	double bc = 0;
	for (int b = 0; b < n; b++) {
		int j = ord[b];
		if (!head_ok(pr, j, di, in, ids, q, r, any))
			continue;
		double cost = 0;
		for (int a = 0; a < q; a++) {
			const rr_input *x = &in[ids[a]];
			double tj = x->time[pr[j].cls];
			if (isnan(tj)) {
				/* skipped: the order's first */
				cost += x->weight * (lam * s->fst[a] + (1 - lam) * s->cur[a]);
				continue;
			}
			double l = lr(tj, x->time[x->winner]);
			double ld = def >= 0 ? lr(x->time[def], x->time[x->winner]) : log(RR_REGRET_CAP);
			/* top-1 + def: def alone when def heads the list */
			double l1 = j == di ? ld : l < ld ? l : ld;
			cost += x->weight * (lam * (l + (j != di ? r->margin : 0)) + (1 - lam) * l1);
		}
		if (best < 0 || cost < bc - 1e-9 || (j == di && cost <= bc + 1e-9)) {
			best = b;
			bc = cost;
		}
	}
	return best;
}

/* r->exact: ord[0..nc) is the coverage order (def last if listed); move
 * to the front its best_head (def included; r->offered: one head_ok
 * allows), each input's first entry computed on the list that class
 * heads (fallback: the coverage order's). */
static void
exact_first(const tree_prob *pr, int nc, const rr_input *in, const int *ids,
            int q, int def, int di, const lo_rule *r, int *ord, lo_scratch *s)
{
	fallback(pr, ord, nc, in, ids, q, def, s);
	int best = best_head(pr, nc, ord, nc, in, ids, q, def, di, r, s);
	int j = ord[best];
	memmove(ord + 1, ord, (size_t)best * sizeof *ord);
	ord[0] = j;
	if (j != di && di >= 0 && ord[nc - 1] != di)
		die("lo_order: internal error: def not last");
}

void
lo_order(const tree_prob *pr, int m, const rr_input *in, const int *ids,
         int q, int def, const lo_rule *r, int *ord, lo_scratch *s)
{
	reserve(s, q, m);
	int di = start(pr, m, in, ids, q, def, s);
	int nd = fill(pr, m, in, ids, q, di, r, !r->exact, ord, 0, s);
	if (di >= 0 && !s->used[di])
		ord[nd++] = di;
	if (nd != m)
		die("lo_order: internal error: %d of %d classes ordered", nd, m);
	if (r->exact)
		exact_first(pr, m, in, ids, q, def, di, r, ord, s);
}

/* The pick's rule (leaforder.h lo_pick): the first-entry cost alone
 * (lambda 1) and the margin of `prefix` and `joint`, among the classes
 * measured on every input (offered). */
static const lo_rule pick_rule = {"pick", 1.0, LO_REST_HIT2, LO_PICK_MARGIN, 1, 1};

int
lo_pick(const tree_prob *lst, int nl, int nc, const rr_input *in,
        const int *ids, int q, int def, lo_scratch *s)
{
	if (q <= 0)
		return -1;
	reserve(s, q, nc);
	/* the candidates: the listed classes in list order, then the others
	 * (def among them) by class index; ord: the list's positions */
	int n = 0, di = -1;
	for (int c = 0; c < nc; c++)
		s->used[c] = 0;
	for (int j = 0; j < nl; j++) {
		s->cand[n] = lst[j];
		s->ord[n] = n;
		s->used[lst[j].cls] = 1;
		n++;
	}
	fallback(s->cand, s->ord, nl, in, ids, q, def, s);
	for (int c = 0; c < nc; c++)
		if (!s->used[c]) {
			s->cand[n] = (tree_prob){c, 0};
			s->ord[n] = n;
			n++;
		}
	for (int j = 0; j < n; j++)
		if (s->cand[j].cls == def)
			di = j;
	int b = best_head(s->cand, n, s->ord, n, in, ids, q, def, di, &pick_rule, s);
	return b >= 0 ? s->cand[b].cls : -1;
}
