#!/usr/bin/env bash
# t2150-select.sh — fit --select curve (stages/learn/select.h select_curve):
# the hand-made curves of check/unit/select_curve.c (its header
# works the expected picks out: 3, 1, 0), and fit's end of it: --select
# curve prints the selected model's curve on stderr and marks one model
# selected in the metrics TSV; an unknown rule names the four.
. check/lib.sh
U=${BIN%/bin}/unit/select_curve
[ -x "$U" ] || { fail select-curve "no $U (make units)"; finish; }
got=$("$U" 2>&1 | tr '\n' ' ')
[ "$got" = "3 1 0 " ] && ok select-curve-unit || fail select-curve-unit "picks '$got', want '3 1 0 '"

F=$FIX/fit
"$BIN/featurize" -o "$TMP/main.feat.tsv" "$F/main.txt" 2>/dev/null || { fail select-featurize "featurize failed"; finish; }
if "$BIN/fit" "$TMP/main.feat.tsv" --split group --folds 3 --grid reference --select curve \
	--leaf-rank prefix --leaf-pad 2 --ranking 2 -o "$TMP/t.tsv" --metrics "$TMP/m.tsv" \
	>/dev/null 2>"$TMP/err"; then
	n=$(awk -F'\t' 'NR > 1 && $5 == 1' "$TMP/m.tsv" | cut -f2-4 | sort -u | wc -l)
	grep -q '^fit: cv curve (hit rate, regret gmean): the pick alone [0-9.]* [0-9.]*, the list head alone [0-9.]* [0-9.]*, top-1+extern_mm' "$TMP/err" &&
		[ "$n" = 1 ] && ok select-curve-fit || fail select-curve-fit "selected models: $n; $(grep curve "$TMP/err")"
else
	fail select-curve-fit "fit failed: $(grep -v warning "$TMP/err" | head -2)"
fi
expect_error select-bad "--select: expected top1, regret, hit or curve, got 'best'" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/main.feat.tsv" --select best -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"
finish
