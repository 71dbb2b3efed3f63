#!/bin/bash
# t2130-leaffill.sh — fit --leaf-fill all (stages/learn/rerank.h fill order,
# stages/learn/training.h classes): a hand-worked depth-1 tree whose leaves
# list, after their own classes, every other measured class by its regret
# conditional on availability; through tree_read, prune and emit.
#
# check/fixtures/rerank/fill.txt: t2140-rerank.sh's leaf.txt (inputs I1..I5,
# m = 1..5; classes E = extern_mm, A = BLOCK-M=16, B = 32, C = 48, D = 64)
# plus choices that are never near-best (best / t < 0.98) and measured on
# some inputs only (- = not measured, x = inf, failed):
#        E     A     B     C     D      F    G     H    J    K    winner
#   I1  1.0   1.01  3.0   3.0   3.0    2.0   -     -    -    x     E
#   I2  1.0   1.01  3.0   3.0   3.0     -    -     x   2.0   -     E
#   I3  3.0   1.0   1.5   3.0   1.2    1.5   -     -    -    -     A
#   I4  3.0   1.01  1.0   3.0   3.0     -    -    1.2  1.5   -     B
#   I5  3.0   3.0   3.0   1.0   1.01    -   1.05   -    -    -     C
# F = BLOCK-M=80, G = 96, H = 96 BLOCK-N=32, J = 96 BLOCK-N=64, K = 96
# BLOCK-K=32.  Classes with --leaf-fill all: E A B C D F G H J (0..8,
# strcmp order); K has no finite time, so it is no class (none: E..D only).
# Fill order, mean ln regret over the inputs that measured the class
# (weights 1, regret capped at 4, inf = the cap; E = extern_mm is excluded):
#   G  ln 1.05                                         = 0.048790
#   A  (3 ln 1.01 + 0 + ln 3) / 5                      = 0.225693
#   F  (ln 2 + ln 1.5) / 2                             = 0.549306
#   J  (ln 2 + ln 1.5) / 2  (ties F: lower index F first) = 0.549306
#   D  (3 ln 3 + ln 1.2 + ln 1.01) / 5                 = 0.697622
#   B  (3 ln 3 + ln 1.5 + 0) / 5                       = 0.740260
#   H  (ln 4 + ln 1.2) / 2                             = 0.784327
#   C  (4 ln 3 + 0) / 5                                = 0.878890
# (Unconditional, with a missing time as the cap, G would be last.)
# grid_depth1.tsv: the root splits at m <= 4.5 (the extra classes have no
# training row, so the tree is --leaf-fill none's): leaf 1 = I1..I4, own
# greedy list A B E; leaf 2 = I5, own list C D.  Filled:
#   leaf 1: A B | G F J D H C | E   -> rank weights 9/45 .. 1/45
#   leaf 2: C D | G A F J B H       -> 8/36 .. 1/36 (E is no label there)
# With --leaf-pad 2 the root's frequency order (A B C D) pads first:
#   leaf 1: A B | C D | G F J H | E;  leaf 2: C D | A B | G F J H.
. "$(dirname "$0")/lib.sh"
D=$FIX/rerank
[ -x "$BIN/fit" ] || { fail leaffill "no $BIN/fit"; finish; }
"$BIN/featurize" -o "$TMP/fill.feat.tsv" "$D/fill.txt" 2>/dev/null ||
	{ fail leaffill-featurize "featurize failed"; finish; }

# fill_tree OUT FIT-ARGS...: the depth-1 tree (k = 2: prune keeps both leaves)
fill_tree() {
	local out=$1; shift
	"$BIN/fit" "$TMP/fill.feat.tsv" --split none --grid "$D/grid_depth1.tsv" --leaf-rank greedy \
		--ranking 2 "$@" -o "$out" --metrics "$TMP/m.tsv" >/dev/null 2>"$TMP/fit.err"
}
# names OUT TREE: per node, its classes by rank weight (descending), by name
names() {
	awk -F'\t' '$1 == "class" { c[$2] = $3 } $1 == "node" {
		n = split($10, e, ","); s = ""
		for (i = 1; i <= n; i++) { split(e[i], kv, ":"); p[i] = kv[2]; q[i] = kv[1] }
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (p[j] > p[i]) { t = p[i]; p[i] = p[j]; p[j] = t; t = q[i]; q[i] = q[j]; q[j] = t }
		for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") c[q[i]]
		print $2 "\t" s }' "$1" |
		sed 's/type=triton_BLOCK-M=\([0-9]*\)_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4/M\1/g;
		     s/type=triton_BLOCK-M=96_BLOCK-K=16_BLOCK-N=32_numstages=2_numwarps=4/H/g;
		     s/type=triton_BLOCK-M=96_BLOCK-K=16_BLOCK-N=64_numstages=2_numwarps=4/J/g;
		     s/M16/A/g; s/M32/B/g; s/M48/C/g; s/M64/D/g; s/M80/F/g; s/M96/G/g; s/extern_mm/E/g'
}

