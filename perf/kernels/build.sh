#!/usr/bin/env bash
# perf/kernels/build.sh — build the mma and wgmma harnesses (C11, gcc)
# into build/mma/ (mma_harness, wgmma_harness).
# Needs the CUDA toolkit headers and libraries (CUDA, default /usr/local/cuda).
# The driver API is reached through cudaGetDriverEntryPointByVersion, so the
# binary is not linked with -lcuda and starts (and says "no GPU") on a
# machine without the NVIDIA driver.  Exit status: gcc's.
set -euo pipefail
cd "$(dirname "$0")/../.."
CUDA=${CUDA:-/usr/local/cuda}
mkdir -p build/mma
gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Istages/lib -I"$CUDA/include" \
	perf/kernels/mma_harness.c stages/cuda/nvrtc_cache.c stages/lib/util.c -o build/mma/mma_harness.new \
	-L"$CUDA/lib64" -Wl,-rpath,"$CUDA/lib64" -lcublas -lnvrtc -lcudart -lm
mv build/mma/mma_harness.new build/mma/mma_harness
gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Istages/lib -I"$CUDA/include" \
	perf/kernels/wgmma_harness.c stages/cuda/wgmma_launch.c stages/cuda/nvrtc_cache.c stages/lib/util.c -o build/mma/wgmma_harness.new \
	-L"$CUDA/lib64" -Wl,-rpath,"$CUDA/lib64" -lcublas -lnvrtc -lcudart -lm
mv build/mma/wgmma_harness.new build/mma/wgmma_harness
