/* tree.c — tree TSV reader/writer, traversal and ranking pruning.
 * Spec §5.5 (node semantics), §5.6 (pruning), §6.1 (leaf ordering); file
 * format: stages/FORMATS.md "tree TSV".  See tree.h for the contracts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "emittable.h"
#include "core/sniff.h"
#include "core/tsvtext.h"
#include "core/util.h"

/* ---- reading ------------------------------------------------------------ */

static int64_t
need_i64(const char *s, const char *path, long ln, const char *field)
{
	int64_t v;
	int rc = parse_i64(s, strlen(s), &v);
	if (rc != 0)
		die("%s:%ld: field '%s': %s: '%s'", path, ln, field,
		    rc == -2 ? "integer out of range" : "not an integer", s);
	/* the writer's form only (a tree is written by the stages): no
	 * leading zero, no "-0" */
	const char *d = s + (s[0] == '-');
	if (d[0] == '0' && (d[1] != '\0' || d != s))
		die("%s:%ld: field '%s': not as the writer prints it (a leading "
		    "zero or -0): '%s'", path, ln, field, s);
	return v;
}

static int
need_int(const char *s, const char *path, long ln, const char *field,
         int64_t lo, int64_t hi)
{
	int64_t v = need_i64(s, path, ln, field);
	if (v < lo || v > hi)
		die("%s:%ld: field '%s': %lld out of range [%lld, %lld]", path,
		    ln, field, (long long)v, (long long)lo, (long long)hi);
	return (int)v;
}

static double
need_f64(const char *s, const char *path, long ln, const char *field)
{
	double v;
	if (parse_f64(s, strlen(s), &v) != 0 || isnan(v))
		die("%s:%ld: field '%s': not a number: '%s'", path, ln, field, s);
	return v;
}

/* Parse "cls:p,cls:p,..." (may be empty) into t->prob, appended. */
static void
read_probs(tree *t, size_t *cap, char *s, const char *path, long ln)
{
	int last = -1;
	double sum = 0;
	if (*s == '\0')
		return;
	for (;;) {
		char *comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		char *colon = strchr(s, ':');
		if (!colon)
			die("%s:%ld: field 'probs': expected 'class:p', got '%s'",
			    path, ln, s);
		*colon = '\0';
		int c = need_int(s, path, ln, "probs", 0, t->n_class - 1);
		double p = need_f64(colon + 1, path, ln, "probs");
		if (c == last)
			die("%s:%ld: field 'probs': class %d listed twice", path, ln,
			    c);
		if (c < last)
			die("%s:%ld: field 'probs': class %d not in ascending order",
			    path, ln, c);
		if (!(p > 0 && p <= 1))
			die("%s:%ld: field 'probs': probability of class %d is %.17g, "
			    "not in (0, 1]", path, ln, c, p);
		last = c;
		sum += p;
		xgrow((void **)&t->prob, cap, (size_t)t->n_prob + 1, sizeof *t->prob);
		t->prob[t->n_prob].cls = c;
		t->prob[t->n_prob].p = p;
		t->n_prob++;
		if (!comma)
			break;
		s = comma + 1;
	}
	if (fabs(sum - 1.0) > 1e-6)
		die("%s:%ld: field 'probs': probabilities sum to %.17g, not 1",
		    path, ln, sum);
}