if ! fill_tree "$TMP/none.tsv" || ! fill_tree "$TMP/all.tsv" --leaf-fill all; then
	fail leaffill-fit "fit failed: $(grep -v warning "$TMP/fit.err" | head -1)"; finish; fi

# the classes: every choice with a finite time (K only failed: no class)
got=$(awk -F'\t' '$1 == "class"' "$TMP/all.tsv" | wc -l)/$(awk -F'\t' '$1 == "class"' "$TMP/none.tsv" | wc -l)
if [ "$got" = 9/5 ] && ! grep -q 'BLOCK-K=32' "$TMP/all.tsv"; then ok leaffill-classes
else fail leaffill-classes "classes filled/none: $got, expected 9/5 without K"; fi

# the filled order of both leaves, exact (the root, node 0, is filled too)
printf '%s\n' '1	A B G F J D H C E' '2	C D G A F J B H' >"$TMP/want.order"
names "$TMP/all.tsv" | sed 1d >"$TMP/got.order"
test_cmp leaffill-order "$TMP/want.order" "$TMP/got.order"
# the exact rank weights of leaf 1 (9 entries: (9 - j) / 45) and leaf 2
printf '%s\n' \
	'1	-1	-2	-1	-1	7	6.9702970297029703	3	0:0.022222222222222223,1:0.20000000000000001,2:0.17777777777777778,3:0.044444444444444446,4:0.088888888888888892,5:0.13333333333333333,6:0.15555555555555556,7:0.066666666666666666,8:0.1111111111111111' \
	'2	-1	-2	-1	-1	2	1.9900990099009901	2	1:0.1388888888888889,2:0.055555555555555552,3:0.22222222222222221,4:0.19444444444444445,5:0.1111111111111111,6:0.16666666666666666,7:0.027777777777777776,8:0.083333333333333329' \
	>"$TMP/want.node"
grep '^node	[12]	' "$TMP/all.tsv" | cut -f2- >"$TMP/got.node"
test_cmp leaffill-weights "$TMP/want.node" "$TMP/got.node"

# the first entries are --leaf-fill none's, in order; E stays last in leaf 1
# (and absent from leaf 2, where it is no label); the tree and n_labels are
# the same (3, 2), and so are the metrics (models scored unfilled)
names "$TMP/none.tsv" >"$TMP/none.order"
names "$TMP/all.tsv" >"$TMP/all.order"
if awk -F'\t' 'NR == FNR { own[$1] = $2; sub(/ E$/, "", own[$1]); next }
	index($2, own[$1]) != 1 { bad = 1 } END { exit bad }' "$TMP/none.order" "$TMP/all.order" &&
	[ "$(sed -n 2p "$TMP/none.order")" = '1	A B E' ] && [ "$(sed -n 3p "$TMP/none.order")" = '2	C D' ]; then
	ok leaffill-prefix; else fail leaffill-prefix "none: $(tr '\n' '|' <"$TMP/none.order") filled: $(tr '\n' '|' <"$TMP/all.order")"; fi
if [ "$(sed -n 2p "$TMP/all.order" | awk '{ print $NF }')" = E ] &&
	! sed -n 3p "$TMP/all.order" | grep -qw E; then ok leaffill-def-last
else fail leaffill-def-last "$(tr '\n' '|' <"$TMP/all.order")"; fi
if cmp -s <(grep '^node' "$TMP/none.tsv" | cut -f1-9) <(grep '^node' "$TMP/all.tsv" | cut -f1-9); then
	ok leaffill-same-tree; else fail leaffill-same-tree "$(diff <(grep '^node' "$TMP/none.tsv" | cut -f1-9) <(grep '^node' "$TMP/all.tsv" | cut -f1-9) | head -3 | tr '\n' '|')"; fi
