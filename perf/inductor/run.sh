#!/usr/bin/env bash
# perf/inductor/run.sh — our H100/H200 mm heuristic inside Inductor, side by
# side with PyTorch's shipped MMRankingH100 and a full autotune (issue "Use
# the learned heuristic", item 2).  Needs a CUDA GPU and torch (run on the
# H200 machine); writes JSON lines to OUT (default perf/results/inductor/h200.jsonl)
# and a table to stdout.
# usage: perf/inductor/run.sh [OUT]   (ARTIFACT=gen/_MMRankingH100.py by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-perf/results/inductor/h200.jsonl}
art=${ARTIFACT:-gen/_MMRankingH100.py}
shipped=$(python3 -c 'import torch._inductor.autoheuristic.artifacts as a, os; print(os.path.join(a.__path__[0], "_MMRankingH100.py"))')
shapes=(4096,4096,4096,f16 8192,1024,8192,bf16 1152,10112,2048,bf16 12544,840,151,f16
        64,4096,14336,bf16 2048,512,32000,f16,0,1 16384,1024,1024,f32)
mkdir -p "$(dirname "$out")"
: > "$out.part"
for mode in full shipped ours; do
	a=$art; [ $mode = shipped ] && a=$shipped
	PYTHONUNBUFFERED=1 timeout 300 python3 perf/inductor/dropin.py $mode "$a" "${shapes[@]}" \
		2> >(grep -vE 'Warning|warn' >&2) | tee -a "$out.part"
done
mv "$out.part" "$out"
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["shape"], {})[r["mode"]] = r
print(f"{'shape':28} | {'candidates full/shipped/ours':28} | {'compile s full/shipped/ours':28} | {'run ms full/shipped/ours':30} | top10+extern only (shipped/ours)")
for s, d in by.items():
    g = lambda m, k: d.get(m, {}).get(k)
    fmt = lambda x: "-" if x is None else (f"{x:.3f}" if isinstance(x, float) else str(x))
    print(f"{s:28} | {' / '.join(fmt(g(m,'n_benchmarked')) for m in ('full','shipped','ours')):28} | "
          f"{' / '.join(fmt(g(m,'compile_s')) for m in ('full','shipped','ours')):28} | "
          f"{' / '.join(fmt(g(m,'run_ms')) for m in ('full','shipped','ours')):30} | "
          f"{fmt(g('shipped','only_top10_plus_extern_mm'))} / {fmt(g('ours','only_top10_plus_extern_mm'))}")
PY
