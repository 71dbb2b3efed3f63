/* cart.c — weighted CART classifier; see cart.h for the semantics
 * (spec §5.4 and the scikit-learn facts it lists). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cart.h"
#include "util.h"

struct cart_sorted {
	int n_rows, n_feat;
	double *v;  /* [n_feat * n_rows]: feature f's values ascending */
	int *r;     /* [n_feat * n_rows]: the matching row ids (ties: row order) */
};

/* Order-preserving map of a double onto uint64 (IEEE bits; negatives
 * flipped).  -0.0 sorts just before +0.0; they compare equal as doubles and
 * are never separated by a threshold. */
static uint64_t
sort_key(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return (u >> 63) ? ~u : (u | (UINT64_C(1) << 63));
}

cart_sorted *
cart_presort(const cart_data *d)
{
	int n = d->n_rows, nf = d->n_feat;
	if (n < 1 || nf < 1 || d->n_class < 1)
		die("cart: empty training data (%d rows, %d features, %d classes)",
		    n, nf, d->n_class);
	for (int i = 0; i < n; i++) {
		if (d->y[i] < 0 || d->y[i] >= d->n_class)
			die("cart: row %d: label %d out of range [0, %d)", i, d->y[i],
			    d->n_class);
		if (d->w && !(d->w[i] > 0 && isfinite(d->w[i])))
			die("cart: row %d: sample weight %.17g is not finite > 0", i,
			    d->w[i]);
		for (int f = 0; f < nf; f++)
			if (isnan(d->x[(size_t)i * nf + f]))
				die("cart: row %d: feature %d is NaN", i, f);
	}
	cart_sorted *s = xmalloc(sizeof *s);
	s->n_rows = n;
	s->n_feat = nf;
	s->v = xmalloc((size_t)n * nf * sizeof *s->v);
	s->r = xmalloc((size_t)n * nf * sizeof *s->r);
	uint64_t *key = xmalloc((size_t)n * sizeof *key);
	uint64_t *key2 = xmalloc((size_t)n * sizeof *key2);
	int *idx2 = xmalloc((size_t)n * sizeof *idx2);
	size_t *cnt = xmalloc(65536 * sizeof *cnt);
	for (int f = 0; f < nf; f++) {
		int *idx = s->r + (size_t)f * n;
		for (int i = 0; i < n; i++) {
			idx[i] = i;
			key[i] = sort_key(d->x[(size_t)i * nf + f]);
		}
		/* LSD radix sort, 16-bit digits; stable, so equal keys keep row
		 * order.  Passes whose digit is constant are skipped. */
		for (int sh = 0; sh < 64; sh += 16) {
			memset(cnt, 0, 65536 * sizeof *cnt);
			for (int i = 0; i < n; i++)
				cnt[(key[i] >> sh) & 0xffff]++;
			if (cnt[(key[0] >> sh) & 0xffff] == (size_t)n)
				continue;
			size_t sum = 0;
			for (int b = 0; b < 65536; b++) {
				size_t c = cnt[b];
				cnt[b] = sum;
				sum += c;
			}
			for (int i = 0; i < n; i++) {
				size_t p = cnt[(key[i] >> sh) & 0xffff]++;
				key2[p] = key[i];
				idx2[p] = idx[i];
			}
			memcpy(key, key2, (size_t)n * sizeof *key);
			memcpy(idx, idx2, (size_t)n * sizeof *idx);
		}
		double *v = s->v + (size_t)f * n;
		for (int i = 0; i < n; i++)
			v[i] = d->x[(size_t)idx[i] * nf + f];
	}
	free(cnt);
	free(idx2);
	free(key2);
	free(key);
	return s;
}

void
cart_sorted_free(cart_sorted *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->r);
	free(s);
}

int
cart_min_leaf(double msl, int n_rows)
{
	if (msl >= 1)
		return (int)msl;
	return (int)ceil(msl * (double)n_rows);
}

static double
xlogx(double c)
{
	return c > 0 ? c * log(c) : 0.0;
}

