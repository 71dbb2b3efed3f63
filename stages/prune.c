/* prune — ranking pruning of a decision tree (spec §5.6).
 *
 * Reads a tree TSV (stages/FORMATS.md), replaces every internal node one of
 * whose children saw fewer than K distinct training labels (the node's
 * n_labels column) by a leaf with the node's own class distribution, and
 * writes the result renumbered in pre-order.  Unlike the reference, pruned
 * leaves keep their own n_samples (the reference resets id and num_samples
 * to 0, spec §8 item 5). */
#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "util.h"

static const char usage[] =
"usage: prune --ranking K [--prune-exclude-extern] -o PRUNED.tsv TREE.tsv\n"
"\n"
"Ranking pruning of a decision tree, spec §5.6: from the root, an internal\n"
"node whose left or right child has fewer than K distinct training labels\n"
"(column n_labels) becomes a leaf keeping its own class distribution.\n"
"\n"
"  TREE.tsv        tree TSV written by fit (stages/FORMATS.md \"tree TSV\")\n"
"  --ranking K     integer >= 1: labels every surviving leaf must keep (spec\n"
"                  §5.0 --ranking; mm uses 10)\n"
"  --prune-exclude-extern\n"
"                  (ours, departs from §5.6) the class named extern_mm does\n"
"                  not count among a child's labels, so every surviving leaf\n"
"                  keeps >= K labels other than extern_mm (Inductor appends\n"
"                  it anyway, §7.3); a tree without that class prunes as\n"
"                  without the option.  Use with fit --prune-exclude-extern\n"
"  -o PRUNED.tsv   output tree TSV, param ranking_k = K; written atomically\n"
"\n"
"Exit status: 0 on success, 1 on bad usage or invalid input (the message\n"
"names file:line and the field), 1 on a write error.\n";

int
main(int argc, char **argv)
{
	const char *out = NULL, *in = NULL;
	long k = -1;
	int pxe = 0;

	std_options(argc, argv, usage);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ranking") && i + 1 < argc) {
			int64_t v;
			const char *s = argv[++i];
			if (parse_i64(s, strlen(s), &v) != 0 || v < 1 || v > 1000000)
				die("--ranking: expected an integer >= 1, got '%s'", s);
			k = (long)v;
		} else if (!strcmp(argv[i], "--prune-exclude-extern")) {
			pxe = 1;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			die("unknown or incomplete option '%s' (see --help)", argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			die("more than one input tree: '%s' and '%s'", in, argv[i]);
		}
	}
	if (k < 0 || !out || !in)
		die("usage: prune --ranking K [--prune-exclude-extern] -o PRUNED.tsv "
		    "TREE.tsv (see --help)");

	tree t, p;
	check_output_not_input(out, in);
	tree_read(&t, in);
	int excl = -1;
	for (int c = 0; pxe && t.cls && c < t.n_class; c++)
		if (!strcmp(t.cls[c], "extern_mm"))
			excl = c;
	tree_prune_ex(&p, &t, (int)k, excl);
	aout o;
	FILE *fp = aout_open(&o, out);
	tree_write(&p, fp);
	aout_commit(&o);
	fprintf(stderr, "prune: k=%ld: %d nodes, %d leaves, depth %d -> %d nodes, "
	        "%d leaves, depth %d\n", k, t.n_node, tree_leaves(&t),
	        tree_depth(&t), p.n_node, tree_leaves(&p), tree_depth(&p));
	tree_free(&t);
	tree_free(&p);
	close_stdout();
	return 0;
}
