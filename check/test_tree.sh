#!/bin/bash
# test_tree.sh — tree TSV reader/writer (stages/lib/tree.c) through `prune`.
# * round trip: prune --ranking 1 never prunes (every node has >= 1 label), so
#   its output must equal the input except for the ranking_k param;
# * the reader rejects, with "file:line: message", a dangling child index,
#   a cycle (a child pointing back to the root), a leaf with a child, and
#   probabilities that do not sum to 1.
BIN=${BIN:-build/bin}
name=tree
D=$(dirname "$0")/fixtures/tree
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL $name: $*"; exit 1; }
[ -x "$BIN/prune" ] || fail "no $BIN/prune"
"$BIN/prune" --ranking 1 -o "$T/rt.tsv" "$D/tree.tsv" 2>/dev/null || fail "round trip failed"
sed 's/^param\tranking_k\t0$/param\tranking_k\t1/' "$D/tree.tsv" >"$T/want.tsv"
cmp -s "$T/rt.tsv" "$T/want.tsv" || fail "round trip differs: $(diff "$T/want.tsv" "$T/rt.tsv" | head -3 | tr '\n' ' ')"
# bad file -> expected message (extended regex, must match stderr)
check_bad() {
	local f=$1 re=$2
	if "$BIN/prune" --ranking 1 -o "$T/out.tsv" "$D/$f" 2>"$T/err"; then
		fail "$f accepted"
	fi
	grep -Eq "$re" "$T/err" || fail "$f: message '$(head -1 "$T/err")' does not match '$re'"
	[ -e "$T/out.tsv" ] && fail "$f: output written"
	return 0
}
check_bad bad_dangling.tsv "bad_dangling\.tsv:18: node 4: right child 9 does not exist"
check_bad bad_cycle.tsv "bad_cycle\.tsv:18: node 4: right child 0 .*cycle"
check_bad bad_leafchild.tsv "bad_leafchild\.tsv:19: leaf node 5 .*children"
check_bad bad_probsum.tsv "bad_probsum\.tsv:20: field 'probs': probabilities sum to"
# a truncated file (no node records) and a CRLF file
head -13 "$D/tree.tsv" >"$T/nonodes.tsv"
"$BIN/prune" --ranking 1 -o "$T/out.tsv" "$T/nonodes.tsv" 2>"$T/err" && fail "tree without nodes accepted"
grep -q "no 'node' records" "$T/err" || fail "no-nodes message: $(head -1 "$T/err")"
sed 's/$/\r/' "$D/tree.tsv" >"$T/crlf.tsv"
"$BIN/prune" --ranking 1 -o "$T/out.tsv" "$T/crlf.tsv" 2>"$T/err" && fail "CRLF accepted"
grep -q "crlf.tsv:1: carriage return" "$T/err" || fail "CRLF message: $(head -1 "$T/err")"
echo "ok $name"
