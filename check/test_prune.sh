#!/bin/bash
# test_prune.sh — stage `prune` (spec §5.6) on a hand-made tree.
# Fixture check/fixtures/tree/tree.tsv (depth 2, 7 nodes):
#   0 a<=5.5 (5 labels) ─ 1 b<=2.5 (3 labels) ─ 2 leaf (2 labels), 3 leaf (2 labels)
#                       └ 4 b<=7   (4 labels) ─ 5 leaf (3 labels), 6 leaf (3 labels)
# k=2: nothing pruned.  k=3: node 1 becomes a leaf (children have 2 < 3 labels),
# node 4 survives, renumbered 0,1,2,3,4.  k=4: root's left child has 3 < 4
# labels, so the whole tree becomes one leaf with the root's distribution.
# Expected outputs: pruned_k{2,3,4}.tsv (byte exact, ranking_k = K).
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
