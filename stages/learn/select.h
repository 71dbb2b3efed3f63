/* select.h — fit's model selection (spec §5.10; all but SEL_TOP1 ours).
 *
 * Each model of the grid has the metrics (metrics.h) of its validation
 * set, or with --folds of its cross-validation set (every training input
 * ranked by the model fitted without its fold).  In grid order, a model
 * replaces the best so far iff select_better() says so:
 *   SEL_TOP1 (the reference, §5.10): wrong <= total * 1.0 (mm's allowed
 *            share) and strictly more top-1 correct than the best so far
 *            (initially 0, so a model with no correct prediction never
 *            qualifies);
 *   SEL_REGRET: a smaller top-k regret geometric mean, by more than 1e-12;
 *            ties by more top_k_correct, then the earlier model;
 *   SEL_HIT: more top_k_correct (the top-k hit rate); ties by a smaller
 *            regret geometric mean, by more than 1e-12, then the earlier
 *            model.
 * SEL_REGRET and SEL_HIT skip a model whose set is empty.
 *   SEL_CURVE (select_curve): the whole curve (curve.h), k in
 *            cv_select_points (1, 2, 5, 10; top-k + extern_mm): the
 *            smallest mean over those k of L_k(model) / min over the grid's
 *            models of L_k, L_k = the mean capped ln regret at k
 *            (cv_lcap), so each k weighs alike although regrets shrink
 *            with k (a raw mean would be the k = 1 term alone and picks,
 *            out of fold, trees that are worse at k = 10); a zero minimum
 *            counts as 1e-9.  Ties (within 1e-12) by more top_k_correct,
 *            then the earlier model; a model whose set is empty is
 *            skipped.
 */
#ifndef MMRANK_SELECT_H
#define MMRANK_SELECT_H
#include <stddef.h>

#include "curve.h"
#include "metrics.h"

enum { SEL_TOP1, SEL_REGRET, SEL_HIT, SEL_CURVE };

/* 1 iff metrics m beat the best so far b (NULL: none yet) by rule. */
int select_better(const metrics *m, const metrics *b, int rule);
/* The selected model of n, model i's metrics at mx[i * stride]; -1 if
 * none qualifies. */
int select_model(const metrics *mx, int n, size_t stride, int rule);
/* SEL_CURVE's selected model of n (model i's curve at cv[i * stride], its
 * metrics at mx[i * stride]); -1 if every set is empty. */
int select_curve(const cv_acc *cv, const metrics *mx, int n, size_t stride);

#endif
