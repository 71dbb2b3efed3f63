#!/usr/bin/env python3
"""check/screen_rule.py LOG0 LOG BETA SCREEN_MS -- verify bench-fake's
screening (bench --screen BETA --screen-ms SCREEN_MS; stages/bench.h
bench_screen_slice, bench_screen_keep) against the same run with --screen 0.

bench-fake's slice keeps the ratios of the full-size times, so from LOG0's
first repetitions alone: an input is screened iff extern_mm's first time is
finite and >= SCREEN_MS and k or m can be sliced (a multiple of 256, >= 2048,
~dim * 0.5 / ref_ms, at most half the dimension); then exactly the candidates
(not cuBLASLt) whose first time is <= BETA x the best one (extern_mm
included) keep their rows in LOG, the others have none.  Inputs that are not
screened have the same choices in both logs.  Prints "SCREENED DROPPED";
exit 1 naming the first input that breaks the rule.
"""
import math, sys


def firsts(path):
    """[(features, {choice: first feedback}, [choices in order])] per input"""
    out = []
    for line in open(path).read().split('\n')[2:]:
        if not line:
            continue
        f, c, v = line.rsplit(',', 2)
        if not out or out[-1][0] != f:
            out.append((f, {}, []))
        if c not in out[-1][1]:
            out[-1][1][c] = float(v)
            out[-1][2].append(c)
    return out


def slice_len(d, ref):
    s = max(2048, (math.ceil(d * 0.5 / ref) + 255) // 256 * 256)
    return s if 2 * s <= d else 0


log0, log, beta, screen_ms = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
a, b = firsts(log0), firsts(log)
if [x[0] for x in a] != [x[0] for x in b]:
    print('the two logs hold different inputs')
    sys.exit(1)
screened = dropped = 0
for (f, t0, order), (_, _, got) in zip(a, b):
    m, k = int(f.split(',')[0]), int(f.split(',')[1])
    ref = t0['extern_mm']
    if math.isfinite(ref) and ref >= screen_ms and (slice_len(k, ref) or slice_len(m, ref)):
        screened += 1
        best = min(v for c, v in t0.items() if not c.startswith('type=cublaslt'))
        want = [c for c in order if c == 'extern_mm' or c.startswith('type=cublaslt')
                or (math.isfinite(t0[c]) and t0[c] <= beta * best)]
    else:
        want = order
    if got != want:
        print(f'input {f}: choices {got[:4]}..., expected {want[:4]}...')
        sys.exit(1)
    dropped += len(order) - len(got)
print(screened, dropped)
