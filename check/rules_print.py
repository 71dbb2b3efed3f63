#!/usr/bin/env python3
"""rules_print.py -- the Python side of check/t1170-rules.sh: the cases of
check/unit/rules_print.c (same input, same output), evaluated with
mmrank.rules (PYTHONPATH=<repo>/python)."""
import math
import sys

from mmrank import rules


def g17(x):
    """C's %.17g."""
    return '%.17g' % x


for line in sys.stdin:
    f = line.split()
    if f[0] == 'const':
        print('const', g17(rules.NEAR_BEST_RATIO), rules.DEFAULT_CHOICE)
    elif f[0] == 'near_best':
        t, best = float(f[1]), float(f[2])
        print('near_best', g17(t), g17(best), int(rules.near_best(t, best)))
    elif f[0] == 'topk':
        k, ranking = int(f[1]), f[2].split(',')
        times = {n: float(v) for n, v in (x.split('=') for x in f[3].split(','))}
        listed = rules.topk_list(ranking, times, k)
        lb = min((times[c] for c in listed if c in times), default=math.inf)
        print('topk', k, ','.join(listed),
              g17(rules.regret(lb, min(times.values()))) if math.isfinite(lb) else 'none')
    else:
        sys.exit('rules_print.py: bad case %r' % line)
