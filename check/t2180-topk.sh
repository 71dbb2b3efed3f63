#!/usr/bin/env bash
# t2180-topk.sh — a top-k sized by confidence (fit --topk-eps,
# stages/learn/gridcv.h gridcv_top_k; tree TSV's top_k field; eval --curve's
# auto row).
# Data (made here, awk): 60 inputs of one k and n.  m <= 240 (30 inputs):
# triton_a is fastest (1 ms), b, c, d 1.01 (near-best labels), e 1.5,
# extern_mm 2.  m >= 1024 (30 inputs): the winner cycles b, c, d (input
# i % 3), the other two of them 1.3x, e 1.01x (a label that never wins), a
# and extern_mm 2x.  One model (gini, depth 1), 3 folds, --ranking 4 (both
# leaves have 4 labels: no pruning), the greedy order.  Each held-out input
# is ranked by the fold's tree (split like this one), so a node's k is that
# of the lists its inputs meet: the small-m leaf needs k = 1 (a wins every
# held-out input), the large-m leaf k = 3 (b, c and d each win a third),
# the root k = 3 (its inputs meet those two leaves).
# Prerequisites: the stage binaries (make all), awk.
. check/lib.sh
gen() {
	awk 'BEGIN {
		print "{\"shared_memory\": 232448, \"device_capa\": [9, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
		print "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback"
		split("a b c d e", id, " ")
		for (i = 0; i < 60; i++) {
			big = i >= 30; m = big ? 1024 + 16 * i : 16 + 8 * i
			for (c = 0; c <= 5; c++) {
				if (c == 0) t = 2
				else if (!big) t = c == 1 ? 1 : c == 5 ? 1.5 : 1.01
				else if (c == 1) t = 2
				else if (c == 5) t = 1.01
				else t = (c - 2 == i % 3) ? 1 : 1.3
				printf "%d,512,512,torch.float16,torch.float16,512,1,512,1,True,True,not_float_32,%s,%g\n", m, (c == 0 ? "extern_mm" : "type=triton_" id[c]), t
			}
		}
	}'
}
gen >"$TMP/s.txt"
printf '1\t1\tgini\n' >"$TMP/grid.tsv"
"$BIN/featurize" -o "$TMP/s.feat.tsv" "$TMP/s.txt" 2>/dev/null || { fail topk-featurize "featurize failed"; finish; }
fit() { "$BIN/fit" "$TMP/s.feat.tsv" --split group --grid "$TMP/grid.tsv" --folds 3 --leaf-rank greedy \
	--ranking 4 --threads 1 --metrics "$TMP/m.tsv" "$@" >/dev/null 2>"$TMP/fit.err"; }
