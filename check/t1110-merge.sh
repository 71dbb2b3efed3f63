#!/usr/bin/env bash
# merge (spec §2): byte-identical metadata required; rows concatenated in
# argument order; a missing final newline does not fuse rows; no output on
# error.
. check/lib.sh
S=$FIX/featurize/small.txt
head -5 "$S" > "$TMP/a.txt"                          # meta, header, 3 rows
{ head -2 "$S"; sed -n '6,8p' "$S" | head -c -1; } > "$TMP/b.txt"   # no final newline
{ head -2 "$S"; sed -n '9,13p' "$S"; } > "$TMP/c.txt"
"$BIN/merge" -o "$TMP/out.txt" "$TMP/a.txt" "$TMP/b.txt" "$TMP/c.txt" 2>/dev/null
test_cmp merge-concat "$S" "$TMP/out.txt"

sed '1s/232448/166912/' "$TMP/c.txt" > "$TMP/d.txt"
expect_error merge-metadata-mismatch 'd.txt: metadata differs from .*a.txt' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/d.txt"
grep -q '166912' "$TMP/stderr" && grep -q '232448' "$TMP/stderr" &&
	ok merge-mismatch-shows-both || fail merge-mismatch-shows-both "$(cat "$TMP/stderr")"
# metadata are compared as JSON: spacing and key order do not matter (the
# first INPUT's line is kept), the device does
sed '1s/, /,  /' "$TMP/c.txt" > "$TMP/ws.txt"
sed '1s/^{\("shared_memory": [0-9]*\), \("device_capa": \[[0-9, ]*\]\), /{\2, \1, /' "$TMP/c.txt" > "$TMP/ko.txt"
if "$BIN/merge" -o "$TMP/out3.txt" "$TMP/a.txt" "$TMP/ws.txt" "$TMP/ko.txt" 2>"$TMP/err" &&
	[ "$(head -2 "$TMP/out3.txt")" = "$(head -2 "$TMP/a.txt")" ] &&
	[ "$(tail -n +3 "$TMP/out3.txt")" = "$(tail -n +3 "$TMP/a.txt"; tail -n +3 "$TMP/ws.txt"; tail -n +3 "$TMP/ko.txt")" ] &&
	! cmp -s <(head -1 "$TMP/ko.txt") <(head -1 "$TMP/a.txt"); then ok merge-json-equal-metadata
else fail merge-json-equal-metadata "$(head -c 300 "$TMP/err")"; fi
expect_error merge-metadata-device 'd.txt: metadata differs from .*a.txt \(another device: shared_memory 166912, device_capa \(9, 0\), not shared_memory 232448, device_capa \(9, 0\) \(H100 or H200\)\)' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/d.txt"
# CRLF is named as such (not "metadata differs"), in the metadata or a row
sed 's/$/\r/' "$TMP/c.txt" > "$TMP/crlf.txt"
expect_error merge-crlf-metadata 'crlf.txt:1: carriage return in line \(CRLF line ends' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/crlf.txt"
expect_error merge-crlf-first-input 'crlf.txt:1: carriage return' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/crlf.txt" "$TMP/a.txt"
sed '4s/$/\r/' "$TMP/c.txt" > "$TMP/crrow.txt"
expect_error merge-crlf-row 'crrow.txt:4: carriage return in line' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/crrow.txt"
head -1 "$S" > "$TMP/one.txt"
expect_error merge-one-line 'one.txt: fewer than 2 lines' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/one.txt"
: >"$TMP/empty.txt"
expect_error merge-empty-file 'empty.txt: empty file: expected the metadata JSON line and the header' "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/empty.txt"
"$BIN/merge" -o "$TMP/one-in.txt" "$TMP/a.txt" 2>"$TMP/one.err"
grep -Eq '^merge: wrote .*one-in.txt: [0-9]+ rows? from 1 file$' "$TMP/one.err" && ok merge-one-file-singular ||
	fail merge-one-file-singular "$(cat "$TMP/one.err")"
expect_error merge-missing-input "cannot open '.*nope.txt'" "$TMP/out2.txt" \
	"$BIN/merge" -o "$TMP/out2.txt" "$TMP/a.txt" "$TMP/nope.txt"
# an existing output survives a failed merge untouched
echo keep > "$TMP/keep.txt"
"$BIN/merge" -o "$TMP/keep.txt" "$TMP/a.txt" "$TMP/d.txt" 2>/dev/null
[ "$(cat "$TMP/keep.txt")" = keep ] && ok merge-keeps-old-output || fail merge-keeps-old-output "overwritten"
# -o OUTPUT is the convention; merge_data.py's order (OUTPUT first) still works, said
"$BIN/merge" "$TMP/old.txt" "$TMP/a.txt" "$TMP/b.txt" "$TMP/c.txt" 2>"$TMP/err" && cmp -s "$S" "$TMP/old.txt" &&
	grep -q "warning: OUTPUT as the first positional is the old form: use -o $TMP/old.txt" "$TMP/err" &&
	ok merge-old-output-first || fail merge-old-output-first "$(head -c 200 "$TMP/err")"
finish
