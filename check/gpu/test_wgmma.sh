#!/usr/bin/env bash
# check/gpu/test_wgmma.sh — correctness of the Hopper template kernels/wgmma.cu
# (wgmma + TMA) against cuBLAS on a machine with an NVIDIA Hopper GPU: every
# configuration of kernels/wgmma_configs.tsv x {fp16, bf16} x the four
# transposes x edge shapes (m, n, k in {1, 8, 15, 16, 17, 127, 129, ...,
# 8200}, odd where TMA allows it, k = 1 where allowed), output poisoned with
# NaN before each launch; pass = no non-finite element and relative
# Frobenius / max-norm errors vs a pedantic-fp32 cuBLAS reference within the
# dtype tolerance (perf/kernels/harness_gpu.c TOL_FRO / TOL_MAX).
# Without a GPU: prints "skip wgmma: no GPU" and exits 0.
# Environment: CUDA (toolkit, default /usr/local/cuda), MMA_CACHE (cubin
# cache, default build/mma-cache; missing cubins are compiled by NVRTC).
# Exit status: 0 pass or skip, 1 a failed check or build.
set -u
cd "$(dirname "$0")/../.."
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip wgmma: no GPU"
	exit 0
fi
if ! bash perf/kernels/build.sh; then
	[ -x build/mma/wgmma_harness ] || { echo "FAIL wgmma: cannot build the harness"; exit 1; }
	echo "wgmma: build failed here, using the existing build/mma/wgmma_harness"
fi
build/mma/wgmma_harness test --cache "${MMA_CACHE:-build/mma-cache}" "$@"
rc=$?
[ $rc -eq 0 ] && echo "ok wgmma" || echo "FAIL wgmma (exit $rc)"
[ $rc -eq 0 ]
