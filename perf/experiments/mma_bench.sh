#!/usr/bin/env bash
# perf/experiments/mma_bench.sh — one device call for the tensor-core template in
# bench (our kernel family, and collecting with it):
# (1) the GPU tests of bench with --template mma (every candidate x dtype x
# transpose verified against cuBLAS on 7 edge shapes, kill/resume), and
# (2) the same inputs of the *uncapped* reference distribution through bench
# with --template mm and --template mma for TIME seconds each: inputs/hour
# and how often a candidate beats extern_mm.
# usage: perf/experiments/mma_bench.sh [TIME]   (carry build/bin, build/test, build/cubin; shapes:
#        sample --seed 5 --samples 40, drawn here)
# Output under $OUT: console.txt, results.tar.xz (test logs, logs, stats).
set -u
OUT=${OUT:-out/device}
T=${1:-60}
R=$(mktemp -d)
mkdir -p "$OUT"
exec > >(tee "$OUT/console.txt") 2>&1
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv
echo "=== GPU tests, --template mma ==="
BENCH_TEMPLATE=mma BIN=build/bin RESULTS=$R bash check/gpu/test_bench_gpu.sh 2>&1 | tee "$R/gpu_tests_mma.txt"
S=$R/ref_seed5.tsv
build/bin/sample --seed 5 --samples 40 -o "$S" || exit 1
for t in mma mm; do
	echo "=== throughput, --template $t, ${T}s on $S ==="
	rm -f "$R/ref_$t.txt" "$R/ref_$t.txt.part"
	build/bin/bench --template $t --cache build/cubin --time-limit "$T" --stats "$R/stats_$t.tsv" \
		"$S" "$R/ref_$t.txt" 2> "$R/ref_$t.err"
	echo "exit $?"; tail -2 "$R/ref_$t.err"
	[ -e "$R/ref_$t.txt.part" ] && mv "$R/ref_$t.txt.part" "$R/ref_$t.txt"
	xz -9 -f "$R/ref_$t.txt" 2>/dev/null || gzip -9 -f "$R/ref_$t.txt"
done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
