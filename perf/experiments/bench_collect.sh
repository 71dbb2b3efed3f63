#!/usr/bin/env bash
# perf/experiments/bench_collect.sh — (2026-11-29; for the screened collection of
# 2026-11-30 see perf/experiments/screen_collect.sh) one device call: GPU tests and/or a timed
# collection with `make collect`, results packed under $OUT (the device
# tool's output folder; default out/device).  Binaries and the cubin cache
# are built on the CPU machine and carried (build/bin, build/test, build/libmmrank.a,
# build/cubin); make is told not to rebuild them (-o).
#
# usage: perf/experiments/bench_collect.sh [--tests] [--collect SECONDS] [--gpus 0,1]
#          [--samples N] [--seed S] [--max-gflop G] [--reps R] [--resume]
# --resume continues the shards in out/h200/collect/data_<dev>.txt.part
# (carried from an earlier call) instead of starting afresh.
# Output ($OUT): console.txt (everything printed), results.tar.xz (test
# logs, stats_*.tsv, shapes.tsv, stderr of every shard), h200_<tag>.txt.xz
# (the merged log of the complete inputs, when --collect ran).
set -u
OUT=${OUT:-out/device}
mkdir -p "$OUT"
RESUME=0 TESTS=0 COLLECT=0 GPUS=0 SAMPLES=1000 SEED=1 MAXG= REPS=3
while [ $# -gt 0 ]; do
	case $1 in
	--tests) TESTS=1 ;;
	--collect) COLLECT=$2; shift ;;
	--gpus) GPUS=$2; shift ;;
	--samples) SAMPLES=$2; shift ;;
	--seed) SEED=$2; shift ;;
	--max-gflop) MAXG=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--resume) RESUME=1 ;;
	*) echo "unknown argument $1" >&2; exit 1 ;;
	esac
	shift
done
RES=$(mktemp -d)
exec > >(tee "$OUT/console.txt") 2>&1
export BIN=build/bin
nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
date -u

if [ $TESTS = 1 ]; then
	echo "=== GPU tests ==="
	RESULTS=$RES/gpu bash check/gpu/test_bench_gpu.sh 2>&1 | tee "$RES/gpu_tests.txt"
	cp "$RES/gpu/gpu_verify_stats.tsv" "$RES/" 2>/dev/null
fi

if [ "$COLLECT" != 0 ]; then
	echo "=== collection: GPUS=$GPUS SAMPLES=$SAMPLES SEED=$SEED MAX_GFLOP=${MAXG:-none} REPS=$REPS, ${COLLECT}s ==="
	MK=(make -f Makefile)
	# add the fragment only if the Makefile does not already include it
	make -n collect GPU=h200 SAMPLES=1 >/dev/null 2>&1 || MK+=(-f mk/collect.mk)
	MK+=(-o build/bin/bench -o build/bin/sample -o build/bin/merge -o build/libmmrank.a)
	D=out/h200/collect
	# --resume: keep out/h200/collect/*.part carried from an earlier call
	[ $RESUME = 1 ] && ls -la $D || rm -rf out/h200
	start=$(date +%s)
	# the shards stop by themselves after COLLECT seconds (after the input
	# in flight); the outer timeout is a backstop against a huge input
	timeout -s KILL $((COLLECT + 90)) "${MK[@]}" -j8 collect GPU=h200 GPUS="$GPUS" SAMPLES="$SAMPLES" \
		SEED="$SEED" REPS="$REPS" SAMPLE_MAX_GFLOP="$MAXG" COLLECT_TIME_LIMIT="$COLLECT" \
		2> >(tee "$RES/collect.err" >&2)
	echo "make exit $? after $(( $(date +%s) - start )) s"
	# sanitise partial shards (drops a torn input if the backstop fired)
	parts=()
	for d in ${GPUS//,/ }; do
		f=$D/data_$d.txt
		if [ ! -f "$f" ] && [ -f "$f.part" ]; then
			i=0; for x in ${GPUS//,/ }; do [ "$x" = "$d" ] && break; i=$((i+1)); done
			n=$(echo ${GPUS//,/ } | wc -w)
			# the plan of make collect's defaults (KERNEL_TEMPLATE=mma+wgmma;
			# bench's --fast-reject and --screen defaults are the Makefile's)
			build/bin/bench --device "$d" --shard "$i/$n" --reps "$REPS" --time-limit 0 \
				--template mma+wgmma --kernels kernels --cache build/cubin \
				"$D/shapes.tsv" "$f" 2>>"$RES/collect.err"
			f=$f.part
		fi
		parts+=("$f")
		cp "$D"/stats_"$d".tsv "$RES/" 2>/dev/null
	done
	cp "$D/shapes.tsv" "$RES/"
	build/bin/merge "$RES/merged.txt" "${parts[@]}"
	tag=seed${SEED}${MAXG:+_max${MAXG}gflop}
	rows=$(($(wc -l < "$RES/merged.txt") - 2))
	inputs=$(tail -n +3 "$RES/merged.txt" | cut -d, -f1-12 | uniq | wc -l)
	echo "collected: $inputs inputs, $rows rows"
	xz -9 -c "$RES/merged.txt" > "$OUT/h200_$tag.txt.xz"
	for s in "$RES"/stats_*.tsv; do echo "--- $s"; cat "$s"; done
fi
tar -C "$RES" -cJf "$OUT/results.tar.xz" .
ls -la "$OUT"
