#!/usr/bin/env python3
"""replay.py — the handler's lists replayed on mode b's recorded timings, for
any artifact and k, without a GPU (torch on the CPU is enough).

usage: replay.py RECORDS.jsonl [MORE.jsonl ...] [--artifact FILE.py]
                 [--k auto,1,2,3,5,10]

For every GEMM that a cold (rep 1) mode-b record autotuned (run.py's
"autotuned": op, m, k, n, dtype, mat1/mat2 strides and each choice's ms),
mm and addmm only: the AutoHeuristic context is rebuilt from those values
(mmrank.inductor.context(); is_contiguous from the strides),
the artifact ranks it, and the handler's own rule (mmrank.inductor.head)
keeps the first k offered ids: the triton::mm ids b timed, extern_mm
standing for b's ATen choices.  The kept list is then the kept Triton ids
plus every ATen choice (always kept), and is scored on b's times:
  kept    b's fastest choice is in the list
  regret  fastest of the list / b's fastest, geomean and max
  time    sum over GEMMs of the former / sum of the latter
  triton  mean Triton choices kept (what the compile precompiles and times)
k = auto is the artifact's get_top_k (the per-leaf k; 10 for an artifact
without one, as the handler does, e.g. torch's shipped MMRankingH100); an
int, that k.
With a mode-e record of the same run whose handler used an artifact of the
same class, "same as e" counts the GEMMs whose replayed k = auto list
equals the one e's handler logged for that shape and layout (its first
200 decisions; a log without strides is matched by shape alone): with e's
own artifact, a check that the replay is the handler's rule; with another
one, how many lists it leaves as they were.
A GEMM whose leaf is unsafe (no ranking) keeps b's whole list, as the
handler does.  Markdown on stdout; exit status 1 on a bad file (file:line)
or an artifact that does not load.  Needs the mmrank package
(PYTHONPATH=<repo>/python, or pip install <repo>/python).
"""
import argparse
import math
import os
import re
import sys

from report import geomean, load  # this script's folder

HERE = os.path.dirname(os.path.abspath(__file__))

OPS = ("mm", "addmm")


def contiguous(size, stride):
    """torch's is_contiguous of a 2-D layout: row-major, size-1 dims ignored."""
    r, c = size
    s0, s1 = stride
    return (c == 1 or s1 == 1) and (r == 1 or s0 == c)


def replayable(t, torch):
    """Whether autotuned entry T can be replayed: mm or addmm, its sizes,
    a torch dtype, mat1's and mat2's 2-D strides and a choice with a time
    (records.AUTOTUNED lets each be null or of another rank: bmm, symbolic
    sizes)."""
    st = t.get("strides")
    return (t["op"] in OPS and None not in (t.get("m"), t.get("k"), t.get("n"))
            and isinstance(getattr(torch, str(t.get("dtype")).replace("torch.", ""), None),
                           torch.dtype)
            and isinstance(st, list) and len(st) == 2
            and all(isinstance(s, list) and len(s) == 2 for s in st)
            and any(v for v in t["ms"].values()))


def gemms(runs, torch):
    """[(run, b record, [entry, ...])] of each run's cold mode-b records."""
    out = []
    for i, recs in enumerate(runs, 1):
        for r in recs:
            if (r.get("mode") == "b" and r.get("rep") == 1 and r.get("status") == "ok"
                    and r.get("autotuned")):
                out.append((i, r, [t for t in r["autotuned"] if replayable(t, torch)]))
    return out


def logged(runs, artifact):
    """{(run, model, phase, op, m, k, n, strides): kept list} from mode-e
    handler logs of artifact class ARTIFACT; strides None for a log entry
    without them (then the first list logged for the shape)."""
    out = {}
    for i, recs in enumerate(runs, 1):
        for r in recs:
            if (r.get("mode") == "e" and r.get("rep") == 1 and r.get("status") == "ok"
                    and (r.get("handler") or {}).get("artifact") == artifact):
                for d in r.get("handler_log") or []:
                    st = d.get("strides")
                    out.setdefault((i, r["model"], r["phase"], d["op"], d["m"], d["k"], d["n"],
                                    None if st is None else str(st)), d["kept"])
    return out


