#!/usr/bin/env python3
"""coverage.py — how many of its measured candidates each out-of-fold test
input finds in its leaf's list (spec §7.3: Inductor keeps the listed ids it
offers, in list order, and benchmarks the first K plus extern_mm).

usage: coverage.py [--bin DIR] [--k K] OOF_DIR/GPU [FOLDS]

OOF_DIR/GPU is perf/compare/oof.sh's folder of one GPU (fold<F>/ours.pruned.tsv
and fold<F>/test.feat.tsv, F = 0 .. FOLDS-1, default 5).  A test input's
offered Triton candidates are the choices measured for it (a failed one, inf,
too: Inductor offered it) other than extern_mm.  Prints the inputs, the mean
number of Triton candidates benchmarked (min(K, offered ones the list names)),
and how many inputs get fewer than min(K, offered).  Uses DIR/eval --ranks
(default build/bin).
"""
import os
import subprocess
import sys
import tempfile


def read_feat(path):
    """input -> set of measured choice ids."""
    with open(path) as f:
        lines = f.read().split("\n")
    head = lines[1].split("\t")
    ii, ci = head.index("input"), head.index("choice")
    out = {}
    for line in lines[2:]:
        if line:
            x = line.split("\t")
            out.setdefault(int(x[ii]), set()).add(x[ci])
    return out


def main():
    args = sys.argv[1:]
    bindir, k = "build/bin", 10
    for opt in ("--bin", "--k"):
        if opt in args:
            i = args.index(opt)
            if opt == "--bin":
                bindir = args[i + 1]
            else:
                k = int(args[i + 1])
            del args[i:i + 2]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    d, folds = args[0], int(args[1]) if len(args) == 2 else 5
    n = got = short = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in range(folds):
            fd = os.path.join(d, f"fold{f}")
            tree, feat = os.path.join(fd, "ours.pruned.tsv"), os.path.join(fd, "test.feat.tsv")
            ranks = os.path.join(tmp, f"r{f}.tsv")
            subprocess.run([os.path.join(bindir, "eval"), "--ranks", ranks, tree, feat],
                           stdout=subprocess.DEVNULL, check=True)
            with open(tree) as t:
                cls = [r.rstrip("\n").split("\t")[2] for r in t if r.startswith("class\t")]
            meas = read_feat(feat)
            with open(ranks) as r:
                for row in r.read().split("\n")[1:]:
                    if not row:
                        continue
                    x = row.split("\t")
                    offered = meas[int(x[2])] - {"extern_mm"}
                    named = sum(1 for c in x[5].split(",") if c and cls[int(c)] in offered)
                    b = min(k, named)
                    n += 1
                    got += b
                    short += b < min(k, len(offered))
    print(f"{d}: {n} inputs, Triton candidates benchmarked (top-{k}) mean {got / n:.3f}, "
          f"inputs with fewer than min({k}, offered): {short}")


if __name__ == "__main__":
    main()
