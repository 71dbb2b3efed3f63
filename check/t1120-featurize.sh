#!/usr/bin/env bash
# featurize: a hand-made log with known medians and winners (spec §1.6, §5.1),
# derived features (§4.1), one-hot columns (§4.3), and bad input.
. check/lib.sh
F=$FIX/featurize

# small.txt: input A (fp16, 3 choices): extern_mm 0.3/0.1/0.2 -> median 0.2;
# X 0.25/0.15 -> 0.2 (mean of the two middle values); Y 0.1/inf -> inf.
# extern_mm and X tie at 0.2: the first seen (extern_mm) wins.  Input B
# (fp32, transposed mat1): extern_mm 1.0, X 0.5 -> X wins.  Input C has one
# choice and is dropped, so bfloat16 is no category.  arith_intensity of
# 4x8x16 = 512/224.
"$BIN/featurize" -o "$TMP/small.tsv" "$F/small.txt" 2>/dev/null
test_cmp featurize-small "$F/small.expect.tsv" "$TMP/small.tsv"

# extra dataset: reuses the main dataset's categories (spec §4.3): a bf16
# input gets all-zero dtype dummies, and the columns are main's.
sed -n '1,2p' "$F/small.txt" > "$TMP/extra.txt"
echo '2,2,2,torch.bfloat16,torch.bfloat16,2,1,2,1,True,True,not_float_32,extern_mm,0.5' >> "$TMP/extra.txt"
echo '2,2,2,torch.bfloat16,torch.bfloat16,2,1,2,1,True,True,not_float_32,x,0.25' >> "$TMP/extra.txt"
"$BIN/featurize" --categories "$TMP/small.tsv" -o "$TMP/extra.tsv" "$TMP/extra.txt" 2>/dev/null
if [ "$(sed -n 2p "$TMP/extra.tsv")" = "$(sed -n 2p "$TMP/small.tsv")" ] &&
   [ "$(sed -n 4p "$TMP/extra.tsv" | cut -f18-26)" = "$(printf '0\t0\t0\t0\t1\t0\t1\t1\t0')" ] &&
   [ "$(sed -n 4p "$TMP/extra.tsv" | cut -f27-30)" = "$(printf 'x\t0.25\t1\t1')" ]; then
	ok featurize-extra-categories
else
	fail featurize-extra-categories "$(sed -n 4p "$TMP/extra.tsv")"
fi

# arith_intensity is computed from exact integers, like Python's int / int.
printf '%s\n%s\n' "$(head -1 "$F/small.txt")" "$(sed -n 2p "$F/small.txt")" > "$TMP/ai.txt"
# The second shape has m*k*n > 2^53 (the long double path).
for s in "131072 65536 16384" "1000003 999983 1000033"; do
	set -- $s
	for c in a b; do echo "$1,$2,$3,torch.float16,torch.float16,$2,1,$3,1,True,True,not_float_32,$c,1" >> "$TMP/ai.txt"; done
