#!/bin/bash
# t2190-oracle.sh — our CART (fit) against scikit-learn's DecisionTreeClassifier
# (spec §5.2 expansion, §5.4 fit) via check/sklearn_oracle.py: training
# accuracy within 0.5 pp, same root and second-level splits where not tied.
# Data: a synthetic 240-input log made here (deterministic awk), and the
# official H100 main log when ../shared/datasets/h100_mm.zip (or
# $DATASET_MIRROR) is present.  A tree with a corrupted root split must be
# reported as a disagreement (the oracle can fail).
. check/lib.sh
test_require SKLEARN oracle
test_have_bins oracle fit || finish

oracle_on() { # NAME FEAT
	local name=$1 feat=$2
	if ! "$BIN/fit" "$feat" --split none -o "$TMP/$name.tree.tsv" --metrics "$TMP/$name.m.tsv" >/dev/null 2>"$TMP/err"; then
		fail "oracle-$name" "fit failed: $(tail -1 "$TMP/err")"; return; fi
	python3 check/sklearn_oracle.py --feat "$feat" --tree "$TMP/$name.tree.tsv" >"$TMP/$name.out" 2>&1
	local rc=$?
	sed "s/^\(ok\|FAIL\|skip\) oracle-/\1 oracle-$name-/" "$TMP/$name.out"
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "oracle-$name" "oracle error: $(tail -1 "$TMP/$name.out")"
	# a corrupted root (other feature, same threshold) must be caught
	awk -F'\t' -v OFS='\t' '$1=="node" && $2==0 {$3 = ($3 == 0 ? 1 : 0)} {print}' \
		"$TMP/$name.tree.tsv" >"$TMP/$name.bad.tsv"
	if python3 check/sklearn_oracle.py --feat "$feat" --tree "$TMP/$name.bad.tsv" 2>&1 | grep -q '^FAIL oracle-root'; then
		ok "oracle-$name-detects"
	else
		fail "oracle-$name-detects" "a corrupted root split was not reported"
	fi
}

# synthetic: 240 inputs (m, k, n from a LCG), 6 choices whose times depend on
# the shape, so the best choice is learnable; some near-ties (<2 %)
awk -v seed=12345 -v inputs=240 -v choices=6 -f check/synth_mm.awk >"$TMP/syn.txt"
if "$BIN/featurize" -o "$TMP/syn.feat.tsv" "$TMP/syn.txt" 2>"$TMP/err"; then
	oracle_on syn "$TMP/syn.feat.tsv"
else
	fail oracle-syn "featurize failed: $(tail -1 "$TMP/err")"
fi

zip=$DATASET_DIR/h100_mm.zip
if ! test_skip_unless DATASET,UNZIP oracle-h100; then
	:
elif unzip -q -o -j "$zip" '*h100_mm.txt' -d "$TMP/h100" 2>"$TMP/err" &&
     "$BIN/featurize" -o "$TMP/h100.feat.tsv" "$TMP/h100/h100_mm.txt" 2>"$TMP/err"; then
	oracle_on h100 "$TMP/h100.feat.tsv"
else
	fail oracle-h100 "unzip/featurize failed: $(tail -1 "$TMP/err")"
fi
finish
