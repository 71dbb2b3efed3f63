/* prune — ranking pruning of a decision tree (spec §5.6).
 *
 * Reads a tree TSV (stages/FORMATS.md), replaces every internal node one of
 * whose children saw fewer than K distinct training labels (the node's
 * n_labels column) by a leaf with the node's own class distribution, and
 * writes the result renumbered in pre-order.  Unlike the reference, pruned
 * leaves keep their own n_samples (the reference resets id and num_samples
 * to 0, spec §8 item 5).  The pruning is leaves.h's, the one fit evaluates
 * every model with: on fit's tree it re-derives the selected model's
 * pruned tree (fit orders every node of the tree it writes). */
#include <stdlib.h>
#include <string.h>

#include "formats/ahmeta.h"
#include "formats/featset.h"
#include "learn/leaves.h"
#include "learn/truthhead.h"
#include "core/opts.h"
#include "formats/rules.h"
#include "formats/tree.h"
#include "core/util.h"

static const char synopsis[] =
"prune --ranking K [--prune-exclude-extern] [--truth TRUTH.feat.tsv\n"
"      [--truth-depth D]] -o PRUNED.tsv TREE.tsv";

static const char about[] =
"Ranking pruning of a decision tree, spec §5.6: from the root, an internal\n"
"node whose left or right child has fewer than K distinct training labels\n"
"(column n_labels) becomes a leaf keeping its own class distribution.\n"
"With --truth (ours), each leaf the truth's inputs reach is split where\n"
"they want different kernels, then gets the head and the pick that the\n"
"truth's times say are best for them, and the truth mark (param truth 1,\n"
"a last node field; emit: the artifact's get_truth, and the handler's\n"
"k = 1 runs those leaves' picks alone).  A node the pruning collapses is\n"
"an unmarked leaf; param truth stays while a marked leaf does.\n";

static const char notes[] =
"Exit status: 0 on success, 1 on bad usage or invalid input (the message\n"
"names file:line and the field), 1 on a write error.\n";

int
main(int argc, char **argv)
{
	const char *out = NULL, *in = NULL, *truth = NULL;
	int k = 0, pxe = 0, tdepth = -1;
	const opt table[] = {
		OPT_POS("TREE.tsv", &in, OPT_REQUIRED | OPT_INPUT,
		        "tree TSV written by fit (stages/FORMATS.md \"tree TSV\")"),
		OPT_INT("--ranking", "K", &k, 1, 1000000, OPT_REQUIRED,
		        "integer >= 1: labels every surviving leaf must keep (spec "
		        "§5.0 --ranking; mm uses 10)"),
		OPT_FLAG("--prune-exclude-extern", &pxe,
		         "(ours, departs from §5.6) the class named extern_mm does not "
		         "count among a child's labels, so every surviving leaf keeps "
		         ">= K labels other than extern_mm (Inductor appends it anyway, "
		         "§7.3); a tree without that class prunes as without the "
		         "option.  Use with fit --prune-exclude-extern"),
		OPT_STRING("--truth", "TRUTH.feat.tsv", &truth, OPT_INPUT,
		        "(ours) the in-graph truth, a feat TSV of in-graph ms "
		        "(perf/models/truth_log.py's log, featurized) of the tree's "
		        "device: leaves its inputs reach are split where they want "
		        "different kernels, then get as head and pick the class "
		        "with the lowest regret alone over them (ties by k = 1's, "
		        "beside extern_mm), each only where it beats the tree's, "
		        "and, in a tree with per-leaf k, top_k 1 "
		        "(learn/truthhead.h); one line per change and the totals "
		        "on stderr"),
		OPT_INT("--truth-depth", "D", &tdepth, 0, TREE_MAX_DEPTH, 0,
		        "(ours) with --truth: levels of splits below a leaf whose "
		        "truth inputs want different kernels alone (>= 2 inputs a "
		        "side, summed ln regret down >= 0.05 and >= 0.01 per "
		        "input); 0 to 64, 0: none.  Default 2"),
		OPT_OUT("PRUNED.tsv", &out, OPT_REQUIRED,
		        "output tree TSV, param ranking_k = K; written atomically"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 18, NULL}, argc, argv);

	if (tdepth >= 0 && !truth)
		die("--truth-depth needs --truth");
	if (tdepth < 0)
		tdepth = 2;
	tree t, p;
	tree_read(&t, in);
	int excl = -1;
	for (int c = 0; pxe && t.cls && c < t.n_class; c++)
		if (!strcmp(t.cls[c], DEFAULT_CHOICE))
			excl = c;
	/* the lists are ordered already (fit): RR_FREQ keeps them */
	leaf_rule rule = {k, excl, RR_FREQ, -1, 0, 0};
	leaves_prune(&p, &t, &rule, NULL, 0);
	/* a node the pruning collapsed is a new leaf, unmarked (the mark is
	 * a leaf's): param truth stays while a marked leaf does */
	p.truth = tree_truth_leaves(&p) > 0;
	if (truth) {
		featset fs;
		featset_read(&fs, truth);
		ah_meta tm;
		char where[4200];
		snprintf(where, sizeof where, "%s:1", in);
		ah_meta_parse(&tm, p.meta_json, where);
		ah_meta_check(&tm, in, &fs.meta, truth, 0, NULL);
		ah_meta_free(&tm);
		truth_count tc;
		truth_heads(&p, in, &fs, truth, tdepth, &tc, stderr);
		fprintf(stderr, "prune: truth %s: %d inputs (%d skipped: every choice "
		        "failed; %d in unsafe leaves; %d with no listed choice timed) in "
		        "%d leaves: %d split, %d heads, "
		        "%d picks, %d top_k changed; k = 1 regret %.4f -> %.4f, the pick alone %.4f -> "
		        "%.4f (geomean)\n", truth, tc.inputs, tc.skipped, tc.unsafe, tc.unlisted,
		        tc.leaves, tc.splits, tc.heads, tc.picks, tc.topks, tc.k1_before, tc.k1_after,
		        tc.alone_before, tc.alone_after);
		featset_free(&fs);
	}
	aout o;
	FILE *fp = aout_open(&o, out);
	tree_write(&p, fp);
	aout_commit(&o);
	fprintf(stderr, "prune: k=%d: %d nodes, %d leaves, depth %d -> %d nodes, "
	        "%d leaves, depth %d\n", k, t.n_node, tree_leaves(&t),
	        tree_depth(&t), p.n_node, tree_leaves(&p), tree_depth(&p));
	tree_free(&t);
	tree_free(&p);
	close_stdout();
	return 0;
}
