/* leaforder.h — leaf list orders that are good at every list length
 * (spec §5.9 top-k list, §6.1 leaf lists, §7.3 how Inductor uses
 * them), and each leaf's pick.  rerank() (rerank.h) calls lo_order() and
 * lo_pick() for the RR_PREFIX modes.
 *
 * A leaf's list is used two ways.  Inductor filters it to the choices it
 * offers for the shape, keeps the first k and appends extern_mm (§7.3), then
 * autotunes those; a runtime that cannot autotune launches one choice alone
 * (<name>_pick(), templates/heuristic.h.m4), which was the first entry and
 * is now the leaf's pick (lo_pick below), so that the rules may train the
 * head for the lists.  Over the training inputs that
 * reach the node (weights w, rr_input), with lr(t) = ln(t / best) capped at
 * ln RR_REGRET_CAP (a failed, +inf, choice costs the cap):
 *
 *   alone      the first-entry regret: sum_i w_i lr_i(the first listed
 *              choice that was measured for i).  A choice not measured for
 *              input i (NaN: Inductor did not offer it for that shape) is
 *              skipped, as Inductor's filter skips it, and the next listed
 *              one decides; an input none of whose listed choices was
 *              measured gets extern_mm, which rank() appends to every list.
 *   prefix_j   sum_i w_i lr_i(the best of the first j listed choices
 *              measured for i, and extern_mm): the top-j regret with
 *              Inductor's append.
 *
 * lo_order() builds the list greedily:
 *   entry 0    the class c, extern_mm (def) included when the node lists it,
 *              with the largest
 *                lambda (alone(def only) - alone(c)) + (1 - lambda)
 *                (prefix_0 - prefix_1(c)) - margin W_c
 *              (W_c: the weight of the inputs c was measured for; def's
 *              value is 0, so another class goes first only if it beats
 *              extern_mm alone by more than `margin` mean ln regret per
 *              input: a choice that wins in-sample by little is often far
 *              slower on shapes the leaf's inputs did not cover, which
 *              extern_mm never is); ties: more wins, the larger original p,
 *              the lower position;
 *   entry j>0  by `rest`, among the classes left but def:
 *     LO_REST_HIT     the most (weighted) inputs won (a class wins an input
 *                     whose fastest choice it is), ties by the largest drop
 *                     of prefix (rerank.h RR_GREEDY's rule);
 *     LO_REST_HIT2    the most inputs won, ties by the most runner-up wins
 *                     (inputs whose fastest measured class other than def
 *                     it is: the class that wins where extern_mm turns out
 *                     slower; in-sample win counts leave the classes that
 *                     win nothing tied, and out of fold such a class is
 *                     the next winner more often than the one that lowers
 *                     in-sample prefix regret most), then by the largest
 *                     drop of prefix;
 *              then the larger p, then the lower position;
 *   def        first if entry 0 chose it, else last (Inductor appends it
 *              anyway: listed before k it takes one of the k slots).
 * The rules of lo_rules[] were compared out of fold (perf/compare/oof.sh;
 * figures in perf/results/compare/README.txt and docs/RESULTS.md §2.6-2.7).
 *
 * Cost per node: O(m^2 q) for m classes and q inputs (exact: the same,
 * plus O(m q)).
 */
#ifndef MMRANK_LEAFORDER_H
#define MMRANK_LEAFORDER_H
#include "rerank.h"

enum { LO_REST_HIT = 0, LO_REST_HIT2 = 2 };

typedef struct {
	const char *name;  /* fit --leaf-rank NAME */
	double lambda;     /* weight of alone at entry 0, in [0, 1] */
	int rest;          /* LO_REST_* */
	double margin;     /* entry 0: mean ln regret per input by which a class
	                      other than def must beat def alone */
	int exact;         /* 1: entry 0 moved to the front of the rest's order
	                      by its exact first-entry regret (see above);
	                      lambda < 1: by lambda x that + (1 - lambda) x
	                      the top-1 + def regret of the list it heads */
	int offered;       /* 1: entry 0 only among the classes measured (not
	                      NaN) on every input of the node, def included:
	                      no list starts with an id that some of its
	                      inputs' shapes are not offered (when none but def
	                      qualifies, def; when none qualifies, def not
	                      listed: any) */
} lo_rule;

/* The named rules, one table (fit --leaf-rank NAME; rerank.h RR_PREFIX + i
 * is rule i): name, lambda, rest, margin, exact, offered.
 * `prefix` was the first rule, `joint` the default that replaced it
 * (chosen out of fold, with fit --select-rank greedy) and today's for a
 * GPU without a profile row; `head-12` and `head-q0` are trained for the
 * head (entry 0 offered for every input of the leaf, chosen by its
 * first-entry and top-1 regret; docs/RESULTS.md section 2.7); `head-x`
 * trains entry 0 for k = 1 + extern_mm alone (lambda 0, no margin, offered
 * or not: the pick, not entry 0, is what runs without autotuning; the H100
 * profile's rule, docs/RESULTS.md section 10.2).  The other
 * candidates were retired; their figures are in docs/RESULTS.md §2.8. */
#define LO_RULES(X) \
	X("prefix",  1.0,   LO_REST_HIT,  0.05, 0, 0) \
	X("joint",   1.0,   LO_REST_HIT2, 0.05, 1, 0) \
	X("head-12", 0.125, LO_REST_HIT2, 0.05, 1, 1) \
	X("head-q0", 0.25,  LO_REST_HIT2, 0,    1, 1) \
	X("head-x",  0.0,   LO_REST_HIT2, 0,    1, 0)

extern const lo_rule lo_rules[];
extern const int n_lo_rules;

/* Scratch of lo_order() and lo_pick(), grown on demand. */
typedef struct {
	double *cur, *fst, *wins, *wins2;
	char *det, *used;
	tree_prob *cand;
	int *ord;
	size_t q_cap, c_cap;
} lo_scratch;

void lo_scratch_free(lo_scratch *s);

/* Order the m classes pr[0..m) of a node for the inputs in[ids[0..q)] (q >=
 * 1) by rule r; def is the always-appended class (-1: none).  Writes the
 * positions into pr as ord[0..m): a permutation of 0..m-1 with def (if
 * among pr) at 0 or last. */
void lo_order(const tree_prob *pr, int m, const rr_input *in, const int *ids,
              int q, int def, const lo_rule *r, int *ord, lo_scratch *s);

/* The pick (the class a runtime without autotuning runs alone: the C
 * API's <name>_pick(), eval --curve's `first`), decoupled from the list
 * head, which the rules above train for the top-k + extern_mm lists.
 * Among def and the classes measured on every input in[ids[0..q)] of the
 * node (any class when def < 0 and none is), the class c with the
 * smallest
 *   sum_i w_i (lr_i(c) + LO_PICK_MARGIN [c != def])
 * (entry 0's cost of the rules above with lambda 1, `offered`, and the
 * margin of `prefix` and `joint`: another class must beat extern_mm alone
 * by LO_PICK_MARGIN mean ln regret per input); with def < 0 and no class
 * measured on every input, an input c was not measured for costs the
 * first of the node's list lst[0..nl) measured for it, as
 * <name>_pick_offered() falls back.  nc: the tree's classes, every one a
 * candidate (the list need not hold the pick).  Ties: the earlier in the
 * list, then the lower class index, so the pick is the list head where
 * that is as good.  Returns the class, -1 when q = 0 (no pick). */
#define LO_PICK_MARGIN 0.05
int lo_pick(const tree_prob *lst, int nl, int nc, const rr_input *in,
            const int *ids, int q, int def, lo_scratch *s);

#endif
