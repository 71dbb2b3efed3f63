#!/usr/bin/env python3
"""head_truth.py — each leaf's list head against the in-graph truth: does k = 1
(the head autotuned against extern_mm, as Inductor keeps its ATen choices)
lose on the truth's inputs that reach the leaf?  And the head alone (the
handler's aten="listed": one choice, nothing autotuned)?  No torch, no GPU.

usage: head_truth.py TREE.tsv TRUTH_LOG.txt [--near 0.02] [--bin build/bin]
                     [--records RECORDS.jsonl ...] [-o OUT.md] [--strict]

TREE.tsv: a tree TSV (fit or prune output, e.g. out/h100/pruned.tsv).
TRUTH_LOG.txt: the in-graph truth as an AutoHeuristic mm log
(perf/models/truth_log.py; feedback = in-graph ms).  featurize and eval
(--bin) rank every input with the tree: its leaf, and the leaf's list as
Inductor filters it (the ids measured for the input, in list order).  Per
input, the head is the first listed id measured for it; k = 1 runs the
faster of the head and extern_mm, its regret is that time over the input's
fastest measured choice.  An input loses when that regret exceeds 1 + NEAR.
Output, markdown (stdout, or OUT.md): one row per leaf holding truth inputs
(inputs, the heads they get, k = 1 regret geomean and max, the losing
inputs as m x k x n dtype: regret, the head alone's regret geomean: the head's
time over the input's fastest), then the totals.  k = 1 above assumes the
hedge takes the faster of the two in the graph; Inductor decides it on its
autotune clock.  --records (perf/models/run.py records, repeatable): mode
b's "autotuned" times (Inductor's clock; the ATen choice is bias_addmm where
timed, as the handler keeps it, else mm or addmm) decide the hedge of each
input they time both the head and the ATen choice of; a column and a total
give k = 1's regret so (inputs the records do not time: as above).  Times in ms; regrets
have no unit.  --strict: exit 1 when any input loses (after writing).
Errors (featurize or eval failing, a bad file) exit 2 with the stage's
message; nothing is written then.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

import records  # this script's folder: the judge's record reader


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"head_truth.py: {os.path.basename(cmd[0])} failed: {r.stderr.strip()}")


def classes(tree):
    out = {}
    with open(tree) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "class" and len(p) >= 3:
                out[p[1]] = p[2]
    if not out:
        sys.exit(f"head_truth.py: {tree}: no class lines (not a tree TSV)")
    return out


def read_feat(path):
    """{input: (label, {choice: ms}, gid)}; gid (m, k, n, dtype, strides)
    names the GEMM as a record's autotuned entry does."""
    with open(path) as f:
        rows = list(csv.reader(f, delimiter="\t"))
    head = rows[1]
    ix = {h: i for i, h in enumerate(head)}
    out = {}
    for r in rows[2:]:
        i = r[ix["input"]]
        size = [int(float(r[ix[c]])) for c in ("m", "k", "n", "mat1_stride_0", "mat1_stride_1",
                                               "mat2_stride_0", "mat2_stride_1")]
        gid = (size[0], size[1], size[2], r[ix["mat1_dtype"]],
               ((size[3], size[4]), (size[5], size[6])))
        label = f"{r[ix['m']]}x{r[ix['k']]}x{r[ix['n']]} {r[ix['mat1_dtype']].replace('torch.', '')}"
        out.setdefault(i, (label, {}, gid))[1][r[ix["choice"]]] = float(r[ix["median_ms"]])
    return out


ATEN = ("extern_bias_addmm", "extern_mm", "extern_addmm")   # the handler's order


def read_clock(paths):
    """{gid: {choice: ms}} of mode b's autotuned entries in PATHS (Inductor's
    clock): per choice the fastest over the entries; the ATen choice, named
    extern_mm, is the first of ATEN an entry timed."""
    def bad(msg):
        sys.exit(f"head_truth.py: {msg}")
    out = {}
    for path in paths:
        nb = 0
        for _, rec in records.read(path, bad):
            if rec.get("mode") != "b":
                continue
            nb += 1
            for a in rec.get("autotuned") or ():
                gid = records.autotuned_gid(a)
                if gid is None:
                    continue    # a symbolic size: no input of the truth
                ms = {c: t for c, t in a["ms"].items()
                      if isinstance(t, (int, float)) and 0 < t < math.inf}
                aten = next((c for c in ATEN if c in ms), None)
                cur = out.setdefault(gid, {})
                for c, t in ms.items():
                    if c.startswith("extern_"):
                        if c != aten:
                            continue
                        c = "extern_mm"
                    cur[c] = min(cur[c], t) if c in cur else t
        if not nb:
            sys.exit(f"head_truth.py: {path}: no mode b record (the clock is mode b's autotuning)")
    return out


