#!/bin/bash
# t4200-nvmmh.sh — stage nvmmh: NVIDIA's analytic
# nvMatmulHeuristics ranks each input's Triton choices by its runtime
# estimate; stages/formats/ranks.h's file.  Skips (with the reason) where the
# library is not installed (stages/sh/nvmmh-dir.sh).
#
# Fixture check/fixtures/nvmmh/small.txt (H100 metadata), 5 inputs:
#   0  4096^3 fp16 NN: extern_mm, an nvrtc choice (neither ranked), Triton
#      128x32x128 s3 w4 (0.40 ms) and s4 w8 (0.35 ms) -- the same CTA tile,
#      so the same estimate: a tie --, 64x32x64, 16x16x16 and 256x128x256
#      with 8 stages (more shared memory than an H100 has: the library
#      rejects it, so it ranks last)
#   1  the same with mat1 transposed (layout TN)
#   2  64x2048x8192 bf16, 3  1024^3 fp32 with TF32, 4  fp64 (no precision
#      string: nothing ranked, an empty list)
# expect_order.tsv / expect_measured.tsv pin the rankings of the 0.1.0.27
# library; the properties above are checked on their own as well.
. "$(dirname "$0")/lib.sh"
F=$FIX/nvmmh
T=type=triton_BLOCK-M=128_BLOCK-K=32_BLOCK-N=128

# the locator, whatever is installed
if stages/sh/nvmmh-dir.sh "$TMP/none" >/dev/null 2>"$TMP/err"; then
	fail nvmmh-dir-missing "a folder without the library was accepted"
elif grep -q "no $TMP/none/include/nvMatmulHeuristics.h" "$TMP/err"; then ok nvmmh-dir-missing
else fail nvmmh-dir-missing "message: $(cat "$TMP/err")"; fi

test_require NVMMH nvmmh
N=$BIN/nvmmh
make -s --no-print-directory BUILD="$(dirname "$BIN")" "$N" >"$TMP/make.out" 2>&1 ||
	{ fail nvmmh-build "$(tail -3 "$TMP/make.out")"; finish; }
ok nvmmh-build
"$N" --help | grep -q '^usage: nvmmh' && "$N" --help | grep -q 'Exit status' &&
	"$N" --help | grep -q -- '--tie' && ok nvmmh-help || fail nvmmh-help "--help lacks usage, --tie or exit status"

"$BIN/featurize" -o "$TMP/small.feat.tsv" "$F/small.txt" 2>/dev/null || { fail nvmmh-featurize "featurize failed"; finish; }
for tie in order measured; do
	if "$N" --tie $tie -o "$TMP/$tie.tsv" "$TMP/small.feat.tsv" 2>"$TMP/$tie.err"; then
		test_cmp nvmmh-pinned-$tie "$F/expect_$tie.tsv" "$TMP/$tie.tsv"
	else fail nvmmh-pinned-$tie "$(cat "$TMP/$tie.err")"; fi
done
# properties: ties in row order vs by measured time, rejected last, only
# Triton ids, the fp64 input empty, m k n echoed
rk() { awk -F'\t' -v i="$2" 'NR == i + 2 { print $5 }' "$TMP/$1.tsv" | tr ',' '\n'; }
if [ "$(rk order 0 | head -2)" = "${T}_numstages=3_numwarps=4
${T}_numstages=4_numwarps=8" ] && [ "$(rk measured 0 | head -2)" = "${T}_numstages=4_numwarps=8
${T}_numstages=3_numwarps=4" ]; then ok nvmmh-tie-break
else fail nvmmh-tie-break "order: $(rk order 0 | head -2 | tr '\n' ' '); measured: $(rk measured 0 | head -2 | tr '\n' ' ')"; fi
# spread: one choice per tied group first (128x32x128 s3 w4, 64x32x64,
# 16x16x16), then the second of the tie (s4 w8), the rejected one last
"$N" --tie spread -o "$TMP/spread.tsv" "$TMP/small.feat.tsv" 2>/dev/null
if [ "$(rk spread 0 | sed 's/type=triton_BLOCK-M=//; s/_BLOCK-K=/x/; s/_BLOCK-N=/x/; s/_numstages=/ s/; s/_numwarps=/ w/' | tr '\n' ,)" = \
	"128x32x128 s3 w4,64x32x64 s3 w4,16x16x16 s1 w2,128x32x128 s4 w8,256x128x256 s8 w8," ]; then ok nvmmh-tie-spread
else fail nvmmh-tie-spread "$(rk spread 0 | tr '\n' ' ')"; fi
if [ "$(rk order 0 | tail -1)" = type=triton_BLOCK-M=256_BLOCK-K=128_BLOCK-N=256_numstages=8_numwarps=8 ] &&
	grep -q '1 rejected' "$TMP/order.err"; then ok nvmmh-rejected-last
else fail nvmmh-rejected-last "last: $(rk order 0 | tail -1); $(cat "$TMP/order.err")"; fi
if [ "$(rk order 0 | grep -vc '^type=triton_')" = 0 ] && [ "$(rk order 0 | wc -l)" = 5 ] &&
	[ "$(awk -F'\t' 'NR == 6 { print $1 ":" $5 ":" }' "$TMP/order.tsv")" = "4::" ] &&
	[ "$(awk -F'\t' 'NR == 4 { print $2 "x" $3 "x" $4 }' "$TMP/order.tsv")" = 64x2048x8192 ]; then
	ok nvmmh-rows
else fail nvmmh-rows "$(cat "$TMP/order.tsv" | head -6 | cut -c1-80 | tr '\n' '|')"; fi

# the descriptors are the GPU table's (datasets/GPUS.tsv, its nvmmh column):
# --gpu takes its rows' names; the default is the first row whose shared
# memory and capability are the set's (the fixture's (232448, (9, 0)): h100)
"$N" --help | tr -s ' \n' ' ' | grep -q -- "--gpu NAME .*datasets/GPUS.tsv" &&
	"$N" --gpu h100 -o "$TMP/h100.tsv" "$TMP/small.feat.tsv" 2>/dev/null && cmp -s "$TMP/h100.tsv" "$TMP/order.tsv" &&
	"$N" --gpu h200 -o "$TMP/h200.tsv" "$TMP/small.feat.tsv" 2>"$TMP/h200.err" && grep -q '(h200, relative' "$TMP/h200.err" &&
	grep -q '(h100, relative' "$TMP/order.err" && ok nvmmh-gpu-table || fail nvmmh-gpu-table "$(cat "$TMP/h200.err" "$TMP/order.err" | head -c 300)"
# errors: a message, exit 1, no output
expect_error nvmmh-err-tie "--tie: expected" "$TMP/x.tsv" "$N" --tie best -o "$TMP/x.tsv" "$TMP/small.feat.tsv"
expect_error nvmmh-err-gpu "--gpu: expected" "$TMP/x.tsv" "$N" --gpu v100 -o "$TMP/x.tsv" "$TMP/small.feat.tsv"
sed '1s/"device_capa": \[9, 0\]/"device_capa": [8, 6]/' "$TMP/small.feat.tsv" >"$TMP/sm86.feat.tsv"
expect_error nvmmh-err-capability "capability \(8, 6\): give --gpu" "$TMP/x.tsv" "$N" -o "$TMP/x.tsv" "$TMP/sm86.feat.tsv"
expect_error nvmmh-err-input "cannot open|No such" "$TMP/x.tsv" "$N" -o "$TMP/x.tsv" "$TMP/missing.feat.tsv"
finish
