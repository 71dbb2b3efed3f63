#!/usr/bin/env python3
"""gap.py — where a short list loses: each GEMM of mode X (e, f, c, d) scored
on mode b's own timings of the same GEMM (perf/models/run.py's "autotuned").

usage: gap.py RECORDS.jsonl [MORE.jsonl ...] [--modes e,f,c,d] [--worst N]

Per model x phase with a cold (rep 1) record of b and of X, both with
"autotuned": the GEMM autotunings of X are paired with b's by (op, m, k,
n, dtype), the i-th of a key with the i-th.  X's set for a GEMM is what X
benchmarked there (its "ms" keys: the handler's or AutoHeuristic's list,
the aten choices, what neither ranks).  Scored in b's process, where every
choice was timed once under the same conditions:
  hit     b's fastest choice is in X's set
  regret  fastest of X's set in b's times / b's fastest (1 = no loss)
  time    sum over GEMMs of the former / sum of the latter (ms, each GEMM
          counted once: a bound on what the list costs the step's GEMMs)
and across the two processes: X's own fastest / b's fastest ("x/b", what
the two compiles picked; it holds the timing noise between processes).
A GEMM that only one mode autotuned (b or X took it from a cache, or X's
handler left one choice) is counted as unpaired.  Then the totals over
rows, and the --worst N GEMMs by regret.  Several RECORDS files (runs of
the matrix, report.py's "runs"): b and X are paired within each file, the
"run" column numbers the files, and the totals pool them.  Markdown on
stdout.  Exit status 1 on a bad file (file:line named).
"""
import argparse
import collections
import sys

from report import geomean, load  # this script's folder


def key(t):
    return (t.get("op"), t.get("m"), t.get("k"), t.get("n"), t.get("dtype"))


def best(ms, ids=None):
    vals = [(v, c) for c, v in ms.items() if v is not None and (ids is None or c in ids)]
    return min(vals) if vals else (None, None)


def cold(recs):
    out = {}
    for r in recs:
        if r.get("rep") == 1 and r.get("status") == "ok" and r.get("autotuned") is not None:
            out[(r["model"], r["phase"], r["mode"])] = r
    return out


def pair(b, x):
    """[(b entry, x entry)] by key and order; and the unpaired count."""
    queue = collections.defaultdict(list)
    for t in b["autotuned"]:
        queue[key(t)].append(t)
    pairs, unpaired = [], 0
    for t in x["autotuned"]:
        q = queue.get(key(t))
        if q:
            pairs.append((q.pop(0), t))
        else:
            unpaired += 1
    return pairs, unpaired + sum(len(q) for q in queue.values())


def score(pairs):
    rows = []
    for tb, tx in pairs:
        bbest, bwin = best(tb["ms"])
        if bbest is None or bbest <= 0:
            continue
        inx, _ = best(tb["ms"], set(tx["ms"]))
        xbest, _ = best(tx["ms"])
        rows.append({"key": key(tb), "hit": bwin in tx["ms"], "b_ms": bbest, "in_b": inx,
                     "regret": inx / bbest if inx is not None else None,
                     "x_over_b": xbest / bbest if xbest is not None else None,
                     "b_win": bwin, "n_x": len(tx["ms"]), "n_b": len(tb["ms"])})
    return rows


def summarize(rows):
    scored = [r for r in rows if r["regret"] is not None]
    tb = sum(r["b_ms"] for r in scored)
    return {"gemms": len(rows), "hits": sum(r["hit"] for r in rows),
            "regret_gm": geomean([r["regret"] for r in scored]),
            "regret_max": max((r["regret"] for r in scored), default=None),
            "time": sum(r["in_b"] for r in scored) / tb if tb else None,
            "x_over_b_gm": geomean([r["x_over_b"] for r in rows]),
            "mean_set": sum(r["n_x"] for r in rows) / len(rows) if rows else None}


def f(x, nd=4):
    return "-" if x is None else f"{x:.{nd}f}"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records", nargs="+", help="RECORDS.jsonl files, one per run of the matrix")
    ap.add_argument("--modes", default="e,f,c,d")
    ap.add_argument("--worst", type=int, default=10)
    a = ap.parse_args(argv)
    runs = [cold(load(f, prog="gap.py")) for f in a.records]
    print("| mode | model | phase | run | GEMMs | unpaired | b's winner kept | regret gm "
          "| regret max | time | x/b gm | mean set |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    every = collections.defaultdict(list)
    for mode in a.modes.split(","):
        for run, recs in enumerate(runs, 1):
            for m, p in sorted({(m, p) for m, p, _ in recs}):
                b, x = recs.get((m, p, "b")), recs.get((m, p, mode))
                if b is None or x is None:
                    continue
                pairs, unpaired = pair(b, x)
                rows = score(pairs)
                every[mode] += [dict(r, model=m, phase=p) for r in rows]
                s = summarize(rows)
                print(f"| {mode} | {m} | {p} | {run} | {s['gemms']} | {unpaired} "
                      f"| {s['hits']}/{s['gemms']} | {f(s['regret_gm'])} | {f(s['regret_max'])} "
                      f"| {f(s['time'])} | {f(s['x_over_b_gm'])} | {f(s['mean_set'], 1)} |")
    for mode, rows in every.items():
        s = summarize(rows)
        print(f"\n{mode}, all rows: {s['gemms']} GEMMs, b's winner kept in {s['hits']}, "
              f"regret geomean {f(s['regret_gm'])} (max {f(s['regret_max'])}), "
              f"time {f(s['time'])}, x/b geomean {f(s['x_over_b_gm'])}")
        bad = sorted((r for r in rows if r["regret"] is not None), key=lambda r: -r["regret"])
        for r in bad[:a.worst]:
            if r["regret"] <= 1.0:
                break
            op, mm, kk, nn, dt = r["key"]
            print(f"- {r['model']} {r['phase']} {op} {mm}x{kk}x{nn} {dt}: regret {r['regret']:.4f}"
                  f" (b's winner {r['b_win']}, {r['b_ms']:.4f} ms; {r['n_x']} of {r['n_b']} kept)")
    if not every:
        print("\nno row has cold records with \"autotuned\" for b and a compared mode")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
