#!/usr/bin/env bash
# make compare on the official H100 data, section (d): the
# reference learner vs ours, leakage-free.  Checks that (d) shows the three
# trees on heldout, train_timm and train_hf at k = 1, 5, 10; that its
# reference-learner tree is what fit trains with make's PROFILE=reference
# options (make fit-args) on (b)'s grouped split (one model, selected on val,
# no cross-validation), on the very inputs (b) holds out; that (d)'s 'ours'
# rows are (b)'s; that a HELDOUT log is scored in (c) too; and that make
# compare refuses (b) and (d) splits that hold out different inputs, leaving
# no compare.txt.
. check/lib.sh
test_require DATASET compare
MIRROR=$DATASET_DIR
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" GPU=h100 OUT="$TMP/out"
	BUILD="$BUILD" DATASET_MIRROR="$MIRROR")
O=$TMP/out/h100 C=$TMP/out/h100/compare
if ! "${MK[@]}" compare >"$TMP/make.log" 2>&1; then
	fail compare-make "$(tail -5 "$TMP/make.log" | tr '\n' '|')"; finish
fi
ok compare-make

# (d): a heading, a table header naming the three trees, then 3 sets x 3 k
sed -n '/^== (d) /,$p' "$O/compare.txt" | sed '/^   curve:/,$d' >"$TMP/d.txt"
if [ -s "$TMP/d.txt" ] && grep -q '^set .*shipped/ref/ours' "$TMP/d.txt"; then ok compare-d-section
else fail compare-d-section "no (d) table in compare.txt: $(grep '^==' "$O/compare.txt" | tr '\n' '|')"; fi
awk '$3 ~ /^[0-9]+$/ && $4 == "|" {print $1, $3}' "$TMP/d.txt" >"$TMP/d.rows"
printf '%s\n' "heldout 1" "heldout 5" "heldout 10" "train_timm 1" "train_timm 5" "train_timm 10" \
	"train_hf 1" "train_hf 5" "train_hf 10" >"$TMP/want.rows"
test_cmp compare-d-sets "$TMP/want.rows" "$TMP/d.rows"
# every (d) row has the three trees' hit rates and the diff (ref and ours: no '-')
bad=$(awk '$3 ~ /^[0-9]+$/ && $4 == "|" && (NF != 20 || $6 !~ /^[0-9.]+$/ || $7 !~ /^[0-9.]+$/ || $8 !~ /^[-+][0-9.]+$/)' \
	"$TMP/d.txt" | head -2)
[ -z "$bad" ] && ok compare-d-columns || fail compare-d-columns "$bad"
trees=$(awk -F'\t' 'NR > 1 && !s[$1]++ {printf "%s ", $1}' "$C/fair.tsv")
want="ref ours "
[ -r "${REFERENCE_DIR:-../shared/reference}/_MMRankingH100.py" ] && want="shipped ref ours "
nv=; stages/sh/nvmmh-dir.sh >/dev/null 2>&1 && nv="nvmmh "
[ "$trees" = "$want$nv" ] && ok compare-d-trees || fail compare-d-trees "fair.tsv trees '$trees', want '$want$nv'"
# (d)'s curve: after the table, one row per (set, tree): the
# inputs, then hit % and regret for the pick alone, the list head alone and k = 1, 2, 5, 10
sed -n '/^== (d) /,$p' "$O/compare.txt" | sed -n '/^   curve:/,$p' >"$TMP/dc.txt"
got=$(awk '$4 == "|" && NF == 21 && $5 ~ /^[0-9.]+$/ && $6 ~ /^1\.[0-9]+$/ {print $1, $2}' "$TMP/dc.txt" | tr '\n' ,)
rows=; for s in heldout train_timm train_hf; do for t in $want$nv; do rows+="$s $t,"; done; done
[ "$got" = "$rows" ] && ok compare-d-curve || fail compare-d-curve "rows '$got', want '$rows'"

