#!/bin/bash
# t1180-import.sh — stage `import`: PyTorch ranking artifact -> tree TSV
# (spec §6.1 layout, §6.3 shipped artifacts and worked vectors, §4.4 dummies).
#   tiny.py          hand-written artifact in the generator's layout: a numeric
#                    split (m*n), a dummy split (using_tf32 != 'False'), a leaf
#                    with printed ties out of index order, `return None`, a
#                    leaf with printed values summing to 1.001
#   tiny.expect.tsv  expected tree TSV (byte exact)
#   vec4096.txt      log with m=k=n=4096 fp16 (using_tf32 = not_float_32) and
#                    fp32 with using_tf32 = False, for spec §6.3's vectors
# The shipped artifacts are read from ../shared/reference/ (skipped if absent).
. check/lib.sh
F=$FIX/import
REF=$REFERENCE_DIR

"$BIN/import" --help | grep -q '^usage: import' && ok import-help || fail import-help "--help lacks the synopsis"

# --- tiny artifact ---------------------------------------------------------
if "$BIN/import" -o "$TMP/tiny.tsv" "$F/tiny.py" 2>"$TMP/err"; then
	test_cmp import-tiny "$F/tiny.expect.tsv" "$TMP/tiny.tsv"
	# semantic checks independent of the byte layout
	awk -F'\t' '$1=="node" && $2==1 {exit !($3==11 && $4==0.5)}' "$TMP/tiny.tsv" &&
	grep -qx $'feature\t11\tusing_tf32_False' "$TMP/tiny.tsv" &&
		ok import-tiny-dummy || fail import-tiny-dummy "dummy split not feature using_tf32_False <= 0.5"
	# leaf 2 printed (0.250, 1) before (0.250, 0): class 1 must rank above 0;
	# every leaf's probabilities sum to 1 and print (%.3f) as in the file
	awk -F'\t' '$1=="node" && $2==2 {split($10,a,","); for(i in a){split(a[i],b,":"); p[b[1]]=b[2]; s+=b[2]}
		if (!(p[1]>p[0] && p[2]>p[1])) {print "order"; exit 1}
		if (sprintf("%.3f %.3f %.3f",p[0],p[1],p[2]) != "0.250 0.250 0.500") {print "print"; exit 1}
		if (s<1-1e-9 || s>1+1e-9) {print "sum " s; exit 1}}' "$TMP/tiny.tsv" >"$TMP/why" &&
		ok import-tiny-ties || fail import-tiny-ties "leaf 2: $(cat "$TMP/why")"
	awk -F'\t' '$1=="node" && $2==4 {split($10,a,","); for(i in a){split(a[i],b,":"); p[b[1]]=b[2]; s+=b[2]}
		if (sprintf("%.3f %.3f %.3f",p[0],p[1],p[2]) != "0.333 0.667 0.001") {print "print"; exit 1}
		if (s<1-1e-9 || s>1+1e-9) {print "sum " s; exit 1}}' "$TMP/tiny.tsv" >"$TMP/why" &&
		ok import-tiny-residual || fail import-tiny-residual "leaf 4: $(cat "$TMP/why")"
	# return None -> leaf without probabilities
	awk -F'\t' '$1=="node" && $2==3 {exit !($3==-1 && $10=="")}' "$TMP/tiny.tsv" &&
		ok import-tiny-none || fail import-tiny-none "return None is not an empty leaf"
	# round trip through emit reproduces the file byte for byte
	if [ -x "$BIN/emit" ]; then
		if "$BIN/emit" --heuristic-name MMRankingTiny --format py -o "$TMP/tiny_rt.py" "$TMP/tiny.tsv" 2>"$TMP/err"; then
			test_cmp import-tiny-roundtrip "$F/tiny.py" "$TMP/tiny_rt.py"
		else fail import-tiny-roundtrip "emit failed: $(head -1 "$TMP/err")"; fi
	else skip import-tiny-roundtrip "no $BIN/emit"; fi
