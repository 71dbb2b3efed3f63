#!/usr/bin/env bash
# perf/experiments/use_heuristic.sh — one device call for the learned
# heuristic in bench: (1) bench --use-heuristic on fresh inputs with the H200 tree
# (make evaluate-online without make: binaries and cubins are carried), and
# (2) the Inductor drop-in comparison (perf/inductor/run.sh).
# usage: perf/experiments/use_heuristic.sh [SAMPLES] [MAX_GFLOP]
# Needs build/bin/{sample,bench}, build/cubin, out/h200/pruned.tsv (carried).
# Output under $OUT (default out/device): online.tsv, online.err, inductor.jsonl,
# inductor.txt, console.txt.
set -u
OUT=${OUT:-out/device}
mkdir -p "$OUT" out/h200/online
exec > >(tee "$OUT/console.txt") 2>&1
SAMPLES=${1:-10} MAXG=${2:-50}
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv
date -u
echo "=== evaluate-online: $SAMPLES samples (x4 inputs), seed 9001, max ${MAXG} GFLOP ==="
build/bin/sample --seed 9001 --samples "$SAMPLES" --max-gflop "$MAXG" out/h200/online/shapes.tsv
timeout 240 build/bin/bench --device 0 --reps 3 --cache build/cubin --use-heuristic out/h200/pruned.tsv \
	--ranking 10 out/h200/online/shapes.tsv out/h200/online/online.tsv 2> >(tee "$OUT/online.err" >&2)
echo "bench exit $?"
cp out/h200/online/online.tsv "$OUT/" 2>/dev/null
echo "=== inductor drop-in ==="
timeout 400 bash perf/inductor/run.sh "$OUT/inductor.jsonl" | tee "$OUT/inductor.txt"
echo "run.sh exit $?"
date -u
