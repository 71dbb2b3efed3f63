/* rerank.c — re-order every tree node's class list for the top-k metrics
 * (see rerank.h; spec §5.9, §6.1, §7.3). */
#include "rerank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "leaforder.h"
#include "formats/rules.h"
#include "core/util.h"

#define LO_NAME(name, ...) name,
const char *const rr_mode_names[] = {"freq", "greedy", LO_RULES(LO_NAME) NULL};
#undef LO_NAME

/* Per node: the inputs that reach it, as a CSR list. */
typedef struct {
	int *off;   /* [n_node + 1] */
	int *idx;   /* [sum of path lengths] input indices */
} routes;

static int
child(const tree *t, int node, const double *x)
{
	const tree_node *d = &t->node[node];
	return x[d->feature] <= d->threshold ? d->left : d->right;
}

static void
route(routes *r, const tree *t, const rr_input *in, int n)
{
	r->off = xcalloc((size_t)t->n_node + 2, sizeof *r->off);
	size_t total = 0;
	for (int i = 0; i < n; i++)
		for (int v = 0; v >= 0; v = t->node[v].feature < 0 ? -1 :
		                            child(t, v, in[i].x)) {
			r->off[v + 1]++;
			total++;
		}
	for (int v = 0; v < t->n_node; v++)
		r->off[v + 1] += r->off[v];
	int *fill = xmalloc(((size_t)t->n_node + 1) * sizeof *fill);
	memcpy(fill, r->off, (size_t)t->n_node * sizeof *fill);
	r->idx = xmalloc((total + 1) * sizeof *r->idx);
	for (int i = 0; i < n; i++)
		for (int v = 0; v >= 0; v = t->node[v].feature < 0 ? -1 :
		                            child(t, v, in[i].x))
			r->idx[fill[v]++] = i;
	free(fill);
}

/* log regret of a listed time tm for an input whose best time is best
 * (capped at RR_REGRET_CAP; NAN/inf/unlisted = the cap). */
static double
log_regret(double tm, double best)
{
	double r = regret(tm, best);
	if (!(r < RR_REGRET_CAP))
		r = RR_REGRET_CAP;
	return log(r < 1.0 ? 1.0 : r);
}

/* Scratch of an order function: room for every class and input. */
typedef struct {
	double *lr;     /* [inputs] */
	double *wins;   /* [classes] */
	char *used;     /* [classes] */
	const lo_rule *rule; /* RR_PREFIX modes */
	lo_scratch lo;
} scratch;

/* An order: the m classes pr[0..m) of a node reached by the q training
 * inputs in[ids[0..q)] (q >= 1) into ord[0..m) (positions into pr), def
 * (a class, or -1) last if listed, or first (prefix, leaforder.h). */
typedef void order_fn(const tree_prob *pr, int m, const rr_input *in,
                      const int *ids, int q, int def, int *ord, scratch *s);

/* RR_PREFIX + i (leaforder.h). */
static void
prefix(const tree_prob *pr, int m, const rr_input *in, const int *ids, int q,
       int def, int *ord, scratch *s)
{
	lo_order(pr, m, in, ids, q, def, s->rule, ord, &s->lo);
}

/* RR_GREEDY (rerank.h). */
static void
greedy(const tree_prob *pr, int m, const rr_input *in, const int *ids, int q,
       int def, int *ord, scratch *s)
{
	double *lr = s->lr, *wins = s->wins;
	char *used = s->used;
	int nd = 0, di = -1;
	/* log regret of every (class, input), once (L[j * q + a]), and the
	 * inputs' weights in a row: the loops below read them in order */
	double *L = xmalloc(((size_t)q * m + 1) * sizeof *L);
	double *wt = xmalloc(((size_t)q + 1) * sizeof *wt);
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		wt[a] = x->weight;
		for (int j = 0; j < m; j++)
			L[(size_t)j * q + a] = log_regret(x->time[pr[j].cls], x->time[x->winner]);
	}
	for (int j = 0; j < m; j++) {
		wins[j] = 0;
		used[j] = 0;
		if (pr[j].cls == def)
			di = j;
	}
	for (int a = 0; a < q; a++) {
		const rr_input *x = &in[ids[a]];
		double best = x->time[x->winner];
		lr[a] = def >= 0 ? log_regret(x->time[def], best) : log(RR_REGRET_CAP);
		for (int j = 0; j < m; j++)
			if (pr[j].cls == x->winner && j != di) {
				wins[j] += x->weight;
				break;
			}
	}
	if (di >= 0)
		used[di] = 1;
	for (;;) {
		/* best win count among the classes left */
		int cand = -1;
		double bw = -1;
		for (int j = 0; j < m; j++)
			if (!used[j] && wins[j] > bw + 1e-9) {
				bw = wins[j];
				cand = j;
			}
		if (cand < 0)
			break;
		/* ties on wins: the largest regret decrease, then p, then index
		 * (a class without a tie is taken as it is) */
		int pick = -1, nties = 0;
		double bg = -1;
		for (int j = 0; j < m && nties < 2; j++)
			nties += !used[j] && wins[j] >= bw - 1e-9;
		for (int j = 0; j < m; j++) {
			if (used[j] || wins[j] < bw - 1e-9)
				continue;
			if (nties == 1) {
				pick = j;
				break;
			}
			double g = 0;
			const double *Lj = L + (size_t)j * q;
			for (int a = 0; a < q; a++) {
				double l = Lj[a];
				if (l < lr[a])
					g += wt[a] * (lr[a] - l);
			}
			if (pick < 0 || g > bg + 1e-9 ||
			    (g >= bg - 1e-9 && pr[j].p > pr[pick].p)) {
				pick = j;
				bg = g;
			}
		}
		used[pick] = 1;
		ord[nd++] = pick;
		const double *Lp = L + (size_t)pick * q;
		for (int a = 0; a < q; a++)
			if (Lp[a] < lr[a])
				lr[a] = Lp[a];
	}
	if (di >= 0)
		ord[nd++] = di;
	free(wt);
	free(L);
}

