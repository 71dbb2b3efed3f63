#!/usr/bin/env python3
"""perf/experiments/throughput_model.py SHAPES -- where collection time goes on a
shape distribution (a model, not a measurement; used to explain the measured
inputs/hour in perf/results/gpu/adaptive_h200/README.md).

Input: sample's shapes.tsv (e.g. `build/bin/sample --seed 11 --samples 20000`).
Model per input, FLOP = 2*m*n*k: cuBLAS time T = FLOP / rate(dtype) + 10 us
with rate = 851 (fp16, bf16), 450 (tf32), 51 (fp32) TFLOP/s (cuBLAS at 8192^3,
../shared/device.md); our tensor-core template at 0.45 (fp16/bf16), 0.34
(tf32), 0.73 (fp32 FFMA) of cuBLAS (perf/results/kernels/h200.txt).  With
adaptive repetitions a large input costs about 5 cuBLAS calls (reference,
warm-up, 3 repetitions) plus one call per candidate (30 candidates): the
candidates are all > 1.5x slower than cuBLAS there.
Output: mean seconds per input, inputs/hour, share of the time per dtype.
"""
import csv
import sys

RATE = {'f32': 51e12, 'tf32': 450e12, 'torch.float16': 851e12, 'torch.bfloat16': 851e12}
OURS = {'f32': 0.73, 'tf32': 0.34, 'torch.float16': 0.45, 'torch.bfloat16': 0.45}
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
tot, by = 0.0, {}
for r in rows:
    d = r['dtype']
    if d == 'torch.float32':
        d = 'tf32' if r['tf32'] == '1' else 'f32'
    fl = 2 * int(r['m']) * int(r['n']) * int(r['k'])
    t = fl / RATE[d] + 10e-6
    s = 5 * t + 30 * t / OURS[d]
    tot += s
    b = by.setdefault(d, [0, 0.0, 0.0])
    b[0] += 1
    b[1] += s
    b[2] += fl
n = len(rows)
print(f"{n} inputs, mean {sum(v[2] for v in by.values()) / n / 1e12:.2f} TFLOP per input")
print(f"model: {tot / n:.3f} s per input -> {3600 * n / tot:.0f} inputs/hour")
for d, (c, s, fl) in sorted(by.items()):
    print(f"  {d:15s} {100 * c / n:5.1f} % of inputs, {100 * s / tot:5.1f} % of the time")
