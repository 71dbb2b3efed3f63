#!/usr/bin/env python3
"""report.py — the whole-model table from perf/models/run.py records.

usage: report.py RECORDS.jsonl [MORE.jsonl ...] [--json OUT.json] [--skip-bad-lines]

Each RECORDS file is one run of the matrix (run.sh OUTDIR): its rep 1 is one
cold compile per model x phase x mode, its reps 2.. reuse that compile in
fresh processes.  Several files (independent runs, e.g. two run.sh calls
with two OUTDIRs) are pooled: a mode's step time is the median over runs of
each run's step time, its compile seconds the median over runs' cold
compiles.  Step times vary more between cold compiles (autotuning's picks
differ from compile to compile) than between processes of one compile.
Per model x phase (rows with a cold mode-b record): cold compile seconds of
modes a, b, c, d, e, f (rep 1, fresh caches); step time (ms: the median over
reps of each rep's median replay) of b and the ratios e/b, c/b, d/b, f/b;
the processes and cold compiles of b and e, and the step's spread
(max - min) / median across all processes;
the autotuning overhead (e - a) / (b - a) of compile time for e, c, d, f;
the GEMM autotuning seconds of b and e (choice codegen + precompile +
benchmarking, run.py's selections: what a GEMM heuristic can save, without
coordinate descent and pointwise autotuning) and their ratio;
GEMMs autotuned (select_algorithm_autotune) and choices benchmarked (timed
by Inductor's benchmarker) in b and e; the handler's decisions (mm, addmm)
and mean k in e (counts and decisions: the first run's cold compile).  Then the geomeans over model x phase of the step ratios,
the worst e/b, the overhead as sum(e - a) / sum(b - a) and its median, the
handler totals, e's and f's step over min(a, b) (geomean, worst), the same
over min(a, the fastest run's b step) (b's picks vary between cold compiles:
a row with b from one run is unchanged), and the
goals as met / not met: f (k = 1) step <= min(a, b) in geomean, no row over
1.02, overhead <= 0.10; e (auto) step <= 0.995 x min(a, b), no row over
1.02, overhead <= 0.20 (GOALS).  Markdown on stdout.
Records with status error/timeout are listed at the end.
"""
import argparse
import math
import statistics
import sys

import records   # this script's folder: the record files

MODES = records.MODES
STEP_TOL = 1.005  # "equal or better step time": within 0.5 %
# the handler's goals, per mode: (geomean of step / min(a, b), worst row,
# overhead sum(x - a) / sum(b - a))
GOALS = {"f": (1.0, 1.02, 0.10), "e": (0.995, 1.02, 0.20)}


def load(path, skip_bad=False, prog="report.py"):
    """PATH's records; a line that is not a record (records.read: not JSON,
    or a field records.RUN_RECORD refuses: a model name outside
    records.NAME_RULE, a phase or mode not of their words, a missing or
    mistyped field) stops here, naming path:line and the field, or with
    SKIP_BAD is named on stderr and left out; messages start with PROG."""
    def bad(msg):
        if not skip_bad:
            sys.exit(f"{prog}: {msg}")
        print(f"{prog}: {msg}: left out", file=sys.stderr)
    try:
        return [r for _, r in records.read(path, bad)]
    except OSError as e:
        sys.exit(f"{prog}: {path}: {e.strerror}")


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, nd=3):
    if x is None:
        return "-"
    return f"{x:.{nd}f}"


