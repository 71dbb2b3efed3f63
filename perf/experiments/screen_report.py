#!/usr/bin/env python3
"""perf/experiments/screen_report.py LOG0 STATS0 LOG STATS [AUDIT_ERR] -- what bench
--screen changed on the same inputs (perf/experiments/screen_collect.sh --bench).

LOG0/STATS0: bench --screen 0 (every candidate at full size); LOG/STATS:
bench with screening (default --screen 1.3).  Prints, for the inputs both
logs complete: wall seconds and inputs/hour of each and their ratio, the
time breakdown (stats keys, seconds), rows and choices per input; whether
the screened log's labels agree with the full log's (per input: the best
choice of LOG by median, and its time in LOG0 relative to LOG0's best: a
label "within 2 %" means the screened log picked a choice LOG0 also calls
near-best, spec §5.2), separately for the inputs where screening dropped
choices and the others (there the difference is run-to-run noise); and from AUDIT_ERR (stderr of bench --screen-audit)
the full-size ratios of the candidates screening dropped, and the misses
(dropped candidates within 2 % of the best at full size).
"""
import collections, math, re, statistics, sys


def medians(path):
    d = collections.OrderedDict()
    for line in open(path).read().split('\n')[2:]:
        if not line:
            continue
        f, c, v = line.rsplit(',', 2)
        d.setdefault(f, collections.defaultdict(list))[c].append(float(v))
    return {f: {c: (math.inf if any(math.isinf(x) for x in v) else statistics.median(v))
                for c, v in cs.items()} for f, cs in d.items()}


def stats(path):
    return dict(l.rstrip('\n').split('\t', 1) for l in open(path) if '\t' in l)


log0, st0, log1, st1 = sys.argv[1:5]
a, b = medians(log0), medians(log1)
s0, s1 = stats(st0), stats(st1)
common = [f for f in b if f in a]
print(f"inputs: {len(a)} (--screen 0), {len(b)} (screened), {len(common)} in both")
w0, w1 = float(s0['wall_s']), float(s1['wall_s'])
n0, n1 = int(s0['inputs_measured']), int(s1['inputs_measured'])
print(f"wall: {w0:.1f} s for {n0} inputs ({3600 * n0 / w0:.0f}/hour) -> {w1:.1f} s for {n1} "
      f"inputs ({3600 * n1 / w1:.0f}/hour): {w0 / w1 * n1 / n0:.2f}x inputs/hour")
keys = ['reference_s', 'verify_s', 'screen_s', 'timing_extern_s', 'timing_nvrtc_s',
        'timing_cublaslt_s', 'setup_s', 'compile_s', 'module_load_s', 'verifications',
        'screened_inputs', 'screened_out', 'rows_written']
print('breakdown        --screen 0   screened')
for k in keys:
    if k in s0 or k in s1:
        print(f"  {k:18s} {s0.get(k, '-'):>10s} {s1.get(k, '-'):>10s}")
# inputs with choices dropped by screening vs the others (whose differences
# are run-to-run noise: both logs time them the same way)
for name, sel in (('with choices dropped', lambda f: len(b[f]) < len(a[f])),
                  ('without', lambda f: len(b[f]) >= len(a[f]))):
    fs = [f for f in common if sel(f)]
    same = within = 0
    worst = (1.0, None)
    for f in fs:
        best0 = min(a[f].values())
        c1 = min(b[f], key=b[f].get)
        same += c1 == min(a[f], key=a[f].get)
        r = a[f].get(c1, math.inf) / best0
        within += r <= 1.02
        if r > worst[0]:
            worst = (r, f)
    print(f"labels, {len(fs)} inputs {name}: the screened log's best choice is --screen 0's "
          f"best on {same}, within 2 % of it (by --screen 0's times) on {within}; "
          f"worst {worst[0]:.3f} ({worst[1]})")
print(f"choices per input: {sum(len(a[f]) for f in common) / len(common):.1f} -> "
      f"{sum(len(b[f]) for f in common) / len(common):.1f}")
if len(sys.argv) > 5:
    pat = re.compile(r'screen-audit: .*: slice ([0-9.]+) x best, full ([0-9.inf]+) x best( MISS)?')
    sl, fu, miss = [], [], 0
    for line in open(sys.argv[5]):
        m = pat.search(line)
        if m:
            sl.append(float(m.group(1)))
            fu.append(float(m.group(2)))
            miss += bool(m.group(3))
    if fu:
        fu.sort()
        q = lambda p: fu[min(len(fu) - 1, int(p * len(fu)))]
        print(f"audit: {len(fu)} candidates screened out; their full-size time / best: "
              f"min {fu[0]:.3f}, p5 {q(0.05):.3f}, median {q(0.5):.3f}; "
              f"{sum(x <= 1.1 for x in fu)} within 10 %, misses (within 2 %): {miss}")
    else:
        print("audit: no candidate screened out")
