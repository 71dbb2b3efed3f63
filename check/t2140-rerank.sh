#!/bin/bash
# t2140-rerank.sh — fit --leaf-rank greedy and --leaf-pad (stages/learn/rerank.h),
# --leaf-rank prefix and joint, --select-rank (leaforder.h): hand-worked
# leaves and their ranked lists, end to end through prune and emit; a hand-worked
# depth-1 tree and its padded leaves.
#
# check/fixtures/rerank/leaf.txt: 5 inputs m = 1..5 (nothing else varies),
# classes (strcmp order) 0 E = extern_mm, 1 A = BLOCK-M=16, 2 B = 32,
# 3 C = 48, 4 D = 64; median ms:
#        E     A     B     C     D     winner  near-best rows (w = best/t)
#   I1  1.0   1.01  3.0   3.0   3.0    E       E 1, A 1/1.01
#   I2  1.0   1.01  3.0   3.0   3.0    E       E 1, A 1/1.01
#   I3  3.0   1.0   1.5   3.0   1.2    A       A 1
#   I4  3.0   1.01  1.0   3.0   3.0    B       B 1, A 1/1.01
#   I5  3.0   3.0   3.0   1.0   1.01   C       C 1, D 1/1.01
# grid_root.tsv: max_depth 0, so the root is the only leaf (all 5 inputs).
#
# freq (reference): weights E 2, A 3/1.01 + 1 = 3.970297, B 1, C 1,
#   D 0.990099, W = 8.960396: A .443, E .223, B .112, C .112 (tie: lower
#   class first), D .110 -> [(0.443, 1), (0.223, 0), (0.112, 2), (0.112, 3),
#   (0.110, 4)].
# greedy: E is always appended, so it goes last; wins A 1, B 1, C 1, D 0.
#   A, B, C tie on wins -> regret decrease, log regret capped at log 4, the
#   list holding E alone at first: I3, I4, I5 have regret 3 (E 3.0 ms),
#   I1, I2 regret 1.
#     A: I3 log 3 + I4 log(3/1.01)            = 2.1873  <- first
#     B: I4 log 3 + I3 log(3/1.5)             = 1.7918
#     C: I5 log 3                             = 1.0986
#   then I3 = 1, I4 = 1.01: B: I4 log 1.01 = 0.00995; C: I5 log 3 <- C
#   then B, then D (0 wins), then E.  Rank weights (5-j)/15:
#   -> [(0.333, 1), (0.267, 3), (0.200, 2), (0.133, 4), (0.067, 0)]
#   (C before B only through the regret tie-break: their frequencies tie and
#   B has the lower index.)
# with --data train_timm timm.txt (one input m = 9: D 1.0, E 1.05, the
# others 3.0; an extra set counts 3 times, spec §5.3 step 4): D wins 3 ->
#   first; then I3 = 1.2 (D), I5 = 1.01 (D): A: I3 log 1.2 + I4 log(3/1.01)
#   = 1.2710 beats B: I4 log 3 = 1.0986 (C: I5 log 1.01) -> A; then B and C
#   both gain log 1.01 exactly, and tie on p (1 each) -> lower index B.
#   -> D .333, A .267, B .200, C .133, E .067.  (Weighted 1, D would tie A,
#   B, C on wins and lose to A on regret: D log 1.05 + I3 log(3/1.2) + I5
#   log(3/1.01) = 2.0537 < A 2.1873: A D B C E.)
. "$(dirname "$0")/lib.sh"
D=$FIX/rerank
[ -x "$BIN/fit" ] || { fail rerank "no $BIN/fit"; finish; }
"$BIN/featurize" -o "$TMP/leaf.feat.tsv" "$D/leaf.txt" 2>/dev/null &&
"$BIN/featurize" --categories "$TMP/leaf.feat.tsv" -o "$TMP/timm.feat.tsv" \
	"$D/timm.txt" 2>/dev/null || { fail rerank-featurize "featurize failed"; finish; }

