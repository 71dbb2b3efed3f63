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


# ---- what an AutoHeuristic mm log may hold (the log reader's rules) --------
# stages/formats/mmfeatures.c (mm_raw_num_name, mm_raw_cat_name),
# emittable.c (emittable_problem, emittable_cat_problem) and ahlog.c
# (parse_features) in Python, for the writers of logs (perf/models/records.py
# applies them to truth records, so truth_log.py writes no row featurize
# refuses); check/t6170-truth.sh checks the names against mmfeatures.c,
# check/t1170-rules.sh the values case by case against featurize.
MM_NUMERICAL = ("m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
                "mat2_stride_1")
MM_CATEGORICAL = ("mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32")
EMITTABLE_MAX_LEN = 4095
_INT64_MAX = 2 ** 63 - 1


def emittable_problem(s):
    """None if S can be emitted (a choice id: 1 to 4095 printable ASCII
    characters, no blank, none of ' " \\ ` [ ] $, no */ /* or ??); else why."""
    if not s:
        return "empty"
    if len(s) > EMITTABLE_MAX_LEN:
        return "longer than 4095 characters"
    for i, c in enumerate(s):
        if c <= " " or c == "\x7f":
            return "contains white space or a control character"
        if c > "\x7e":
            return "contains a character outside printable ASCII (emit writes ASCII only)"
        if c in "'\"\\`[]$":
            return "contains a quote, backslash, backtick, bracket or '$', which emit cannot write"
        if s[i:i + 2] in ("*/", "/*", "??"):
            return f"contains '{s[i:i + 2]}', which emit cannot write into C"
    return None


def cat_problem(feature, v):
    """None if V can be a category of mm's categorical FEATURE; else why."""
    if not v:
        return "empty value"
    if any(c <= " " or c == "\x7f" for c in v):
        return "contains white space or a control character"
    if feature in ("mat1_dtype", "mat2_dtype"):
        if not re.fullmatch(r"torch\.[a-z0-9_]+", v):
            return "unknown dtype (torch.<lower-case name> expected)"
    elif feature in ("mat1_iscontig", "mat2_iscontig"):
        if v not in ("True", "False"):
            return "expected True or False"
    elif feature == "using_tf32":
        if v not in ("True", "False", "not_float_32"):
            return "expected True, False or not_float_32"
    return None


def num_problem(feature, v):
    """None if V is a value of mm's numerical FEATURE as the log reader takes
    it: a whole number >= 0 within int64 (m, k and n >= 1); else why."""
    if not re.fullmatch(r"[0-9]{1,19}", v) or int(v) > _INT64_MAX:
        return "not a whole number >= 0 within a 64-bit integer"
    if int(v) == 0 and feature in ("m", "k", "n"):
        return "zero dimension"
    return None


def mm_features_problem(features):
    """None if FEATURES, [(name, value text, is categorical)], are mm's
    features (each once, numerical and categorical as mm has them) with
    values the log reader takes; else (index, why)."""
    seen = set()
    for i, (name, v, cat) in enumerate(features):
        want = MM_CATEGORICAL if cat else MM_NUMERICAL
        if name in seen:
            return i, f"feature '{name}' named twice"
        if name not in want:
            return i, (f"'{name}' is not one of mm's {'categorical' if cat else 'numerical'} "
                       f"features ({', '.join(want)})")
        seen.add(name)
        why = cat_problem(name, v) if cat else num_problem(name, v)
        if why:
            return i, f"feature '{name}': {why}"
    missing = [n for n in MM_NUMERICAL + MM_CATEGORICAL if n not in seen]
    if missing:
        return len(features), f"mm's feature '{missing[0]}' is missing"
    return None
