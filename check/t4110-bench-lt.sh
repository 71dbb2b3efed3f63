#!/usr/bin/env bash
# cuBLASLt choices of bench without a GPU (stages/gpu/bench/lt.c,
# stages/FORMATS.md "cuBLASLt algorithm list"), through build/bin/bench-fake:
#   * choice ids of the committed list (kernels/cublaslt_algos.tsv, real
#     H200 attribute tuples) round-trip: list columns -> id in the log ->
#     bench --lt-decode -> the same columns; malformed ids are rejected
#     naming the field;
#   * the list reader dies naming file:line: field on malformed lines;
#   * --cublaslt puts the listed algorithms of the input's type class right
#     after extern_mm, in list order, and changes nothing else;
#   * a run with --cublaslt killed with SIGKILL resumes to the byte-identical
#     log; a log made with another list is refused;
#   * --lt-discover (fake heuristic) writes a list --cublaslt reads, sorted
#     and counted consistently; --lt-keep keeps a subset covering each class.
. check/lib.sh
F=$BIN/bench-fake
LIST=$ROOT/kernels/cublaslt_algos.tsv
test_have_bins bench-lt bench-fake || finish
[ -f "$LIST" ] || { fail bench-lt-list "$LIST missing"; finish; }
"$BIN/sample" --seed 3 --samples 10 -o "$TMP/shapes.tsv" || { fail bench-lt-shapes "sample failed"; finish; }
K="--kernels $ROOT/kernels"
cd "$TMP"

# expected id of each list line, and its type classes
awk -F'\t' '/^#/ { next } !h { h = 1; next } {
	printf "type=cublaslt_algo=%s_tile=%s_stages=%s_splitk=%s_reduction=%s_swizzle=%s_custom=%s_inner=%s_cluster=%s", $1, $2, $3, $4, $5, $6, $7, $8, $9
	printf "\t%s", $10; for (i = 1; i <= 9; i++) printf "\t%s", $i; printf "\n" }' "$LIST" > want.ids
[ "$(wc -l < want.ids)" -gt 0 ] && ok bench-lt-list-read || fail bench-lt-list-read "no lines in $LIST"

# --- a log with every type class -------------------------------------------------
"$F" $K --cublaslt "$LIST" shapes.tsv lt.txt 2>lt.err; rc=$?
[ $rc -eq 0 ] && [ -f lt.txt ] && ok bench-lt-runs || fail bench-lt-runs "exit $rc: $(tail -2 lt.err)"
cut -d, -f13 lt.txt | grep '^type=cublaslt' | sort -u > got.ids
# every listed algorithm appears (the shapes hold every class)
miss=$(cut -f1 want.ids | sort | comm -23 - got.ids | head -3)
extra=$(cut -f1 want.ids | sort | comm -13 - got.ids | head -3)
[ -z "$miss" ] && [ -z "$extra" ] && ok bench-lt-ids-in-log || fail bench-lt-ids-in-log "missing: $miss; unexpected: $extra"

# round trip: id -> --lt-decode -> the list's columns
rt=1 nrt=0
while IFS=$'\t' read -r id cls a1 a2 a3 a4 a5 a6 a7 a8 a9 rest; do
	out=$("$F" --lt-decode "$id" | tail -n 1)
	[ "$out" = "$(printf '%s\t' $a1 $a2 $a3 $a4 $a5 $a6 $a7 $a8 | sed 's/$//')$a9" ] || { rt=0; echo "decode $id: $out"; }
	hdr=$("$F" --lt-decode "$id" | head -n 1)
	[ "$hdr" = "$(printf 'algo\ttile\tstages\tsplitk\treduction\tswizzle\tcustom\tinner\tcluster')" ] || { rt=0; echo "header: $hdr"; }
	nrt=$((nrt + 1))
done < want.ids
[ $rt = 1 ] && [ $nrt -gt 0 ] && [ $nrt = "$(wc -l < want.ids)" ] && ok bench-lt-id-round-trip || fail bench-lt-id-round-trip "see above"

