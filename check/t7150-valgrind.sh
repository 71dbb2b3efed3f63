#!/usr/bin/env bash
# check/t7150-valgrind.sh — memcheck the CPU pipeline with the normal build:
# merge -> featurize -> fit -> prune -> emit (py, c, h, dot), whichever exist,
# on a small synthetic log (48 shapes x 6 choices x 2 measurements, made
# here), plus three error paths (bad log, bad feat TSV, cyclic tree).  Every
# run is under `valgrind --error-exitcode=99 --leak-check=full`: any memory
# error, or on a successful run any definite/possible leak, fails.  Uses build/bin whatever
# BIN is, because valgrind cannot run ASan binaries, and always runs `make all` for it first
# (quick when up to date), so it never tests stale binaries or skips a stage that
# was not built before.  Skipped without valgrind.
. check/lib.sh
test_require VALGRIND valgrind
VB=$ROOT/build/bin
env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD=build all \
	>/dev/null 2>"$TMP/make.err" ||
	{ fail valgrind-build "make all failed: $(tail -3 "$TMP/make.err")"; finish; }
# every stage below must exist now: a missing one is a failure, not a skip
for s in merge featurize fit prune emit; do
	[ -x "$VB/$s" ] || { fail valgrind-build "make all did not build $VB/$s"; finish; }
done
VG=(valgrind -q --error-exitcode=99 --leak-check=full --track-origins=yes)

# vg NAME WANT CMD... — run CMD under valgrind; it must exit WANT and
# valgrind must report nothing.  On an error exit (WANT != 0) leaks are not
# counted: die() exits without freeing, by design (util.h), so buffers of
# the dying function show as lost; memory errors still fail.
vg() {
	local name=$1 want=$2; shift 2
	local leaks=()
	[ "$want" -eq 0 ] || leaks=(--errors-for-leak-kinds=none --show-leak-kinds=none)
	"${VG[@]}" "${leaks[@]}" "$@" >"$TMP/vg.out" 2>"$TMP/vg.err"
	local rc=$?
	if [ $rc -eq 99 ] || grep -q '^==[0-9]*==' "$TMP/vg.err"; then
		fail "valgrind-$name" "$(grep '^==' "$TMP/vg.err" | head -8 | tr '\n' '|')"; return 1
	elif [ $rc -ne "$want" ]; then
		fail "valgrind-$name" "exit status $rc, expected $want: $(head -c 300 "$TMP/vg.err")"; return 1
	fi
	ok "valgrind-$name"
}

# A log whose best choice depends on the shape, so that fit grows a tree.
awk 'BEGIN {
	print "{\"shared_memory\": 232448, \"device_capa\": [9, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
	print "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback"
	split("torch.float16 torch.bfloat16 torch.float32", dt, " ")
	for (rep = 0; rep < 2; rep++)
	for (s = 0; s < 48; s++) {
		m = 2 ^ (4 + s % 6); k = 2 ^ (5 + int(s / 6) % 4); n = 2 ^ (4 + s % 5); d = dt[s % 3 + 1]
		tf = d == "torch.float32" ? (s % 2 ? "True" : "False") : "not_float_32"
		for (c = 0; c < 6; c++) {
			t = (m * k * n) / 1e6 * (1 + ((c * 7 + s) % 6) / 10) + 0.01 * (rep + 1)
			ch = c == 0 ? "extern_mm" : sprintf("type=triton_BLOCK-M=%d_BLOCK-K=32_BLOCK-N=%d_numstages=%d_numwarps=4", 16 * c, 32, c % 3 + 2)
			printf "%d,%d,%d,%s,%s,%d,1,%d,1,True,True,%s,%s,%s\n", m, k, n, d, d, k, n, tf, ch, (s + c) % 17 == 0 ? "inf" : t
		}
	}
}' > "$TMP/log.txt"
# the same log in two shards for merge (576 rows: 288 + 288)
head -2 "$TMP/log.txt" > "$TMP/part1.txt"; sed -n '3,290p' "$TMP/log.txt" >> "$TMP/part1.txt"
head -2 "$TMP/log.txt" > "$TMP/part2.txt"; tail -n +291 "$TMP/log.txt" >> "$TMP/part2.txt"

W=$TMP/w
mkdir -p "$W"
vg merge 0 "$VB/merge" "$W/merged.txt" "$TMP/part1.txt" "$TMP/part2.txt" &&
	test_cmp valgrind-merge-output "$TMP/log.txt" "$W/merged.txt"
vg featurize 0 "$VB/featurize" -o "$W/main.feat.tsv" "$TMP/log.txt"
vg featurize-categories 0 "$VB/featurize" --categories "$W/main.feat.tsv" -o "$W/extra.feat.tsv" "$TMP/part2.txt"
[ -s "$W/main.feat.tsv" ] &&
	vg fit 0 "$VB/fit" "$W/main.feat.tsv" --data train_timm "$W/extra.feat.tsv" --split none \
		--grid reference -o "$W/tree.tsv" --metrics "$W/metrics.tsv" --save-dot "$W/fit.dot"
if [ -s "$W/tree.tsv" ]; then
	vg prune 0 "$VB/prune" --ranking 3 -o "$W/pruned.tsv" "$W/tree.tsv"
	nodes=$(grep -c '^node' "$W/tree.tsv")
	[ "$nodes" -ge 3 ] && ok "valgrind-tree-size ($nodes nodes)" || fail valgrind-tree-size "only $nodes nodes: the fixture is too easy"
fi
if [ -s "$W/pruned.tsv" ]; then
	for fmt in py c h dot; do
		vg "emit-$fmt" 0 "$VB/emit" --heuristic-name MMRankingVG --format "$fmt" \
			--templates "$ROOT/templates" -o "$W/out.$fmt" "$W/pruned.tsv"
	done
fi
# error paths: die() must not trip memcheck either
vg featurize-error 1 "$VB/featurize" -o "$W/bad.tsv" "$ROOT/check/corpus/row-short.log"
vg fit-error 1 "$VB/fit" "$ROOT/check/corpus/feat-two-winners.feat.tsv" -o "$W/bad.tsv" --metrics "$W/bad.m"
vg prune-error 1 "$VB/prune" --ranking 3 -o "$W/bad.tsv" "$ROOT/check/corpus/tree-cycle.tree.tsv"
finish
