#!/usr/bin/env python3
"""clocks.py — each clock's timings of the GEMMs held against the in-graph
truth (perf/models/truth.py), per regime; no torch needed.

usage: clocks.py TRUTH.jsonl [MORE.jsonl ...] [--records NAME=RECORDS.jsonl]...
                 [--log NAME=LOG.txt]... [--near 0.02] [--common] [-o OUT.md]
                 [--json OUT.json]

The truth: every GEMM key (op m x k x n dtype strides) of the truth records,
each choice's in-graph milliseconds (truth_log.py's t(key, choice): the
mean over the key's slots; the ATen choices as extern_mm, for addmm the
faster of its two).  A clock is any other timing of the same choices:
  --records NAME=FILE  perf/models/run.py records: mode b's "autotuned",
                       Inductor's own autotune benchmark of each GEMM (other
                       modes' records are skipped; a file with no mode b
                       record is an error); an entry with a symbolic size,
                       dtype or stride (null) cannot be keyed: it is skipped
                       and counted on stderr
  --log NAME=FILE      an AutoHeuristic mm log (bench's, Inductor's
                       collection, the official data's): its rows of the
                       same m, k, n, dtype and strides, any op
Per key, over the choices both measured (at least 2):
  hit     the clock's fastest choice is within NEAR (default 2 %) of the
          truth's fastest of those choices, by the truth's times
  regret  truth time of the clock's fastest over the truth's fastest
  rho     Spearman's rank correlation of the two clocks' times
  aten    the clock's extern_mm over its fastest Triton choice, divided by
          the same ratio in the truth: > 1, the clock times ATen slower
          (against Triton) than the graph runs it; < 1, faster
  ATen clock/graph   the clock's extern_mm over the graph's (also where
          extern_mm is the only choice both measured)
--common: only the keys every clock compares on (like with like).
Each NAME once.
Rows: every key, then by regime: m (<= 16, <= 128, <= 1024, > 1024),
dtype, layout (mat1/mat2 row- or column-major: nn, nt, tn, tt) and op.
Cells are the share of keys hit, the geometric mean regret, the median rho
and the median aten ratio (its p10-p90 in --json).
Times are milliseconds (the truth's us / 1e3, the records' ms, the log's
feedback); regret and the ratios have no unit.
Outputs: the markdown on stdout, or in OUT.md with -o; --json OUT.json the
same as data (per key too).  Both are written, or neither.
Bad input (records.py's rules: a line that is not a record names file:line
and the field; truth records of two GPUs; no truth record) is an error;
nothing is written then.
"""
import argparse
import json
import math
import statistics
import sys

import records     # this script's folder: the judge's record reader
import truth_log   # the truth's per-key times
import truth_model
from mmrank.bench import inductor_log
from mmrank.stats import spearman

M_BUCKETS = ((16, "m<=16"), (128, "m<=128"), (1024, "m<=1024"), (None, "m>1024"))


class Bad(Exception):
    pass


def gemm_id(m, k, n, dtype, strides):
    """The key less its op: what every clock can name (sizes ints, checked
    by their reader)."""
    return (m, k, n, str(dtype), tuple(tuple(s) for s in strides))


def aten_merged(ms):
    """{choice: ms} with every extern_* choice as one extern_mm (the fastest);
    None and non-positive times dropped."""
    out = {}
    for c, v in ms.items():
        if v is None or not isinstance(v, (int, float)) or not v > 0 or math.isinf(v):
            continue
        c = "extern_mm" if c.startswith("extern_") else c
        out[c] = min(out[c], v) if c in out else float(v)
    return out


