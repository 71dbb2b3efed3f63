#!/usr/bin/env bash
# perf/experiments/screen_collect.sh — one device call (nvidia-h200-x2) for
# collecting on our own GPUs: bench --screen measured and a
# collection with `make collect`, side by side on the two GPUs.
#
# usage: perf/experiments/screen_collect.sh [--bench N [--bench-device D]] [--tests] [--collect SECONDS]
#          [--targets "data_1"] [--samples N] [--seed S]
#   --bench N      on GPU 0: sample --seed 6 --samples N (4N inputs, the
#                  uncapped reference distribution), timed three times with
#                  the defaults of `make collect` (--template mma+wgmma):
#                  --screen 0 (every candidate at full size, the reference
#                  behaviour), --screen 1.3 (default) and --screen-audit;
#                  report by perf/experiments/screen_report.py
#   --bench-device D  run --bench on GPU D instead of 0
#   --bench-seed S    sample --seed S for --bench instead of 6
#   --tests        on GPU 0, after --bench: the GPU tests of bench with
#                  BENCH_TEMPLATE=mma+wgmma (default bench options, so with
#                  screening and adaptive repetitions)
#   --collect S    `make collect GPU=h200 GPUS=0,1 SAMPLES=N SEED=S
#                  COLLECT_TIME_LIMIT=S` for the shard files named by
#                  --targets (default both: data_0 data_1), resuming any
#                  out/h200/collect/*.part carried in; the .part files and
#                  stats come back under $OUT/collect/
# ($OUT, the device tool's output folder, is not make's OUT: make gets OUT=out.)
# carry: build/test (bench-bug, make test-bins: --tests) and .devcarry
# (bin/ = the stage binaries, cubin.tar.xz = the cubin
# cache with build/cubin/... paths) and out/h200/collect when resuming.
set -u
BDEV=0 BSEED=6 BENCH=0 TESTS=0 COLLECT=0 TARGETS="data_0 data_1" SAMPLES=520 SEED=2026
while [ $# -gt 0 ]; do
	case $1 in
	--bench) BENCH=$2; shift ;;
	--bench-device) BDEV=$2; shift ;;
	--bench-seed) BSEED=$2; shift ;;
	--tests) TESTS=1 ;;
	--collect) COLLECT=$2; shift ;;
	--targets) TARGETS=$2; shift ;;
	--samples) SAMPLES=$2; shift ;;
	--seed) SEED=$2; shift ;;
	*) echo "unknown argument $1" >&2; exit 1 ;;
	esac
	shift
done
export BIN=.devcarry/bin
. "$(dirname "$0")/device_prelude.sh"
mkdir -p build/bin && cp .devcarry/bin/* build/bin/
D=out/h200/collect
if [ "$COLLECT" != 0 ]; then
	mkdir -p $D "$OUT/collect"
	ls -la $D
	T=(); for t in $TARGETS; do T+=("$D/$t.txt"); done
	(
		start=$(date +%s)
		timeout -s KILL $((COLLECT + 60)) make -o build/bin/bench -o build/bin/sample \
			-o build/bin/merge -o build/libmmrank.a -j2 "${T[@]}" OUT=out GPU=h200 GPUS=0,1 \
			SAMPLES="$SAMPLES" SEED="$SEED" COLLECT_TIME_LIMIT="$COLLECT" > "$OUT/collect/make.log" 2>&1
		echo "make exit $? after $(( $(date +%s) - start )) s" >> "$OUT/collect/make.log"
		cp $D/*.part $D/*.txt $D/shapes.tsv $D/*.params "$OUT/collect/"; cat $D/stats_*.tsv > "$OUT/collect/stats.txt" 2>/dev/null
	) &
	CPID=$!
fi
if [ "$BENCH" != 0 ]; then
	$BIN/sample --seed "$BSEED" --samples "$BENCH" "$R/s6.tsv"
	for mode in screen0 screen audit; do
		case $mode in
		screen0) opt="--screen 0" ;; screen) opt="" ;; audit) opt="--screen-audit" ;;
		esac
		echo "=== bench $opt: sample --seed $BSEED --samples $BENCH ($(($(wc -l < "$R/s6.tsv") - 1)) inputs) ==="
		$BIN/bench --device "$BDEV" --template mma+wgmma --cache build/cubin $opt \
			--stats "$R/stats_$mode.tsv" "$R/s6.tsv" "$R/$mode.txt" 2> "$R/$mode.err"
		echo "exit $?"; tail -1 "$R/$mode.err"
	done
	python3 perf/experiments/screen_report.py "$R/screen0.txt" "$R/stats_screen0.tsv" \
		"$R/screen.txt" "$R/stats_screen.tsv" "$R/audit.err" | tee "$R/report.txt"
fi
if [ $TESTS = 1 ]; then
	echo "=== GPU tests, BENCH_TEMPLATE=mma+wgmma ==="
	BENCH_TEMPLATE=mma+wgmma RESULTS=$R timeout "${TEST_TIMEOUT:-150}" \
		bash check/gpu/test_bench_gpu.sh 2>&1 | tee "$R/gpu_tests.txt"
fi
if [ "$COLLECT" != 0 ]; then
	wait $CPID
	cat "$OUT/collect/make.log" | tail -20
	cat "$OUT/collect/stats.txt"
	python3 perf/experiments/collect_throughput.py "$OUT/collect/stats.txt"
fi
for f in "$R"/*.txt; do case $f in *gpu_tests*|*report*) ;; *) xz -9 -f "$f" ;; esac; done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
ls -la "$OUT" "$OUT/collect" 2>/dev/null