fill_tree "$TMP/none2.tsv" && cp "$TMP/m.tsv" "$TMP/m.none.tsv" &&
	fill_tree "$TMP/all2.tsv" --leaf-fill all && cp "$TMP/m.tsv" "$TMP/m.all.tsv"
test_cmp leaffill-same-metrics "$TMP/m.none.tsv" "$TMP/m.all.tsv"

# with --leaf-pad 2: the ancestors' classes first, then the fill
fill_tree "$TMP/pad.tsv" --leaf-fill all --leaf-pad 2 ||
	fail leaffill-pad "fit failed: $(head -1 "$TMP/fit.err")"
printf '%s\n' '1	A B C D G F J H E' '2	C D A B G F J H' >"$TMP/want.order"
names "$TMP/pad.tsv" | sed 1d >"$TMP/got.order"
test_cmp leaffill-pad "$TMP/want.order" "$TMP/got.order"

# the tree says so (param leaf_fill 1; none: no such param); tree_read
# round-trips it (prune with k = 2 keeps every node: the same bytes)
grep -qx 'param	leaf_fill	1' "$TMP/all.tsv" && ! grep -q leaf_fill "$TMP/none.tsv" &&
	ok leaffill-param || fail leaffill-param "$(grep -H leaf_fill "$TMP/all.tsv" "$TMP/none.tsv" | tr '\n' ' ')"
if "$BIN/prune" --ranking 2 -o "$TMP/p.tsv" "$TMP/all.tsv" 2>/dev/null; then
	test_cmp leaffill-roundtrip "$TMP/all.tsv" "$TMP/p.tsv"
else fail leaffill-roundtrip "prune refused the filled tree"; fi
# without the param the longer lists are refused (the root's first: 5
# labels, 9 listed); the param is 0 or 1
grep -v leaf_fill "$TMP/all.tsv" >"$TMP/nofill.tsv"
expect_error leaffill-param-needed "field 'n_labels': 5, but the node lists 9 classes with p > 0 \\(at most n_labels \\+ param leaf_pad 0 without param leaf_fill 1\\)" \
	"$TMP/x.tsv" "$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/nofill.tsv"
sed 's/^param	leaf_fill	1$/param	leaf_fill	2/' "$TMP/all.tsv" >"$TMP/fill2.tsv"
expect_error leaffill-param-range "field 'leaf_fill': 2 out of range \\[0, 1\\]" "$TMP/x.tsv" \
	"$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/fill2.tsv"
# fewer classes than n_labels stays an error with the param
sed 's/^\(node	2	-1	-2	-1	-1	2	1.9900990099009901	\)2	/\19	/' "$TMP/all.tsv" >"$TMP/bad.tsv"
expect_error leaffill-n-labels-over "field 'n_labels': 9, but the node lists 8 classes" "$TMP/x.tsv" \
	"$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/bad.tsv"

# emit: the Python artifact lists the 9 choices and leaf 2's 8 entries
if "$BIN/emit" --heuristic-name T --format py -o "$TMP/t.py" "$TMP/p.tsv"; then
	[ "$(grep -c 'choices.append' "$TMP/t.py")" = 9 ] &&
	grep -q 'return \[(0.222, 3), (0.194, 4), (0.167, 6), (0.139, 1), (0.111, 5), (0.083, 8), (0.056, 2), (0.028, 7)\]' "$TMP/t.py" &&
		ok leaffill-emit || fail leaffill-emit "$(grep -o 'return \[.*\]' "$TMP/t.py" | tr '\n' ' ')"
else fail leaffill-emit "emit refused the filled tree"; fi

# options: the reference's lists are not filled; none|all only
expect_error leaffill-needs-greedy "--leaf-fill all needs a --leaf-rank other than freq" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/fill.feat.tsv" --split none --leaf-fill all -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"
expect_error leaffill-bad "--leaf-fill: expected none or all, got 'some'" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/fill.feat.tsv" --split none --leaf-rank greedy --leaf-fill some -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"
"$BIN/fit" --help | grep -q -- '--leaf-fill MODE' && "$BIN/fit" --help | grep -q 'departs from' &&
	ok leaffill-help || fail leaffill-help "fit --help does not state --leaf-fill"
finish
