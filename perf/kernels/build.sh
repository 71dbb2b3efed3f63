#!/usr/bin/env bash
# perf/kernels/build.sh — build the mma and wgmma harnesses into build/mma/
# (mma_harness, wgmma_harness): `make harnesses` (mk/collect.mk), which
# links each with the harness library (perf/kernels/harness.c,
# harness_gpu.c), libmmcuda (stages/gpu/cuda/) and libmmrank (stages/core, formats, learn).
# Needs the CUDA toolkit headers and libraries (CUDA, default
# /usr/local/cuda).  The driver API is reached through
# cudaGetDriverEntryPointByVersion, so the binaries are not linked with
# -lcuda and start (and say "no GPU") on a machine without the NVIDIA driver.
# Exit status: make's.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec make --no-print-directory BUILD=build CUDA="${CUDA:-/usr/local/cuda}" harnesses