static void
read_param(tree *t, char **f, int nf, const char *path, long ln, unsigned *seen)
{
	static const char *const keys[] = {"criterion", "max_depth",
	    "min_samples_leaf", "ranking_k", "confidence_threshold", "leaf_pad",
	    "leaf_fill", "topk_eps", "leaf_pick", "truth"};
	const int nkeys = (int)(sizeof keys / sizeof *keys);
	if (nf != 3)
		die("%s:%ld: 'param' record needs 2 fields (key, value), has %d",
		    path, ln, nf - 1);
	int k;
	for (k = 0; k < nkeys; k++)
		if (strcmp(f[1], keys[k]) == 0)
			break;
	if (k == nkeys)
		die("%s:%ld: unknown param '%s'", path, ln, f[1]);
	if (*seen & (1u << k))
		die("%s:%ld: param '%s' given twice", path, ln, f[1]);
	*seen |= 1u << k;
	switch (k) {
	case 0:
		if (strcmp(f[2], "entropy") && strcmp(f[2], "gini"))
			die("%s:%ld: param 'criterion': expected 'entropy' or 'gini', "
			    "got '%s'", path, ln, f[2]);
		snprintf(t->criterion, sizeof t->criterion, "%s", f[2]);
		break;
	case 1:
		t->max_depth = need_int(f[2], path, ln, "max_depth", 0, TREE_MAX_DEPTH);
		break;
	case 2:
		t->min_samples_leaf = need_f64(f[2], path, ln, "min_samples_leaf");
		if (!(t->min_samples_leaf > 0) || isinf(t->min_samples_leaf) ||
		    (t->min_samples_leaf >= 1 &&
		     t->min_samples_leaf != floor(t->min_samples_leaf)))
			die("%s:%ld: param 'min_samples_leaf': expected a count >= 1 "
			    "or a fraction in (0, 1), got '%s'", path, ln, f[2]);
		break;
	case 3:
		t->ranking_k = need_int(f[2], path, ln, "ranking_k", 0, 1000000);
		break;
	case 4:
		t->confidence_threshold =
		    need_f64(f[2], path, ln, "confidence_threshold");
		break;
	case 5:
		t->leaf_pad = need_int(f[2], path, ln, "leaf_pad", 0, 1000000);
		break;
	case 6:
		t->leaf_fill = need_int(f[2], path, ln, "leaf_fill", 0, 1);
		break;
	case 7:
		t->topk_eps = need_f64(f[2], path, ln, "topk_eps");
		if (!(t->topk_eps > 0 && t->topk_eps < 1))
			die("%s:%ld: param 'topk_eps': expected a number in (0, 1), "
			    "got '%s'", path, ln, f[2]);
		break;
	case 8:
		t->leaf_pick = need_int(f[2], path, ln, "leaf_pick", 0, 1);
		break;
	case 9:
		t->truth = need_int(f[2], path, ln, "truth", 0, 1);
		break;
	}
}

/* Read a "feature" or "class" record: index (must equal *n), name. */
static void
read_named(char ***names, int *n, size_t *cap, char **f, int nf,
           const char *path, long ln)
{
	if (nf != 3)
		die("%s:%ld: '%s' record needs 2 fields (index, name), has %d",
		    path, ln, f[0], nf - 1);
	int i = need_int(f[1], path, ln, "index", 0, 100000000);
	if (i != *n)
		die("%s:%ld: %s index %d out of sequence (expected %d)", path, ln,
		    f[0], i, *n);
	if (f[2][0] == '\0')
		die("%s:%ld: %s %d has an empty name", path, ln, f[0], i);
	xgrow((void **)names, cap, (size_t)*n + 1, sizeof **names);
	(*names)[(*n)++] = xstrdup(f[2]);
}

/* Structural checks on the node array (spec: pre-order, node 0 the root).
 * lines[i] = file line of node i. */
