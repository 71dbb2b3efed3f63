# perf/experiments/device_prelude.sh — sourced by the one-call device scripts
# (adaptive_bench.sh, wgmma_bench.sh).  Sets OUT (default out/device), R (a
# scratch folder for logs), BIN (default build/bin); sends the console to
# $OUT/console.txt as well; unpacks the carried cubin cache
# .devcarry/cubin.tar.xz (it holds build/cubin/<hash>-...cubin paths, so it
# is extracted at the repository root); prints the GPU and the date.
set -u
OUT=${OUT:-out/device}
R=$(mktemp -d)
BIN=${BIN:-build/bin}
mkdir -p "$OUT" build/cubin
exec > >(tee "$OUT/console.txt") 2>&1
[ -f .devcarry/cubin.tar.xz ] && tar xJf .devcarry/cubin.tar.xz
echo "cubins in the cache: $(ls build/cubin | wc -l)"
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv
date -u
