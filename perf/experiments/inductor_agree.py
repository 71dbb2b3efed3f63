#!/usr/bin/env python3
"""inductor_agree — how well an AutoHeuristic log X agrees with a reference
log A of the same inputs (fast back end vs Inductor run A, and Inductor run B
vs run A, its noise floor).  Pure Python, no torch.

usage: inductor_agree.py A.log X.log [--a-stats F] [--x-stats F] [--name-x NAME]
                         [--a-rep R/N] [--x-rep R/N] [--per-input FILE] [--json FILE]

  A.log, X.log   AutoHeuristic logs (spec §1; times in ms, inf = failed), with
                 the same CSV header; either may be a comma-separated list of
                 shard logs (a run's data_<i>.txt or .part files), read as
                 merged (their metadata lines must be identical).  An input is a distinct feature prefix
                 (all columns before choice); repeated rows of one (input,
                 choice) are combined by their median, inf if any is inf
                 (spec §1.6).  Only inputs in both logs are compared.
  --a-rep/--x-rep R/N   the log holds N fresh autotunings per input
                 (inductor_collect --reps N, rows appended rep after rep): use
                 the R-th (1-based) of each (input, choice)'s rows, e.g. the
                 same log as A with --a-rep 1/2 and as X (run B) with --x-rep
                 2/2; an input whose rows are not a multiple of N (one of its
                 autotunings logged nothing) is left out, named on stderr
  --a-stats/--x-stats F   the runs' stats TSVs (inductor_collect --stats or
                 bench --stats: keys inputs_measured, wall_s) for the
                 throughput in inputs/hour; with --a-rep/--x-rep, F may be
                 inductor_collect's --rep-times file (input, rep, seconds):
                 that rep's seconds summed over its inputs (the last record of
                 a redone input)
  --per-input FILE   one TSV row per common input
  --json FILE        the summary as JSON

Figures, over the common inputs (stdout):
  ids_equal        share of inputs whose candidate id sets are equal
  winner_within_2pct  share of inputs where X's fastest choice, timed by A, is
                   within 2 % of A's fastest (X's winner missing from A: miss)
  spearman_median  median over inputs of Spearman's rho of the times of the
                   choices finite in both (average ranks for ties; inputs
                   with fewer than 3 such choices or constant times skipped)
  ratio_median/p10/p90  X/A time ratio per (input, choice) finite in both,
                   pooled (percentiles with linear interpolation)
  inf_mismatches   (input, choice) pairs inf in one log and finite in the other
  extern_mm        X/A ratio of extern_mm per input: median, min, max, and the
                   largest move max(r, 1/r) with its input
  triton_only      winner_within_2pct and spearman_median over the Triton
                   choices alone (extern_mm left out of both logs)
Exit status 0; 1 on unreadable or malformed logs (file:line named) or logs with
different headers.
"""
import argparse
import json
import math
import sys

from mmrank import stats
from mmrank.bench.inductor_text import write_atomic


def fail(msg):
    sys.exit(f"inductor_agree: {msg}")


def parse_rep(spec, opt):
    """'R/N' -> (R - 1, N) with 1 <= R <= N, or None."""
    if spec is None:
        return None
    r, _, n = spec.partition("/")
    try:
        r, n = int(r), int(n)
    except ValueError:
        r = n = 0
    if not 1 <= r <= n:
        fail(f"{opt} {spec}: expected R/N with 1 <= R <= N")
    return r - 1, n


