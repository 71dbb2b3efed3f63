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
For each artifact (imported against the torch at hand: a CPU build will
do, and the tests give the stand-in check/stub on PYTHONPATH;
CLASS defaults to the file name up to its first '.', without the leading
'_') the
context is built from the record's m, k, n, dtype, strides and tf32 as
Inductor's mm context is (the values the training logs hold), ranked with
get_best_choices, and the candidates Inductor would benchmark computed
exactly as torch 2.11 does: the listed choices that are offered, in list
order, the first K (default 10), then extern_mm when absent
(learned_heuristic_controller.get_decisions_ranked, autoheuristic.
get_top_k_choices).  Where Inductor gets no ranking (the artifact's
check_precondition is false for the device, shared memory 232448 and
capability (9, 0) as on an H100/H200, the device of triton_cands' tables;
or get_best_choices returns None, an unsafe leaf) tuned_mm autotunes its
candidates without the "mm-ah" extra configs, and so does the replay: the
shape counts as not consulted.  mat1_iscontig/mat2_iscontig are Inductor's
layout.is_contiguous() (size-1 dimensions ignored;
mmrank.bench.inductor_shapes.is_contiguous).  Needs the mmrank package:
PYTHONPATH=<repo>/python or pip install <repo>/python.

Output per artifact: shapes with fewer than min(K, offered) candidates,
candidates benchmarked (total, min), and how many of full autotune's
winners (shape x round; extern_mm's wins count as covered, extern_mm is
always benchmarked) fall in that set; then, only where some are, the shapes
Inductor does not consult it on.  --per-shape adds one line per shape.
--check-mode MODE=NAME: assert that for every record of MODE the recorded
`benchmarked` set equals the set computed for artifact NAME, and its
`fallback` (where recorded) whether Inductor got no ranking (proves the
replay models Inductor; exit 1 with the shape on the first difference; a
MODE without records is an error).
Errors (unreadable file, a line that is not a JSON object, a record without
a field or with a field of the wrong type, records of one row with
different shapes, an artifact that does not import or lacks the class or
its methods, two artifacts of one NAME, an unknown option): a message
naming the file (and line, field), exit 2.  Nothing is written.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from mmrank.bench.inductor_shapes import is_contiguous

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    from torch._inductor.autoheuristic.autoheuristic_utils import (
        AHContext, AHMetadata, mm_operations)
except ImportError as _e:
    sys.exit(f"proxy: needs torch's AutoHeuristic interface (a CPU torch will do; the tests "
             f"put the stand-in check/stub on PYTHONPATH): {_e}")

EXTERN = "extern_mm"
# the device Inductor's metadata describes (AutoHeuristic's shared_memory and
# device_capa): an H100/H200, the device of triton_cands' default tables
SHARED_MEMORY, DEVICE_CAPA = 232448, (9, 0)
DTYPES = ("torch.float16", "torch.bfloat16", "torch.float32")
# what a row's records must agree on: the shape Inductor saw
SHAPE_KEYS = ("m", "k", "n", "dtype", "strides", "tf32")


def die(msg, code=2):
    sys.stderr.write(f"proxy: {msg}\n")
    sys.exit(code)


def is_int(v, lo):
    return isinstance(v, int) and not isinstance(v, bool) and v >= lo