static void
check_structure(const tree *t, const long *lines, const char *path)
{
	int n = t->n_node;
	int *parent = xmalloc((size_t)n * sizeof *parent);
	/* every error frees parent[] first (no leak for LeakSanitizer to report) */
#define STRUCT_DIE(...) do { free(parent); die(__VA_ARGS__); } while (0)
	for (int i = 0; i < n; i++)
		parent[i] = -1;
	for (int i = 0; i < n; i++) {
		const tree_node *d = &t->node[i];
		int ch[2] = {d->left, d->right};
		for (int s = 0; s < 2; s++) {
			const char *side = s ? "right" : "left";
			int c = ch[s];
			if (c < 0)
				continue;
			if (c >= n)
				STRUCT_DIE("%s:%ld: node %d: %s child %d does not exist "
				    "(dangling; the tree has %d nodes)", path, lines[i],
				    i, side, c, n);
			if (c <= i)
				STRUCT_DIE("%s:%ld: node %d: %s child %d is not after its parent "
				    "(cycle or not pre-order)", path, lines[i], i, side, c);
			int pc = parent[c];
			if (pc >= 0)
				STRUCT_DIE("%s:%ld: node %d: %s child %d already has parent %d",
				    path, lines[i], i, side, c, pc);
			parent[c] = i;
		}
	}
	for (int i = 1; i < n; i++)
		if (parent[i] < 0)
			STRUCT_DIE("%s:%ld: node %d is not reachable from the root", path,
			    lines[i], i);
	/* depth (tests from the root): a parent precedes its children, so one
	 * pass; parent[] becomes the depth of each node */
	parent[0] = 0;
	for (int i = 0; i < n; i++) {
		const tree_node *d = &t->node[i];
		if (d->left < 0)
			continue;
		int dep = parent[i] + 1;
		if (dep > TREE_MAX_DEPTH)
			STRUCT_DIE("%s:%ld: node %d: depth %d exceeds the cap of %d tests from "
			    "the root (TREE_MAX_DEPTH: the Python artifact would exceed "
			    "Python's indentation limit)", path, lines[d->left], d->left,
			    dep, TREE_MAX_DEPTH);
		parent[d->left] = parent[d->right] = dep;
	}
	/* pre-order: the left child follows its parent directly, the right
	 * child follows the last node of the left subtree. */
	for (int i = 0; i < n; i++) {
		const tree_node *d = &t->node[i];
		if (d->left < 0)
			continue;
		if (d->left != i + 1)
			STRUCT_DIE("%s:%ld: node %d: left child %d is not node %d "
			    "(nodes must be in depth-first pre-order)", path,
			    lines[i], i, d->left, i + 1);
		/* last node of the left subtree: follow rightmost path */
		int last = d->left;
		while (t->node[last].left >= 0)
			last = t->node[last].right;
		if (d->right != last + 1)
			STRUCT_DIE("%s:%ld: node %d: right child %d is not node %d "
			    "(nodes must be in depth-first pre-order)", path,
			    lines[i], i, d->right, last + 1);
	}
#undef STRUCT_DIE
	free(parent);
}

/* Read a "node" record (fields f[0..nf), file line ln) as node t->n_node;
 * lines (its file lines, grown with *lcap) and *marked (a truth mark 1
 * seen) are tree_read's. */
