#!/usr/bin/env python3
"""check/screen_rule.py LOG0 LOG BETA SCREEN_MS -- verify bench-fake's
screening (bench --screen BETA --screen-ms SCREEN_MS; stages/gpu/bench/screen.h
bench_screen_slice, bench_screen_verdicts) against the same run with --screen 0.

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
    """[(features, [(choice, first feedback)] in plan order)] per input.  The
    first repetition ends where extern_mm's second row begins (extern_mm is
    finite in bench-fake and always repeated); a plan can list one id twice
    (Inductor dedups within its base and extra lists, not across), so the
    list keeps duplicates."""
    out = []
    for line in open(path).read().split('\n')[2:]:
        if not line:
            continue
        f, c, v = line.rsplit(',', 2)
        if not out or out[-1][0] != f:
            out.append((f, [], [False]))
        if c == 'extern_mm' and out[-1][1]:
            out[-1][2][0] = True  # repetition 2 began
        if not out[-1][2][0]:
            out[-1][1].append((c, float(v)))
    return [(f, rows) for f, rows, _ in out]


def slice_len(d, ref):
    s = max(2048, (math.ceil(d * 0.5 / ref) + 255) // 256 * 256)
    return s if 2 * s <= d else 0


log0, log, beta, screen_ms = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
a, b = firsts(log0), firsts(log)
if [x[0] for x in a] != [x[0] for x in b]:
    print('the two logs hold different inputs')
    sys.exit(1)
screened = dropped = 0
for (f, rows0), (_, rows) in zip(a, b):
    m, k = int(f.split(',')[0]), int(f.split(',')[1])
    ref = rows0[0][1]
    got = [c for c, _ in rows]
    if math.isfinite(ref) and ref >= screen_ms and (slice_len(k, ref) or slice_len(m, ref)):
        screened += 1
        best = min(v for c, v in rows0 if not c.startswith('type=cublaslt'))
        want = [c for c, v in rows0 if c == 'extern_mm' or c.startswith('type=cublaslt')
                or (math.isfinite(v) and v <= beta * best)]
    else:
        want = [c for c, _ in rows0]
    if got != want:
        print(f'input {f}: choices {got[:4]}..., expected {want[:4]}...')
        sys.exit(1)
    dropped += len(rows0) - len(rows)
print(screened, dropped)
