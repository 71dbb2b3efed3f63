"""mmrank.rules -- the ranking rules of stages/formats/rules.h for the Python helpers.

The values are read from rules.h's `#define NAME VALUE` lines when this
module is imported, so C and Python share one home; the three functions
mirror rules.h's (see its comment for the rules and their spec sections):

  near_best(t, best)   best / t >= NEAR_BEST_RATIO (spec §5.2)
  topk_list(ranking, available, k, default=DEFAULT_CHOICE)
                       the first k names of ranking (best first) that are
                       available, then default appended if not listed
                       (spec §5.9, §7.3); available: a set or dict of names
  regret(listed_best, best)
                       listed_best / best (ours)

Use: from mmrank import rules (PYTHONPATH=<repo>/python, or the package
installed: it then reads the copy of rules.h the build put beside it).
check/t1170-rules.sh checks that these give what the C code gives.
"""
import re

from mmrank import data_path

_H = data_path('rules.h')


def _defines(path):
    d = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#define\s+([A-Z_][A-Z0-9_]*)\s+(\S.*?)\s*$', line)
            if m and m.group(1) != 'MMRANK_RULES_H':
                v = m.group(2)
                d[m.group(1)] = v[1:-1] if v.startswith('"') else float(v)
    return d


_D = _defines(_H)
NEAR_BEST_RATIO = _D['NEAR_BEST_RATIO']
DEFAULT_CHOICE = _D['DEFAULT_CHOICE']


def near_best(t, best):
    """1 iff time t is near-best against the input's best time best."""
    try:
        return best / t >= NEAR_BEST_RATIO
    except ZeroDivisionError:  # C: best / 0 = +inf (best > 0) or NaN
        return best > 0


def topk_list(ranking, available, k, default=DEFAULT_CHOICE):
    """The top-k list: names of ranking that are available, the first k,
    then default if not among them."""
    listed = [c for c in ranking if c in available][:k]
    if default is not None and default not in listed:
        listed.append(default)
    return listed


def regret(listed_best, best):
    """The regret of a list whose smallest time is listed_best."""
    return listed_best / best
