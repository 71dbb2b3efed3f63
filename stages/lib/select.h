/* select.h — fit's model selection (spec §5.10; ours: issue #3).
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
 *
 * Issue #19 will choose by an objective over several k (1, 2, 5, 10):
 * the evaluation then yields metrics per (model, k) and a rule compares
 * two models' vectors; select_model's stride already lets the metrics of
 * one model sit among others.
 */
#ifndef MMRANK_SELECT_H
#define MMRANK_SELECT_H
#include <stddef.h>

#include "metrics.h"

enum { SEL_TOP1, SEL_REGRET, SEL_HIT };

/* 1 iff metrics m beat the best so far b (NULL: none yet) by rule. */
int select_better(const metrics *m, const metrics *b, int rule);
/* The selected model of n, model i's metrics at mx[i * stride]; -1 if
 * none qualifies. */
int select_model(const metrics *mx, int n, size_t stride, int rule);

#endif
