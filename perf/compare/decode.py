#!/usr/bin/env python3
"""perf/compare/decode.py [--bin BIN] [--m LO:HI] [--kmin K] NAME=TREE.tsv... FEAT.tsv
-- the head of the leaf lists on decode inputs:
the inputs of FEAT.tsv with LO <= m <= HI and k >= K (default m 8..96,
k >= 4096: the decode GEMMs of h200_inductor_real, datasets/h200), each
ranked by every tree (eval --ranks: the leaf it reaches, its list, its
pick).  Per tree: the inputs; the regret geomean of the pick alone (the
leaf's pick when it was measured for the input, else the first listed
choice that was, extern_mm when none is: eval --curve's `first`, what a
runtime without autotuning launches) and its hit rate; and how many
inputs reach a leaf whose first listed id was not measured for them (not
offered by Inductor for the shape: Inductor skips it and the next listed
one runs), with the leaves they reach.  Times are the feat TSV's median
ms.  Exit status 1 on a failing eval or no such input.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument('--bin', default='build/bin')
ap.add_argument('--m', default='8:96')
ap.add_argument('--kmin', type=int, default=4096)
ap.add_argument('trees', nargs='+')
ap.add_argument('feat')
a = ap.parse_args()
mlo, mhi = (int(x) for x in a.m.split(':'))
csv.field_size_limit(1 << 30)

times, shape = {}, {}
with open(a.feat) as f:
    next(f)  # metadata JSON
    for r in csv.DictReader(f, delimiter='\t'):
        i = int(r['input'])
        shape[i] = (int(r['m']), int(r['k']), int(r['n']))
        times.setdefault(i, {})[r['choice']] = float(r['median_ms'])
sel = [i for i in sorted(shape) if mlo <= shape[i][0] <= mhi and shape[i][1] >= a.kmin]
if not sel:
    sys.exit(f'decode.py: no input of {a.feat} with m in {mlo}..{mhi} and k >= {a.kmin}')


def classes(path):
    with open(path) as f:
        return {int(r[1]): r[2] for r in csv.reader(f, delimiter='\t') if r and r[0] == 'class'}


print(f'{len(sel)} inputs of {a.feat}: m {mlo}..{mhi}, k >= {a.kmin}')
print(f'{"tree":<12} {"inputs":>6} {"first hit":>9} {"first regret":>12} {"head not offered":>16}  leaves')
with tempfile.TemporaryDirectory() as d:
    for spec in a.trees:
        name, path = spec.split('=', 1)
        rk = os.path.join(d, 'r.tsv')
        p = subprocess.run([os.path.join(a.bin, 'eval'), '-o', os.path.join(d, 'e.tsv'), '--ranks', rk,
                            '--tree', f'{name}={path}', f'S={a.feat}'], capture_output=True, text=True)
        if p.returncode:
            sys.exit(f'decode.py: eval failed on {path}: {p.stderr.strip()}')
        cls = classes(path)
        rows = {}
        with open(rk) as f:
            for r in csv.DictReader(f, delimiter='\t'):
                rows[int(r['input'])] = r
        ls, hits, bad, leaves = 0.0, 0, 0, set()
        for i in sel:
            r, t = rows[i], times[i]
            best = min(v for v in t.values())
            lst = [cls[int(c)] for c in r['ranking'].split(',') if c]
            pick = cls.get(int(r.get('pick') or -1))
            first = pick if pick in t else next((c for c in lst if c in t), 'extern_mm')
            ls += math.log(t[first] / best) if math.isfinite(t[first]) else math.log(4.0)
            hits += t[first] == best
            if lst and lst[0] not in t:
                bad += 1
                leaves.add(int(r['leaf']))
        print(f'{name:<12} {len(sel):>6} {100 * hits / len(sel):8.2f}% {math.exp(ls / len(sel)):12.6f} '
              f'{bad:>16}  {",".join(map(str, sorted(leaves))) or "-"}')
