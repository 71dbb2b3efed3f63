#!/usr/bin/env bash
# perf/experiments/wgmma_bench.sh — one device call for bench --template mma+wgmma
# (our kernel family, and collecting with it):
# (1) the oracle over sampled inputs: sample --seed 1 --samples S
#     --max-gflop G (4*S inputs, spec §3.3 capped at G GFLOP), every choice
#     family (extern_mm, cuBLASLt list, mma.sync, wgmma), report by
#     perf/experiments/oracle_report.py;
# (2) collection throughput on the uncapped distribution: sample --seed 6
#     --samples 200 for T seconds (the same inputs as adaptive_h200's fresh
#     run), defaults;
# (3) the GPU tests of bench with BENCH_TEMPLATE=mma+wgmma under a timeout.
# usage: perf/experiments/wgmma_bench.sh [S [G [T]]]   (defaults 50 100 90)
#        carry build/test (bench-bug: make test-bins) and .devcarry (bin/ =
#        stage binaries, cubin.tar.xz = the cache,
#        paths build/cubin/...: extracted at the repository root).
# Output under $OUT: console.txt, results.tar.xz.
S=${1:-50}
G=${2:-100}
T=${3:-90}
. "$(dirname "$0")/device_prelude.sh"
echo "=== (1) oracle: sample --seed 1 --samples $S --max-gflop $G, --template mma+wgmma --cublaslt ==="
$BIN/sample --seed 1 --samples "$S" --max-gflop "$G" "$R/oracle.tsv"
$BIN/bench --template mma+wgmma --cublaslt kernels/cublaslt_algos.tsv --cache build/cubin \
	--time-limit 200 --stats "$R/stats_oracle.tsv" "$R/oracle.tsv" "$R/oracle.txt" 2> "$R/oracle.err"
echo "exit $?"; tail -1 "$R/oracle.err"; grep -c 'wrong result' "$R/oracle.err"
[ -e "$R/oracle.txt.part" ] && mv "$R/oracle.txt.part" "$R/oracle.txt"
python3 perf/experiments/oracle_report.py "$R/oracle.txt"
grep -E 'verif|compile|timing|wall' "$R/stats_oracle.tsv"
echo "=== (2) uncapped throughput: sample --seed 6 --samples 200, ${T}s, defaults ==="
$BIN/sample --seed 6 --samples 200 "$R/fresh.tsv"
$BIN/bench --template mma+wgmma --cache build/cubin --time-limit "$T" --stats "$R/stats_fresh.tsv" \
	"$R/fresh.tsv" "$R/fresh.txt" 2> "$R/fresh.err"
echo "exit $?"; tail -1 "$R/fresh.err"
[ -e "$R/fresh.txt.part" ] && mv "$R/fresh.txt.part" "$R/fresh.txt"
cat "$R/stats_fresh.tsv"
python3 perf/experiments/oracle_report.py "$R/fresh.txt"
echo "=== (3) GPU tests, BENCH_TEMPLATE=mma+wgmma ==="
BENCH_TEMPLATE=mma+wgmma BIN=$BIN RESULTS=$R timeout "${TEST_TIMEOUT:-150}" \
	bash check/gpu/test_bench_gpu.sh 2>&1 | tee "$R/gpu_tests.txt"
for f in "$R"/*.txt; do case $f in *gpu_tests*) ;; *) xz -9 -f "$f" ;; esac; done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