def read_truth(paths):
    """{key: {"op", "gid", "ms": {choice: ms}}} over every row of PATHS."""
    try:
        recs = truth_log.read(paths)
        truth_log.one_gpu(recs)
    except truth_log.Bad as e:
        raise Bad(str(e)) from None
    rows = {}
    for _, r in recs:
        rows.setdefault(tuple(r.get(f) for f in truth_log.ROW_FIELDS), []).append(r)
    out = {}
    for rs in rows.values():
        tr = truth_model.Truth(rs)
        for key, v in truth_log.row_truth(tr, ("mm", "addmm"), False, "none").items():
            op, (m, k, n), dtype, strides = records.gemm_key(key)   # checked by records
            gid = gemm_id(m, k, n, dtype, strides)
            ms = aten_merged(v["choices"])
            if key in out:      # the same GEMM in two rows: the mean of the rows
                for c, t in ms.items():
                    out[key]["ms"].setdefault(c, []).append(t)
            else:
                out[key] = {"op": op, "gid": gid, "ms": {c: [t] for c, t in ms.items()}}
    for v in out.values():
        v["ms"] = {c: statistics.fmean(ts) for c, ts in v["ms"].items()}
    return out


def read_records(path):
    """({(op, gid): {choice: ms}} of the "autotuned" entries of run.py's
    mode b records, the entries skipped: symbolic, not keyable); a file
    without a mode b record is an error."""
    def bad(msg):
        raise Bad(msg)
    out, skipped, nb = {}, 0, 0
    for ln, rec in records.read(path, bad):
        if rec.get("mode") != "b":
            continue    # e and f autotune the handler's short lists only
        nb += 1
        for a in rec.get("autotuned") or ():
            gid = records.autotuned_gid(a)
            if gid is None:
                skipped += 1
                continue
            ms = aten_merged(a["ms"])
            cur = out.setdefault((a["op"], gid), {})
            for c, t in ms.items():     # several autotunings: the fastest each
                cur[c] = min(cur[c], t) if c in cur else t
    if not nb:
        raise Bad(f"{path}: no mode b record (the clock is mode b's autotuning)")
    return out, skipped


def read_log(path):
    """{("any", gid): {choice: ms}} of an AutoHeuristic mm log (the median of
    repeated rows of one input and choice)."""
    try:
        meta, header, rows = inductor_log.read_inductor_log(path)
    except inductor_log.LogError as e:
        raise Bad(str(e)) from None
    if header is None:
        raise Bad(f"{path}: no such file")
    cols = header.split(",")
    need = ("m", "k", "n", "mat1_dtype", "mat1_stride_0", "mat1_stride_1",
            "mat2_stride_0", "mat2_stride_1")
    miss = [c for c in need if c not in cols]
    if miss:
        raise Bad(f"{path}:2: the header has no '{miss[0]}' column")
    ix = {c: cols.index(c) for c in need}
    acc = {}
    for ln, row in enumerate(rows, 3):
        f = row.split(",")
        size = {}
        for c in need:
            if c != "mat1_dtype":
                size[c] = records.gemm_size(f[ix[c]])
                if size[c] is None:
                    raise Bad(f"{path}:{ln}: field '{c}': {records.shown(f[ix[c]])} is not a "
                              "whole number in [0, 2**62]")
        gid = gemm_id(size["m"], size["k"], size["n"], f[ix["mat1_dtype"]],
                      [(size["mat1_stride_0"], size["mat1_stride_1"]),
                       (size["mat2_stride_0"], size["mat2_stride_1"])])
        t = float(f[-1])        # inductor_log: a time > 0 or inf (not measured)
        if math.isinf(t):
            continue
        if not records.TIME_MIN <= t <= records.TIME_MAX:
            raise Bad(f"{path}:{ln}: field 'feedback': {f[-1]} is not a time in "
                      f"[{records.TIME_MIN:g}, {records.TIME_MAX:g}] ms")
        acc.setdefault(gid, {}).setdefault(f[-2], []).append(t)
    return {("any", g): {c: statistics.median(ts) for c, ts in cs.items()}
            for g, cs in acc.items()}


def aten_ratio(ms):
    """extern_mm over the fastest Triton choice, or None."""
    tri = [t for c, t in ms.items() if c != "extern_mm"]
    return ms["extern_mm"] / min(tri) if "extern_mm" in ms and tri else None


