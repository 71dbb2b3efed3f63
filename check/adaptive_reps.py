#!/usr/bin/env python3
"""check/adaptive_reps.py LOG ALPHA -- verify bench's adaptive repetitions
(bench --fast-reject ALPHA, stages/gpu/bench/block.h bench_full_reps) from the log alone.

Per input: the first repetition of every candidate in plan order, then
repetitions 2..3 only for candidates whose first one is finite and <= ALPHA x
the running best first repetition (ALPHA <= 0: every candidate).  Prints
"FULL ONE" (candidates with all repetitions, with one row); exit 1 naming the
first input that breaks the rule.  Assumes 3 repetitions and a finite
extern_mm (it ends the first repetition: it always gets every repetition).
"""
import math, sys
path, alpha = sys.argv[1], float(sys.argv[2])
rows = [l.rsplit(',', 2) for l in open(path).read().split('\n')[2:] if l]
blocks, cur = [], None
for f, c, v in rows:
    if f != cur:
        blocks.append([]); cur = f
    blocks[-1].append((c, float(v)))
full = one = 0
for b in blocks:
    # extern_mm (finite in bench-fake) always gets every repetition, so the
    # first repetition ends where extern_mm's second row begins
    ext = [i for i, (c, _) in enumerate(b) if c == 'extern_mm']
    n = ext[1] if len(ext) > 1 else len(b)
    first, best, want = b[:n], math.inf, []
    for c, t in first:
        best = min(best, t)
        if alpha <= 0 or (math.isfinite(t) and t <= alpha * best):
            want.append(c)
    rest = [c for c, _ in b[n:]]
    if rest != want * 2:
        print('input with first choices', [c for c, _ in first][:3], 'has extra rows', rest[:4], 'expected', want[:4])
        sys.exit(1)
    full += len(want); one += n - len(want)
print(full, one)
