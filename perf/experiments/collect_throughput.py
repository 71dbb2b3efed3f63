#!/usr/bin/env python3
"""perf/experiments/collect_throughput.py STATS... -- inputs/hour/GPU of a
collection from bench's --stats files (one per shard run; make collect writes
out/<gpu>/collect/stats_<dev>.tsv), with the time breakdown.

Each file: "key<TAB>value" lines (bench --stats; several files may be
concatenated into one, each starting with its "key value" header).  Sums
inputs_measured and wall_s over the runs (a GPU-second is one shard's wall
second), and the phases bench accounts: compilation (NVRTC), module load,
buffer setup, cuBLAS reference calls, first-use verification, screening,
timing of NVRTC / extern_mm / cuBLASLt choices; "other" is the rest of the
wall time (log writing, host work).  Prints one line per run, the total
inputs/hour/GPU, and seconds and shares per phase.
"""
import sys

PHASES = ['compile_s', 'module_load_s', 'setup_s', 'reference_s', 'verify_s', 'screen_s',
          'timing_nvrtc_s', 'timing_extern_s', 'timing_cublaslt_s']


def runs(paths):
    for p in paths:
        cur = None
        for line in open(p):
            k, _, v = line.rstrip('\n').partition('\t')
            if k == 'key':
                if cur:
                    yield p, cur
                cur = {}
            elif cur is not None and v:
                cur[k] = v
        if cur:
            yield p, cur


tot = {k: 0.0 for k in PHASES + ['wall_s', 'inputs_measured', 'screened_inputs', 'screened_out',
                                  'verify_failures', 'compiles']}
for p, r in runs(sys.argv[1:]):
    n, w = float(r['inputs_measured']), float(r['wall_s'])
    print(f"{p}: shard {r.get('shard', '?')}, {n:.0f} inputs in {w:.1f} s = "
          f"{3600 * n / w if w else 0:.0f} inputs/hour")
    for k in tot:
        tot[k] += float(r.get(k, 0) or 0)
w = tot['wall_s']
print(f"total: {tot['inputs_measured']:.0f} inputs in {w:.1f} GPU-seconds = "
      f"{3600 * tot['inputs_measured'] / w:.0f} inputs/hour/GPU")
acc = 0.0
for k in PHASES:
    acc += tot[k]
    print(f"  {k:18s} {tot[k]:9.1f} s {100 * tot[k] / w:5.1f} %")
print(f"  {'other':18s} {w - acc:9.1f} s {100 * (w - acc) / w:5.1f} %")
if w - acc < 0:
    print("  (negative: bench before commit 'screen_s without the slice verifications'"
          " counted them in both screen_s and verify_s)")
print(f"  compiles {tot['compiles']:.0f}, screened inputs {tot['screened_inputs']:.0f}, "
      f"candidates screened out {tot['screened_out']:.0f}, verification failures "
      f"{tot['verify_failures']:.0f}")
