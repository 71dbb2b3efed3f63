#!/usr/bin/env bash
# check/gpu/test_mma.sh — correctness of the tensor-core template
# kernels/mma.cu against cuBLAS (run on a machine with an NVIDIA GPU).
# Every configuration of kernels/mma_configs.tsv (plus each one shrunk to
# 16x16x16 tiles, spec §3.5) x dtype (fp16, bf16, fp32 with tf32, fp32) x
# the four transposes x edge shapes (m, n, k in {1, 15, 17, 127, 129, odd},
# k = 1, 16-byte-aligned shapes, long odd k for the pipeline wrap-around),
# and the split-K variant (incl. more slices than k-tiles): output poisoned
# with NaN before each launch; pass = no non-finite element and relative
# Frobenius and max-norm errors vs a pedantic-fp32 cuBLAS reference within
# the dtype tolerance (perf/kernels/harness_gpu.c TOL_FRO / TOL_MAX).
# Without a GPU: prints "skip mma: no GPU" and exits 0.
# Environment: CUDA (toolkit, default /usr/local/cuda), MMA_CACHE (cubin
# cache, default build/mma-cache; missing cubins are compiled by NVRTC).
# Exit status: 0 pass or skip, 1 a failed check or build.
set -u
cd "$(dirname "$0")/../.."
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	echo "skip mma: no GPU"
	exit 0
fi
if ! bash perf/kernels/build.sh; then
	[ -x build/mma/mma_harness ] || { echo "FAIL mma: cannot build the harness"; exit 1; }
	echo "mma: build failed here, using the existing build/mma/mma_harness"
fi
build/mma/mma_harness test --cache "${MMA_CACHE:-build/mma-cache}" "$@"
rc=$?
[ $rc -eq 0 ] && echo "ok mma" || echo "FAIL mma (exit $rc)"
[ $rc -eq 0 ]
