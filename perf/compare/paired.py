#!/usr/bin/env python3
"""perf/compare/paired.py FEAT[,FEAT...] A=TREE[,TREE...] B=TREE[,TREE...]
                           [--k K] [--bin DIR] [--seed S] [--resamples N]
-- are two trees' top-k hit rate and regret on the same inputs different
beyond noise?  (E.g. the shipped artifact vs ours on held-out inputs.)

Ranks every input of FEAT (a featurize TSV, e.g. out/a100/compare/group/
test.feat.tsv) with both trees through build/bin/eval --ranks, then per
input, with eval's semantics (spec §5.9, §7.3): the ranking restricted to
the choices measured for the input, its first K, extern_mm appended; hit =
the input's fastest choice is among them; regret = best median ms among
them / the input's best median ms (the list and regret: mmrank.rules,
the rules of stages/formats/rules.h).  Checks that the hit rates and regret
geometric means equal eval's (exit 1 if not), then prints the paired
differences B - A with 95 % bootstrap intervals (--resamples, default
10 000 resamples of the inputs, seeded by --seed): hit rate (percentage points) and regret geometric mean
(as a ratio B/A), and the inputs where the two regrets differ most.

Several FEATs (comma-separated, each once) are pooled: e.g. the K test folds
of perf/compare/oof.sh, each ranked by its own tree (a tree list of one path
per FEAT, in the same order) or by one tree for all (a single path); every
(FEAT, input) counts once, and the eval check is made per FEAT.  Pooled
inputs are named F:I, input I (the input column) of the F-th FEAT (0-based).
Bad arguments: a message and exit 1 (argparse: 2).
"""
import argparse, collections, csv, math, os, random, subprocess, sys, tempfile

from mmrank import rules  # the top-k list and regret: stages/formats/rules.h

ap = argparse.ArgumentParser(
    prog='perf/compare/paired.py', formatter_class=argparse.RawDescriptionHelpFormatter,
    description=__doc__.split('\n', 2)[2],
    epilog='Example (README "Measuring a heuristic"): the shipped tree as a tree TSV first,\n'
           '  make all && build/bin/import -o out/a100/shipped.tsv $ART/_MMRankingA100.py\n'
           '  python3 perf/compare/paired.py out/a100/compare/group/test.feat.tsv \\\n'
           '      shipped=out/a100/shipped.tsv ours=out/a100/compare/group/pruned.tsv')
ap.add_argument('feat', metavar='FEAT[,FEAT...]',
                help='feat TSV(s) of the inputs to compare on (featurize output, e.g. '
                     'out/a100/compare/group/test.feat.tsv); several, comma-separated, are pooled')
ap.add_argument('trees', nargs=2, metavar='NAME=TREE[,TREE...]',
                help='the two trees A and B, as tree TSVs (fit, prune or import output: a '
                     "PyTorch artifact such as _MMRankingA100.py becomes one with "
                     "'build/bin/import -o shipped.tsv _MMRankingA100.py'); one path for every "
                     'FEAT, or one per FEAT in the same order; differences are B - A')
ap.add_argument('--k', type=int, default=10, help='top-k list size (default 10)')
ap.add_argument('--bin', default='build/bin', help='folder of the stage binaries, for eval (default build/bin)')
ap.add_argument('--seed', type=int, default=1, help='bootstrap seed (default 1)')
ap.add_argument('--resamples', type=int, default=10000, help='bootstrap resamples of the inputs (default 10000)')
a = ap.parse_args()
feats = a.feat.split(',')
if '' in feats or len(set(feats)) != len(feats):
    sys.exit(f'paired.py: FEAT list {a.feat!r}: empty or repeated entries')
names, paths = [], {}
for t in a.trees:
    n, eq, v = t.partition('=')
    if not n or not eq or not v or n in paths:
        sys.exit(f'paired.py: expected two NAME=TREE[,TREE...] with different names, got {t!r}')
    names.append(n)
    paths[n] = v.split(',')
    if '' in paths[n] or len(paths[n]) not in (1, len(feats)):
        sys.exit(f'paired.py: {n}: {len(paths[n])} trees (or an empty one) for {len(feats)} feature files')
