/* truthhead.c — each leaf's head and pick set by the in-graph truth, and
 * leaves split where the truth's inputs disagree (see truthhead.h). */
#include "truthhead.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/featmap.h"
#include "formats/rules.h"
#include "core/util.h"

/* A truth split must leave this many inputs on each side and lower the
 * summed ln regret alone by at least SPLIT_MIN_GAIN (0.05: one input 5 %
 * faster; the truth's draws vary by 1-2 % per GEMM) and by SPLIT_MIN_MEAN
 * per input of the leaf (1 %: on a large truth, chance alone lowers the
 * sum by more than 0.05). */
#define SPLIT_MIN_SIDE 2
#define SPLIT_MIN_GAIN 0.05
#define SPLIT_MIN_MEAN 0.01

/* One truth input: its best time, each tree class's time (+inf: not
 * measured or failed) and its tree feature vector. */
typedef struct {
	double best;
	double *ms;   /* [t->n_class] */
	double *x;    /* [t->n_feat] */
} tin;

/* The state of one truth_heads call. */
typedef struct {
	tree *t;
	const tin *in;
	int ext;           /* extern_mm's class, -1: none */
	int max_depth;     /* levels of truth splits below a leaf */
	int *depth;        /* per node: tests from the root [cap_depth] */
	int cap_depth;
	tree_prob *r;      /* scratch: a ranked list [n_class] */
	double *sl, *sr;   /* scratch: per-class sums [n_class] */
	int *nl, *nr;      /* scratch: per-class unmeasured counts [n_class] */
	truth_count *out;
	FILE *log;
	double k1b, k1a, alb, ala;
	int counted;
} th_ctx;

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

/* ---- head and pick of one leaf ---------------------------------------- */

static void
set_head_pick(th_ctx *c, int leaf, const int *q, int nq, const char *name)
{
	tree *t = c->t;
	const tin *in = c->in;
	tree_prob *r = c->r;
	int ext = c->ext;
	int m = tree_ranked(t, leaf, r, t->n_class);
	/* the tree's own head and pick, per input */
	double hx = 0, h1 = 0, p1 = 0, px = 0;
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
		px += lnr(te < tp ? te : tp, v->best);
	}
	/* the best candidate, for head and pick alike: listed, measured on
	 * every input of q, lowest regret alone, ties by k = 1's */
	int bc = -1;
	double bx = INFINITY, b1 = INFINITY;
	const double eps = 1e-9 * nq;
	for (int j = 0; j < m; j++) {
		int k = r[j].cls;
		double sx = 0, s1 = 0;
		for (int u = 0; u < nq; u++) {
			sx += lnr(k1_ms(&in[q[u]], k, ext), in[q[u]].best);
			s1 += lnr(in[q[u]].ms[k], in[q[u]].best);
		}
		if (!isfinite(s1))
			continue;
		if (better(s1, sx, b1, bx, eps))
			bc = k, bx = sx, b1 = s1;
	}
	int new_head = bc >= 0 && better(b1, bx, h1, hx, eps);
	int new_pick = t->leaf_pick && bc >= 0 && bc != pk &&
	               better(b1, bx, p1, px, eps);
	if (new_head) {
		if (c->log)
			fprintf(c->log, "truth: %s (%d inputs): head %s -> %s "
			        "(regret alone %.4f -> %.4f, k = 1 %.4f -> %.4f)\n",
			        name, nq, t->cls[r[0].cls], t->cls[bc], exp(h1 / nq),
			        exp(b1 / nq), exp(hx / nq), exp(bx / nq));
		move_first(t, leaf, r, m, bc);
		c->out->heads++;
	}
	if (new_pick) {
		if (c->log)
			fprintf(c->log, "truth: %s (%d inputs): pick %s -> %s "
			        "(regret alone %.4f -> %.4f)\n", name, nq,
			        pk >= 0 ? t->cls[pk] : "(the list head)", t->cls[bc],
			        exp(p1 / nq), exp(b1 / nq));
		t->node[leaf].pick = bc;
		c->out->picks++;
	}
	/* the truth timed this leaf's candidates in the graph: autotuning
	 * more than the head (e's k = "auto") lets Inductor's clock, which
	 * disagrees with the graph, override it */
	if (t->topk_eps > 0 && t->node[leaf].top_k != 1) {
		if (c->log)
			fprintf(c->log, "truth: %s (%d inputs): top_k %d -> 1\n", name,
			        nq, t->node[leaf].top_k);
		t->node[leaf].top_k = 1;
		c->out->topks++;
	}
	/* the truth's inputs reached this leaf: its head, pick and k are the
	 * graph's (mmrank.inductor's k = 1 runs its pick alone) */
	t->node[leaf].truth = 1;
	/* a pick that is the list head follows a new head */
	int follows = !t->leaf_pick || pk < 0;
	c->k1b += hx, c->alb += p1;
	c->k1a += new_head ? bx : hx;
	c->ala += new_pick || (follows && new_head) ? b1 : p1;
	c->counted += nq;
}