def field_error(r):
    """The first field of record r of the wrong type, as 'field ...', or None."""
    for key in ("m", "k", "n"):
        if not is_int(r[key], 1):
            return f"field '{key}': {json.dumps(r[key])} is not an integer >= 1"
    if not is_int(r["row"], 0):
        return f"field 'row': {json.dumps(r['row'])} is not an integer >= 0"
    if not isinstance(r["mode"], str):
        return f"field 'mode': {json.dumps(r['mode'])} is not a string"
    if r["dtype"] not in DTYPES:
        return f"field 'dtype': {json.dumps(r['dtype'])} is not one of {', '.join(DTYPES)}"
    st = r["strides"]
    if not (isinstance(st, list) and len(st) == 4 and all(is_int(v, 0) for v in st)):
        return f"field 'strides': {json.dumps(st)} is not 4 integers >= 0"
    if not isinstance(r["tf32"], bool):
        return f"field 'tf32': {json.dumps(r['tf32'])} is not true or false"
    b = r["benchmarked"]
    if not (b is None or isinstance(b, list) and all(isinstance(c, str) for c in b)):
        return "field 'benchmarked': neither null (nothing autotuned) nor a list of choice ids"
    if "fallback" in r and not isinstance(r["fallback"], bool):
        return f"field 'fallback': {json.dumps(r['fallback'])} is not true or false"
    return None


def load_records(path):
    recs, first = [], {}
    try:
        with open(path) as f:
            for ln, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    die(f"{path}:{ln}: not JSON ({e})")
                if not isinstance(r, dict):
                    die(f"{path}:{ln}: not a JSON object")
                for key in ("mode", "row", "m", "k", "n", "dtype", "strides", "tf32",
                            "benchmarked"):
                    if key not in r:
                        die(f"{path}:{ln}: record without field '{key}'")
                why = field_error(r)
                if why:
                    die(f"{path}:{ln}: {why}")
                shape = tuple(json.dumps(r[key]) for key in SHAPE_KEYS)
                fl, fshape = first.setdefault(r["row"], (ln, shape))
                if shape != fshape:
                    i = next(i for i, (a, b) in enumerate(zip(shape, fshape)) if a != b)
                    die(f"{path}:{ln}: field '{SHAPE_KEYS[i]}': row {r['row']} has {shape[i]} "
                        f"here, {fshape[i]} on line {fl}")
                if r["benchmarked"] is None:
                    r["benchmarked"] = []
                recs.append(r)
    except OSError as e:
        die(f"{path}: {e.strerror}")
    except UnicodeDecodeError as e:
        die(f"{path}: not UTF-8 text ({e.reason})")
    if not recs:
        die(f"{path}: no records")
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
    try:
        mspec.loader.exec_module(mod)
    except Exception as e:  # the artifact's own error, whatever it is
        die(f"{path}: does not import: {type(e).__name__}: {e}")
    if not hasattr(mod, cls):
        die(f"{path}: no class {cls}")
    try:
        h = getattr(mod, cls)()
    except Exception as e:
        die(f"{path}: class {cls}: {type(e).__name__}: {e}")
    for meth in ("check_precondition", "get_best_choices", "get_choice"):
        if not callable(getattr(h, meth, None)):
            die(f"{path}: class {cls} has no method {meth} (not a LearnedHeuristicDecision)")
    return name, h


def offered_sets(recs, bin_path):
    """{row: (set of ids tuned_mm offers, the subset it autotunes without a
    ranking: all but the "mm-ah" extra configs)} by triton_cands over the
    rows' shapes."""
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
        sets = {row: (set(), set()) for row in order}
        with open(out) as f:
            head = f.readline().rstrip("\n").split("\t")
            ci, cid, cl = head.index("input"), head.index("id"), head.index("list")
            for line in f:
                v = line.rstrip("\n").split("\t")
                if v[cid] != "-":
                    offered, base = sets[order[int(v[ci])]]
                    offered.add(v[cid])
                    if v[cl] != "mm-ah":
                        base.add(v[cid])
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
           "mat1_iscontig": str(is_contiguous((m, k), s[0:2])),
           "mat2_iscontig": str(is_contiguous((k, n), s[2:4])),
           "using_tf32": str(bool(r["tf32"])) if f32 else "not_float_32"}
    for key, v in cat.items():
        ctx.add_feature(key, v, is_categorical=True)
    ctx.apply_operations(mm_operations())
    return ctx


