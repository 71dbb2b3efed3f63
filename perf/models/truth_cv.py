#!/usr/bin/env python3
"""truth_cv.py — does prune --truth carry to models it has not seen?  Leave
one model out: for each model of the truth, the leaves' heads and picks are
set by the other models' truth (prune --truth), and scored on the held-out
model's GEMMs against the tree without the truth.  No torch, no GPU.

usage: truth_cv.py TREE.tsv TRUTH_LOG.txt TRUTH.jsonl [--bin build/bin]
                   [--inputs] [-o OUT.md]

TREE.tsv: fit's unpruned tree (out/<gpu>/tree.tsv); it is pruned at its own
ranking_k, with and without the truth.  TRUTH_LOG.txt: the in-graph truth as
an mm log (perf/models/truth_log.py; feedback = in-graph ms).  TRUTH.jsonl:
the truth's records (perf/models/truth.py), which name the model of each
GEMM key (m, k, n, dtype, strides).  A key that several models share is held
out with each of them.  Per held-out input: k = 1's regret (the faster of
the list head and extern_mm, over the input's fastest choice) and the
pick's alone (eval's `first`: the leaf's pick where measured, else the
head).  Output, markdown: one row per held-out model, then the geomean over
every held-out input.  --inputs: then one row per held-out input (m, k, n,
dtype), its leaf without and with the others' truth (node ids of two trees:
prune --truth renumbers them), whether the others' truth marks that leaf
(the node field truth: the pick runs alone there at k = 1), that leaf's
head and pick, and the k = 1 and pick-alone regrets without and with it:
which leaf an input's regret comes from.  Errors exit 2 naming the file or
the stage; a model that owns every GEMM of the truth leaves nothing to
prune with and is refused.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

from head_truth import cli, write_out  # the script's own folder

EXTERN = "extern_mm"


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"truth_cv.py: {os.path.basename(cmd[0])} failed: {r.stderr.strip()[-400:]}")


def row_key(f):
    """The GEMM key of a log row's fields (m, k, n, dtype, four strides)."""
    return (int(f[0]), int(f[1]), int(f[2]), f[3], int(f[5]), int(f[6]), int(f[7]), int(f[8]))


def models_by_key(path):
    out = {}
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            try:
                r = json.loads(line)
            except ValueError:
                sys.exit(f"truth_cv.py: {path}:{n}: not a JSON record")
            for d in r.get("decisions") or []:
                s = d["strides"]
                key = (d["m"], d["k"], d["n"], d["dtype"], s[0][0], s[0][1], s[1][0], s[1][1])
                out.setdefault(key, set()).add(r["model"])
    return out


def read_tree(tree):
    """A tree TSV's params, classes {id: name} and truth-marked leaves (the
    ids of leaves whose node field truth is 1, the last field: FORMATS.md;
    empty without param truth)."""
    params, classes, leaves = {}, {}, []
    with open(tree) as fh:
        for line in fh:
            p = line.rstrip("\n").split("\t")
            if p[0] == "param":
                params[p[1]] = p[2]
            elif p[0] == "class":
                classes[int(p[1])] = p[2]
            elif p[0] == "node" and p[2] == "-1":
                leaves.append(p)
    marked = {int(p[1]) for p in leaves if p[-1] == "1"} if params.get("truth") == "1" else set()
    return params, classes, marked


def score(feat, ranks, names):
    """{tree: [(k1 regret, pick regret, detail), ...]} over the inputs of
    feat; detail: (input's m x k x n dtype, leaf, head, pick)."""
    times, shape = {}, {}
    with open(feat) as fh:
        rows = list(csv.reader(fh, delimiter="\t"))
    ix = {h: i for i, h in enumerate(rows[1])}
    for r in rows[2:]:
        times.setdefault(r[ix["input"]], {})[r[ix["choice"]]] = float(r[ix["median_ms"]])
        shape[r[ix["input"]]] = "%sx%sx%s %s" % (r[ix["m"]], r[ix["k"]], r[ix["n"]],
                                                r[ix["mat1_dtype"]].replace("torch.", ""))
    out = {}
    with open(ranks) as fh:
        for r in csv.DictReader(fh, delimiter="\t"):
            ms, cls = times[r["input"]], names[r["tree"]]
            best = min(ms.values())
            ids = [cls[int(c)] for c in r["ranking"].split(",") if c]
            head = next((c for c in ids if c in ms), EXTERN)
            pick = cls[int(r["pick"])] if r["pick"] not in ("", "-1") else head
            pick = pick if pick in ms else head
            k1 = min(ms.get(head, math.inf), ms.get(EXTERN, math.inf)) / best
            detail = (shape[r["input"]], int(r["leaf"]), head, pick)
            out.setdefault(r["tree"], []).append((k1, ms.get(pick, math.inf) / best, detail))
    return out