def compare(truth_ms, clock_ms, near):
    """The per-key figures of one clock on one key (None: < 2 common choices)."""
    common = sorted(set(truth_ms) & set(clock_ms))
    absolute = (clock_ms["extern_mm"] / truth_ms["extern_mm"]
                if "extern_mm" in common else None)
    if len(common) < 2:
        return None if absolute is None else {
            "choices": len(common), "pick": None, "truth_best": None, "regret": None,
            "hit": None, "rho": None, "aten": None, "aten_abs": absolute}
    t = {c: truth_ms[c] for c in common}
    k = {c: clock_ms[c] for c in common}
    best = min(t.values())
    pick = min(common, key=lambda c: (k[c], c))
    at, ak = aten_ratio(t), aten_ratio(k)
    return {"choices": len(common), "pick": pick, "truth_best": min(common, key=lambda c: (t[c], c)),
            "regret": t[pick] / best, "hit": t[pick] <= best * (1 + near),
            "rho": spearman([t[c] for c in common], [k[c] for c in common]),
            "aten": ak / at if at and ak else None, "aten_abs": absolute}


def layout(gid):
    (s10, s11), (s20, s21) = gid[4]
    return ("n" if s11 == 1 else "t") + ("n" if s21 == 1 else "t")


def regimes(op, gid):
    m = gid[0]
    mb = next(name for lim, name in M_BUCKETS if lim is None or m <= lim)
    return ["all", mb, gid[3].replace("torch.", ""), "layout " + layout(gid), "op " + op]


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))]


def summarize(cells):
    """The figures of a list of per-key comparisons."""
    if not cells:
        return None
    ranked = [c for c in cells if c["regret"] is not None]
    rho = [c["rho"] for c in ranked if c["rho"] is not None]
    aten = [c["aten"] for c in ranked if c["aten"] is not None]
    absolute = [c["aten_abs"] for c in cells if c["aten_abs"] is not None]
    return {"keys": len(ranked), "hit": sum(c["hit"] for c in ranked) / len(ranked) if ranked else None,
            "regret_geomean": math.exp(statistics.fmean(math.log(c["regret"]) for c in ranked))
            if ranked else None,
            "aten_abs_keys": len(absolute),
            "aten_abs_median": statistics.median(absolute) if absolute else None,
            "aten_abs_min": min(absolute) if absolute else None,
            "aten_abs_max": max(absolute) if absolute else None,
            "rho_median": statistics.median(rho) if rho else None,
            "aten_median": statistics.median(aten) if aten else None,
            "aten_p10": pct(aten, 0.1) if aten else None, "aten_p90": pct(aten, 0.9) if aten else None,
            "aten_keys": len(aten)}


def run(truth, clocks, near, common=False):
    """{"clocks": {name: {"keys": [...], "regimes": {regime: summary}}}}.
    common: only the keys every clock compares on."""
    out = {"truth_keys": len(truth), "near": near, "common": common, "clocks": {}}
    def cmp(data, key):
        v = truth[key]
        ms = data.get((v["op"], v["gid"])) or data.get(("any", v["gid"]))
        return compare(v["ms"], ms, near) if ms else None
    keep = set(truth)
    if common:
        keep = {k for k in truth if all(cmp(d, k) is not None for _, d in clocks)}
    for name, data in clocks:
        per_key, by = [], {}
        for key in sorted(keep):
            v = truth[key]
            c = cmp(data, key)
            if c is None:
                continue
            c["key"] = key
            per_key.append(c)
            for r in regimes(v["op"], v["gid"]):
                by.setdefault(r, []).append(c)
        order = ["all"] + [b for _, b in M_BUCKETS]
        by_order = sorted(by, key=lambda r: (order.index(r) if r in order else len(order), r))
        out["clocks"][name] = {"keys": per_key,
                               "regimes": {r: summarize(by[r]) for r in by_order}}
    return out


def _f(x, spec):
    return "-" if x is None else format(x, spec)