def replay(h, ctx, offered, base, top_k):
    """What tuned_mm benchmarks with artifact h alone installed: (the ids,
    the ranking's first top_k offered ids or None where Inductor gets no
    ranking and autotunes base, its candidates without the mm-ah configs)."""
    md = AHMetadata(SHARED_MEMORY, DEVICE_CAPA, sorted(offered), "mm")
    ranked = h.get_best_choices(ctx) if h.check_precondition(md, ctx) else None
    if ranked is None:
        return sorted(base), None
    ids = [h.get_choice(idx) for _, idx in ranked]
    avail = [c for c in ids if c is not None and c in offered][:top_k]
    return avail + ([] if EXTERN in avail else [EXTERN]), avail


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
    for a in args:
        if a.startswith("--"):
            die(f"unknown option '{a}' (usage: see the top of {sys.argv[0]})")
    if len(args) < 2:
        die(__doc__.strip(), 2)
    recs = load_records(args[0])
    arts = {}
    for a in args[1:]:
        name, h = load_artifact(a)
        if name in arts:
            die(f"'{a}': a second artifact named {name}")
        arts[name] = h
    modes = sorted({r["mode"] for r in recs})
    for mode, name in checks:
        if name not in arts:
            die(f"--check-mode: no artifact named {name}")
        if mode not in modes:
            die(f"--check-mode {mode}={name}: {args[0]} has no record of mode '{mode}' "
                f"(modes: {', '.join(modes)})")
    offered = offered_sets(recs, bin_path)
    shapes = {}
    for r in recs:
        o, b = offered[r["row"]]
        s = shapes.setdefault(r["row"], {"rec": r, "offered": o, "base": b,
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
            s = shapes[r["row"]]
            got, avail = replay(h, context(r), s["offered"], s["base"], top_k)
            where = (f"{args[0]}: row {r['row']} {r.get('shape')} round {r.get('round')}: "
                     f"mode {mode}")
            if set(got) != set(r["benchmarked"]):
                die(f"{where} benchmarked {len(r['benchmarked'])}, {name} gives "
                    f"{len(got)} ({sorted(set(r['benchmarked']) ^ set(got))[:3]})", 1)
            if "fallback" in r and r["fallback"] != (avail is None):
                die(f"{where}: fallback {str(r['fallback']).lower()}, but {name} "
                    f"{'gives Inductor no ranking' if avail is None else 'ranks'}", 1)
            n_ok += 1
        print(f"check: every {mode} record ({n_ok}) benchmarked exactly {name}'s replayed set")
    for name, h in arts.items():
        short, unused, n_bench, covered, n_win, lines = 0, 0, [], 0, 0, []
        for row in sorted(shapes):
            s = shapes[row]
            got, avail = replay(h, context(s["rec"]), s["offered"], s["base"], top_k)
            if avail is None:
                unused += 1
            elif len(avail) < min(top_k, len(s["offered"])):
                short += 1
            n_bench.append(len(got))
            cov = sum(w in got for w in s["winners"])
            covered += cov
            n_win += len(s["winners"])
            lines.append(f"  {row}\t{s['rec'].get('shape')}\t{s['rec']['dtype']}\toffered "
                         f"{len(s['offered'])}\tbenchmarked {len(got)}\tfull winners in set "
                         f"{cov}/{len(s['winners'])}" + ("" if avail is not None
                                                        else " (not consulted)"))
        print(f"{name}: {len(shapes)} shapes; fewer than min({top_k}, offered) candidates on "
              f"{short}; candidates benchmarked {sum(n_bench)} (min {min(n_bench)}); full "
              f"autotune's winners in the set {covered}/{n_win}"
              + (f"; Inductor does not consult it on {unused} (check_precondition false for "
                 f"shared memory {SHARED_MEMORY}, capability {DEVICE_CAPA}, or get_best_choices "
                 f"None: autotuned without the mm-ah configs)" if unused else ""))
        if per_shape:
            print("\n".join(lines))


if __name__ == "__main__":
    main()