# leaf_list NAME EXPECTED FIT-ARGS...: fit (root only), prune k=3, emit py;
# the leaf's return line must be EXPECTED.
leaf_list() {
	local name=$1 want=$2; shift 2
	rm -f "$TMP/t.tsv" "$TMP/p.tsv" "$TMP/h.py"
	if ! "$BIN/fit" "$TMP/leaf.feat.tsv" --split none --grid "$D/grid_root.tsv" \
		"$@" -o "$TMP/t.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>"$TMP/err"; then
		fail "$name" "fit failed: $(grep -v warning "$TMP/err" | head -1)"; return; fi
	"$BIN/prune" --ranking 3 -o "$TMP/p.tsv" "$TMP/t.tsv" 2>/dev/null &&
	"$BIN/emit" --heuristic-name T --format py -o "$TMP/h.py" "$TMP/p.tsv" ||
		{ fail "$name" "prune/emit failed"; return; }
	local got
	got=$(grep -o 'return \[.*\]' "$TMP/h.py")
	if [ "$got" = "return $want" ]; then ok "$name"; else
		fail "$name" "leaf list '$got', expected 'return $want'"; fi
}
leaf_list rerank-freq '[(0.443, 1), (0.223, 0), (0.112, 2), (0.112, 3), (0.110, 4)]' \
	--leaf-rank freq
leaf_list rerank-default-is-freq '[(0.443, 1), (0.223, 0), (0.112, 2), (0.112, 3), (0.110, 4)]'
leaf_list rerank-greedy '[(0.333, 1), (0.267, 3), (0.200, 2), (0.133, 4), (0.067, 0)]' \
	--leaf-rank greedy
leaf_list rerank-greedy-extra-weight3 '[(0.333, 4), (0.267, 1), (0.200, 2), (0.133, 3), (0.067, 0)]' \
	--leaf-rank greedy --select regret --data train_timm "$TMP/timm.feat.tsv"

# the written tree: same classes (n_labels 5), exact rank weights
"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --grid "$D/grid_root.tsv" --leaf-rank greedy \
	-o "$TMP/t.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1
printf 'node\t0\t-1\t-2\t-1\t-1\t9\t8.9603960396039604\t5\t%s\n' \
	'0:0.066666666666666666,1:0.33333333333333331,2:0.20000000000000001,3:0.26666666666666666,4:0.13333333333333333' \
	>"$TMP/want.node"
grep '^node' "$TMP/t.tsv" >"$TMP/got.node"
test_cmp rerank-tree-node "$TMP/want.node" "$TMP/got.node"

# --leaf-pad (ours): grid_depth1.tsv (max_depth 1) splits the root at
# m <= 4.5: leaf 1 = I1..I4 (labels E A B, n_labels 3), leaf 2 = I5 (C D,
# n_labels 2).  The root's original (frequency) order without E: A B C D.
#   leaf 1, greedy: A (wins I3, and I4's regret), B; pad 2 -> + C D; E last:
#     A B C D E -> 5/15 4/15 3/15 2/15 1/15
#   leaf 2: C (wins I5), D (E is no label there, so it is not listed);
#     pad 2 -> + A B: C D A B -> 4/10 3/10 2/10 1/10
#   pad 1: leaf 1 A B C E (4/10 ..), leaf 2 C D A (3/6 2/6 1/6)
# n_labels stays 3 and 2 (pruning, §5.6, counts the node's own labels).
pad_nodes() {
	"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --grid "$D/grid_depth1.tsv" --leaf-rank greedy \
		--leaf-pad "$1" -o "$TMP/pad.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 &&
	grep '^node	[12]	' "$TMP/pad.tsv" | cut -f8-
}
printf '%s\n' "6.9702970297029703	3	0:0.066666666666666666,1:0.33333333333333331,2:0.26666666666666666,3:0.20000000000000001,4:0.13333333333333333" \
	"1.9900990099009901	2	1:0.20000000000000001,2:0.10000000000000001,3:0.40000000000000002,4:0.29999999999999999" >"$TMP/want.pad"