def markdown(res):
    lines = [f"In-graph truth: {res['truth_keys']} GEMM keys; hit = the clock's pick within "
             f"{res['near']:.0%} of the truth's best.", "",
             "| clock | regime | keys | hit | regret (geomean) | rho (median) | aten bias (median) "
             "| ATen keys | ATen clock/graph (median [min, max]) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, c in res["clocks"].items():
        if not c["regimes"]:
            lines.append(f"| {name} | (no key in common) | 0 | - | - | - | - | 0 | - |")
        for r, s in c["regimes"].items():
            lines.append(f"| {name} | {r} | {s['keys']} | {_f(s['hit'], '.0%')} "
                         f"| {_f(s['regret_geomean'], '.4f')} | {_f(s['rho_median'], '.3f')} "
                         f"| {_f(s['aten_median'], '.3f')} | {s['aten_abs_keys']} "
                         f"| {_f(s['aten_abs_median'], '.3f')} [{_f(s['aten_abs_min'], '.3f')}, "
                         f"{_f(s['aten_abs_max'], '.3f')}] |")
    lines += ["", "Per key: the truth's best, the clock's pick and its regret; the clock's "
              "extern_mm over the graph's.", "",
              "| clock | key | truth best | clock pick | regret | rho | aten bias | ATen clock/graph |",
              "|---|---|---|---|---|---|---|---|"]
    for name, c in res["clocks"].items():
        for k in c["keys"]:
            lines.append(f"| {name} | {k['key']} | {records.cell(k['truth_best'] or '-')} "
                         f"| {records.cell(k['pick'] or '-')} "
                         f"| {_f(k['regret'], '.4f')} | {_f(k['rho'], '.3f')} | {_f(k['aten'], '.3f')} "
                         f"| {_f(k['aten_abs'], '.3f')} |")
    return "\n".join(lines) + "\n"


def named(spec, what):
    name, sep, path = spec.partition("=")
    if not sep or not name or not path or records.name_error(name):
        raise Bad(f"{what} '{spec}': expected NAME=FILE, NAME of [A-Za-z0-9._-]")
    return name, path


def main(argv):
    ap = argparse.ArgumentParser(prog="clocks.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("truth", nargs="+")
    ap.add_argument("--records", action="append", default=[])
    ap.add_argument("--log", action="append", default=[])
    ap.add_argument("--near", type=float, default=0.02)
    ap.add_argument("--common", action="store_true")
    ap.add_argument("-o", dest="out")
    ap.add_argument("--json", dest="json_out")
    a = ap.parse_args(argv)
    try:
        if not 0 <= a.near < 1:
            raise Bad(f"--near {a.near}: expected a fraction in [0, 1)")
        truth = read_truth(a.truth)
        specs = [named(s, "--records") for s in a.records] + [named(s, "--log") for s in a.log]
        names = [n for n, _ in specs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise Bad(f"clock name {dup[0]} given twice (each NAME once)")
        clocks, skipped = [], {}
        for n, p in specs[:len(a.records)]:
            data, skipped[n] = read_records(p)
            clocks.append((n, data))
        clocks += [(n, read_log(p)) for n, p in specs[len(a.records):]]
        if not clocks:
            raise Bad("no clock: give --records NAME=FILE or --log NAME=FILE")
        res = run(truth, clocks, a.near, a.common)
        res["skipped_autotuned"] = skipped
        text = markdown(res)
        try:
            outs = [(a.json_out, records.json_text(res))] if a.json_out else []
        except ValueError:
            raise Bad("a figure is not finite (NaN or infinity): no --json written") from None
        records.write_all(([(a.out, text)] if a.out else []) + outs)
    except Bad as e:
        print(f"clocks.py: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"clocks.py: {records.os_error(e)}", file=sys.stderr)
        return 1
    for n, k in skipped.items():
        if k:
            print(f"clocks.py: {n}: {k} autotuned entries skipped (a symbolic size, dtype or "
                  "stride: no GEMM key)", file=sys.stderr)
    if not a.out:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
