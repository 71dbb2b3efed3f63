#!/usr/bin/env bash
# perf/experiments/loser_ab.sh — what the loser cut (bench --loser-ratio L,
# kernels/INDUCTOR_MM.md section 5) costs in accuracy and gains in speed, in
# ONE device call: on the six long inputs of perf/results/gpu/long_ms_h200/
# (giants) and on a slice of the 48 agreement inputs
# (perf/experiments/inductor_agree_shapes.tsv, every EVERY-th, default 2: 24), bench
# --template triton --reps 1 with --loser-ratio 0 and L, twice each,
# interleaved (0a, La, 0b, Lb), the long-kernel rule at its default in all
# (--long-ms 10 --long-launches 2); the report of perf/experiments/rule_ab.sh
# (shared with long_ms_ab.sh) per set: winner within 2 %, median Spearman
# rho, per-choice time ratio p10-p90 against run 0a, run 0b the noise floor,
# inputs/hour, timed launches, loser_choices (loser_fallbacks).
#
#   bash perf/experiments/loser_ab.sh --prepare   # here (CPU): the shape lists and their
#                                          # Triton variants, packed (agree_lease.sh --prepare)
#   bash perf/experiments/loser_ab.sh             # the device call; carry build/bin and $CARRY
#
# Settings: L (default 1.5), EVERY (2), CARRY (build/loserab), WORK (default
# $CARRY/run: WORK/giants/, WORK/agree/, the logs, stats, reports and
# table.md of each set), OUT (default out/loser_ab: summary.md, both
# tables, and giants.tar.xz, agree.tar.xz, the sets' folders: 3 files, as
# a device call's $OUT takes them back), BENCH (build/bin/bench).
# A CPU dry run of the script (not of the GPU): BENCH=build/bin/bench-fake
# ENTRY=anything bash perf/experiments/loser_ab.sh (check/t4140-bench-triton.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
L=${L:-1.5} EVERY=${EVERY:-2} CARRY=${CARRY:-build/loserab} OUT=${OUT:-out/loser_ab}
# the options compared (perf/experiments/warmverify_ab.sh sets them): off, on, the
# on runs' letter, the sets' titles
AB_OFF=${AB_OFF---loser-ratio 0} AB_ON=${AB_ON---loser-ratio $L} AB_X=${AB_X:-L}
AB_TITLE=${AB_TITLE:---loser-ratio 0 vs $L}
WORK=${WORK:-$CARRY/run}
GIANTS=perf/results/gpu/long_ms_h200/shapes.tsv AGREE=perf/experiments/inductor_agree_shapes.tsv

# the two shape lists (the same header), into $CARRY
shape_lists() {
	mkdir -p "$CARRY" || return 1
	cp "$GIANTS" "$CARRY/giants.tsv" &&
		awk -v e="$EVERY" 'NR == 1 || (NR - 2) % e == 0' "$AGREE" > "$CARRY/agree.tsv" &&
		{ cat "$CARRY/giants.tsv"; tail -n +2 "$CARRY/agree.tsv"; } > "$CARRY/all.tsv"
}
if [ "${1:-}" = --prepare ]; then
	shape_lists || exit 1
	CARRY=$CARRY SHAPES=$CARRY/all.tsv bash perf/experiments/agree_lease.sh --prepare
	exit
fi

. perf/experiments/rule_ab.sh
if [ -z "${ENTRY:-}" ]; then
	[ -e "$CARRY/triton.tar.xz" ] && [ -x "$BENCH" ] ||
		{ echo "missing $CARRY/triton.tar.xz or $BENCH: run bash perf/experiments/loser_ab.sh --prepare here and carry build/bin $CARRY"; exit 1; }
	FC=build/fccache/cubin
	mkdir -p "$FC" && tar xJf "$CARRY/triton.tar.xz" -C "$FC" || exit 1
	ENTRY=$FC/$(cat "$CARRY/entry.txt")
else
	shape_lists || exit 1
fi
mkdir -p "$OUT" "$WORK" || exit 1
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
rc=0
for set in giants agree; do
	echo "==== $set ($(($(wc -l < "$CARRY/$set.tsv") - 1)) inputs), $AB_TITLE"
	rule_ab "$WORK/$set" "$CARRY/$set.tsv" "$AB_X" "$AB_OFF" "$AB_ON" || rc=1
	tar cJf "$OUT/$set.tar.xz" -C "$WORK" "$set" || rc=1
done
for set in giants agree; do
	echo "### $set ($(($(wc -l < "$CARRY/$set.tsv") - 1)) inputs, $AB_TITLE)"
	cat "$WORK/$set/table.md" 2>/dev/null
done > "$OUT/summary.md"
cat "$OUT/summary.md"
exit $rc
