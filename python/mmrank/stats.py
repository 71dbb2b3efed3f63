"""mmrank.stats — rank statistics shared by the scripts that compare clocks
(perf/models/clocks.py, perf/experiments/inductor_agree.py); no torch."""
import math


def ranks(v):
    """Average ranks of V (1-based), tied values sharing their mean rank."""
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for t in range(i, j + 1):
            r[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x, y):
    """Spearman's rho of two equal-length lists: the Pearson correlation of
    their average ranks; None where it is undefined (fewer than 2 values, or
    one list all ties)."""
    if len(x) < 2 or len(x) != len(y):
        return None
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)
