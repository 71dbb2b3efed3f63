#!/usr/bin/env bash
# check/gpu/warm_ref_ab.sh — one device call: the warm reference call
# (commit "bench: screening and the long-input rule decide on a warm cuBLAS
# reference time") against the build before it, on the same inputs in one
# run, with `make collect`'s defaults (--template mma+wgmma, screening on).
#
# usage: check/gpu/warm_ref_ab.sh SEED SAMPLES OLD_BENCH [SCREEN0_SECONDS]
#   sample --seed SEED --samples SAMPLES (4 x SAMPLES uncapped inputs), timed
#   by .devcarry/bin/bench (new) and OLD_BENCH (old), then, within
#   SCREEN0_SECONDS (default 300; 0 = skip), by the new bench with --screen 0
#   (every candidate at full size: the labels' ground truth); reports by
#   check/gpu/screen_report.py (old and new against --screen 0).
# carry: .devcarry (bin/ with both benches, cubin.tar.xz).
set -u
SEED=$1 SAMPLES=$2 OLD=$3 S0=${4:-300}
export BIN=.devcarry/bin
. "$(dirname "$0")/device_prelude.sh"
$BIN/sample --seed "$SEED" --samples "$SAMPLES" "$R/in.tsv"
echo "inputs: $(($(wc -l < "$R/in.tsv") - 1))"
run() { # name bench [options]
	local n=$1 b=$2; shift 2
	echo "=== $n: $b $* ==="
	timeout "${TMO:-600}" "$b" --device 0 --template mma+wgmma --cache build/cubin "$@" \
		--stats "$R/stats_$n.tsv" "$R/in.tsv" "$R/$n.txt" 2> "$R/$n.err"
	echo "exit $?"; tail -1 "$R/$n.err"
}
run new $BIN/bench
run old "$OLD"
[ "$S0" != 0 ] && TMO=$S0 run screen0 $BIN/bench --screen 0
echo "=== old -> new: wall_s, inputs/hour, screened_inputs, screened_out ==="
python3 check/gpu/collect_throughput.py "$R/stats_old.tsv"
python3 check/gpu/collect_throughput.py "$R/stats_new.tsv"
grep -H "wall_s\|screened\|warm_ref" "$R"/stats_*.tsv
for n in old new; do
	[ -f "$R/stats_screen0.tsv" ] || break
	echo "=== $n against --screen 0 ==="
	python3 check/gpu/screen_report.py "$R/screen0.txt" "$R/stats_screen0.tsv" \
		"$R/$n.txt" "$R/stats_$n.tsv" | tee "$R/report_$n.txt"
done
for f in "$R"/*.txt; do case $f in *report*) ;; *) xz -9 -f "$f" ;; esac; done
date -u
tar -C "$R" -cJf "$OUT/results.tar.xz" .