# the reference learner: make fit-args PROFILE=reference, the rows split
# replaced by (b)'s grouped split; trained here by hand, it must be (d)'s tree
args=$("${MK[@]}" -s fit-args PROFILE=reference)
case $args in *"--split rows "*) ok compare-ref-profile ;;
*) fail compare-ref-profile "fit-args PROFILE=reference: $args" ;; esac
args=${args/--split rows /--split group --test-fraction 0.2 }
# shellcheck disable=SC2086  # word splitting of the option list is wanted
if "$BIN/fit" "$O/main.feat.tsv" --data train_timm "$O/train_timm.feat.tsv" --data train_hf "$O/train_hf.feat.tsv" \
	$args --write-split "$TMP/ref.split" -o "$TMP/ref.tree" --metrics "$TMP/ref.metrics" >/dev/null 2>"$TMP/fit.err"; then
	cmp -s "$TMP/ref.tree" "$C/refgroup/tree.tsv" && ok compare-d-ref-is-reference-profile ||
		fail compare-d-ref-is-reference-profile "$C/refgroup/tree.tsv is not fit $args's tree"
else fail compare-d-ref-is-reference-profile "fit: $(head -2 "$TMP/fit.err" | tr '\n' '|')"; fi
# one model (grid mm), no cross-validation; ours: the search grid, cross-validated
models() { awk -F'\t' 'NR > 1 {m[$2 " " $3 " " $4]; s[$1]} END {print length(m), ("cv" in s) ? "cv" : "nocv"}' "$1"; }
[ "$(models "$C/refgroup/metrics.tsv")" = "1 nocv" ] && [ "$(models "$C/group/metrics.tsv")" != "1 nocv" ] &&
	ok compare-d-ref-one-model || fail compare-d-ref-one-model "ref: $(models "$C/refgroup/metrics.tsv"), ours: $(models "$C/group/metrics.tsv")"
grep -q '^param	criterion	entropy$' "$C/refgroup/tree.tsv" && grep -q '^param	max_depth	5$' "$C/refgroup/tree.tsv" &&
	grep -q '^param	min_samples_leaf	0.01$' "$C/refgroup/tree.tsv" &&
	ok compare-d-ref-params || fail compare-d-ref-params "$(grep '^param' "$C/refgroup/tree.tsv" | tr '\n' ' ')"
cmp -s "$C/refgroup/pruned.tsv" "$C/group/pruned.tsv" && fail compare-d-trees-differ "ref and ours are the same tree" ||
	ok compare-d-trees-differ
# the same held-out inputs as (b), a fifth of the main inputs
tests() { awk -F'\t' '$2 == "test" {print $1}' "$1"; }
tests "$C/group/split.tsv" >"$TMP/b.test"
tests "$C/refgroup/split.tsv" >"$TMP/d.test"
test_cmp compare-d-same-heldout "$TMP/b.test" "$TMP/d.test"
n=$(wc -l <"$TMP/b.test") all=$(awk -F'\t' 'NR > 1 && $2 != "dropped"' "$C/group/split.tsv" | wc -l)
[ "$n" -gt 0 ] && [ $((5 * n)) -ge $((all - 5)) ] && [ $((5 * n)) -le $((all + 5)) ] &&
	ok compare-heldout-fifth || fail compare-heldout-fifth "$n of $all inputs held out"
# (d)'s ours rows are (b)'s (same tree, same sets, same eval)
awk -F'\t' '$1 == "ours"' "$C/group.tsv" >"$TMP/b.ours"
awk -F'\t' '$1 == "ours"' "$C/fair.tsv" >"$TMP/d.ours"
[ -s "$TMP/b.ours" ] && test_cmp compare-d-ours-is-b "$TMP/b.ours" "$TMP/d.ours" ||
	fail compare-d-ours-is-b "no ours rows in $C/group.tsv"

