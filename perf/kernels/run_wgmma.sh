#!/usr/bin/env bash
# perf/kernels/run_wgmma.sh — on a GPU machine: correctness test, then the
# benchmark of kernels/wgmma.cu vs cuBLAS (8192^3 bf16 x 4 transposes and
# fp16 NN, the LLM shapes), plus the SASS instruction mix of one cubin.
# Usage: perf/kernels/run_wgmma.sh [OUTDIR] (default perf/results/kernels).
# Writes OUTDIR/wgmma-test.txt and OUTDIR/wgmma-h200.txt.  Environment:
# MMA_CACHE (cubin cache, default build/mma-cache; `build/mma/wgmma_harness
# precompile` fills it without a GPU), T_TEST / T_BENCH (time limits in s
# of the two phases, default 150 / 150: a hung kernel must not eat the
# lease).  Exit status: 0 when both phases passed.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTD=${1:-perf/results/kernels}
mkdir -p "$OUTD"
CACHE=${MMA_CACHE:-build/mma-cache}
[ -x build/mma/wgmma_harness ] || bash perf/kernels/build.sh
H=build/mma/wgmma_harness
hdr() {
	echo "# command: perf/kernels/run_wgmma.sh ($1)"
	echo "# date: $(date -u +%Y-%m-%dT%H:%MZ); git: $(git rev-parse --short HEAD 2>/dev/null || echo none)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /'
}
{ hdr "wgmma_harness test"; timeout "${T_TEST:-150}" $H test --cache "$CACHE"; echo "test exit $?"; } 2>&1 | tee "$OUTD/wgmma-test.txt"
trc=$(tail -1 "$OUTD/wgmma-test.txt" | sed -n 's/^test exit //p')
{ hdr "wgmma_harness bench"; timeout "${T_BENCH:-150}" $H bench --cache "$CACHE"; echo "bench exit $?"; } 2>&1 | tee "$OUTD/wgmma-h200.txt"
brc=$(tail -1 "$OUTD/wgmma-h200.txt" | sed -n 's/^bench exit //p')
echo "test exit $trc, bench exit $brc"
[ "$trc" = 0 ] && [ "$brc" = 0 ]
