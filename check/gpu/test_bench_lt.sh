#!/usr/bin/env bash
# GPU tests of bench's cuBLASLt choices (run on a machine
# with an NVIDIA GPU, skipped without one).  On the edge-shape inputs of
# check/gpu/test_bench_gpu.sh (1x1x1 ... 2048x1024x768, float32, tf32,
# float16, bfloat16, the four transpose layouts), with --no-nvrtc
# --cublaslt LIST --verify-all --reps 1 --fast-reject 0:
#   * every listed algorithm that cuBLASLt accepts for an input
#     (cublasLtMatmulAlgoCheck) is verified against cuBLAS (relative
#     Frobenius error within the dtype tolerance, output poisoned with NaN
#     first): 0 wrong results, one verification per finite cuBLASLt row;
#   * every listed algorithm is finite on at least one input of its type
#     classes (so each was verified at least once), extern_mm on all;
#   * --lt-discover --lt-keep 2 on the same inputs: a list --cublaslt reads back, and
#     every algorithm the heuristic returned rebuilds from its attributes to
#     the same descriptor (stable ids).
# Environment: BIN (default build/bin), DEVICE (default 0), RESULTS (a
# folder for the logs, default: the scratch folder), LT_LIST (default
# kernels/cublaslt_algos.tsv).
. check/lib.sh
B=$BIN/bench
DEV=${DEVICE:-0}
RES=${RESULTS:-$TMP}
LIST=${LT_LIST:-$ROOT/kernels/cublaslt_algos.tsv}
mkdir -p "$RES"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	skip bench-lt-gpu "no NVIDIA GPU here"; finish
fi
[ -x "$B" ] || { fail bench-lt-gpu-built "$B missing"; finish; }
K="--kernels $ROOT/kernels --cache ${CUBIN_CACHE:-$ROOT/build/cubin} --device $DEV"

# the edge inputs (check/gpu/edge_shapes.sh)
bash "$ROOT/check/gpu/edge_shapes.sh" > "$TMP/shapes.tsv"
cp "$TMP/shapes.tsv" "$RES/edge_shapes.tsv"
NIN=$(($(wc -l < "$TMP/shapes.tsv") - 1))

L=$RES/lt_verify.txt
rm -f "$L" "$L.part"
start=$(date +%s)
"$B" $K --no-nvrtc --cublaslt "$LIST" --verify-all --reps 1 --fast-reject 0 --stats "$RES/lt_verify_stats.tsv" \
	"$TMP/shapes.tsv" "$L" 2> "$RES/lt_verify.err"
rc=$?
echo "  cuBLASLt verify run: $NIN inputs in $(( $(date +%s) - start )) s, exit $rc"
[ $rc -eq 0 ] && ok bench-lt-gpu-verify-run || fail bench-lt-gpu-verify-run "exit $rc: $(tail -3 "$RES/lt_verify.err")"
nw=$(grep -c 'wrong result' "$RES/lt_verify.err")
nlt=$(grep -c ',type=cublaslt' "$L"); nfin=$(grep ',type=cublaslt' "$L" | grep -vc ',inf$')
nei=$(grep -c ',extern_mm,inf$' "$L"); ne=$(grep -c ',extern_mm,' "$L")
echo "  $nlt cuBLASLt rows, $nfin finite (the rest rejected by cublasLtMatmulAlgoCheck); $ne extern_mm rows, $nei inf"
[ "$nw" = 0 ] && ok bench-lt-gpu-no-wrong-result || fail bench-lt-gpu-no-wrong-result "$nw wrong: $(grep -m3 'wrong result' "$RES/lt_verify.err" | tr '\n' '|')"
[ "$ne" = "$NIN" ] && [ "$nei" = 0 ] && ok bench-lt-gpu-extern-finite || fail bench-lt-gpu-extern-finite "$nei of $ne inf"
nv=$(awk -F'\t' '$1 == "verifications" { print $2 }' "$RES/lt_verify_stats.tsv")
[ "$nv" = "$nfin" ] && ok bench-lt-gpu-every-finite-row-verified || fail bench-lt-gpu-every-finite-row-verified "$nv verifications for $nfin finite rows"
[ "$nfin" -gt 0 ] && ok bench-lt-gpu-some-finite || fail bench-lt-gpu-some-finite "no finite cuBLASLt row"
# every listed algorithm: finite (verified and correct) somewhere
miss=""
while IFS=$'\t' read -r a t s k r w c i l rest; do
	id="type=cublaslt_algo=${a}_tile=${t}_stages=${s}_splitk=${k}_reduction=${r}_swizzle=${w}_custom=${c}_inner=${i}_cluster=${l}"
	n=$(grep ",$id," "$L" | grep -vc ',inf$')
	printf '  %-110s finite on %3d inputs\n' "$id" "$n"
	[ "$n" -gt 0 ] || miss="$miss $id"
done < <(grep -v '^#' "$LIST" | tail -n +2)
[ -z "$miss" ] && ok bench-lt-gpu-every-algo-verified || fail bench-lt-gpu-every-algo-verified "never finite:$miss"

# discovery on the same inputs: readable (with --lt-keep: a full tally can
# exceed the 64 algorithms a list may hold), and ids rebuild to the same
# algorithm
"$B" $K --lt-discover 8 --lt-keep 2 "$TMP/shapes.tsv" "$RES/lt_discover_edge.tsv" 2> "$RES/lt_discover_edge.err"; rc=$?
head -n 5 "$TMP/shapes.tsv" > "$TMP/few.tsv"
rm -f "$TMP/few.txt"
[ $rc -eq 0 ] && "$B" $K --no-nvrtc --cublaslt "$RES/lt_discover_edge.tsv" --reps 1 "$TMP/few.tsv" "$TMP/few.txt" 2> "$TMP/few.err" \
	&& ok bench-lt-gpu-discover || fail bench-lt-gpu-discover "exit $rc: $(tail -2 "$RES/lt_discover_edge.err") $(tail -2 "$TMP/few.err" 2>/dev/null)"
nm=$(grep -c 'rebuild from the attributes differs' "$RES/lt_discover_edge.err")
[ "$nm" = 0 ] && ok bench-lt-gpu-ids-rebuild || fail bench-lt-gpu-ids-rebuild "$nm algorithms differ: $(grep -m2 'differs' "$RES/lt_discover_edge.err" | tr '\n' '|')"
finish
