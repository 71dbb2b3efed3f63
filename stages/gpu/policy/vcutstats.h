/* vcutstats.h — the verification cut's --stats (bench --verify-cut,
 * stages/gpu/policy/ttsched.h): the timings it took and its audits, counted from
 * each timing's schedule; bench (stages/gpu/bench/triton_gpu.c) and bench-fake
 * (stages/gpu/bench/fake.c) print them alike. */
#ifndef MMRANK_VCUTSTATS_H
#define MMRANK_VCUTSTATS_H

#include <stdio.h>

#include "ttsched.h"

typedef struct {
	long long cuts;            /* timings it took (vcut) */
	long long audits;          /* timings it would have taken, audited */
	long long flips;           /* audited and the probe was no loser: the cut
	                              would have shortened a timing the loser cut
	                              does not */
	double lo, hi, logsum;     /* the audits' verification / probe ratios */
} tt_vcut_stats;

/* Counts one timing's schedule s; ratio: its verification call over its
 * probe when s->vcut_audited (a NAN or non-positive one is not counted). */
void tt_vcut_count(tt_vcut_stats *v, const tt_sched *s, double ratio);

/* Prints the --stats lines verify_cuts, verify_cut_audits,
 * verify_cut_flips and verify_cut_ratio_min/_geomean/_max (the audits'
 * verification / probe; "-" without an audit). */
void tt_vcut_print(FILE *fp, const tt_vcut_stats *v);

#endif