tree_of = lambda n, f: paths[n][f if len(paths[n]) > 1 else 0]

res = collections.defaultdict(dict)
times = {}
shape = {}
eval_rows = []  # (f, row)
for f, feat in enumerate(feats):
    with tempfile.TemporaryDirectory() as d:
        ranks, ev = os.path.join(d, 'ranks.tsv'), os.path.join(d, 'eval.tsv')
        cmd = [os.path.join(a.bin, 'eval'), '--k', str(a.k), '--ranks', ranks, '-o', ev]
        for n in names:
            cmd += ['--tree', f'{n}={tree_of(n, f)}']
        subprocess.run(cmd + [f'set={feat}'], check=True, stdout=subprocess.DEVNULL)
        rank_rows = list(csv.DictReader(open(ranks), delimiter='\t'))
        eval_rows += [(f, r) for r in csv.DictReader(open(ev), delimiter='\t')]
    cls = {}
    for n in names:
        cls[n] = {int(x[1]): x[2] for x in (l.rstrip('\n').split('\t') for l in open(tree_of(n, f)))
                  if x[0] == 'class'}
    lines = open(feat).read().split('\n')
    hdr = lines[1].split('\t')
    ci, mi = hdr.index('choice'), hdr.index('median_ms')
    for l in lines[2:]:
        if l:
            x = l.split('\t')
            times.setdefault((f, int(x[0])), {})[x[ci]] = float(x[mi])
            shape[(f, int(x[0]))] = 'x'.join(x[1:4]) + ' ' + x[hdr.index('mat1_dtype')]
    for r in rank_rows:
        i = (f, int(r['input']))
        tt = times[i]
        best = min(tt.values())
        listed = rules.topk_list([cls[r['tree']][int(j)] for j in r['ranking'].split(',') if j],
                                 tt, a.k)
        got = min((tt[c] for c in listed if c in tt), default=math.inf)
        win = min(tt, key=tt.get)
        res[i][r['tree']] = (win in listed, rules.regret(got, best))
inputs = sorted(i for i in res if all(n in res[i] for n in names))
n_in = len(inputs)


def summary(ids, n):
    hit = sum(res[i][n][0] for i in ids) / len(ids)
    rg = math.exp(sum(math.log(res[i][n][1]) for i in ids) / len(ids))
    return hit, rg


for f in range(len(feats)):
    ids = [i for i in inputs if i[0] == f]
    for n in names:
        h, g = summary(ids, n)
        e = [r for ff, r in eval_rows if ff == f and r['tree'] == n and r['k'] == str(a.k)][0]
        if abs(h - float(e['hit_rate'])) > 1e-9 or abs(g - float(e['regret_gmean'])) > 1e-9:
            print(f'paired.py: {feats[f]}: {n}: hit {h} regret {g} differ from eval '
                  f'({e["hit_rate"]}, {e["regret_gmean"]})', file=sys.stderr)
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
print(f'{a.feat}: {n_in} inputs, k={a.k}' if len(feats) == 1 else
      f'{len(feats)} sets pooled ({a.feat}): {n_in} inputs, k={a.k}')
print(f'  hit rate   {A} {100 * ha:.2f} %  {B} {100 * hb:.2f} %  {B}-{A} {100 * (hb - ha):+.2f} pp, '
      f'95 % CI [{q(dh, 0.025):+.2f}, {q(dh, 0.975):+.2f}]')
print(f'  regret gm  {A} {ga:.7f}  {B} {gb:.7f}  {B}/{A} {gb / ga:.7f}, '
      f'95 % CI [{q(dg, 0.025):.7f}, {q(dg, 0.975):.7f}]')
diff = sorted(inputs, key=lambda i: res[i][B][1] / res[i][A][1])
for i in diff[:3] + diff[-3:]:
    r = res[i][B][1] / res[i][A][1]
    if r != 1:
        print(f'  input {i[1] if len(feats) == 1 else "%d:%d" % i} ({shape[i]}): regret {A} {res[i][A][1]:.4f} {B} {res[i][B][1]:.4f}, '
              f'fastest choice {min(times[i].values()):.4f} ms')