# malformed ids
expect_error bench-lt-decode-short "field 'stages'" none "$F" --lt-decode type=cublaslt_algo=66_tile=20
expect_error bench-lt-decode-zero "field 'algo'" none "$F" --lt-decode type=cublaslt_algo=066_tile=20_stages=8_splitk=1_reduction=0_swizzle=0_custom=0_inner=0_cluster=0
expect_error bench-lt-decode-range "field 'inner'" none "$F" --lt-decode type=cublaslt_algo=66_tile=20_stages=8_splitk=1_reduction=0_swizzle=0_custom=0_inner=65536_cluster=0
expect_error bench-lt-decode-sign "field 'tile'" none "$F" --lt-decode type=cublaslt_algo=66_tile=-20_stages=8_splitk=1_reduction=0_swizzle=0_custom=0_inner=0_cluster=0
expect_error bench-lt-decode-trailing "field 'end'" none "$F" --lt-decode type=cublaslt_algo=66_tile=20_stages=8_splitk=1_reduction=0_swizzle=0_custom=0_inner=0_cluster=0_x=1
expect_error bench-lt-decode-other "field 'type'" none "$F" --lt-decode extern_mm
expect_error bench-lt-decode-minus-zero "field 'splitk'" none "$F" --lt-decode type=cublaslt_algo=66_tile=20_stages=8_splitk=-0_reduction=0_swizzle=0_custom=0_inner=0_cluster=0
# negative split-K (as cuBLASLt's heuristic returns) round-trips
n=$("$F" --lt-decode type=cublaslt_algo=43_tile=0_stages=0_splitk=-1_reduction=0_swizzle=0_custom=0_inner=0_cluster=0 | tail -n 1)
[ "$n" = "$(printf '43\t0\t0\t-1\t0\t0\t0\t0\t0')" ] && ok bench-lt-decode-negative || fail bench-lt-decode-negative "$n"

# --- plan: the list's algorithms of the input's class right after extern_mm ----
# class of each input row: f32, tf32, f16, bf16 (from using_tf32 and dtype)
awk -F, -v want=want.ids '
BEGIN { while ((getline l < want) > 0) { split(l, f, "\t"); n++; id[n] = f[1]; cl[n] = "+" f[2] "+" } }
NR <= 2 { next }
{
	feat = $1; for (i = 2; i <= 12; i++) feat = feat "," $i
	if (feat != cur) { cur = feat; pos = 0; seen_nvrtc = 0; inputs++
		c = $4 == "torch.float16" ? "f16" : $4 == "torch.bfloat16" ? "bf16" : $12 == "True" ? "tf32" : "f32"
		m = 0; for (j = 1; j <= n; j++) if (index(cl[j], "+" c "+")) ex[++m] = id[j]
		nexp = m }
	pos++
	if (pos == 1) { if ($13 != "extern_mm") { bad = "first row of input " inputs ": " $13; exit } ; next }
	if (pos <= nexp + 1) { if ($13 != ex[pos - 1]) { bad = "input " inputs " (" c ") position " pos ": " $13 ", expected " ex[pos - 1]; exit } ; next }
	if (pos == nexp + 2 && $13 !~ /^type=nvrtc_/) { bad = "input " inputs ": after the cuBLASLt choices " $13; exit }
	if (!seen_nvrtc && $13 ~ /^type=nvrtc_/) seen_nvrtc = 1
}
END { if (!bad && inputs == 0) bad = "no inputs"; if (bad) { print bad; exit 1 } }' lt.txt > plan.out \
	&& ok bench-lt-plan-order || fail bench-lt-plan-order "$(cat plan.out)"

# nothing else changes: without adaptive repetitions (whose running best the
# extra choices move) the log minus the cuBLASLt rows is the plain log
"$F" $K --fast-reject 0 --cublaslt "$LIST" shapes.tsv lt0.txt 2>/dev/null
"$F" $K --fast-reject 0 shapes.tsv plain0.txt 2>/dev/null
grep -v ',type=cublaslt' lt0.txt > lt0.stripped
test_cmp bench-lt-adds-only plain0.txt lt0.stripped
[ "$(grep -c ',type=cublaslt' lt0.txt)" -gt 0 ] && ok bench-lt-rows || fail bench-lt-rows "no cuBLASLt rows"

