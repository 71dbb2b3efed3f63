#!/bin/bash
# t2210-truth-heads.sh — prune --truth: each leaf's head and pick set by the
# in-graph truth (stages/learn/truthhead.h).  Prerequisites: the stages
# (make check builds them), cc for the C artifact.
#
# Trees from check/fixtures/rerank (t2200-pick.sh explains them): all.tsv,
# the root alone, list A B E (classes 1 2 0), pick B; d1.tsv, split at m <=
# 2: left leaf E B A pick E, right leaf A B pick A.  Truth logs (ms):
#   ext    m = 1, 2: E 1.0, A 3.0, B 2.0.  k = 1 regret (min(c, E) / best):
#          0 for every class, ties broken by the regret alone: E (0) heads,
#          A B follow; pick B (2 ln 2) -> E (0).
#   pick   m = 1, 2: E 2.0, A 1.0, B 3.0.  Head A already best (0, 0);
#          pick B (2 ln 3) -> A (0).
#   agree  m = 1: E 1.0, A 2.0, B 1.5; m = 2: E 3.0, A 1.0, B 1.2.  k = 1:
#          A 0, B ln 1.2, E ln 3: A stays; alone: A ln 2 = 0.693, B ln 1.5 +
#          ln 1.2 = 0.588, E ln 3: B stays: nothing changes.
#   right  m = 3, 4 (d1's right leaf only): E 1.0, A 2.0, B 1.2.  Listed
#          A B (E is not): k = 1 ties at 0, alone B 2 ln 1.2 < A 2 ln 2:
#          head and pick B; the left leaf and the root unchanged.
. "$(dirname "$0")/lib.sh"
D=$FIX/rerank
[ -x "$BIN/prune" ] || { fail truth-heads "no $BIN/prune"; finish; }
E=extern_mm
A=type=triton_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
B=type=triton_BLOCK-M=32_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
log() { # OUT SHARED_MEMORY "M E A B" ...
	local out=$1 sm=$2; shift 2
	{ head -1 "$D/pick.txt" | sed "s/166912/$sm/"; sed -n 2p "$D/pick.txt"
	  for r in "$@"; do set -- $r
		for c in "$E $2" "$A $3" "$B $4"; do set -- $c
			printf '%s,16,16,torch.float16,torch.float16,16,1,16,1,True,True,not_float_32,%s,%s\n' "${r%% *}" "$1" "$2"
		done; done; } >"$out"
}
feat() { "$BIN/featurize" -o "$TMP/$1.feat.tsv" "$TMP/$1.txt" 2>"$TMP/feat.err" || fail "truth-feat-$1" "$(head -1 "$TMP/feat.err")"; }
log "$TMP/ext.txt" 166912 "1 1.0 3.0 2.0" "2 1.0 3.0 2.0"; feat ext
log "$TMP/pick.txt" 166912 "1 2.0 1.0 3.0" "2 2.0 1.0 3.0"; feat pick
log "$TMP/agree.txt" 166912 "1 1.0 2.0 1.5" "2 3.0 1.0 1.2"; feat agree
log "$TMP/right.txt" 166912 "3 1.0 2.0 1.2" "4 1.0 2.0 1.2"; feat right
log "$TMP/h100.txt" 232448 "1 1.0 3.0 2.0"; feat h100
"$BIN/featurize" -o "$TMP/p.feat.tsv" "$D/pick.txt" 2>/dev/null &&
"$BIN/fit" "$TMP/p.feat.tsv" --split none --grid "$D/grid_root.tsv" --leaf-rank head-q0 --leaf-fill all \
	-o "$TMP/all.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 &&
"$BIN/fit" "$TMP/p.feat.tsv" --split none --grid "$D/grid_depth1.tsv" --leaf-rank head-q0 --leaf-fill all \
	-o "$TMP/d1.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 || { fail truth-heads-fit "fit failed"; finish; }
# node ID's list and pick (check/lib.sh tree_nodes)
nodes() { tree_nodes "$1"; }
pr() { # NAME TREE RANKING TRUTH
	"$BIN/prune" --ranking "$3" --truth "$TMP/$4.feat.tsv" -o "$TMP/$1.tsv" "$TMP/$2" 2>"$TMP/$1.err"; }

"$BIN/prune" --ranking 1 -o "$TMP/plain.tsv" "$TMP/all.tsv" 2>/dev/null
[ "$(nodes "$TMP/plain.tsv")" = "0:1,2,0:2" ] && ok truth-heads-fixture || fail truth-heads-fixture "$(nodes "$TMP/plain.tsv")"

