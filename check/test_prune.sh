#!/bin/bash
# test_prune.sh — stage `prune` (spec §5.6) on a hand-made tree.
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
BIN=${BIN:-build/bin}
name=prune
D=$(dirname "$0")/fixtures/tree
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL $name: $*"; exit 1; }
[ -x "$BIN/prune" ] || fail "no $BIN/prune"
for k in 2 3 4; do
	"$BIN/prune" --ranking $k -o "$T/p$k.tsv" "$D/tree.tsv" 2>"$T/err" ||
		fail "k=$k exited non-zero: $(head -1 "$T/err")"
	cmp -s "$T/p$k.tsv" "$D/pruned_k$k.tsv" ||
		fail "k=$k output differs from pruned_k$k.tsv: $(diff "$D/pruned_k$k.tsv" "$T/p$k.tsv" | head -3 | tr '\n' ' ')"
done
# --prune-exclude-extern
ren() { sed -e 's/^class\t0\tc0$/class\t0\textern_mm/' -e 's/^class\t\([1-4]\)\tc/class\t\1\ttype=c/' "$@"; }
ren "$D/tree.tsv" >"$T/x.tsv"
grep -q '^class.0.extern_mm$' "$T/x.tsv" || fail "fixture rename failed"
for kk in 2:3 3:4; do
	k=${kk%:*} shape=${kk#*:}
	ren "$D/pruned_k$shape.tsv" | sed "s/^param\tranking_k\t.*/param\tranking_k\t$k/" >"$T/want$k.tsv"
	"$BIN/prune" --ranking $k --prune-exclude-extern -o "$T/x$k.tsv" "$T/x.tsv" 2>"$T/err" ||
		fail "--prune-exclude-extern k=$k exited non-zero: $(head -1 "$T/err")"
	cmp -s "$T/x$k.tsv" "$T/want$k.tsv" ||
		fail "--prune-exclude-extern k=$k: expected the shape of pruned_k$shape: $(diff "$T/want$k.tsv" "$T/x$k.tsv" | head -3 | tr '\n' ' ')"
done
"$BIN/prune" --ranking 2 -o "$T/y2.tsv" "$T/x.tsv" 2>/dev/null &&
	cmp -s "$T/y2.tsv" <(ren "$D/pruned_k2.tsv") || fail "plain k=2 on the renamed tree is not pruned_k2"
"$BIN/prune" --ranking 2 --prune-exclude-extern -o "$T/z2.tsv" "$D/tree.tsv" 2>/dev/null &&
	cmp -s "$T/z2.tsv" "$D/pruned_k2.tsv" || fail "--prune-exclude-extern without an extern_mm class changed the tree"
# pruning a pruned tree again with the same k changes nothing
"$BIN/prune" --ranking 3 -o "$T/pp.tsv" "$T/p3.tsv" 2>/dev/null && cmp -s "$T/pp.tsv" "$T/p3.tsv" ||
	fail "pruning is not idempotent at k=3"
# usage errors: exit non-zero, no output left behind
"$BIN/prune" --ranking 0 -o "$T/bad.tsv" "$D/tree.tsv" 2>/dev/null && fail "--ranking 0 accepted"
"$BIN/prune" -o "$T/bad.tsv" "$D/tree.tsv" 2>/dev/null && fail "missing --ranking accepted"
"$BIN/prune" --ranking 3 -o "$T/bad.tsv" "$D/bad_dangling.tsv" 2>/dev/null && fail "bad input accepted"
[ -e "$T/bad.tsv" ] && fail "output left behind after an error"
"$BIN/prune" --help | grep -q '^usage: prune' || fail "--help lacks the synopsis"
echo "ok $name"
