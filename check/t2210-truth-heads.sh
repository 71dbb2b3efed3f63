#!/bin/bash
# t2210-truth-heads.sh — prune --truth: each leaf's head and pick set by the
# in-graph truth, and leaves split where its inputs disagree
# (stages/learn/truthhead.h).  Prerequisites: the stages (make check builds
# them), cc for the C artifact, python3 (the emitted .py against the torch
# stand-in, check/stub).
#
# Trees from check/fixtures/rerank (t2200-pick.sh explains them): all.tsv,
# the root alone, list A B E (classes 1 2 0), pick B; d1.tsv, split at m <=
# 2.5: left leaf 1 E B A pick E, right leaf 2 A B pick A.  Features: 0 m,
# 1 k, 2 n, ..., 7 m*k, 8 m*n, 9 k*n, 10 arith_intensity (the last four vary
# with m or n too: a cut on them ties with m's or n's, and the lower index
# wins).  Head and pick are both the listed class with the lowest summed ln
# regret alone (t_c / best), ties by k = 1's (min(t_c, t_E) / best); the
# tree's own is replaced only where that is better.  Truth logs (ms; rows
# m E A B, or m,k,n E A B):
#   ext    m = 1, 2: E 1.0, A 3.0, B 2.0.  Alone: E 0, B 2 ln 2, A 2 ln 3:
#          E heads (alone 3 -> 1, k = 1 1 -> 1), A B follow; pick B (2 ln
#          2) -> E (0).
#   pick   m = 1, 2: E 2.0, A 1.0, B 3.0.  Head A already best (0, 0);
#          pick B (2 ln 3) -> A (0).
#   alone  m = 1: E 1.0, A 2.0, B 1.5; m = 2: E 3.0, A 1.0, B 1.2.  (The
#          old "agree": with k = 1 first, A's k = 1 0 < B's ln 1.2 kept A.)
#          Alone: A ln 2 = 0.693, B ln 1.5 + ln 1.2 = ln 1.8 = 0.588, E ln
#          3: head A -> B (alone sqrt 2 = 1.4142 -> sqrt 1.8 = 1.3416, k = 1
#          1 -> sqrt 1.2 = 1.0954: the head alone wins though k = 1 loses);
#          pick B stays (best alone): summary alone 1.3416 -> 1.3416.
#   agree  m = 1: E 3.0, A 1.0, B 2.0; m = 2: E 3.0, A 2.0, B 1.0.  Alone:
#          A ln 2, B ln 2, E 2 ln 3; k = 1 (E never faster): A ln 2, B ln
#          2: A and B tie on both, so head A and pick B stay: nothing
#          changes, byte for byte.
#   ptie   m = 1: E 3.0, A 1.0, B 2.0; m = 2: E 1.5, A 2.0, B 1.0.  Alone:
#          A ln 2, B ln 2 (a tie); k = 1: A ln 1.5 < B ln 2: head A stays,
#          and the pick follows the same tie-break: B -> A.
#   right  m = 3, 4 (d1's right leaf only): E 1.0, A 2.0, B 1.2.  Listed
#          A B (E is not): alone B 2 ln 1.2 < A 2 ln 2: head and pick B;
#          the left leaf and the root unchanged.
# Truth splits (each side's cost: the lowest summed ln regret alone of a
# class the leaf lists; gain = the leaf's cost - both sides'; split where
# gain >= 0.05 and >= 0.01 per input of the leaf, and each side keeps >= 2
# inputs; --truth-depth, default 2):
#   split  m = 1, 2: E 2.0, A 1.0, B 1.5; m = 3, 4: E 2.0, A 1.2, B 1.0.
#          Root (all.tsv): cost A 2 ln 1.2 = 0.3646 (B 2 ln 1.5, E 4 ln 2);
#          the only cut with 2 a side, m <= 2.5, costs 0 + 0: gain 0.3646,
#          alone geomean 1.2^(2/4) = 1.0954 -> 1.  Left (A wins): head A
#          stays, pick B -> A (1.5 -> 1); right: head A -> B (alone 1.2 ->
#          1, k = 1 min(1.2, 2) = 1.2 -> 1), pick B stays.  Pre-order: 0
#          the root (m <= 2.5, list and pick unchanged), 1 left, 2 right.
#          Summary: 1 split, 1 heads, 1 picks; k = 1 2 ln 1.2 / 4 -> 0:
#          1.0954 -> 1, alone 2 ln 1.5 / 4: 1.2247 -> 1.
#          --truth-depth 0: no split; over the 4 inputs A is best alone
#          (0.3646): head A stays, pick B -> A.
#   low    m = 1, 2: E 2.0, A 1.00, B 1.02; m = 3, 4: E 2.0, A 1.02, B
#          1.00: gain 2 ln 1.02 = 0.0396 < 0.05: no split; A and B tie
#          alone and at k = 1: nothing changes, byte for byte.
#   high   the same with 1.03: gain 2 ln 1.03 = 0.0591 >= 0.05: split at
#          m <= 2.5, alone 1.03^(2/4) = 1.0149 -> 1.
#   noop   m = 1, 2: E 2.0, A 1.0, B failed; m = 3, 4: E 2.0, A failed, B
#          1.0.  Only E is timed on all 4 (cost 4 ln 2); m <= 2.5 leaves A
#          (0) and B (0): the split is made, but each side's own first
#          timed class is already A, resp. B, so both keep the list A B E
#          and pick B: the split is undone, the file byte-identical.
#   unl    right plus m = 5: E 1.0, A and B failed (inf): nothing the right
#          leaf lists was timed for it, so it is left out (counted as "1
#          with no listed choice timed") and the leaf changes as for right.
#   huge   split's times at m = 2^53, +2, +4, +6: the midpoint of 2^53 + 2
#          and 2^53 + 4 rounds onto 2^53 + 4, which would send that input
#          left; the cut falls back to 2^53 + 2 (as cart.c), 2 | 2.
#   mean   m = 1, 2: E 2.0, A 1.031, B 1.0; m = 3..10: E 2.0, A 1.0, B
#          1.031.  Cost A 2 ln 1.031 = 0.0611; m <= 2.5 gains all of it,
#          above 0.05 but below 0.01 per input of the leaf (0.1): no split
#          (on a large truth chance alone gains 0.05).  Head A stays, pick
#          B -> A.
#   side   m = 1: E 2.0, A 1.0, B 3.0; m = 2, 3, 4: E 2.0, A 1.02, B 1.0.
#          Cost A 3 ln 1.02 = 0.0594.  m <= 1.5 would gain all 0.0594 but
#          leaves 1 input left; m <= 2.5 gains 2 ln 1.02 = 0.0396 (left A
#          ln 1.02), m <= 3.5 ln 1.02 (1 right): no split.  Head A stays,
#          pick B -> A.
#   three  m = 1, 2: E 2, A 1, B 2; m = 3, 4: E 2, A 2, B 1; m = 5, 6: E
#          1, A 2, B 2.  Root cost 4 ln 2 (each class); m <= 2.5, 3.5 and
#          4.5 each leave 2 ln 2 (gain 2 ln 2): the lowest cut, 2.5, wins
#          (alone 2^(4/6) = 1.5874 -> 2^(2/6) = 1.2599).  Its right side
#          (m = 3..6, cost B or E 2 ln 2) splits at m <= 4.5 (its only cut
#          with 2 a side; 1.4142 -> 1).  Leaves: m <= 2.5: pick B -> A
#          (2 -> 1); m in (2.5, 4.5]: head A -> B (alone 2 -> 1, k = 1
#          min(2, 2) -> 1); m > 4.5: head A -> E (alone 2 -> 1, k = 1
#          min(2, 1) = 1 -> 1), pick B -> E (2 -> 1).  Pre-order: 0 (m <=
#          2.5), 1 leaf, 2 (m <= 4.5), 3 leaf, 4 leaf; 2 split, 2 heads, 2
#          picks; k = 1 2 ln 2 / 6: 1.2599 -> 1, alone 4 ln 2 / 6: 1.5874 -> 1.
#          --truth-depth 1: the root split only; its right leaf (m = 3..6):
#          B and E tie alone (2 ln 2), k = 1 B 0 < E 2 ln 2: head A -> B
#          (alone 2^(4/4) = 2 -> sqrt 2, k = 1 sqrt 2 -> 1), pick B stays.
#   listed m = 3, 4 (d1's right leaf 2, A B listed, E not): E 1.0, A 1.5,
#          B 1.5; m = 5, 6: E 1.5, A 1.0, B 1.0.  With E m <= 4.5 would
#          cost 0 (gain 2 ln 1.5); of A B each costs 2 ln 1.5 on both
#          sides: gain 0, no split.  A and B tie alone and at k = 1 (min
#          with E: 0 each): nothing changes, byte for byte.
#   inner  m = 1 (d1's left leaf 1), n = 16, 32: E 1, A 2, B 2; n = 48, 64:
#          E 2, A 2, B 1.  Cost E or B 2 ln 2; n <= 40 costs 0 (m is
#          constant; m*n, k*n, arith_intensity tie but come later): split,
#          alone sqrt 2 -> 1.  n <= 40 keeps E B A pick E; n > 40: head E
#          -> B (alone 2 -> 1, k = 1 2 -> 1), list B E A, pick E -> B.  The
#          new nodes come last in memory, so pre-order renumbers: 0 the
#          root (right 4), 1 (n <= 40; 2, 3), 2 left, 3 right, 4 the old
#          right leaf A B pick A.
. "$(dirname "$0")/lib.sh"
D=$FIX/rerank
[ -x "$BIN/prune" ] || { fail truth-heads "no $BIN/prune"; finish; }
E=extern_mm
A=type=triton_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
B=type=triton_BLOCK-M=32_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
log() { # OUT SHARED_MEMORY "M E A B" ... (M: m, k = n = 16; or "m,k,n")
	local out=$1 sm=$2 r mkn; shift 2
	{ head -1 "$D/pick.txt" | sed "s/166912/$sm/"; sed -n 2p "$D/pick.txt"
	  for r in "$@"; do set -- $r
		case $1 in *,*) mkn=$1 ;; *) mkn=$1,16,16 ;; esac
		printf '%s,torch.float16,torch.float16,16,1,16,1,True,True,not_float_32,%s,%s\n' \
			"$mkn" "$E" "$2" "$mkn" "$A" "$3" "$mkn" "$B" "$4"
	  done; } >"$out"
}
feat() { "$BIN/featurize" -o "$TMP/$1.feat.tsv" "$TMP/$1.txt" 2>"$TMP/feat.err" || fail "truth-feat-$1" "$(head -1 "$TMP/feat.err")"; }
log "$TMP/ext.txt" 166912 "1 1.0 3.0 2.0" "2 1.0 3.0 2.0"; feat ext
log "$TMP/pick.txt" 166912 "1 2.0 1.0 3.0" "2 2.0 1.0 3.0"; feat pick
log "$TMP/alone.txt" 166912 "1 1.0 2.0 1.5" "2 3.0 1.0 1.2"; feat alone
log "$TMP/agree.txt" 166912 "1 3.0 1.0 2.0" "2 3.0 2.0 1.0"; feat agree
log "$TMP/ptie.txt" 166912 "1 3.0 1.0 2.0" "2 1.5 2.0 1.0"; feat ptie
log "$TMP/right.txt" 166912 "3 1.0 2.0 1.2" "4 1.0 2.0 1.2"; feat right
log "$TMP/h100.txt" 232448 "1 1.0 3.0 2.0"; feat h100
log "$TMP/split.txt" 166912 "1 2.0 1.0 1.5" "2 2.0 1.0 1.5" "3 2.0 1.2 1.0" "4 2.0 1.2 1.0"; feat split
log "$TMP/low.txt" 166912 "1 2.0 1.00 1.02" "2 2.0 1.00 1.02" "3 2.0 1.02 1.00" "4 2.0 1.02 1.00"; feat low
log "$TMP/high.txt" 166912 "1 2.0 1.00 1.03" "2 2.0 1.00 1.03" "3 2.0 1.03 1.00" "4 2.0 1.03 1.00"; feat high
log "$TMP/noop.txt" 166912 "1 2.0 1.0 inf" "2 2.0 1.0 inf" "3 2.0 inf 1.0" "4 2.0 inf 1.0"; feat noop
log "$TMP/unl.txt" 166912 "3 1.0 2.0 1.2" "4 1.0 2.0 1.2" "5 1.0 inf inf"; feat unl
H=9007199254740992
log "$TMP/huge.txt" 166912 "$H 2.0 1.0 1.5" "$((H + 2)) 2.0 1.0 1.5" "$((H + 4)) 2.0 1.5 1.0" "$((H + 6)) 2.0 1.5 1.0"; feat huge
log "$TMP/mean.txt" 166912 "1 2.0 1.031 1.0" "2 2.0 1.031 1.0" "3 2.0 1.0 1.031" "4 2.0 1.0 1.031" "5 2.0 1.0 1.031" \
	"6 2.0 1.0 1.031" "7 2.0 1.0 1.031" "8 2.0 1.0 1.031" "9 2.0 1.0 1.031" "10 2.0 1.0 1.031"; feat mean
