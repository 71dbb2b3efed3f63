#!/usr/bin/env bash
# t2160-gridcv.sh — the grid/CV unit's contract (stages/learn/gridcv.h):
# with every pass open at once, half of them fitted up front
# (gridcv_pass_fit) and every (pass, model) job run in reverse order, closing
# the passes in order gives gridcv_run's metrics (every model and set, as
# printed in the metrics TSV) and trees, field by field
# (check/unit/gridcv_order.c); closing them out of order does not (the
# merged lists, and so the geometric means, follow the close order).
# Data: check/synth_mm.awk, 400 inputs, 14 choices; the reference grid (36
# models), 3 folds, k = 4, greedy leaf order padded by 2.
. check/lib.sh
U=${BIN%/bin}/unit/gridcv_order
[ -x "$U" ] || { fail gridcv "no $U (make units)"; finish; }
awk -v seed=777 -v inputs=400 -v choices=14 -f check/synth_mm.awk >"$TMP/s.txt"
"$BIN/featurize" -o "$TMP/s.feat.tsv" "$TMP/s.txt" 2>/dev/null || { fail gridcv "featurize failed"; finish; }
if out=$("$U" "$TMP/s.feat.tsv" reference 3 4 2>"$TMP/err"); then
	[ "$out" = "same (36 models, 3 folds)" ] && ok gridcv-any-job-order || fail gridcv-any-job-order "'$out'"
else
	fail gridcv-any-job-order "$out $(grep -v warning "$TMP/err" | head -1)"
fi
out=$("$U" "$TMP/s.feat.tsv" reference 3 4 reverse 2>/dev/null) &&
	fail gridcv-close-order-matters "closing the passes in reverse gave '$out'" ||
	{ grep -q 'metrics differ' <<<"$out" && ok gridcv-close-order-matters ||
		fail gridcv-close-order-matters "'$out'"; }
finish