def table(tree, feat, ranks, near, clock=None):
    """{leaf: [(label, head, k = 1 regret, alone, k = 1 on CLOCK or None)]}"""
    names = classes(tree)
    inputs = read_feat(feat)
    leaves = {}
    with open(ranks) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            label, ms, gid = inputs[r["input"]]
            best = min(ms.values())
            ids = [names[c] for c in r["ranking"].split(",") if c in names]
            head = next((c for c in ids if c in ms), "extern_mm")
            e = ms.get("extern_mm", math.inf)
            k1 = min(ms.get(head, math.inf), e) / best
            alone = ms.get(head, math.inf) / best
            ck = (clock or {}).get(gid, {})
            ran = None
            if head == "extern_mm" or head not in ms:
                ran = k1
            elif head in ck and "extern_mm" in ck and math.isfinite(e):
                ran = (e if ck["extern_mm"] < ck[head] else ms[head]) / best
            leaves.setdefault(int(r["leaf"]), []).append((label, head, k1, alone, ran))
    return leaves


def markdown(leaves, near):
    lines = [f"k = 1 (the head + extern_mm) on the truth's inputs; an input loses above "
             f"{1 + near:g}.", "",
             "| leaf | inputs | heads | k = 1 regret (geomean) | max | inputs that lose | "
             "head alone (geomean) | k = 1 on Inductor's clock (geomean, inputs timed) |",
             "|---|---|---|---|---|---|---|---|"]
    n = lost = timed = 0
    logs, alone, clocked = [], [], []
    for leaf in sorted(leaves):
        v = leaves[leaf]
        gm = math.exp(sum(math.log(x[2]) for x in v) / len(v))
        heads = sorted({x[1] for x in v})
        bad = [f"{x[0]}: {x[2]:.3f}" for x in v if x[2] > 1 + near]
        n += len(v)
        lost += len(bad)
        logs += [math.log(x[2]) for x in v]
        alone += [math.log(x[3]) for x in v]
        ga = math.exp(sum(math.log(x[3]) for x in v) / len(v))
        ck = [x[4] if x[4] is not None else x[2] for x in v]
        nt = sum(x[4] is not None for x in v)
        timed += nt
        clocked += [math.log(x) for x in ck]
        gc = math.exp(sum(math.log(x) for x in ck) / len(ck))
        lines.append(f"| {leaf} | {len(v)} | {', '.join(heads)} | {gm:.4f} | "
                     f"{max(x[2] for x in v):.3f} | {'; '.join(bad) or '-'} | {ga:.4f} | "
                     f"{gc:.4f}, {nt} |")
    lines += ["", f"{n} inputs in {len(leaves)} leaves: k = 1 regret geomean "
              f"{math.exp(sum(logs) / len(logs)) if logs else 1:.4f}; {lost} lose.",
              f"The head alone (no extern_mm beside it: mmrank.inductor's aten=\"listed\"): "
              f"regret geomean {math.exp(sum(alone) / len(alone)) if alone else 1:.4f}.",
              f"k = 1 with the hedge decided on Inductor's clock (--records; {timed} of {n} "
              f"inputs timed there or headed by extern_mm, the others as k = 1 above): regret "
              f"geomean {math.exp(sum(clocked) / len(clocked)) if clocked else 1:.4f}."]
    return "\n".join(lines) + "\n", lost


def main(argv):
    ap = argparse.ArgumentParser(prog="head_truth.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("tree")
    ap.add_argument("log")
    ap.add_argument("--near", type=float, default=0.02)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--records", action="append", default=[])
    ap.add_argument("-o", dest="out")
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args(argv)
    if not 0 <= a.near < 1:
        sys.exit("head_truth.py: --near: expected a fraction in [0, 1)")
    for p in (a.tree, a.log, *a.records):
        if not os.path.isfile(p):
            sys.exit(f"head_truth.py: {p}: no such file")
    with tempfile.TemporaryDirectory() as d:
        feat, ranks = os.path.join(d, "t.feat.tsv"), os.path.join(d, "ranks.tsv")
        run([os.path.join(a.bin, "featurize"), "-o", feat, a.log])
        run([os.path.join(a.bin, "eval"), "--tree", "t=" + a.tree, "--ranks", ranks, "truth=" + feat])
        clock = read_clock(a.records) if a.records else None
        text, lost = markdown(table(a.tree, feat, ranks, a.near, clock), a.near)
    write_out(a.out, text)
    return 1 if a.strict and lost else 0


def write_out(path, text):
    """TEXT to PATH whole (a temporary file renamed), or to stdout."""
    if path:
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    else:
        sys.stdout.write(text)


def cli(fn):
    """Run fn(argv); a message exit (sys.exit("...")) prints it and exits 2."""
    try:
        sys.exit(fn(sys.argv[1:]))
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            sys.exit(2)
        raise


if __name__ == "__main__":
    cli(main)