def dash(x):
    return "-" if x is None else str(x)


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def table(runs):
    """runs: one list of records per RECORDS file."""
    ok = [(i, r) for i, recs in enumerate(runs) for r in recs if r.get("status") == "ok"]
    keys = []
    for _, r in ok:
        k = (r["model"], r["phase"])
        if k not in keys:
            keys.append(k)
    rows = []
    for k in keys:
        row = {"model": k[0], "phase": k[1]}
        for m in MODES:
            rs = [(i, r) for i, r in ok if (r["model"], r["phase"], r["mode"]) == (*k, m)]
            colds = []             # each run's cold compile, in file order
            for i in sorted({i for i, _ in rs}):
                c = [r for j, r in rs if j == i and r.get("rep") == 1 and r.get("cache") != "warm"]
                colds += c[:1]
            row[f"compile_{m}"] = (statistics.median(c["compile_s"] for c in colds)
                                   if colds else None)
            steps = [r["step_ms"] for _, r in rs]
            per_run = [statistics.median(r["step_ms"] for j, r in rs if j == i)
                       for i in sorted({i for i, _ in rs})]
            row[f"step_{m}"] = statistics.median(per_run) if per_run else None
            if m == "b":   # b's picks vary from one cold compile to the next
                row["step_b_fastest"] = min(per_run) if per_run else None
                row["runs_b"] = len(per_run)
            row[f"reps_{m}"] = len(steps)
            row[f"compiles_{m}"] = len(colds)
            row[f"spread_{m}"] = ((max(steps) - min(steps)) / statistics.median(steps)
                                  if len(steps) > 1 else None)
            gemm = [c["gemm_autotune_s"] + c["gemm_choices_s"] for c in colds
                    if c.get("gemm_autotune_s") is not None and c.get("gemm_choices_s") is not None]
            row[f"gemm_{m}"] = statistics.median(gemm) if gemm else None
            ga = [c["gemm_autotune_s"] for c in colds if c.get("gemm_autotune_s") is not None]
            row[f"gemm_autotune_{m}"] = statistics.median(ga) if ga else None
            if colds:
                first = colds[0]
                c = first.get("counters", {})
                row[f"autotuned_{m}"] = c.get("select_algorithm_autotune")
                row[f"benchmarked_{m}"] = c.get("benchmarking.InductorBenchmarker.benchmark_gpu")
                row[f"precompiles_{m}"] = c.get("select_algorithm_num_precompiles")
                row[f"autotune_{m}"] = first.get("autotune", "full")
                h = first.get("handler")
                if h:
                    row[f"dec_mm_{m}"] = h["decisions"].get("mm", 0)
                    row[f"dec_addmm_{m}"] = h["decisions"].get("addmm", 0)
                    row[f"ksum_{m}"] = sum(h["k_sum"].values())
                    row[f"kept_{m}"] = sum(h["kept_triton_sum"].values())
                    row[f"fallbacks_{m}"] = sum(h["fallbacks"].values())
        b = row["step_b"]
        for m in ("c", "d", "e", "f"):
            row[f"ratio_{m}"] = row[f"step_{m}"] / b if b and row[f"step_{m}"] else None
            ca, cb, cm = row["compile_a"], row["compile_b"], row[f"compile_{m}"]
            row[f"overhead_{m}"] = ((cm - ca) / (cb - ca) if None not in (ca, cb, cm) and cb > ca
                                    else None)
        best = (min(row["step_a"], row["step_b"])
                if row["step_a"] and row["step_b"] else None)
        fast = (min(row["step_a"], row["step_b_fastest"])
                if row["step_a"] and row["step_b_fastest"] else None)
        for m in ("e", "f"):
            row[f"vs_ab_{m}"] = row[f"step_{m}"] / best if best and row[f"step_{m}"] else None
            row[f"vs_abf_{m}"] = row[f"step_{m}"] / fast if fast and row[f"step_{m}"] else None
        rows.append(row)
    return rows


def summary(rows):
    s = {}
    for m in ("c", "d", "e", "f"):
        rs = [r[f"ratio_{m}"] for r in rows if r[f"ratio_{m}"] is not None]
        s[f"geomean_ratio_{m}"] = geomean(rs)
        s[f"max_ratio_{m}"] = max(rs) if rs else None
        s[f"n_{m}"] = len(rs)
        pairs = [r for r in rows if r[f"overhead_{m}"] is not None]
        num = sum(r[f"compile_{m}"] - r["compile_a"] for r in pairs)
        den = sum(r["compile_b"] - r["compile_a"] for r in pairs)
        s[f"overhead_sum_{m}"] = num / den if den > 0 else None
        s[f"overhead_median_{m}"] = (statistics.median(r[f"overhead_{m}"] for r in pairs)
                                     if pairs else None)
    for m in ("c", "d", "e", "f"):
        for key in ("gemm", "gemm_autotune"):
            pairs = [r for r in rows if r.get(f"{key}_{m}") is not None and r.get(f"{key}_b")]
            num = sum(r[f"{key}_{m}"] for r in pairs)
            den = sum(r[f"{key}_b"] for r in pairs)
            s[f"{key}_ratio_{m}"] = num / den if den > 0 else None
    for m in ("e", "f"):
        dm = sum(r.get(f"dec_mm_{m}", 0) for r in rows)
        da = sum(r.get(f"dec_addmm_{m}", 0) for r in rows)
        ks = sum(r.get(f"ksum_{m}", 0) for r in rows)
        kept = sum(r.get(f"kept_{m}", 0) for r in rows)
        s[f"decisions_mm_{m}"], s[f"decisions_addmm_{m}"] = dm, da
        s[f"mean_k_{m}"] = ks / (dm + da) if dm + da else None
        s[f"mean_kept_triton_{m}"] = kept / (dm + da) if dm + da else None
        s[f"fallbacks_{m}"] = sum(r.get(f"fallbacks_{m}", 0) for r in rows)
    for m in ("c", "d"):
        pairs = [r for r in rows if None not in (r["compile_e"], r[f"compile_{m}"],
                                                 r["step_e"], r[f"step_{m}"])]
        s[f"vs_n_{m}"] = len(pairs)
        s[f"vs_ahead_{m}"] = sum(1 for r in pairs if r["compile_e"] < r[f"compile_{m}"]
                                 and r["step_e"] <= STEP_TOL * r[f"step_{m}"])
        ce, cx = sum(r["compile_e"] for r in pairs), sum(r[f"compile_{m}"] for r in pairs)
        s[f"vs_compile_{m}"] = ce / cx if pairs and cx > 0 else None
        s[f"vs_step_{m}"] = geomean([r["step_e"] / r[f"step_{m}"] for r in pairs])
        s[f"goal_vs_{m}"] = (None if not pairs else
                             bool(ce < cx and s[f"vs_step_{m}"] <= STEP_TOL))
    for m, (gm, worst, ovh) in GOALS.items():
        rs = [r[f"vs_ab_{m}"] for r in rows if r[f"vs_ab_{m}"] is not None]
        g, w, o = geomean(rs), (max(rs) if rs else None), s[f"overhead_sum_{m}"]
        s[f"geomean_vs_ab_{m}"], s[f"max_vs_ab_{m}"], s[f"n_vs_ab_{m}"] = g, w, len(rs)
        s[f"goal_{m}"] = (None if g is None or o is None
                          else bool(g <= gm and w <= worst and o <= ovh))
        rs = [r[f"vs_abf_{m}"] for r in rows if r[f"vs_abf_{m}"] is not None]
        s[f"geomean_vs_abf_{m}"], s[f"max_vs_abf_{m}"] = geomean(rs), (max(rs) if rs else None)
        s[f"n_vs_abf_{m}"] = len(rs)
        s[f"n_vs_abf_runs2_{m}"] = sum(1 for r in rows if r[f"vs_abf_{m}"] is not None and r["runs_b"] >= 2)
    return s


