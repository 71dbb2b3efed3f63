#!/bin/bash
# t5100-emit.sh — stage `emit` (spec §6.1 Python module, §6.2 DOT, §4.1/§4.4
# features and dummies in the C twin).
#
# Fixture check/fixtures/emit/tree.tsv (11 nodes, 5 classes):
#   0 arith_intensity <= 52.6245059967041
#     1 n <= 34.0                      -> 2 leaf {2:.5, 0:.25, 1:.25}  (tie: index order)
#                                      -> 3 leaf {4:.4, 1:.3, 3:.3}
#     4 dummy using_tf32_False         (str(using_tf32) != 'False')
#       5 dummy mat1_dtype_torch.float16 -> 6 leaf {0:1}
#                                        -> 7 leaf five-way tie 0.2
#       8 k <= 62.5                    -> 9 leaf {0:2/3, 4:1/3}
#                                      -> 10 leaf {3:.9996, 2:.0004} (prints 0.000)
# expected.py / expected.dot: byte-exact outputs; contexts.tsv + expected_rank.txt:
# rankings worked out by hand for 11 contexts (ties, k = 62/63, n = 34/35, m = 0,
# bf16, tf32 True/False).
#
# Also: generated .c compiles as C99 -pedantic and .py byte-compiles; the C and
# Python twins give identical rankings apart from the C twin's documented
# append of extern_mm (rank_py.py --append does the same to the
# Python's lists), and identical arith_intensity (%.17g),
# for every context of synthetic sets (incl. m*k*n > 2^53) and, when the
# dataset is available, of a real feat TSV; thresholds print as Python's repr;
# PyTorch's shipped artifacts (../shared/reference, read-only) re-emit to
# the same text and their C twins match them on every context.
. "$(dirname "$0")/lib.sh"
E=$ROOT/check/emit
FE=$FIX/emit
TPL=$ROOT/templates
REF=${MMRANK_REFERENCE:-$REFERENCE_DIR}
MIRROR=$DATASET_DIR
CC=${CC:-cc}
C99="-std=c99 -Wall -Wextra -Werror -pedantic"
emit() { "$BIN/emit" --templates "$TPL" "$@"; }

if [ ! -x "$BIN/emit" ]; then fail emit "no $BIN/emit"; finish; fi

# emit_all NAME TREE DIR — all four outputs into DIR
emit_all() {
	local f
	mkdir -p "$3"
	for f in py h c dot; do
		local o="$3/_$1.$f"
		[ $f = dot ] && o="$3/$1.dot"
		emit --heuristic-name "$1" --format $f -o "$o" "$2" 2>"$3/err.$f" || return 1
	done
}

# build_driver NAME DIR — DIR/rank_c for DIR/_NAME.c (with arith_intensity
# output when the tree uses it)
build_driver() {
	local ai=
	grep -q "$1_arith_intensity(" "$2/_$1.c" && ai=-DWITH_AI
	$CC $C99 -O2 -D_POSIX_C_SOURCE=200809L -I"$2" -DHEUR="$1" \
		-DHEUR_C="\"$2/_$1.c\"" $ai "$E/rank_c.c" -o "$2/rank_c" 2>"$2/cc.err"
}

# same_rankings NAME DIR PYMODULE CONTEXTS — C twin vs Python, line by line
same_rankings() {
	local ai=
	grep -q "$1_arith_intensity(" "$2/_$1.c" && ai=--ai
	"$2/rank_c" "$4" >"$2/c.out" 2>"$2/c.err" || { echo "rank_c failed: $(head -2 "$2/c.err")"; return 1; }
	stub_python "$E/rank_py.py" "$3" "$1" "$4" $ai --append extern_mm >"$2/py.out" 2>"$2/py.err" ||
		{ echo "rank_py failed: $(tail -2 "$2/py.err")"; return 1; }
	[ -s "$2/c.out" ] || { echo "no contexts"; return 1; }
	cmp -s "$2/c.out" "$2/py.out" ||
		{ echo "C and Python differ: $(diff "$2/py.out" "$2/c.out" | head -3 | tr '\n' '|')"; return 1; }
}

