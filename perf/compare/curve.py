#!/usr/bin/env python3
"""perf/compare/curve.py CURVE.tsv... [--k LIST] [--set NAME]
-- pool `eval --curve` tables and print the curve per tree.

Each CURVE.tsv is eval's --curve output (stages/FORMATS.md "curve TSV"):
per (tree, set, k) the inputs, hit rate, regret geometric mean and the
inputs without a finite time (regret_none, left out of the regret).  The
files' rows with the same tree and k are pooled exactly: hit rate = the
sum of hits / the sum of inputs, regret = exp(sum of (inputs - none) ln
regret / sum of (inputs - none)); e.g. the K test folds of
perf/compare/oof.sh, each scored by the trees that never saw it.  --set
keeps one set name only (default: every row).  Printed per tree in order
of first appearance: the inputs, then for each k of --k (default
first,1,2,5,10; `first` is the leaf's pick alone, `head` the first list
entry alone, k the top-k list with extern_mm appended, `auto` the top-k
list with k = each leaf's top_k, fit --topk-eps, 10 without one) the hit
rate (%) and the regret geometric
mean, and the count of first entries without a finite time (a failed
choice); with auto among --k, auto's mean k last (pooled over the inputs).
Exit status 1 on a missing column, an unknown k or an empty selection.
"""
import argparse
import collections
import csv
import math
import sys

ap = argparse.ArgumentParser()
ap.add_argument('curves', nargs='+')
ap.add_argument('--k', default='first,1,2,5,10')
ap.add_argument('--set')
a = ap.parse_args()
ks = a.k.split(',')
acc = collections.OrderedDict()  # tree -> k -> [inputs, hits, n_fin, sum ln]
for path in a.curves:
    with open(path) as f:
        for r in csv.DictReader(f, delimiter='\t'):
            if a.set is not None and r['set'] != a.set:
                continue
            n, none = int(r['inputs']), int(r['regret_none'])
            g = float(r['regret_gmean'])
            v = acc.setdefault(r['tree'], {}).setdefault(r['k'], [0, 0.0, 0, 0.0, 0.0])
            v[0] += n
            v[1] += float(r['hit_rate']) * n
            v[2] += n - none
            v[3] += (n - none) * math.log(g) if n > none else 0.0
            v[4] += float(r.get('mean_k') or 'nan') * n
if not acc:
    sys.exit(f'curve.py: no rows{" of set " + a.set if a.set else ""} in {", ".join(a.curves)}')
head = ''.join(f'  {("k=" + k) if k not in ("first", "head") else k:>18}' for k in ks)
auto = 'auto' in ks
print(f'{"tree":<10} {"inputs":>6}{head}  first-failed{"  mean-k(auto)" if auto else ""}')
for t, byk in acc.items():
    missing = [k for k in ks if k not in byk]
    if missing:
        sys.exit(f'curve.py: tree {t}: no k = {", ".join(missing)}')
    n = byk[ks[0]][0]
    cells = ''.join(f'  {100 * v[1] / v[0]:7.2f}% {math.exp(v[3] / v[2]) if v[2] else 0:9.6f}'
                    for v in (byk[k] for k in ks))
    first = byk.get('first')
    mk = f'  {byk["auto"][4] / byk["auto"][0]:13.3f}' if auto else ''
    print(f'{t:<10} {n:>6}{cells}  {first[0] - first[2] if first else "-":>12}{mk}')