typedef struct {
	int s, e;       /* rows [s, e) of every feature's list */
	int depth;
	int parent;     /* node id, -1 for the root */
	int right;      /* 1: this is the parent's right child */
} frame;

/* Working state of one fit. */
typedef struct {
	const cart_data *d;
	int n, nf, nc, crit, msl;
	double *v;      /* [nf * n] per-feature sorted values, partitioned per node */
	int *r;         /* [nf * n] row ids, same layout */
	double *tv;     /* [n] partition scratch */
	int *tr;
	unsigned char *left; /* [n] per row: goes left at the current split */
	double *cw;     /* [nc] node: weighted class sums */
	int *cnt;       /* [nc] node: row counts per class */
	double *cl;     /* [nc] scan: left weighted class sums */
	int *cntl;      /* [nc] scan: left row counts */
	double *tl, *trm; /* [nc] scan: cached per-class terms left / right */
	int *dirty;     /* [nc] classes touched since the last evaluation */
	unsigned char *isdirty;
} fitter;

static double
term(int crit, double c)
{
	return crit == CART_ENTROPY ? xlogx(c) : c * c;
}

/* Best split of rows [s, e) (node weight W).  Returns 1 and sets *bf (feature),
 * *bi (last left position) and *bt (threshold), or 0 if no valid split. */
static int
best_split(fitter *F, int s, int e, double W, int *bf, int *bi, double *bt)
{
	const int *y = F->d->y;
	const double *w = F->d->w;
	int n = F->n, nc = F->nc, crit = F->crit, msl = F->msl;
	int found = 0;
	double best = 0, tol = 1e-12 * W;

	for (int f = 0; f < F->nf; f++) {
		const double *V = F->v + (size_t)f * n;
		const int *R = F->r + (size_t)f * n;
		if (!(V[s] < V[e - 1]))
			continue; /* constant in this node */
		double SL = 0, SR = 0, wl = 0;
		for (int c = 0; c < nc; c++) {
			F->cl[c] = 0;
			F->cntl[c] = 0;
			F->tl[c] = 0;
			F->trm[c] = term(crit, F->cw[c]);
			SR += F->trm[c];
		}
		int nd = 0;
		for (int i = s; i < e - 1; i++) {
			int row = R[i], c = y[row];
			double ww = w ? w[row] : 1.0;
			F->cl[c] += ww;
			F->cntl[c]++;
			wl += ww;
			if (!F->isdirty[c]) {
				F->isdirty[c] = 1;
				F->dirty[nd++] = c;
			}
			int nl = i - s + 1, nr = e - s - nl;
			if (nr < msl)
				break;
			if (nl < msl || !(V[i] < V[i + 1]))
				continue;
			/* refresh the sums for the classes touched since last time */
			for (int j = 0; j < nd; j++) {
				int k = F->dirty[j];
				double nlt = term(crit, F->cl[k]);
				double crk = F->cntl[k] == F->cnt[k] ? 0.0 : F->cw[k] - F->cl[k];
				double nrt = term(crit, crk);
				SL += nlt - F->tl[k];
				SR += nrt - F->trm[k];
				F->tl[k] = nlt;
				F->trm[k] = nrt;
				F->isdirty[k] = 0;
			}
			nd = 0;
			double wr = W - wl, cost;
			if (crit == CART_ENTROPY) /* W_L·H_L + W_R·H_R, in nats */
				cost = (xlogx(wl) - SL) + (xlogx(wr) - SR);
			else                      /* W_L·G_L + W_R·G_R minus W */
				cost = -(SL / wl + SR / wr);
			if (!found || cost < best - tol) {
				found = 1;
				best = cost;
				*bf = f;
				*bi = i;
				double a = V[i], b = V[i + 1], t = a / 2.0 + b / 2.0;
				if (t == b || isinf(t))
					t = a;
				*bt = t;
			}
		}
		for (int j = 0; j < nd; j++)
			F->isdirty[F->dirty[j]] = 0;
	}
	return found;
}

