#!/usr/bin/env python3
"""rank_py.py — rank every context of a TSV with a generated Python heuristic
(spec §6.1), importing it against the torch stand-in check/stub (run it
with PYTHONPATH=check/stub: check/lib.sh's stub_python).

usage: rank_py.py MODULE.py CLASS CONTEXTS.tsv [--ai] [--append NAME]
                  [--bench SECONDS | --top-k | --pick | --truth]

CONTEXTS.tsv: a feat TSV (line 1 metadata JSON, line 2 header; one context
per distinct `input`, its first row) or a plain TSV with a header.  Columns
used by name: m k n mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1
mat1_dtype mat2_dtype mat1_iscontig mat2_iscontig using_tf32.
Output, one line per context: "<n>\t[<arith_intensity %.17g>\t]<ranking>"
with ranking "idx:p,idx:p,..." (p %.3f, leaf order), "None" or "-" (empty).
--append NAME: append (0.0, index of choice NAME) to every list without it
(Inductor's always-included choice, spec §7.3 step 5; the C twin's rank()
does the same); NAME's index is len(choices) when it is no
choice (the C table then adds it last).
--top-k: instead "<n>\t<get_top_k()>" per context (None printed as -1,
as the C twin's NAME_top_k() returns it).
--pick: instead "<n>\t<the index of get_pick()'s choice>" per context (None,
an unsafe leaf, printed as --append NAME's index, the choice the C twin's
NAME_pick() returns there; -1 without --append).
--truth: instead "<n>\t<get_truth()>" per context (True or False; "-"
when the class has no get_truth).
--bench: instead print microseconds per get_best_choices() call.
"""
import importlib.util
import os
import sys
import time

from torch._inductor.autoheuristic.autoheuristic_utils import (
    AHContext, AHMetadata, mm_operations)
from ctxrows import COLUMNS, context_rows  # this script's folder

NUM = ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"]


def read_contexts(path):
    out = []
    for v in context_rows(path, "rank_py"):
        ctx = AHContext()
        for name in COLUMNS:
            if name in NUM:
                ctx.add_feature(name, int(v[name]))
            else:
                ctx.add_feature(name, v[name], is_categorical=True)
        ctx.apply_operations(mm_operations())
        out.append(ctx)
    return out


def main():
    args = sys.argv[1:]
    ai = "--ai" in args
    if ai:
        args.remove("--ai")
    append = None
    if "--append" in args:
        i = args.index("--append")
        append = args[i + 1]
        del args[i:i + 2]
    topk = "--top-k" in args
    if topk:
        args.remove("--top-k")
    pick = "--pick" in args
    if pick:
        args.remove("--pick")
    truth = "--truth" in args
    if truth:
        args.remove("--truth")
    bench = None
    if "--bench" in args:
        i = args.index("--bench")
        bench = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    mod_path, cls_name, tsv = args
    spec = importlib.util.spec_from_file_location(
        os.path.splitext(os.path.basename(mod_path))[0], mod_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    h = getattr(mod, cls_name)()
    ctxs = read_contexts(tsv)
    if bench is not None:
        calls, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < bench:
            for c in ctxs:
                h.get_best_choices(c)
            calls += len(ctxs)
        dt = time.perf_counter() - t0
        print(f"{dt / calls * 1e6:.3f}")
        return
    w = sys.stdout.write
    d = None
    if append is not None:
        d = h.choices.index(append) if append in h.choices else len(h.choices)
    for i, c in enumerate(ctxs):
        if topk:
            k = h.get_top_k(c)
            w(f"{i}\t{-1 if k is None else k}\n")
            continue
        if truth:
            w(f"{i}\t{h.get_truth(c) if hasattr(h, 'get_truth') else '-'}\n")
            continue
        if pick:
            p = h.get_pick(c)
            w(f"{i}\t{(-1 if d is None else d) if p is None else h.choices.index(p)}\n")
            continue
        r = h.get_best_choices(c)
        if r is not None and d is not None and all(idx != d for _, idx in r):
            r = r + [(0.0, d)]
        s = "None" if r is None else (",".join(f"{idx}:{p:.3f}" for p, idx in r) or "-")
        if ai:
            w(f"{i}\t{c.get_value('arith_intensity'):.17g}\t{s}\n")
        else:
            w(f"{i}\t{s}\n")


if __name__ == "__main__":
    main()