static int
cmp_freq(const void *a, const void *b)
{
	const tree_prob *x = a, *y = b;
	if (x->p != y->p)
		return x->p > y->p ? -1 : 1;
	return (x->cls > y->cls) - (x->cls < y->cls);
}

static int
cmp_cls(const void *a, const void *b)
{
	const tree_prob *x = a, *y = b;
	return (x->cls > y->cls) - (x->cls < y->cls);
}

/* The m pairs at pr in the reference order (p descending, then class). */
static int
freq_order(const tree_prob *pr, int m, tree_prob *out)
{
	memcpy(out, pr, (size_t)m * sizeof *out);
	qsort(out, (size_t)m, sizeof *out, cmp_freq);
	return m;
}

/* The fill order (rerank.h, fit --leaf-fill): every class but def with a
 * finite time on at least one of in[0..n), by ascending weighted mean log
 * regret over the inputs that measured it (+inf: the cap), ties by the
 * lower class index, into fill[]; returns how many. */
static int
fill_order(const rr_input *in, int n, int nc, int def, int *fill)
{
	double *sum = xcalloc((size_t)nc + 1, sizeof *sum);
	double *wt = xcalloc((size_t)nc + 1, sizeof *wt);
	char *fin = xcalloc((size_t)nc + 1, 1);
	for (int i = 0; i < n; i++) {
		double best = in[i].time[in[i].winner];
		for (int c = 0; c < nc; c++) {
			double tm = in[i].time[c];
			if (isnan(tm))
				continue;
			sum[c] += in[i].weight * log_regret(tm, best);
			wt[c] += in[i].weight;
			fin[c] |= isfinite(tm);
		}
	}
	int nf = 0;
	for (int c = 0; c < nc; c++) {
		if (!fin[c] || c == def)
			continue;
		double mc = sum[c] / wt[c];
		int j = nf++;
		/* insertion: after every class with a smaller or equal mean (a
		 * lower index, as c ascends) */
		for (; j > 0 && sum[fill[j - 1]] / wt[fill[j - 1]] > mc; j--)
			fill[j] = fill[j - 1];
		fill[j] = c;
	}
	free(fin);
	free(wt);
	free(sum);
	return nf;
}

