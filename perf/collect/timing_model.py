#!/usr/bin/env python3
"""timing_model.py -- where the GPU time of a bench --template triton
collection goes, and what the long-kernel rule (bench --long-ms) and the
loser cut (bench --loser-ratio) would save: a model over the times of a
committed log, not a measurement (kernels/INDUCTOR_MM.md section 5).

usage: timing_model.py [--ttsched PATH] [--flush-us US] [--memory-warmup]
                       [--stats STATS] [--inputs N] [--vcut-log LOG] [LOG ...]

LOG: AutoHeuristic logs of that back end (.xz or plain; default the
committed datasets/h200/h200_inductor_seed2026.txt.xz, the uncapped
reference distribution, for the table, and it with
datasets/h200/h200_inductor_real.txt.xz for the label check).

The model.  Each finite choice of an input (in the log's order: extern_mm
first, then Inductor's) is one timing whose every call takes the logged
time t: the warm-up call, the probe and every flushed launch (t is the
minimum of Inductor's launches; the warm-up has no flush and may carry a
first-call cost, so the real rules decide on slightly different numbers).
Its calls and flushed launches are those of bench's own schedule,
stages/gpu/policy/ttsched.h tt_schedule, evaluated by check/unit/ttsched_print (--ttsched,
default build/unit/ttsched_print: make units) with the input's best time so
far (the smallest logged time before it; none for the first) for the loser
cut.  Cost = calls x t + US (--flush-us, default 15: a 60 MiB L2 flush on
an H200) per flushed timed launch, and per memory warm-up flush too with
--memory-warmup (Inductor's 100 zeroings of the flush buffer; off by
default: they add 4.2 s to Inductor's method, 2.6 s to the long-kernel
rule's, 1.0 s with the loser cut at L = 1.5; section 5's long-rule ratios,
1/2.06 and so on, were computed with them).  "keep 5" is a variant bench does not implement:
a loser shorter than the long-kernel threshold keeps Inductor's 5
estimation launches (warm-up + 5), a long one warm-up + 1.

Inputs/hour: the measured split of a collection call (--stats, default
perf/results/gpu/h200_collect/call3_stats_sample.tsv: Inductor's method,
inputs_per_hour, wall_s, timing_nvrtc_s + timing_extern_s the tt_time
timings): the timing share scales with the model's cost, the rest per input
(verification, setup, host) stays; GPU-hours for --inputs (default 1800) on
one GPU.

The label check: a loser's logged time is >= L x the best so far >= L x the
input's best, so it is never near-best (spec section 5.2: best / t >=
NEAR_BEST_RATIO, stages/formats/rules.h) when L > 1 / NEAR_BEST_RATIO; per L, the
choices the cut marks in each log, their share, the smallest t / best among
them and how many are near-best (0 by construction; checked on the data).

The verification cut (bench --verify-cut S, audited every K-th, with
--loser-ratio 1.5 --warm-from-verify --long-ms 10: how the later sample
parts are collected): over --vcut-log (default the committed sample part 4,
collected that way without the cut), the whole call, verification
included: every choice but extern_mm costs its verification call (t) plus
its timing's calls, the warm-up reused; extern_mm its timing with a warm-up
of its own.  Per S: modelled seconds, the ratio to no cut, the cuts and
audits.  Without the cut the model is checked against that part's measured
wall time (1092.7 s over its two calls, perf/results/gpu/h200_collect
p4_call*_stats_sample.tsv).

What a loser's time loses: it is one launch, not the minimum of >= 6.  No
committed log has single flushed launches of short choices; the closest is
this repo's CUDA-measurer logs with 3 repetitions of one launch each for
choices >= 1 ms (NOISE_LOGS): the first repetition over the minimum of the
3, minus 1, per choice (median, p90, p99), for choices of 1-10 ms and >= 10
ms.  An upper bound of the probe's excess: there the first launch of a long
input follows no warm-up call, the probe always follows one.
"""
import argparse
import math
import os
import subprocess
import sys

from mmrank import rules
from mmrank.bench import inductor_log  # the AutoHeuristic log reader

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

MAIN = "datasets/h200/h200_inductor_seed2026.txt.xz"
VCUT_LOG = "datasets/h200/h200_inductor_seed2026_p4.txt.xz"
VCUT_S = (0, 1.5, 2, 3, 4)
REAL = "datasets/h200/h200_inductor_real.txt.xz"
STATS = "perf/results/gpu/h200_collect/call3_stats_sample.tsv"
CURRENT = ("long 10/2", 10, 2, 0)  # bench's default: --long-ms 10 --long-launches 2
SETTINGS = [("Inductor", 0, 2, 0), CURRENT, ("long 10/1", 10, 1, 0), ("long 20/2", 20, 2, 0),
            ("long 2/2", 2, 2, 0), ("loser 1.2", 10, 2, 1.2), ("loser 1.5", 10, 2, 1.5),
            ("loser 1.5, keep 5", 10, 2, -1.5), ("loser 2", 10, 2, 2), ("loser 3", 10, 2, 3)]
