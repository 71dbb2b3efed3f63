#!/usr/bin/env bash
# perf/experiments/warmverify_ab.sh — what the warm-up from verification (bench
# --warm-from-verify, kernels/INDUCTOR_MM.md section 5) saves and whether it
# moves anything, in ONE device call: perf/experiments/loser_ab.sh's sets and runs
# (the six giants, every EVERY-th agreement input; 0a, Wa, 0b, Wb, the
# long-kernel rule at its default, the loser cut off) with no option vs
# --warm-from-verify, on the same prepared inputs (build/loserab).
#
#   bash perf/experiments/warmverify_ab.sh --prepare   # here (CPU), as loser_ab.sh's
#   bash perf/experiments/warmverify_ab.sh             # the device call; carry build/bin build/loserab
#
# Settings as loser_ab.sh's; OUT defaults to out/warmverify_ab.  Measured on
# the H200 (2026-12-01): perf/results/gpu/warmverify_h200/README.md.
cd "$(dirname "$0")/../.." || exit 1
AB_OFF='' AB_ON=--warm-from-verify AB_X=W AB_TITLE='none vs --warm-from-verify' OUT=${OUT:-out/warmverify_ab} exec bash perf/experiments/loser_ab.sh "$@"