# perf/compare/paired.py: per-input hit/regret recomputed from eval --ranks
# agree with eval's own figures (it exits 1 otherwise), and a tree compared
# with itself differs by exactly nothing
if test_skip_unless PYTHON3 compare-paired; then
	r=$(python3 "$ROOT/perf/compare/paired.py" --bin "$BIN" --resamples 50 "$C/group/test.feat.tsv" \
		ref="$C/refgroup/pruned.tsv" ours="$C/group/pruned.tsv" 2>&1) &&
		grep -q 'hit rate   ref ' <<<"$r" && ok compare-paired-matches-eval || fail compare-paired-matches-eval "$r"
	r=$(python3 "$ROOT/perf/compare/paired.py" --bin "$BIN" --resamples 50 "$C/group/test.feat.tsv" \
		a="$C/group/pruned.tsv" b="$C/group/pruned.tsv" 2>&1) &&
		grep -q '+0.00 pp, 95 % CI \[+0.00, +0.00\]' <<<"$r" && grep -q 'b/a 1.0000000, 95 % CI \[1.0000000, 1.0000000\]' <<<"$r" \
		&& ok compare-paired-self || fail compare-paired-self "$r"
	# pooled sets (perf/compare/oof.sh): tree a = (d)'s ref on heldout and
	# (b)'s ours on train_hf; the pooled hit rate and regret geomean are the
	# input-weighted means of eval's per-set figures
	"$BIN/eval" --k 10 -o "$TMP/e1.tsv" --tree a="$C/refgroup/pruned.tsv" s="$C/group/test.feat.tsv" >/dev/null &&
	"$BIN/eval" --k 10 -o "$TMP/e2.tsv" --tree a="$C/group/pruned.tsv" s="$O/train_hf.feat.tsv" >/dev/null
	want=$(awk -F'\t' 'FNR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
		{n += $(c["inputs"]); h += $(c["inputs"]) * $(c["hit_rate"]); g += $(c["inputs"]) * log($(c["regret_gmean"]))}
		END {printf "%d inputs, k=10|a %.2f %%|a %.7f", n, 100 * h / n, exp(g / n)}' "$TMP/e1.tsv" "$TMP/e2.tsv")
	r=$(python3 "$ROOT/perf/compare/paired.py" --bin "$BIN" --resamples 50 "$C/group/test.feat.tsv,$O/train_hf.feat.tsv" \
		a="$C/refgroup/pruned.tsv,$C/group/pruned.tsv" b="$C/group/pruned.tsv" 2>&1)
	IFS='|' read -r w1 w2 w3 <<<"$want"
	grep -q "^2 sets pooled .*: $w1$" <<<"$r" && grep -q "hit rate   $w2 " <<<"$r" && grep -q "regret gm  $w3 " <<<"$r" &&
		ok compare-paired-pooled || fail compare-paired-pooled "want '$want', got: $(head -3 <<<"$r" | tr '\n' '|')"
	# perf/compare/oof.sh with 2 folds: each of the 322 main inputs held out
	# exactly once, ranked by shipped (if present), ref and ours
	if env -u MAKEFLAGS -u MAKELEVEL MAKEOUT="$TMP/out" BUILD="$BUILD" DATASET_MIRROR="$MIRROR" \
		"$ROOT/perf/compare/oof.sh" h100 2 "$TMP/oof" >"$TMP/oof.txt" 2>"$TMP/oof.err"; then
		n=$(grep -c '^2 sets pooled .*: 322 inputs, k=10$' "$TMP/oof.txt")
		want=1
		[ -r "${REFERENCE_DIR:-../shared/reference}/_MMRankingH100.py" ] && want=2
		t0=$(awk -F'\t' '$2 == "test"' "$TMP/oof/h100/fold0/ours.split.tsv" | wc -l)
		t1=$(awk -F'\t' '$2 == "test"' "$TMP/oof/h100/fold1/ours.split.tsv" | wc -l)
		[ "$n" = "$want" ] && [ $((t0 + t1)) = 322 ] && grep -q 'hit rate   ref ' "$TMP/oof.txt" &&
			ok compare-oof || fail compare-oof "$n pooled tables (want $want), test folds $t0 + $t1: $(head -c 300 "$TMP/oof.txt")"
	else fail compare-oof "$(tail -3 "$TMP/oof.err" | tr '\n' '|')"; fi
	# perf/compare/lmo.sh: two "models" made of train_hf's first inputs (x:
	# inputs 0-4, y: 5-9, a SHAPES file written from their features), each
	# held out of train_hf in turn: its test set is exactly its inputs, the
	# rest is every other input, and the pooled tables count 10 inputs
	awk -F'\t' 'NR == 2 { for (i = 1; i <= NF; i++) c[$i] = i
		print "m\tk\tn\tdtype\ttf32\tlayout\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\tsource" }
		NR > 2 && $(c["input"]) < 10 && !seen[$(c["input"])]++ {
		print $(c["m"]) "\t" $(c["k"]) "\t" $(c["n"]) "\t" $(c["mat1_dtype"]) "\t" ($(c["using_tf32"]) == "True") "\tnn\t" \
			$(c["mat1_stride_0"]) "\t" $(c["mat1_stride_1"]) "\t" $(c["mat2_stride_0"]) "\t" $(c["mat2_stride_1"]) "\t" \
			($(c["input"]) < 5 ? "x" : "y") ".layer" }' "$O/train_hf.feat.tsv" >"$TMP/lmo_shapes.tsv"
	nin() { awk -F'\t' 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "input") c = i } NR > 2 { s[$c] } END { print length(s) }' "$1"; }
	if env -u MAKEFLAGS -u MAKELEVEL MAKEOUT="$TMP/out" BUILD="$BUILD" DATASET_MIRROR="$MIRROR" SET=train_hf \
		SHAPES="$TMP/lmo_shapes.tsv" "$ROOT/perf/compare/lmo.sh" h100 "$TMP/lmo" >"$TMP/lmo.txt" 2>"$TMP/lmo.err"; then
		L=$TMP/lmo/h100 all=$(nin "$O/train_hf.feat.tsv")
		got="$(nin "$L/x/test.feat.tsv") $(nin "$L/y/test.feat.tsv") $(($(nin "$L/x/rest.feat.tsv") + 5 - all)) $(grep -c '^2 sets pooled .*: 10 inputs, k=10$' "$TMP/lmo.txt")"
		want="5 5 0 $([ -r "${REFERENCE_DIR:-../shared/reference}/_MMRankingH100.py" ] && echo 2 || echo 1)"
		[ "$got" = "$want" ] && grep -q '^# 2 models held out, one at a time (inputs each: x=5 y=5 )' "$TMP/lmo.txt" &&
			ok compare-lmo || fail compare-lmo "test x, test y, rest x - (all - 5), pooled tables: got '$got', want '$want': $(head -c 300 "$TMP/lmo.txt")"
	else fail compare-lmo "$(tail -3 "$TMP/lmo.err" | tr '\n' '|')"; fi
	expect_error compare-lmo-no-set "no extra set 'nope' for h100" "$TMP/lmo_nope" env -u MAKEFLAGS -u MAKELEVEL \
		MAKEOUT="$TMP/out" BUILD="$BUILD" DATASET_MIRROR="$MIRROR" SET=nope "$ROOT/perf/compare/lmo.sh" h100 "$TMP/lmo_nope"