def markdown(rows, s, bad, versions):
    out = []
    if versions.get("device"):
        out.append(f"Device {versions.get('device')}, torch {versions.get('torch')}, "
                   f"transformers {versions.get('transformers')}, triton {versions.get('triton')}; "
                   f"max-autotune setting (AUTOTUNE): {versions.get('autotune')}.\n")
    out.append("| model | phase | compile a | b | c | d | e | f (s) | step b (ms) | e/b | c/b | d/b | f/b "
               "| ovh e | ovh c | ovh d | ovh f | GEMM s b/e | procs b/e | compiles b/e | spread b/e "
               "| autotuned b/e "
               "| benchmarked b/e | handler mm/addmm, mean k |")
    out.append("|" + "---|" * 24)
    for r in rows:
        dec = (f"{r.get('dec_mm_e', 0)}/{r.get('dec_addmm_e', 0)}, "
               f"{fmt(r['ksum_e'] / max(1, r.get('dec_mm_e', 0) + r.get('dec_addmm_e', 0)), 1)}"
               if "ksum_e" in r else "-")
        out.append(
            f"| {r['model']} | {r['phase']} | " + " | ".join(fmt(r[f'compile_{m}'], 1) for m in MODES)
            + f" | {fmt(r['step_b'], 4)} | " + " | ".join(fmt(r[f'ratio_{m}']) for m in "ecdf")
            + " | " + " | ".join(fmt(r[f'overhead_{m}'], 2) for m in "ecdf")
            + f" | {fmt(r.get('gemm_b'), 1)}/{fmt(r.get('gemm_e'), 1)}"
            + f" | {r['reps_b']}/{r['reps_e']} | {r['compiles_b']}/{r['compiles_e']}"
            + f" | {pct(r['spread_b'])}/{pct(r['spread_e'])}"
            + f" | {dash(r.get('autotuned_b'))}/{dash(r.get('autotuned_e'))}"
            + f" | {dash(r.get('benchmarked_b'))}/{dash(r.get('benchmarked_e'))} | {dec} |")
    out.append("")
    out.append(f"Over {s['n_e']} model x phase rows with b and e: step e/b geomean {fmt(s['geomean_ratio_e'], 4)}, "
               f"worst {fmt(s['max_ratio_e'], 4)}; c/b geomean {fmt(s['geomean_ratio_c'], 4)} "
               f"(worst {fmt(s['max_ratio_c'], 4)}); d/b {fmt(s['geomean_ratio_d'], 4)}; "
               f"f/b {fmt(s['geomean_ratio_f'], 4)}.")
    out.append(f"Autotuning overhead, sum(x - a) / sum(b - a) of cold compile seconds: e {fmt(s['overhead_sum_e'], 3)} "
               f"(median {fmt(s['overhead_median_e'], 3)}), c {fmt(s['overhead_sum_c'], 3)}, "
               f"d {fmt(s['overhead_sum_d'], 3)}, f {fmt(s['overhead_sum_f'], 3)}.")
    out.append(f"GEMM autotuning seconds (choice codegen + precompile + benchmarking, cold), sum x / sum b: "
               f"e {fmt(s['gemm_ratio_e'], 3)} (precompile + benchmarking alone {fmt(s['gemm_autotune_ratio_e'], 3)}), "
               f"c {fmt(s['gemm_ratio_c'], 3)}, d {fmt(s['gemm_ratio_d'], 3)}, f {fmt(s['gemm_ratio_f'], 3)}.")
    out.append(f"Handler (e): {s['decisions_mm_e']} mm and {s['decisions_addmm_e']} addmm calls decided, "
               f"mean k {fmt(s['mean_k_e'], 2)}, mean Triton choices kept {fmt(s['mean_kept_triton_e'], 2)}, "
               f"{s['fallbacks_e']} fallbacks; (f): {s['decisions_mm_f']} mm, {s['decisions_addmm_f']} addmm, "
               f"mean kept {fmt(s['mean_kept_triton_f'], 2)}.")
    for m in ("c", "d"):
        out.append(f"e against {m}, {s[f'vs_n_{m}']} rows where both ran: e ahead (lower compile, step within "
                   f"0.5 %) in {s[f'vs_ahead_{m}']}; sum of compile e/{m} {fmt(s[f'vs_compile_{m}'], 3)}, "
                   f"step e/{m} geomean {fmt(s[f'vs_step_{m}'], 4)}.")
    out.append(f"Step against the better of a and b, min(a, b): e geomean {fmt(s['geomean_vs_ab_e'], 4)} "
               f"(worst {fmt(s['max_vs_ab_e'], 4)}, {s['n_vs_ab_e']} rows); f geomean "
               f"{fmt(s['geomean_vs_ab_f'], 4)} (worst {fmt(s['max_vs_ab_f'], 4)}, {s['n_vs_ab_f']} rows).")
    out.append("The same against min(a, b's fastest run): " + "; ".join(
        f"{m} geomean {fmt(s[f'geomean_vs_abf_{m}'], 4)} (worst {fmt(s[f'max_vs_abf_{m}'], 4)}, "
        f"{s[f'n_vs_abf_{m}']} rows, {s[f'n_vs_abf_runs2_{m}']} with b from 2 or more runs)"
        for m in ("e", "f")) + ".")
    goal = {True: "met", False: "NOT met", None: "not measured"}
    out.append("Goals: " + "; ".join(
        f"{m} ({'k = 1' if m == 'f' else 'auto'}): step <= {'' if gm == 1 else f'{gm} x '}min(a, b) "
        f"in geomean, no row over {worst}, overhead <= {ovh:.2f}: {goal[s[f'goal_{m}']]}"
        for m, (gm, worst, ovh) in GOALS.items()) + ".")
    if bad:
        out.append("")
        out.append("Not measured:")
        for r in bad:
            out.append(f"- {r.get('model')} {r.get('phase')} {r.get('mode')} rep {r.get('rep')}: "
                       f"{r.get('status')} {r.get('error', r.get('why', ''))[:160]}")
    return "\n".join(out) + "\n"


