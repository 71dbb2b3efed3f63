/* dot.c — see dot.h (spec §6.2). */
#include "dot.h"

#include <inttypes.h>
#include <stdlib.h>

#include "core/util.h"

static void put_escaped(const char *s, FILE *fp)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		fputc(*s, fp);
	}
}

/* "num_samples=<n>\n" then all class probabilities, 5 per row (§6.2).
 * dense[n_class] is scratch space. */
static void put_probs(const tree *t, const tree_node *d, double *dense, FILE *fp)
{
	for (int c = 0; c < t->n_class; c++)
		dense[c] = 0.0;
	for (int j = 0; j < d->prob_len; j++)
		dense[t->prob[d->prob_off + j].cls] = t->prob[d->prob_off + j].p;
	fprintf(fp, "num_samples=%" PRId64 "\\n", d->n_samples);
	for (int c = 0; c < t->n_class; c++) {
		if (c > 0)
			fputs(c % 5 == 0 ? "\\n" : ", ", fp);
		if (dense[c] == 0.0)
			fputc('0', fp);
		else
			fprintf(fp, "%.2f", dense[c]);
	}
}

static void put_node(const tree *t, int i, int parent, const char *edge,
                     double *dense, FILE *fp)
{
	const tree_node *d = &t->node[i];
	int leaf = d->feature < 0;
	fprintf(fp, "    %d [label=\"", i);
	if (!leaf) {
		put_escaped(t->feat[d->feature], fp);
		fprintf(fp, " <= %.2f\\n", d->threshold);
	}
	put_probs(t, d, dense, fp);
	/* a leaf whose pick (tree_pick) is not its first entry names it */
	tree_prob first;
	int pk = leaf ? tree_pick(t, i) : -1;
	if (pk >= 0 && tree_ranked(t, i, &first, 1) == 1 && first.cls != pk) {
		fputs("\\npick=", fp);
		put_escaped(t->cls[pk], fp);
	}
	fprintf(fp, "\", shape=%s];\n", leaf ? "box" : "oval");
	if (parent >= 0)
		fprintf(fp, "    %d -> %d [label=\"%s\"];\n", parent, i, edge);
	if (!leaf) {
		put_node(t, d->left, i, "<=", dense, fp);
		put_node(t, d->right, i, ">", dense, fp);
	}
}

void dot_write(const tree *t, FILE *fp)
{
	double *dense = xcalloc((size_t)t->n_class + 1, sizeof *dense);
	fputs("digraph DecisionTree {\n"
	      "    node [fontname=\"helvetica\"];\n"
	      "    edge [fontname=\"helvetica\"];\n", fp);
	put_node(t, 0, -1, "", dense, fp);
	fputs("}\n", fp);
	free(dense);
}
