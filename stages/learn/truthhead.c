/* truthhead.c — each leaf's head and pick set by the in-graph truth (see
 * truthhead.h). */
#include "truthhead.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/featmap.h"
#include "formats/rules.h"
#include "core/util.h"

/* One truth input: its leaf, best time and each tree class's time (+inf:
 * not measured or failed). */
typedef struct {
	int leaf;
	double best;
	double *ms;   /* [t->n_class] */
} tin;

static int
class_index(const tree *t, const char *id)
{
	int lo = 0, hi = t->n_class - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(id, t->cls[mid]);
		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* ln(t / best), +inf for an unmeasured t (a difference of logs: the
 * ratio of two extreme times may overflow). */
static double
lnr(double t, double best)
{
	return isfinite(t) ? log(t) - log(best) : INFINITY;
}

/* k = 1's time for class c: the faster of c and extern_mm. */
static double
k1_ms(const tin *in, int c, int ext)
{
	double t = in->ms[c], e = ext >= 0 ? in->ms[ext] : INFINITY;
	return e < t ? e : t;
}

/* (a1, a2) below (b1, b2) in lexicographic order, each by more than eps. */
static int
better(double a1, double a2, double b1, double b2, double eps)
{
	return a1 < b1 - eps || (a1 <= b1 + eps && a2 < b2 - eps);
}

/* The first class of the ranked list r[0..m) measured for in (-1: none). */
static int
first_measured(const tree_prob *r, int m, const tin *in)
{
	for (int j = 0; j < m; j++)
		if (isfinite(in->ms[r[j].cls]))
			return r[j].cls;
	return -1;
}

/* Rewrite leaf's pairs: c first, the others in ranked order r[0..m), p =
 * rank weights (m - rank) / (m (m + 1) / 2), summing to 1 as the format
 * wants; stored in ascending class order. */
static void
move_first(tree *t, int leaf, const tree_prob *r, int m, int c)
{
	tree_node *d = &t->node[leaf];
	tree_prob *p = t->prob + d->prob_off;
	int pos = 1;
	double sum = (double)m * (m + 1) / 2;
	for (int j = 0; j < m; j++) {
		int rank = r[j].cls == c ? 0 : pos++;
		for (int q = 0; q < d->prob_len; q++)
			if (p[q].cls == r[j].cls)
				p[q].p = (m - rank) / sum;
	}
}

void
truth_heads(tree *t, const char *tname, const featset *fs, const char *sname,
            truth_count *out, FILE *log)
{
	memset(out, 0, sizeof *out);
	featmap *fm = featmap_new(t, fs, tname, sname);
	int ext = class_index(t, DEFAULT_CHOICE);
	int *cix = xmalloc(((size_t)fs->n_choices + 1) * sizeof *cix);
	for (int j = 0; j < fs->n_choices; j++)
		cix[j] = class_index(t, fs->choices[j]);
	tin *in = xcalloc((size_t)fs->n_inputs + 1, sizeof *in);
	double *x = xmalloc(((size_t)t->n_feat + 1) * sizeof *x);
	int n = 0;
	for (int i = 0; i < fs->n_inputs; i++) {
		double best = INFINITY;
		for (int r = fs->first[i]; r < fs->first[i + 1]; r++)
			if (fs->ms[r] < best)
				best = fs->ms[r];
		if (!isfinite(best)) {
			out->skipped++;
			continue;
		}
		tin *v = &in[n++];
		featmap_x(fm, t, fs, i, x);
		v->leaf = tree_apply(t, x);
		v->best = best;
		v->ms = xmalloc(((size_t)t->n_class + 1) * sizeof *v->ms);
		for (int c = 0; c < t->n_class; c++)
			v->ms[c] = INFINITY;
		for (int r = fs->first[i]; r < fs->first[i + 1]; r++)
			if (cix[fs->choice[r]] >= 0 && fs->ms[r] < v->ms[cix[fs->choice[r]]])
				v->ms[cix[fs->choice[r]]] = fs->ms[r];
	}
	out->inputs = n;
	tree_prob *r = xmalloc(((size_t)t->n_class + 1) * sizeof *r);
	int *q = xmalloc(((size_t)n + 1) * sizeof *q);
	double k1b = 0, k1a = 0, alb = 0, ala = 0;
	int counted = 0;
	char *done = xcalloc((size_t)t->n_node + 1, 1);
	for (int a = 0; a < n; a++) {
		int leaf = in[a].leaf, nq = 0;
		if (done[leaf])
			continue;
		done[leaf] = 1;
		for (int b = a; b < n; b++)
			if (in[b].leaf == leaf)
				q[nq++] = b;
		int m = tree_ranked(t, leaf, r, t->n_class);
		if (m == 0) { /* an unsafe leaf: Inductor's own choices run */
			out->unsafe += nq;
			continue;
		}
		out->leaves++;
		/* the tree's own head and pick, per input */
		double hx = 0, h1 = 0, p1 = 0;
		int pk = t->leaf_pick ? t->node[leaf].pick : -1;
		for (int j = 0; j < nq; j++) {
			const tin *v = &in[q[j]];
			int h = first_measured(r, m, v);
			double th = h >= 0 ? v->ms[h] : INFINITY;
			double te = ext >= 0 ? v->ms[ext] : INFINITY;
			double tp = pk >= 0 && isfinite(v->ms[pk]) ? v->ms[pk] : th;
			hx += lnr(te < th ? te : th, v->best);
			h1 += lnr(th, v->best);
			p1 += lnr(tp, v->best);
		}
		/* the candidates: listed, measured on every input of q */
		int bh = -1, bp = -1;
		double bhx = INFINITY, bh1 = INFINITY, bpx = INFINITY, bp1 = INFINITY;
		const double eps = 1e-9 * nq;
		for (int j = 0; j < m; j++) {
			int c = r[j].cls;
			double sx = 0, s1 = 0;
			for (int u = 0; u < nq; u++) {
				sx += lnr(k1_ms(&in[q[u]], c, ext), in[q[u]].best);
				s1 += lnr(in[q[u]].ms[c], in[q[u]].best);
			}
			if (!isfinite(s1))
				continue;
			if (better(sx, s1, bhx, bh1, eps))
				bh = c, bhx = sx, bh1 = s1;
			if (better(s1, sx, bp1, bpx, eps))
				bp = c, bpx = sx, bp1 = s1;
		}
		int new_head = bh >= 0 && better(bhx, bh1, hx, h1, eps);
		int new_pick = t->leaf_pick && bp >= 0 && bp1 < p1 - eps;
		if (new_head) {
			if (log)
				fprintf(log, "truth: leaf %d (%d inputs): head %s -> %s "
				        "(k = 1 regret %.4f -> %.4f)\n", leaf, nq,
				        t->cls[r[0].cls], t->cls[bh],
				        exp(hx / nq), exp(bhx / nq));
			move_first(t, leaf, r, m, bh);
			out->heads++;
		}
		if (new_pick) {
			if (log)
				fprintf(log, "truth: leaf %d (%d inputs): pick %s -> %s "
				        "(regret alone %.4f -> %.4f)\n", leaf, nq,
				        pk >= 0 ? t->cls[pk] : "(the list head)", t->cls[bp],
				        exp(p1 / nq), exp(bp1 / nq));
			t->node[leaf].pick = bp;
			out->picks++;
		}
		/* a pick that is the list head follows a new head */
		int follows = !t->leaf_pick || pk < 0;
		k1b += hx, alb += p1;
		k1a += new_head ? bhx : hx;
		ala += new_pick ? bp1 : follows && new_head ? bh1 : p1;
		counted += nq;
	}
	out->k1_before = counted ? exp(k1b / counted) : 1;
	out->k1_after = counted ? exp(k1a / counted) : 1;
	out->alone_before = counted ? exp(alb / counted) : 1;
	out->alone_after = counted ? exp(ala / counted) : 1;
	for (int a = 0; a < n; a++)
		free(in[a].ms);
	free(done);
	free(q);
	free(r);
	free(x);
	free(in);
	free(cix);
	free(fm);
}