else
	fail import-tiny "exit non-zero: $(head -1 "$TMP/err")"
fi

# --- errors name file:line, leave no output -----------------------------------
bad() { # NAME SED-SCRIPT PATTERN
	sed "$2" "$F/tiny.py" >"$TMP/bad.py"
	expect_error "import-err-$1" "$3" "$TMP/bad.tsv" "$BIN/import" -o "$TMP/bad.tsv" "$TMP/bad.py"
}
bad eq-test     "s/!= 'False'/== 'False'/"              "bad\.py:48: expected \"str\(context.get_value\('using_tf32'\)\) != "
bad index-range "s/(0.001, 2)/(0.001, 3)/"              "bad\.py:53: choice index 3 out of range"
bad unsorted    "s/(0.333, 0), (0.001, 2)/(0.001, 0), (0.333, 2)/" "bad\.py:53: .*not sorted"
bad no-else     "51d"                                    "bad\.py:50: 'else:' without a body"
bad feature     "s/'m\*n'/'q'/"                          "bad\.py:47: unknown numeric feature 'q'"
bad name        "s/return 'mm'/return 'pad_mm'/"         "bad\.py:44: .*only 'mm'"
bad class-order "s/append('type=a')/append('type=z')/"   "bad\.py:41: choice 'type=b' is not after 'type=z'"
bad dup-choice  "s/(0.001, 2)/(0.001, 1)/"               "bad\.py:53: choice 1 listed twice"
bad threshold   "s/<= 1024.5:/<= 1024.5x:/"              "bad\.py:47: threshold: not a finite number"
# the one name rule and the device: what emit could not write
# back, or no compute capability, is refused where it is read
bad class-m4    "s/^class MMRankingTiny(/class m4_dnl(/"  "bad\.py:17: class name 'm4_dnl': an m4 name"
bad class-macro "s/^class MMRankingTiny(/class MMR_TREE(/" "bad\.py:17: class name 'MMR_TREE': a template macro name"
bad class-ident "s/^class MMRankingTiny(/class 9x(/"      "bad\.py:17: class name '9x': not an identifier"
bad capa-minor-neg "s/(8, 0)/(9, -1)/"                    "bad\.py:27: device_capa \(9, -1\): expected a compute capability"
bad capa-minor-big "s/(8, 0)/(9, 999)/"                   "bad\.py:27: device_capa \(9, 999\): expected a compute capability"
bad capa-major  "s/(8, 0)/(0, 0)/"                        "bad\.py:27: device_capa \(0, 0\)"
bad choice-m4   "s/append('type=b')/append('type=b[m4_dnl]')/" "bad\.py:41: choice 'type=b\[m4_dnl\]' cannot be emitted"
expect_error import-err-missing "no such file|cannot|No such" "$TMP/bad.tsv" "$BIN/import" -o "$TMP/bad.tsv" "$TMP/nonexistent.py"

