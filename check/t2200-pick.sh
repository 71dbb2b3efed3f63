#!/bin/bash
# t2200-pick.sh — each leaf's pick, decoupled from its list head
# (stages/learn/leaforder.h lo_pick; tree TSV param leaf_pick and node field
# pick; eval --curve's first and head; the C API's _pick(), _pick_offered()).
#
# check/fixtures/rerank/pick.txt: 4 inputs m = 1..4, classes (strcmp order)
# 0 E = extern_mm, 1 A = BLOCK-M=16, 2 B = BLOCK-M=32; median ms:
#        E     A     B     winner  near-best labels
#   K1  1.0   2.0   1.1     E       E
#   K2  1.0   2.0   1.1     E       E
#   K3  1.5   1.0   1.1     A       A
#   K4  1.5   1.0   1.1     A       A
# B is never near-best (1.1 > 1/0.98): a class only with --leaf-fill all.
# grid_root.tsv: the root is the only leaf.
# head-q0's head (lambda 0.25, no margin; over the node's own classes E, A):
#   E costs its regret alone, 2 ln 1.5 = 0.8109; A 0.25 x 2 ln 2 + 0.75 x
#   (its top-1 + E regret: 0) = 0.3466: A heads, E last.  --leaf-fill all
#   appends B: A B E.
# The pick (the smallest sum of ln regret alone, another class than E
# paying 0.05 per input; every class measured on every input a candidate):
#   E 0.8109, A 2 ln 2 + 0.2 = 1.5863, B 4 ln 1.1 + 0.2 = 0.5812:
#   --leaf-fill all: B (class 2); --leaf-fill none (no B): E (class 0).
# eval, first (the pick alone) and head (the list head alone), filled:
#   first B: regret 1.1 on every input, no hit; head A: 2, 2, 1, 1: hit
#   1/2, regret geomean sqrt 2.  Unfilled: first E: 1, 1, 1.5, 1.5: hit 1/2,
#   sqrt 1.5.
# grid_depth1.tsv splits K1 K2 | K3 K4 (labels E | A).  Left leaf: E 0, B
#   2 ln 1.1 + 0.1 = 0.2906, A 1.4863: pick E; its list is E (its only
#   own class stays first: k = 1 compiles no Triton config for a leaf that
#   extern_mm wins throughout), then the fill B A.  Right
#   leaf: A 0.1, B 0.2906, E 0.8109: pick A, its head.  The root keeps its
#   pick B: prune --ranking 2 (each child has 1 label) makes it the leaf.
. "$(dirname "$0")/lib.sh"
D=$FIX/rerank
[ -x "$BIN/fit" ] || { fail pick "no $BIN/fit"; finish; }
"$BIN/featurize" -o "$TMP/p.feat.tsv" "$D/pick.txt" 2>/dev/null || { fail pick-featurize "featurize failed"; finish; }
fit() { # OUT GRID FIT-ARGS...
	local out=$1 grid=$2; shift 2
	"$BIN/fit" "$TMP/p.feat.tsv" --split none --grid "$D/$grid" --leaf-rank head-q0 "$@" \
		-o "$out" --metrics "$TMP/m.tsv" >/dev/null 2>"$TMP/fit.err"
}
# node ID's list (class indices, head first: eval --ranks order) and pick
nodes() { tree_nodes "$1"; }

fit "$TMP/all.tsv" grid_root.tsv --leaf-fill all && fit "$TMP/none.tsv" grid_root.tsv ||
	{ fail pick-fit "fit failed: $(head -2 "$TMP/fit.err")"; finish; }
[ "$(nodes "$TMP/all.tsv")" = "0:1,2,0:2" ] && ok pick-known-filled || fail pick-known-filled "$(nodes "$TMP/all.tsv")"
[ "$(nodes "$TMP/none.tsv")" = "0:1,0:0" ] && ok pick-known-unfilled || fail pick-known-unfilled "$(nodes "$TMP/none.tsv")"
grep -qx $'param\tleaf_pick\t1' "$TMP/all.tsv" && ok pick-param || fail pick-param "$(grep param "$TMP/all.tsv" | tr '\n' '|')"
# freq and greedy lists carry no picks (their pick is the first entry)
fit "$TMP/g.tsv" grid_root.tsv --leaf-rank greedy && ! grep -q leaf_pick "$TMP/g.tsv" &&
	[ "$(awk -F'\t' '$1 == "node" { print NF }' "$TMP/g.tsv")" = 10 ] && ok pick-none-greedy ||
	fail pick-none-greedy "$(grep -E 'leaf_pick|^node' "$TMP/g.tsv" | tr '\n' '|')"