def main(argv):
    p = argparse.ArgumentParser(prog="report.py", description=__doc__.split("\n\n")[0])
    p.add_argument("records", nargs="+", help="RECORDS.jsonl files, one per run of the matrix")
    p.add_argument("--json")
    p.add_argument("--skip-bad-lines", action="store_true",
                   help="name a line that is not a record on stderr and go on (run.sh)")
    a = p.parse_args(argv)
    runs = [load(f, a.skip_bad_lines) for f in a.records]
    recs = [r for run in runs for r in run]
    rows = table(runs)
    s = summary(rows)
    bad = [r for r in recs if r.get("status") not in ("ok", "skipped")]
    ok = [r for r in recs if r.get("status") == "ok"]
    versions = ({k: ok[0].get(k) for k in ("device", "torch", "transformers", "triton")}
                if ok else {})
    if ok:
        versions["autotune"] = ", ".join(sorted({r.get("autotune", "full") for r in ok
                                                  if r.get("autotune", "full") != "-"})) or "-"
    text = markdown(rows, s, bad, versions)
    if a.json:
        try:
            records.write_all([(a.json, records.json_text({"rows": rows, "summary": s,
                                                            "versions": versions}))])
        except ValueError:
            sys.exit("report.py: a figure is not finite (NaN or infinity): no --json written")
        except OSError as e:
            sys.exit(f"report.py: {records.os_error(e)}")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