# default_everywhere NAME DIR TREE CONTEXTS — the C twin's guarantee (as
# Inductor always adds it): NAME_DEFAULT_CHOICE names extern_mm; every leaf table of the .c
# (one per safe leaf of TREE: all of them, not only those the contexts
# reach) holds it; every list rank() returns for CONTEXTS holds it; pick()
# is the first entry of rank() (the default for an unsafe leaf) for a tree
# without picks (NAME_HAS_PICK 0), else the Python twin's get_pick();
# pick_offered() without pick() offered is rank()'s first other entry;
# truth() is the Python's get_truth() (1 for True), or 0 everywhere without
# NAME_HAS_TRUTH (the .py then has no get_truth).
default_everywhere() {
	local d leaves tables
	d=$(sed -n "s/^#define $1_DEFAULT_CHOICE \([0-9]*\)$/\1/p" "$2/_$1.h")
	[ -n "$d" ] || { echo "no $1_DEFAULT_CHOICE in _$1.h"; return 1; }
	awk -v d="$d" '/_choices\[.*\] = \{$/ { on = 1; next } on && /^};/ { on = 0 }
		on { if (n++ == d) got = $0 } END { exit got != "\t\"extern_mm\"," }' "$2/_$1.c" ||
		{ echo "choice $d of _$1.c is not extern_mm"; return 1; }
	leaves=$(awk -F'\t' '$1 == "node" && $3 == -1 && $10 != ""' "$3" | wc -l)
	tables=$(awk -v d=", $d}" '/_leaf_[0-9]+\[\] = \{$/ { getline; n++; if (index($0, d)) ok++ }
		END { print n + 0, ok + 0 }' "$2/_$1.c")
	[ "$tables" = "$leaves $leaves" ] ||
		{ echo "leaf tables (count, with choice $d): $tables; safe leaves of the tree: $leaves"; return 1; }
	"$2/rank_c" "$4" >"$2/r.out" && "$2/rank_c" "$4" --pick >"$2/p.out" ||
		{ echo "rank_c failed"; return 1; }
	awk -F'\t' -v d="$d" '$NF != "None" && ("," $NF) !~ ("," d ":") { bad++ } END { exit bad > 0 }' "$2/r.out" ||
		{ echo "a list without choice $d: $(awk -F'\t' -v d="$d" '$NF != "None" && ("," $NF) !~ ("," d ":")' "$2/r.out" | head -1)"; return 1; }
	if grep -q "^#define $1_HAS_PICK 1$" "$2/_$1.h"; then
		stub_python "$E/rank_py.py" "$2/_$1.py" "$1" "$4" --pick --append extern_mm |
			cmp -s - "$2/p.out" || { echo "pick() is not the Python's get_pick()"; return 1; }
	else
		awk -F'\t' -v d="$d" '{ sub(/:.*/, "", $NF); if ($NF == "None") $NF = d; print $1 "\t" $NF }' "$2/r.out" |
			cmp -s - "$2/p.out" || { echo "pick() is not rank()'s first entry"; return 1; }
	fi
	"$2/rank_c" "$4" --truth >"$2/t.out" || { echo "rank_c --truth failed"; return 1; }
	stub_python "$E/rank_py.py" "$2/_$1.py" "$1" "$4" --truth |
		awk -F'\t' -v OFS='\t' '{ $2 = $2 == "True" ? 1 : 0 } 1' | cmp -s - "$2/t.out" ||
		{ echo "truth() is not the Python's get_truth()"; return 1; }
	# pick_offered() with every choice but pick()'s offered: rank()'s first
	# entry other than pick() (the second where pick() is the first), or the
	# default where there is none or the leaf is unsafe
	"$2/rank_c" "$4" --pick-offered >"$2/po.out" || { echo "rank_c --pick-offered failed"; return 1; }
	awk -F'\t' -v d="$d" 'NR == FNR { p[$1] = $2; next } { n = split($NF, e, ","); s = d
		for (j = 1; $NF != "None" && j <= n; j++) { sub(/:.*/, "", e[j]); if (e[j] != p[$1]) { s = e[j]; break } }
		print $1 "\t" s }' "$2/p.out" "$2/r.out" |
		cmp -s - "$2/po.out" || { echo "pick_offered() is not rank()'s first offered entry"; return 1; }
}

# ---- usage ------------------------------------------------------------------
if "$BIN/emit" --help | grep -q '^usage: emit' && "$BIN/emit" --help | grep -q 'Exit status'; then
	ok emit-help; else fail emit-help "--help lacks the synopsis or exit status"; fi

# ---- (a) hand-written tree: byte-exact outputs, hand-worked rankings ----------
D=$TMP/fix
if emit_all MMRankingTest "$FE/tree.tsv" "$D"; then
	test_cmp emit-py-fixture "$FE/expected.py" "$D/_MMRankingTest.py"
	test_cmp emit-dot-fixture "$FE/expected.dot" "$D/MMRankingTest.dot"
else
	fail emit-fixture "emit exited non-zero: $(cat "$D"/err.* | head -2)"
fi
# stdout when -o is absent
emit --heuristic-name MMRankingTest --format py "$FE/tree.tsv" >"$TMP/stdout.py" 2>/dev/null
test_cmp emit-stdout "$FE/expected.py" "$TMP/stdout.py"

# ---- (a2) per-leaf k (fit --topk-eps): tree_topk.tsv is tree.tsv
# with param topk_eps 0.005 and a k per node (leaves 2..10: 1 2 3 5 4 10).
# The C twin's _top_k() and the Python's get_top_k() agree on every context
# (hand: 4096^3 fp16 reaches leaf 7, k 5; 8^3 leaf 2, k 1); a tree without k:
# -1 and None everywhere, and the .h says which.
D2=$TMP/topk
if emit_all MMRankingTest "$FE/tree_topk.tsv" "$D2" && build_driver MMRankingTest "$D2"; then
	"$D2/rank_c" "$FE/contexts.tsv" --top-k >"$D2/k.c" 2>&1
	stub_python "$E/rank_py.py" "$D2/_MMRankingTest.py" MMRankingTest "$FE/contexts.tsv" --top-k >"$D2/k.py" 2>&1
	if cmp -s "$D2/k.c" "$D2/k.py" && [ "$(sed -n 1,2p "$D2/k.c" | tr '\n' ' ')" = "0	5 1	1 " ] &&
		grep -q '^#define MMRankingTest_HAS_TOP_K 1$' "$D2/_MMRankingTest.h" &&
		grep -q '^#define MMRankingTest_TOP_K_EPS 0.005$' "$D2/_MMRankingTest.h"; then
		ok emit-top-k-c-py-agree
	else
		fail emit-top-k-c-py-agree "C $(tr '\n' ' ' <"$D2/k.c" | head -c 200) | Python $(tr '\n' ' ' <"$D2/k.py" | head -c 200)"
	fi
	# the lists themselves are those of the tree without k
	"$D2/rank_c" "$FE/contexts.tsv" | cut -f1,3 >"$D2/hand.c2"
	test_cmp emit-top-k-same-lists "$FE/expected_rank_c.txt" "$D2/hand.c2"
else
	fail emit-top-k "emit or the driver failed: $(cat "$D2"/err.* "$D2/cc.err" 2>/dev/null | head -2)"