def logged_list(logs, run, r, t):
    """The list e logged for b's GEMM T: the one of T's own layout where the
    log has strides, else the shape's."""
    key = (run, r["model"], r["phase"], t["op"], t["m"], t["k"], t["n"])
    want = logs.get(key + (str(t["strides"]),))
    return want if want is not None else logs.get(key + (None,))


def replay(mi, torch, heur, t, k):
    """(kept Triton ids, the whole list, the handler's kept ids or None, k)
    for entry T at K; None for an unsafe leaf or no ranked id offered."""
    ms = t["ms"]
    tri = [c for c in ms if c.startswith("type=triton_")]
    aten = [c for c in ms if not c.startswith("type=triton_")]
    dt = getattr(torch, str(t["dtype"]).replace("torch.", ""))
    s1, s2 = t["strides"]
    ctx = mi.context(t["m"], t["k"], t["n"], dt, dt, s1, s2,
                     contiguous((t["m"], t["k"]), s1), contiguous((t["k"], t["n"]), s2))
    ranked = heur.get_decisions_ranked(ctx)
    if ranked is None:
        return tri, list(ms), None, None
    kk = mi.leaf_k(heur, ctx, k) or mi.DEFAULT_K
    offered = tri + ([mi.EXTERN_ID] if aten else [])
    kept = mi.head(ranked, offered, kk)
    if not kept:
        return tri, list(ms), None, kk
    keep_tri = [c for c in kept if c != mi.EXTERN_ID]
    return keep_tri, keep_tri + aten, kept, kk


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records", nargs="+", help="RECORDS.jsonl files, one per run of the matrix")
    ap.add_argument("--artifact", default=os.path.join(HERE, "..", "..", "gen", "_MMRankingH200.py"))
    ap.add_argument("--k", default="auto,1,2,3,5,10")
    a = ap.parse_args(argv)
    ks = []
    for x in a.k.split(","):
        if x != "auto" and not re.fullmatch(r"[1-9][0-9]{0,3}", x):
            sys.exit(f"replay.py: --k {a.k}: 'auto' or integers >= 1, comma-separated")
        ks.append(x if x == "auto" else int(x))
    runs = [load(f, prog="replay.py") for f in a.records]
    import torch
    from mmrank import inductor as mi
    try:
        heur = mi.load_artifact(a.artifact)
    except mi.Refused as e:
        sys.exit(f"replay.py: {e}")
    todo = gemms(runs, torch)
    n = sum(len(es) for _, _, es in todo)
    if not n:
        print("no cold mode-b record with autotuned GEMMs (mm, addmm) that carry strides")
        return 0
    logs = logged(runs, type(heur).__name__)
    print(f"{n} GEMMs (mm, addmm) of {len(todo)} cold mode-b records; artifact "
          f"{os.path.basename(a.artifact)}\n")
    print("| k | GEMMs | b's winner kept | regret gm | regret max | time | triton kept | mean k "
          "| same as e |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in ks:
        hits, regs, num, den, tri_n, ksum, kn, same, cmp = 0, [], 0.0, 0.0, 0, 0, 0, 0, 0
        for run, r, es in todo:
            for t in es:
                ms = {c: v for c, v in t["ms"].items() if v}
                best = min(ms.values())
                win = min(ms, key=ms.get)
                keep_tri, lst, kept, kk = replay(mi, torch, heur, t, k)
                # no choice of the list has a time: it has no working choice
                got = min((ms[c] for c in lst if c in ms), default=math.inf)
                hits += win in lst
                regs.append(got / best)
                num += got
                den += best
                tri_n += len(keep_tri)
                if kk is not None:
                    ksum += kk
                    kn += 1
                want = logged_list(logs, run, r, t)
                if k == "auto" and want is not None and kept is not None:
                    cmp += 1
                    same += kept == want
        print(f"| {k} | {n} | {hits} | {geomean(regs):.4f} | {max(regs):.4f} | {num / den:.4f} "
              f"| {tri_n / n:.2f} | {ksum / kn if kn else float('nan'):.2f} "
              f"| {f'{same}/{cmp}' if k == 'auto' else '-'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
