#!/usr/bin/env python3
"""tlimit_replay.py — replay bench --time-limit's start rule
(stages/gpu/policy/tlimit.h) on a call that ran: where it would have stopped.

usage: tlimit_replay.py --list SAMPLE.tsv --log LOG[.xz] ... --progress ERR
                        --limit S [--done D] [--cands CANDS]
                        [--unit build/unit/tlimit_print]

  SAMPLE.tsv  the call's shape list, in the order bench measured it
  LOG         the AutoHeuristic logs holding the call's inputs, in order
              (several: joined; each one's two header lines skipped); an
              input's rows are its candidates (--reps 1: one row each)
  ERR         bench's stderr of the call: "M inputs, D already done", its
              progress lines "N/M inputs, ..., elapsed T s" (N done T s in)
              and its "input ID (...): ...; no rows" lines
  S           the call's --time-limit, seconds
  D           the inputs done when the call began, where ERR holds only the
              progress lines (then a list input the logs lack is taken as one
              without rows: nothing to check it against)
  CANDS       the list's candidates, one row per candidate under an `input`
              and an `id` column (`build/bin/triton_cands --candidates
              SAMPLE.tsv CANDS`; id `-`: none): they weigh the inputs the
              call did not measure, which no log holds yet (the input it
              stopped before); without it such an input weighs 0
The rule runs in build/unit/tlimit_print (make units), not here.  The
progress lines give the start of the first input of each step between two
of them and, for a step of one input, its time.  An input inside a step is
decided at the step's start, the earliest it can have started: where that
is already past the limit, bench stopped there or before.  A step's time
teaches the rule only when one input's work is at least 8 times the
others' together (that input is given the whole time); bench itself learns
from every input of >= 2 % of the limit, so it can stop where the replay
does not.  Prints one TSV row per input up to the first the rule does not
start (the call would end there): input (the list's `input`), start_s (">="
inside a step), work (2*m*k*n*candidates), took_s ("-": not known),
predicted_s (0: no prediction), rule (start, time_up, predicted).
Exit 1 with a message on an unreadable file, or (without --done) a list
input the call measured that the logs lack and ERR does not call "no rows".
"""
import argparse
import re
import subprocess
import sys

from mmrank.bench import inductor_log  # the AutoHeuristic log reader

DT = {"torch.float32": 0, "torch.float16": 1, "torch.bfloat16": 2}  # bench's DT_*
KEY = ("m", "k", "n", "dtype", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
       "mat2_stride_1")


def die(msg):
    sys.exit("tlimit_replay: " + msg)


def tsv_rows(path, need, what):
    """(column index by name, rows) of the TSV file PATH, whose header must
    name every column of NEED (else: not WHAT)"""
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        col = {h: i for i, h in enumerate(head)}
        if any(c not in col for c in need):
            die("%s:1: not %s (no %s column)" % (path, what, "/".join(need)))
        rows = []
        for ln, line in enumerate(f, 2):
            r = line.rstrip("\n").split("\t")
            if len(r) != len(head):
                die("%s:%d: %d fields, the header has %d" % (path, ln, len(r), len(head)))
            rows.append(r)
    return col, rows


def read_list(path):
    """[(input, key, tf32)] in list order"""
    col, rows = tsv_rows(path, KEY + ("input", "tf32"), "a shape list")
    return [(r[col["input"]], tuple(r[col[c]] for c in KEY), r[col["tf32"]]) for r in rows]


def read_logs(paths):
    """[[key, candidates]] in log order"""
    out = []
    for p in paths:
        meta, header, rows = inductor_log.read_inductor_log(p)
        if header is None:
            die("%s: no such file" % p)
        cols = header.split(",")
        if cols[:9] != ["m", "k", "n", "mat1_dtype", "mat2_dtype", "mat1_stride_0",
                        "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"]:
            die("%s:2: not an mm log header" % p)
        prev = None
        for row in rows:
            r = row.split(",")
            key = (r[0], r[1], r[2], r[3], r[5], r[6], r[7], r[8])
            if key != prev:
                out.append([key, 0])
                prev = key
            out[-1][1] += 1
    return out


def read_cands(path):
    """{input: candidates} of a candidate list (an `id` of `-`: none)"""
    col, rows = tsv_rows(path, ("input", "id"), "a candidate list")
    out = {}
    for r in rows:
        out[r[col["input"]]] = out.get(r[col["input"]], 0) + (r[col["id"]] != "-")
    return out


