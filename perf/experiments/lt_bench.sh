#!/usr/bin/env bash
# perf/experiments/lt_bench.sh — one device call for the cuBLASLt choices:
# discovery, the GPU tests, a timed comparison with extern_mm.
# Binaries are built on the CPU machine and carried (build/bin), with the
# discovery shapes (sample --seed 1 --samples 500, made on the CPU machine).
#
# usage: perf/experiments/lt_bench.sh SHAPES [--topn 8] [--keep 2] [--measure SECONDS]
#          [--extra SHAPES2 SECONDS2]   (a second measured set, e.g. capped shapes)
# Output ($OUT, default out/device): console.txt (everything printed),
# lt_discover_all.tsv (every algorithm the heuristic returned, counted),
# cublaslt_algos.tsv (--lt-keep K of them: the list to commit), results.tar.xz
# (test logs and stderr, stats, the measured logs), speedup.txt.
set -u
OUT=${OUT:-out/device}
mkdir -p "$OUT"
SH=$1; shift
TOPN=8 KEEP=2 MEASURE=60 EXTRA= EXTRA_S=0
while [ $# -gt 0 ]; do
	case $1 in
	--topn) TOPN=$2; shift ;;
	--keep) KEEP=$2; shift ;;
	--measure) MEASURE=$2; shift ;;
	--extra) EXTRA=$2 EXTRA_S=$3; shift 2 ;;
	*) echo "unknown argument $1" >&2; exit 1 ;;
	esac
	shift
done
RES=$(mktemp -d)
exec > >(tee "$OUT/console.txt") 2>&1
export BIN=build/bin
B=${BENCH:-build/bin/bench}
nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
date -u
echo "command: perf/experiments/lt_bench.sh $SH --topn $TOPN --keep $KEEP --measure $MEASURE ${EXTRA:+--extra $EXTRA $EXTRA_S}"

echo "=== discovery: top-$TOPN on $SH ==="
t0=$(date +%s)
$B --lt-discover "$TOPN" "$SH" "$OUT/lt_discover_all.tsv" 2> "$RES/discover_all.err"
echo "exit $? in $(( $(date +%s) - t0 )) s"; tail -3 "$RES/discover_all.err"
grep -c 'GetHeuristic' "$RES/discover_all.err" | sed 's/^/heuristic errors: /'; grep -m3 'GetHeuristic' "$RES/discover_all.err"
echo "rebuild mismatches: $(grep -c 'differs' "$RES/discover_all.err")"
grep -m5 'differs' "$RES/discover_all.err"
$B --lt-discover "$TOPN" --lt-keep "$KEEP" "$SH" "$OUT/cublaslt_algos.tsv" 2> "$RES/discover_keep.err"
echo "keep exit $?"; cat "$OUT/cublaslt_algos.tsv"
head -n 30 "$OUT/lt_discover_all.tsv"

echo "=== GPU tests (check/gpu/test_bench_lt.sh) ==="
LT_LIST=$OUT/cublaslt_algos.tsv RESULTS=$RES/gpu bash check/gpu/test_bench_lt.sh 2>&1 | tee "$RES/gpu_tests_lt.txt"

echo "=== measurement: extern_mm + cuBLASLt choices on $SH, ${MEASURE}s ==="
t0=$(date +%s)
$B --no-nvrtc --cublaslt "$OUT/cublaslt_algos.tsv" --time-limit "$MEASURE" --stats "$RES/stats_measure.tsv" \
	"$SH" "$RES/measure.txt" 2> "$RES/measure.err"
echo "exit $? in $(( $(date +%s) - t0 )) s"; tail -3 "$RES/measure.err"
cat "$RES/stats_measure.tsv"
M=$RES/measure.txt; [ -f "$M" ] || M=$RES/measure.txt.part
M2=
if [ -n "$EXTRA" ]; then
	echo "=== measurement: extern_mm + cuBLASLt choices on $EXTRA, ${EXTRA_S}s ==="
	t0=$(date +%s)
	$B --no-nvrtc --cublaslt "$OUT/cublaslt_algos.tsv" --time-limit "$EXTRA_S" --stats "$RES/stats_extra.tsv" \
		"$EXTRA" "$RES/extra.txt" 2> "$RES/extra.err"
	echo "exit $? in $(( $(date +%s) - t0 )) s"; tail -3 "$RES/extra.err"
	M2=$RES/extra.txt; [ -f "$M2" ] || M2=$RES/extra.txt.part
fi
python3 perf/experiments/lt_speedup.py "$M" $M2 "$RES/gpu/lt_verify.txt" | tee "$OUT/speedup.txt"
(cd "$RES" && tar cJf "$OUT/results.tar.xz" .)
ls -la "$OUT"
