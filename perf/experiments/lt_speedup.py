#!/usr/bin/env python3
"""lt_speedup.py LOG [LOG...] — how much the cuBLASLt choices (bench
--cublaslt) gain over extern_mm, from AutoHeuristic logs (a .part of an
unfinished run is fine: its complete inputs are used).

Per input: the median feedback (ms) of each choice over its rows (inf if
any is inf, as featurize aggregates); extern = extern_mm's median, lt = the
best finite cuBLASLt median.  Prints, per log and per type class (f32, tf32,
f16, bf16): inputs, inputs where a cuBLASLt choice beats extern_mm by >= 5 %
(extern / lt >= 1.05), the geometric mean of extern / min(extern, lt)
(speedup of best-of(extern_mm + cuBLASLt) over extern_mm), its maximum, and
per algorithm how often it is the best of the input.  Inputs whose
extern_mm is inf are left out (counted)."""
import math
import sys
from collections import OrderedDict, Counter


def inputs(path):
    lines = open(path).read().split('\n')
    if lines and lines[-1] != '':
        lines = lines[:-1]          # torn last line of a .part
    cur, rows = None, OrderedDict()
    for l in lines[2:]:
        if not l:
            continue
        f = l.split(',')
        feat, choice, fb = ','.join(f[:12]), f[12], float(f[13])
        if feat != cur:
            if cur is not None:
                yield cur, rows
            cur, rows = feat, OrderedDict()
        rows.setdefault(choice, []).append(fb)
    if cur is not None:
        yield cur, rows       # a .part's last input may be incomplete: dropped below


def median(v):
    if any(math.isinf(x) for x in v):
        return math.inf
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def cls(feat):
    f = feat.split(',')
    return {'torch.float16': 'f16', 'torch.bfloat16': 'bf16'}.get(
        f[3], 'tf32' if f[11] == 'True' else 'f32')


def report(path):
    ins = list(inputs(path))
    if path.endswith('.part') and ins:
        ins = ins[:-1]
    stats = OrderedDict((c, [0, 0, 0.0, 1.0, 0]) for c in ('all', 'f32', 'tf32', 'f16', 'bf16'))
    wins, skipped = Counter(), 0
    for feat, rows in ins:
        med = {c: median(v) for c, v in rows.items()}
        ext = med.get('extern_mm', math.inf)
        lts = {c: m for c, m in med.items() if c.startswith('type=cublaslt') and math.isfinite(m)}
        if not math.isfinite(ext):
            skipped += 1
            continue
        best_c, best = min(lts.items(), key=lambda kv: kv[1]) if lts else (None, math.inf)
        sp = ext / min(ext, best)
        if best < ext:
            wins[best_c] += 1
        for c in ('all', cls(feat)):
            s = stats[c]
            s[0] += 1
            s[1] += ext / best >= 1.05
            s[2] += math.log(sp)
            s[3] = max(s[3], sp)
            s[4] += bool(lts)
    print(f'{path}: {len(ins)} complete inputs, {skipped} with extern_mm inf (left out)')
    print(f'  {"class":5} {"inputs":>6} {"with_lt":>7} {"lt>=5%":>6} {"share":>6} {"gmean_speedup":>13} {"max":>6}')
    for c, (n, w, ls, mx, wl) in stats.items():
        if n:
            print(f'  {c:5} {n:6d} {wl:7d} {w:6d} {100.0 * w / n:5.1f}% {math.exp(ls / n):13.4f} {mx:6.3f}')
    print('  best cuBLASLt choice faster than extern_mm (any margin), per algorithm:')
    for c, n in wins.most_common():
        print(f'    {n:5d}  {c}')


if __name__ == '__main__':
    for p in sys.argv[1:]:
        try:
            report(p)
        except FileNotFoundError:
            print(f'{p}: missing')