LABEL_L = (1.2, 1.5, 2, 3)
NOISE_LOGS = ("perf/results/gpu/adaptive_h200/same_0.txt.xz", "perf/results/gpu/mma_h200/ref_mma.txt.xz",
              "perf/results/gpu/cublaslt_h200/measure_reference.interrupted.txt.xz")


def read_log(path):
    """[(input key, choice, t)] in the log's order; t in ms, inf = failed."""
    full = os.path.join(ROOT, path) if not os.path.isabs(path) else path
    try:
        _, header, lines = inductor_log.read_inductor_log(full)
    except inductor_log.LogError as e:
        sys.exit(f"timing_model: {e}")
    if header is None:
        sys.exit(f"timing_model: {path}: no such file")
    rows = []
    for line in lines:
        p = line.split(",")
        rows.append((",".join(p[:-2]), p[-2], float(p[-1])))
    return rows


def timings(rows):
    """[(t, best so far, verified)] of the finite choices, per input in
    order; verified: not extern_mm (bench verifies every other choice)."""
    out, key, best = [], None, math.nan
    for k, c, t in rows:
        if k != key:
            key, best = k, math.nan
        if math.isinf(t):
            continue
        out.append((t, best, c != "extern_mm"))
        best = t if math.isnan(best) else min(best, t)
    return out


def schedules(tool, cases):
    """ttsched_print's answers to the case lines, as dicts of ints."""
    r = subprocess.run([tool], input="".join(cases), capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"timing_model: {tool}: {r.stderr.strip()}")
    return [{k: int(v) for k, v in (kv.split("=") for kv in line.split())}
            for line in r.stdout.splitlines()]


def model(tool, tb, setting, flush_us, memory_warmup):
    """Total modelled seconds, loser and long counts of one setting."""
    _, lng, n, lr = setting
    keep5 = lr < 0
    lr = abs(lr)
    cases = [f"{lng} {n} {t!r} {t!r} {t!r} 128 {lr} {b!r} {t!r}\n" for t, b, _ in tb]
    tot = losers = longs = 0
    for (t, b, _), s in zip(tb, schedules(tool, cases)):
        calls, flushes = s["calls"], s["first"] + s["estimation"] + s["benchmark"]
        if keep5 and s["is_loser"] and t < lng:
            calls, flushes = 6, 5
        if memory_warmup:
            flushes += s["memory_warmup"]
        tot += calls * t + flush_us * 1e-3 * flushes
        losers += s["is_loser"]
        longs += s["is_long"]
    return tot / 1e3, losers, longs


def vcut_model(tool, rows, s_cut, audit_every=10, lr=1.5, lng=10, flush_us=15.0):
    """Modelled seconds of a whole collection call (verification included)
    under the verification cut S (0: off), its cuts and audits."""
    tb = timings(rows)

    def cases(audit):
        return [f"{lng} 2 {t!r} {t!r} {t!r} 128 {lr} {b!r} {t!r} {s_cut} {int(v)} {int(a)}\n"
                for (t, b, v), a in zip(tb, audit)]
    first = schedules(tool, cases([0] * len(tb)))
    audit, seen = [], 0
    for s in first:
        audit.append(s["vcut"] and audit_every > 0 and seen % audit_every == 0)
        seen += s["vcut"]
    tot = cuts = audits = 0
    for (t, _, v), s in zip(tb, schedules(tool, cases(audit))):
        flushes = s["first"] + s["estimation"] + s["benchmark"]
        tot += (s["calls"] + v) * t + flush_us * 1e-3 * flushes
        cuts += s["vcut"]
        audits += s["vcut_audited"]
    return tot / 1e3, cuts, audits


def split(path):
    st = {}
    for line in open(os.path.join(ROOT, path)):
        k, _, v = line.rstrip("\n").partition("\t")
        st[k] = v
    n, wall = float(st["inputs_measured"]), float(st["wall_s"])
    timing = float(st["timing_nvrtc_s"]) + float(st["timing_extern_s"])
    return n, wall, timing