if fit --topk-eps 0.005 -o "$TMP/t.tsv"; then
	got=$(awk -F'\t' '$1 == "node" { printf "%s%s:%s", n++ ? " " : "", $2, $11 }' "$TMP/t.tsv")
	[ "$got" = "0:3 1:1 2:3" ] && ok topk-known-per-node-k || fail topk-known-per-node-k "node:top_k '$got', expected '0:3 1:1 2:3'"
	grep -qx $'param\ttopk_eps\t0.0050000000000000001' "$TMP/t.tsv" && ok topk-param || fail topk-param "$(grep param "$TMP/t.tsv" | tr '\n' '|')"
	# eps 0.1: the root's top-1 regret is <= 1.1 (half its inputs lose
	# nothing, the others at most 1.3x), the large-m leaf's top-2 is not (a
	# held-out fold's winners are those its training folds had fewest of, so
	# the second slot misses more than a third)
	fit --topk-eps 0.1 -o "$TMP/t2.tsv" &&
		got=$(awk -F'\t' '$1 == "node" { printf "%s%s", n++ ? " " : "", $11 }' "$TMP/t2.tsv") &&
		[ "$got" = "1 1 3" ] && ok topk-eps-larger || fail topk-eps-larger "'$got', expected '1 1 3'"
	# prune keeps it: k = 4 keeps the split (every field as fit wrote it), k = 5
	# prunes the two leaves (4 labels each) and keeps the root's k; a pruned tree
	# pruned again is the same file
	if "$BIN/prune" --ranking 4 -o "$TMP/p1.tsv" "$TMP/t.tsv" 2>/dev/null &&
		"$BIN/prune" --ranking 5 -o "$TMP/p2.tsv" "$TMP/t.tsv" 2>/dev/null &&
		"$BIN/prune" --ranking 5 -o "$TMP/p22.tsv" "$TMP/p2.tsv" 2>/dev/null; then
		test_cmp topk-prune-k4-keeps "$TMP/t.tsv" "$TMP/p1.tsv"
		got=$(awk -F'\t' '$1 == "node" { printf "%s%s:%s:%s", n++ ? " " : "", $2, $3, $11 }' "$TMP/p2.tsv")
		[ "$got" = "0:-1:3" ] && grep -q $'^param\ttopk_eps\t' "$TMP/p2.tsv" && ok topk-prune-k5 || fail topk-prune-k5 "'$got'"
		test_cmp topk-prune-idempotent "$TMP/p2.tsv" "$TMP/p22.tsv"
	else
		fail topk-prune "prune failed"
	fi
	# eval --curve: the auto row uses each leaf's k; a tree without per-node k is 10
	awk -F'\t' -v OFS='\t' '$1 == "param" && $2 == "topk_eps" { next } $1 == "node" { NF = 10 } 1' "$TMP/p1.tsv" >"$TMP/old.tsv"
	if "$BIN/eval" -o "$TMP/e.tsv" --curve "$TMP/c.tsv" --tree t="$TMP/p1.tsv" --tree old="$TMP/old.tsv" \
		S="$TMP/s.feat.tsv" >/dev/null 2>"$TMP/err"; then
		# auto: k = 1 on the 30 small-m inputs, 3 on the others: mean 2, every input hit
		awk -F'\t' '$1 == "t" && $3 == "auto" { ok = $9 == 2 && $6 == 1 && $5 == 1 } END { exit !ok }' "$TMP/c.tsv" &&
			ok topk-curve-auto || fail topk-curve-auto "$(grep auto "$TMP/c.tsv" | tr '\n' '|')"
		awk -F'\t' '$1 == "old" && $3 == "auto" { ok = $9 == 10 && $6 == 1 } END { exit !ok }' "$TMP/c.tsv" &&
			ok topk-curve-auto-without || fail topk-curve-auto-without "$(grep auto "$TMP/c.tsv" | tr '\n' '|')"
	else
		fail topk-curve "eval failed: $(head -1 "$TMP/err")"
	fi
	# old trees (no param topk_eps, 9 node fields) still read: prune writes them as they were
	"$BIN/prune" --ranking 4 -o "$TMP/o2.tsv" "$TMP/old.tsv" 2>/dev/null && test_cmp topk-old-tree-reads "$TMP/old.tsv" "$TMP/o2.tsv"
	# errors name file:line:field, no partial output
	sed '/^param\ttopk_eps/d' "$TMP/t.tsv" >"$TMP/b1.tsv"
	expect_error topk-err-field-without-param "b1.tsv:[0-9]+: 'node' record needs 9 fields, has 10" "$TMP/bad.tsv" \
		"$BIN/prune" --ranking 4 -o "$TMP/bad.tsv" "$TMP/b1.tsv"
	awk -F'\t' -v OFS='\t' '$1 == "node" && $2 == 1 { $11 = 0 } 1' "$TMP/t.tsv" >"$TMP/b2.tsv"
	expect_error topk-err-zero "b2.tsv:[0-9]+: field 'top_k': 0 out of range" "$TMP/bad.tsv" \
		"$BIN/prune" --ranking 4 -o "$TMP/bad.tsv" "$TMP/b2.tsv"
	# integers as the writer prints them: no leading zero, no -0
	awk -F'\t' -v OFS='\t' '$1 == "node" && $2 == 1 { $11 = "0" $11 } 1' "$TMP/t.tsv" >"$TMP/b4.tsv"
	expect_error topk-err-leading-zero "b4.tsv:[0-9]+: field 'top_k': not as the writer prints it \(a leading zero or -0\): '0[1-9]" "$TMP/bad.tsv" \
		"$BIN/prune" --ranking 4 -o "$TMP/bad.tsv" "$TMP/b4.tsv"
	awk -F'\t' -v OFS='\t' '$1 == "node" && $2 == 0 { $2 = "-0" } 1' "$TMP/t.tsv" >"$TMP/b5.tsv"
	expect_error topk-err-minus-zero "b5.tsv:[0-9]+: field 'id': not as the writer prints it \(a leading zero or -0\): '-0'" "$TMP/bad.tsv" \
		"$BIN/prune" --ranking 4 -o "$TMP/bad.tsv" "$TMP/b5.tsv"
	sed 's/^param\ttopk_eps\t.*/param\ttopk_eps\t2/' "$TMP/t.tsv" >"$TMP/b3.tsv"
	expect_error topk-err-eps "b3.tsv:[0-9]+: param 'topk_eps': expected a number in \(0, 1\)" "$TMP/bad.tsv" \
		"$BIN/prune" --ranking 4 -o "$TMP/bad.tsv" "$TMP/b3.tsv"
