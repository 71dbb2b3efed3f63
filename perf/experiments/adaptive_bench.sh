#!/usr/bin/env bash
# perf/experiments/adaptive_bench.sh — one device call for adaptive repetitions
# (bench --fast-reject: cheaper collection):
# (1) the same N inputs of the *uncapped* reference distribution
#     (sample --seed 5 --samples 40, drawn here) with
#     --fast-reject 0 (every candidate REPS times, the reference's way) and
#     with the default 1.5, in one run: the wall-time ratio on identical
#     inputs;
# (2) a fresh sample (sample --seed S --samples 200, uncapped) for T seconds
#     with the defaults: inputs/hour and the breakdown (--stats);
# (3) the GPU tests of bench with --template mma (every candidate x dtype x
#     transpose verified against cuBLAS, kill/resume, the adaptive rule),
#     stopped after TEST_TIMEOUT seconds (default 150).
# usage: perf/experiments/adaptive_bench.sh [N [T [S]]]   (defaults 32 200 6)
#        carry build/bin, build/test (bench-bug: make test-bins) and
#        .devcarry/cubin.tar.xz (the mma cubins).
# Output under $OUT: console.txt, results.tar.xz (test logs, logs, stats).
N=${1:-32}
T=${2:-200}
SEED=${3:-6}
. "$(dirname "$0")/device_prelude.sh"
$BIN/sample --seed 5 --samples 40 -o "$R/ref_seed5.tsv" && head -n $((N + 1)) "$R/ref_seed5.tsv" > "$R/same.tsv"
for f in 0 1.5; do
	echo "=== $N inputs of ref_seed5.tsv, --template mma --fast-reject $f ==="
	s=$(date +%s.%N)
	$BIN/bench --template mma --cache build/cubin --time-limit 150 --fast-reject $f --stats "$R/stats_same_$f.tsv" \
		"$R/same.tsv" "$R/same_$f.txt" 2> "$R/same_$f.err"
	echo "exit $? wall $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"; tail -1 "$R/same_$f.err"
done
echo "=== fresh sample seed $SEED, ${T}s, defaults (--template mma --fast-reject 1.5) ==="
$BIN/sample --seed "$SEED" --samples 200 -o "$R/fresh.tsv"
$BIN/bench --template mma --cache build/cubin --time-limit "$T" --stats "$R/stats_fresh.tsv" \
	"$R/fresh.tsv" "$R/fresh.txt" 2> "$R/fresh.err"
echo "exit $?"; tail -2 "$R/fresh.err"
[ -e "$R/fresh.txt.part" ] && mv "$R/fresh.txt.part" "$R/fresh.txt"
cat "$R/stats_fresh.tsv"
echo "=== GPU tests, --template mma ==="
BENCH_TEMPLATE=mma BIN=$BIN RESULTS=$R timeout ${TEST_TIMEOUT:-150} bash check/gpu/test_bench_gpu.sh 2>&1 | tee "$R/gpu_tests_mma.txt"
for f in "$R"/*.txt; do case $f in *gpu_*) ;; *) xz -9 -f "$f" ;; esac; done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