static void
read_node(tree *t, char **f, int nf, const char *path, long ln, size_t *ncap,
          size_t *pcap, long **lines, size_t *lcap, int *marked)
{
	/* top_k comes with param topk_eps (fit --topk-eps) and
	 * only with it, then pick with param leaf_pick, then
	 * the truth mark with param truth: older trees have 9
	 * fields */
	int want = 10 + (t->topk_eps > 0) + t->leaf_pick + t->truth;
	if (nf != want)
		die("%s:%ld: 'node' record needs %d fields%s%s%s, has %d", path,
		    ln, want - 1, t->topk_eps > 0 ? " (param topk_eps: "
		    "with top_k)" : "", !t->leaf_pick ? "" : t->truth ?
		    " (param leaf_pick: with pick)" : " (param leaf_pick: "
		    "the last is pick)", t->truth ? " (param truth: the last "
		    "is the truth mark)" : "", nf - 1);
	int id = need_int(f[1], path, ln, "id", 0, 100000000);
	if (id != t->n_node)
		die("%s:%ld: node id %d out of sequence (expected %d)",
		    path, ln, id, t->n_node);
	xgrow((void **)&t->node, ncap, (size_t)id + 1, sizeof *t->node);
	xgrow((void **)lines, lcap, (size_t)id + 1, sizeof **lines);
	(*lines)[id] = ln;
	if (id == 0)
		t->line_node = ln;
	tree_node *d = &t->node[id];
	d->feature = need_int(f[2], path, ln, "feature", -1,
	                      t->n_feat - 1);
	d->threshold = need_f64(f[3], path, ln, "threshold");
	d->left = need_int(f[4], path, ln, "left", -1, 100000000);
	d->right = need_int(f[5], path, ln, "right", -1, 100000000);
	d->n_samples = need_i64(f[6], path, ln, "n_samples");
	d->weighted_n = need_f64(f[7], path, ln, "weighted_n");
	d->n_labels = need_int(f[8], path, ln, "n_labels", 0,
	                       t->n_class);
	if (d->n_samples < 0)
		die("%s:%ld: field 'n_samples': negative", path, ln);
	if (d->weighted_n < 0 || isinf(d->weighted_n))
		die("%s:%ld: field 'weighted_n': %.17g not finite >= 0",
		    path, ln, d->weighted_n);
	if (d->feature < 0) {
		if (d->left != -1 || d->right != -1)
			die("%s:%ld: leaf node %d (feature -1) must have "
			    "children -1 -1", path, ln, id);
	} else {
		if (d->left < 0 || d->right < 0)
			die("%s:%ld: internal node %d (feature %d) needs two "
			    "children", path, ln, id, d->feature);
		if (isinf(d->threshold))
			die("%s:%ld: field 'threshold': not finite", path, ln);
	}
	d->top_k = t->topk_eps > 0
	    ? need_int(f[10], path, ln, "top_k", 1, 1000000) : 0;
	d->pick = t->leaf_pick
	    ? need_int(f[want - 1 - t->truth], path, ln, "pick", -1,
	               t->n_class - 1) : -1;
	d->truth = t->truth
	    ? need_int(f[want - 1], path, ln, "truth", 0, 1) : 0;
	if (d->truth && d->feature >= 0)
		die("%s:%ld: field 'truth': 1 on internal node %d (the mark "
		    "is a leaf's)", path, ln, id);
	d->prob_off = t->n_prob;
	read_probs(t, pcap, f[9], path, ln);
	d->prob_len = t->n_prob - d->prob_off;
	if (d->prob_len == 0 && d->pick >= 0)
		die("%s:%ld: field 'pick': %d, but the node has no "
		    "classes (no list, no pick: -1)", path, ln, d->pick);
	if (d->prob_len == 0 && d->truth)
		die("%s:%ld: field 'truth': 1, but the node has no classes (the "
		    "truth marks a leaf whose list it set)", path, ln);
	*marked |= d->truth;
	/* every training row has a weight > 0, so the distinct labels
	 * of a node are among its classes with p > 0: all of them,
	 * or up to leaf_pad fewer when fit --leaf-pad appended
	 * ancestors' classes, or any number fewer when fit
	 * --leaf-fill appended the other classes (nodes without a
	 * distribution, e.g. imported internal nodes, are exempt) */
	if (d->prob_len > 0 && d->n_labels > d->prob_len)
		die("%s:%ld: field 'n_labels': %d, but the node lists %d "
		    "classes with p > 0", path, ln, d->n_labels,
		    d->prob_len);
	if (d->prob_len > 0 && !t->leaf_fill &&
	    d->prob_len > d->n_labels + t->leaf_pad)
		die("%s:%ld: field 'n_labels': %d, but the node lists %d "
		    "classes with p > 0 (at most n_labels + param leaf_pad "
		    "%d without param leaf_fill 1)", path, ln, d->n_labels,
		    d->prob_len, t->leaf_pad);
	t->n_node++;
}