/* Stable partition of every feature's rows [s, e): rows with left[row] first. */
static void
partition(fitter *F, int s, int e, int skip)
{
	int n = F->n;
	for (int f = 0; f < F->nf; f++) {
		if (f == skip)
			continue;
		double *V = F->v + (size_t)f * n;
		int *R = F->r + (size_t)f * n;
		int p = s, q = 0;
		for (int i = s; i < e; i++) {
			if (F->left[R[i]]) {
				V[p] = V[i];
				R[p++] = R[i];
			} else {
				F->tv[q] = V[i];
				F->tr[q++] = R[i];
			}
		}
		memcpy(V + p, F->tv, (size_t)q * sizeof *V);
		memcpy(R + p, F->tr, (size_t)q * sizeof *R);
	}
}

static void
check_params(const cart_params *p)
{
	if (p->criterion != CART_GINI && p->criterion != CART_ENTROPY)
		die("cart: unknown criterion %d", p->criterion);
	if (p->max_depth < 0)
		die("cart: max_depth %d < 0", p->max_depth);
	if (!(p->min_samples_leaf > 0) || isinf(p->min_samples_leaf) ||
	    (p->min_samples_leaf >= 1 &&
	     p->min_samples_leaf != floor(p->min_samples_leaf)))
		die("cart: min_samples_leaf %.17g is neither a count >= 1 nor a "
		    "fraction in (0, 1)", p->min_samples_leaf);
}

static void
check_sorted(const cart_sorted *s, const cart_data *d)
{
	if (s->n_rows != d->n_rows || s->n_feat != d->n_feat)
		die("cart: presorted data does not match (%d×%d vs %d×%d)",
		    s->n_rows, s->n_feat, d->n_rows, d->n_feat);
}

/* The resolved min_samples_leaf row count of p on n rows (>= 1). */
static int
resolved_msl(const cart_params *p, int n)
{
	int m = cart_min_leaf(p->min_samples_leaf, n);
	return m < 1 ? 1 : m;
}

