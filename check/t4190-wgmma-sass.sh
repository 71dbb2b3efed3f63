#!/usr/bin/env bash
# check/t4190-wgmma-sass.sh — CPU-side check of the Hopper template
# kernels/wgmma.cu (no GPU needed): the wgmma harness (perf/kernels/
# build.sh) NVRTC-compiles one configuration (128x256x64, 4 stages, 12 warps)
# for fp16 and bf16 with --gpu-architecture=sm_90a, and each cubin's SASS
# (cuobjdump -sass) must hold the warpgroup MMA (HGMMA.64x256x16.F32 for fp16,
# .F32.BF16 for bf16), the TMA load (UTMALDG) and the register reallocation (USETMAXREG),
# with no local-memory spills (STL).  Skips with the reason when the CUDA
# toolkit (headers, NVRTC, cuBLAS) or cuobjdump is missing.
# Environment: CUDA (toolkit, default /usr/local/cuda), CUOBJDUMP (default:
# cuobjdump on PATH, else $CUDA/bin/cuobjdump).
. check/lib.sh
CUDA=${CUDA:-/usr/local/cuda}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")}
test_require NVRTC,CUOBJDUMP wgmma-sass
if ! bash perf/kernels/build.sh >"$TMP/build.log" 2>&1; then
	if grep -q "cublas_v2.h\|cannot find -l" "$TMP/build.log"; then
		skip wgmma-sass "[CUDA] CUDA toolkit incomplete: $(head -c 200 "$TMP/build.log")"; finish
	fi
	fail wgmma-sass-build "$(head -c 300 "$TMP/build.log")"; finish
fi
mkdir -p "$TMP/k"
cp kernels/wgmma.cu kernels/mma.cu "$TMP/k/"
printf 'list\tBLOCK_M\tBLOCK_N\tBLOCK_K\tnum_stages\tnum_warps\nbase\t128\t256\t64\t4\t12\n' >"$TMP/k/wgmma_configs.tsv"
if ! build/mma/wgmma_harness precompile --kernels "$TMP/k" --cache "$TMP/cache" --jobs 2 >"$TMP/pre.log" 2>&1; then
	fail wgmma-nvrtc "$(tail -c 400 "$TMP/pre.log")"; finish
fi
ok wgmma-nvrtc
# cuobjdump prints fp16 HGMMA without a type suffix (HGMMA.64x256x16.F32 R..)
for ty in F16 BF16; do
	[ $ty = F16 ] && pat="HGMMA.64x256x16.F32 " || pat="HGMMA.64x256x16.F32.BF16 "
	found=
	for f in "$TMP"/cache/*.cubin; do
		"$CUOBJDUMP" -sass "$f" >"$TMP/sass" 2>&1 || { fail wgmma-sass-$ty "cuobjdump failed on $f"; continue; }
		grep -qF "$pat" "$TMP/sass" || continue
		found=1
		n=$(grep -cF "$pat" "$TMP/sass")
		[ "$n" -eq 16 ] || fail wgmma-sass-$ty "expected 16 HGMMA (4 kernels x BK/16), found $n"
		grep -q UTMALDG "$TMP/sass" && grep -q USETMAXREG "$TMP/sass" \
			|| fail wgmma-sass-$ty "UTMALDG or USETMAXREG missing"
		grep -q "STL" "$TMP/sass" && fail wgmma-sass-$ty "local-memory stores (spills) in the SASS"
	done
	[ -n "$found" ] && ok wgmma-sass-$ty || fail wgmma-sass-$ty "no cubin with $pat"
done
finish