# the C artifact: _pick() returns the pick, not the first entry; with the
# pick not offered, _pick_offered() falls back to the list's first offered
# entry (A), with every choice offered it is the pick
mkdir -p "$TMP/art"
if "$BIN/prune" --ranking 1 -o "$TMP/p.tsv" "$TMP/all.tsv" 2>/dev/null &&
	"$BIN/emit" --heuristic-name T --out-dir "$TMP/art" "$TMP/p.tsv" 2>"$TMP/emit.err"; then
	cat >"$TMP/pick.c" <<-'EOF'
	#include <stdio.h>
	#include <string.h>
	#include "_T.h"
	int main(void)
	{
		ah_mm_context c = {3, 16, 16, 16, 1, 16, 1, AH_MM_DTYPE_FLOAT16, AH_MM_DTYPE_FLOAT16, 1, 1, 0};
		unsigned char off[T_N_CHOICES];
		ah_mm_ranked first;
		int p = T_pick(&c);
		memset(off, 1, sizeof off);
		printf("%s %s", T_choices[p], T_choices[T_pick_offered(&c, off)]);
		off[p] = 0;
		printf(" %s", T_choices[T_pick_offered(&c, off)]);
		printf(" %s %d\n", T_rank(&c, &first, 1) > 0 ? T_choices[first.choice] : "-", T_HAS_PICK);
		return 0;
	}
	EOF
	B=type=triton_BLOCK-M=32_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
	A=type=triton_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=4
	if ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -I"$TMP/art" "$TMP/pick.c" "$TMP/art/_T.c" \
		-o "$TMP/pick" 2>"$TMP/cc.err"; then
		got=$("$TMP/pick")
		[ "$got" = "$B $B $A $A 1" ] && ok pick-c-api || fail pick-c-api "'$got', expected '$B $B $A $A 1'"
	else
		fail pick-c-api "does not compile: $(head -3 "$TMP/cc.err")"
	fi
	# the .py's get_pick names it too (the twins: t5100-emit.sh), and the
	# .dot's leaf label
	grep -q "return self.choices\[2\]" "$TMP/art/_T.py" && grep -q "pick=$B" "$TMP/art/T.dot" &&
		ok pick-py-dot || fail pick-py-dot "$(grep -n 'choices\[\|pick=' "$TMP/art/_T.py" "$TMP/art/T.dot" | head -3)"
else
	fail pick-c-api "prune or emit failed: $(head -2 "$TMP/emit.err")"
fi

# eval --curve: first is the pick alone, head the list head alone (and
# --ranks names the pick)
curve() { # NAME FILE TREE K HIT REGRET
	awk -F'\t' -v t="$3" -v k="$4" -v h="$5" -v g="$6" '$1 == t && $3 == k { f = 1
		if (($5 - h) ^ 2 + ($6 - g) ^ 2 > 1e-18 || $4 != 4) { print; bad = 1 } }
		END { exit !f || bad }' "$2" >"$TMP/why" && ok "$1" || fail "$1" "$(cat "$TMP/why")"
}
# a tree of before picks: param leaf_pick and the field taken out; it reads,
# and its pick is its first entry
awk -F'\t' -v OFS='\t' '$1 == "param" && $2 == "leaf_pick" { next } $1 == "node" { NF = NF - 1 } 1' "$TMP/all.tsv" >"$TMP/old.tsv"
if "$BIN/eval" --curve "$TMP/c.tsv" --ranks "$TMP/r.tsv" --tree all="$TMP/all.tsv" --tree none="$TMP/none.tsv" \
	--tree old="$TMP/old.tsv" S="$TMP/p.feat.tsv" >/dev/null 2>"$TMP/err"; then
	curve pick-eval-first "$TMP/c.tsv" all first 0 1.1000000000000001
	curve pick-eval-head "$TMP/c.tsv" all head 0.5 1.4142135623730951
	curve pick-eval-first-unfilled "$TMP/c.tsv" none first 0.5 1.2247448713915889
	curve pick-eval-old-first-is-head "$TMP/c.tsv" old first 0.5 1.4142135623730951
	curve pick-eval-k1-unchanged "$TMP/c.tsv" all 1 1 1
	[ "$(awk -F'\t' '$1 != "tree" { print $1 ":" $NF }' "$TMP/r.tsv" | sort -u | tr '\n' ' ')" = "all:2 none:0 old:1 " ] &&
		ok pick-eval-ranks || fail pick-eval-ranks "$(cut -f1,7 "$TMP/r.tsv" | sort -u | tr '\n' ' ')"
else
	fail pick-eval "eval failed: $(head -1 "$TMP/err")"
fi
"$BIN/prune" --ranking 10 -o "$TMP/o2.tsv" "$TMP/old.tsv" 2>/dev/null && test_cmp pick-old-tree-reads "$TMP/old.tsv" "$TMP/o2.tsv"