if pr ext all.tsv 1 ext; then
	[ "$(nodes "$TMP/ext.tsv")" = "0:0,1,2:0" ] && ok truth-heads-extern-wins || fail truth-heads-extern-wins "$(nodes "$TMP/ext.tsv")"
	# the moved list's p: rank weights 3/6 2/6 1/6, in class order
	[ "$(awk -F'\t' '$1 == "node" { print $10 }' "$TMP/ext.tsv")" = "0:0.5,1:0.33333333333333331,2:0.16666666666666666" ] &&
		ok truth-heads-rank-weights || fail truth-heads-rank-weights "$(awk -F'\t' '$1 == "node" { print $10 }' "$TMP/ext.tsv")"
	grep -q "^truth: leaf 0 (2 inputs): head $A -> $E (k = 1 regret 1.0000 -> 1.0000)$" "$TMP/ext.err" &&
		grep -q "^truth: leaf 0 (2 inputs): pick $B -> $E (regret alone 2.0000 -> 1.0000)$" "$TMP/ext.err" &&
		grep -q ': 2 inputs (0 skipped.*) in 1 leaves: 1 heads, 1 picks changed; k = 1 regret 1.0000 -> 1.0000, the pick alone 2.0000 -> 1.0000' "$TMP/ext.err" &&
		ok truth-heads-said || fail truth-heads-said "$(cat "$TMP/ext.err")"
else
	fail truth-heads-extern-wins "prune failed: $(head -2 "$TMP/ext.err")"
fi
pr pick all.tsv 1 pick && [ "$(nodes "$TMP/pick.tsv")" = "0:1,2,0:1" ] && grep -q ': 0 heads, 1 picks changed' "$TMP/pick.err" &&
	ok truth-heads-pick-only || fail truth-heads-pick-only "$(nodes "$TMP/pick.tsv") $(tail -1 "$TMP/pick.err")"
# a truth that agrees with the tree changes nothing, byte for byte
pr agree all.tsv 1 agree && test_cmp truth-heads-agree-unchanged "$TMP/plain.tsv" "$TMP/agree.tsv"
# only the leaf the truth reaches; a class the leaf does not list is no candidate
pr right d1.tsv 1 right && [ "$(nodes "$TMP/right.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:2,1:2" ] &&
	ok truth-heads-one-leaf || fail truth-heads-one-leaf "$(nodes "$TMP/right.tsv") $(cat "$TMP/right.err")"

# emit takes the corrected tree; the C twin's pick and head are E
mkdir -p "$TMP/art"
if "$BIN/emit" --heuristic-name T --out-dir "$TMP/art" "$TMP/ext.tsv" 2>"$TMP/emit.err"; then
	sed -n "/def get_pick/,/return/p" "$TMP/art/_T.py" | grep -q "return self.choices\[0\]" && grep -q "return \[(0.500, 0), (0.333, 1), (0.167, 2)\]" "$TMP/art/_T.py" &&
		ok truth-heads-emitted || fail truth-heads-emitted "$(grep -n 'choices\[\|pick=' "$TMP/art/_T.py" "$TMP/art/T.dot" | head -3)"
else
	fail truth-heads-emitted "emit failed: $(head -2 "$TMP/emit.err")"
fi

# refused, nothing written: another device's truth, a missing file
rm -f "$TMP/o.tsv"
if ! "$BIN/prune" --ranking 1 --truth "$TMP/h100.feat.tsv" -o "$TMP/o.tsv" "$TMP/all.tsv" 2>"$TMP/err" &&
	[ ! -e "$TMP/o.tsv" ] && grep -q "h100.feat.tsv" "$TMP/err" && grep -qi "device\|shared" "$TMP/err"; then
	ok truth-heads-other-device-refused; else fail truth-heads-other-device-refused "$(cat "$TMP/err")"; fi
if ! "$BIN/prune" --ranking 1 --truth "$TMP/none.feat.tsv" -o "$TMP/o.tsv" "$TMP/all.tsv" 2>"$TMP/err" &&
	[ ! -e "$TMP/o.tsv" ] && grep -q "none.feat.tsv" "$TMP/err"; then
	ok truth-heads-missing-refused; else fail truth-heads-missing-refused "$(cat "$TMP/err")"; fi
finish