# --no-nvrtc: extern_mm and the cuBLASLt choices only
"$F" $K --no-nvrtc --fast-reject 0 --cublaslt "$LIST" shapes.tsv only.txt 2>/dev/null
grep -v ',type=nvrtc' lt0.txt | cmp -s - only.txt && ! grep -q 'type=nvrtc' only.txt \
	&& ok bench-lt-no-nvrtc || fail bench-lt-no-nvrtc "differs from the log without nvrtc rows"

# --- kill and resume -------------------------------------------------------------
"$F" $K --cublaslt "$LIST" --fake-delay-ms 40 shapes.tsv killed.txt 2>/dev/null &
pid=$!
wait_lines killed.txt.part 3
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
rows=$(( $( { wc -l < killed.txt.part; } 2>/dev/null || echo 2) - 2 ))
if [ -e killed.txt ] || [ "$rows" -le 0 ]; then
	fail bench-lt-kill-midway "no partial log ($rows rows)"
else
	printf '1024,512,20' >> killed.txt.part
	"$F" $K --cublaslt "$LIST" shapes.tsv killed.txt 2>resume.err
	test_cmp bench-lt-resume-after-kill lt.txt killed.txt
	grep -q 'already done' resume.err && ok bench-lt-resume-reports || fail bench-lt-resume-reports "$(head -3 resume.err)"
fi
# a log made with another list (or none) is refused
head -n 60 lt.txt > other.txt.part
expect_error bench-lt-resume-without-list 'does not match the plan' other.txt "$F" $K shapes.tsv other.txt
head -n 60 lt.txt > other2.txt.part
grep -v '^66	' "$LIST" > fewer.tsv
if [ "$(grep -vc '^#' fewer.tsv)" -gt 1 ] && [ "$(grep -vc '^#' fewer.tsv)" -lt "$(grep -vc '^#' "$LIST")" ]; then
	expect_error bench-lt-resume-other-list 'does not match the plan' other2.txt "$F" $K --cublaslt fewer.tsv shapes.tsv other2.txt
else
	tail -n +2 want.ids | cut -f1 > /dev/null
	{ grep '^#' "$LIST"; grep -v '^#' "$LIST" | head -n 1; grep -v '^#' "$LIST" | tail -n +3; } > fewer.tsv
	expect_error bench-lt-resume-other-list 'does not match the plan' other2.txt "$F" $K --cublaslt fewer.tsv shapes.tsv other2.txt
fi

# --- list reader errors: file:line: field -----------------------------------------
H=$(printf 'algo\ttile\tstages\tsplitk\treduction\tswizzle\tcustom\tinner\tcluster\tdtypes\tinputs\trank1')
G=$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf16+bf16\t10\t5')
bad() { # NAME PATTERN LINE...
	local name=$1 pat=$2; shift 2
	printf '%s\n' "$@" > "$name.tsv"
	expect_error "bench-lt-list-$name" "$pat" "$name.log" "$F" $K --cublaslt "$name.tsv" shapes.tsv "$name.log"
}
bad tile "tile.tsv:3: field 'tile'" '# c' "$H" "$(printf '66\tabc\t8\t1\t0\t0\t0\t0\t0\tf16\t1\t1')"
bad algo "algo.tsv:2: field 'algo'" "$H" "$(printf -- '-0\t20\t8\t1\t0\t0\t0\t0\t0\tf16\t1\t1')"
bad swizzle "swizzle.tsv:2: field 'swizzle'" "$H" "$(printf -- '66\t20\t8\t1\t0\t-1\t0\t0\t0\tf16\t1\t1')"
bad splitk "splitk.tsv:2: field 'splitk'" "$H" "$(printf -- '66\t20\t8\t-2147483649\t0\t0\t0\t0\t0\tf16\t1\t1')"
bad inner "inner.tsv:3: field 'inner'" "$H" "$G" "$(printf '66\t20\t8\t1\t0\t0\t0\t70000\t0\tf16\t1\t1')"
bad cluster "cluster.tsv:2: field 'cluster'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t\tf16\t1\t1')"
bad dtrep "dtrep.tsv:2: field 'dtypes'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf16+f16\t1\t1')"
bad dtname "dtname.tsv:2: field 'dtypes'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tfp16\t1\t1')"
bad dtorder "dtorder.tsv:2: field 'dtypes'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tbf16+f16\t1\t1')"
bad rank1 "rank1.tsv:2: field 'rank1'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf16\t1\t2')"
bad inputs "inputs.tsv:2: field 'inputs'" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf16\tmany\t2')"
bad fields "fields.tsv:2: expected 12" "$H" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf16\t1')"
bad header "header.tsv:2: bad header" '# made by hand' "$(printf 'algo\ttile')" "$G"
bad dup "dup.tsv:4: the same algorithm as line 2" "$H" "$G" "$(printf '66\t21\t8\t1\t0\t0\t0\t0\t0\tf16\t1\t1')" "$(printf '66\t20\t8\t1\t0\t0\t0\t0\t0\tf32\t3\t0')"
bad empty "empty.tsv: no algorithms" '# nothing' "$H"
printf '%s\r\n%s\n' "$H" "$G" > cr.tsv
expect_error bench-lt-list-cr 'cr.tsv:1: carriage return' cr.log "$F" $K --cublaslt cr.tsv shapes.tsv cr.log
expect_error bench-lt-list-missing 'nope.tsv' nope.log "$F" $K --cublaslt nope.tsv shapes.tsv nope.log