else
	fail topk-fit "fit failed: $(head -3 "$TMP/fit.err")"
fi
# The decode property (rank only what Inductor offers): 10 decode
# inputs (m 16..52, k 4096) where triton_x is not offered (not measured) and
# triton_y is fastest (extern_mm 1.1x), 30 prefill inputs (m >= 2048) won by
# x (y 2x, extern_mm 3x; extern_mm is near-best nowhere, so no class).
# --ranking 3 prunes the tree to its root (each child has fewer than 3
# labels): one list for both.  prefix puts x first (skipped where it is not
# offered, it costs the decode inputs nothing in its score): every decode
# input meets a head it is not offered.  The offered-aware rules
# (head-12, head-q0) put y first: none does.  The first entry alone is
# y for every decode input under all three (prefix's through the skip):
# regret 1.
gen_decode() {
	awk 'BEGIN {
		print "{\"shared_memory\": 232448, \"device_capa\": [9, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
		print "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback"
		for (i = 0; i < 40; i++) {
			dec = i < 10; m = dec ? 16 + 4 * i : 2048 + 64 * i
			row = m ",4096,4096,torch.float16,torch.float16,4096,1,4096,1,True,True,not_float_32,"
			print row "extern_mm," (dec ? 1.1 : 3)
			print row "type=triton_y," (dec ? 1 : 2)
			if (!dec) print row "type=triton_x,1"
		}
	}'
}
if command -v python3 >/dev/null; then
	gen_decode >"$TMP/d.txt"
	"$BIN/featurize" -o "$TMP/d.feat.tsv" "$TMP/d.txt" 2>/dev/null
	for r in prefix head-12 head-q0; do
		"$BIN/fit" "$TMP/d.feat.tsv" --split group --grid "$TMP/grid.tsv" --folds 2 --leaf-rank $r --ranking 3 \
			--threads 1 --metrics "$TMP/dm.tsv" -o "$TMP/d.$r.tree.tsv" >/dev/null 2>&1 &&
			"$BIN/prune" --ranking 3 -o "$TMP/d.$r.tsv" "$TMP/d.$r.tree.tsv" 2>/dev/null
	done
	if python3 perf/compare/decode.py --bin "$BIN" --m 8:96 --kmin 4096 prefix="$TMP/d.prefix.tsv" \
		offered="$TMP/d.head-12.tsv" head="$TMP/d.head-q0.tsv" "$TMP/d.feat.tsv" >"$TMP/dec.out" 2>&1; then
		awk '$1 == "prefix" { a = $2 == 10 && $5 == 10 && $4 == "1.000000" } $1 == "offered" { b = $5 == 0 && $4 == "1.000000" }
			$1 == "head" { c = $5 == 0 && $4 == "1.000000" } END { exit !(a && b && c) }' "$TMP/dec.out" &&
			ok topk-decode-head-offered || fail topk-decode-head-offered "$(tr '\n' '|' <"$TMP/dec.out")"
	else
		fail topk-decode-head-offered "decode.py failed: $(tail -1 "$TMP/dec.out")"
	fi
else
	skip topk-decode-head-offered "no python3 (perf/compare/decode.py)"
fi
expect_error topk-needs-folds "--topk-eps needs --folds" "$TMP/bad.tsv" \
	"$BIN/fit" "$TMP/s.feat.tsv" --split group --grid "$TMP/grid.tsv" --topk-eps 0.005 --metrics "$TMP/m2.tsv" -o "$TMP/bad.tsv"
finish