void
cart_fit(tree *t, const cart_data *d, const cart_sorted *s0,
         const cart_params *p)
{
	check_params(p);
	const cart_sorted *s = s0 ? s0 : cart_presort(d);
	check_sorted(s, d);

	fitter F = {0};
	int n = d->n_rows, nf = d->n_feat, nc = d->n_class;
	F.d = d;
	F.n = n;
	F.nf = nf;
	F.nc = nc;
	F.crit = p->criterion;
	F.msl = resolved_msl(p, n);
	F.v = xmalloc((size_t)n * nf * sizeof *F.v);
	F.r = xmalloc((size_t)n * nf * sizeof *F.r);
	memcpy(F.v, s->v, (size_t)n * nf * sizeof *F.v);
	memcpy(F.r, s->r, (size_t)n * nf * sizeof *F.r);
	F.tv = xmalloc((size_t)n * sizeof *F.tv);
	F.tr = xmalloc((size_t)n * sizeof *F.tr);
	F.left = xcalloc((size_t)n, 1);
	F.cw = xmalloc((size_t)nc * sizeof *F.cw);
	F.cnt = xmalloc((size_t)nc * sizeof *F.cnt);
	F.cl = xmalloc((size_t)nc * sizeof *F.cl);
	F.cntl = xmalloc((size_t)nc * sizeof *F.cntl);
	F.tl = xmalloc((size_t)nc * sizeof *F.tl);
	F.trm = xmalloc((size_t)nc * sizeof *F.trm);
	F.dirty = xmalloc((size_t)nc * sizeof *F.dirty);
	F.isdirty = xcalloc((size_t)nc, 1);

	snprintf(t->criterion, sizeof t->criterion, "%s",
	         p->criterion == CART_ENTROPY ? "entropy" : "gini");
	t->max_depth = p->max_depth;
	t->min_samples_leaf = p->min_samples_leaf;
	t->ranking_k = 0;
	t->confidence_threshold = 0.0;
	t->n_feat = nf;
	t->n_class = nc;
	t->n_node = 0;
	t->n_prob = 0;
	size_t ncap = 0, pcap = 0, scap = 0;
	frame *stack = NULL;
	int sp = 0;
	xgrow((void **)&stack, &scap, 1, sizeof *stack);
	stack[sp++] = (frame){0, n, 0, -1, 0};

	while (sp > 0) {
		frame fr = stack[--sp];
		int id = t->n_node++;
		xgrow((void **)&t->node, &ncap, (size_t)t->n_node, sizeof *t->node);
		if (fr.parent >= 0) {
			if (fr.right)
				t->node[fr.parent].right = id;
			else
				t->node[fr.parent].left = id;
		}
		/* class sums over the node's rows (feature 0's order) */
		memset(F.cw, 0, (size_t)nc * sizeof *F.cw);
		memset(F.cnt, 0, (size_t)nc * sizeof *F.cnt);
		double W = 0;
		for (int i = fr.s; i < fr.e; i++) {
			int row = F.r[i];
			double ww = d->w ? d->w[row] : 1.0;
			F.cw[d->y[row]] += ww;
			F.cnt[d->y[row]]++;
			W += ww;
		}
		tree_node *nd = &t->node[id];
		memset(nd, 0, sizeof *nd);
		nd->feature = -1;
		nd->threshold = -2.0;
		nd->left = nd->right = -1;
		nd->n_samples = fr.e - fr.s;
		nd->weighted_n = W;
		nd->prob_off = t->n_prob;
		for (int c = 0; c < nc; c++) {
			if (F.cnt[c] == 0)
				continue;
			nd->n_labels++;
			xgrow((void **)&t->prob, &pcap, (size_t)t->n_prob + 1,
			      sizeof *t->prob);
			t->prob[t->n_prob].cls = c;
			t->prob[t->n_prob].p = F.cw[c] / W;
			t->n_prob++;
		}
		nd->prob_len = t->n_prob - nd->prob_off;

		int nrow = fr.e - fr.s;
		if (fr.depth >= p->max_depth || nrow < 2 * F.msl || nd->n_labels <= 1)
			continue;
		int bf, bi;
		double bt;
		if (!best_split(&F, fr.s, fr.e, W, &bf, &bi, &bt))
			continue;
		nd = &t->node[id];
		nd->feature = bf;
		nd->threshold = bt;
		const int *R = F.r + (size_t)bf * n;
		for (int i = fr.s; i < fr.e; i++)
			F.left[R[i]] = i <= bi;
		partition(&F, fr.s, fr.e, bf);
		int mid = bi + 1;
		xgrow((void **)&stack, &scap, (size_t)sp + 2, sizeof *stack);
		stack[sp++] = (frame){mid, fr.e, fr.depth + 1, id, 1};
		stack[sp++] = (frame){fr.s, mid, fr.depth + 1, id, 0};
	}
	free(stack);
	free(F.v);
	free(F.r);
	free(F.tv);
	free(F.tr);
	free(F.left);
	free(F.cw);
	free(F.cnt);
	free(F.cl);
	free(F.cntl);
	free(F.tl);
	free(F.trm);
	free(F.dirty);
	free(F.isdirty);
	if (!s0)
		cart_sorted_free((cart_sorted *)s);
}

/* ---- several models at once ---------------------------------------------- */

/* *out = in cut at depth max_depth: in's nodes of depth <= max_depth, in
 * pre-order, those at depth max_depth turned into leaves.  Exactly what
 * cart_fit grows with that max_depth when in was grown deeper with the same
 * criterion and min_samples_leaf: whether and how a node is split never
 * depends on max_depth, except that a node at max_depth is not split.
 * out's parameters are in's; the caller sets max_depth. */