/* ---- truth splits -------------------------------------------------------- */

/* A value of the feature being cut and its input, for sort_by. */
typedef struct {
	double x;
	int i;
} keyed;

static int
cmp_keyed(const void *a, const void *b)
{
	const keyed *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/* q sorted by feature f, ties by input index (deterministic); kb is
 * scratch of nq entries. */
static void
sort_by(const tin *in, int f, int *q, int nq, keyed *kb)
{
	for (int u = 0; u < nq; u++)
		kb[u].x = in[q[u]].x[f], kb[u].i = q[u];
	qsort(kb, (size_t)nq, sizeof *kb, cmp_keyed);
	for (int u = 0; u < nq; u++)
		q[u] = kb[u].i;
}

/* The smallest summed cost over the two sides of a cut: c->sl/nl the left
 * side's per-class sums and unmeasured counts, tot/ntot the leaf's. */
static double
sides_cost(const th_ctx *c, int m, const double *tot, const int *ntot)
{
	double bl = INFINITY, br = INFINITY;
	for (int j = 0; j < m; j++) {
		int k = c->r[j].cls;
		if (c->nl[k] == 0 && c->sl[k] < bl)
			bl = c->sl[k];
		if (ntot[k] - c->nl[k] == 0 && tot[k] - c->sl[k] < br)
			br = tot[k] - c->sl[k];
	}
	return bl + br;
}

/* The best cut of q (sorted by the feature it returns, -1: none that
 * gains enough): its threshold, left size and gain, and the leaf's cost
 * before (the lowest summed ln regret alone of a class it lists and every
 * input of q timed; +inf: none).  Per feature, the cuts between distinct
 * values; the gain is that cost less the two sides' (at least
 * SPLIT_MIN_GAIN and SPLIT_MIN_MEAN per input).  Ties go to the lower
 * feature index, then the lower cut. */
static int
best_cut(th_ctx *c, int m, int *q, int nq, double *thr, int *nleft,
         double *before, double *gain)
{
	const tree *t = c->t;
	double *tot = xcalloc((size_t)t->n_class + 1, sizeof *tot);
	int *ntot = xcalloc((size_t)t->n_class + 1, sizeof *ntot);
	for (int j = 0; j < m; j++) {
		int k = c->r[j].cls;
		for (int u = 0; u < nq; u++) {
			double l = lnr(c->in[q[u]].ms[k], c->in[q[u]].best);
			if (isfinite(l))
				tot[k] += l;
			else
				ntot[k]++;
		}
	}
	double base = INFINITY; /* the leaf's: its best class measured on all */
	for (int j = 0; j < m; j++)
		if (ntot[c->r[j].cls] == 0 && tot[c->r[j].cls] < base)
			base = tot[c->r[j].cls];
	*before = base;
	double need = SPLIT_MIN_MEAN * nq > SPLIT_MIN_GAIN ? SPLIT_MIN_MEAN * nq
	                                                   : SPLIT_MIN_GAIN;
	double top = -INFINITY;
	int bf = -1;
	keyed *kb = xmalloc(((size_t)nq + 1) * sizeof *kb);
	for (int f = 0; f < t->n_feat && isfinite(base); f++) {
		sort_by(c->in, f, q, nq, kb);
		for (int j = 0; j < m; j++)
			c->sl[c->r[j].cls] = 0, c->nl[c->r[j].cls] = 0;
		for (int i = 1; i < nq; i++) {
			const tin *v = &c->in[q[i - 1]];
			for (int j = 0; j < m; j++) {
				int k = c->r[j].cls;
				double l = lnr(v->ms[k], v->best);
				if (isfinite(l))
					c->sl[k] += l;
				else
					c->nl[k]++;
			}
			double a = v->x[f], b = c->in[q[i]].x[f];
			if (!(a < b) || i < SPLIT_MIN_SIDE || nq - i < SPLIT_MIN_SIDE)
				continue;
			double g = base - sides_cost(c, m, tot, ntot);
			if (g >= need - 1e-9 && g > top + 1e-9) {
				top = g, bf = f, *nleft = i, *gain = g;
				/* as cart.c: a midpoint that rounds onto b would send
				 * b's inputs left */
				*thr = a / 2.0 + b / 2.0;
				if (*thr == b || isinf(*thr))
					*thr = a;
			}
		}
	}
	if (bf >= 0)
		sort_by(c->in, bf, q, nq, kb);
	free(kb);
	free(tot);
	free(ntot);
	return bf;
}

/* Append a copy of leaf's record and pairs as a new node; its training
 * counts are 0 (prune does not see the training rows). */
static int
add_child(th_ctx *c, int leaf)
{
	tree *t = c->t;
	int id = t->n_node++;
	t->node = xrealloc(t->node, (size_t)t->n_node * sizeof *t->node);
	tree_node *d = &t->node[id];
	*d = t->node[leaf];
	d->n_samples = 0;
	d->weighted_n = 0;
	d->prob_off = t->n_prob;
	t->n_prob += d->prob_len;
	t->prob = xrealloc(t->prob, ((size_t)t->n_prob + 1) * sizeof *t->prob);
	memcpy(t->prob + d->prob_off, t->prob + t->node[leaf].prob_off,
	       (size_t)d->prob_len * sizeof *t->prob);
	if (id >= c->cap_depth) {
		c->cap_depth = 2 * id + 2;
		c->depth = xrealloc(c->depth, (size_t)c->cap_depth * sizeof *c->depth);
	}
	c->depth[id] = c->depth[leaf] + 1;
	return id;
}

/* Leaves a and b list the same classes in the same order, with the same
 * pick and top_k. */
static int
same_leaf(const tree *t, int a, int b)
{
	const tree_node *x = &t->node[a], *y = &t->node[b];
	if (x->feature >= 0 || y->feature >= 0 || x->prob_len != y->prob_len ||
	    x->pick != y->pick || x->top_k != y->top_k)
		return 0;
	for (int j = 0; j < x->prob_len; j++) {
		const tree_prob *p = &t->prob[x->prob_off + j];
		const tree_prob *r = &t->prob[y->prob_off + j];
		if (p->cls != r->cls || p->p != r->p)
			return 0;
	}
	return 1;
}

/* Split leaf where its truth inputs q disagree, up to level c->max_depth,
 * then set each resulting leaf's head and pick. */
static void
grow(th_ctx *c, int leaf, int *q, int nq, int level, const char *name)
{
	tree *t = c->t;
	int m = tree_ranked(t, leaf, c->r, t->n_class);
	int f = -1, nleft = 0;
	double thr = 0, before = 0, gain = 0;
	if (level < c->max_depth && c->depth[leaf] < TREE_MAX_DEPTH &&
	    nq >= 2 * SPLIT_MIN_SIDE)
		f = best_cut(c, m, q, nq, &thr, &nleft, &before, &gain);
	if (f < 0) {
		set_head_pick(c, leaf, q, nq, name);
		return;
	}
	if (c->log)
		fprintf(c->log, "truth: %s (%d inputs): split at %s <= %.17g (%d | %d "
		        "inputs): the best class alone %.4f -> %.4f\n", name, nq,
		        t->feat[f], thr, nleft, nq - nleft, exp(before / nq),
		        exp((before - gain) / nq));
	c->out->splits++;
	int a = add_child(c, leaf), b = add_child(c, leaf);
	tree_node *d = &t->node[leaf];
	d->feature = f;
	d->threshold = thr;
	d->left = a;
	d->right = b;
	d->truth = 0;   /* the mark is a leaf's */
	char *sub = xmalloc(strlen(name) + strlen(t->feat[f]) + 64);
	sprintf(sub, "%s, %s <= %.6g", name, t->feat[f], thr);
	grow(c, a, q, nleft, level + 1, sub);
	truth_count mid = *c->out;
	sprintf(sub, "%s, %s > %.6g", name, t->feat[f], thr);
	grow(c, b, q + nleft, nq - nleft, level + 1, sub);
	free(sub);
	if (same_leaf(t, a, b)) {
		/* the gain counted only classes every input timed, and each
		 * side already ran its own through the list: undo, keeping
		 * what both sides changed, counted once */
		if (c->log)
			fprintf(c->log, "truth: %s: split undone: both sides run the "
			        "same\n", name);
		d = &t->node[leaf];
		tree_node *ch = &t->node[a];
		memcpy(t->prob + d->prob_off, t->prob + ch->prob_off,
		       (size_t)d->prob_len * sizeof *t->prob);
		d->feature = -1;
		d->threshold = -2;
		d->left = d->right = -1;
		d->pick = ch->pick;
		d->top_k = ch->top_k;
		d->truth = ch->truth;
		t->n_prob -= 2 * d->prob_len;
		t->n_node -= 2;
		c->out->splits--;
		c->out->heads -= c->out->heads - mid.heads;
		c->out->picks -= c->out->picks - mid.picks;
		c->out->topks -= c->out->topks - mid.topks;
	}
}

/* Renumber t's nodes in depth-first pre-order (the format's order). */
static void
preorder(tree *t)
{
	int n = t->n_node, k = 0, sp = 0;
	int *stack = xmalloc((size_t)n * sizeof *stack);
	int *order = xmalloc((size_t)n * sizeof *order);
	int *id = xmalloc((size_t)n * sizeof *id);
	stack[sp++] = 0;
	while (sp > 0) {
		int i = stack[--sp];
		id[i] = k;
		order[k++] = i;
		if (t->node[i].left >= 0) {
			stack[sp++] = t->node[i].right;
			stack[sp++] = t->node[i].left;
		}
	}
	tree_node *nn = xmalloc((size_t)n * sizeof *nn);
	for (int j = 0; j < n; j++) {
		nn[j] = t->node[order[j]];
		if (nn[j].left >= 0) {
			nn[j].left = id[nn[j].left];
			nn[j].right = id[nn[j].right];
		}
	}
	free(t->node);
	t->node = nn;
	free(stack);
	free(order);
	free(id);
}

void
truth_heads(tree *t, const char *tname, const featset *fs, const char *sname,
            int max_depth, truth_count *out, FILE *log)
{
	memset(out, 0, sizeof *out);
	th_ctx c = {.t = t, .max_depth = max_depth, .out = out, .log = log};
	featmap *fm = featmap_new(t, fs, tname, sname);
	c.ext = class_index(t, DEFAULT_CHOICE);
	int *cix = xmalloc(((size_t)fs->n_choices + 1) * sizeof *cix);
	for (int j = 0; j < fs->n_choices; j++)
		cix[j] = class_index(t, fs->choices[j]);
	tin *in = xcalloc((size_t)fs->n_inputs + 1, sizeof *in);
	int *leaf_of = xmalloc(((size_t)fs->n_inputs + 1) * sizeof *leaf_of);
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
		tin *v = &in[n];
		v->x = xmalloc(((size_t)t->n_feat + 1) * sizeof *v->x);
		featmap_x(fm, t, fs, i, v->x);
		leaf_of[n++] = tree_apply(t, v->x);
		v->best = best;
		v->ms = xmalloc(((size_t)t->n_class + 1) * sizeof *v->ms);
		for (int k = 0; k < t->n_class; k++)
			v->ms[k] = INFINITY;
		for (int r = fs->first[i]; r < fs->first[i + 1]; r++)
			if (cix[fs->choice[r]] >= 0 && fs->ms[r] < v->ms[cix[fs->choice[r]]])
				v->ms[cix[fs->choice[r]]] = fs->ms[r];
	}
	out->inputs = n;
	c.in = in;
	c.r = xmalloc(((size_t)t->n_class + 1) * sizeof *c.r);
	c.sl = xmalloc(((size_t)t->n_class + 1) * sizeof *c.sl);
	c.nl = xmalloc(((size_t)t->n_class + 1) * sizeof *c.nl);
	c.cap_depth = t->n_node;
	c.depth = xcalloc((size_t)c.cap_depth + 1, sizeof *c.depth);
	for (int i = 0; i < t->n_node; i++)  /* parents precede children */
		if (t->node[i].left >= 0)
			c.depth[t->node[i].left] = c.depth[t->node[i].right] =
				c.depth[i] + 1;
	int *q = xmalloc(((size_t)n + 1) * sizeof *q);
	int n_orig = t->n_node;
	char *done = xcalloc((size_t)n_orig + 1, 1);
	char name[32];
	for (int a = 0; a < n; a++) {
		int leaf = leaf_of[a], nq = 0;
		if (done[leaf])
			continue;
		done[leaf] = 1;
		int m = tree_ranked(t, leaf, c.r, t->n_class), nu = 0;
		for (int b = a; b < n; b++) {
			if (leaf_of[b] != leaf)
				continue;
			if (m == 0)
				out->unsafe++; /* an unsafe leaf: Inductor's own run */
			else if (first_measured(c.r, m, &in[b]) < 0)
				nu++;          /* nothing the leaf lists was timed */
			else
				q[nq++] = b;
		}
		out->unlisted += nu;
		if (nq == 0)
			continue;
		out->leaves++;
		snprintf(name, sizeof name, "leaf %d", leaf);
		grow(&c, leaf, q, nq, 0, name);
	}
	if (out->splits)
		preorder(t);
	if (out->leaves)
		t->truth = 1;   /* param truth: the nodes carry their marks */
	out->k1_before = c.counted ? exp(c.k1b / c.counted) : 1;
	out->k1_after = c.counted ? exp(c.k1a / c.counted) : 1;
	out->alone_before = c.counted ? exp(c.alb / c.counted) : 1;
	out->alone_after = c.counted ? exp(c.ala / c.counted) : 1;
	for (int a = 0; a < n; a++) {
		free(in[a].ms);
		free(in[a].x);
	}
	free(done);
	free(q);
	free(c.r);
	free(c.sl);
	free(c.nl);
	free(c.depth);
	free(leaf_of);
	free(in);
	free(cix);
	free(fm);
}
