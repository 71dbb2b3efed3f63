#!/bin/bash
# t1160-tree.sh — tree TSV reader/writer (stages/formats/tree.c) through `prune`.
# * round trip: prune --ranking 1 never prunes (every node has >= 1 label), so
#   its output must equal the input except for the ranking_k param;
# * the reader rejects, with "file:line: message", a dangling child index,
#   a cycle (a child pointing back to the root), a leaf with a child,
#   probabilities that do not sum to 1, a class listed twice or out of order.
. check/lib.sh
D=$FIX/tree
if [ ! -x "$BIN/prune" ]; then fail tree "no $BIN/prune"; finish; fi
if "$BIN/prune" --ranking 1 -o "$TMP/rt.tsv" "$D/tree.tsv" 2>/dev/null; then ok tree-roundtrip-runs
else fail tree-roundtrip-runs "prune --ranking 1 failed"; : >"$TMP/rt.tsv"; fi
sed 's/^param\tranking_k\t0$/param\tranking_k\t1/' "$D/tree.tsv" >"$TMP/want.tsv"
test_cmp tree-roundtrip "$TMP/want.tsv" "$TMP/rt.tsv"
# bad file -> expected message (extended regex, must match stderr), no output
check_bad() {
	expect_error "tree-${1%.tsv}" "$2" "$TMP/out.tsv" "$BIN/prune" --ranking 1 -o "$TMP/out.tsv" "$D/$1"
}
check_bad bad_dangling.tsv "bad_dangling\.tsv:18: node 4: right child 9 does not exist"
check_bad bad_cycle.tsv "bad_cycle\.tsv:18: node 4: right child 0 .*cycle"
check_bad bad_leafchild.tsv "bad_leafchild\.tsv:19: leaf node 5 .*children"
check_bad bad_probsum.tsv "bad_probsum\.tsv:20: field 'probs': probabilities sum to"
# a class listed twice in a node's probs, and one out of order (line 16:
# node 2, 0:0.5,1:0.5)
sed '16s/0:0\.5,1:0\.5$/0:0.25,0:0.25,1:0.5/' "$D/tree.tsv" >"$TMP/twice.tsv"
expect_error tree-probs-twice "twice\.tsv:16: field 'probs': class 0 listed twice" "$TMP/out.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/out.tsv" "$TMP/twice.tsv"
sed '16s/0:0\.5,1:0\.5$/1:0.5,0:0.5/' "$D/tree.tsv" >"$TMP/order.tsv"
expect_error tree-probs-order "order\.tsv:16: field 'probs': class 0 not in ascending order" "$TMP/out.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/out.tsv" "$TMP/order.tsv"
# a truncated file (no node records) and a CRLF file
head -13 "$D/tree.tsv" >"$TMP/nonodes.tsv"
expect_error tree-no-nodes "no 'node' records" "$TMP/out.tsv" "$BIN/prune" --ranking 1 -o "$TMP/out.tsv" "$TMP/nonodes.tsv"
sed 's/$/\r/' "$D/tree.tsv" >"$TMP/crlf.tsv"
expect_error tree-crlf "crlf\.tsv:1: carriage return" "$TMP/out.tsv" "$BIN/prune" --ranking 1 -o "$TMP/out.tsv" "$TMP/crlf.tsv"
finish