# prune keeps the picks: every node's, and the root's when it becomes the leaf
if fit "$TMP/d1.tsv" grid_depth1.tsv --leaf-fill all; then
	[ "$(nodes "$TMP/d1.tsv")" = "0:1,2,0:2 1:0,2,1:0 2:1,2:1" ] && ok pick-depth1 || fail pick-depth1 "$(nodes "$TMP/d1.tsv")"
	if "$BIN/prune" --ranking 1 -o "$TMP/d1p.tsv" "$TMP/d1.tsv" 2>/dev/null &&
		"$BIN/prune" --ranking 2 -o "$TMP/d2p.tsv" "$TMP/d1.tsv" 2>/dev/null; then
		sed 's/^param\tranking_k\t10$/param\tranking_k\t1/' "$TMP/d1.tsv" >"$TMP/want.tsv"
		test_cmp pick-prune-keeps "$TMP/want.tsv" "$TMP/d1p.tsv"
		[ "$(nodes "$TMP/d2p.tsv")" = "0:1,2,0:2" ] && grep -qx $'param\tleaf_pick\t1' "$TMP/d2p.tsv" &&
			ok pick-prune-root || fail pick-prune-root "$(nodes "$TMP/d2p.tsv")"
	else
		fail pick-prune "prune failed"
	fi
else
	fail pick-depth1 "fit failed: $(head -2 "$TMP/fit.err")"
fi

# import (a PyTorch artifact, or one of ours read back): no picks, so the
# pick is the first entry
if [ -s "$TMP/art/_T.py" ] && "$BIN/import" -o "$TMP/imp.tsv" "$TMP/art/_T.py" 2>"$TMP/imp.err"; then
	! grep -q leaf_pick "$TMP/imp.tsv" &&
		"$BIN/eval" --ranks "$TMP/ri.tsv" "$TMP/imp.tsv" S="$TMP/p.feat.tsv" >/dev/null 2>&1 &&
		[ "$(cut -f7 "$TMP/ri.tsv" | sort -u | tr '\n' ' ')" = "1 pick " ] && ok pick-import-first ||
		fail pick-import-first "$(cut -f6,7 "$TMP/ri.tsv" 2>/dev/null | sort -u | tr '\n' ' ')"
else
	fail pick-import-first "import failed: $(head -1 "$TMP/imp.err")"
fi

# the reader: a pick out of range, a missing field, a pick without a list
awk -F'\t' -v OFS='\t' '$1 == "node" { $NF = 3 } 1' "$TMP/all.tsv" >"$TMP/b1.tsv"
expect_error pick-err-range "b1.tsv:[0-9]+: field 'pick': 3 out of range \[-1, 2\]" "$TMP/bad.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/bad.tsv" "$TMP/b1.tsv"
awk -F'\t' -v OFS='\t' '$1 == "node" { NF = NF - 1 } 1' "$TMP/all.tsv" >"$TMP/b2.tsv"
expect_error pick-err-field "b2.tsv:[0-9]+: 'node' record needs 10 fields \(param leaf_pick: the last is pick\), has 9" \
	"$TMP/bad.tsv" "$BIN/prune" --ranking 1 -o "$TMP/bad.tsv" "$TMP/b2.tsv"
awk -F'\t' -v OFS='\t' '$1 == "node" { $10 = "" } 1' "$TMP/all.tsv" >"$TMP/b3.tsv"
expect_error pick-err-no-list "b3.tsv:[0-9]+: field 'pick': 2, but the node has no classes" "$TMP/bad.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/bad.tsv" "$TMP/b3.tsv"
sed 's/^param\tleaf_pick\t1$/param\tleaf_pick\t2/' "$TMP/all.tsv" >"$TMP/b4.tsv"
expect_error pick-err-param "b4.tsv:[0-9]+: field 'leaf_pick': 2 out of range \[0, 1\]" "$TMP/bad.tsv" \
	"$BIN/prune" --ranking 1 -o "$TMP/bad.tsv" "$TMP/b4.tsv"
# head-x (lambda 0, no margin, entry 0 offered or not) on
# check/fixtures/rerank/headx.txt: 4 inputs, 0 E = extern_mm, 1 A;
#        E     A
#   K1  1.0    -     (A not offered)
#   K2  1.0   3.0
#   K3  1.0   3.0
#   K4  1.2   1.0
# A's top-1 + E regret is 0 against E's ln 1.2: A heads (E last), though it
# alone costs 2 ln 3 and is not offered on K1; head-q0 keeps E first (A is
# not offered everywhere).  The pick is E either way (the one class measured
# on every input).
"$BIN/featurize" -o "$TMP/x.feat.tsv" "$D/headx.txt" 2>/dev/null || fail pick-headx-featurize "featurize failed"
for r in head-x head-q0; do
	"$BIN/fit" "$TMP/x.feat.tsv" --split none --grid "$D/grid_root.tsv" --leaf-rank $r -o "$TMP/x.$r.tsv" \
		--metrics "$TMP/m.tsv" >/dev/null 2>"$TMP/fit.err" || fail pick-headx-fit-$r "$(head -2 "$TMP/fit.err")"
done
[ "$(nodes "$TMP/x.head-x.tsv")" = "0:1,0:0" ] && ok pick-headx-triton-heads || fail pick-headx-triton-heads "$(nodes "$TMP/x.head-x.tsv")"
[ "$(nodes "$TMP/x.head-q0.tsv")" = "0:0,1:0" ] && ok pick-headq0-extern-heads || fail pick-headq0-extern-heads "$(nodes "$TMP/x.head-q0.tsv")"
finish
