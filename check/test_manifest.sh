#!/usr/bin/env bash
# check/test_manifest.sh — the committed collections agree with their
# manifests (datasets/MANIFEST.<gpu>.tsv; datasets/README.md): for every row,
#   1. the file exists and its sha256 is the row's sha256 (make checks this
#      too, before it trains), and the decompressed log's is sha256_uncompressed;
#   2. the log starts with AutoHeuristic's two header lines (the JSON
#      metadata of "mm", then the CSV header ending in choice,feedback);
#   3. rows = its lines after those two, and inputs = its inputs in log
#      order (a run of rows of one (m, k, n, dtype, strides, using_tf32)
#      tuple; an input measured twice counts twice, as in h200_seed2's row).
# The counter itself is checked first on a known log.  The rows and inputs
# columns are written by hand when a collection part is committed
# (perf/results/gpu/h200_collect/README.md), so this is where a slip shows.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh

# count LOG: "ROWS INPUTS" of a decompressed log on stdin
count() {
	awk -F, 'NR > 2 { k = $1 "," $2 "," $3 "," $4 "," $6 "," $7 "," $8 "," $9 "," $12
		if (k != last) { n++; last = k } rows++ }
		END { print rows + 0, n + 0 }'
}

# the counter on a known log: 5 rows, inputs A A B A (A again after B: 3)
printf '%s\n' '{"name": "mm"}' 'm,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback' \
	'8,16,32,torch.float16,torch.float16,16,1,32,1,True,True,not_float_32,extern_mm,0.01' \
	'8,16,32,torch.float16,torch.float16,16,1,32,1,True,True,not_float_32,triton_a,0.02' \
	'8,16,32,torch.float16,torch.float16,1,8,32,1,False,True,not_float_32,extern_mm,0.01' \
	'8,16,32,torch.float16,torch.float16,16,1,32,1,True,True,not_float_32,extern_mm,0.01' \
	'8,16,32,torch.float16,torch.float16,16,1,32,1,True,True,not_float_32,triton_a,0.03' >"$TMP/known.txt"
got=$(count <"$TMP/known.txt")
[ "$got" = "5 3" ] && ok manifest-counter-known || fail manifest-counter-known "counted '$got', want '5 3'"

shopt -s nullglob
mans=(datasets/MANIFEST.*.tsv)
[ ${#mans[@]} -gt 0 ] || fail manifest-files "no datasets/MANIFEST.<gpu>.tsv"
for man in "${mans[@]}"; do
	# the five columns by name (awk: an empty field elsewhere does not shift them)
	rows=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			if (!c["file"] || !c["sha256"] || !c["sha256_uncompressed"] || !c["inputs"] || !c["rows"]) exit 3
			next }
		{ print $c["file"] " " $c["sha256"] " " $c["sha256_uncompressed"] " " $c["inputs"] " " $c["rows"] }' "$man")
	if [ $? -ne 0 ]; then
		fail "manifest-columns ($man)" "want file, sha256, sha256_uncompressed, inputs, rows in: $(head -1 "$man")"
		continue
	fi
	while read -r file sha_m shu_m inputs_m rows_m; do
		name="$(basename "$man") $file"
		p=datasets/$file
		if [ ! -f "$p" ]; then fail "manifest ($name)" "missing $p"; continue; fi
		sha=$(sha256sum "$p" | cut -d' ' -f1)
		[ "$sha" = "$sha_m" ] || { fail "manifest-sha256 ($name)" "$sha, manifest $sha_m"; continue; }
		xz -dc "$p" >"$TMP/log.txt" || { fail "manifest ($name)" "xz -dc failed"; continue; }
		shu=$(sha256sum "$TMP/log.txt" | cut -d' ' -f1)
		[ "$shu" = "$shu_m" ] || fail "manifest-sha256-uncompressed ($name)" "$shu, manifest $shu_m"
		if ! head -1 "$TMP/log.txt" | grep -q '"name": "mm"' ||
			! sed -n 2p "$TMP/log.txt" | grep -q '^m,k,n,.*,choice,feedback$'; then
			fail "manifest-header ($name)" "$(head -c 120 "$TMP/log.txt" | tr '\n' '|')"
			continue
		fi
		got=$(count <"$TMP/log.txt") want="$rows_m $inputs_m"
		[ "$got" = "$want" ] && ok "manifest ($name)" ||
			fail "manifest-counts ($name)" "rows inputs $got, manifest $want"
	done <<<"$rows"
done
finish
