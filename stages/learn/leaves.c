/* leaves.c — ranking pruning and the leaf order, one rule in one place;
 * see leaves.h (spec §5.6, §6.1). */
#include "leaves.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* ---- pruning (spec §5.6) ------------------------------------------------ */

static void
copy_header(tree *out, const tree *in)
{
	memset(out, 0, sizeof *out);
	out->meta_json = in->meta_json ? xstrdup(in->meta_json) : NULL;
	/* name arrays may still be unset (a fresh cart_fit tree): stay NULL */
	out->n_feat = in->n_feat;
	if (in->feat) {
		out->feat = xmalloc(((size_t)in->n_feat + 1) * sizeof *out->feat);
		for (int i = 0; i < in->n_feat; i++)
			out->feat[i] = xstrdup(in->feat[i]);
	}
	out->n_class = in->n_class;
	if (in->cls) {
		out->cls = xmalloc(((size_t)in->n_class + 1) * sizeof *out->cls);
		for (int i = 0; i < in->n_class; i++)
			out->cls[i] = xstrdup(in->cls[i]);
	}
	memcpy(out->criterion, in->criterion, sizeof out->criterion);
	out->max_depth = in->max_depth;
	out->min_samples_leaf = in->min_samples_leaf;
	out->ranking_k = in->ranking_k;
	out->confidence_threshold = in->confidence_threshold;
	out->leaf_pad = in->leaf_pad;
	out->leaf_fill = in->leaf_fill;
	out->topk_eps = in->topk_eps; /* the nodes' top_k are copied with them */
	out->leaf_pick = in->leaf_pick; /* and so are their picks */
	out->truth = in->truth;
}

/* Distinct labels of node i that count for pruning: n_labels, less one if
 * class excl (>= 0, extern_mm) is among them (its list holds the classes
 * with p > 0: its labels, and after fit --leaf-pad or --leaf-fill other
 * classes too, but never extern_mm, which rerank does not pad or fill
 * with). */
static int
counted_labels(const tree *t, int i, int excl)
{
	const tree_node *d = &t->node[i];
	int n = d->n_labels;
	if (excl >= 0)
		for (int j = 0; j < d->prob_len; j++)
			if (t->prob[d->prob_off + j].cls == excl &&
			    t->prob[d->prob_off + j].p > 0) {
				n--;
				break;
			}
	return n;
}

/* Copy node i of in (and, unless pruned, its subtree) into out in pre-order;
 * returns the new id. */
static int
prune_rec(tree *out, const tree *in, int i, int depth, int k, int excl,
          size_t *ncap, size_t *pcap)
{
	/* bounded: every tree is at most TREE_MAX_DEPTH deep (tree_read, cart) */
	if (depth > TREE_MAX_DEPTH)
		die("prune: node %d at depth %d: deeper than TREE_MAX_DEPTH %d", i,
		    depth, TREE_MAX_DEPTH);
	const tree_node *s = &in->node[i];
	int id = out->n_node++;
	xgrow((void **)&out->node, ncap, (size_t)out->n_node, sizeof *out->node);
	xgrow((void **)&out->prob, pcap, (size_t)out->n_prob + (size_t)s->prob_len,
	      sizeof *out->prob);
	tree_node d = *s;
	d.prob_off = out->n_prob;
	if (s->prob_len > 0) /* a node without pairs: no (NULL) arrays to copy */
		memcpy(out->prob + out->n_prob, in->prob + s->prob_off,
		       (size_t)s->prob_len * sizeof *out->prob);
	out->n_prob += s->prob_len;
	if (s->feature >= 0 && (counted_labels(in, s->left, excl) < k ||
	                        counted_labels(in, s->right, excl) < k)) {
		d.feature = -1;
		d.threshold = -2.0;
		d.left = d.right = -1;
	}
	if (d.feature >= 0) {
		d.left = prune_rec(out, in, s->left, depth + 1, k, excl, ncap, pcap);
		d.right = prune_rec(out, in, s->right, depth + 1, k, excl, ncap, pcap);
	}
	out->node[id] = d;
	return id;
}

static void
prune(tree *out, const tree *in, int k, int excl)
{
	size_t ncap = 0, pcap = 0;
	if (excl >= in->n_class)
		die("prune: excluded class %d out of range (%d classes)", excl,
		    in->n_class);
	copy_header(out, in);
	out->ranking_k = k;
	if (in->n_node > 0)
		prune_rec(out, in, 0, 0, k, excl < 0 ? -1 : excl, &ncap, &pcap);
}

void
leaves_prune(tree *out, const tree *t, const leaf_rule *r, const rr_input *in,
             int n)
{
	prune(out, t, r->k, r->excl);
	rerank(out, in, n, r->mode, r->def, 1, r->pad, r->fill);
}

void
leaves_rank_all(tree *t, const leaf_rule *r, const rr_input *in, int n)
{
	rerank(t, in, n, r->mode, r->def, 0, r->pad, r->fill);
}
