/* block.h — the log rows of one input (spec §1.1, §1.3) and the rules
 * that decide which rows exist: adaptive repetitions (--fast-reject) and
 * screening (screen.h); the resumption scan reads them back (design.md
 * "Resumable").  GPU independent (block.c, resume.c).
 */
#ifndef MMRANK_BENCH_BLOCK_H
#define MMRANK_BENCH_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"

/* Adaptive repetitions (ours; the reference times every choice REPS
 * times).  Candidates of one input are measured in plan order; t is the
 * first timed repetition (ms) of candidate c and best the smallest first
 * repetition among candidates 0..c of the input (c included; +inf if none
 * is finite).  Returns 1 if c gets all reps repetitions: t is finite and
 * t <= alpha * best, or alpha <= 0 (adaptivity off).  Otherwise only the
 * first repetition is measured and logged (one row): a candidate more than
 * alpha times slower than an earlier one cannot be near-best (spec §5.2:
 * within 2 %) and its exact median does not change any label.  The rule
 * depends only on logged values, so resume_scan recomputes it. */
int bench_full_reps(double t, double best, double alpha);

/* full[i] for the nc candidates of one input from their first repetitions
 * t0[] (ms; NaN: screened out, no row): 1 when bench_full_reps gives it all
 * repetitions against the running best, as the measurers see it. */
void block_full_reps(const double *t0, int nc, double alpha, unsigned char *full);

/* The log rows of one input: for rep in 0..reps-1, for each candidate,
 * "<features>,<choice>,<str(feedback)>\n"; fb[rep*nc + c] in ms (inf for a
 * failure, NaN for a repetition not measured: rep >= 1 of a candidate
 * bench_full_reps(fb[c], running best, alpha) rejects, or every rep of a
 * candidate screened out (bench_screen_verdicts), which has no row; anything
 * else is an internal error).  Returns a malloc'd buffer, *len its length. */
char *format_block(const bench_input *in, const bench_cand *c, int nc,
                   int reps, double alpha, const double *fb, size_t *len);

/* Median (ms) of the measured repetitions of candidate c: fb[rep*nc + c]
 * over rep < reps, NaN entries (not measured) skipped; +inf if any is inf
 * (as featurize aggregates, spec §1.6); NaN if none was measured. */
double bench_median(const double *fb, int nc, int c, int reps);

/* Resumption (resume.c): body is the log after its two metadata lines.
 * Walks the shard's inputs in order; each must appear as its complete
 * block: nc rows of the first repetition, then for r = 1 .. reps-1 one row
 * per candidate that bench_full_reps(first repetition, running best, alpha)
 * gives all repetitions; every row's prefix "<features>,<choice>," equals
 * the plan p and its feedback parses (positive or inf).  Returns the number
 * of complete inputs; *keep = bytes of body they occupy (the rest, a
 * partially written input or a torn line, is to be truncated).  A complete
 * line that disagrees with the plan (another shapes.tsv, configs.tsv,
 * --reps, --fast-reject or device) is fatal: the message names the line.
 * With screening (screen > 0, reps >= 2) the first repetition may lack
 * candidates after a finite extern_mm row (those screened out, in plan
 * order); the first repetition then ends at the first row that is not a
 * later candidate of the plan, and the input is complete only when its
 * later repetitions follow (extern_mm's always do), so a block cut after
 * its first repetition is redone. */
int64_t resume_scan(const char *path, const char *body, size_t len,
                    bench_input *const *todo, int64_t ntodo, const bench_plan *p,
                    int reps, double alpha, double screen, size_t *keep);

#endif
