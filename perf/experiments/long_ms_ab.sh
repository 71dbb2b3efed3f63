#!/usr/bin/env bash
# perf/experiments/long_ms_ab.sh — what the long-kernel rule (bench --long-ms,
# kernels/INDUCTOR_MM.md section 5) costs in accuracy and gains in speed:
# the same inputs timed by bench --template triton --reps 1 with --long-ms 0
# (Inductor's method) and --long-ms T, twice each, interleaved (0, T, 0, T),
# then perf/experiments/inductor_agree.py: run 0b against 0a (the noise floor of
# Inductor's own method) and the T runs against 0a (the rule's effect), and
# each run's wall time, timed launches, long_choices and long_fallbacks
# (perf/experiments/rule_ab.sh, shared with loser_ab.sh).
#
#   SHAPES=list.tsv ENTRY=build/.../triton-<hash>-3.6.0-sm90 [T=10] [N=2] \
#     bash perf/experiments/long_ms_ab.sh        # needs a GPU; carry build/bin, ENTRY
#
# Writes $OUT (default out/long_ms_ab)/{log,st,err}_{0a,Ta,0b,Tb}.*,
# agree_*.{txt,tsv,json}, table.md.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${SHAPES:?SHAPES=a shape list}" "${ENTRY:?ENTRY=the Triton cubin folder}"
T=${T:-10} N=${N:-2} OUT=${OUT:-out/long_ms_ab}
. perf/experiments/rule_ab.sh
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
rule_ab "$OUT" "$SHAPES" T "--long-ms 0 --long-launches $N" "--long-ms $T --long-launches $N"
