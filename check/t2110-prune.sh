#!/bin/bash
# t2110-prune.sh — stage `prune` (spec §5.6) on a hand-made tree.
# Fixture check/fixtures/tree/tree.tsv (depth 2, 7 nodes):
#   0 a<=5.5 (5 labels) ─ 1 b<=2.5 (3 labels) ─ 2 leaf (2 labels), 3 leaf (2 labels)
#                       └ 4 b<=7   (4 labels) ─ 5 leaf (3 labels), 6 leaf (3 labels)
# k=2: nothing pruned.  k=3: node 1 becomes a leaf (children have 2 < 3 labels),
# node 4 survives, renumbered 0,1,2,3,4.  k=4: root's left child has 3 < 4
# labels, so the whole tree becomes one leaf with the root's distribution.
# Expected outputs: pruned_k{2,3,4}.tsv (byte exact, ranking_k = K).
#
# --prune-exclude-extern (ours): the same tree with class c0 renamed
# extern_mm (c1..c4 -> type=c1..type=c4, so the names stay strcmp-sorted).
# extern_mm (class 0) then does not count: labels counted per node
#   1 {0,1,2} -> 2, 2 {0,1} -> 1, 3 {1,2} -> 2, 4 {0,2,3,4} -> 3,
#   5 {2,3,4} -> 3, 6 {0,3,4} -> 2.
# k=2: root keeps (children 2, 3); node 1 becomes a leaf (child 2 has 1 < 2);
#   node 4 keeps (5: 3, 6: 2) -> the shape of pruned_k3 (plain k=2 prunes
#   nothing).  k=3: the root's left child counts 2 < 3 -> one leaf, the shape
#   of pruned_k4.  On the original tree (no extern_mm class) the option
#   changes nothing: k=2 gives pruned_k2.
. check/lib.sh
D=$FIX/tree
if [ ! -x "$BIN/prune" ]; then fail prune "no $BIN/prune"; finish; fi
for k in 2 3 4; do
	if "$BIN/prune" --ranking $k -o "$TMP/p$k.tsv" "$D/tree.tsv" 2>"$TMP/err"; then
		test_cmp prune-k$k "$D/pruned_k$k.tsv" "$TMP/p$k.tsv"
	else
		fail prune-k$k "exited non-zero: $(head -1 "$TMP/err")"; : >"$TMP/p$k.tsv"
	fi
done
# --prune-exclude-extern
ren() { sed -e 's/^class\t0\tc0$/class\t0\textern_mm/' -e 's/^class\t\([1-4]\)\tc/class\t\1\ttype=c/' "$@"; }
ren "$D/tree.tsv" >"$TMP/x.tsv"
if grep -q '^class.0.extern_mm$' "$TMP/x.tsv"; then ok prune-fixture-rename; else fail prune-fixture-rename "sed found no class c0"; fi
for kk in 2:3 3:4; do
	k=${kk%:*} shape=${kk#*:}
	ren "$D/pruned_k$shape.tsv" | sed "s/^param\tranking_k\t.*/param\tranking_k\t$k/" >"$TMP/want$k.tsv"
	if "$BIN/prune" --ranking $k --prune-exclude-extern -o "$TMP/x$k.tsv" "$TMP/x.tsv" 2>"$TMP/err"; then
		test_cmp "prune-exclude-extern-k$k-is-shape-k$shape" "$TMP/want$k.tsv" "$TMP/x$k.tsv"
	else
		fail "prune-exclude-extern-k$k-is-shape-k$shape" "exited non-zero: $(head -1 "$TMP/err")"
	fi
done
ren "$D/pruned_k2.tsv" >"$TMP/want_y2.tsv"
"$BIN/prune" --ranking 2 -o "$TMP/y2.tsv" "$TMP/x.tsv" 2>/dev/null || : >"$TMP/y2.tsv"
test_cmp prune-plain-k2-renamed "$TMP/want_y2.tsv" "$TMP/y2.tsv"
"$BIN/prune" --ranking 2 --prune-exclude-extern -o "$TMP/z2.tsv" "$D/tree.tsv" 2>/dev/null || : >"$TMP/z2.tsv"
test_cmp prune-exclude-extern-no-extern-class "$D/pruned_k2.tsv" "$TMP/z2.tsv"
# pruning a pruned tree again with the same k changes nothing
"$BIN/prune" --ranking 3 -o "$TMP/pp.tsv" "$TMP/p3.tsv" 2>/dev/null || : >"$TMP/pp.tsv"
test_cmp prune-idempotent-k3 "$TMP/p3.tsv" "$TMP/pp.tsv"
# usage errors: exit non-zero, a message, no output left behind
expect_error prune-ranking-0 "ranking" "$TMP/bad.tsv" "$BIN/prune" --ranking 0 -o "$TMP/bad.tsv" "$D/tree.tsv"
expect_error prune-no-ranking "ranking" "$TMP/bad.tsv" "$BIN/prune" -o "$TMP/bad.tsv" "$D/tree.tsv"
expect_error prune-bad-input "bad_dangling" "$TMP/bad.tsv" "$BIN/prune" --ranking 3 -o "$TMP/bad.tsv" "$D/bad_dangling.tsv"
if "$BIN/prune" --help | grep -q '^usage: prune'; then ok prune-help; else fail prune-help "--help lacks the synopsis"; fi
finish
