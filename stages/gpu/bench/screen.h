/* screen.h — screening of long inputs (ours; the reference times every
 * choice at full size): its rules, constants and verdicts, in one place for
 * both measurers (cuda_screen.c, fake.c) and the plan's resumption
 * (resume.c).  bench --screen B --screen-ms T; check/screen_rule.py checks
 * a log against these rules.
 *
 * On an input whose cuBLAS reference call takes ref_ms >= T, every
 * template candidate and extern_mm are first timed on a slice of the
 * problem, the same operands with a smaller k (or m): the first k' columns
 * of op(A) and rows of op(B) (or the first m' rows of op(A) and of C), the
 * strides unchanged.  Only those within B x the best slice time (and every
 * cuBLASLt choice) are then timed at full size; the others have no row.
 */
#ifndef MMRANK_BENCH_SCREEN_H
#define MMRANK_BENCH_SCREEN_H

#include "plan.h"

/* A slice lasts about SCREEN_SLICE_MS of cuBLAS time; its k' (m') is a
 * multiple of SCREEN_SLICE_ALIGN and at least SCREEN_SLICE_MIN, which keeps
 * the tile grid (k) or >= SCREEN_SLICE_MIN rows of it (m); and at most half
 * the dimension (so a dimension < 2 * SCREEN_SLICE_MIN is never sliced). */
#define SCREEN_SLICE_MS 0.5
#define SCREEN_SLICE_ALIGN 256
#define SCREEN_SLICE_MIN 2048

/* Returns 1 and *slice (= *in with k or m reduced: k' or m' = a multiple of
 * SCREEN_SLICE_ALIGN, >= SCREEN_SLICE_MIN, about dim * SCREEN_SLICE_MS /
 * ref_ms, at most dim / 2; k when k can be cut, else m; id, features and
 * strides unchanged) when the input is screened, 0 when it is not (screen
 * off, ref_ms < screen_ms or not finite, or neither k nor m can be cut). */
int bench_screen_slice(const bench_input *in, double ref_ms, double screen_ms,
                       bench_input *slice);

/* Screening verdicts for the nc candidates of one screened input, from
 * their slice times st[] (ms; inf or <= 0: failed or not timed): keep[i]
 * = 1 (timed at full size) for extern_mm (i = 0), every cuBLASLt choice,
 * and every other candidate with st[i] <= beta * best, where *best is the
 * smallest slice time of extern_mm and the template candidates; keep[i] =
 * 0 otherwise: left out of the log (no row).  A choice beta > 1 times
 * slower than the best on the slice is not near-best at full size (spec
 * §5.2: within 2 %) unless the slice misjudges it by that factor, which
 * bench --screen-audit measures (perf/experiments/screen_collect.sh).  beta <= 0
 * keeps all.  A candidate whose id an earlier one has (a config of both
 * lists, both offered) takes the earlier one's verdict: the copies of an
 * id have rows together or not at all, so resumption (resume.c) can tell
 * which copy a row is.  Returns the number of candidates left out. */
int bench_screen_verdicts(const bench_cand *c, int nc, const double *st, double beta,
                          unsigned char *keep, double *best);

/* --screen-audit: 1 when a candidate screened out is a miss: its full-size
 * first repetition t (ms) is near-best (rules.h near_best, spec §5.2:
 * best / t >= 0.98) against the best first repetition best of the input's
 * candidates. */
int bench_screen_miss(double t, double best);

#endif
