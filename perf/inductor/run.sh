#!/usr/bin/env bash
# perf/inductor/run.sh — ONE device call: Inductor's discovery
# picks our artifact, and the "In Inductor" measurement.  Needs a CUDA GPU
# and torch.
#   1. make install-artifact's step: ARTIFACT copied into torch's artifacts
#      folder (python3 -m mmrank.install_artifact); the discovery order is
#      printed (ours must come first and be the one used on this GPU)
#   2. perf/inductor/dropin.py: full autotune vs shipped MMRankingH100 vs ours
#      (found by Inductor's own discovery, --discover) on perf/inductor/
#      shapes.tsv, REPS fresh-cache rounds each, time-limited
#   3. uninstall; the discovery order again (the shipped one must be used)
#   4. perf/inductor/report.py: the table and summary
# If torch's folder is not writable, step 1 fails and ours is registered in
# process instead (dropin.py without --discover; the report says so).
# usage: perf/inductor/run.sh [ARTIFACT]   (default out/h200/_MMRankingH200.py
#        if it exists, else gen/_MMRankingH100.py, our H100 tree)
# Environment: OUT (default out/device), TIME_LIMIT (seconds for dropin.py,
#   default 450: it starts no new shape after that; a shape takes ~25-60 s,
#   f32 ones more),
#   SHAPES (a shapes list, default perf/inductor/shapes.tsv; perf/inductor/
#   shapes_unseen.tsv: 32 shapes, 20 real-model ones of models absent from
#   the H200 training data, none of its (m, k, n, dtype) in it),
#   SUBSET (rows of shapes.tsv, e.g. 0-14), REPS (default 3), COLD=1 (every
#   round with a fresh Triton cache, not only round 0), RESUME (the
#   inductor.jsonl of an earlier call, carried: its records are kept and
#   the missing ones measured).
# Writes under $OUT: inductor.jsonl (one record per shape, mode, round; torch
#   and Triton versions in each), inductor.md (table + summary), inductor.json,
#   order_installed.txt, order_after.txt, dropin.err, console.txt.
# Expected duration: TIME_LIMIT + ~60 s (two discovery listings import torch).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
OUT=${OUT:-out/device}
mkdir -p "$OUT"
exec > >(tee "$OUT/console.txt") 2>&1
art=${1:-}
[ -n "$art" ] || { [ -f out/h200/_MMRankingH200.py ] && art=out/h200/_MMRankingH200.py || art=gen/_MMRankingH100.py; }
[ -f "$art" ] || { echo "no artifact $art"; exit 1; }
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv
date -u
INS="python3 -m mmrank.install_artifact"
discover=()
if $INS install "$art" && $INS order | tee "$OUT/order_installed.txt"; then
	discover=(--discover)
else
	echo "install failed: ours is registered in process (no --discover)"
fi
[ -n "${RESUME:-}" ] && [ -f "$RESUME" ] && cp "$RESUME" "$OUT/inductor.jsonl"
timeout $((${TIME_LIMIT:-450} + 120)) python3 perf/inductor/dropin.py --ours "$art" "${discover[@]}" \
	--reps "${REPS:-3}" ${COLD:+--cold} ${SUBSET:+--subset "$SUBSET"} ${SHAPES:+--shapes "$SHAPES"} \
	--time-limit "${TIME_LIMIT:-450}" "$OUT/inductor.jsonl" 2> >(tee "$OUT/dropin.err" >&2)
echo "dropin exit $?"
if [ ${#discover[@]} -gt 0 ]; then
	$INS uninstall --all
	$INS order | tee "$OUT/order_after.txt"
fi
python3 perf/inductor/report.py "$OUT/inductor.jsonl" --json "$OUT/inductor.json" | tee "$OUT/inductor.md"
date -u
