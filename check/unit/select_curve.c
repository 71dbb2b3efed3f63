/* select_curve — the C side of check/t2150-select.sh: fit --select curve's
 * rule (stages/learn/select.h select_curve) on hand-made curves.
 *
 * Four models, one set, 100 inputs each; L_k = the mean capped ln regret
 * at k (curve.h cv_lcap), set directly:
 *          k=1    k=2     k=5     k=10    top_k_correct
 *   A     .010   .005    .002    .001        90
 *   B     .020   .004    .0005   .0001       95
 *   C     (an empty set: skipped)
 *   D     .020   .004    .0005   .0001       97   (B's curve)
 * A raw mean of the L_k would take A (.0045 against .0061); per k over
 * the grid's best (.010, .004, .0005, .0001): A (1 + 1.25 + 4 + 10) / 4 =
 * 4.06, B and D (2 + 1 + 1 + 1) / 4 = 1.25, a tie broken by more
 * top_k_correct: D (index 3).  Prints the selected index, then the same
 * with D removed (B: 1) and with A alone (0). */
#include <stdio.h>
#include <string.h>

#include "learn/select.h"

static void
curve(cv_acc *c, metrics *m, long n, const double l[4], long correct)
{
	static const int ks[4] = {1, 2, 5, 10};
	cv_init(c, 0);
	memset(m, 0, sizeof *m);
	c->n = n;
	m->total = n;
	m->top_k_correct = correct;
	for (int q = 0; q < 4; q++)
		c->lcap[ks[q]] = l[q] * (double)n;
}

int
main(void)
{
	static const double a[4] = {.010, .005, .002, .001};
	static const double b[4] = {.020, .004, .0005, .0001};
	cv_acc c[4];
	metrics m[4];
	curve(&c[0], &m[0], 100, a, 90);
	curve(&c[1], &m[1], 100, b, 95);
	curve(&c[2], &m[2], 0, a, 0);
	curve(&c[3], &m[3], 100, b, 97);
	printf("%d\n", select_curve(c, m, 4, 1));
	printf("%d\n", select_curve(c, m, 3, 1));
	printf("%d\n", select_curve(c, m, 1, 1));
	return 0;
}