pad_nodes 2 >"$TMP/got.pad"
test_cmp rerank-leaf-pad-2 "$TMP/want.pad" "$TMP/got.pad"
printf '%s\n' "6.9702970297029703	3	0:0.10000000000000001,1:0.40000000000000002,2:0.29999999999999999,3:0.20000000000000001" \
	"1.9900990099009901	2	1:0.16666666666666666,3:0.5,4:0.33333333333333331" >"$TMP/want.pad"
pad_nodes 1 >"$TMP/got.pad"
test_cmp rerank-leaf-pad-1 "$TMP/want.pad" "$TMP/got.pad"
# pad 0: the node's own classes only (leaf 2 lists C D)
pad_nodes 0 | cut -f3 | sed -n 2p | grep -qx '3:0.66666666666666663,4:0.33333333333333331' &&
	ok rerank-leaf-pad-0 || fail rerank-leaf-pad-0 "leaf 2: $(pad_nodes 0 | sed -n 2p)"
# through prune (k = 2 keeps both leaves) and emit: leaf 2's padded list
pad_nodes 2 >/dev/null
if "$BIN/prune" --ranking 2 -o "$TMP/padp.tsv" "$TMP/pad.tsv" 2>/dev/null &&
	"$BIN/emit" --heuristic-name T --format py -o "$TMP/pad.py" "$TMP/padp.tsv"; then
	grep -q 'return \[(0.400, 3), (0.300, 4), (0.200, 1), (0.100, 2)\]' "$TMP/pad.py" &&
		ok rerank-leaf-pad-emit || fail rerank-leaf-pad-emit "$(grep -o 'return \[.*\]' "$TMP/pad.py" | tr '\n' ' ')"
else fail rerank-leaf-pad-emit "prune/emit refused the padded tree"; fi
# the tree reader: a node may list more classes than n_labels, never fewer
sed 's/^\(node	2	-1	-2	-1	-1	2	1.9900990099009901	\)2	/\15	/' "$TMP/pad.tsv" >"$TMP/bad.tsv"
expect_error rerank-leaf-pad-n-labels-over "field 'n_labels': 5, but the node lists 4 classes" "$TMP/x.tsv" \
	"$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/bad.tsv"
# the padded tree says so (param leaf_pad 2, kept by prune); without the
# param a node must list exactly its n_labels classes, with it at most
# n_labels + 2
grep -qx 'param	leaf_pad	2' "$TMP/pad.tsv" && grep -qx 'param	leaf_pad	2' "$TMP/padp.tsv" &&
	! grep -q leaf_pad "$TMP/t.tsv" && ok rerank-leaf-pad-param ||
	fail rerank-leaf-pad-param "$(grep -H leaf_pad "$TMP/pad.tsv" "$TMP/padp.tsv" "$TMP/t.tsv" | tr '\n' ' ')"
grep -v leaf_pad "$TMP/pad.tsv" >"$TMP/nopad.tsv"
expect_error rerank-leaf-pad-param-needed "field 'n_labels': 3, but the node lists 5 classes with p > 0 \\(at most n_labels \\+ param leaf_pad 0 without param leaf_fill 1\\)" \
	"$TMP/x.tsv" "$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/nopad.tsv"
sed 's/^param	leaf_pad	2$/param	leaf_pad	1/' "$TMP/pad.tsv" >"$TMP/pad1.tsv"
expect_error rerank-leaf-pad-bound "field 'n_labels': 3, but the node lists 5 classes with p > 0 \\(at most n_labels \\+ param leaf_pad 1 without param leaf_fill 1\\)" \
	"$TMP/x.tsv" "$BIN/prune" --ranking 2 -o "$TMP/x.tsv" "$TMP/pad1.tsv"
expect_error rerank-leaf-pad-needs-greedy "--leaf-pad needs a --leaf-rank other than freq" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --leaf-pad 2 -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"
expect_error rerank-leaf-pad-bad "--leaf-pad" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --leaf-rank greedy --leaf-pad -1 -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"