def read_progress(path, done):
    """[(N, T)] marks (the first: the inputs done at the call's start, 0.0),
    and the ids ERR says have no rows"""
    marks = [] if done is None else [(done, 0.0)]
    norows = set()
    with open(path) as f:
        for line in f:
            m = re.search(r"shard \S+: (\d+) inputs, (\d+) already done", line)
            if m and done is None:
                marks = [(int(m.group(2)), 0.0)]
            m = re.search(r"\]: (\d+)/\d+ inputs, .*elapsed ([0-9.]+) s", line)
            if m and marks and int(m.group(1)) > marks[-1][0]:
                marks.append((int(m.group(1)), float(m.group(2))))
            m = re.match(r"bench: input (\d+) \(.*; no rows$", line.rstrip("\n"))
            if m:
                norows.add(m.group(1))
    if not marks:
        die("%s: no \"already done\" line (give --done D)" % path)
    return marks, norows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", required=True)
    ap.add_argument("--log", required=True, nargs="+")
    ap.add_argument("--progress", required=True)
    ap.add_argument("--limit", required=True, type=float)
    ap.add_argument("--done", type=int)
    ap.add_argument("--cands")
    ap.add_argument("--unit", default="build/unit/tlimit_print")
    a = ap.parse_args()
    try:
        todo = read_list(a.list)
        logged = read_logs(a.log)
        marks, norows = read_progress(a.progress, a.done)
        cands = read_cands(a.cands) if a.cands else {}
    except (OSError, UnicodeDecodeError, inductor_log.LogError) as e:
        die(str(e))
    # candidates per list position: the logged inputs in order, the list's
    # inputs without rows (no candidates) in between
    nc, j = [], 0
    for _, key, _ in todo:
        if j < len(logged) and logged[j][0] == key:
            nc.append(logged[j][1])
            j += 1
        else:
            nc.append(0)
    for p in range(marks[0][0], min(marks[-1][0], len(todo))):
        if nc[p] == 0 and todo[p][0] not in norows and a.done is None:
            die("input %s (list line %d): measured by the call, but not in the logs and not "
                "\"no rows\" in %s" % (todo[p][0], p + 2, a.progress))
    for p in range(marks[-1][0], len(todo)):  # not measured: weighed by CANDS
        if nc[p] == 0 and todo[p][0] not in norows:
            nc[p] = cands.get(todo[p][0], 0)

    def unit(cmds):
        return subprocess.run([a.unit], input="\n".join(cmds) + "\n", capture_output=True,
                              text=True, check=True).stdout.split("\n")

    # each input's kind and work, as the rule has them (tl_kind, tl_work)
    ask = []
    for (_, key, tf32), c in zip(todo, nc):
        ask += ["kind %d %s" % (DT.get(key[3], 9), tf32), "work %s %s %s %d" % (*key[:3], c)]
    ans = unit(ask)
    kw = [(int(ans[2 * p]), float(ans[2 * p + 1])) for p in range(len(todo))]

    def kind_work(p):
        kind, work = kw[p]
        return (kind, work) if kind >= 0 else (0, 0.0)  # another dtype: never predicted

    cmds, rows = ["limit %r" % a.limit], []
    for i, (n0, t0) in enumerate(marks):
        n1, t1 = marks[i + 1] if i + 1 < len(marks) else (n0 + 1, None)
        step = [p for p in range(n0, n1) if p < len(todo)]
        for p in step:
            kind, work = kind_work(p)
            cmds.append("decide %d %r %r" % (kind, work, t0))
            took = t1 - t0 if t1 is not None and n1 == n0 + 1 else None
            rows.append((todo[p][0], ("%.1f" if p == n0 else ">=%.1f") % t0, work, took))
        if t1 is not None and step:
            big = max(step, key=lambda p: kind_work(p)[1])
            kind, work = kind_work(big)
            if work >= 8 * sum(kind_work(p)[1] for p in step if p != big):
                cmds.append("learn %d %r %r" % (kind, work, t1 - t0))
    res = unit(cmds)
    print("input\tstart_s\twork\ttook_s\tpredicted_s\trule")
    for (ident, start, work, took), r in zip(rows, res):
        rule, pred = r.split()
        print("%s\t%s\t%.4g\t%s\t%s\t%s" % (ident, start, work,
              "-" if took is None else "%.1f" % took, pred, rule))
        if rule != "start":
            break


if __name__ == "__main__":
    main()
