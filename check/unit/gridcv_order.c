/* gridcv_order — check/t2160-gridcv.sh: the gridcv.h contract for
 * parallel fits: the passes' jobs run in any order, all passes open at once,
 * give the metrics and trees of gridcv_run when the passes are closed in
 * order.  usage: gridcv_order MAIN.feat.tsv GRID FOLDS K [reverse]; prints
 * "same" and exits 0, or names the first difference and exits 1; reverse
 * closes the passes in reverse order (which must differ).  One set, group
 * split (seed 42, test 0.2), greedy leaf order with pad 2. */
#include <stdlib.h>
#include <string.h>

#include "learn/gridcv.h"
#include "learn/split.h"
#include "core/util.h"

static int
same_metrics(const metrics *a, const metrics *b)
{
	char *x = NULL, *y = NULL;
	size_t nx = 0, ny = 0;
	FILE *fx = open_memstream(&x, &nx), *fy = open_memstream(&y, &ny);
	mx_tsv_row(a, fx);
	mx_tsv_row(b, fy);
	fclose(fx);
	fclose(fy);
	int same = nx == ny && !memcmp(x, y, nx);
	free(x);
	free(y);
	return same;
}

/* The same nodes and lists (field by field: structs have padding). */
static int
same_tree(const tree *a, const tree *b)
{
	if (a->n_node != b->n_node || a->n_prob != b->n_prob)
		return 0;
	for (int i = 0; i < a->n_prob; i++)
		if (a->prob[i].cls != b->prob[i].cls || a->prob[i].p != b->prob[i].p)
			return 0;
	for (int i = 0; i < a->n_node; i++) {
		const tree_node *x = &a->node[i], *y = &b->node[i];
		if (x->feature != y->feature || x->threshold != y->threshold ||
		    x->left != y->left || x->prob_off != y->prob_off ||
		    x->prob_len != y->prob_len || x->n_labels != y->n_labels)
			return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "reverse")))
		die("usage: gridcv_order MAIN.feat.tsv GRID FOLDS K [reverse]");
	int rev = argc == 6;
	dset ds = {.name = "main", .path = argv[1]};
	dset_read(&ds, NULL);
	dset_expand(&ds, -1);
	int folds = atoi(argv[3]), k = atoi(argv[4]), nmodels, nsets;
	split_params sp = {SPLIT_GROUP, 42, 0.2, 0, 0};
	split_sets(&ds, &sp);
	unsigned mask = (1u << S_TRAIN) | (1u << S_VAL);
	training tr;
	training_make(&tr, &ds, 1, mask, 1, 0);
	split_folds(tr.src, mask, folds, 42);
	evset *sets = gridcv_sets(&tr, 0, 1, &nsets);
	model *models;
	grid_read(argv[2], &models, &nmodels);
	int rdef = tr.def < tr.n_class ? tr.def : -1;
	gridcv g = {&tr, models, nmodels, folds, sets, nsets, {k, -1, RR_GREEDY, rdef, 2, 0}};

	gridcv_result a, b;
	gridcv_run(&g, &a, NULL);
	/* every pass open, every job in reverse, fitted first for half */
	gridcv_pass *p = xcalloc((size_t)folds + 1, sizeof *p);
	for (int f = folds; f >= 0; f--) {
		gridcv_pass_open(&p[f], &g, f < folds ? f : -1);
		if (f % 2)
			gridcv_pass_fit(&p[f], NULL);
	}
	for (int f = folds; f >= 0; f--)
		for (int mi = nmodels - 1; mi >= 0; mi--)
			gridcv_model(&p[f], mi, 1);
	gridcv_result_init(&b, &g);
	for (int f = 0; f <= folds; f++)
		gridcv_pass_close(&p[rev ? folds - f : f], &b);
	gridcv_finish(&b, &g);
	int bad = 0;
	for (int i = 0; i < nmodels * nsets && !bad; i++)
		if (!same_metrics(&a.mx[i], &b.mx[i]))
			bad = printf("model %d set %s: metrics differ\n", i / nsets,
			             sets[i % nsets].name);
	for (int mi = 0; mi < nmodels && !bad; mi++)
		if (!same_tree(&a.pruned[mi], &b.pruned[mi]) ||
		    !same_tree(&a.full[mi], &b.full[mi]))
			bad = printf("model %d: trees differ\n", mi);
	if (!bad)
		printf("same (%d models, %d folds)\n", nmodels, folds);
	gridcv_result_free(&a, &g);
	gridcv_result_free(&b, &g);
	free(p);
	free(models);
	gridcv_sets_free(sets, nsets);
	training_free(&tr);
	dset_free(&ds);
	close_stdout();
	return bad != 0;
}