void
tree_read(tree *t, const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	memset(t, 0, sizeof *t);
	size_t fcap = 0, ccap = 0, ncap = 0, pcap = 0, lcap = 0;
	long *lines = NULL;
	unsigned seen = 0;
	long truth_line = 0; /* param truth's line, and whether a node has */
	int marked = 0;      /* the truth mark 1 */
	int stage = 0; /* 0 param, 1 feature, 2 class, 3 node */
	int64_t lineno = 0;
	char *pos = buf, *p;

	const char *nl1 = memchr(buf, '\n', len);
	sniff_or_die(path, buf, nl1 ? (size_t)(nl1 - buf) : len);
	tsv_check(path, buf, len, "the metadata JSON line");
	while ((p = tsv_line(&pos, path, &lineno))) {
		long ln = (long)lineno;
		if (ln == 1) {
			if (p[0] != '{')
				die("%s:1: expected the metadata JSON line, got '%.40s'",
				    path, p);
			t->meta_json = xstrdup(p);
			continue;
		}
		char *f[16];
		int nf = tsv_split(p, f, 16);
		int kind;
		if (strcmp(f[0], "param") == 0)
			kind = 0;
		else if (strcmp(f[0], "feature") == 0)
			kind = 1;
		else if (strcmp(f[0], "class") == 0)
			kind = 2;
		else if (strcmp(f[0], "node") == 0)
			kind = 3;
		else
			die("%s:%ld: unknown record kind '%s'", path, ln, f[0]);
		if (kind < stage)
			die("%s:%ld: '%s' record after a later kind (order is param, "
			    "feature, class, node)", path, ln, f[0]);
		stage = kind;
		if (kind == 0) {
			read_param(t, f, nf, path, ln, &seen);
			if (t->truth && !truth_line)
				truth_line = ln;
		} else if (kind == 1) {
			if (t->n_feat == 0)
				t->line_feat = ln;
			read_named(&t->feat, &t->n_feat, &fcap, f, nf, path, ln);
		} else if (kind == 2) {
			read_named(&t->cls, &t->n_class, &ccap, f, nf, path, ln);
			/* a choice id no artifact can hold is refused by its first
			 * reader (prune, eval, emit), as the log reader refuses it */
			const char *bad = emittable_problem(t->cls[t->n_class - 1]);
			if (bad)
				die("%s:%ld: class %d '%.200s%s' cannot be emitted: %s", path, ln,
				    t->n_class - 1, t->cls[t->n_class - 1],
				    strlen(t->cls[t->n_class - 1]) > 200 ? "..." : "", bad);
			if (t->n_class > 1 &&
			    strcmp(t->cls[t->n_class - 2], t->cls[t->n_class - 1]) >= 0)
				die("%s:%ld: class '%s' not after '%s' in strcmp order",
				    path, ln, t->cls[t->n_class - 1],
				    t->cls[t->n_class - 2]);
		} else {
			read_node(t, f, nf, path, ln, &ncap, &pcap, &lines, &lcap, &marked);
		}
	}
	if (t->n_node == 0)
		die("%s: no 'node' records", path);
	if (t->truth && !marked)
		die("%s:%ld: param truth 1, but no node has the truth mark 1 (a "
		    "tree without leaves the truth set has no param truth)", path,
		    truth_line);
	if (t->n_class == 0)
		die("%s: no 'class' records", path);
	check_structure(t, lines, path);
	free(lines);
	free(buf);
}

/* ---- writing ------------------------------------------------------------ */

void
tree_write(const tree *t, FILE *fp)
{
	fprintf(fp, "%s\n", t->meta_json ? t->meta_json : "{}");
	fprintf(fp, "param\tcriterion\t%s\n", t->criterion);
	fprintf(fp, "param\tmax_depth\t%d\n", t->max_depth);
	fprintf(fp, "param\tmin_samples_leaf\t%.17g\n", t->min_samples_leaf);
	fprintf(fp, "param\tranking_k\t%d\n", t->ranking_k);
	fprintf(fp, "param\tconfidence_threshold\t%.17g\n",
	        t->confidence_threshold);
	if (t->leaf_pad > 0)
		fprintf(fp, "param\tleaf_pad\t%d\n", t->leaf_pad);
	if (t->leaf_fill)
		fprintf(fp, "param\tleaf_fill\t1\n");
	if (t->topk_eps > 0)
		fprintf(fp, "param\ttopk_eps\t%.17g\n", t->topk_eps);
	if (t->leaf_pick)
		fprintf(fp, "param\tleaf_pick\t1\n");
	if (t->truth)
		fprintf(fp, "param\ttruth\t1\n");
	for (int i = 0; i < t->n_feat; i++)
		fprintf(fp, "feature\t%d\t%s\n", i, t->feat[i]);
	for (int i = 0; i < t->n_class; i++)
		fprintf(fp, "class\t%d\t%s\n", i, t->cls[i]);
	for (int i = 0; i < t->n_node; i++) {
		const tree_node *d = &t->node[i];
		fprintf(fp, "node\t%d\t%d\t%.17g\t%d\t%d\t%lld\t%.17g\t%d\t", i,
		        d->feature, d->feature < 0 ? -2.0 : d->threshold, d->left,
		        d->right, (long long)d->n_samples, d->weighted_n, d->n_labels);
		for (int j = 0; j < d->prob_len; j++) {
			const tree_prob *q = &t->prob[d->prob_off + j];
			fprintf(fp, "%s%d:%.17g", j ? "," : "", q->cls, q->p);
		}
		if (t->topk_eps > 0)
			fprintf(fp, "\t%d", d->top_k);
		if (t->leaf_pick)
			fprintf(fp, "\t%d", d->pick);
		if (t->truth)
			fprintf(fp, "\t%d", d->truth);
		fputc('\n', fp);
	}
}

