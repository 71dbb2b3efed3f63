#!/usr/bin/env python3
"""proxy.py — replay Inductor's use of a ranking artifact (spec §7.3) on the
shapes of an In-Inductor run, without a GPU.

usage: proxy.py INDUCTOR.jsonl NAME=ARTIFACT.py[:CLASS] [NAME=...] [--top-k K]
                [--check-mode MODE=NAME] [--per-shape] [--triton-cands BIN]

INDUCTOR.jsonl: the records of perf/inductor/run.sh (dropin.py): one per
shape, mode and round.  The ids Inductor ranks for a shape are the ones
tuned_mm offers with AutoHeuristic on: its configs plus the "mm-ah" extra
configs (torch/_inductor/kernel/mm.py; spec §3.5), exactly the candidates of
the Triton back end, computed by BIN (default build/bin/triton_cands, from
the committed torch 2.11 tables).  Full autotune's winners are its rounds'
`autotune_winner` (none: a round with one candidate, or extern_mm's win,
which dropin.py records as an empty string).
For each artifact (imported against the torch stand-in in check/emit/stub;
CLASS defaults to the file name up to its first '.', without the leading
'_') the
context is built from the record's m, k, n, dtype, strides and tf32 as
Inductor's mm context is (the values the training logs hold), ranked with
get_best_choices, and the candidates Inductor would benchmark computed
exactly as torch 2.11 does: the listed choices that are offered, in list
order, the first K (default 10), then extern_mm when absent
(learned_heuristic_controller.get_decisions_ranked, autoheuristic.
get_top_k_choices).

Output per artifact: shapes with fewer than min(K, offered) candidates,
candidates benchmarked (total, min), and how many of full autotune's
winners (shape x round; extern_mm's wins count as covered, extern_mm is
always benchmarked) fall in that set.  --per-shape adds one line per shape.
--check-mode MODE=NAME: assert that for every record of MODE the recorded
`benchmarked` set equals the set computed for artifact NAME (proves the
replay models Inductor; exit 1 with the shape on the first difference).
Errors (unreadable file, a record without a field, an artifact without the
class): a message naming the file, exit 2.  Nothing is written.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "check", "emit", "stub"))
from torch._inductor.autoheuristic.autoheuristic_utils import (  # noqa: E402
    AHContext, mm_operations)

EXTERN = "extern_mm"


def die(msg, code=2):
    sys.stderr.write(f"proxy: {msg}\n")
    sys.exit(code)


def load_records(path):
    recs = []
    try:
        with open(path) as f:
            for ln, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    die(f"{path}:{ln}: not JSON ({e})")
                for key in ("mode", "row", "m", "k", "n", "dtype", "strides", "tf32",
                            "benchmarked"):
                    if key not in r:
                        die(f"{path}:{ln}: record without field '{key}'")
                recs.append(r)
    except OSError as e:
        die(f"{path}: {e.strerror}")
    return recs


def load_artifact(spec):
    if "=" not in spec:
        die(f"'{spec}': expected NAME=ARTIFACT.py[:CLASS]")
    name, rest = spec.split("=", 1)
    path, _, cls = rest.partition(":")
    if not cls:
        cls = os.path.basename(path).split(".")[0].lstrip("_")
        if cls.startswith("0mmrank_"):
            cls = cls[len("0mmrank_"):]
    if not os.path.isfile(path):
        die(f"{path}: no such artifact")
    mspec = importlib.util.spec_from_file_location(f"proxy_{name}", path)
    mod = importlib.util.module_from_spec(mspec)
    mspec.loader.exec_module(mod)
    if not hasattr(mod, cls):
        die(f"{path}: no class {cls}")
    return name, getattr(mod, cls)()


def offered_sets(recs, bin_path):
    """{row: set of ids tuned_mm offers} by triton_cands over the rows' shapes."""
    rows = {}
    for r in recs:
        rows.setdefault(r["row"], r)
    order = sorted(rows)
    with tempfile.TemporaryDirectory() as tmp:
        shapes, out = os.path.join(tmp, "shapes.tsv"), os.path.join(tmp, "cands.tsv")
        with open(shapes, "w") as f:
            f.write("input\tm\tk\tn\tdtype\ttf32\tmat1_stride_0\tmat1_stride_1\t"
                    "mat2_stride_0\tmat2_stride_1\n")
            for i, row in enumerate(order):
                r = rows[row]
                f.write("\t".join(str(v) for v in [i, r["m"], r["k"], r["n"], r["dtype"],
                                                   int(bool(r["tf32"]))] + list(r["strides"])))
                f.write("\n")
        try:
            p = subprocess.run([bin_path, shapes, out], capture_output=True, text=True)
        except OSError as e:
            die(f"{bin_path}: {e.strerror} (make build/bin/triton_cands)")
        if p.returncode != 0:
            die(f"{bin_path}: {p.stderr.strip()}")
        sets = {row: set() for row in order}
        with open(out) as f:
            head = f.readline().rstrip("\n").split("\t")
            ci, cid = head.index("input"), head.index("id")
            for line in f:
                v = line.rstrip("\n").split("\t")
                if v[cid] != "-":
                    sets[order[int(v[ci])]].add(v[cid])
    return sets


