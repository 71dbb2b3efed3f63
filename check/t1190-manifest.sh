#!/usr/bin/env bash
# check/t1190-manifest.sh — the committed collections agree with their
# manifests (datasets/MANIFEST.<gpu>.tsv; datasets/README.md), and
# stages/sh/manifest_row.sh, which computes a row's measured columns:
#   1. manifest_row.sh on a known log: its sha256s, 8 rows, inputs
#      A A B A C C' D counted 6 (an input again after another counts again;
#      C and C' differ only in using_tf32, C' and D only in m);
#   2. --update rewrites only those four columns of only that row (a path
#      relative to another folder; the mode kept; a symlinked manifest's
#      target, its missing final newline kept); bad input (no such file, not
#      xz, not a log, a short or blank row, two logs appended, a log with no
#      row, a manifest without the columns, without the file's row or with
#      it twice, bad usage) exits non-zero with the reason and leaves the
#      manifest as it was;
#   3. every row of every datasets/MANIFEST.<gpu>.tsv (each file listed once): the file exists and
#      manifest_row.sh gives the row's sha256, sha256_uncompressed, inputs
#      and rows (make checks the sha256 too, before it trains; the counts
#      are written by hand when a part is committed, so a slip shows here);
#   4. part 5's resume state (perf/results/gpu/h200_collect/README.md): its
#      log with the two giants measured after it appended is one log, of
#      1 244 inputs and 38 160 rows (the giants: 2 inputs, 62 rows, of
#      shape 24832 x 58624 x 23680, fp32).
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
MR=$ROOT/stages/sh/manifest_row.sh

# 1. a known log
hdr='m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback'
a='8,16,32,torch.float16,torch.float16,16,1,32,1,True,True,not_float_32'
b='8,16,32,torch.float16,torch.float16,1,8,32,1,False,True,not_float_32'
mkdir -p "$TMP/ds/g"
# f32 inputs that differ only in using_tf32, then only in m
c='8,16,32,torch.float32,torch.float32,16,1,32,1,True,True'
d='9,16,32,torch.float32,torch.float32,16,1,32,1,True,True'
printf '%s\n' '{"name": "mm"}' "$hdr" "$a,extern_mm,0.01" "$a,triton_a,0.02" "$b,extern_mm,0.01" \
	"$a,extern_mm,0.01" "$a,triton_a,0.03" "$c,True,extern_mm,0.01" "$c,False,extern_mm,0.02" \
	"$d,False,extern_mm,0.02" >"$TMP/known.txt"
xz -c "$TMP/known.txt" >"$TMP/ds/g/known.txt.xz"
want="$(sha256sum "$TMP/ds/g/known.txt.xz" | cut -d' ' -f1)	$(sha256sum "$TMP/known.txt" | cut -d' ' -f1)	6	8"
got=$(bash "$MR" "$TMP/ds/g/known.txt.xz")
[ "$got" = "$want" ] && ok manifest-row-known || fail manifest-row-known "got '$got', want '$want'"

# 2. --update: only that row's four columns; empty columns elsewhere kept
printf 'file\tgpu\tsha256\tsha256_uncompressed\tinputs\trows\tseed\tdescription\n' >"$TMP/ds/M.tsv"
printf 'g/other.txt.xz\tg\taa\tbb\t1\t2\t\tkept as is\n' >>"$TMP/ds/M.tsv"
printf 'g/known.txt.xz\tg\told\told\t9\t9\t\ta description, kept\n' >>"$TMP/ds/M.tsv"
cp "$TMP/ds/M.tsv" "$TMP/M.orig"
chmod 640 "$TMP/ds/M.tsv"
# a path relative to another folder
(cd "$TMP/ds/g" && bash "$MR" --update ../M.tsv ./known.txt.xz >/dev/null)
{ head -2 "$TMP/M.orig"; printf 'g/known.txt.xz\tg\t%s\t\ta description, kept\n' "$want"; } >"$TMP/M.want"
test_cmp manifest-row-update "$TMP/M.want" "$TMP/ds/M.tsv"
[ "$(stat -c %a "$TMP/ds/M.tsv")" = 640 ] && ok manifest-row-update-mode ||
	fail manifest-row-update-mode "mode $(stat -c %a "$TMP/ds/M.tsv"), want 640"