log "$TMP/side.txt" 166912 "1 2.0 1.0 3.0" "2 2.0 1.02 1.0" "3 2.0 1.02 1.0" "4 2.0 1.02 1.0"; feat side
log "$TMP/three.txt" 166912 "1 2 1 2" "2 2 1 2" "3 2 2 1" "4 2 2 1" "5 1 2 2" "6 1 2 2"; feat three
log "$TMP/listed.txt" 166912 "3 1.0 1.5 1.5" "4 1.0 1.5 1.5" "5 1.5 1.0 1.0" "6 1.5 1.0 1.0"; feat listed
log "$TMP/inner.txt" 166912 "1,16,16 1 2 2" "1,16,32 1 2 2" "1,16,48 2 2 1" "1,16,64 2 2 1"; feat inner
"$BIN/featurize" -o "$TMP/p.feat.tsv" "$D/pick.txt" 2>/dev/null &&
"$BIN/fit" "$TMP/p.feat.tsv" --split none --grid "$D/grid_root.tsv" --leaf-rank head-q0 --leaf-fill all \
	-o "$TMP/all.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 &&
"$BIN/fit" "$TMP/p.feat.tsv" --split none --grid "$D/grid_depth1.tsv" --leaf-rank head-q0 --leaf-fill all \
	-o "$TMP/d1.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 || { fail truth-heads-fit "fit failed"; finish; }
