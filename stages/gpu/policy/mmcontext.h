/* mmcontext.h — a tree's model feature vector from a raw mm context
 * (spec §1.1 context, §4.1 derived features, §4.3/§4.4 one-hot columns).
 * The C twin of what the emitted _MMRanking*.c computes, for programs that
 * load a tree TSV at run time (bench --use-heuristic). */
#ifndef MMRANK_MMCONTEXT_H
#define MMRANK_MMCONTEXT_H
#include "formats/ahlog_write.h"
#include "formats/tree.h"

/* Fill x[t->n_feat] for context in: raw numeric features (m, k, n, the four
 * strides), the derived m*k, m*n, k*n, arith_intensity (mm_derived), and
 * one-hot columns "<categorical>_<value>" (1.0 iff str(context value) ==
 * value; categoricals: mat1_dtype, mat2_dtype, mat1_iscontig,
 * mat2_iscontig, using_tf32).  Dies naming the feature if the tree uses one
 * an mm context does not have. */
void mm_tree_features(const tree *t, const ah_mm_input *in, double *x);

#endif
