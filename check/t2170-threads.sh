#!/usr/bin/env bash
# t2170-threads.sh — fit's thread pool and shared grid fits:
# 1. fit --threads 1, 2 and 3 write byte-identical trees, metrics, splits
#    and stdout (cross-validated search grid on a synthetic log; also on the
#    official H100 log, first 20000 rows, when the dataset mirror is there);
# 2. cart_fit_grid (models of one criterion and min_samples_leaf grown once
#    to the deepest, the others cut) gives every model the metrics it gets
#    when fitted alone, and the selected tree is that model's own tree;
# 3. --threads is checked, and THREADS reaches fit outside its stamp.
. check/lib.sh
[ -x "$BIN/fit" ] && [ -x "$BIN/featurize" ] || { fail threads "no $BIN/fit or featurize"; finish; }

# A synthetic log: 400 inputs (m, k, n, strides, two dtypes), 24 choices
# with times that depend on the shape, 2 repetitions each.
python3 - "$TMP/syn.txt" <<'EOF'
import json, random, sys
random.seed(20)
meta = {"shared_memory": 166912, "device_capa": [8, 0], "name": "mm",
        "numerical_features": ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"],
        "categorical_features": ["mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32"]}
with open(sys.argv[1], "w") as f:
    f.write(json.dumps(meta) + "\n")
    f.write("m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,"
            "mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback\n")
    for i in range(400):
        m, k, n = (random.choice([16, 64, 128, 512, 1024, 4096]) * random.randint(1, 3) for _ in range(3))
        dt = random.choice(["torch.float16", "torch.bfloat16"])
        feat = f"{m},{k},{n},{dt},{dt},{k},1,{n},1,True,True,not_float_32"
        for rep in range(2):
            for c in range(24):
                t = ((m * k * n) ** (0.3 + 0.01 * c) * (1 + 0.3 * ((m // 16 + 3 * c) % 7) + 0.2 * ((n // 64 + c) % 3))
                     * random.uniform(0.8, 1.2) * 1e-4)
                f.write(f"{feat},c{c:02d},{t!r}\n")
EOF
"$BIN/featurize" -o "$TMP/syn.feat.tsv" "$TMP/syn.txt" 2>/dev/null || fail threads-setup "featurize of the synthetic log failed"

# same_for_threads NAME FEAT ARGS...: --threads 1, 2, 3 give identical files
same_for_threads() {
	local name=$1 feat=$2; shift 2
	local t f d
	for t in 1 2 3; do
		d=$TMP/th$t; mkdir -p "$d"
		if ! "$BIN/fit" "$feat" "$@" --threads $t --write-split "$d/split.tsv" \
			-o "$d/tree.tsv" --metrics "$d/metrics.tsv" >"$d/stdout.txt" 2>"$d/stderr.txt"; then
			fail "$name" "fit --threads $t failed: $(tail -1 "$d/stderr.txt")"; return
		fi
	done
	for t in 2 3; do
		for f in tree.tsv metrics.tsv split.tsv stdout.txt; do
			cmp -s "$TMP/th1/$f" "$TMP/th$t/$f" || { fail "$name" "--threads 1 and $t: $f differs"; return; }
		done
	done
	# real values: a tree with splits, every model's metrics rows
	local nodes rows
	nodes=$(grep -c '^node' "$TMP/th1/tree.tsv"); rows=$(($(wc -l <"$TMP/th1/metrics.tsv") - 1))
	[ "$nodes" -ge 3 ] && [ "$rows" -ge "${MIN_ROWS:-2}" ] && ok "$name" ||
		fail "$name" "tree of $nodes nodes, $rows metrics rows"
}
MIN_ROWS=$((56 * 3)) same_for_threads threads-identical-synthetic "$TMP/syn.feat.tsv" \
	--split group --grid search --select hit --leaf-rank greedy --leaf-pad 10 --folds 3

MIRROR=$DATASET_DIR
if test_skip_unless DATASET threads-identical-h100; then
	"$BIN/featurize" --zip "$MIRROR/h100_mm.zip" -o "$TMP/h.feat.tsv" h100/h100_mm.txt 2>/dev/null &&
	MIN_ROWS=$((56 * 3)) same_for_threads threads-identical-h100 "$TMP/h.feat.tsv" --nrows 20000 \
		--split group --grid search --select hit --leaf-rank greedy --leaf-pad 10 --folds 5 ||
		fail threads-identical-h100 "featurize of $MIRROR/h100_mm.zip failed"
fi

# cart_fit_grid: a grid with depths 1..6 of two min_samples_leaf values and
# both criteria; each model alone must get the same metrics (all sets), and
# the selected model's tree must be its own.
printf 'max_depth\tmin_samples_leaf\tcriterion\n' >"$TMP/grid.tsv"
for c in gini entropy; do for l in 1 0.05; do for d in 6 3 1 5 2 4; do
	printf '%s\t%s\t%s\n' $d $l $c >>"$TMP/grid.tsv"
done; done; done
A=(--split group --select regret --folds 3 --ranking 2)
"$BIN/fit" "$TMP/syn.feat.tsv" "${A[@]}" --grid "$TMP/grid.tsv" -o "$TMP/g.tree" \
	--metrics "$TMP/g.m" >/dev/null 2>&1 || fail grid-setup "fit of the grid failed"
bad=0 n=0
while IFS=$'\t' read -r d l c; do
	[ "$d" = max_depth ] && continue
	printf '%s\t%s\t%s\n' "$d" "$l" "$c" >"$TMP/one.tsv"
	"$BIN/fit" "$TMP/syn.feat.tsv" "${A[@]}" --grid "$TMP/one.tsv" -o "$TMP/one.tree" \
		--metrics "$TMP/one.m" >/dev/null 2>&1 || { bad=1; break; }
	n=$((n + 1))
	# metrics rows of this model (columns after 'selected'), alone vs in the grid
	a=$(awk -F'\t' -v d="$d" -v l="$l" -v c="$c" '$2 == c && $3 == d && $4 == l {$5 = ""; print}' "$TMP/g.m")
	b=$(awk -F'\t' 'NR > 1 {$5 = ""; print}' "$TMP/one.m")
	[ -n "$a" ] && [ "$a" = "$b" ] || { bad=1; echo "model $d $l $c: grid '$a' vs alone '$b'" >&2; break; }
	# the grid's selected model: its tree is the one fitted alone
	if awk -F'\t' -v d="$d" -v l="$l" -v c="$c" '$2 == c && $3 == d && $4 == l && $5 == 1 {f = 1} END {exit !f}' "$TMP/g.m"; then
		cmp -s "$TMP/g.tree" "$TMP/one.tree" || { bad=1; echo "selected model $d $l $c: tree differs" >&2; break; }
		sel=1
	fi
done <"$TMP/grid.tsv"
[ $bad -eq 0 ] && [ $n -eq 24 ] && [ "${sel:-0}" = 1 ] && ok grid-cuts-equal-single-fits ||
	fail grid-cuts-equal-single-fits "$n of 24 models compared, selected found: ${sel:-0}"

# --threads is checked; THREADS reaches fit (make -n), not its stamp
expect_error threads-zero "--threads: expected an integer in \[1, " "$TMP/x.tree" \
	"$BIN/fit" "$TMP/syn.feat.tsv" --threads 0 -o "$TMP/x.tree" --metrics "$TMP/x.m"
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out")
if "${MK[@]}" -n fit GPU=h100 THREADS=7 2>/dev/null | sed -e :a -e '/\\$/N; s/\\\n//; ta' |
	grep -q -- "bin/fit .* --threads 7 " &&
   ! "${MK[@]}" -s fit-args GPU=h100 THREADS=7 | grep -q threads; then
	ok make-threads-to-fit
else
	fail make-threads-to-fit "make -n fit THREADS=7 has no 'fit ... --threads 7', or fit-args (the stamp's options) has it"
fi
"${MK[@]}" -n fit GPU=h100 THREADS=0 >/dev/null 2>"$TMP/mk.err" && fail make-threads-bad "exit 0" ||
	{ grep -q "THREADS='0': expected an integer in \[1, 1000000\]" "$TMP/mk.err" && ok make-threads-bad ||
	  fail make-threads-bad "$(head -c 200 "$TMP/mk.err")"; }
finish
