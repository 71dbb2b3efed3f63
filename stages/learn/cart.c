/* cart.c — weighted CART classifier; see cart.h for the semantics
 * (spec §5.4 and the scikit-learn facts it lists). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cart.h"
#include "core/util.h"

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
	size_t cnt[256];
	for (int f = 0; f < nf; f++) {
		int *idx = s->r + (size_t)f * n;
		uint64_t diff = 0; /* the key bits that vary */
		for (int i = 0; i < n; i++) {
			idx[i] = i;
			key[i] = sort_key(d->x[(size_t)i * nf + f]);
			diff |= key[i] ^ key[0];
		}
		/* LSD radix sort, 8-bit digits; stable, so equal keys keep row
		 * order.  Digits that are the same in every key are skipped
		 * (integer features vary in two or three of the eight). */
		for (int sh = 0; sh < 64; sh += 8) {
			if (!(diff >> sh & 0xff))
				continue;
			memset(cnt, 0, sizeof cnt);
			for (int i = 0; i < n; i++)
				cnt[key[i] >> sh & 0xff]++;
			size_t sum = 0;
			for (int b = 0; b < 256; b++) {
				size_t c = cnt[b];
				cnt[b] = sum;
				sum += c;
			}
			for (int i = 0; i < n; i++) {
				size_t p = cnt[key[i] >> sh & 0xff]++;
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

static double
term(int crit, double c)
{
	return crit == CART_ENTROPY ? xlogx(c) : c * c;
}

static void
check_params(const cart_params *p)
{
	if (p->criterion != CART_GINI && p->criterion != CART_ENTROPY)
		die("cart: unknown criterion %d", p->criterion);
	if (p->max_depth < 0 || p->max_depth > TREE_MAX_DEPTH)
		die("cart: max_depth %d not in 0..%d (TREE_MAX_DEPTH)", p->max_depth,
		    TREE_MAX_DEPTH);
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

/* ---- growing a bundle of trees --------------------------------------------
 *
 * A bundle is a set of models of one criterion with distinct
 * min_samples_leaf counts (members), grown together on the same rows: a
 * node's split search is one scan for all the members that reach it (the
 * members whose trees agree so far), each keeping its own best split, and
 * members part where their splits differ.  Every member's tree is byte for
 * byte the tree cart_fit grows for it alone, because each member sees the
 * very floating-point operations it would see alone:
 *  - a member evaluates the candidate positions it would evaluate alone:
 *    value changes with both sides >= its min_samples_leaf, a contiguous
 *    window of the positions of the member with the smallest one;
 *  - within its window a member's running sums SL, SR take the same
 *    increments, in the same order, as they would alone: the cached class
 *    terms (tl, trm) are refreshed at every position any member evaluates,
 *    and that is exactly the member's own schedule inside its window; at
 *    the window's first position, a member alone refreshes every class
 *    touched since the feature's scan began, in first-touch order, from
 *    zero (tl) and from the node's terms (trm): it does exactly that here.
 */

/* One member of a bundle. */
typedef struct {
	tree *t;
	int msl, max_depth;
	size_t ncap, pcap;      /* capacities of t->node and t->prob */
	/* the split search at the current node */
	double SL, SR, best, bt;
	int found, bf, bi;
} member;

/* Rows of a node: per feature f, values v[f * stride + i] ascending and
 * their row ids r[f * stride + i], for i in the node's [s, e).  The root's
 * is the fitter's copy of the presorted columns; a node whose members part
 * gives each group but the last a copy of its rows. */
typedef struct {
	double *v;
	int *r;
	int stride, refs, owned;
} rowset;

/* A node to grow: rows [s, e) of rs, at depth, for the members
 * mem[off .. off + nm) of the arena (member index, parent node, side). */
typedef struct {
	rowset *rs;
	int s, e, depth, off, nm;
} gframe;

typedef struct {
	int m, parent, right;
} marg;

/* Working state of one bundle. */
typedef struct {
	const cart_data *d;
	int n, nf, nc, crit;
	member *mem;
	int nmem;
	double *tv;     /* [n] partition scratch */
	int *tr;
	unsigned char *left; /* [n] per row: goes left at the current split */
	double *cw;     /* [nc] node: weighted class sums */
	int *cnt;       /* [nc] node: row counts per class */
	double *t0;     /* [nc] node: term(cw) per class */
	double *cl;     /* [nc] scan: left weighted class sums */
	int *cntl;      /* [nc] scan: left row counts */
	double *tl, *trm; /* [nc] scan: cached per-class terms left / right */
	int *dirty;     /* [nc] classes touched since the last evaluation */
	unsigned char *isdirty;
	int *touch;     /* [nc] classes touched since the scan began, in order */
	unsigned char *istouched;
	tree_prob *pr;  /* [nc] the node's class fractions */
	member **act;   /* [nmem] members searching a split, by msl ascending */
} fitter;

/* Row `row` joins the left side of the scan: its class's weighted sum
 * and count, the left weight *wl, the classes touched since the last
 * evaluation (dirty[0 .. *nd)). */
static inline void
add_left(fitter *F, int row, double *wl, int *nd)
{
	int c = F->d->y[row];
	double ww = F->d->w ? F->d->w[row] : 1.0;
	F->cl[c] += ww;
	F->cntl[c]++;
	*wl += ww;
	if (!F->isdirty[c]) {
		F->isdirty[c] = 1;
		F->dirty[(*nd)++] = c;
	}
}

/* Best split of rows [s, e) of rs (node weight W) for the members
 * act[0 .. na), ascending min_samples_leaf: sets each one's found, bf
 * (feature), bi (last left position) and bt (threshold). */
static void
best_splits(fitter *F, const rowset *rs, int s, int e, double W, member **act, int na)
{
	const int *y = F->d->y;
	int nc = F->nc, crit = F->crit, msl0 = act[0]->msl;
	double tol = 1e-12 * W, SR0 = 0;
	for (int c = 0; c < nc; c++)
		SR0 += F->t0[c];
	for (int j = 0; j < na; j++)
		act[j]->found = 0;

	for (int f = 0; f < F->nf; f++) {
		const double *V = rs->v + (size_t)f * rs->stride;
		const int *R = rs->r + (size_t)f * rs->stride;
		if (!(V[s] < V[e - 1]))
			continue; /* constant in this node */
		memset(F->cl, 0, (size_t)nc * sizeof *F->cl);
		memset(F->cntl, 0, (size_t)nc * sizeof *F->cntl);
		memset(F->tl, 0, (size_t)nc * sizeof *F->tl);
		memcpy(F->trm, F->t0, (size_t)nc * sizeof *F->trm);
		/* member 0's window starts with the scan (before its first
		 * position nothing is added), the others' at their first */
		act[0]->SL = 0;
		act[0]->SR = SR0;
		int started = 1, live = na, nd = 0;
		double wl = 0;
		/* rows before the first position with msl0 rows on the left only
		 * add up (no window ends there: every member has >= 2 msl rows) */
		int i = s, first = s + msl0 - 1;
		for (; i < first; i++)
			add_left(F, R[i], &wl, &nd);
		/* the window of act[live - 1] ends where its right side would
		 * hold fewer than its min_samples_leaf rows: i >= e - msl */
		int end = e - act[live - 1]->msl;
		for (; i < e - 1; i++) {
			add_left(F, R[i], &wl, &nd);
			if (i >= end) {
				while (live > 0 && i >= e - act[live - 1]->msl)
					live--; /* windows end, largest msl first */
				if (live == 0)
					break;
				end = e - act[live - 1]->msl;
			}
			if (!(V[i] < V[i + 1]))
				continue;
			int nl = i - s + 1;
			/* refresh the terms of the classes touched since the last
			 * position; the members inside their window add the change */
			int on = started < live ? started : live;
			for (int q = 0; q < nd; q++) {
				int k = F->dirty[q];
				double nlt = term(crit, F->cl[k]);
				double crk = F->cntl[k] == F->cnt[k] ? 0.0 : F->cw[k] - F->cl[k];
				double nrt = term(crit, crk);
				double dl = nlt - F->tl[k], dr = nrt - F->trm[k];
				for (int j = 0; j < on; j++) {
					act[j]->SL += dl;
					act[j]->SR += dr;
				}
				F->tl[k] = nlt;
				F->trm[k] = nrt;
				F->isdirty[k] = 0;
			}
			nd = 0;
			/* windows that start here: every class touched so far, from
			 * zero and from the node's terms, in first-touch order (the
			 * rows so far, read again: fewer than the members' msl) */
			if (started < live && nl >= act[started]->msl) {
				int nt = 0;
				for (int r = s; r <= i; r++) {
					int k = y[R[r]];
					if (!F->istouched[k]) {
						F->istouched[k] = 1;
						F->touch[nt++] = k;
					}
				}
				for (; started < live && nl >= act[started]->msl; started++) {
					member *m = act[started];
					m->SL = 0;
					m->SR = SR0;
					for (int q = 0; q < nt; q++) {
						int k = F->touch[q];
						m->SL += F->tl[k] - 0.0;
						m->SR += F->trm[k] - F->t0[k];
					}
				}
				for (int q = 0; q < nt; q++)
					F->istouched[F->touch[q]] = 0;
			}
			on = started < live ? started : live;
			double wr = W - wl, xl = 0, xr = 0;
			if (crit == CART_ENTROPY) {
				xl = xlogx(wl);
				xr = xlogx(wr);
			}
			for (int j = 0; j < on; j++) {
				member *m = act[j];
				double cost;
				if (crit == CART_ENTROPY) /* W_L·H_L + W_R·H_R, in nats */
					cost = (xl - m->SL) + (xr - m->SR);
				else                      /* W_L·G_L + W_R·G_R minus W */
					cost = -(m->SL / wl + m->SR / wr);
				if (!m->found || cost < m->best - tol) {
					m->found = 1;
					m->best = cost;
					m->bf = f;
					m->bi = i;
					double a = V[i], b = V[i + 1], t = a / 2.0 + b / 2.0;
					if (t == b || isinf(t))
						t = a;
					m->bt = t;
				}
			}
		}
		for (int q = 0; q < nd; q++)
			F->isdirty[F->dirty[q]] = 0;
	}
}

/* Stable partition of every feature's rows [s, e) of rs but skip's: rows
 * with left[row] first.  A feature constant in [s, e) is left as it is:
 * it is constant in every part of the range, so no split search below
 * reads it; feature 0 is always partitioned (its lists give each node's
 * rows). */
static void
partition(fitter *F, rowset *rs, int s, int e, int skip)
{
	for (int f = 0; f < F->nf; f++) {
		double *V = rs->v + (size_t)f * rs->stride;
		int *R = rs->r + (size_t)f * rs->stride;
		if (f == skip || (f > 0 && !(V[s] < V[e - 1])))
			continue;
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

/* A copy of rows [s, e) of rs, as rows [0, e - s) of a new rowset. */
static rowset *
rows_copy(const rowset *rs, int s, int e, int nf)
{
	int m = e - s;
	rowset *c = xmalloc(sizeof *c);
	c->v = xmalloc(((size_t)m * nf + 1) * sizeof *c->v);
	c->r = xmalloc(((size_t)m * nf + 1) * sizeof *c->r);
	c->stride = m;
	c->refs = 0;
	c->owned = 1;
	for (int f = 0; f < nf; f++) {
		memcpy(c->v + (size_t)f * m, rs->v + (size_t)f * rs->stride + s, (size_t)m * sizeof *c->v);
		memcpy(c->r + (size_t)f * m, rs->r + (size_t)f * rs->stride + s, (size_t)m * sizeof *c->r);
	}
	return c;
}

static void
rows_release(rowset *rs)
{
	if (--rs->refs == 0 && rs->owned) {
		free(rs->v);
		free(rs->r);
		free(rs);
	}
}

/* Append node (its fields in nd, class fractions F->pr[0 .. np)) to member
 * m's tree under parent (or as the root); returns its id. */
static int
add_node(fitter *F, member *m, const tree_node *nd, int np, int parent, int right)
{
	tree *t = m->t;
	int id = t->n_node++;
	xgrow((void **)&t->node, &m->ncap, (size_t)t->n_node, sizeof *t->node);
	if (parent >= 0) {
		if (right)
			t->node[parent].right = id;
		else
			t->node[parent].left = id;
	}
	t->node[id] = *nd;
	t->node[id].prob_off = t->n_prob;
	xgrow((void **)&t->prob, &m->pcap, (size_t)t->n_prob + (size_t)np + 1, sizeof *t->prob);
	memcpy(t->prob + t->n_prob, F->pr, (size_t)np * sizeof *t->prob);
	t->n_prob += np;
	return id;
}

/* Grow every member's tree from the root (rows: root, all of them). */
static void
grow(fitter *F, rowset *root)
{
	const cart_data *d = F->d;
	int nc = F->nc, nf = F->nf;
	size_t scap = 0, acap = 0;
	gframe *stack = NULL;
	marg *arena = NULL;
	int sp = 0, na = 0;
	xgrow((void **)&arena, &acap, (size_t)F->nmem, sizeof *arena);
	for (int j = 0; j < F->nmem; j++)
		arena[na++] = (marg){j, -1, 0};
	xgrow((void **)&stack, &scap, 1, sizeof *stack);
	stack[sp++] = (gframe){root, 0, F->n, 0, 0, F->nmem};
	root->refs = 1;
	marg *here = xmalloc(((size_t)F->nmem + 1) * sizeof *here);
	int *grp = xmalloc(((size_t)F->nmem + 1) * sizeof *grp);

	while (sp > 0) {
		gframe fr = stack[--sp];
		rowset *rs = fr.rs;
		const int *R0 = rs->r; /* feature 0's order */
		/* class sums over the node's rows */
		memset(F->cw, 0, (size_t)nc * sizeof *F->cw);
		memset(F->cnt, 0, (size_t)nc * sizeof *F->cnt);
		double W = 0;
		for (int i = fr.s; i < fr.e; i++) {
			int row = R0[i];
			double ww = d->w ? d->w[row] : 1.0;
			F->cw[d->y[row]] += ww;
			F->cnt[d->y[row]]++;
			W += ww;
		}
		tree_node nd = {0};
		nd.feature = -1;
		nd.threshold = -2.0;
		nd.left = nd.right = -1;
		nd.n_samples = fr.e - fr.s;
		nd.weighted_n = W;
		int np = 0;
		for (int c = 0; c < nc; c++)
			if (F->cnt[c] > 0)
				F->pr[np++] = (tree_prob){c, F->cw[c] / W};
		nd.n_labels = np;
		nd.prob_len = np;
		/* every member gets the node; those that may split search */
		int nrow = fr.e - fr.s, nact = 0, nh = fr.nm;
		memcpy(here, arena + fr.off, (size_t)nh * sizeof *here);
		for (int q = 0; q < nh; q++) {
			member *m = &F->mem[here[q].m];
			here[q].parent = add_node(F, m, &nd, np, here[q].parent, here[q].right);
			m->found = 0;
			if (fr.depth < m->max_depth && nrow >= 2 * m->msl && np > 1)
				F->act[nact++] = m;
		}
		if (nact > 0) {
			if (F->crit == CART_ENTROPY)
				for (int c = 0; c < nc; c++)
					F->t0[c] = xlogx(F->cw[c]);
			else
				for (int c = 0; c < nc; c++)
					F->t0[c] = F->cw[c] * F->cw[c];
			best_splits(F, rs, fr.s, fr.e, W, F->act, nact);
		}
		/* the splitting members in groups of one split; a group but the
		 * last partitions a copy of the rows */
		int ng = 0;
		for (int q = 0; q < nh; q++) {
			member *m = &F->mem[here[q].m];
			grp[q] = -1;
			if (!m->found)
				continue;
			tree_node *tn = &m->t->node[here[q].parent];
			tn->feature = m->bf;
			tn->threshold = m->bt;
			for (int p = 0; p < q && grp[q] < 0; p++)
				if (grp[p] >= 0 && F->mem[here[p].m].bf == m->bf &&
				    F->mem[here[p].m].bi == m->bi)
					grp[q] = grp[p];
			if (grp[q] < 0)
				grp[q] = ng++;
		}
		for (int g = 0; g < ng; g++) {
			int q0 = 0;
			while (grp[q0] != g)
				q0++;
			member *m0 = &F->mem[here[q0].m];
			rowset *gs = rs;
			int s = fr.s, e = fr.e, bi = m0->bi;
			if (g < ng - 1) {
				gs = rows_copy(rs, fr.s, fr.e, nf);
				s = 0;
				e = fr.e - fr.s;
				bi -= fr.s;
			}
			const int *R = gs->r + (size_t)m0->bf * gs->stride;
			for (int i = s; i < e; i++)
				F->left[R[i]] = i <= bi;
			partition(F, gs, s, e, m0->bf);
			/* children: right pushed first, so the left is grown first */
			int cnt = 0;
			for (int q = 0; q < nh; q++)
				cnt += grp[q] == g;
			xgrow((void **)&arena, &acap, (size_t)na + 2 * (size_t)cnt, sizeof *arena);
			xgrow((void **)&stack, &scap, (size_t)sp + 2, sizeof *stack);
			for (int side = 1; side >= 0; side--) {
				int off = na;
				for (int q = 0; q < nh; q++)
					if (grp[q] == g)
						arena[na++] = (marg){here[q].m, here[q].parent, side};
				stack[sp++] = side ? (gframe){gs, bi + 1, e, fr.depth + 1, off, cnt}
				                   : (gframe){gs, s, bi + 1, fr.depth + 1, off, cnt};
				gs->refs++;
			}
		}
		rows_release(rs);
	}
	free(grp);
	free(here);
	free(arena);
	free(stack);
}

/* Grow the trees t[j] of the members (params p[j], all of criterion crit,
 * distinct min_samples_leaf counts) on d, presorted s. */
static void
fit_bundle(tree **t, const cart_params *const *p, int nmem, const cart_data *d,
           const cart_sorted *s)
{
	fitter F = {0};
	int n = d->n_rows, nf = d->n_feat, nc = d->n_class;
	F.d = d;
	F.n = n;
	F.nf = nf;
	F.nc = nc;
	F.crit = p[0]->criterion;
	F.nmem = nmem;
	F.mem = xcalloc((size_t)nmem, sizeof *F.mem);
	for (int j = 0; j < nmem; j++) {
		member *m = &F.mem[j];
		m->t = t[j];
		m->msl = resolved_msl(p[j], n);
		m->max_depth = p[j]->max_depth;
		tree *tt = t[j];
		snprintf(tt->criterion, sizeof tt->criterion, "%s",
		         p[j]->criterion == CART_ENTROPY ? "entropy" : "gini");
		tt->max_depth = p[j]->max_depth;
		tt->min_samples_leaf = p[j]->min_samples_leaf;
		tt->ranking_k = 0;
		tt->confidence_threshold = 0.0;
		tt->n_feat = nf;
		tt->n_class = nc;
		tt->n_node = 0;
		tt->n_prob = 0;
	}
	rowset root = {xmalloc((size_t)n * nf * sizeof *root.v),
	               xmalloc((size_t)n * nf * sizeof *root.r), n, 0, 0};
	memcpy(root.v, s->v, (size_t)n * nf * sizeof *root.v);
	memcpy(root.r, s->r, (size_t)n * nf * sizeof *root.r);
	F.tv = xmalloc((size_t)n * sizeof *F.tv);
	F.tr = xmalloc((size_t)n * sizeof *F.tr);
	F.left = xcalloc((size_t)n, 1);
	F.cw = xmalloc((size_t)nc * sizeof *F.cw);
	F.cnt = xmalloc((size_t)nc * sizeof *F.cnt);
	F.t0 = xmalloc((size_t)nc * sizeof *F.t0);
	F.cl = xmalloc((size_t)nc * sizeof *F.cl);
	F.cntl = xmalloc((size_t)nc * sizeof *F.cntl);
	F.tl = xmalloc((size_t)nc * sizeof *F.tl);
	F.trm = xmalloc((size_t)nc * sizeof *F.trm);
	F.dirty = xmalloc((size_t)nc * sizeof *F.dirty);
	F.isdirty = xcalloc((size_t)nc, 1);
	F.touch = xmalloc((size_t)nc * sizeof *F.touch);
	F.istouched = xcalloc((size_t)nc, 1);
	F.pr = xmalloc((size_t)nc * sizeof *F.pr);
	F.act = xmalloc((size_t)nmem * sizeof *F.act);
	/* members by min_samples_leaf ascending: best_splits's order */
	for (int i = 1; i < nmem; i++)
		for (int j = i; j > 0 && F.mem[j].msl < F.mem[j - 1].msl; j--) {
			member tmp = F.mem[j];
			F.mem[j] = F.mem[j - 1];
			F.mem[j - 1] = tmp;
		}
	grow(&F, &root);
	free(root.v);
	free(root.r);
	free(F.act);
	free(F.pr);
	free(F.istouched);
	free(F.touch);
	free(F.isdirty);
	free(F.dirty);
	free(F.trm);
	free(F.tl);
	free(F.cntl);
	free(F.cl);
	free(F.t0);
	free(F.cnt);
	free(F.cw);
	free(F.left);
	free(F.tr);
	free(F.tv);
	free(F.mem);
}

void
cart_fit(tree *t, const cart_data *d, const cart_sorted *s0,
         const cart_params *p)
{
	check_params(p);
	const cart_sorted *s = s0 ? s0 : cart_presort(d);
	check_sorted(s, d);
	fit_bundle(&t, &p, 1, d, s);
	if (!s0)
		cart_sorted_free((cart_sorted *)s);
}

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
	typedef struct {
		int node, depth, parent, right;
	} cframe;
	cframe *st = xmalloc(((size_t)in->n_node + 1) * sizeof *st);
	int sp = 0;
	st[sp++] = (cframe){0, 0, -1, 0};
	while (sp > 0) {
		cframe fr = st[--sp];
		const tree_node *a = &in->node[fr.node];
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
		st[sp++] = (cframe){a->right, fr.depth + 1, id, 1};
		st[sp++] = (cframe){a->left, fr.depth + 1, id, 0};
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
	int ng;
	const int *gof;         /* [n] group of each model */
	const int *bundle;      /* [nb + 1] groups bundle[b] .. bundle[b + 1] - 1 */
} grid_job;

/* Grow bundle bi's groups' deepest trees together (fit_bundle), cut the
 * groups' models from them. */
static void
grid_item(void *arg, int bi, int thread)
{
	(void)thread;
	const grid_job *J = arg;
	int g0 = J->bundle[bi], ng = J->bundle[bi + 1] - g0;
	tree *deep = xcalloc((size_t)ng, sizeof *deep);
	tree **dp = xmalloc((size_t)ng * sizeof *dp);
	cart_params *cp = xmalloc((size_t)ng * sizeof *cp);
	const cart_params **cpp = xmalloc((size_t)ng * sizeof *cpp);
	for (int k = 0; k < ng; k++) {
		cp[k] = J->p[J->g[g0 + k].first];
		cp[k].max_depth = J->g[g0 + k].depth;
		cpp[k] = &cp[k];
		dp[k] = &deep[k];
	}
	fit_bundle(dp, cpp, ng, J->d, J->s);
	for (int k = 0; k < ng; k++) {
		int used = 0, gi = g0 + k;
		for (int m = 0; m < J->n; m++) {
			if (J->gof[m] != gi)
				continue;
			if (!used && J->p[m].max_depth == J->g[gi].depth) {
				J->t[m] = deep[k]; /* the tree itself, once */
				used = 1;
			} else {
				cut_tree(&J->t[m], &deep[k], J->p[m].max_depth);
			}
			J->t[m].max_depth = J->p[m].max_depth;
			J->t[m].min_samples_leaf = J->p[m].min_samples_leaf;
		}
		if (!used)
			tree_free(&deep[k]);
	}
	free(cpp);
	free(cp);
	free(dp);
	free(deep);
}

/* By criterion (a bundle each), then larger trees first: smaller
 * min_samples_leaf, then deeper. */
static int
cmp_group(const void *a, const void *b)
{
	const group *x = a, *y = b;
	if (x->crit != y->crit)
		return x->crit > y->crit ? -1 : 1; /* entropy (slower) first */
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
	int *bundle = xmalloc(((size_t)n + 2) * sizeof *bundle);
	int ng = 0, nb = 0;
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
	/* one bundle per criterion */
	for (int k = 0; k < ng; k++)
		if (k == 0 || g[k].crit != g[k - 1].crit)
			bundle[nb++] = k;
	bundle[nb] = ng;
	grid_job J = {t, d, s, p, n, g, ng, gof, bundle};
	if (pl)
		pool_map(pl, nb, grid_item, &J);
	else
		for (int b = 0; b < nb; b++)
			grid_item(&J, b, 0);
	free(bundle);
	free(gof);
	free(g);
}