fi
if [ -x "$D/rank_c" ] 2>/dev/null || build_driver MMRankingTest "$D"; then
	"$D/rank_c" "$FE/contexts.tsv" --top-k | cut -f2 | sort -u >"$TMP/nok.c"
	stub_python "$E/rank_py.py" "$D/_MMRankingTest.py" MMRankingTest "$FE/contexts.tsv" --top-k | cut -f2 | sort -u >"$TMP/nok.py"
	[ "$(cat "$TMP/nok.c")" = -1 ] && [ "$(cat "$TMP/nok.py")" = -1 ] &&
		grep -q '^#define MMRankingTest_HAS_TOP_K 0$' "$D/_MMRankingTest.h" && ok emit-top-k-none ||
		fail emit-top-k-none "C '$(cat "$TMP/nok.c")' Python '$(cat "$TMP/nok.py")'"
fi

# ---- (a3) per-leaf picks (fit's leaf-list rules): tree_pick.tsv is tree.tsv
# with param leaf_pick 1 and each leaf's pick its LAST listed class (leaves
# 2 3 6 7 9 10: 1 3 0 4 4 2; internal nodes -1), so a context's pick is the
# last entry of its expected_rank.txt list, which for every leaf but 6 ({0:1})
# is not its first.  The C twin's _pick() and the Python's get_pick() give it,
# and so does _pick_offered() with every choice offered; with every choice
# but the pick offered, it gives rank()'s first entry other than the pick
# (the default where there is none: leaf 6); the
# .dot names the pick of the 5 leaves where it is not the first entry; the
# .h says the tree has picks.
D3=$TMP/pick
mkdir -p "$D3"
awk -F'\t' -v OFS='\t' 'BEGIN { split("-1 -1 1 3 -1 -1 0 4 -1 4 2", pk, " ") }
	$1 == "param" { last = NR } { l[NR] = $0; if ($1 == "node") l[NR] = $0 OFS pk[$2 + 1] }
	END { for (i = 1; i <= NR; i++) { print l[i]; if (i == last) print "param", "leaf_pick", 1 } }' \
	"$FE/tree.tsv" >"$D3/tree_pick.tsv"
awk -F'\t' '{ n = split($2, e, ","); sub(/:.*/, "", e[n]); print $1 "\t" e[n] }' "$FE/expected_rank.txt" >"$D3/want.pick"
if emit_all MMRankingTest "$D3/tree_pick.tsv" "$D3" && build_driver MMRankingTest "$D3"; then
	"$D3/rank_c" "$FE/contexts.tsv" --pick >"$D3/c.pick" 2>&1
	test_cmp emit-pick-known-c "$D3/want.pick" "$D3/c.pick"
	stub_python "$E/rank_py.py" "$D3/_MMRankingTest.py" MMRankingTest "$FE/contexts.tsv" --pick >"$D3/py.pick" 2>&1
	test_cmp emit-pick-known-py "$D3/want.pick" "$D3/py.pick"
	"$D3/rank_c" "$FE/contexts.tsv" >"$D3/r.out" && "$D3/rank_c" "$FE/contexts.tsv" --pick-offered >"$D3/po.out"
	awk -F'\t' 'NR == FNR { p[$1] = $2; next } { n = split($NF, e, ","); s = 0
		for (j = 1; j <= n; j++) { sub(/:.*/, "", e[j]); if (e[j] != p[$1]) { s = e[j]; break } }
		print $1 "\t" s }' "$D3/want.pick" "$D3/r.out" >"$D3/want.po"
	test_cmp emit-pick-offered-falls-back "$D3/want.po" "$D3/po.out"
	"$D3/rank_c" "$FE/contexts.tsv" --pick-all-offered >"$D3/pa.out"
	test_cmp emit-pick-offered-is-pick "$D3/want.pick" "$D3/pa.out"
	# the lists are those of the tree without picks
	cut -f1,3 "$D3/r.out" >"$D3/hand.c2"
	test_cmp emit-pick-same-lists "$FE/expected_rank_c.txt" "$D3/hand.c2"
	[ "$(grep -c 'pick=' "$D3/MMRankingTest.dot")" = 5 ] && grep -q '^#define MMRankingTest_HAS_PICK 1$' "$D3/_MMRankingTest.h" &&
		grep -q '^#define MMRankingTest_HAS_PICK 0$' "$D/_MMRankingTest.h" && ! grep -q 'pick=' "$D/MMRankingTest.dot" &&
		ok emit-pick-dot-h || fail emit-pick-dot-h "$(grep -c 'pick=' "$D3/MMRankingTest.dot") dot labels; $(grep HAS_PICK "$D3/_MMRankingTest.h" "$D/_MMRankingTest.h" | tr '\n' ' ')"
else
	fail emit-pick "emit or the driver failed: $(cat "$D3"/err.* "$D3/cc.err" 2>/dev/null | head -2)"
fi

# ---- (a4) the truth marks (prune --truth): tree_pick.tsv with param truth 1
# and leaves 3 and 10 marked (their picks, 3 and 2, are no other leaf's), so
# a context's truth() is 1 exactly where its known pick is 3 or 2; the
# Python's get_truth() agrees, and the .h says the tree has the truth
D4=$TMP/truth
mkdir -p "$D4"
awk -F'\t' -v OFS='\t' '$1 == "param" { last = NR } { l[NR] = $0; if ($1 == "node") l[NR] = $0 OFS ($2 == 3 || $2 == 10) }
	END { for (i = 1; i <= NR; i++) { print l[i]; if (i == last) print "param", "truth", 1 } }' \
	"$D3/tree_pick.tsv" >"$D4/tree_truth.tsv"