def select_rep(inputs, rep, path):
    """Keep the rep-th of rep N's equal slices of each (input, choice)'s rows.
    An input whose row count per choice is not a multiple of N (one of its
    autotunings logged nothing, e.g. a candidate failed at precompile) is
    left out and named on stderr; an input with no such choice but unequal
    counts is refused.  Returns (inputs, number left out)."""
    if rep is None:
        return inputs, 0
    r, n = rep
    out, left = {}, 0
    for key, ch in inputs.items():
        if any(len(t) % n for t in ch.values()):
            left += 1
            c, t = next((c, t) for c, t in ch.items() if len(t) % n)
            print(f"inductor_agree: {path}: input {key} left out: choice {c} has {len(t)} "
                  f"rows, not a multiple of {n} reps", file=sys.stderr)
            continue
        out[key] = {c: t[r * (len(t) // n):(r + 1) * (len(t) // n)] for c, t in ch.items()}
    if inputs and not out:
        fail(f"{path}: no input has a multiple of {n} reps' rows")
    return out, left


def read_logs(paths):
    """read_log over a comma-separated list of shard logs, as if merged."""
    meta, header, inputs = None, None, {}
    for path in paths.split(","):
        m, h, ins = read_log(path)
        if meta is None:
            meta, header = m, h
        elif (m, h) != (meta, header):
            fail(f"{path}:1-2: metadata or header differ from {paths.split(',')[0]}'s "
                 "(another GPU or feature set)")
        for k, v in ins.items():
            for c, t in v.items():
                inputs.setdefault(k, {}).setdefault(c, []).extend(t)
    return header, inputs


def read_log(path):
    """(metadata, header, {features: {choice: [times]}}) keeping first-seen order."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"{path}: cannot read: {e}")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 2 or not lines[0].startswith("{"):
        fail(f"{path}:1: not an AutoHeuristic log (metadata JSON line and CSV header expected)")
    header = lines[1]
    ncol = len(header.split(","))
    if header.split(",")[-2:] != ["choice", "feedback"]:
        fail(f"{path}:2: header does not end with choice,feedback")
    inputs = {}
    for i, row in enumerate(lines[2:], 3):
        f = row.split(",")
        if len(f) != ncol:
            fail(f"{path}:{i}: expected {ncol} fields, got {len(f)}")
        try:
            t = float(f[-1])
        except ValueError:
            fail(f"{path}:{i}: field 'feedback': not a number: '{f[-1]}'")
        if not (t > 0):
            fail(f"{path}:{i}: field 'feedback': '{f[-1]}' (expected > 0 ms or inf)")
        inputs.setdefault(",".join(f[:-2]), {}).setdefault(f[-2], []).append(t)
    return lines[0], header, inputs


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def combine(times):
    return math.inf if any(math.isinf(t) for t in times) else median(times)


def percentile(v, q):
    """Linear interpolation between order statistics (numpy's default)."""
    s = sorted(v)
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def spearman(x, y):
    """Spearman's rho (mmrank.stats); None with fewer than 3 values."""
    return None if len(x) < 3 else stats.spearman(x, y)


def winner(times):
    """The fastest choice (first seen on ties); None if all are inf."""
    best = None
    for c, t in times.items():
        if not math.isinf(t) and (best is None or t < times[best]):
            best = c
    return best


def rep_seconds(path, lines, rep):
    """(inputs, seconds) of rep (R - 1, N) in a --rep-times file, whose reps
    must be 1..N (another N: the file of another run)."""
    last = {}
    for i, line in enumerate(lines[1:], 2):
        f = line.rstrip("\n").split("\t")
        try:
            inp, r, t = int(f[0]), int(f[1]), float(f[2])
        except (ValueError, IndexError):
            fail(f"{path}:{i}: expected input, rep, seconds (integer, integer, number), "
                 f"got {line.rstrip()!r}")
        if not (1 <= r <= rep[1]) or not (math.isfinite(t) and t >= 0):
            fail(f"{path}:{i}: " + (f"rep {r}: expected 1 to {rep[1]} (the N of R/N)"
                                    if not 1 <= r <= rep[1] else f"seconds {f[2]}: expected >= 0"))
        last[(inp, r)] = t
    secs = [t for (_, r), t in last.items() if r == rep[0] + 1]
    if not secs:
        fail(f"{path}: no line of rep {rep[0] + 1} (R of R/N)")
    return len(secs), sum(secs)


def throughput(path, rep=None):
    if not path:
        return None
    kv = {}
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
        if lines and lines[0] == "input\trep\tseconds\n":
            if rep is None:
                fail(f"{path}: a --rep-times file needs --a-rep/--x-rep")
            n, wall = rep_seconds(path, lines, rep)
        else:
            for line in lines:
                k, _, v = line.rstrip("\n").partition("\t")
                kv[k] = v
            n, wall = float(kv["inputs_measured"]), float(kv["wall_s"])
    except (OSError, KeyError, ValueError) as e:
        fail(f"{path}: not a stats TSV with inputs_measured and wall_s ({e})")
    return {"inputs": int(n), "wall_s": wall, "inputs_per_hour": 3600 * n / wall if wall > 0 else None,
            "torch": kv.get("torch"), "triton": kv.get("triton")}


def compare(a, x):
    """The figures of the module docstring, and one record per common input."""
    common = [k for k in a if k in x]
    per, rhos, ratios, ext, rhos_t = [], [], [], [], []
    ids_eq = within = inf_mis = within_t = 0
    for key in common:
        ta = {c: combine(v) for c, v in a[key].items()}
        tx = {c: combine(v) for c, v in x[key].items()}
        same = set(ta) == set(tx)
        ids_eq += same
        abest, xwin = winner(ta), winner(tx)
        xin = ta.get(xwin, math.inf) if xwin is not None else math.inf
        ok = abest is not None and xin <= 1.02 * ta[abest]
        within += ok
        both = [c for c in ta if c in tx and not math.isinf(ta[c]) and not math.isinf(tx[c])]
        inf_mis += sum(1 for c in ta if c in tx and math.isinf(ta[c]) != math.isinf(tx[c]))
        rho = spearman([ta[c] for c in both], [tx[c] for c in both])
        if rho is not None:
            rhos.append(rho)
        tri_a = {c: t for c, t in ta.items() if c != "extern_mm"}
        tri_x = {c: t for c, t in tx.items() if c != "extern_mm"}
        tbest, twin = winner(tri_a), winner(tri_x)
        within_t += (tbest is not None and twin is not None
                     and tri_a.get(twin, math.inf) <= 1.02 * tri_a[tbest])
        tb = [c for c in both if c != "extern_mm"]
        trho = spearman([ta[c] for c in tb], [tx[c] for c in tb])
        if trho is not None:
            rhos_t.append(trho)
        ratios += [tx[c] / ta[c] for c in both]
        er = tx["extern_mm"] / ta["extern_mm"] if "extern_mm" in both else None
        if er is not None:
            ext.append((er, key))
        per.append({"input": key, "n_a": len(ta), "n_x": len(tx), "ids_equal": same,
                    "a_best": abest, "a_best_ms": ta.get(abest), "x_winner": xwin,
                    "x_winner_in_a": xin / ta[abest] if abest is not None else None,
                    "within_2pct": ok, "spearman": rho, "extern_ratio": er})
    n = len(common)
    s = {"inputs_a": len(a), "inputs_x": len(x), "common": n,
         "ids_equal": ids_eq / n if n else None,
         "winner_within_2pct": within / n if n else None,
         "spearman_inputs": len(rhos), "spearman_median": median(rhos) if rhos else None,
         "spearman_min": min(rhos) if rhos else None,
         "ratio_pairs": len(ratios),
         "ratio_median": median(ratios) if ratios else None,
         "ratio_p10": percentile(ratios, 0.1) if ratios else None,
         "ratio_p90": percentile(ratios, 0.9) if ratios else None,
         "inf_mismatches": inf_mis,
         "triton_winner_within_2pct": within_t / n if n else None,
         "triton_spearman_median": median(rhos_t) if rhos_t else None}
    if ext:
        rs = [r for r, _ in ext]
        r_move, k_move = max(ext, key=lambda e: max(e[0], 1 / e[0]))
        s.update({"extern_inputs": len(rs), "extern_median": median(rs), "extern_min": min(rs),
                  "extern_max": max(rs), "extern_largest_move": max(r_move, 1 / r_move),
                  "extern_largest_move_input": k_move})
    return s, per


def fmt(v, pct=False):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{100 * v:.1f} %" if pct else f"{v:.4g}"
    return str(v)


def main(argv):
    p = argparse.ArgumentParser(prog="inductor_agree.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("a", metavar="A.log")
    p.add_argument("x", metavar="X.log")
    p.add_argument("--a-stats")
    p.add_argument("--x-stats")
    p.add_argument("--name-x", default="X", help="what X is, in the output (e.g. B, fast)")
    p.add_argument("--a-rep")
    p.add_argument("--x-rep")
    p.add_argument("--per-input")
    p.add_argument("--json")
    o = p.parse_args(argv)
    ra, rx = parse_rep(o.a_rep, "--a-rep"), parse_rep(o.x_rep, "--x-rep")
    ha, a = read_logs(o.a)
    hx, x = read_logs(o.x)
    (a, left_a), (x, left_x) = select_rep(a, ra, o.a), select_rep(x, rx, o.x)
    if ha != hx:
        fail(f"{o.a}:2 and {o.x}:2: the CSV headers differ (different feature sets)")
    s, per = compare(a, x)
    s["rep_left_out_a"], s["rep_left_out_x"] = left_a, left_x
    s["throughput_a"], s["throughput_x"] = throughput(o.a_stats, ra), throughput(o.x_stats, rx)
    nx = o.name_x
    print(f"{nx} vs A: inputs A {s['inputs_a']}, {nx} {s['inputs_x']}, common {s['common']}")
    if left_a or left_x:
        print(f"  left out (a rep logged nothing): A {left_a}, {nx} {left_x} inputs")
    print(f"  candidate id sets equal     {fmt(s['ids_equal'], True)}")
    print(f"  winner within 2 % of A's    {fmt(s['winner_within_2pct'], True)}")
    print(f"  Spearman rho median (min)   {fmt(s['spearman_median'])} ({fmt(s['spearman_min'])}) "
          f"over {s['spearman_inputs']} inputs")
    print(f"  time ratio {nx}/A per choice median {fmt(s['ratio_median'])}, p10 "
          f"{fmt(s['ratio_p10'])}, p90 {fmt(s['ratio_p90'])} ({s['ratio_pairs']} pairs)")
    print(f"  inf in one log only         {s['inf_mismatches']} (input, choice) pairs")
    print(f"  Triton choices only: winner within 2 % {fmt(s['triton_winner_within_2pct'], True)}, "
          f"Spearman rho median {fmt(s['triton_spearman_median'])}")
    if "extern_median" in s:
        print(f"  extern_mm {nx}/A            median {fmt(s['extern_median'])}, min "
              f"{fmt(s['extern_min'])}, max {fmt(s['extern_max'])}; largest move "
              f"{s['extern_largest_move']:.3f}x at {s['extern_largest_move_input']}")
    for who, t in (("A", s["throughput_a"]), (nx, s["throughput_x"])):
        if t:
            ver = f"; torch {t['torch']}, triton {t['triton']}" if t["torch"] else ""
            print(f"  throughput {who:5}            {fmt(t['inputs_per_hour'])} inputs/hour/GPU "
                  f"({t['inputs']} inputs in {t['wall_s']:.1f} GPU-s{ver})")
    if o.per_input:
        cols = ["input", "n_a", "n_x", "ids_equal", "a_best", "a_best_ms", "x_winner",
                "x_winner_in_a", "within_2pct", "spearman", "extern_ratio"]
        write_atomic(o.per_input, "".join("\t".join(row) + "\n" for row in
                     [cols] + [[fmt(r[c]) for c in cols] for r in per]))
    if o.json:
        write_atomic(o.json, json.dumps(s, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
