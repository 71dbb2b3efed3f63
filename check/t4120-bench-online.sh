#!/usr/bin/env bash
# bench --use-heuristic, on the fake back
# end: the online selection must agree with the offline evaluator.  Both see
# the same (deterministic) times, so the per-input regret of autotuning only
# the top-10 + extern_mm, measured by bench, must equal eval's regret (spec
# §5.9 list rule, computed from the featurized log by metrics.c).
. check/lib.sh
test_have_bins bench-online bench-fake || finish
cd "$TMP"
"$BIN/sample" --seed 7 --samples 60 --max-gflop 50 -o shapes.tsv 2>/dev/null
# every rep of every choice (no adaptive repetitions, no screening), as the
# online full pass measures them
"$BIN/bench-fake" --kernels "$ROOT/kernels" --fast-reject 0 --screen 0 shapes.tsv full.txt 2>/dev/null
"$BIN/featurize" -o full.feat.tsv full.txt 2>/dev/null
"$BIN/fit" full.feat.tsv --split none -o tree.tsv --metrics m.tsv >/dev/null 2>&1
"$BIN/prune" --ranking 10 -o pruned.tsv tree.tsv 2>/dev/null
"$BIN/bench-fake" --kernels "$ROOT/kernels" --use-heuristic pruned.tsv shapes.tsv online.tsv 2>online.err ||
	{ fail bench-online-run "$(tail -2 online.err)"; finish; }
[ "$(tail -n +2 online.tsv | wc -l)" = 240 ] && ok bench-online-rows || fail bench-online-rows "$(wc -l < online.tsv) lines"
# per-input invariants: regret >= 1; chosen == oracle <=> regret == 1;
# at most k + 1 selected, out of n_candidates
awk -F'\t' 'NR > 1 && ($15 < 1 || (($11 == $13) != ($15 == 1)) || $7 > 11 || $7 > $6 || $7 < 1) {bad++}
            END {exit bad > 0}' online.tsv && ok bench-online-invariants || fail bench-online-invariants "see online.tsv"
# the same regret as eval (geometric mean and count within 1 %)
on=$(awk -F'\t' 'NR > 1 {s += log($15); n++; w += ($15 <= 1.01)} END {printf "%.6f %d", exp(s / n), w}' online.tsv)
"$BIN/eval" --k 10 -o eval.tsv pruned.tsv full=full.feat.tsv >/dev/null 2>&1
off=$(awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 {printf "%.6f", $(c["regret_gmean"])}' eval.tsv)
[ "${on% *}" = "$off" ] && ok bench-online-regret-equals-eval || fail bench-online-regret-equals-eval "online ${on% *} vs eval $off"
grep -q 'regret geomean' online.err && ok bench-online-summary || fail bench-online-summary "$(tail -1 online.err)"
finish