fi

# HELDOUT logs: scored in (c) too, where the tree of make heuristic (gen/'s)
# meets shipped on them: 3 table rows and a curve row per tree (the pick
# alone, the list head alone, k = 1 ..)
unzip -p "$MIRROR/h100_mm.zip" h100/h100_mm.txt | head -200 >"$TMP/probe.txt"
if "${MK[@]}" compare HELDOUT="$TMP/probe.txt" >"$TMP/make3.log" 2>&1; then
	sed -n '/^== (c) /,/^== (d) /p' "$O/compare.txt" >"$TMP/c.txt"
	rows=$(awk '$1 == "probe" && $2 ~ /^[0-9]+$/ && $4 == "|" {printf "%s ", $3}' "$TMP/c.txt")
	curve=$(awk '$1 == "probe" && $2 !~ /^[0-9]+$/ {printf "%s ", $2}' "$TMP/c.txt")
	want="ours "
	[ -r "${REFERENCE_DIR:-../shared/reference}/_MMRankingH100.py" ] && want="shipped ours "
	stages/sh/nvmmh-dir.sh >/dev/null 2>&1 && want="${want}nvmmh "
	[ "$rows" = "1 5 10 " ] && [ "$curve" = "$want" ] && grep -q 'neither on the HELDOUT logs' "$TMP/c.txt" &&
		ok compare-c-heldout || fail compare-c-heldout "rows '$rows' curve '$curve': $(head -c 400 "$TMP/c.txt" | tr '\n' '|')"
else fail compare-c-heldout "$(tail -3 "$TMP/make3.log" | tr '\n' '|')"; fi

# (b) and (d) holding out different inputs: refused, no compare.txt
awk -F'\t' 'BEGIN {OFS = "\t"} $2 == "test" && !done {$2 = "train"; done = 1} {print}' \
	"$C/refgroup/split.tsv" >"$TMP/split" && cp "$TMP/split" "$C/refgroup/split.tsv"
touch "$C/refgroup/pruned.tsv"
rm -f "$O/compare.txt"
if "${MK[@]}" compare >"$TMP/make2.log" 2>&1; then fail compare-split-mismatch "make compare: exit status 0"
elif ! grep -q 'hold out different inputs' "$TMP/make2.log"; then
	fail compare-split-mismatch "$(tail -3 "$TMP/make2.log" | tr '\n' '|')"
elif [ -e "$O/compare.txt" ] || [ -e "$O/compare.txt.part" ]; then
	fail compare-split-mismatch "compare.txt left behind"
else ok compare-split-mismatch; fi
finish
