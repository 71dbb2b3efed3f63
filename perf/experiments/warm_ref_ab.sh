#!/usr/bin/env bash
# perf/experiments/warm_ref_ab.sh — one device call: the warm reference call
# (commit "bench: screening and the long-input rule decide on a warm cuBLAS
# reference time") against the build before it, on the same inputs in one
# run, with `make collect`'s defaults (--template mma+wgmma, screening on).
#
# usage: perf/experiments/warm_ref_ab.sh SEED SAMPLES OLD_BENCH [SCREEN0_SECONDS]
#   sample --seed SEED --samples SAMPLES (4 x SAMPLES uncapped inputs), timed
#   by .devcarry/bin/bench (new) and OLD_BENCH (old), then, within
#   SCREEN0_SECONDS (default 300; 0 = skip), by the new bench with --screen 0
#   (every candidate at full size: the labels' ground truth); reports by
#   perf/experiments/screen_report.py (old and new against --screen 0).
#   Environment: SHARD=I/N keeps bench --shard I/N of the inputs (default
#   all); PARALLEL=1 times old on GPU 1 while new runs on GPU 0 (two GPUs,
#   nvidia-h200-x2) instead of one after the other on GPU 0; with SWAP=1
#   as well, old on GPU 0 and new on GPU 1.
# carry: .devcarry (bin/ with both benches, cubin.tar.xz).
set -u
SEED=$1 SAMPLES=$2 OLD=$3 S0=${4:-300}
export BIN=.devcarry/bin
. "$(dirname "$0")/device_prelude.sh"
$BIN/sample --seed "$SEED" --samples "$SAMPLES" "$R/in.tsv"
echo "inputs: $(($(wc -l < "$R/in.tsv") - 1))"
run() { # name device bench [options]
	local n=$1 dev=$2 b=$3; shift 3
	echo "=== $n (GPU $dev): $b $* ${SHARD:+--shard $SHARD} ==="
	timeout "${TMO:-600}" "$b" --device "$dev" --template mma+wgmma --cache build/cubin \
		${SHARD:+--shard "$SHARD"} "$@" --stats "$R/stats_$n.tsv" "$R/in.tsv" "$R/$n.txt" 2> "$R/$n.err"
	echo "$n exit $?"; tail -1 "$R/$n.err"
}
if [ "${PARALLEL:-0}" = 1 ]; then
	# SWAP=1: old on GPU 0, new on GPU 1 (to see the GPUs' own difference)
	go=0 gn=1; [ "${SWAP:-0}" = 1 ] || { go=1 gn=0; }
	run old $go "$OLD" > "$R/old.console" 2>&1 &
	opid=$!
	run new $gn $BIN/bench
	wait $opid # not a bare wait: it would wait for the console's tee too
	cat "$R/old.console"
else
	run new 0 $BIN/bench
	run old 0 "$OLD"
fi
[ "$S0" != 0 ] && TMO=$S0 run screen0 0 $BIN/bench --screen 0
echo "=== old -> new: wall_s, inputs/hour, screened_inputs, screened_out ==="
python3 perf/experiments/collect_throughput.py "$R/stats_old.tsv"
python3 perf/experiments/collect_throughput.py "$R/stats_new.tsv"
grep -H "wall_s\|screened\|warm_ref" "$R"/stats_*.tsv
for n in old new; do
	[ -f "$R/stats_screen0.tsv" ] || break
	echo "=== $n against --screen 0 ==="
	python3 perf/experiments/screen_report.py "$R/screen0.txt" "$R/stats_screen0.tsv" \
		"$R/$n.txt" "$R/stats_$n.tsv" | tee "$R/report_$n.txt"
done
for f in "$R"/*.txt; do case $f in *report*) ;; *) xz -9 -f "$f" ;; esac; done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