awk -F'\t' '{ print $1 "\t" ($2 == 3 || $2 == 2) }' "$D3/want.pick" >"$D4/want.truth"
if emit_all MMRankingTest "$D4/tree_truth.tsv" "$D4" && build_driver MMRankingTest "$D4"; then
	"$D4/rank_c" "$FE/contexts.tsv" --truth >"$D4/c.truth" 2>&1
	if [ "$(cut -f2 "$D4/c.truth" | sort -u | tr '\n' ' ')" = "0 1 " ]; then
		test_cmp emit-truth-known-c "$D4/want.truth" "$D4/c.truth"
	else fail emit-truth-known-c "the contexts do not reach both kinds of leaf: $(cut -f2 "$D4/c.truth" | sort | uniq -c | tr '\n' ' ')"; fi
	if why=$(default_everywhere MMRankingTest "$D4" "$D4/tree_truth.tsv" "$FE/contexts.tsv"); then
		ok emit-truth-c-is-py; else fail emit-truth-c-is-py "$why"; fi
	grep -q '^#define MMRankingTest_HAS_TRUTH 1$' "$D4/_MMRankingTest.h" && grep -q '^#define MMRankingTest_HAS_TRUTH 0$' "$D3/_MMRankingTest.h" &&
		ok emit-truth-h || fail emit-truth-h "$(grep HAS_TRUTH "$D4/_MMRankingTest.h" "$D3/_MMRankingTest.h" | tr '\n' ' ')"
else
	fail emit-truth "emit or the driver failed: $(cat "$D4"/err.* "$D4/cc.err" 2>/dev/null | head -2)"
fi

# ---- (b) the outputs compile -------------------------------------------------
if python3 -m py_compile "$D/_MMRankingTest.py" 2>"$TMP/pyc.err"; then ok emit-py-compile
else fail emit-py-compile "$(head -3 "$TMP/pyc.err")"; fi
if $CC $C99 -O2 -c "$D/_MMRankingTest.c" -o "$TMP/t.o" 2>"$TMP/cc.err"; then ok emit-c-compile
else fail emit-c-compile "$(head -3 "$TMP/cc.err")"; fi

# hand-worked rankings, through both twins
if build_driver MMRankingTest "$D"; then
	"$D/rank_c" "$FE/contexts.tsv" >"$TMP/hand.c" 2>&1
	# rank_c prints the arith_intensity column for this tree: drop it
	cut -f1,3 "$TMP/hand.c" >"$TMP/hand.c2"
	# the same lists, extern_mm (choice 0) appended where the leaf lacks it
	test_cmp emit-rank-hand-c "$FE/expected_rank_c.txt" "$TMP/hand.c2"
	"$D/rank_c" "$FE/contexts.tsv" --pick >"$TMP/hand.pick" 2>&1
	test_cmp emit-pick-hand-c <(cut -d: -f1 "$FE/expected_rank.txt") "$TMP/hand.pick"
	if why=$(default_everywhere MMRankingTest "$D" "$FE/tree.tsv" "$FE/contexts.tsv"); then
		ok emit-c-default-fixture; else fail emit-c-default-fixture "$why"; fi
	stub_python "$E/rank_py.py" "$D/_MMRankingTest.py" MMRankingTest "$FE/contexts.tsv" >"$TMP/hand.py" 2>&1
	test_cmp emit-rank-hand-py "$FE/expected_rank.txt" "$TMP/hand.py"
else
	fail emit-rank-hand "driver does not build: $(head -3 "$D/cc.err")"
fi

# ---- (c) C twin == Python on every context ------------------------------------
python3 "$E/gen_contexts.py" 3000 7 34 62.5 52 53 >"$TMP/ctx.tsv"
python3 "$E/gen_contexts.py" 3000 8 --huge >"$TMP/huge.tsv"
# each product < 2^63 (the header's contract), their sum >= 2^63 or 2^64
python3 "$E/gen_contexts.py" 2000 10 --extreme >"$TMP/extreme.tsv"
for set in ctx huge extreme; do
	if why=$(same_rankings MMRankingTest "$D" "$D/_MMRankingTest.py" "$TMP/$set.tsv"); then
		ok emit-c-vs-py-$set; else fail emit-c-vs-py-$set "$why"; fi
done

# thresholds print as Python's repr; integer features compare exactly in C
C=$TMP/chain
mkdir -p "$C"
python3 "$E/chain_tree.py" 3 >"$C/tree.tsv" 3>"$C/want.thr"
if emit_all Chain "$C/tree.tsv" "$C"; then
	grep -o '<= .*:$' "$C/_Chain.py" | sed 's/^<= //; s/:$//' >"$C/got.thr"
	test_cmp emit-float-repr "$C/want.thr" "$C/got.thr"
	if build_driver Chain "$C"; then
		python3 "$E/gen_contexts.py" 2000 9 $(cat "$C/want.thr" | awk '$1 > -1 && $1 < 1e9') >"$C/ctx.tsv"
		if why=$(same_rankings Chain "$C" "$C/_Chain.py" "$C/ctx.tsv"); then ok emit-c-vs-py-thresholds
		else fail emit-c-vs-py-thresholds "$why"; fi
	else fail emit-c-vs-py-thresholds "driver does not build: $(head -3 "$C/cc.err")"; fi
else
	fail emit-float-repr "emit failed: $(cat "$C"/err.* | head -2)"
fi

# a real feat TSV (featurize on the official A100 data), if available
FEAT=${FEAT:-}
if [ -z "$FEAT" ] && test_have_prereq DATASET,UNZIP && [ -x "$BIN/featurize" ]; then
	mkdir -p "$TMP/ds" && unzip -q -o -j "$MIRROR/a100_mm.zip" '*/a100_mm.txt' -d "$TMP/ds" 2>/dev/null &&
		"$BIN/featurize" -o "$TMP/ds/a100.feat.tsv" "$TMP/ds/a100_mm.txt" 2>/dev/null &&
		FEAT=$TMP/ds/a100.feat.tsv
fi
if [ -n "$FEAT" ] && [ -s "$FEAT" ]; then
	if why=$(same_rankings MMRankingTest "$D" "$D/_MMRankingTest.py" "$FEAT"); then ok emit-c-vs-py-feat
	else fail emit-c-vs-py-feat "$why"; fi
