#!/usr/bin/env bash
# perf/kernels/run.sh — on a GPU machine: correctness test, then the
# benchmark of kernels/mma.cu vs cuBLAS (8192^3 per dtype, LLM shapes,
# sampled spec §3.3 shapes).  Usage: perf/kernels/run.sh [OUTDIR]
# (default perf/results/kernels).  Writes OUTDIR/test.txt (test log),
# OUTDIR/h200.txt (benchmark tables) and OUTDIR/sampled.tsv (one row per
# sampled input).  Environment: MMA_CACHE (cubin cache, default
# build/mma-cache; `build/mma/mma_harness precompile` fills it without a
# GPU), SAMPLES (200), SEED (1), CAP_MS (2), BUDGET_S (150).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTD=${1:-perf/results/kernels}
mkdir -p "$OUTD"
CACHE=${MMA_CACHE:-build/mma-cache}
bash perf/kernels/build.sh || [ -x build/mma/mma_harness ]
H=build/mma/mma_harness
set +e
bash check/gpu/test_mma.sh 2>&1 | tee "$OUTD/test.txt"
trc=${PIPESTATUS[0]}
ARGS="--samples ${SAMPLES:-200} --seed ${SEED:-1} --cap-ms ${CAP_MS:-2} --budget-s ${BUDGET_S:-150}"
{
	echo "# command: perf/kernels/run.sh (mma_harness bench $ARGS)"
	echo "# date: $(date -u +%Y-%m-%dT%H:%MZ); git: $(git rev-parse --short HEAD 2>/dev/null || echo none)"
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /'
	$H bench --cache "$CACHE" $ARGS --tsv "$OUTD/sampled.tsv"
} 2>&1 | tee "$OUTD/h200.txt"
brc=${PIPESTATUS[0]}
echo "test exit $trc, bench exit $brc"
[ $trc -eq 0 ] && [ $brc -eq 0 ]
