#!/bin/bash
# test_oracle.sh — our CART (fit) against scikit-learn's DecisionTreeClassifier
# (spec §5.2 expansion, §5.4 fit) via check/sklearn_oracle.py: training
# accuracy within 0.5 pp, same root and second-level splits where not tied.
# Data: a synthetic 240-input log made here (deterministic awk), and the
# official H100 main log when ../shared/datasets/h100_mm.zip (or
# $DATASET_MIRROR) is present.  A tree with a corrupted root split must be
# reported as a disagreement (the oracle can fail).
. check/lib.sh
if ! python3 -c 'import sklearn, numpy' 2>"$TMP/err"; then
	skip oracle "scikit-learn not importable ($(tail -1 "$TMP/err")); pip install scikit-learn"
	finish
fi
[ -x "$BIN/fit" ] || { skip oracle "no $BIN/fit"; finish; }

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
awk 'BEGIN {
	print "{\"shared_memory\": 232448, \"device_capa\": [9, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
	print "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback"
	s = 12345
	for (i = 0; i < 240; i++) {
		s = (s * 69069 + 1) % 4294967296; m = 16 * (1 + s % 256)
		s = (s * 69069 + 1) % 4294967296; k = 16 * (1 + s % 128)
		s = (s * 69069 + 1) % 4294967296; n = 16 * (1 + s % 256)
		dt = (i % 3 == 0) ? "torch.float32" : "torch.float16"; tf = (i % 3 == 0) ? "False" : "not_float_32"
		for (c = 0; c < 6; c++) {
			s = (s * 69069 + 1) % 4294967296; noise = 1 + (s % 1000) / 20000
			t = (m * k * n / 1e9) * (1 + 0.3 * ((c + int(m / 512) + int(n / 1024)) % 6)) * noise + 0.01 * (c + 1)
			if (dt == "torch.float32") t *= 1 + 0.1 * c
			printf "%d,%d,%d,%s,%s,%d,1,%d,1,True,True,%s,%s,%.6g\n", m, k, n, dt, dt, k, n, tf, (c == 0 ? "extern_mm" : "type=triton_c" c), t
		}
	}
}' >"$TMP/syn.txt"
if "$BIN/featurize" -o "$TMP/syn.feat.tsv" "$TMP/syn.txt" 2>"$TMP/err"; then
	oracle_on syn "$TMP/syn.feat.tsv"
else
	fail oracle-syn "featurize failed: $(tail -1 "$TMP/err")"
fi

zip=
for d in "${DATASET_MIRROR:-}" "$ROOT/../shared/datasets"; do
	[ -n "$d" ] && [ -r "$d/h100_mm.zip" ] && { zip=$d/h100_mm.zip; break; }
done
if [ -z "$zip" ]; then
	skip oracle-h100 "no h100_mm.zip (set DATASET_MIRROR)"
elif unzip -q -o -j "$zip" '*h100_mm.txt' -d "$TMP/h100" 2>"$TMP/err" &&
     "$BIN/featurize" -o "$TMP/h100.feat.tsv" "$TMP/h100/h100_mm.txt" 2>"$TMP/err"; then
	oracle_on h100 "$TMP/h100.feat.tsv"
else
	fail oracle-h100 "unzip/featurize failed: $(tail -1 "$TMP/err")"
fi
finish