def context(r):
    m, k, n = r["m"], r["k"], r["n"]
    s = r["strides"]
    ctx = AHContext()
    for key, v in (("m", m), ("k", k), ("n", n), ("mat1_stride_0", s[0]),
                   ("mat1_stride_1", s[1]), ("mat2_stride_0", s[2]), ("mat2_stride_1", s[3])):
        ctx.add_feature(key, int(v))
    f32 = r["dtype"] == "torch.float32"
    cat = {"mat1_dtype": r["dtype"], "mat2_dtype": r["dtype"],
           "mat1_iscontig": str(s[0] == k and s[1] == 1),
           "mat2_iscontig": str(s[2] == n and s[3] == 1),
           "using_tf32": str(bool(r["tf32"])) if f32 else "not_float_32"}
    for key, v in cat.items():
        ctx.add_feature(key, v, is_categorical=True)
    ctx.apply_operations(mm_operations())
    return ctx


def ranked_avail(h, ctx, offered, top_k):
    """The ranking's first top_k offered ids (None: the heuristic returned None)."""
    ranked = h.get_best_choices(ctx)
    if ranked is None:
        return None
    ids = [h.get_choice(idx) for _, idx in ranked]
    return [c for c in ids if c is not None and c in offered][:top_k]


def benchmarked(h, ctx, offered, top_k):
    avail = ranked_avail(h, ctx, offered, top_k)
    if avail is None:
        return None
    return avail + ([] if EXTERN in avail else [EXTERN])


def main():
    args = sys.argv[1:]
    top_k, per_shape, checks = 10, False, []
    bin_path = os.path.join(HERE, "..", "..", "build", "bin", "triton_cands")
    if "--triton-cands" in args:
        i = args.index("--triton-cands")
        if i + 1 >= len(args):
            die("--triton-cands needs a value")
        bin_path = args[i + 1]
        del args[i:i + 2]
    if "--per-shape" in args:
        args.remove("--per-shape")
        per_shape = True
    while "--top-k" in args or "--check-mode" in args:
        opt = "--top-k" if "--top-k" in args else "--check-mode"
        i = args.index(opt)
        if i + 1 >= len(args):
            die(f"{opt} needs a value")
        v = args[i + 1]
        del args[i:i + 2]
        if opt == "--top-k":
            if not v.isdigit() or int(v) < 1:
                die(f"--top-k '{v}': expected an integer >= 1")
            top_k = int(v)
        else:
            if "=" not in v:
                die(f"--check-mode '{v}': expected MODE=NAME")
            checks.append(tuple(v.split("=", 1)))
    if len(args) < 2:
        die(__doc__.strip(), 2)
    recs = load_records(args[0])
    arts = dict(load_artifact(a) for a in args[1:])
    for _, name in checks:
        if name not in arts:
            die(f"--check-mode: no artifact named {name}")
    offered = offered_sets(recs, bin_path)
    shapes = {}
    for r in recs:
        s = shapes.setdefault(r["row"], {"rec": r, "offered": offered[r["row"]],
                                         "winners": [], "full": set()})
        if r["mode"] == "full":
            s["full"].update(r["benchmarked"])
            s["winners"].append(r.get("autotune_winner") or EXTERN)
    for row, s in shapes.items():
        if not s["full"] <= s["offered"]:
            die(f"{args[0]}: row {row}: full autotune benchmarked ids the candidate rule "
                f"does not offer ({sorted(s['full'] - s['offered'])[:2]}): other torch tables?")
    for mode, name in checks:
        h, n_ok = arts[name], 0
        for r in recs:
            if r["mode"] != mode or r["row"] not in shapes:
                continue
            got = benchmarked(h, context(r), shapes[r["row"]]["offered"], top_k)
            if got is None or set(got) != set(r["benchmarked"]):
                die(f"{args[0]}: row {r['row']} {r.get('shape')} round {r.get('round')}: "
                    f"mode {mode} benchmarked {len(r['benchmarked'])}, {name} gives "
                    f"{'None' if got is None else len(got)} ({sorted(set(r['benchmarked']) ^ set(got or []))[:3]})", 1)
            n_ok += 1
        print(f"check: every {mode} record ({n_ok}) benchmarked exactly {name}'s replayed set")
    for name, h in arts.items():
        short, n_bench, covered, n_win, lines = 0, [], 0, 0, []
        for row in sorted(shapes):
            s = shapes[row]
            avail = ranked_avail(h, context(s["rec"]), s["offered"], top_k) or []
            got = avail + ([] if EXTERN in avail else [EXTERN])
            if len(avail) < min(top_k, len(s["offered"])):
                short += 1
            n_bench.append(len(got))
            cov = sum(w in got for w in s["winners"])
            covered += cov
            n_win += len(s["winners"])
            lines.append(f"  {row}\t{s['rec'].get('shape')}\t{s['rec']['dtype']}\toffered "
                         f"{len(s['offered'])}\tbenchmarked {len(got)}\tfull winners in set "
                         f"{cov}/{len(s['winners'])}")
        print(f"{name}: {len(shapes)} shapes; fewer than min({top_k}, offered) candidates on "
              f"{short}; candidates benchmarked {sum(n_bench)} (min {min(n_bench)}); full "
              f"autotune's winners in the set {covered}/{n_win}")
        if per_shape:
            print("\n".join(lines))


if __name__ == "__main__":
    main()