# --leaf-rank prefix (stages/learn/leaforder.h): the first entry
# by its regret alone, extern_mm competing, a margin of 0.05 mean ln regret
# per input against extern_mm; then greedy's rule; extern_mm first or last.
# prefix.txt: 5 inputs m = 1..5, classes 0 E = extern_mm, 1 A = BLOCK-M=16,
# 2 B = BLOCK-M=32; median ms (I5 was not offered A: no row):
#        E     A     B     winner   near-best labels
#   I1  1.0   1.02  3.0     E       E, A (1/1.02 = .9804)
#   I2  1.0   1.02  3.0     E       E, A
#   I3  1.05  1.0   1.5     A       A
#   I4  1.1   3.0   1.0     B       B
#   I5  2.0    -    1.0     B       B
# Entry 0, each class against E alone (ln regret, times relative to the
# best): E: 0.  A, over the inputs it was measured for (I5 skipped, as
# Inductor skips a choice it does not offer): I1, I2 -ln 1.02, I3 +ln 1.05,
# I4 ln 1.1 - ln 3, less 4 x 0.05: -1.1941.  B: -2 ln 3 + (ln 1.05 -
# ln 1.5) + ln 1.1 + ln 2 - 5 x 0.05 = -2.0154.  So E first (the greedy
# order puts it last: B A E); then by wins: B (I4, I5), A (I3) -> E B A:
# rank weights 3/6 2/6 1/6.
"$BIN/featurize" -o "$TMP/leaf.feat.tsv" "$D/prefix.txt" 2>/dev/null || fail rerank-prefix-featurize "featurize failed"
leaf_list rerank-prefix '[(0.500, 0), (0.333, 2), (0.167, 1)]' --leaf-rank prefix
leaf_list rerank-prefix-greedy '[(0.500, 2), (0.333, 1), (0.167, 0)]' --leaf-rank greedy
# margin.txt: A beats E alone in-sample by little:
#        E     A     B     winner   near-best labels
#   J1  1.0   1.01  3.0     E       E, A (1/1.01)
#   J2  1.04  1.0   3.0     A       A
#   J3  1.04  1.0   3.0     A       A
#   J4  3.0   3.0   1.0     B       B
# A against E: -ln 1.01 + 2 ln 1.04 + 0 = +0.0685 > 0, but prefix needs
# 4 x 0.05 = 0.2 more: E first, then A (wins J2, J3), B: E A B.
"$BIN/featurize" -o "$TMP/leaf.feat.tsv" "$D/margin.txt" 2>/dev/null || fail rerank-margin-featurize "featurize failed"
leaf_list rerank-prefix-margin '[(0.500, 0), (0.333, 1), (0.167, 2)]' --leaf-rank prefix
# ... and the C artifact of the extern_mm-first list: pick() is extern_mm
"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --grid "$D/grid_root.tsv" --leaf-rank prefix \
	-o "$TMP/t.tsv" --metrics "$TMP/m.tsv" >/dev/null 2>&1 &&
	"$BIN/prune" --ranking 3 -o "$TMP/p.tsv" "$TMP/t.tsv" 2>/dev/null &&
	"$BIN/emit" --heuristic-name T --format c -o "$TMP/_T.c" "$TMP/p.tsv" &&
	"$BIN/emit" --heuristic-name T --format h -o "$TMP/_T.h" "$TMP/p.tsv" &&
	printf '#include "_T.h"\n#include <stdio.h>\nint main(void) { ah_mm_context c = {1, 16, 16, 16, 1, 16, 1,\n AH_MM_DTYPE_FLOAT16, AH_MM_DTYPE_FLOAT16, 1, 1, 0};\n printf("%%s\\n", T_choices[T_pick(&c)]); return 0; }\n' >"$TMP/pick.c" &&
	${CC:-cc} -std=c99 -I"$TMP" "$TMP/pick.c" "$TMP/_T.c" -o "$TMP/pick" 2>"$TMP/cc.err" &&
	[ "$("$TMP/pick")" = extern_mm ] && ok rerank-prefix-pick || fail rerank-prefix-pick "$(head -2 "$TMP/cc.err")"

