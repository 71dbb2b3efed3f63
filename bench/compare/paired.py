#!/usr/bin/env python3
"""bench/compare/paired.py FEAT A=TREE_A B=TREE_B [--k K] [--bin DIR] [--seed S]
                           [--resamples N]
-- are two trees' top-k hit rate and regret on the same inputs different
beyond noise?  (issue #3: the shipped artifact vs ours on held-out inputs.)

Ranks every input of FEAT (a featurize TSV, e.g. out/a100/compare/group/
test.feat.tsv) with both trees through build/bin/eval --ranks, then per
input, with eval's semantics (spec §5.9, §7.3): the ranking restricted to
the choices measured for the input, its first K, extern_mm appended; hit =
the input's fastest choice is among them; regret = best median ms among
them / the input's best median ms.  Checks that the hit rates and regret
geometric means equal eval's (exit 1 if not), then prints the paired
differences B - A with 95 % bootstrap intervals (--resamples, default
10 000 resamples of the inputs, seeded by --seed): hit rate (percentage points) and regret geometric mean
(as a ratio B/A), and the inputs where the two regrets differ most.
"""
import argparse, collections, csv, math, os, random, subprocess, sys, tempfile

ap = argparse.ArgumentParser()
ap.add_argument('feat')
ap.add_argument('trees', nargs=2)
ap.add_argument('--k', type=int, default=10)
ap.add_argument('--bin', default='build/bin')
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--resamples', type=int, default=10000)
a = ap.parse_args()
names = [t.split('=', 1)[0] for t in a.trees]
paths = dict(t.split('=', 1) for t in a.trees)

with tempfile.TemporaryDirectory() as d:
    ranks, ev = os.path.join(d, 'ranks.tsv'), os.path.join(d, 'eval.tsv')
    cmd = [os.path.join(a.bin, 'eval'), '--k', str(a.k), '--ranks', ranks, '-o', ev]
    for n in names:
        cmd += ['--tree', f'{n}={paths[n]}']
    subprocess.run(cmd + [f'set={a.feat}'], check=True, stdout=subprocess.DEVNULL)
    rank_rows = list(csv.DictReader(open(ranks), delimiter='\t'))
    eval_rows = list(csv.DictReader(open(ev), delimiter='\t'))

cls = {}
for n in names:
    cls[n] = {int(x[1]): x[2] for x in (l.rstrip('\n').split('\t') for l in open(paths[n]))
              if x[0] == 'class'}
lines = open(a.feat).read().split('\n')
hdr = lines[1].split('\t')
ci, mi = hdr.index('choice'), hdr.index('median_ms')
times = collections.defaultdict(dict)
shape = {}
for l in lines[2:]:
    if l:
        x = l.split('\t')
        times[int(x[0])][x[ci]] = float(x[mi])
        shape[int(x[0])] = 'x'.join(x[1:4]) + ' ' + x[hdr.index('mat1_dtype')]

res = collections.defaultdict(dict)
for r in rank_rows:
    i, tt = int(r['input']), times[int(r['input'])]
    best = min(tt.values())
    listed = [c for c in (cls[r['tree']][int(j)] for j in r['ranking'].split(',') if j) if c in tt][:a.k]
    if 'extern_mm' in tt and 'extern_mm' not in listed:
        listed.append('extern_mm')
    got = min((tt[c] for c in listed), default=math.inf)
    win = min(tt, key=tt.get)
    res[i][r['tree']] = (win in listed, got / best)
inputs = sorted(i for i in res if all(n in res[i] for n in names))
n_in = len(inputs)


def summary(ids, n):
    hit = sum(res[i][n][0] for i in ids) / len(ids)
    rg = math.exp(sum(math.log(res[i][n][1]) for i in ids) / len(ids))
    return hit, rg


for n in names:
    h, g = summary(inputs, n)
    e = [r for r in eval_rows if r['tree'] == n and r['k'] == str(a.k)][0]
    if abs(h - float(e['hit_rate'])) > 1e-9 or abs(g - float(e['regret_gmean'])) > 1e-9:
        print(f'paired.py: {n}: hit {h} regret {g} differ from eval ({e["hit_rate"]}, '
              f'{e["regret_gmean"]})', file=sys.stderr)
        sys.exit(1)
A, B = names
ha, ga = summary(inputs, A)
hb, gb = summary(inputs, B)
rng = random.Random(a.seed)
dh, dg = [], []
for _ in range(a.resamples):
    s = [inputs[rng.randrange(n_in)] for _ in range(n_in)]
    h1, g1 = summary(s, A)
    h2, g2 = summary(s, B)
    dh.append(100 * (h2 - h1))
    dg.append(g2 / g1)
dh.sort()
dg.sort()
q = lambda v, p: v[int(p * (len(v) - 1))]
print(f'{a.feat}: {n_in} inputs, k={a.k}')
print(f'  hit rate   {A} {100 * ha:.2f} %  {B} {100 * hb:.2f} %  {B}-{A} {100 * (hb - ha):+.2f} pp, '
      f'95 % CI [{q(dh, 0.025):+.2f}, {q(dh, 0.975):+.2f}]')
print(f'  regret gm  {A} {ga:.7f}  {B} {gb:.7f}  {B}/{A} {gb / ga:.7f}, '
      f'95 % CI [{q(dg, 0.025):.7f}, {q(dg, 0.975):.7f}]')
diff = sorted(inputs, key=lambda i: res[i][B][1] / res[i][A][1])
for i in diff[:3] + diff[-3:]:
    r = res[i][B][1] / res[i][A][1]
    if r != 1:
        print(f'  input {i} ({shape[i]}): regret {A} {res[i][A][1]:.4f} {B} {res[i][B][1]:.4f}, '
              f'fastest choice {min(times[i].values()):.4f} ms')