# a symlinked manifest: its target rewritten, the link kept; no final newline kept so
mkdir -p "$TMP/real"
head -c -1 "$TMP/M.orig" >"$TMP/real/L.tsv"
ln -s "$TMP/real/L.tsv" "$TMP/ds/L.tsv"
bash "$MR" --update "$TMP/ds/L.tsv" "$TMP/ds/g/known.txt.xz" >/dev/null
head -c -1 "$TMP/M.want" >"$TMP/L.want"
if [ -L "$TMP/ds/L.tsv" ] && cmp -s "$TMP/L.want" "$TMP/real/L.tsv"; then ok manifest-row-update-symlink-nonl
else fail manifest-row-update-symlink-nonl "$(ls -l "$TMP/ds/L.tsv"; cmp "$TMP/L.want" "$TMP/real/L.tsv" 2>&1)"; fi
cp "$TMP/ds/M.tsv" "$TMP/M.now"
refused() { # NAME PATTERN ARGS...: non-zero, PATTERN on stderr, M.tsv unchanged, no temporary left
	local name=$1 pat=$2 rc
	shift 2
	bash "$MR" "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -qE "$pat" "$TMP/err" && cmp -s "$TMP/M.now" "$TMP/ds/M.tsv" &&
		[ -z "$(compgen -G "$TMP/ds/M.tsv.tmp*")" ]; then ok "$name"
	else fail "$name" "rc $rc: $(tr '\n' '|' <"$TMP/err")"; fi
}
printf 'not xz' >"$TMP/ds/g/bad.txt.xz"
printf '%s\n' 'm,k,n' '1,2,3' | xz -c >"$TMP/ds/g/nolog.txt.xz"
printf '%s\n' '{"name": "mm"}' "$hdr" | xz -c >"$TMP/ds/g/empty.txt.xz"
printf 'name\tsha256\n' >"$TMP/ds/N.tsv"
{ head -3 "$TMP/known.txt"; echo "1,2,3"; } | xz -c >"$TMP/ds/g/short.txt.xz"
{ head -3 "$TMP/known.txt"; echo; } | xz -c >"$TMP/ds/g/blank.txt.xz"
{ cat "$TMP/known.txt" "$TMP/known.txt"; } | xz -c >"$TMP/ds/g/twice.txt.xz"
refused manifest-row-missing "no such file" --update "$TMP/ds/M.tsv" "$TMP/ds/g/nosuch.txt.xz"
refused manifest-row-not-xz "not an xz file" --update "$TMP/ds/M.tsv" "$TMP/ds/g/bad.txt.xz"
refused manifest-row-not-log "not an AutoHeuristic log" --update "$TMP/ds/M.tsv" "$TMP/ds/g/nolog.txt.xz"
refused manifest-row-no-rows "has no rows" --update "$TMP/ds/M.tsv" "$TMP/ds/g/empty.txt.xz"
refused manifest-row-short-row "line 4: 3 fields, the header has 14" --update "$TMP/ds/M.tsv" "$TMP/ds/g/short.txt.xz"
refused manifest-row-blank-line "line 4: 0 fields" --update "$TMP/ds/M.tsv" "$TMP/ds/g/blank.txt.xz"
refused manifest-row-two-logs "line 11: 1 fields, the header has 14" --update "$TMP/ds/M.tsv" "$TMP/ds/g/twice.txt.xz"
cp "$TMP/ds/g/known.txt.xz" "$TMP/ds/g/unlisted.txt.xz"
refused manifest-row-no-row "no row with file g/unlisted.txt.xz" --update "$TMP/ds/M.tsv" "$TMP/ds/g/unlisted.txt.xz"
refused manifest-row-usage "usage" --update "$TMP/ds/M.tsv"
# a file listed twice: neither row rewritten
sed -n 3p "$TMP/ds/M.tsv" >>"$TMP/ds/M.tsv" && cp "$TMP/ds/M.tsv" "$TMP/M.now"
refused manifest-row-twice "2 rows with file g/known.txt.xz" --update "$TMP/ds/M.tsv" "$TMP/ds/g/known.txt.xz"
bash "$MR" --update "$TMP/ds/N.tsv" "$TMP/ds/g/known.txt.xz" 2>"$TMP/err" >/dev/null &&
	fail manifest-row-columns "exit 0" ||
	{ grep -q "want the columns file, sha256, sha256_uncompressed, inputs, rows" "$TMP/err" &&
		[ "$(cat "$TMP/ds/N.tsv")" = "$(printf 'name\tsha256')" ] &&
		[ -z "$(compgen -G "$TMP/ds/N.tsv.tmp*")" ] && ok manifest-row-columns ||
		fail manifest-row-columns "$(cat "$TMP/err")"; }