# --leaf-rank joint (the default for a GPU without a profile row;
# leaforder.h `exact`): the
# coverage order (wins, ties by runner-up wins, then regret drop), then the
# class whose list has the smallest first-entry regret, each input's first
# entry computed on that list, moved to the front.
# runnerup.txt: classes 0 E, 1 A, 2 B, 3 C (BLOCK-M=48):
#        E     A     B      C      winner  runner-up (fastest but E)
#   R1  1.0   3.0   1.005  1.01     E       B
#   R2  1.0   3.0   1.005  1.01     E       B
#   R3  1.0   3.0   1.3    1.01     E       C
#   R4  3.0   1.0   3.0    3.0      A       A
# Wins A 1, B 0, C 0.  greedy: A, then B and C gain nothing (every input's
# winner is listed) and tie on wins: the larger p, C (3/1.01 = 2.970 near-
# best weight) before B (2/1.005 = 1.990): A C B E; prefix: E first (A
# alone costs 3 ln 3 - ln 3 + 0.2 more than E), then greedy's: E A C B.
# joint's coverage: A, then B (2 runner-up wins) before C (1): A B C;
# entry 0: E costs ln 3 = 1.0986 (R4), A 3 ln 3 + 0.2, B 2 ln 1.005 +
# ln 1.3 + ln 3 + 0.2 = 1.5710, C 3 ln 1.01 + ln 3 + 0.2 = 1.3285: E A B C.
"$BIN/featurize" -o "$TMP/leaf.feat.tsv" "$D/runnerup.txt" 2>/dev/null || fail rerank-runnerup-featurize "featurize failed"
leaf_list rerank-joint-runnerup '[(0.400, 0), (0.300, 1), (0.200, 2), (0.100, 3)]' --leaf-rank joint
leaf_list rerank-joint-runnerup-prefix '[(0.400, 0), (0.300, 1), (0.200, 3), (0.100, 2)]' --leaf-rank prefix
leaf_list rerank-joint-runnerup-greedy '[(0.400, 1), (0.300, 3), (0.200, 2), (0.100, 0)]' --leaf-rank greedy
# exact.txt (A was not offered for X2, X3: no row):
#        E     A     B     winner
#   X1  1.05  1.0   3.0     A
#   X2  2.0    -    1.0     B
#   X3  2.0    -    1.0     B
#   X4  1.0   1.01  3.0     E
# Coverage: B (wins X2, X3), A (X1): B A, E last.  joint, entry 0: E costs
# ln 1.05 + 2 ln 2 = 1.4351; A heads A B E, so X2, X3 get B (0): ln 1.01
# + 2 x 0.05 = 0.1100; B: 2 ln 3 + 0.2 = 2.3972 -> A B E.  prefix lets E
# stand in for the inputs A was not offered for: A's gain over E is ln 1.05
# - ln 1.01 - 2 x 0.05 = -0.0611 < 0 (B's: ln 1.05 - ln 3 + 2 ln 2 - ln 3
# - 0.2 = -0.9621), so E first, then B, A: E B A.
"$BIN/featurize" -o "$TMP/leaf.feat.tsv" "$D/exact.txt" 2>/dev/null || fail rerank-exact-featurize "featurize failed"
leaf_list rerank-joint-exact '[(0.500, 1), (0.333, 2), (0.167, 0)]' --leaf-rank joint
leaf_list rerank-joint-exact-prefix '[(0.500, 0), (0.333, 2), (0.167, 1)]' --leaf-rank prefix
# --select-rank: the models are scored with its lists, the written tree is
# ordered by --leaf-rank (same tree, so the same list as above)
leaf_list rerank-select-rank '[(0.500, 1), (0.333, 2), (0.167, 0)]' --leaf-rank joint --select-rank greedy
expect_error rerank-select-rank-freq "--select-rank freq with --leaf-rank joint: freq goes only with freq" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --leaf-rank joint --select-rank freq -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"

expect_error rerank-bad-mode "--leaf-rank: expected freq, greedy, prefix, .*got 'best'" "$TMP/x.tsv" \
	"$BIN/fit" "$TMP/leaf.feat.tsv" --split none --leaf-rank best -o "$TMP/x.tsv" --metrics "$TMP/xm.tsv"
finish
