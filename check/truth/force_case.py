#!/usr/bin/env python3
"""force_case.py — one call of mmrank.force's ForceChoices on a fake GEMM,
against the torch stand-in check/stub (check/t6170-truth.sh runs it with
PYTHONPATH=check/handler:check/stub:python).

usage: force_case.py CANDS.tsv INPUT OP [--rank J] [--map FILE.json]
                     [--others] [--fail ID] [--flexible] [--pin aten|none]

The call's choices are built as check/handler/case.py builds them (its
helpers): OP mm (aten::mm, then the input's "mm" rows as triton::mm), addmm
(aten::bias_addmm, aten::addmm, triton::mm) or bmm (aten::bmm,
triton::bmm); --others adds a decompose_k (k_split 4) and a
triton::mm_persistent_tma choice.  --fail ID: that choice does not generate
(its .choice is None); --flexible: every .choice raises, as a template's
does in torch 2.11 before Inductor fixes the output layout.  Prints each returned choice's id ("returned ID"),
"count N", then "log JSON" (the decision) and "pinned JSON"."""
import json
import sys

import case  # check/handler/case.py: the fake GEMM's parts
from torch._inductor.kernel_template_choice import DictKernelTemplateParams, KernelTemplateChoice

from mmrank import force as mf


def main(argv):
    cands, inp, op = argv[:3]
    opts = argv[3:]

    def opt(name, default=None):
        return opts[opts.index(name) + 1] if name in opts else default
    rows = case.read_cands(cands, inp)
    r0 = rows[0]
    m, kk, n = int(r0["m"]), int(r0["k"]), int(r0["n"])
    dt = case.DT[r0["dtype"]]
    st = [int(r0[c]) for c in ("mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1")]
    ki = case.Inputs(case.Node([m, kk], st[0:2], dt), case.Node([kk, n], st[2:4], dt))
    fail = opt("--fail")

    def choice(self):
        # torch 2.11 generates a template's code only once its output layout
        # is fixed, after _finalize_template_configs: --flexible asks for it
        # before, as an H100 run showed ("convert FlexibleLayout to FixedLayout first")
        if "--flexible" in opts:
            raise AssertionError("convert FlexibleLayout to FixedLayout first")
        return None if mf.choice_id(self) == fail else ("choice", mf.choice_id(self))
    KernelTemplateChoice.choice = property(choice)

    def ktc(uid, kw):
        return KernelTemplateChoice(case.tmpl(uid), DictKernelTemplateParams(kw), {"op": op},
                                    "layout", ki)
    mm_uid = "triton::bmm" if op == "bmm" else "triton::mm"
    aten = {"mm": ["aten::mm"], "addmm": ["aten::bias_addmm", "aten::addmm"],
            "bmm": ["aten::bmm"]}[op]
    tc = {a: iter([ktc(a, {})]) for a in aten}
    tc[mm_uid] = iter([ktc(mm_uid, case.params(r)) for r in rows if r["list"] == "mm"])
    if "--others" in opts:
        tc["decompose_k"] = iter([ktc("decompose_k", {"k_split": 4})])
        tc["triton::mm_persistent_tma"] = iter([ktc("triton::mm_persistent_tma",
                                                    case.params(rows[1]))])
    templates = [case.tmpl(u) for u in tc]
    h = mf.ForceChoices(pin=opt("--pin", "aten"))
    id_map = None
    if "--map" in opts:
        with open(opt("--map")) as fh:
            id_map = json.load(fh)
    rank = opt("--rank")
    h.configure(rank=int(rank) if rank is not None else None, id_map=id_map)
    out = h._finalize_template_configs(tc, ki, templates, op, None)
    for c in out:
        print("returned", mf.choice_id(c))
    print("count", len(out))
    print("log", json.dumps(h.log[-1] if h.log else None))
    print("pinned", json.dumps(h.pinned))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