else
	test_skip_unless DATASET emit-c-vs-py-feat &&
		skip emit-c-vs-py-feat "no feat TSV (set FEAT=, or build $BIN/featurize)"
fi

# trees of the pipeline, when present (out/<gpu>/pruned.tsv)
for t in "$ROOT"/out/*/pruned.tsv; do
	[ -f "$t" ] || continue
	g=$(basename "$(dirname "$t")")
	P=$TMP/pruned-$g
	if emit_all MMRankingP "$t" "$P" && build_driver MMRankingP "$P" &&
		why=$(same_rankings MMRankingP "$P" "$P/_MMRankingP.py" "$TMP/ctx.tsv"); then
		ok emit-c-vs-py-pruned-$g
	else fail emit-c-vs-py-pruned-$g "${why:-emit or compile failed: $(cat "$P"/err.* "$P"/cc.err 2>/dev/null | head -2)}"; fi
	if [ -x "$P/rank_c" ] && why=$(default_everywhere MMRankingP "$P" "$t" "$TMP/ctx.tsv"); then
		ok emit-c-default-pruned-$g; else fail emit-c-default-pruned-$g "${why:-no driver}"; fi
done

# a filled tree (fit --leaf-fill all, check/t2130-leaffill.sh's fixture):
# lists longer than the node's labels, the same ranking in both twins
F=$TMP/filled
mkdir -p "$F"
if "$BIN/featurize" -o "$F/fill.feat.tsv" "$FIX/rerank/fill.txt" 2>/dev/null &&
	"$BIN/fit" "$F/fill.feat.tsv" --split none --grid "$FIX/rerank/grid_depth1.tsv" --leaf-rank greedy \
		--leaf-fill all --ranking 2 -o "$F/tree.tsv" --metrics "$F/m.tsv" >/dev/null 2>&1 &&
	emit_all MMRankingF "$F/tree.tsv" "$F" && build_driver MMRankingF "$F" &&
	why=$(same_rankings MMRankingF "$F" "$F/_MMRankingF.py" "$TMP/ctx.tsv") &&
	why=$(default_everywhere MMRankingF "$F" "$F/tree.tsv" "$TMP/ctx.tsv"); then
	ok emit-c-vs-py-filled
else fail emit-c-vs-py-filled "${why:-fit, emit or compile failed: $(cat "$F"/err.* "$F"/cc.err 2>/dev/null | head -2)}"; fi

# ---- PyTorch's shipped artifacts ----------------------------------------------
if [ -f "$REF/_MMRankingA100.py" ] && [ -f "$REF/_MMRankingH100.py" ]; then
	for g in A100 H100; do
		R=$TMP/ref$g
		mkdir -p "$R"
		if ! python3 "$E/import_artifact.py" "$REF/_MMRanking$g.py" >"$R/tree.tsv" 2>"$R/imp.err"; then
			fail emit-reference-$g "import failed: $(tail -1 "$R/imp.err")"; continue; fi
		if ! emit_all MMRanking$g "$R/tree.tsv" "$R"; then
			fail emit-reference-$g "emit failed: $(cat "$R"/err.* | head -2)"; continue; fi
		# the only differences allowed: our modern typing import (spec §6.1),
		# get_top_k appended, None for a tree without k, and
		# get_pick, the first entry for a tree without picks: the tail of
		# expected.py, whose tree has neither
		{ sed 's/^from typing import List, Optional, Tuple$/from typing import Optional/' "$REF/_MMRanking$g.py"
		  sed -n '/^    def get_top_k(/,$p' "$FE/expected.py" | sed '1i\
'; } >"$R/want.py"
		test_cmp emit-reference-py-$g "$R/want.py" "$R/_MMRanking$g.py"
		if ! build_driver MMRanking$g "$R"; then
			fail emit-reference-c-$g "driver does not build: $(head -3 "$R/cc.err")"; continue; fi
		for set in ctx huge; do
			if why=$(same_rankings MMRanking$g "$R" "$REF/_MMRanking$g.py" "$TMP/$set.tsv"); then
				ok emit-reference-c-vs-shipped-$g-$set
			else fail emit-reference-c-vs-shipped-$g-$set "$why"; fi
		done
		if why=$(default_everywhere MMRanking$g "$R" "$R/tree.tsv" "$TMP/ctx.tsv"); then
			ok emit-c-default-reference-$g; else fail emit-c-default-reference-$g "$why"; fi
		if [ -n "$FEAT" ] && [ -s "$FEAT" ]; then
			if why=$(same_rankings MMRanking$g "$R" "$REF/_MMRanking$g.py" "$FEAT"); then
				ok emit-reference-c-vs-shipped-$g-feat
			else fail emit-reference-c-vs-shipped-$g-feat "$why"; fi
		fi
	done
	# spec §6.3 worked test vectors: 4096^3 fp16 row-major
	head -2 "$FE/contexts.tsv" >"$TMP/wv.tsv"
	want_A100="0 37 63 35 185 65 64 57 66 165 78 55"
	want_H100="0 62 63 35 33 189 64 77 169 65 56 32 59 183 163"
	for g in A100 H100; do
		[ -x "$TMP/ref$g/rank_c" ] || continue
		got=$("$TMP/ref$g/rank_c" "$TMP/wv.tsv" | awk -F'\t' '{print $NF}' | tr ',' '\n' | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//')
		want=want_$g
		if [ "$got" = "${!want}" ]; then ok emit-worked-vector-$g
		else fail emit-worked-vector-$g "got '$got', spec §6.3 says '${!want}'"; fi
	done
	# both headers in one program, both objects linked
	if [ -f "$TMP/refA100/_MMRankingA100.c" ] && [ -f "$TMP/refH100/_MMRankingH100.c" ]; then
		cat >"$TMP/both.c" <<-'EOF'
		#include "_MMRankingA100.h"
		#include "_MMRankingH100.h"
		#include <stdio.h>
		int main(void)
		{
			ah_mm_context c = {4096, 4096, 4096, 4096, 1, 4096, 1,
			                   AH_MM_DTYPE_FLOAT16, AH_MM_DTYPE_FLOAT16, 1, 1, 0};
			ah_mm_ranked r[10];
			int a = MMRankingA100_rank(&c, r, 10), h = MMRankingH100_rank(&c, r, 10);
			int pa = MMRankingA100_check_precondition("mm", 166912, 8, 0);
			int ph = MMRankingH100_check_precondition("mm", 166912, 8, 0);
			printf("%d %d %d %d %d %s %d\n", a, h, r[1].choice, pa, ph,
			       MMRankingH100_get_choice(r[1].choice),
			       MMRankingA100_get_choice(MMRankingA100_N_CHOICES) == NULL);
			return 0;
		}
		EOF
		if $CC $C99 -I"$TMP/refA100" -I"$TMP/refH100" "$TMP/both.c" "$TMP/refA100/_MMRankingA100.c" \
			"$TMP/refH100/_MMRankingH100.c" -o "$TMP/both" 2>"$TMP/both.err"; then
			got=$("$TMP/both")
			want="12 15 62 1 0 type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=4 1"
			if [ "$got" = "$want" ]; then ok emit-two-heuristics
			else fail emit-two-heuristics "got '$got', want '$want'"; fi
		else
			fail emit-two-heuristics "does not build: $(head -3 "$TMP/both.err")"
		fi
	fi
else
	skip emit-reference "[REFERENCE] no _MMRankingA100.py and _MMRankingH100.py in $REF (set REFERENCE_DIR)"
fi

# ---- errors: non-zero exit, a message, no output left behind --------------------
expect_error emit-err-format "--format: expected" "$TMP/x.py" \
	"$BIN/emit" --heuristic-name X --format java -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-name "not an identifier" "$TMP/x.py" \
	"$BIN/emit" --heuristic-name 9x --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-usage "usage" "$TMP/x.py" "$BIN/emit" --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-template "cannot find template" "$TMP/x.py" \
	"$BIN/emit" --templates "$TMP/none" --heuristic-name X --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-m4 "m4" "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --m4 "$TMP/no-such-m4" --heuristic-name X --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-tree "cannot open|No such" "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format py -o "$TMP/x.py" "$TMP/missing.tsv"
# the one name rule (emittable.h): metadata name mm; NAME no m4 builtin, no
# template macro
sed '1s/"name": "mm"/"name": "pad_mm"/' "$FE/tree.tsv" >"$TMP/padmm.tsv"
expect_error emit-err-meta-name "metadata 'name': expected 'mm', found 'pad_mm'" "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format py -o "$TMP/x.py" "$TMP/padmm.tsv"
expect_error emit-err-name-m4 "'m4_changequote': an m4 name" "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --heuristic-name m4_changequote --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-name-macro "'MMR_TREE': a template macro name" "$TMP/x.c" \
	"$BIN/emit" --templates "$TPL" --heuristic-name MMR_TREE --format c -o "$TMP/x.c" "$FE/tree.tsv"
expect_error emit-err-name-builtin "'divert': a Python keyword, a name the artifact uses or an m4 builtin" "$TMP/x.h" \
	"$BIN/emit" --templates "$TPL" --heuristic-name divert --format h -o "$TMP/x.h" "$FE/tree.tsv"
# nothing is published that does not parse or compile: a template that
# writes broken code, or a checker that fails, leaves no output
mkdir -p "$TMP/badtpl"
cp "$TPL"/heuristic.*.m4 "$TMP/badtpl/"
printf 'def broken(:\n' >>"$TMP/badtpl/heuristic.py.m4"
printf 'int broken(;\n' >>"$TMP/badtpl/heuristic.h.m4"
expect_error emit-err-py-parse "the generated .py does not parse as Python.*nothing written" "$TMP/x.py" \
	"$BIN/emit" --templates "$TMP/badtpl" --heuristic-name X --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-h-compile "the generated .h does not compile.*nothing written" "$TMP/x.h" \
	"$BIN/emit" --templates "$TMP/badtpl" --heuristic-name X --format h -o "$TMP/x.h" "$FE/tree.tsv"
expect_error emit-err-c-compile "the generated .c does not compile.*nothing written" "$TMP/x.c" \
	"$BIN/emit" --templates "$TMP/badtpl" --heuristic-name X --format c -o "$TMP/x.c" "$FE/tree.tsv"
expect_error emit-err-python-tool "does not parse as Python \(false " "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --python false --heuristic-name X --format py -o "$TMP/x.py" "$FE/tree.tsv"
expect_error emit-err-cc-tool "does not compile \($TMP/no-cc .*exit status 127" "$TMP/x.c" \
	"$BIN/emit" --templates "$TPL" --cc "$TMP/no-cc" --heuristic-name X --format c -o "$TMP/x.c" "$FE/tree.tsv"
# the checkers may be commands of several words (CC="ccache gcc")
if CC="env ${CC:-cc}" "$BIN/emit" --templates "$TPL" --python "env python3" --heuristic-name X --format c \
	-o "$TMP/words.c" "$FE/tree.tsv" 2>"$TMP/words.err" && [ -s "$TMP/words.c" ]; then ok emit-check-tool-words
else fail emit-check-tool-words "$(head -c 200 "$TMP/words.err")"; fi
# the input's file name reaches the .h comment letters, digits, '.-_' only
mkdir -p "$TMP/fn"
cp "$FE/tree.tsv" "$TMP/fn/m4_esyscmd(>pwned4)"
if (cd "$TMP/fn" && "$BIN/emit" --templates "$TPL" --heuristic-name X --format h -o x.h 'm4_esyscmd(>pwned4)') 2>/dev/null &&
	[ ! -e "$TMP/fn/pwned4" ] && grep -q 'from m4_esyscmd__pwned4_\.  Do not edit' "$TMP/fn/x.h"; then
	ok emit-file-name-inert
else
	fail emit-file-name-inert "$(ls "$TMP/fn" | tr '\n' ' ')"
fi
# a categorical feature that is not mm's: the C types do not know it
sed '1s/"using_tf32"\]/"using_tf32", "layout"]/; s/^feature\t9\tusing_tf32_True$/feature\t9\tlayout_x/' \
	"$FE/tree.tsv" >"$TMP/layout.tsv"
sed -i 's/^node\t4\t8\t/node\t4\t9\t/' "$TMP/layout.tsv"
expect_error emit-err-c-feature "layout\.tsv:[0-9]+: feature 9 'layout_x': not an mm feature.*no C counterpart" "$TMP/x.c" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format c -o "$TMP/x.c" "$TMP/layout.tsv"
# ... nor does Inductor's context hold it: the .py is refused the same way
# (one feature rule for every format; it used to emit a dummy split on it)
expect_error emit-py-any-category "layout\.tsv:[0-9]+: feature 9 'layout_x': not an mm feature" "$TMP/layout.py" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format py -o "$TMP/layout.py" "$TMP/layout.tsv"
# a tree without an extern_mm class: the C table adds it as the last choice,
# every C list ends with it, the Python is untouched (still the same lists)
sed "s/^class\t0\textern_mm$/class\t0\tother_mm/" "$FE/tree.tsv" >"$TMP/noext.tsv"
N=$TMP/noext
if emit_all MMRankingN "$TMP/noext.tsv" "$N" && build_driver MMRankingN "$N" &&
	grep -q '^#define MMRankingN_N_CHOICES 6$' "$N/_MMRankingN.h" &&
	why=$(default_everywhere MMRankingN "$N" "$TMP/noext.tsv" "$FE/contexts.tsv") &&
	why=$(same_rankings MMRankingN "$N" "$N/_MMRankingN.py" "$FE/contexts.tsv"); then
	ok emit-c-default-added
else fail emit-c-default-added "${why:-emit, compile or N_CHOICES 6 failed}"; fi
# the check itself: a leaf table without the default is caught
if [ -f "$D/_MMRankingTest.c" ]; then
	M=$TMP/mut && mkdir -p "$M" && cp "$D"/_MMRankingTest.[ch] "$M"/ &&
		sed -i 's/^\t{0.400, 4}, {0.300, 1}, {0.300, 3}, {0.000, 0}$/\t{0.400, 4}, {0.300, 1}, {0.300, 3}, {0.000, 1}/' "$M/_MMRankingTest.c" &&
		build_driver MMRankingTest "$M"
	if ! default_everywhere MMRankingTest "$M" "$FE/tree.tsv" "$FE/contexts.tsv" >/dev/null; then
		ok emit-c-default-check-catches
	else fail emit-c-default-check-catches "a table without the default passed"; fi
fi
# a class name that cannot be quoted safely
sed "s/^class\t0\textern_mm$/class\t0\textern'mm/" "$FE/tree.tsv" >"$TMP/quote.tsv"
expect_error emit-err-quote "class 0 'extern'mm' cannot be emitted: contains a quote" "$TMP/x.py" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format py -o "$TMP/x.py" "$TMP/quote.tsv"
# ... nor a C trigraph (-std=c99 would turn "??=" into "#" inside the literal)
sed "s/^class\t0\textern_mm$/class\t0\textern??=mm/" "$FE/tree.tsv" >"$TMP/tri.tsv"
expect_error emit-err-trigraph "class 0 'extern\\?\\?=mm' cannot be emitted: contains '\\?\\?', a C trigraph" "$TMP/x.c" \
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format c -o "$TMP/x.c" "$TMP/tri.tsv"
# m4 words in a choice id are data, never expanded: the templates quote every
# data argument ([[...]]), so 'dnl', 'm4_dnl' and 'MMR_NAME' reach every
# artifact verbatim (emittable.h refuses what could not)
c2='type=triton_BLOCK-M=16=m4_dnl' c3='type=triton_BLOCK-M=32=MMR_NAME=dnl'   # class order kept
awk -F'\t' -v OFS='\t' -v c2="$c2" -v c3="$c3" '$1 == "class" && $2 == 2 {$3 = c2} $1 == "class" && $2 == 3 {$3 = c3} {print}' \
	"$FE/tree.tsv" >"$TMP/m4words.tsv"
m4ok=1
for fmt in py c; do
	"$BIN/emit" --templates "$TPL" --heuristic-name X --format $fmt -o "$TMP/m4w.$fmt" "$TMP/m4words.tsv" 2>"$TMP/m4w.err" || m4ok=0
	grep -qE "[\"']$c2[\"']" "$TMP/m4w.$fmt" && grep -qE "[\"']$c3[\"']" "$TMP/m4w.$fmt" || m4ok=0
done
[ $m4ok = 1 ] && ok emit-m4-words-verbatim || fail emit-m4-words-verbatim "'$c2' or '$c3' not emitted verbatim: $(head -c 200 "$TMP/m4w.err")"

# ---- the GPU an artifact carries (emit --gpu-facts FILE --gpu NAME) ----------
# The fixture tree is an A100's (166912, (8, 0)): --gpu a100 writes its row of
# datasets/GPUS.tsv as the class attribute gpu (.py) and two constants (.h),
# nothing else changes (the .c, the .dot, the rest of the .py); the row's
# shared memory and capability must be the tree's; the name and device-name
# pattern pass the GPU rules (nothing of the table becomes code); the .py
# reads back (mmrank.artifact.gpu_in) and imports to the same tree.
G=$TMP/gpu GT=$ROOT/datasets/GPUS.tsv
mkdir -p "$G/with" "$G/without"
if emit --heuristic-name MMRankingTest --gpu-facts "$GT" --gpu a100 --out-dir "$G/with" "$FE/tree.tsv" 2>"$G/err" &&
	emit --heuristic-name MMRankingTest --out-dir "$G/without" "$FE/tree.tsv" 2>>"$G/err"; then
	line='    gpu = {"name": "a100", "device_name": "A100", "shared_memory": 166912, "capability": (8, 0)}'
	if grep -qxF "$line" "$G/with/_MMRankingTest.py" && cmp -s "$G/without/_MMRankingTest.py" "$FE/expected.py" &&
		[ "$(diff "$G/without/_MMRankingTest.py" "$G/with/_MMRankingTest.py" | grep -c '^>')" = 5 ] &&
		[ "$(diff "$G/without/_MMRankingTest.py" "$G/with/_MMRankingTest.py" | grep -c '^<')" = 0 ]; then ok emit-gpu-py
	else fail emit-gpu-py "$(diff "$G/without/_MMRankingTest.py" "$G/with/_MMRankingTest.py" | head -6 | tr '\n' '|')"; fi
	if grep -qx '#define MMRankingTest_GPU "a100"' "$G/with/_MMRankingTest.h" &&
		grep -qx '#define MMRankingTest_GPU_DEVICE_NAME "A100"' "$G/with/_MMRankingTest.h" &&
		! grep -q '_GPU' "$G/without/_MMRankingTest.h" && cmp -s "$G/with/_MMRankingTest.c" "$G/without/_MMRankingTest.c" &&
		cmp -s "$G/with/MMRankingTest.dot" "$G/without/MMRankingTest.dot"; then ok emit-gpu-h
	else fail emit-gpu-h "$(grep '_GPU' "$G/with/_MMRankingTest.h" | head -3 | tr '\n' '|')"; fi
	got=$(python3 -c 'import sys; from mmrank import artifact as a
p = sys.argv[1]; print(a.gpu_in(a.read(p), p), a.gpu_in(a.read(sys.argv[2]), sys.argv[2]))' \
		"$G/with/_MMRankingTest.py" "$G/without/_MMRankingTest.py" 2>&1)
	[ "$got" = "{'name': 'a100', 'device_name': 'A100', 'shared_memory': 166912, 'capability': (8, 0)} None" ] &&
		ok emit-gpu-read-back || fail emit-gpu-read-back "$got"
	if "$BIN/import" -o "$G/with.tsv" "$G/with/_MMRankingTest.py" 2>"$G/imp.err" &&
		"$BIN/import" -o "$G/without.tsv" "$G/without/_MMRankingTest.py" 2>>"$G/imp.err" && cmp -s "$G/with.tsv" "$G/without.tsv"; then
		ok emit-gpu-import; else fail emit-gpu-import "$(head -c 300 "$G/imp.err")"; fi
else
	fail emit-gpu-py "$(head -c 300 "$G/err")"
fi
# refused, nothing written: another GPU's row, one flag alone, no such row,
# a bad name, a bad row (a quote or code in the device-name pattern, a bad
# number), the '*' row (no device name)
expect_error emit-gpu-other-device "tree.tsv:1: the tree's device \(shared_memory 166912, device_capa \(8, 0\)\) is not that of GPU 'h100' \(.*GPUS.tsv:3: shared_memory 232448, capability 9.0\)" \
	"$TMP/g.py" emit --heuristic-name X --gpu-facts "$GT" --gpu h100 --format py -o "$TMP/g.py" "$FE/tree.tsv"
expect_error emit-gpu-alone "--gpu-facts and --gpu go together" "$TMP/g.py" \
	emit --heuristic-name X --gpu a100 --format py -o "$TMP/g.py" "$FE/tree.tsv"
expect_error emit-gpu-no-row "--gpu 'l40s': no such row in .*GPUS.tsv \(its rows: a100 h100 h200 h100own h200nvrtc \*\)" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$GT" --gpu l40s --format py -o "$TMP/g.py" "$FE/tree.tsv"
expect_error emit-gpu-bad-name "--gpu 'A1\"00': not a GPU name" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$GT" --gpu 'A1"00' --format py -o "$TMP/g.py" "$FE/tree.tsv"
expect_error emit-gpu-star "--gpu '\*': not a GPU name" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$GT" --gpu '*' --format py -o "$TMP/g.py" "$FE/tree.tsv"
sed "2s|\tA100\t|\tA100\"+__import__('os').system('touch $G/pwned')+\"\t|" "$GT" >"$G/code.tsv"
expect_error emit-gpu-code-in-device-name "code.tsv:2: field 'device_name': .*not a device-name pattern" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$G/code.tsv" --gpu a100 --format py -o "$TMP/g.py" "$FE/tree.tsv"
[ ! -e "$G/pwned" ] && ok emit-gpu-no-code || fail emit-gpu-no-code "the table's text ran"
sed '2s/\t166912\t/\t16x912\t/' "$GT" >"$G/num.tsv"
expect_error emit-gpu-bad-number "num.tsv:2: field 'shared_memory': '16x912'" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$G/num.tsv" --gpu a100 --format py -o "$TMP/g.py" "$FE/tree.tsv"
sed '1s/\tdevice_name\t/\tdevice\t/' "$GT" >"$G/hdr.tsv"
expect_error emit-gpu-bad-header "hdr.tsv:1: no column 'device_name'" "$TMP/g.py" \
	emit --heuristic-name X --gpu-facts "$G/hdr.tsv" --gpu a100 --format py -o "$TMP/g.py" "$FE/tree.tsv"

finish