void
tree_free(tree *t)
{
	free(t->meta_json);
	for (int i = 0; t->feat && i < t->n_feat; i++)
		free(t->feat[i]);
	free(t->feat);
	for (int i = 0; t->cls && i < t->n_class; i++)
		free(t->cls[i]);
	free(t->cls);
	free(t->node);
	free(t->prob);
	memset(t, 0, sizeof *t);
}

/* ---- queries ------------------------------------------------------------ */

int
tree_apply(const tree *t, const double *x)
{
	int i = 0;
	while (t->node[i].feature >= 0)
		i = x[t->node[i].feature] <= t->node[i].threshold ? t->node[i].left
		                                                  : t->node[i].right;
	return i;
}

/* Children follow their parent (pre-order, tree_read checks it; fit and
 * prune build trees so), so one pass over the nodes gives every depth. */
int
tree_depth(const tree *t)
{
	if (t->n_node == 0)
		return 0;
	int *dep = xmalloc((size_t)t->n_node * sizeof *dep), max = 0;
	dep[0] = 0;
	for (int i = 0; i < t->n_node; i++) {
		const tree_node *d = &t->node[i];
		if (d->feature < 0) {
			if (dep[i] > max)
				max = dep[i];
			continue;
		}
		dep[d->left] = dep[d->right] = dep[i] + 1;
	}
	free(dep);
	return max;
}

int
tree_leaves(const tree *t)
{
	int n = 0;
	for (int i = 0; i < t->n_node; i++)
		n += t->node[i].feature < 0;
	return n;
}

static int
cmp_ranked(const void *a, const void *b)
{
	const tree_prob *x = a, *y = b;
	if (x->p != y->p)
		return x->p > y->p ? -1 : 1;
	return (x->cls > y->cls) - (x->cls < y->cls);
}

int
tree_ranked(const tree *t, int leaf, tree_prob *out, int max)
{
	const tree_node *d = &t->node[leaf];
	if (d->prob_len == 0) /* (t->prob is NULL in a tree of empty leaves) */
		return 0;
	tree_prob *tmp = xmalloc(((size_t)d->prob_len + 1) * sizeof *tmp);
	memcpy(tmp, t->prob + d->prob_off, (size_t)d->prob_len * sizeof *tmp);
	qsort(tmp, (size_t)d->prob_len, sizeof *tmp, cmp_ranked);
	int n = d->prob_len < max ? d->prob_len : max;
	if (n > 0)
		memcpy(out, tmp, (size_t)n * sizeof *out);
	free(tmp);
	return n;
}

int
tree_pick(const tree *t, int leaf)
{
	const tree_node *d = &t->node[leaf];
	if (d->prob_len == 0)
		return -1;
	if (t->leaf_pick && d->pick >= 0)
		return d->pick;
	tree_prob first;
	return tree_ranked(t, leaf, &first, 1) > 0 ? first.cls : -1;
}

int
tree_truth_leaves(const tree *t)
{
	int n = 0;
	for (int i = 0; t->truth && i < t->n_node; i++)
		n += t->node[i].feature < 0 && t->node[i].truth;
	return n;
}