# --- the shipped artifacts (spec §6.3) --------------------------------------
# leaves internal classes, worked-vector prefix for the fp16 input
check_shipped() { # GPU LEAVES INTERNAL CLASSES VECTOR
	local g=$1 art="$REF/_MMRanking$1.py"
	if [ ! -r "$art" ]; then skip "import-$g" "[REFERENCE] no $art (set REFERENCE_DIR)"; return; fi
	if ! "$BIN/import" -o "$TMP/$g.tsv" "$art" 2>"$TMP/err"; then
		fail "import-$g" "exit non-zero: $(head -1 "$TMP/err")"; return; fi
	local got
	got=$(awk -F'\t' '$1=="node"{if($3<0)l++; else i++} $1=="class"{c++} END{print l, i, c}' "$TMP/$g.tsv")
	[ "$got" = "$2 $3 $4" ] && ok "import-$g-counts" || fail "import-$g-counts" "leaves internal classes = $got, want $2 $3 $4"
	head -1 "$TMP/$g.tsv" | grep -q "\"shared_memory\": $6, \"device_capa\": \[$7\], \"name\": \"mm\"" &&
		ok "import-$g-meta" || fail "import-$g-meta" "$(head -1 "$TMP/$g.tsv" | cut -c1-80)"
	# worked vector through the imported tree (eval --ranks); the vector is
	# H100/H200 metadata: the A100 tree ranks it on purpose (--cross-device)
	local cross=()
	[ "$6" = 232448 ] || cross=(--cross-device)
	if "$BIN/featurize" -o "$TMP/vec.feat.tsv" "$F/vec4096.txt" 2>"$TMP/err" &&
	   "$BIN/eval" "${cross[@]}" --ranks "$TMP/$g.ranks" "$TMP/$g.tsv" "$TMP/vec.feat.tsv" >/dev/null 2>"$TMP/err"; then
		local n r
		n=$(echo "$5" | tr ',' '\n' | wc -l)
		r=$(awk -F'\t' '$3==0{print $6}' "$TMP/$g.ranks" | cut -d, -f1-"$n")
		[ "$r" = "$5" ] && ok "import-$g-vector" || fail "import-$g-vector" "4096^3 fp16 ranks $r, want $5"
		echo "$8" >"$TMP/want"; awk -F'\t' '$3==1{print $4 " " $6}' "$TMP/$g.ranks" | cut -d, -f1-3 >"$TMP/got"
		test_cmp "import-$g-vector-fp32" "$TMP/want" "$TMP/got"
	else
		fail "import-$g-vector" "featurize/eval failed: $(head -1 "$TMP/err")"
	fi
	# round trip: emit reproduces the artifact except the typing import line
	# and what it appends: get_top_k (None for this tree) and
	# get_pick (the first entry: an imported tree has no picks), as
	# check/fixtures/emit/expected.py ends
	if [ -x "$BIN/emit" ]; then
		if "$BIN/emit" --heuristic-name "MMRanking$g" --format py -o "$TMP/rt.py" "$TMP/$g.tsv" 2>"$TMP/err"; then
			sed -n '/^    def get_top_k(/,$p' "$FIX/emit/expected.py" >"$TMP/tail.want"
			sed -n '/^    def get_top_k(/,$p' "$TMP/rt.py" | cmp -s - "$TMP/tail.want" ||
				fail "import-$g-roundtrip-top-k" "$(tail -3 "$TMP/rt.py" | tr '\n' '|')"
			head -n -$(($(wc -l <"$TMP/tail.want") + 1)) "$TMP/rt.py" | diff "$art" - >"$TMP/diff"
			[ "$(grep -c '^[<>]' "$TMP/diff")" -le 2 ] && ! grep -q '^[<>].*return\|^[<>].*append\|^[<>].*if ' "$TMP/diff" &&
				ok "import-$g-roundtrip" || fail "import-$g-roundtrip" "$(head -4 "$TMP/diff" | tr '\n' '|')"
		else fail "import-$g-roundtrip" "emit failed: $(head -1 "$TMP/err")"; fi
	else skip "import-$g-roundtrip" "no $BIN/emit"; fi
}
# fp32 / using_tf32 False input: A100 goes N1 false -> N14 else -> A19 (last
# node, id 36), list head (0.357, 0), (0.112, 165), (0.101, 57); H100 has no
# categorical split: N1 false -> N16 false -> N23 false -> N24 false -> N25
# false -> H26 (node 50), the same leaf as fp16.
check_shipped A100 19 18 198 0,37,63,35,185,65,64,57,66,165,78,55 166912 "8, 0" "36 0,165,57"
check_shipped H100 26 25 202 0,62,63,35,33,189,64,77,169,65,56,32,59,183,163 232448 "9, 0" "50 0,62,63"
finish