def short(choice):
    """A choice's name for a table cell: its config without the prefix."""
    return choice.replace("type=triton_", "").replace("BLOCK-", "B").replace("numstages=", "s") \
        .replace("numwarps=", "w")


def gm(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(argv):
    ap = argparse.ArgumentParser(prog="truth_cv.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("tree")
    ap.add_argument("log")
    ap.add_argument("truth")
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--inputs", action="store_true")
    ap.add_argument("-o", dest="out")
    a = ap.parse_args(argv)
    for p in (a.tree, a.log, a.truth):
        if not os.path.isfile(p):
            sys.exit(f"truth_cv.py: {p}: no such file")
    owners = models_by_key(a.truth)
    with open(a.log) as fh:
        lines = fh.read().splitlines()
    if len(lines) < 3:
        sys.exit(f"truth_cv.py: {a.log}: expected the metadata line, the header and rows")
    head, rows = lines[:2], [(row_key(l.split(",")), l) for l in lines[2:]]
    models = sorted(set().union(*[owners.get(k, set()) for k, _ in rows]))
    if len(models) < 2:
        sys.exit(f"truth_cv.py: {a.log} with {a.truth}: the truth's GEMMs are of "
                 f"{len(models)} model(s) ({', '.join(models) or 'none'}); leaving one out needs two")
    k = read_tree(a.tree)[0].get("ranking_k")
    if k is None:
        sys.exit(f"truth_cv.py: {a.tree}: no param ranking_k (not a tree TSV)")
    b = lambda name: os.path.join(a.bin, name)
    table = ["| held-out model | inputs | k = 1: no truth | with the others' truth | "
             "the pick alone: no truth | with the others' truth |", "|---|---|---|---|---|---|"]
    every = {"base": [], "cv": []}
    per_input = ["", "| held-out model | input | leaf: no truth | leaf: others' truth | marked | "
                 "head (others' truth) | pick (others' truth) | k = 1: no truth | others' truth | "
                 "pick alone: no truth | others' truth |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as d:
        base = os.path.join(d, "base.tsv")
        run([b("prune"), "--ranking", k, "-o", base, a.tree])
        base_classes = read_tree(base)[1]
        for m in models:
            test = [l for key, l in rows if m in owners.get(key, ())]
            train = [l for key, l in rows if m not in owners.get(key, ())]
            if not train:
                sys.exit(f"truth_cv.py: {a.log} with {a.truth}: {m} owns every GEMM of the truth; "
                         "the other models' truth is empty")
            for name, part in (("test", test), ("train", train)):
                with open(os.path.join(d, name + ".txt"), "w") as fh:
                    fh.write("\n".join(head + part) + "\n")
                run([b("featurize"), "-o", os.path.join(d, name + ".feat.tsv"), os.path.join(d, name + ".txt")])
            cv = os.path.join(d, "cv.tsv")
            run([b("prune"), "--ranking", k, "--truth", os.path.join(d, "train.feat.tsv"), "-o", cv, a.tree])
            ranks = os.path.join(d, "ranks.tsv")
            run([b("eval"), "--tree", "base=" + base, "--tree", "cv=" + cv, "--ranks", ranks,
                 "test=" + os.path.join(d, "test.feat.tsv")])
            _, cv_classes, marks = read_tree(cv)
            s = score(os.path.join(d, "test.feat.tsv"), ranks, {"base": base_classes, "cv": cv_classes})
            for t in every:
                every[t] += s[t]
            for (k1b, pb, db), (k1c, pc, dc) in zip(s["base"], s["cv"]):
                per_input.append(f"| {m} | {dc[0]} | {db[1]} | {dc[1]} | {'yes' if dc[1] in marks else 'no'} | "
                                 f"{short(dc[2])} | {short(dc[3])} | {k1b:.4f} | {k1c:.4f} | {pb:.4f} | {pc:.4f} |")
            table.append(f"| {m} | {len(s['base'])} | {gm([x[0] for x in s['base']]):.4f} | "
                         f"{gm([x[0] for x in s['cv']]):.4f} | {gm([x[1] for x in s['base']]):.4f} | "
                         f"{gm([x[1] for x in s['cv']]):.4f} |")
    e = every
    table.append(f"| every held-out input | {len(e['base'])} | {gm([x[0] for x in e['base']]):.4f} | "
                 f"{gm([x[0] for x in e['cv']]):.4f} | {gm([x[1] for x in e['base']]):.4f} | "
                 f"{gm([x[1] for x in e['cv']]):.4f} |")
    write_out(a.out, "\n".join(table + (per_input if a.inputs else [])) + "\n")
    return 0


if __name__ == "__main__":
    cli(main)