void
rerank(tree *t, const rr_input *in, int n, int mode, int def, int leaves_only,
       int pad, int fill)
{
	static order_fn *const orders[] = {[RR_FREQ] = NULL, [RR_GREEDY] = greedy};
	if (mode < 0 || mode >= RR_PREFIX + n_lo_rules)
		die("rerank: mode %d unknown", mode);
	order_fn *order = mode >= RR_PREFIX ? prefix : orders[mode];
	if (!order || t->n_node == 0)
		return;
	if (def >= t->n_class)
		die("rerank: default class %d out of range (%d classes)", def,
		    t->n_class);
	for (int i = 0; i < n; i++)
		if (in[i].winner < 0 || in[i].winner >= t->n_class ||
		    !isfinite(in[i].time[in[i].winner]) || !(in[i].weight > 0))
			die("rerank: input %d: winner %d invalid or without a finite "
			    "time, or weight <= 0", i, in[i].winner);
	routes r;
	route(&r, t, in, n);
	int nc = t->n_class;
	int *ord = xmalloc(((size_t)nc + 1) * sizeof *ord);
	scratch sc = {xmalloc(((size_t)n + 1) * sizeof *sc.lr),
	              xmalloc(((size_t)nc + 1) * sizeof *sc.wins),
	              xmalloc((size_t)nc + 1),
	              mode >= RR_PREFIX ? &lo_rules[mode - RR_PREFIX] : NULL, {0}};
	tree_prob *tmp = xmalloc(((size_t)nc + 1) * sizeof *tmp);
	tree_prob *lst = xmalloc(((size_t)nc + 1) * sizeof *lst);
	char *mark = xcalloc((size_t)nc + 1, 1);
	/* parents, and every node's original list (t->prob is replaced only
	 * at the end) for the padding */
	int *parent = xmalloc(((size_t)t->n_node + 1) * sizeof *parent);
	int *ooff = xmalloc(((size_t)t->n_node + 1) * sizeof *ooff);
	int *olen = xmalloc(((size_t)t->n_node + 1) * sizeof *olen);
	for (int v = 0; v < t->n_node; v++) {
		parent[v] = -1;
		ooff[v] = t->node[v].prob_off;
		olen[v] = t->node[v].prob_len;
	}
	for (int v = 0; v < t->n_node; v++)
		if (t->node[v].feature >= 0) {
			parent[t->node[v].left] = v;
			parent[t->node[v].right] = v;
		}
	/* the fill order, once: it does not depend on the node */
	int *forder = xmalloc(((size_t)nc + 1) * sizeof *forder);
	int nfill = fill ? fill_order(in, n, nc, def, forder) : 0;
	/* the re-ranked lists go to a new prob array */
	size_t cap = (size_t)t->n_prob + 1, np = 0;
	tree_prob *out = xmalloc(cap * sizeof *out);
	for (int v = 0; v < t->n_node; v++) {
		tree_node *d = &t->node[v];
		const tree_prob *pr = t->prob + d->prob_off;
		int m = d->prob_len, q = r.off[v + 1] - r.off[v], nl = 0;
		d->pick = -1;
		if (m == 0 || (leaves_only && d->feature >= 0)) {
			xgrow((void **)&out, &cap, np + (size_t)m + 1, sizeof *out);
			memcpy(out + np, pr, (size_t)m * sizeof *out);
			d->prob_off = (int)np;
			np += (size_t)m;
			continue;
		}
		int def_first = 0; /* the order put def first (or def is the node's only
		                      class): it stays there, before any padded or
		                      filled class */
		if (q > 0) {
			order(pr, m, in, r.idx + r.off[v], q, def, ord, &sc);
			def_first = m >= 1 && def >= 0 && pr[ord[0]].cls == def;
			for (int j = 0; j < m; j++)
				if (pr[ord[j]].cls != def || def_first)
					lst[nl++] = pr[ord[j]];
		} else {
			freq_order(pr, m, tmp); /* no inputs: reference order */
			for (int j = 0; j < m; j++)
				if (tmp[j].cls != def)
					lst[nl++] = tmp[j];
		}
		for (int j = 0; j < nl; j++)
			mark[lst[j].cls] = 1;
		/* then up to pad classes of the ancestors (parent first), each
		 * ancestor's in its original (frequency) order */
		for (int u = parent[v], added = 0; u >= 0 && added < pad; u = parent[u]) {
			int nu = freq_order(t->prob + ooff[u], olen[u], tmp);
			for (int j = 0; j < nu && added < pad; j++)
				if (tmp[j].cls != def && !mark[tmp[j].cls]) {
					mark[tmp[j].cls] = 1;
					lst[nl++] = tmp[j];
					added++;
				}
		}
		/* then every class of the fill order the list lacks (p: the rank
		 * weight below) */
		for (int j = 0; j < nfill; j++)
			if (!mark[forder[j]])
				lst[nl++] = (tree_prob){forder[j], 0};
		for (int j = 0; j < nl; j++)
			mark[lst[j].cls] = 0;
		for (int j = 0; j < m && !def_first; j++)
			if (pr[j].cls == def)
				lst[nl++] = pr[j];
		/* the RR_PREFIX modes: the pick, decoupled from the head */
		if (sc.rule)
			d->pick = lo_pick(lst, nl, nc, in, r.idx + r.off[v], q, def, &sc.lo);
		/* rank weights (nl - j) / (nl (nl + 1) / 2), stored in ascending
		 * class order */
		double den = 0.5 * (double)nl * (double)(nl + 1);
		for (int j = 0; j < nl; j++)
			lst[j].p = (double)(nl - j) / den;
		qsort(lst, (size_t)nl, sizeof *lst, cmp_cls);
		xgrow((void **)&out, &cap, np + (size_t)nl + 1, sizeof *out);
		memcpy(out + np, lst, (size_t)nl * sizeof *out);
		d->prob_off = (int)np;
		d->prob_len = nl;
		np += (size_t)nl;
	}
	free(t->prob);
	t->prob = out;
	t->n_prob = (int)np;
	if (pad > t->leaf_pad)
		t->leaf_pad = pad;
	if (fill)
		t->leaf_fill = 1;
	if (sc.rule)
		t->leaf_pick = 1;
	free(forder);
	free(olen);
	free(ooff);
	free(parent);
	free(mark);
	free(lst);
	free(tmp);
	lo_scratch_free(&sc.lo);
	free(sc.lr);
	free(sc.used);
	free(sc.wins);
	free(ord);
	free(r.idx);
	free(r.off);
}