# node ID's list and pick (check/lib.sh tree_nodes)
nodes() { tree_nodes "$1"; }
# each node's id, feature name (-: a leaf), threshold, left, right
tests() { awk -F'\t' '$1 == "feature" { f[$2] = $3 } $1 == "node" {
	printf "%s%s:%s:%s:%s:%s", (n++ ? " " : ""), $2, ($3 < 0 ? "-" : f[$3]), ($3 < 0 ? "-" : $4), $5, $6 }' "$1"; }
pr() { # NAME TREE RANKING TRUTH [OPTION...]
	local n=$1 t=$2 k=$3 s=$4; shift 4
	"$BIN/prune" --ranking "$k" --truth "$TMP/$s.feat.tsv" "$@" -o "$TMP/$n.tsv" "$TMP/$t" 2>"$TMP/$n.err"; }
# the summary's counts: "S split, H heads, P picks, T top_k changed"
said() { grep -o ' in [0-9]* leaves: [0-9]* split, [0-9]* heads, [0-9]* picks, [0-9]* top_k changed' "$TMP/$1.err"; }
summary() { grep -o 'in [0-9]* leaves: .*' "$TMP/$1.err"; }

"$BIN/prune" --ranking 1 -o "$TMP/plain.tsv" "$TMP/all.tsv" 2>/dev/null
[ "$(nodes "$TMP/plain.tsv")" = "0:1,2,0:2" ] && ok truth-heads-fixture || fail truth-heads-fixture "$(nodes "$TMP/plain.tsv")"
"$BIN/prune" --ranking 1 -o "$TMP/plain1.tsv" "$TMP/d1.tsv" 2>/dev/null
[ "$(nodes "$TMP/plain1.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:1,2:1" ] && [ "$(tests "$TMP/plain1.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] &&
	ok truth-split-fixture || fail truth-split-fixture "$(nodes "$TMP/plain1.tsv") / $(tests "$TMP/plain1.tsv")"

if pr ext all.tsv 1 ext; then
	[ "$(nodes "$TMP/ext.tsv")" = "0:0,1,2:0" ] && ok truth-heads-extern-wins || fail truth-heads-extern-wins "$(nodes "$TMP/ext.tsv")"
	# the moved list's p: rank weights 3/6 2/6 1/6, in class order
	[ "$(awk -F'\t' '$1 == "node" { print $10 }' "$TMP/ext.tsv")" = "0:0.5,1:0.33333333333333331,2:0.16666666666666666" ] &&
		ok truth-heads-rank-weights || fail truth-heads-rank-weights "$(awk -F'\t' '$1 == "node" { print $10 }' "$TMP/ext.tsv")"
	grep -qx "truth: leaf 0 (2 inputs): head $A -> $E (regret alone 3.0000 -> 1.0000, k = 1 1.0000 -> 1.0000)" "$TMP/ext.err" &&
		grep -qx "truth: leaf 0 (2 inputs): pick $B -> $E (regret alone 2.0000 -> 1.0000)" "$TMP/ext.err" &&
		grep -q ': 2 inputs (0 skipped.*) in 1 leaves: 0 split, 1 heads, 1 picks, 0 top_k changed; k = 1 regret 1.0000 -> 1.0000, the pick alone 2.0000 -> 1.0000 (geomean)$' "$TMP/ext.err" &&
		ok truth-heads-said || fail truth-heads-said "$(cat "$TMP/ext.err")"
else
	fail truth-heads-extern-wins "prune failed: $(head -2 "$TMP/ext.err")"
fi
pr pick all.tsv 1 pick && [ "$(nodes "$TMP/pick.tsv")" = "0:1,2,0:1" ] && [ "$(said pick)" = " in 1 leaves: 0 split, 0 heads, 1 picks, 0 top_k changed" ] &&
	! grep -q ': head ' "$TMP/pick.err" &&
	ok truth-heads-pick-only || fail truth-heads-pick-only "$(nodes "$TMP/pick.tsv") $(cat "$TMP/pick.err")"
# the head is the best alone, k = 1 only breaks ties: B's k = 1 is worse
pr alone all.tsv 1 alone && [ "$(nodes "$TMP/alone.tsv")" = "0:2,1,0:2" ] &&
	grep -qx "truth: leaf 0 (2 inputs): head $A -> $B (regret alone 1.4142 -> 1.3416, k = 1 1.0000 -> 1.0954)" "$TMP/alone.err" &&
	[ "$(summary alone)" = "in 1 leaves: 0 split, 1 heads, 0 picks, 0 top_k changed; k = 1 regret 1.0000 -> 1.0954, the pick alone 1.3416 -> 1.3416 (geomean)" ] &&
	ok truth-heads-alone-first || fail truth-heads-alone-first "$(nodes "$TMP/alone.tsv") $(cat "$TMP/alone.err")"
# a truth that agrees with the tree changes nothing, byte for byte, but for
# param truth 1 (after the other params): the picks were checked in the graph
TAB=$'\t'
# the tree without param truth and the truth marks (the nodes' last field)
notruth() { awk -F'\t' -v OFS='\t' '$1 == "param" && $2 == "truth" { tr = 1; next }
	$1 == "node" && tr { NF--; } { print }' "$1"; }
# each node's truth mark, space-separated (- without param truth)
marks() { awk -F'\t' '$1 == "param" && $2 == "truth" { tr = 1 }
	$1 == "node" { printf "%s%s", s, (tr ? $NF : "-"); s = " " }' "$1"; }
pr agree all.tsv 1 agree && notruth "$TMP/agree.tsv" >"$TMP/agree-nt.tsv" &&
	test_cmp truth-heads-agree-unchanged "$TMP/plain.tsv" "$TMP/agree-nt.tsv"
[ "$(grep -n '^param' "$TMP/agree.tsv" | tail -1)" = "$(($(grep -c '^param' "$TMP/plain.tsv") + 2)):param${TAB}truth${TAB}1" ] &&
	! grep -q "^param${TAB}truth" "$TMP/plain.tsv" && ok truth-param-written || fail truth-param-written "$(grep '^param' "$TMP/agree.tsv" | tr '\n' '|')"
[ "$(said agree)" = " in 1 leaves: 0 split, 0 heads, 0 picks, 0 top_k changed" ] && ok truth-heads-agree-said || fail truth-heads-agree-said "$(cat "$TMP/agree.err")"
# a pick tied alone goes to the better k = 1, as the head does
pr ptie all.tsv 1 ptie && [ "$(nodes "$TMP/ptie.tsv")" = "0:1,2,0:1" ] &&
	[ "$(said ptie)" = " in 1 leaves: 0 split, 0 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-heads-pick-tie || fail truth-heads-pick-tie "$(nodes "$TMP/ptie.tsv") $(cat "$TMP/ptie.err")"
# only the leaf the truth reaches; a class the leaf does not list is no candidate
pr right d1.tsv 1 right && [ "$(nodes "$TMP/right.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:2,1:2" ] &&
	ok truth-heads-one-leaf || fail truth-heads-one-leaf "$(nodes "$TMP/right.tsv") $(cat "$TMP/right.err")"
# the truth mark (the nodes' last field): the leaf the truth reached only
[ "$(marks "$TMP/right.tsv")" = "0 0 1" ] && [ "$(marks "$TMP/plain1.tsv")" = "- - -" ] &&
	ok truth-mark-reached-leaf-only || fail truth-mark-reached-leaf-only "$(marks "$TMP/right.tsv") / $(marks "$TMP/plain1.tsv")"

# ---- truth splits ----------------------------------------------------------
if pr split all.tsv 1 split; then
	[ "$(tests "$TMP/split.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] &&
		ok truth-split-at-m || fail truth-split-at-m "$(tests "$TMP/split.tsv")"
	[ "$(nodes "$TMP/split.tsv")" = "0:1,2,0:2 1:1,2,0:1 2:2,1,0:2" ] &&
		ok truth-split-heads || fail truth-split-heads "$(nodes "$TMP/split.tsv")"
	# both new leaves marked, the split node not
	[ "$(marks "$TMP/split.tsv")" = "0 1 1" ] && ok truth-mark-split-leaves || fail truth-mark-split-leaves "$(marks "$TMP/split.tsv")"
	# the children's training counts: n_samples, weighted_n 0; n_labels the leaf's
	[ "$(awk -F'\t' '$1 == "node" { printf "%s:%s:%s:%s ", $2, $7, $8, $9 }' "$TMP/split.tsv")" = "0:4:4:2 1:0:0:2 2:0:0:2 " ] &&
		ok truth-split-counts || fail truth-split-counts "$(grep '^node' "$TMP/split.tsv")"
	grep -qx "truth: leaf 0 (4 inputs): split at m <= 2.5 (2 | 2 inputs): the best class alone 1.0954 -> 1.0000" "$TMP/split.err" &&
		grep -qx "truth: leaf 0, m <= 2.5 (2 inputs): pick $B -> $A (regret alone 1.5000 -> 1.0000)" "$TMP/split.err" &&
		grep -qx "truth: leaf 0, m > 2.5 (2 inputs): head $A -> $B (regret alone 1.2000 -> 1.0000, k = 1 1.2000 -> 1.0000)" "$TMP/split.err" &&
		[ "$(grep -c '^truth: ' "$TMP/split.err")" = 3 ] &&
		[ "$(summary split)" = "in 1 leaves: 1 split, 1 heads, 1 picks, 0 top_k changed; k = 1 regret 1.0954 -> 1.0000, the pick alone 1.2247 -> 1.0000 (geomean)" ] &&
		ok truth-split-said || fail truth-split-said "$(cat "$TMP/split.err")"
else
	fail truth-split-at-m "prune failed: $(head -2 "$TMP/split.err")"
fi
# --truth-depth 0: heads and picks only
pr depth0 all.tsv 1 split --truth-depth 0 && [ "$(tests "$TMP/depth0.tsv")" = "0:-:-:-1:-1" ] &&
	[ "$(nodes "$TMP/depth0.tsv")" = "0:1,2,0:1" ] && ! grep -q 'split at' "$TMP/depth0.err" &&
	[ "$(said depth0)" = " in 1 leaves: 0 split, 0 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-depth-0-no-split || fail truth-depth-0-no-split "$(nodes "$TMP/depth0.tsv") $(cat "$TMP/depth0.err")"
# a gain below 0.05 splits nothing (and here changes nothing); just above it does
pr low all.tsv 1 low && notruth "$TMP/low.tsv" >"$TMP/low-nt.tsv" && test_cmp truth-split-low-gain "$TMP/plain.tsv" "$TMP/low-nt.tsv"
[ "$(said low)" = " in 1 leaves: 0 split, 0 heads, 0 picks, 0 top_k changed" ] && ok truth-split-low-gain-said || fail truth-split-low-gain-said "$(cat "$TMP/low.err")"
pr high all.tsv 1 high && [ "$(tests "$TMP/high.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] &&
	[ "$(nodes "$TMP/high.tsv")" = "0:1,2,0:2 1:1,2,0:1 2:2,1,0:2" ] &&
	grep -qx "truth: leaf 0 (4 inputs): split at m <= 2.5 (2 | 2 inputs): the best class alone 1.0149 -> 1.0000" "$TMP/high.err" &&
	ok truth-split-gain-above || fail truth-split-gain-above "$(tests "$TMP/high.tsv") $(cat "$TMP/high.err")"
# a split after which both sides run the same is undone
pr noop all.tsv 1 noop && notruth "$TMP/noop.tsv" >"$TMP/noop-nt.tsv" &&
	test_cmp truth-split-noop-undone "$TMP/plain.tsv" "$TMP/noop-nt.tsv"
grep -qx "truth: leaf 0: split undone: both sides run the same" "$TMP/noop.err" &&
	[ "$(said noop)" = " in 1 leaves: 0 split, 0 heads, 0 picks, 0 top_k changed" ] &&
	ok truth-split-noop-said || fail truth-split-noop-said "$(cat "$TMP/noop.err")"
# an input none of whose leaf's classes was timed is left out, not scored
pr unl d1.tsv 1 unl && [ "$(nodes "$TMP/unl.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:2,1:2" ] &&
	grep -q ': 3 inputs (0 skipped: every choice failed; 0 in unsafe leaves; 1 with no listed choice timed) in 1 leaves: 0 split, 1 heads, 1 picks, 0 top_k changed; k = 1 regret 1.0000 -> 1.0000, the pick alone 2.0000 -> 1.2000' "$TMP/unl.err" &&
	ok truth-unlisted-left-out || fail truth-unlisted-left-out "$(nodes "$TMP/unl.tsv") $(cat "$TMP/unl.err")"
# a midpoint that rounds onto the right value falls back to the left one
pr huge all.tsv 1 huge && [ "$(tests "$TMP/huge.tsv")" = "0:m:9007199254740994:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] &&
	grep -q "split at m <= 9007199254740994 (2 | 2 inputs)" "$TMP/huge.err" &&
	ok truth-split-cut-rounding || fail truth-split-cut-rounding "$(tests "$TMP/huge.tsv") $(cat "$TMP/huge.err")"
# a gain above 0.05 but below 0.01 per input of the leaf: no split
pr mean all.tsv 1 mean && [ "$(tests "$TMP/mean.tsv")" = "0:-:-:-1:-1" ] && [ "$(nodes "$TMP/mean.tsv")" = "0:1,2,0:1" ] &&
	[ "$(said mean)" = " in 1 leaves: 0 split, 0 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-split-mean-gain || fail truth-split-mean-gain "$(tests "$TMP/mean.tsv") $(cat "$TMP/mean.err")"
# the one cut gaining 0.05 leaves a side 1 input: no split
pr side all.tsv 1 side && [ "$(tests "$TMP/side.tsv")" = "0:-:-:-1:-1" ] && [ "$(nodes "$TMP/side.tsv")" = "0:1,2,0:1" ] &&
	[ "$(said side)" = " in 1 leaves: 0 split, 0 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-split-side-min || fail truth-split-side-min "$(nodes "$TMP/side.tsv") $(cat "$TMP/side.err")"

# two levels (the default depth 2), ties to the lower cut; --truth-depth 1: one
if pr three all.tsv 1 three; then
	[ "$(tests "$TMP/three.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:m:4.5:3:4 3:-:-:-1:-1 4:-:-:-1:-1" ] &&
		[ "$(nodes "$TMP/three.tsv")" = "0:1,2,0:2 1:1,2,0:1 2:1,2,0:2 3:2,1,0:2 4:0,1,2:0" ] &&
		ok truth-split-two-levels || fail truth-split-two-levels "$(tests "$TMP/three.tsv") / $(nodes "$TMP/three.tsv")"
	grep -qx "truth: leaf 0 (6 inputs): split at m <= 2.5 (2 | 4 inputs): the best class alone 1.5874 -> 1.2599" "$TMP/three.err" &&
		grep -qx "truth: leaf 0, m > 2.5 (4 inputs): split at m <= 4.5 (2 | 2 inputs): the best class alone 1.4142 -> 1.0000" "$TMP/three.err" &&
		grep -qx "truth: leaf 0, m <= 2.5 (2 inputs): pick $B -> $A (regret alone 2.0000 -> 1.0000)" "$TMP/three.err" &&
		grep -qx "truth: leaf 0, m > 2.5, m <= 4.5 (2 inputs): head $A -> $B (regret alone 2.0000 -> 1.0000, k = 1 2.0000 -> 1.0000)" "$TMP/three.err" &&
		grep -qx "truth: leaf 0, m > 2.5, m > 4.5 (2 inputs): head $A -> $E (regret alone 2.0000 -> 1.0000, k = 1 1.0000 -> 1.0000)" "$TMP/three.err" &&
		grep -qx "truth: leaf 0, m > 2.5, m > 4.5 (2 inputs): pick $B -> $E (regret alone 2.0000 -> 1.0000)" "$TMP/three.err" &&
		[ "$(grep -c '^truth: ' "$TMP/three.err")" = 6 ] &&
		[ "$(summary three)" = "in 1 leaves: 2 split, 2 heads, 2 picks, 0 top_k changed; k = 1 regret 1.2599 -> 1.0000, the pick alone 1.5874 -> 1.0000 (geomean)" ] &&
		ok truth-split-two-levels-said || fail truth-split-two-levels-said "$(cat "$TMP/three.err")"
else
	fail truth-split-two-levels "prune failed: $(head -2 "$TMP/three.err")"
fi
pr three1 all.tsv 1 three --truth-depth 1 && [ "$(tests "$TMP/three1.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] &&
	[ "$(nodes "$TMP/three1.tsv")" = "0:1,2,0:2 1:1,2,0:1 2:2,1,0:2" ] &&
	grep -qx "truth: leaf 0, m > 2.5 (4 inputs): head $A -> $B (regret alone 2.0000 -> 1.4142, k = 1 1.4142 -> 1.0000)" "$TMP/three1.err" &&
	[ "$(said three1)" = " in 1 leaves: 1 split, 1 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-depth-1-one-level || fail truth-depth-1-one-level "$(tests "$TMP/three1.tsv") / $(nodes "$TMP/three1.tsv") $(cat "$TMP/three1.err")"
# a class the leaf does not list does not split it
pr listed d1.tsv 1 listed && notruth "$TMP/listed.tsv" >"$TMP/listed-nt.tsv" && test_cmp truth-split-listed-only "$TMP/plain1.tsv" "$TMP/listed-nt.tsv"
# an inner leaf splits on n; the nodes are renumbered in pre-order
pr inner d1.tsv 1 inner && [ "$(tests "$TMP/inner.tsv")" = "0:m:2.5:1:4 1:n:40:2:3 2:-:-:-1:-1 3:-:-:-1:-1 4:-:-:-1:-1" ] &&
	[ "$(nodes "$TMP/inner.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:0,2,1:0 3:2,0,1:2 4:1,2:1" ] &&
	grep -qx "truth: leaf 1 (4 inputs): split at n <= 40 (2 | 2 inputs): the best class alone 1.4142 -> 1.0000" "$TMP/inner.err" &&
	grep -qx "truth: leaf 1, n > 40 (2 inputs): head $E -> $B (regret alone 2.0000 -> 1.0000, k = 1 2.0000 -> 1.0000)" "$TMP/inner.err" &&
	grep -qx "truth: leaf 1, n > 40 (2 inputs): pick $E -> $B (regret alone 2.0000 -> 1.0000)" "$TMP/inner.err" &&
	[ "$(said inner)" = " in 1 leaves: 1 split, 1 heads, 1 picks, 0 top_k changed" ] &&
	ok truth-split-preorder || fail truth-split-preorder "$(tests "$TMP/inner.tsv") / $(nodes "$TMP/inner.tsv") $(cat "$TMP/inner.err")"

# the split trees are valid: prune re-reads them (tree_read checks pre-order)
# and changes nothing, emit takes them
for s in split three inner; do
	if "$BIN/prune" --ranking 1 -o "$TMP/re-$s.tsv" "$TMP/$s.tsv" 2>"$TMP/re.err"; then
		test_cmp "truth-split-reread-$s" "$TMP/$s.tsv" "$TMP/re-$s.tsv"
	else fail "truth-split-reread-$s" "$(head -2 "$TMP/re.err")"; fi
done
mkdir -p "$TMP/art2" "$TMP/art3"
if "$BIN/emit" --heuristic-name T --out-dir "$TMP/art2" "$TMP/three.tsv" 2>"$TMP/emit.err" &&
	"$BIN/emit" --heuristic-name T --out-dir "$TMP/art3" "$TMP/inner.tsv" 2>>"$TMP/emit.err"; then
	grep -qF "context.get_value('m') <= 2.5:" "$TMP/art2/_T.py" && grep -qF "context.get_value('m') <= 4.5:" "$TMP/art2/_T.py" &&
		grep -qF "context.get_value('m') <= 2.5:" "$TMP/art3/_T.py" && grep -qF "context.get_value('n') <= 40" "$TMP/art3/_T.py" &&
		ok truth-split-emitted || fail truth-split-emitted "$(grep -n 'get_value' "$TMP/art2/_T.py" "$TMP/art3/_T.py" | head -6)"
else
	fail truth-split-emitted "emit failed: $(head -2 "$TMP/emit.err")"
fi

# emit takes the corrected tree; the C twin's pick and head are E
mkdir -p "$TMP/art"
if "$BIN/emit" --heuristic-name T --out-dir "$TMP/art" "$TMP/ext.tsv" 2>"$TMP/emit.err"; then
	sed -n "/def get_pick/,/return/p" "$TMP/art/_T.py" | grep -q "return self.choices\[0\]" && grep -q "return \[(0.500, 0), (0.333, 1), (0.167, 2)\]" "$TMP/art/_T.py" &&
		ok truth-heads-emitted || fail truth-heads-emitted "$(grep -n 'choices\[\|pick=' "$TMP/art/_T.py" "$TMP/art/T.dot" | head -3)"
	# param truth: the class attribute mmrank.inductor reads at k = 1
	grep -qx '    truth = True' "$TMP/art/_T.py" && ok truth-param-emitted || fail truth-param-emitted "$(grep -n truth "$TMP/art/_T.py" | head -3)"
else
	fail truth-heads-emitted "emit failed: $(head -2 "$TMP/emit.err")"
fi
# get_truth: True at the leaf the truth set (right.tsv: m > 2.5), False at
# the other; run against the torch stand-in (check/stub)
mkdir -p "$TMP/artr"
if "$BIN/emit" --heuristic-name T --out-dir "$TMP/artr" "$TMP/right.tsv" 2>"$TMP/emit.err"; then
	cat "$TMP/ext.feat.tsv" >"$TMP/ctx.tsv"; tail -n +3 "$TMP/right.feat.tsv" >>"$TMP/ctx.tsv"
	got=$(stub_python "$ROOT/check/emit/rank_py.py" "$TMP/artr/_T.py" T "$TMP/ctx.tsv" --truth 2>&1 | cut -f2 | tr '\n' ' ')
	[ "$got" = "False False True True " ] && ok truth-mark-emitted-get-truth || fail truth-mark-emitted-get-truth "$got"
else
	fail truth-mark-emitted-get-truth "emit failed: $(head -2 "$TMP/emit.err")"
fi
mkdir -p "$TMP/artp"
if "$BIN/emit" --heuristic-name T --out-dir "$TMP/artp" "$TMP/plain.tsv" 2>"$TMP/emit.err"; then
	! grep -q 'truth' "$TMP/artp/_T.py" && ok truth-param-absent-not-emitted || fail truth-param-absent-not-emitted "$(grep -n truth "$TMP/artp/_T.py" | head -3)"
else
	fail truth-param-absent-not-emitted "emit failed: $(head -2 "$TMP/emit.err")"
fi
# prune keeps the param; tree_read takes 0 or 1 only
"$BIN/prune" --ranking 1 -o "$TMP/re-ext.tsv" "$TMP/ext.tsv" 2>/dev/null && grep -qx "param${TAB}truth${TAB}1" "$TMP/re-ext.tsv" &&
	ok truth-param-kept || fail truth-param-kept "$(grep '^param' "$TMP/re-ext.tsv" | tr '\n' '|')"
# a pruning that collapses a node drops it (the leaves the truth set may be
# gone); with --truth again it comes back
if pr rsplit all.tsv 1 split && "$BIN/prune" --ranking 3 -o "$TMP/rs3.tsv" "$TMP/rsplit.tsv" 2>/dev/null; then
	[ "$(tests "$TMP/rs3.tsv")" = "0:-:-:-1:-1" ] && ! grep -q "^param${TAB}truth" "$TMP/rs3.tsv" &&
		ok truth-param-dropped-on-collapse || fail truth-param-dropped-on-collapse "$(tests "$TMP/rs3.tsv"); $(grep '^param' "$TMP/rs3.tsv" | tr '\n' '|')"
	pr rs3t rsplit.tsv 3 split && grep -qx "param${TAB}truth${TAB}1" "$TMP/rs3t.tsv" &&
		ok truth-param-set-again || fail truth-param-set-again "$(grep '^param' "$TMP/rs3t.tsv" | tr '\n' '|')"
else
	fail truth-param-dropped-on-collapse "prune failed"
fi
sed "s/^param${TAB}truth${TAB}1\$/param${TAB}truth${TAB}2/" "$TMP/ext.tsv" >"$TMP/t2.tsv"
expect_error truth-param-bad-refused "t2.tsv:[0-9]+: .*truth" "$TMP/o.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/o.tsv" "$TMP/t2.tsv"
# a collapse elsewhere keeps the marked leaves and the param: three.tsv's
# node 3 given n_labels 1, so --ranking 2 collapses node 2 (an unmarked leaf)
# and keeps leaf 1
if [ "$(marks "$TMP/three.tsv")" = "0 1 0 1 1" ]; then
	awk -F'\t' -v OFS='\t' '$1 == "node" && $2 == 3 { $9 = 1 } { print }' "$TMP/three.tsv" >"$TMP/c3.tsv"
	"$BIN/prune" --ranking 2 -o "$TMP/c3p.tsv" "$TMP/c3.tsv" 2>/dev/null &&
		[ "$(tests "$TMP/c3p.tsv")" = "0:m:2.5:1:2 1:-:-:-1:-1 2:-:-:-1:-1" ] && [ "$(marks "$TMP/c3p.tsv")" = "0 1 0" ] &&
		ok truth-mark-kept-on-other-collapse || fail truth-mark-kept-on-other-collapse "$(tests "$TMP/c3p.tsv"); $(marks "$TMP/c3p.tsv")"
else
	fail truth-mark-kept-on-other-collapse "fixture: three.tsv marks $(marks "$TMP/three.tsv")"
fi
# the marks as read: 0 or 1, on leaves only, at least one with param truth,
# the field present
bad_marks() { # NAME AWK-ACTION-ON-NODES PATTERN: split.tsv so edited is refused
	awk -F'\t' -v OFS='\t' "\$1 == \"node\" $2 { print }" "$TMP/split.tsv" >"$TMP/$1.tsv"
	expect_error "$1" "$1.tsv:[0-9]+: $3" "$TMP/o.tsv" "$BIN/prune" --ranking 1 -o "$TMP/o.tsv" "$TMP/$1.tsv"
}
bad_marks truth-mark-bad-refused '&& $2 == 1 { $NF = 2 }' "field 'truth'"
bad_marks truth-mark-internal-refused '&& $2 == 0 { $NF = 1 }' "field 'truth': 1 on internal node 0"
bad_marks truth-mark-none-refused '{ $NF = 0 }' "param truth 1, but no node has the truth mark"
bad_marks truth-mark-empty-leaf-refused '&& $2 == 1 { $10 = ""; $(NF - 1) = -1 }' "field 'truth': 1, but the node has no classes"
bad_marks truth-mark-missing-refused '{ NF-- }' "'node' record needs .*param truth: the last is the truth mark"

# refused, nothing written: another device's truth, a missing file,
# --truth-depth without --truth or out of range
rm -f "$TMP/o.tsv"
if ! "$BIN/prune" --ranking 1 --truth "$TMP/h100.feat.tsv" -o "$TMP/o.tsv" "$TMP/all.tsv" 2>"$TMP/err" &&
	[ ! -e "$TMP/o.tsv" ] && grep -q "h100.feat.tsv" "$TMP/err" && grep -qi "device\|shared" "$TMP/err"; then
	ok truth-heads-other-device-refused; else fail truth-heads-other-device-refused "$(cat "$TMP/err")"; fi
if ! "$BIN/prune" --ranking 1 --truth "$TMP/none.feat.tsv" -o "$TMP/o.tsv" "$TMP/all.tsv" 2>"$TMP/err" &&
	[ ! -e "$TMP/o.tsv" ] && grep -q "none.feat.tsv" "$TMP/err"; then
	ok truth-heads-missing-refused; else fail truth-heads-missing-refused "$(cat "$TMP/err")"; fi
# a leaf the truth reaches asks for k = 1 (top_k; e's k = "auto" then
# autotunes only the head beside extern_mm): all.tsv given param topk_eps and
# top_k 3 (the field before the pick); the split truth leaves both children
# at 1, and a tree without the truth keeps 3
awk -F'\t' -v OFS='\t' '$1 == "param" && $2 == "leaf_pick" { print "param", "topk_eps", "0.005" }
	$1 == "node" { $NF = 3 OFS $NF } { print }' "$TMP/all.tsv" >"$TMP/k3.tsv"
topk() { awk -F'\t' '$1 == "param" && $2 == "truth" { tr = 1 }
	$1 == "node" && $3 == -1 { printf "%s%s", s, $(NF - 1 - tr); s = " " }' "$1"; }
"$BIN/prune" --ranking 1 -o "$TMP/k3p.tsv" "$TMP/k3.tsv" 2>/dev/null && [ "$(topk "$TMP/k3p.tsv")" = "3" ] &&
	ok truth-topk-fixture || fail truth-topk-fixture "$(topk "$TMP/k3p.tsv")"
if pr k3s k3.tsv 1 split; then
	[ "$(topk "$TMP/k3s.tsv")" = "1 1" ] && [ "$(said k3s)" = " in 1 leaves: 1 split, 1 heads, 1 picks, 2 top_k changed" ] &&
		grep -q "^truth: leaf 0, m <= 2.5 (2 inputs): top_k 3 -> 1$" "$TMP/k3s.err" &&
		ok truth-topk-one || fail truth-topk-one "$(topk "$TMP/k3s.tsv"); $(cat "$TMP/k3s.err")"
else
	fail truth-topk-one "prune failed: $(head -2 "$TMP/k3s.err")"
fi
# an undone split keeps what both sides changed, counted once (noop: top_k)
pr k3n k3.tsv 1 noop && [ "$(topk "$TMP/k3n.tsv")" = "1" ] &&
	[ "$(said k3n)" = " in 1 leaves: 0 split, 0 heads, 0 picks, 1 top_k changed" ] &&
	ok truth-split-undone-keeps-topk || fail truth-split-undone-keeps-topk "$(topk "$TMP/k3n.tsv"); $(cat "$TMP/k3n.err")"

expect_error truth-depth-needs-truth '--truth-depth needs --truth' "$TMP/o.tsv" \
	"$BIN/prune" --ranking 1 --truth-depth 1 -o "$TMP/o.tsv" "$TMP/all.tsv"
expect_error truth-depth-negative-refused '^prune: --truth-depth: .*-1' "$TMP/o.tsv" \
	"$BIN/prune" --ranking 1 --truth "$TMP/split.feat.tsv" --truth-depth -1 -o "$TMP/o.tsv" "$TMP/all.tsv"
finish
