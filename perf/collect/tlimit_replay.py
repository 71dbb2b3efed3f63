#!/usr/bin/env python3
"""tlimit_replay.py — replay bench --time-limit's start rule
(stages/gpu/policy/tlimit.h) on a call that ran: which inputs it would not
have started.

usage: tlimit_replay.py --list SAMPLE.tsv --log LOG[.xz] ... --progress ERR
                        --limit S [--done D] [--unit build/unit/tlimit_print]

  SAMPLE.tsv  the call's shape list, in the order bench measured it
  LOG         the AutoHeuristic logs holding the call's inputs, in order
              (several: joined; header lines of each skipped); an input's
              rows are its candidates (--reps 1: one row each)
  ERR         bench's stderr of the call: "M inputs, D already done" and its
              progress lines "N/M inputs, ..., elapsed T s" (N done T s in)
  S           the call's --time-limit, seconds
  D           the inputs done when the call began, where ERR lacks the line
The rule itself runs in build/unit/tlimit_print (make units), not here.
An input's time is known where two progress lines are one input apart.
Where several inputs share a step, only the first one's start is known, and
the step's time is the time of its largest input when that input's work is
at least 8 times the others' together (else they teach nothing, as if each
were under the 2 % floor).  Prints one
TSV row per input whose start is known, up to the first the rule does not
start (the call would end there): input (the list's `input`), start_s, work
(2*m*k*n*candidates), took_s ("-": not known or not run), predicted_s (0: no
prediction), rule (start, time_up, predicted).
"""
import argparse
import lzma
import re
import subprocess
import sys

KIND = {("torch.float32", "0"): 0, ("torch.float32", "1"): 1,
        ("torch.float16", "0"): 2, ("torch.bfloat16", "0"): 3}


def read_list(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        col = {h: i for i, h in enumerate(head)}
        for line in f:
            r = line.rstrip("\n").split("\t")
            key = tuple(r[col[c]] for c in ("m", "k", "n", "dtype", "mat1_stride_0",
                                            "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"))
            rows.append((r[col["input"]], key, r[col["tf32"]]))
    return rows


def read_logs(paths):
    """[(key, candidates)] in log order"""
    out = []
    for p in paths:
        op = lzma.open if p.endswith(".xz") else open
        with op(p, "rt") as f:
            f.readline(), f.readline()
            prev = None
            for line in f:
                r = line.split(",")
                key = (r[0], r[1], r[2], r[3], r[5], r[6], r[7], r[8])
                if key != prev:
                    out.append([key, 0])
                    prev = key
                out[-1][1] += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", required=True)
    ap.add_argument("--log", required=True, nargs="+")
    ap.add_argument("--progress", required=True)
    ap.add_argument("--limit", required=True, type=float)
    ap.add_argument("--done", type=int)
    ap.add_argument("--unit", default="build/unit/tlimit_print")
    a = ap.parse_args()
    todo = read_list(a.list)
    logged = read_logs(a.log)
    # candidates per list position: the logged inputs in order, the list's
    # inputs without rows (no candidates) in between
    nc, j = [], 0
    for _, key, _ in todo:
        if j < len(logged) and logged[j][0] == key:
            nc.append(logged[j][1])
            j += 1
        else:
            nc.append(0)
    marks = [] if a.done is None else [(a.done, 0.0)]
    with open(a.progress) as f:
        for line in f:
            m = re.search(r"shard \S+: (\d+) inputs, (\d+) already done", line)
            if m:
                marks = [(int(m.group(2)), 0.0)]
            m = re.search(r"\]: (\d+)/\d+ inputs, .*elapsed ([0-9.]+) s", line)
            if m and marks and int(m.group(1)) > marks[-1][0]:
                marks.append((int(m.group(1)), float(m.group(2))))
    if not marks:
        sys.exit("tlimit_replay: %s: no \"already done\" line" % a.progress)
    if j < len(logged) and marks[-1][0] > j:
        sys.exit("tlimit_replay: the logs end before the progress lines' last input")
    def kind_work(p):
        _, key, tf32 = todo[p]
        if (key[3], tf32) not in KIND:
            return 0, 0.0  # another dtype: no work, never predicted
        return KIND[(key[3], tf32)], 2.0 * int(key[0]) * int(key[1]) * int(key[2]) * nc[p]

    cmds, rows = ["limit %r" % a.limit], []
    for i, (n0, t0) in enumerate(marks):
        if n0 >= len(todo):
            break
        kind, work = kind_work(n0)
        cmds.append("decide %d %r %r" % (kind, work, t0))
        took = None
        if i + 1 < len(marks):
            n1, t1 = marks[i + 1]
            step = sorted(range(n0, n1), key=lambda p: kind_work(p)[1])
            big = kind_work(step[-1])
            if big[1] >= 8 * sum(kind_work(p)[1] for p in step[:-1]):
                cmds.append("learn %d %r %r" % (big[0], big[1], t1 - t0))
                took = t1 - t0 if n1 == n0 + 1 else None
        rows.append((todo[n0][0], t0, work, took))
    res = subprocess.run([a.unit], input="\n".join(cmds) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")
    print("input\tstart_s\twork\ttook_s\tpredicted_s\trule")
    for (ident, t0, work, took), r in zip(rows, res):
        rule, pred = r.split()
        print("%s\t%.1f\t%.4g\t%s\t%s\t%s" % (ident, t0, work,
              "-" if took is None else "%.1f" % took, pred, rule))
        if rule != "start":
            break


if __name__ == "__main__":
    main()
