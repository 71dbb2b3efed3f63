/* dot.h — Graphviz DOT rendering of a decision tree (spec §6.2 --save-dot),
 * shared by `emit --format dot` and `fit --save-dot`. */
#ifndef MMRANK_DOT_H
#define MMRANK_DOT_H
#include <stdio.h>

#include "tree.h"

/* Write tree t to fp in the layout of the reference's DecisionTree.to_dot()
 * (spec §6.2), with one difference: node ids are the tree's own node ids
 * (0 = root, pre-order; stable between runs) instead of memory addresses.
 *
 *   digraph DecisionTree {
 *       node [fontname="helvetica"];
 *       edge [fontname="helvetica"];
 *       <id> [label="<label>", shape=<oval|box>];     one per node, pre-order
 *       <parent> -> <id> [label="<=" or ">"];         after the child's line
 *   }
 *
 * Internal label: "<feature> <= <threshold %.2f>\n<block>", leaf label:
 * "<block>", where block = "num_samples=<n_samples>\n" then every class
 * probability in class order (0 if exactly 0, else %.2f), 5 per row,
 * ", " between items, the literal two characters \n between rows.
 * `"` and `\` in feature names are escaped.  Unlike the reference, the file
 * ends with a newline after "}", a pruned leaf keeps its n_samples, and a
 * leaf whose pick (tree.h tree_pick) is not its first ranked class ends
 * its label with "\npick=<choice id>" (escaped likewise).
 * Write errors are left in ferror(fp) for the caller's aout_commit(). */
void dot_write(const tree *t, FILE *fp);

#endif