# 3. the committed collections
shopt -s nullglob
mans=(datasets/MANIFEST.*.tsv)
[ ${#mans[@]} -gt 0 ] || fail manifest-files "no datasets/MANIFEST.<gpu>.tsv"
for man in "${mans[@]}"; do
	# the five columns by name (awk: an empty field elsewhere does not shift them)
	rows=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			if (!c["file"] || !c["sha256"] || !c["sha256_uncompressed"] || !c["inputs"] || !c["rows"]) exit 3
			next }
		{ print $c["file"] "\t" $c["sha256"] "\t" $c["sha256_uncompressed"] "\t" $c["inputs"] "\t" $c["rows"] }' "$man")
	if [ $? -ne 0 ]; then
		fail "manifest-columns ($man)" "want file, sha256, sha256_uncompressed, inputs, rows in: $(head -1 "$man")"
		continue
	fi
	dup=$(cut -f1 <<<"$rows" | sort | uniq -d | paste -sd' ')
	[ -z "$dup" ] && ok "manifest-once ($man)" || fail "manifest-once ($man)" "listed more than once: $dup"
	while IFS= read -r r; do
		file=${r%%$'\t'*} want=${r#*$'\t'} name="$(basename "$man") ${r%%$'\t'*}"
		got=$(bash "$MR" "datasets/$file" 2>&1)
		[ "$got" = "$want" ] && ok "manifest ($name)" ||
			fail "manifest ($name)" "manifest_row.sh: $got; the manifest: $want"
	done <<<"$rows"
done

# 3b. every GPU a manifest names has its row of the GPU facts
# (datasets/GPUS.tsv), so its artifact carries its GPU, and each committed
# log was measured on that row's device: its metadata's shared_memory and
# device_capa are the row's (the official zips: where DATASET has them)
gpurow() { awk -F'\t' -v g="$1" '$1 == g { print $4 " " $5 }' datasets/GPUS.tsv; }
for g in $(awk -F'\t' 'NR > 1 { print $2 }' datasets/MANIFEST.tsv; for m in "${mans[@]}"; do m=${m#datasets/MANIFEST.}; echo "${m%.tsv}"; done); do
	[ -n "$(gpurow "$g")" ] && ok "manifest-gpu-row ($g)" || fail "manifest-gpu-row ($g)" "no row '$g' in datasets/GPUS.tsv"
done
# "SMEM MAJOR.MINOR" of a log's first line
devof() { sed -n '1{s/.*"shared_memory": \([0-9]*\), "device_capa": \[\([0-9]*\), \([0-9]*\)\].*/\1 \2.\3/p;q}'; }
for man in "${mans[@]}"; do
	g=${man#datasets/MANIFEST.}; g=${g%.tsv} bad=
	for f in $(awk -F'\t' 'NR > 1 { print $1 }' "$man"); do
		d=$(xz -dc "datasets/$f" | devof)
		[ "$d" = "$(gpurow "$g")" ] || bad="$bad $f: $d"
	done
	[ -z "$bad" ] && ok "manifest-gpu-device ($g)" || fail "manifest-gpu-device ($g)" "not the row's $(gpurow "$g"):$bad"
done
for g in $(awk -F'\t' 'NR > 1 { print $2 }' datasets/MANIFEST.tsv); do
	z=$DATASET_DIR/${g}_mm.zip
	if [ ! -r "$z" ]; then skip "manifest-gpu-device ($g)" "[DATASET] no $z"; continue; fi
	d=$(unzip -p "$z" "$g/${g}_mm.txt" 2>/dev/null | devof)
	[ "$d" = "$(gpurow "$g")" ] && ok "manifest-gpu-device ($g)" || fail "manifest-gpu-device ($g)" "$d, the row: $(gpurow "$g")"
done

# 4. part 5 and its two giants, one log
G=perf/results/gpu/h200_collect/p5_giants_1774_1775.txt.xz
{ xz -dc datasets/h200/h200_inductor_seed2026_p5.txt.xz && xz -dc "$G"; } | xz -0 -c >"$TMP/p5g.txt.xz"
got=$(bash "$MR" "$TMP/p5g.txt.xz" 2>&1 | cut -f3-)
shapes=$(xz -dc "$G" | cut -d, -f1-5 | sort -u | paste -sd' ')
[ "$got" = "$(printf '1244\t38160')" ] && [ "$shapes" = "24832,58624,23680,torch.float32,torch.float32" ] &&
	ok manifest-p5-giants || fail manifest-p5-giants "inputs, rows: $got; shapes: $shapes"
finish