# --- discovery (made-up heuristic of the fake back end) -----------------------------
"$F" --lt-discover 8 shapes.tsv disc.tsv 2>disc.err; rc=$?
[ $rc -eq 0 ] && ok bench-lt-discover-runs || fail bench-lt-discover-runs "exit $rc: $(tail -2 disc.err)"
# sorted by inputs then rank1 (descending); rank1 sums to the inputs with an answer
none=$(sed -n 's/.* \([0-9]*\) inputs without any.*/\1/p' disc.tsv)
total=$(($(wc -l < shapes.tsv) - 1))
awk -F'\t' -v want=$((total - none)) '/^#/ || !h { if (!/^#/) h = 1; next }
	{ if (n++ && ($11 > pi || ($11 == pi && $12 > pr))) { print "not sorted at " $0; bad = 1 } ; pi = $11; pr = $12; r1 += $12; if ($12 > $11) bad = 1 }
	END { if (r1 != want) { print "rank1 sum " r1 ", inputs answered " want; bad = 1 } ; exit bad }' disc.tsv > disc.out \
	&& [ -n "$none" ] && ok bench-lt-discover-counts || fail bench-lt-discover-counts "$(cat disc.out)"
"$F" $K --no-nvrtc --cublaslt disc.tsv shapes.tsv disc.log 2>/dev/null \
	&& ok bench-lt-discover-readable || fail bench-lt-discover-readable "--cublaslt rejects the discovery output"
"$F" --lt-discover 8 shapes.tsv disc2.tsv 2>/dev/null
diff <(grep -v '^#' disc.tsv) <(grep -v '^#' disc2.tsv) >/dev/null && ok bench-lt-discover-deterministic \
	|| fail bench-lt-discover-deterministic "two runs differ"
"$F" --lt-discover 8 --lt-keep 2 shapes.tsv keep.tsv 2>/dev/null
nk=$(grep -vc '^#' keep.tsv); na=$(grep -vc '^#' disc.tsv)
sub=$(grep -v '^#' keep.tsv | grep -vxFf <(grep -v '^#' disc.tsv) | head -1)
cov=1; for c in f32 tf32 f16 bf16; do cut -f10 keep.tsv | grep -qE "(^|\+)$c(\+|$)" || cov=0; done
[ -z "$sub" ] && [ "$nk" -gt 1 ] && [ "$nk" -le 9 ] && [ "$nk" -lt "$na" ] && [ $cov = 1 ] \
	&& ok bench-lt-discover-keep || fail bench-lt-discover-keep "$nk of $na lines, not a subset: $sub, coverage $cov"
expect_error bench-lt-keep-needs-discover '--lt-keep needs --lt-discover' k.log "$F" $K --lt-keep 2 shapes.tsv k.log
finish