def label_check(path, rows):
    """Per L: marked choices (t >= L x the best so far), their share, the
    smallest t / final best among them, the near-best ones among them."""
    best_of = {}
    for k, _, t in rows:
        if not math.isinf(t):
            best_of[k] = min(best_of.get(k, math.inf), t)
    fin = [(k, t) for k, _, t in rows if not math.isinf(t)]
    labels = sum(1 for k, t in fin if rules.near_best(t, best_of[k]))
    print(f"{path}: {len(best_of)} inputs, {len(fin)} finite choices, {labels} near-best "
          f"(spec 5.2: t <= best / {rules.NEAR_BEST_RATIO:g})")
    print("| L | marked | share | min t / best among them | near-best among them |")
    print("|---|---|---|---|---|")
    for lr in LABEL_L:
        key, sofar, marked, near, lo = None, math.nan, 0, 0, math.inf
        for k, _, t in rows:
            if k != key:
                key, sofar = k, math.nan
            if math.isinf(t):
                continue
            if not math.isnan(sofar) and t >= lr * sofar:
                marked += 1
                near += rules.near_best(t, best_of[k])
                lo = min(lo, t / best_of[k])
            sofar = t if math.isnan(sofar) else min(sofar, t)
        print(f"| {lr:g} | {marked} | {100 * marked / len(fin):.1f} % | {lo:.3f} | {near} |")


def first_launch_excess(paths):
    """rep 1 / min(reps 1-3) - 1 per (input, choice) of >= 1 ms, by time band."""
    print("| log | choices 1-10 ms | median | p90 | p99 | choices >= 10 ms | median | p90 | p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        reps = {}
        for k, c, t in read_log(path):
            reps.setdefault((k, c), []).append(t)
        cells = []
        for lo, hi in ((1, 10), (10, math.inf)):
            ex = sorted(v[0] / min(v) - 1 for v in reps.values()
                        if len(v) >= 3 and lo <= min(v) < hi)
            q = lambda f: ex[min(len(ex) - 1, int(f * len(ex)))]
            cells += [str(len(ex))] + ([f"{100 * q(f):.2f} %" for f in (0.5, 0.9, 0.99)]
                                       if ex else ["-"] * 3)
        print(f"| {path} | " + " | ".join(cells) + " |")


def main(argv):
    p = argparse.ArgumentParser(prog="timing_model.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--ttsched", default=os.path.join(ROOT, "build", "unit", "ttsched_print"))
    p.add_argument("--flush-us", type=float, default=15.0)
    p.add_argument("--memory-warmup", action="store_true")
    p.add_argument("--stats", default=STATS)
    p.add_argument("--inputs", type=int, default=1800)
    p.add_argument("--vcut-log", default=VCUT_LOG)
    o = p.parse_args(argv)
    if not os.access(o.ttsched, os.X_OK):
        sys.exit(f"timing_model: {o.ttsched}: not built (make units)")
    logs = o.logs or [MAIN, REAL]
    rows = {path: read_log(path) for path in logs}
    tb = timings(rows[logs[0]])
    n, wall, timing = split(o.stats)
    per_other, per_timing = (wall - timing) / n, timing / n
    res = {s[0]: model(o.ttsched, tb, s, o.flush_us, o.memory_warmup) for s in SETTINGS}
    ind, cur = res["Inductor"][0], res[CURRENT[0]][0]
    print(f"{logs[0]}: {len(tb)} finite choices; cost = calls x t + {o.flush_us:g} us per flushed "
          f"launch{' and memory warm-up flush' if o.memory_warmup else ''}; inputs/hour from "
          f"{o.stats} ({n:.0f} inputs, {wall:.0f} s wall, {timing:.0f} s tt_time timing, "
          f"Inductor's method)")
    print("| setting | timing s | vs Inductor | vs long 10/2 | losers | long path | inputs/hour "
          f"| GPU-hours for {o.inputs} |")
    print("|---|---|---|---|---|---|---|---|")
    for name, *_ in SETTINGS:
        tot, losers, longs = res[name]
        iph = 3600 / (per_other + per_timing * tot / ind)
        print(f"| {name} | {tot:.1f} | {ind / tot:.2f}x | {cur / tot:.2f}x | {losers} "
              f"({100 * losers / len(tb):.0f} %) | {longs} | {iph:.0f} | {o.inputs / iph:.2f} |")
    print()
    for path in logs:
        label_check(path, rows[path])
    print()
    vrows = read_log(o.vcut_log)
    print(f"{o.vcut_log}: the verification cut (--loser-ratio 1.5 --warm-from-verify --long-ms 10, "
          f"audit every 10th), the whole call modelled, verification included")
    print("| S | modelled s | vs no cut | cuts | audits |")
    print("|---|---|---|---|---|")
    base = None
    for s_cut in VCUT_S:
        tot, cuts, audits = vcut_model(o.ttsched, vrows, s_cut, flush_us=o.flush_us)
        base = base or tot
        print(f"| {s_cut:g} | {tot:.1f} | {base / tot:.2f}x | {cuts} | {audits} |")
    print()
    print("first launch / min of 3 - 1 (single launches, CUDA measurer):")
    first_launch_excess(NOISE_LOGS)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