static void
cut_tree(tree *out, const tree *in, int max_depth)
{
	*out = *in;
	out->node = xmalloc(((size_t)in->n_node + 1) * sizeof *out->node);
	out->prob = xmalloc(((size_t)in->n_prob + 1) * sizeof *out->prob);
	out->n_node = 0;
	out->n_prob = 0;
	/* pre-order walk: (in node, depth, out parent, right child?) */
	frame *st = xmalloc(((size_t)in->n_node + 1) * sizeof *st);
	int sp = 0;
	st[sp++] = (frame){0, 0, 0, -1, 0};
	while (sp > 0) {
		frame fr = st[--sp];
		const tree_node *a = &in->node[fr.s];
		int id = out->n_node++;
		if (fr.parent >= 0) {
			if (fr.right)
				out->node[fr.parent].right = id;
			else
				out->node[fr.parent].left = id;
		}
		tree_node *b = &out->node[id];
		*b = *a;
		b->prob_off = out->n_prob;
		memcpy(out->prob + out->n_prob, in->prob + a->prob_off,
		       (size_t)a->prob_len * sizeof *out->prob);
		out->n_prob += a->prob_len;
		if (a->feature < 0 || fr.depth >= max_depth) {
			b->feature = -1;
			b->threshold = -2.0;
			b->left = b->right = -1;
			continue;
		}
		st[sp++] = (frame){a->right, 0, fr.depth + 1, id, 1};
		st[sp++] = (frame){a->left, 0, fr.depth + 1, id, 0};
	}
	free(st);
}

/* One group of models: same criterion and resolved min_samples_leaf. */
typedef struct {
	int crit, msl, depth;   /* depth: the deepest member's max_depth */
	int first;              /* its first model (index into p[]) */
} group;

typedef struct {
	tree *t;
	const cart_data *d;
	const cart_sorted *s;
	const cart_params *p;
	int n;
	const group *g;
	const int *gof;         /* [n] group of each model */
} grid_job;

/* Grow group gi's deepest tree, cut its members from it. */
static void
grid_item(void *arg, int gi, int thread)
{
	(void)thread;
	const grid_job *J = arg;
	const group *g = &J->g[gi];
	cart_params cp = J->p[g->first];
	cp.max_depth = g->depth;
	tree deep = {0};
	cart_fit(&deep, J->d, J->s, &cp);
	int used = 0;
	for (int m = 0; m < J->n; m++) {
		if (J->gof[m] != gi)
			continue;
		if (!used && J->p[m].max_depth == g->depth) {
			J->t[m] = deep; /* the tree itself, once */
			used = 1;
		} else {
			cut_tree(&J->t[m], &deep, J->p[m].max_depth);
		}
		J->t[m].max_depth = J->p[m].max_depth;
		J->t[m].min_samples_leaf = J->p[m].min_samples_leaf;
	}
	if (!used)
		tree_free(&deep);
}

/* Larger trees first: smaller min_samples_leaf, then deeper. */
static int
cmp_group(const void *a, const void *b)
{
	const group *x = a, *y = b;
	if (x->msl != y->msl)
		return x->msl < y->msl ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

void
cart_fit_grid(tree *t, const cart_data *d, const cart_sorted *s,
              const cart_params *p, int n, pool *pl)
{
	for (int m = 0; m < n; m++)
		check_params(&p[m]);
	check_sorted(s, d);
	group *g = xmalloc(((size_t)n + 1) * sizeof *g);
	int *gof = xmalloc(((size_t)n + 1) * sizeof *gof);
	int ng = 0;
	for (int m = 0; m < n; m++) {
		int msl = resolved_msl(&p[m], d->n_rows), k = 0;
		while (k < ng && !(g[k].crit == p[m].criterion && g[k].msl == msl))
			k++;
		if (k == ng)
			g[ng++] = (group){p[m].criterion, msl, p[m].max_depth, m};
		else if (p[m].max_depth > g[k].depth)
			g[k].depth = p[m].max_depth;
	}
	qsort(g, (size_t)ng, sizeof *g, cmp_group);
	for (int m = 0; m < n; m++) {
		int msl = resolved_msl(&p[m], d->n_rows), k = 0;
		while (!(g[k].crit == p[m].criterion && g[k].msl == msl))
			k++;
		gof[m] = k;
	}
	grid_job J = {t, d, s, p, n, g, gof};
	if (pl)
		pool_map(pl, ng, grid_item, &J);
	else
		for (int k = 0; k < ng; k++)
			grid_item(&J, k, 0);
	free(gof);
	free(g);
}