done
"$BIN/featurize" -o "$TMP/ai.tsv" "$TMP/ai.txt" 2>/dev/null
got=$(awk -F'\t' 'NR > 2 && NR % 2 == 1 {print $12}' "$TMP/ai.tsv" | tr '\n' ' ')
want=$(python3 -c "
for m, k, n in ((131072, 65536, 16384), (1000003, 999983, 1000033)):
    print('%.17g' % ((m*k*n) / (m*k + k*n + m*n)), end=' ')")
[ "$got" = "$want" ] && ok featurize-arith-intensity-exact || fail featurize-arith-intensity-exact "$got != $want"

# bad input: message names file:line and field, exit 1, no output left.
head -2 "$F/small.txt" > "$TMP/hdr.txt"
bad() { # NAME PATTERN ROW...
	local name=$1 pat=$2; shift 2
	cp "$TMP/hdr.txt" "$TMP/bad.txt"; printf '%s\n' "$@" >> "$TMP/bad.txt"
	expect_error "featurize-bad-$name" "$pat" "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/bad.txt"
}
R='4,8,16,torch.float16,torch.float16,8,1,16,1,True,True,not_float_32'
bad short-row 'bad.txt:3: row has 13 fields' "4,8,16,torch.float16,torch.float16,8,1,16,1,True,True,not_float_32,0.1"
bad long-row 'bad.txt:3: row has 15 fields, the header has 14 \(long row\)' "$R,a,0.1,9"
bad non-numeric 'bad.txt:4:.*field .k.*cannot parse .x8.' "$R,a,0.1" "4,x8,16,torch.float16,torch.float16,8,1,16,1,True,True,not_float_32,a,0.1"
bad nan 'bad.txt:3: field .feedback.: NaN' "$R,a,nan"
bad negative 'bad.txt:3: field .feedback.: -1 ms' "$R,a,-1"
bad unknown-bool "bad.txt:3: field 'mat1_iscontig': 'yes'" "4,8,16,torch.float16,torch.float16,8,1,16,1,yes,True,not_float_32,a,0.1"
bad crlf 'bad.txt:3: carriage return' "$R,a,0.1"$'\r'
bad one-choice 'no input has 2 or more distinct choices' "$R,a,0.1" "$R,a,0.2"
printf '' > "$TMP/empty.txt"
expect_error featurize-bad-empty 'empty.txt: empty file' "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/empty.txt"
printf 'm,k,n\n1,2,3\n' > "$TMP/nometa.txt"
expect_error featurize-bad-no-metadata 'nometa.txt:1: metadata line missing' "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/nometa.txt"
printf '{"name": "mm", "name": "mm"}\nx\n' > "$TMP/dup.txt"
expect_error featurize-bad-duplicate-key 'dup.txt:1: metadata line is not valid JSON: duplicate' "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/dup.txt"
sed '2s/,choice,/,chosen,/' "$F/small.txt" > "$TMP/hdr2.txt"
expect_error featurize-bad-header "hdr2.txt:2: header must end with 'choice,feedback'" "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/hdr2.txt"
# an option missing its value is named as such; the usage line lists every option
expect_error featurize-o-needs-value "option '-o' needs a value" "$TMP/bad.tsv" "$BIN/featurize" "$FIX/featurize/small.txt" -o
expect_error featurize-label-needs-value "option '--label' needs a value" "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$FIX/featurize/small.txt" --label
expect_error featurize-usage-lists-label 'usage: featurize .*--label NAME' "$TMP/bad.tsv" "$BIN/featurize" "$FIX/featurize/small.txt"
{ cat "$F/small.txt"; head -2 "$F/small.txt"; } > "$TMP/twometa.txt"
expect_error featurize-bad-second-metadata 'twometa.txt:14: a second metadata block' "$TMP/bad.tsv" "$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/twometa.txt"
{ head -2 "$F/small.txt"; echo 17; } > "$TMP/onefield.txt"
expect_error featurize-one-field-row 'onefield.txt:3: row has 1 field, the header has 14 \(short row\)' "$TMP/bad.tsv" \
	"$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/onefield.txt"
# one huge line: refused at file:line after reading 16 MiB and
# searching each byte once (was: quadratic, the whole line in memory), from
# a zip member too; the 2nd line (header) likewise
head -c $((17 << 20)) /dev/zero | tr '\0' x >"$TMP/longline.txt"
expect_error featurize-long-line 'longline.txt:1: line longer than 16 MiB' "$TMP/bad.tsv" \
	"$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/longline.txt"
if command -v zip >/dev/null; then
	(cd "$TMP" && zip -q long.zip longline.txt)
	expect_error featurize-long-line-zip 'long.zip:longline.txt:1: line longer than 16 MiB' "$TMP/bad.tsv" \
		"$BIN/featurize" --zip "$TMP/long.zip" -o "$TMP/bad.tsv" longline.txt
else skip featurize-long-line-zip "no zip program"; fi
{ head -1 "$F/small.txt"; cat "$TMP/longline.txt"; } >"$TMP/longhead.txt"
expect_error featurize-long-header 'longhead.txt:2: line longer than 16 MiB' "$TMP/bad.tsv" \
	"$BIN/featurize" -o "$TMP/bad.tsv" "$TMP/longhead.txt"
rm -f "$TMP/longline.txt" "$TMP/longhead.txt" "$TMP/long.zip"
finish
