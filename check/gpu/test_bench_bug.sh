#!/usr/bin/env bash
# GPU test: bench's verification catches a wrong kernel (run on a machine
# with an NVIDIA GPU; skipped without one).  The test-only build bench-bug
# (make test-bins: bench compiled with -DMMRANK_TEST_BAD_KERNEL, every NVRTC
# candidate of mm.cu with MMRANK_BUG, a kernel that drops the last k step)
# runs on 16 edge inputs (check/gpu/edge_shapes.sh: 17x33x65 and 128^3, the
# four dtypes, transpose_left): every NVRTC row must be inf and "wrong
# result" said, every extern_mm (cuBLAS) row finite.
# Environment: BENCH_BUG (default build/test/bench-bug), DEVICE (default 0),
# RESULTS (a folder for its stderr, default the scratch folder),
# BAD_CUBIN_CACHE (bench-bug's cubins, default a fresh folder: compiled
# here; bench-bug --compile-only sm_90 --cache DIR fills one on a CPU).
# Also run by check/gpu/test_bench_gpu.sh.
. check/lib.sh
BB=${BENCH_BUG:-$ROOT/build/test/bench-bug}
RES=${RESULTS:-$TMP}
mkdir -p "$RES"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	skip bench-gpu-bad-kernel "no NVIDIA GPU here"; finish
fi
if [ ! -x "$BB" ]; then
	fail bench-gpu-bad-kernel-rejected "$BB missing (make test-bins, or set BENCH_BUG)"; finish
fi
bash "$ROOT/check/gpu/edge_shapes.sh" > "$TMP/shapes.tsv"
head -n 1 "$TMP/shapes.tsv" > "$TMP/few.tsv"
awk -F'\t' 'NR > 1 && ($3 == 17 || $3 == 128) && $8 == 1' "$TMP/shapes.tsv" >> "$TMP/few.tsv"
"$BB" --kernels "$ROOT/kernels" --device "${DEVICE:-0}" --cache "${BAD_CUBIN_CACHE:-$TMP/badcache}" --reps 1 \
	"$TMP/few.tsv" "$TMP/bad.txt" 2> "$RES/gpu_bad_kernel.err"
rc=$?
nb=$(grep -c 'type=nvrtc.*,inf$' "$TMP/bad.txt"); nt=$(grep -c 'type=nvrtc' "$TMP/bad.txt")
ne=$(grep -c ',extern_mm,inf$' "$TMP/bad.txt"); nx=$(grep -c ',extern_mm,' "$TMP/bad.txt")
nw=$(grep -c 'wrong result' "$RES/gpu_bad_kernel.err")
echo "  bench-bug: exit $rc, $(($(wc -l < "$TMP/few.tsv") - 1)) inputs, $nb of $nt nvrtc rows inf, $ne of $nx extern_mm rows inf, $nw 'wrong result' lines"
[ "$nt" -gt 0 ] && [ "$nb" = "$nt" ] && [ "$nx" -gt 0 ] && [ "$ne" = 0 ] && [ "$nw" -gt 0 ] \
	&& ok bench-gpu-bad-kernel-rejected \
	|| fail bench-gpu-bad-kernel-rejected "$nb of $nt nvrtc rows inf, $ne of $nx extern inf, $nw wrong: $(tail -2 "$RES/gpu_bad_kernel.err" | tr '\n' '|')"
finish
